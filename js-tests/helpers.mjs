// Shared helpers of the JS tests: the pkg/ entry (resolved as a consumer would), the frozen
// fixture files the Rust tests read too, and canonical JSON for comparisons.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const pkgDir = join(root, "pkg");

/** The entry file of pkg/: exports["."], then module, then main. */
export function entryPath() {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const dot = manifest.exports?.["."];
  const rel = (typeof dot === "string" ? dot : dot?.require ?? dot?.default) ?? manifest.module ?? manifest.main;
  return join(pkgDir, rel);
}

const require = createRequire(import.meta.url);
/** The decoder package, loaded by require (the workflow bundle's CommonJS world). */
export const hookwire = require(entryPath());

/** Every case under fixtures/session-inbox/<dir>, with its name. */
export function cases(dir) {
  const base = join(root, "fixtures", "session-inbox", dir);
  return readdirSync(base)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: `${dir}/${f.slice(0, -5)}`, ...JSON.parse(readFileSync(join(base, f), "utf8")) }));
}

/** Canonical JSON: keys sorted by UTF-16 code units, as the Rust side writes it. */
export function canon(value) {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v,
  );
}

/** The native CLI, built if the tests run before cargo did. */
export function hookwireBin() {
  const bin = process.env.HOOKWIRE_BIN ?? join(root, "target", "debug", "hookwire");
  if (!existsSync(bin)) execFileSync("cargo", ["build", "--quiet", "--bin", "hookwire"], { cwd: root, stdio: "inherit" });
  return bin;
}

/** Decode with the wasm decoder: { ok } or { error: { code, version } }. */
export function wasmResult(value) {
  try {
    return { ok: hookwire.decode(value) };
  } catch (e) {
    if (!(e instanceof hookwire.SessionInboxWireError)) throw e;
    return { error: { code: e.code, ...(e.version === undefined ? {} : { version: e.version }) } };
  }
}
