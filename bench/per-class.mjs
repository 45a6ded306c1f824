// Per-decode time of every contender on each value class of ./classes.mjs (the session inbox's and
// turn control's), in one process:
// `node bench/per-class.mjs [ROUNDS]`. Contenders take turns in short slices, round after round,
// so drift and other load hit them alike; each figure is the median over the rounds (with
// min–max), and each ratio is a contender's median time over hookwire's (above 1×, hookwire is
// faster). Prints one JSON document; bench/run.mjs renders it.
import { REJECTS, TURN_REJECTS, TURN_VALID, VALID } from "./classes.mjs";
import { TURN_DECODERS } from "./contenders/turn-control.mjs";
import { CONTENDERS } from "./mix.mjs";
import { median, slice } from "./slices.mjs";

const rounds = Number(process.argv[2] ?? 21);
const decoders = {};
for (const c of CONTENDERS) decoders[c] = (await import(`./contenders/${c}.mjs`)).decode;


function measure(cases, ops) {
  const out = {};
  for (const name of Object.keys(cases)) {
    const samples = Object.fromEntries(CONTENDERS.map((c) => [c, []]));
    for (const c of CONTENDERS) slice(ops(c, name), 30); // warm-up
    for (let r = 0; r < rounds; r++) for (const c of CONTENDERS) samples[c].push(slice(ops(c, name), 10));
    out[name] = Object.fromEntries(
      CONTENDERS.map((c) => [c, { median: median(samples[c]), min: Math.min(...samples[c]), max: Math.max(...samples[c]) }]),
    );
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
const valid = measure(VALID, validOf(VALID, decoders));
const rejects = measure(REJECTS, rejectsOf(REJECTS, decoders));
const turnValid = measure(TURN_VALID, validOf(TURN_VALID, TURN_DECODERS));
const turnRejects = measure(TURN_REJECTS, rejectsOf(TURN_REJECTS, TURN_DECODERS));
console.log(JSON.stringify({ rounds, valid, rejects, turnValid, turnRejects }));
