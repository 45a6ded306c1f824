// Shared helpers of the JS tests: the pkg/ entry (resolved as a consumer would), the frozen
// fixture files the Rust tests read too, and canonical JSON for comparisons.
import assert from "node:assert/strict";
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

/** The current version of `family` as the native build has it (its schema's `$id` names it). */
export function nativeCurrentVersion(family = "session-inbox") {
  const schema = JSON.parse(execFileSync(hookwireBin(), ["--family", family, "schema"], { encoding: "utf8" }));
  return Number(/:v(\d+)$/.exec(schema.$id)[1]);
}

/** Decode with the wasm decoder: { ok } or { error: { code, version } }. */
export function wasmResult(value) {
  try {
    return { ok: hookwire.decode(value) };
  } catch (e) {
    if (!(e instanceof hookwire.SessionInboxWireError)) throw e;
    return { error: { code: e.code, ...(e.version === undefined ? {} : { version: e.version }), ...(e.path === undefined ? {} : { path: e.path }) } };
  }
}

/** The decode fixture folders and the encode fixture folders, as the Rust drivers read them. */
export const DECODE_DIRS = ["v0", "v1", "v2", "v3", "v4", "v5", "v6", "chain", "walk"];
export const ENCODE_DIRS = ["encode", "encode-v6"];

/** Every encoding target, by the CLI's name. */
export const TARGETS = {
  "v0-deliver": { version: 0, variant: "deliver" },
  "v0-send": { version: 0, variant: "send" },
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`v${n}`, { version: n }])),
};

const superseded = JSON.parse(readFileSync(join(root, "fixtures", "session-inbox", "superseded.json"), "utf8")).cases;

/** A decode case's expectation: its own, or the one superseded.json gives a frozen case. */
export function decodeExpectation(c) {
  return superseded[c.name] ?? c;
}

/** What an encode case expects for target `t`: `{ ok: decoded }` or `{ error }`. */
export function encodeExpectation(c, t) {
  if (c.error) return { error: c.error };
  if (c.refusedAt?.[t]) return { error: c.refusedAt[t] };
  if (c.decodedAt?.[t]) return { ok: c.decodedAt[t] };
  return { ok: t === "v0-send" && c.decodedFromSend ? c.decodedFromSend : c.decoded };
}

/** The frozen output of encode case `stem` for target `t`, wherever a version's encoder first wrote it. */
export function frozenOutput(stem, t) {
  for (let n = 1; n <= 6; n++) {
    const file = join(root, "artifacts", "session-inbox", `v${n}`, "encode", `${stem}.${t}.json`);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return undefined;
}

/**
 * What the JS encoder answers for `command` and `target`, in the CLI's form: `{ ok }`, or the
 * error's code, message and, where it has them, path, expected and version. `f` is a family's
 * `{ encode, ErrorClass }`; any other exception fails the test.
 */
export function encoderAnswer(f, command, target) {
  try {
    return { ok: f.encode(command, target) };
  } catch (e) {
    assert.ok(e instanceof f.ErrorClass, `not a ${f.ErrorClass.name}: ${e && e.stack}`);
    const error = { code: e.code, message: e.message };
    for (const k of ["path", "expected", "version"]) if (e[k] !== undefined) error[k] = e[k];
    return { error };
  }
}

/** `hookwire encode --lines`' answers to `requests` (`{ command, target }` each), parsed; `f.args` names the family. */
export function cliEncodeAnswers(f, requests) {
  const input = requests.map(({ command, target }) => JSON.stringify({ command, target })).join("\n") + "\n";
  const out = execFileSync(hookwireBin(), [...f.args, "encode", "--lines"], { input, encoding: "utf8", maxBuffer: 1 << 30 });
  const lines = out.trimEnd().split("\n");
  assert.equal(lines.length, requests.length);
  return lines.map((l) => JSON.parse(l));
}
