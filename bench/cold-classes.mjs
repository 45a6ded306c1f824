// Cold start per value class, hookwire against valibot, in one process:
// `node bench/cold-classes.mjs [CONTEXTS]` (default 301 per contender and class). For each value
// class of ./classes.mjs (and the mix's legacy deliver that bench/run.mjs's cold row decodes),
// each contender's bundle (./bundle.mjs) is evaluated in fresh node:vm contexts up to its first
// decoded value, the two alternating context by context (and which goes first alternating too), so drift and
// garbage collection hit both alike. Prints, per class, the median time of each and hookwire's
// over valibot's. A program, not a test: nothing is asserted.
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { bundle } from "./bundle.mjs";
import { VALID } from "./classes.mjs";
import { MIX } from "./mix.mjs";

const contexts = Number(process.argv[2] ?? 301);
const code = {};
for (const c of ["wasm", "valibot"]) code[c] = readFileSync(await bundle(c), "utf8");
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const classes = { "mix: v0 legacy deliver (the cold row's)": MIX[1], ...VALID };
console.log(`fresh node:vm contexts to the first decoded value, median of ${contexts} each, the two alternating`);
for (const [name, input] of Object.entries(classes)) {
  const ms = { wasm: [], valibot: [] };
  for (let i = 0; i < contexts; i++) {
    for (const c of i & 1 ? ["wasm", "valibot"] : ["valibot", "wasm"]) {
      const context = vm.createContext({ TextEncoder, TextDecoder, atob, URL, input });
      const t = performance.now();
      vm.runInContext(code[c], context); // compiled per context, as bench/worker.mjs's cold row does
      ms[c].push(performance.now() - t);
      if (typeof context.result?.kind !== "string") throw new Error(`${c}: no decoded value in the sandbox (${name})`);
    }
  }
  const [w, v] = [median(ms.wasm), median(ms.valibot)];
  console.log(`${name.padEnd(40)} hookwire ${(w * 1000).toFixed(0).padStart(5)} µs  valibot ${(v * 1000).toFixed(0).padStart(5)} µs  hookwire / valibot ${(w / v).toFixed(2)}×`);
}
