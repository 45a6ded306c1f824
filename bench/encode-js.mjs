// The JS encoder (pkg/encoder.cjs: hookwire's encoder compiled to wasm, behind the JS-side
// JSON-ness checks) against zod 4 (bench/encode-zod.mjs) in the same process, on
// bench/commands.json for each target: valid commands and rejects apart, each measurement
// alternating between the contenders. Both hand back the wire value as a JS object. Valid
// commands are also copied by `JSON.parse(JSON.stringify(command))`, checking nothing: a new
// object made from a command by the engine's own code, a floor for any encoder that answers a new
// object. Prints commands per second as one JSON line:
// `{"v6": {"valid": {"hookwire": …, "zod": …, "copy": …, "commands": n}, …}, …}` (no `copy` for rejects).
// Needs pkg/ (node scripts/build-pkg.mjs).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { encode as zodEncode, TARGETS } from "./encode-zod.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const hookwire = require(join(here, "..", "pkg", "encoder.cjs"));
const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));

/** Commands per second of `f` over `commands`, for about `ms` milliseconds. */
function rate(commands, f, ms) {
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      try {
        f(commands[i % commands.length]);
      } catch {}
    }
  };
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    run(500);
    count += 500;
  }
  return count / ((performance.now() - start) / 1000);
}

const result = {};
for (const [name, target] of Object.entries(TARGETS)) {
  const ok = (c) => {
    try {
      hookwire.encode(c, target);
      return true;
    } catch {
      return false;
    }
  };
  const sets = { valid: commands.filter(ok), rejects: commands.filter((c) => !ok(c)) };
  result[name] = {};
  for (const [set, list] of Object.entries(sets)) {
    const contenders = { hookwire: (c) => hookwire.encode(c, target), zod: (c) => zodEncode(c, name) };
    if (set === "valid") contenders.copy = (c) => JSON.parse(JSON.stringify(c));
    for (const f of Object.values(contenders)) rate(list, f, 150); // warm-up
    const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
    for (let i = 0; i < 3; i++) for (const [k, f] of Object.entries(contenders)) samples[k].push(rate(list, f, 150));
    const middle = (xs) => xs.sort((a, b) => a - b)[1];
    result[name][set] = { ...Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, middle(xs)])), commands: list.length };
  }
}
console.log(JSON.stringify(result));
