// Cold start per value class, hookwire against valibot, in one process:
// `node bench/cold-classes.mjs [CONTEXTS]` (default 301 per contender and class). For each value
// class of ./classes.mjs (and the mix's legacy deliver that bench/run.mjs's cold row decodes),
// each contender's bundle (built as bench/_coldrun.mjs builds it: what a bundler makes of
// `decode` and one call) is evaluated in fresh node:vm contexts up to its first decoded value,
// the two alternating context by context (and which goes first alternating too), so drift and
// garbage collection hit both alike. Prints, per class, the median time of each and hookwire's
// over valibot's. A program, not a test: nothing is asserted.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import * as esbuild from "esbuild";
import { VALID } from "./classes.mjs";
import { MIX } from "./mix.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const contexts = Number(process.argv[2] ?? 301);
mkdirSync(join(here, "out"), { recursive: true });
const code = {};
for (const c of ["wasm", "valibot"]) {
  await esbuild.build({
    stdin: { contents: `import { decode } from "./contenders/${c}.mjs"; globalThis.result = decode(globalThis.input);`, resolveDir: here, loader: "js" },
    bundle: true, minify: true, format: "cjs", platform: "neutral", target: "es2022", outfile: join(here, "out", `${c}.cjs`), logLevel: "silent",
    mainFields: ["module", "main"], conditions: ["import", "default"],
  });
  code[c] = readFileSync(join(here, "out", `${c}.cjs`), "utf8");
}
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
