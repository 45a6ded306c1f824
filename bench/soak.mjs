// Soak: 10 million decodes in one process through pkg/, with the wasm memory, the externref table
// and the JS heap sampled along the way. Prints the figures; asserts nothing about time.
// Usage: node bench/soak.mjs [COUNT]
import { createRequire } from "node:module";
import { MIX } from "../js-tests/soak.test.mjs";

const hookwire = createRequire(import.meta.url)("../pkg");
const total = Number(process.argv[2] ?? 10_000_000);
const step = total / 10;
let errors = 0;
const rows = [];
const sample = (done) => {
  const s = hookwire.memoryStats();
  rows.push({ decodes: done, wasmMemory: s.memoryBytes, tableSlots: s.tableSlots, heapUsedMiB: +(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1) });
};
sample(0);
for (let i = 1; i <= total; i++) {
  try {
    hookwire.decode(MIX[i % MIX.length]);
  } catch (e) {
    if (!(e instanceof hookwire.SessionInboxWireError)) throw e;
    errors++;
  }
  if (i % step === 0) sample(i);
}
console.table(rows);
const first = rows[1];
const last = rows.at(-1);
const flat = first.wasmMemory === last.wasmMemory && first.tableSlots === last.tableSlots;
console.log(`${total} decodes, ${errors} typed errors; wasm memory and externref table after warm-up: ${flat ? "flat" : "GREW"}`);
process.exit(flat ? 0 : 1);
