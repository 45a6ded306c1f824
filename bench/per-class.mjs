// Per-decode time of every contender on each value class of ./classes.mjs (the session inbox's and
// turn control's; also the same deliver at every version, PER_VERSION, and each rewritten class's
// current form), in one process: `node bench/per-class.mjs [ROUNDS]`. Contenders and classes
// take turns in short slices, round after round, so drift and other load hit them alike; each
// figure is the median over the rounds (with min–max), and each ratio is a contender's median
// time over hookwire's (above 1×, hookwire is faster). Prints one JSON document; bench/run.mjs
// renders it.
import { currentForm, PER_VERSION, REJECTS, REWRITTEN, TURN_REJECTS, TURN_VALID, VALID } from "./classes.mjs";
import { TURN_DECODERS } from "./contenders/turn-control.mjs";
import { CONTENDERS } from "./mix.mjs";
import { median, slice } from "./slices.mjs";

const rounds = Number(process.argv[2] ?? 21);
const decoders = {};
for (const c of CONTENDERS) decoders[c] = (await import(`./contenders/${c}.mjs`)).decode;

/**
 * Per table, per class, per contender: the median time per decode over the rounds, with min–max.
 * `tables` maps a table's name to its cases and the operation timing one of them. Every round
 * takes a slice of every class of every table in turn, so a noisy phase of the machine hits all
 * classes alike, and a ratio between two classes (an older value over a current one) is as fair
 * as one between two contenders.
 */
function measure(tables) {
  const runs = [];
  for (const [table, [cases, ops]] of Object.entries(tables)) {
    for (const name of Object.keys(cases)) for (const c of CONTENDERS) runs.push({ table, name, c, op: ops(c, name), samples: [] });
  }
  const inOrder = [...runs];
  for (const run of runs) slice(run.op, 30); // warm-up
  // Each round in its own order (seeded, so runs repeat): what a slice inherits from the one
  // before it (a heap near its next scavenge after a class that allocates much) falls on every
  // class alike, not always on the one that follows the task rewrite.
  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
  for (let r = 0; r < rounds; r++) {
    for (let i = runs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [runs[i], runs[j]] = [runs[j], runs[i]];
    }
    for (const run of runs) run.samples.push(slice(run.op, 10));
  }
  const out = Object.fromEntries(Object.keys(tables).map((t) => [t, {}]));
  for (const { table, name, c, samples } of inOrder) {
    (out[table][name] ??= {})[c] = { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
  }
  return out;
}

const validOf = (cases, decoders) => (c, name) => {
  const decode = decoders[c];
  const v = cases[name];
  return () => decode(v);
};
const rejectsOf = (cases, decoders) => (c, name) => {
  const decode = decoders[c];
  const [v, code] = cases[name];
  return () => {
    try {
      decode(v);
    } catch (e) {
      if (e.code === code) return;
      throw e;
    }
    throw new Error(`${c} accepted the ${name} reject`);
  };
};
// Each rewritten class's current form, made from hookwire's decode of it (every contender decodes
// it to the same value: js-tests/bench-classes.test.mjs).
const forms = Object.fromEntries(REWRITTEN.map((n) => [n, currentForm(decoders.wasm(VALID[n]))]));
// The session inbox's valid values in one measurement (their ratios to a current deliver are the
// targets), its rejects in another, and so for turn control.
const { valid, perVersion, currentForms } = measure({
  valid: [VALID, validOf(VALID, decoders)],
  perVersion: [PER_VERSION, validOf(PER_VERSION, decoders)],
  currentForms: [forms, validOf(forms, decoders)],
});
const { rejects } = measure({ rejects: [REJECTS, rejectsOf(REJECTS, decoders)] });
const { turnValid } = measure({ turnValid: [TURN_VALID, validOf(TURN_VALID, TURN_DECODERS)] });
const { turnRejects } = measure({ turnRejects: [TURN_REJECTS, rejectsOf(TURN_REJECTS, TURN_DECODERS)] });
console.log(JSON.stringify({ rounds, valid, perVersion, currentForms, rejects, turnValid, turnRejects }));
