// Host calls per decode, by value class: how often a decode of pkg/ crosses from its wasm module
// into JS, each crossing counted by the import it calls. `node bench/calls.mjs` prints one JSON
// document: per class of ./classes.mjs (and per version, and each rewritten class's current
// form), the total and the count of each import that was called. A count, not a time: it does
// not vary from run to run, and it is what a decode's time over a current one's follows.
//
// It counts by wrapping the import object of every instance the decoders make (each import
// wrapped in a counting function), so it runs in its own process: the wrappers would slow the
// timed decodes of any other benchmark.
import { readFileSync } from "node:fs";
import { currentForm, PER_VERSION, REWRITTEN, TURN_VALID, VALID } from "./classes.mjs";

// The imports' names, by index, as js/host.js declares them (it imports the build's own modules,
// so it is read here, not imported).
const NAMES = readFileSync(new URL("../js/host.js", import.meta.url), "utf8")
  .match(/NAMES = .*?"([a-z0-9 ]+)"\.split/)[1]
  .split(" ");
const counts = new Array(NAMES.length).fill(0);
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const counted = {};
  for (const [space, fns] of Object.entries(imports)) {
    counted[space] = Array.isArray(fns) ? fns.map((f, i) => (typeof f === "function" ? (...args) => (counts[i]++, f(...args)) : f)) : fns;
  }
  return new Instance(module, counted);
};
const { decode } = await import("../pkg/hookwire.mjs");
const { decode: turnDecode } = await import("../pkg/turn-control.mjs");

/** The host calls of one decode of `value`, in total and by import. */
function calls(decodeWith, value) {
  decodeWith(value); // the module instantiated and warmed: what follows is one decode's
  counts.fill(0);
  decodeWith(value);
  const by = Object.fromEntries(NAMES.map((n, i) => [n, counts[i]]).filter(([, c]) => c > 0));
  return { total: counts.reduce((a, b) => a + b, 0), by };
}

const of = (cases, decodeWith) => Object.fromEntries(Object.entries(cases).map(([n, v]) => [n, calls(decodeWith, v)]));
const currentForms = Object.fromEntries(REWRITTEN.map((n) => [n, currentForm(decode(VALID[n]))]));
console.log(
  JSON.stringify({
    valid: of(VALID, decode),
    perVersion: of(PER_VERSION, decode),
    currentForms: of(currentForms, decode),
    turnValid: of(TURN_VALID, turnDecode),
  }),
);
