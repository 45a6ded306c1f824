// Cold start alone, hookwire against valibot: `node bench/_coldrun.mjs [PROCESSES]` (default 11).
// Each process (bench/worker.mjs … cold) evaluates the contender's bundle in 31 fresh node:vm
// contexts up to its first decoded value and reports the median, and the first context's time
// apart (what a fresh process pays once: its engine's first compile of the decoder); the two
// contenders alternate process by process, so drift hits both alike. Prints the medians over
// processes with their spread, and hookwire's time over valibot's per process pair, for both. A
// program, not a test: nothing is asserted. The bundles are built by ./bundle.mjs, as for
// bench/run.mjs (hookwire: pkg/hookwire.mjs, what a bundler resolves `hookwire` to).
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "./bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const processes = Number(process.argv[2] ?? 11);
for (const c of ["wasm", "valibot"]) await bundle(c);
const ms = { wasm: [], valibot: [] };
const first = { wasm: [], valibot: [] };
for (let i = 0; i < processes; i++) {
  for (const c of Object.keys(ms)) {
    const r = JSON.parse(execFileSync(process.execPath, [join(here, "worker.mjs"), c, "cold"], { encoding: "utf8" }));
    ms[c].push(r.ms);
    first[c].push(r.first);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const stat = (xs) => `${median(xs).toFixed(3)} ms (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`;
for (const [what, by, how] of [
  ["a fresh context", ms, `median over ${processes} processes of the median over 31 contexts`],
  ["a fresh process's first context", first, `median over ${processes} processes`],
]) {
  console.log(`${what}:`);
  for (const [c, xs] of Object.entries(by)) console.log(`  ${c.padEnd(8)} ${stat(xs)}, ${how}`);
  const ratios = by.wasm.map((x, i) => x / by.valibot[i]);
  console.log(`  hookwire / valibot: ${(median(by.wasm) / median(by.valibot)).toFixed(2)}× (per process pair ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, median ${median(ratios).toFixed(2)}×)`);
}
