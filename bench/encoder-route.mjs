// Why pkg/encoder.cjs crosses into wasm as JSON text rather than through serde-wasm-bindgen: the
// same Rust encoder built both ways, run on the same commands — what each does with values JSON
// cannot hold, and how fast each is. Prints a table; asserts nothing.
// Usage: node bench/encoder-route.mjs   (builds the comparison module into target/wasm/route-pack)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
execFileSync("wasm-pack", [
  "build", "crates/hookwire-wasm-encoder", "--release", "--target", "nodejs", "--out-dir", join(root, "target/wasm/route-pack"), "--out-name", "route", "--no-pack",
  "--", "--no-default-features", "--features", "route-comparison",
], { cwd: root, stdio: "ignore", env: { ...process.env, CARGO_TARGET_DIR: join(root, "target", "wasm-route"), CARGO_PROFILE_RELEASE_OPT_LEVEL: "3", RUSTFLAGS: "-C link-arg=-zstack-size=8388608" } });
writeFileSync(join(root, "target", "wasm", "route-pack", "package.json"), '{"type":"commonjs"}\n');
const require = createRequire(import.meta.url);
const swb = require(join(root, "target", "wasm", "route-pack", "route.js"));
const json = require(join(root, "pkg", "encoder.cjs"));

const viaSwb = (command, target = { version: 1 }) => {
  try {
    const r = swb.encode_value("session-inbox", command, target);
    return r instanceof Map ? Object.fromEntries(r) : r;
  } catch (e) {
    return { thrown: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
};
const viaJson = (command, target = { version: 1 }) => {
  try {
    return { ok: json.encode(command, target) };
  } catch (e) {
    return { error: { code: e.code, path: e.path } };
  }
};
const show = (r) => JSON.stringify(r, (_k, v) => (v instanceof Uint8Array ? `Uint8Array(${v.length})` : v)).slice(0, 110);

const cyclic = { a: 1 };
cyclic.self = cyclic;
const cases = [
  ["undefined optional field", { kind: "send", payload: { message: "m" }, requestId: undefined }],
  // Where a payload holds any JSON (its `interaction`), what JSON cannot hold must be refused.
  ["NaN in an interaction", { kind: "deliver", payloads: [{ interaction: { n: NaN } }] }],
  ["a Date in an interaction", { kind: "deliver", payloads: [{ interaction: { at: new Date(0) } }] }],
  ["a Map in an interaction", { kind: "deliver", payloads: [{ interaction: { m: new Map([["k", 1]]) } }] }],
  ["Uint8Array image", { kind: "send", payload: { message: [{ type: "image", image: new Uint8Array([1, 2]) }] } }],
  ["a cycle", { kind: "deliver", payloads: [{ interaction: cyclic }] }],
];
console.log("| input | serde-wasm-bindgen route | JS-checked route (shipped) |\n|---|---|---|");
for (const [label, command] of cases) console.log(`| ${label} | \`${show(viaSwb(command))}\` | \`${show(viaJson(command))}\` |`);

const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
const rate = (f) => {
  for (let i = 0; i < 20_000; i++) f(commands[i % commands.length]);
  let n = 0;
  const t = performance.now();
  while (performance.now() - t < 1000) for (let i = 0; i < 200; i++, n++) f(commands[n % commands.length]);
  return n / ((performance.now() - t) / 1000);
};
const a = rate((c) => viaSwb(c));
const b = rate((c) => viaJson(c));
console.log(`\n| route | commands/s (bench/commands.json, v1 target) |\n|---|---|`);
console.log(`| serde-wasm-bindgen | ${(a / 1e3).toFixed(0)} k/s |\n| JS-checked (shipped) | ${(b / 1e3).toFixed(0)} k/s (${(b / a).toFixed(2)}×) |`);
