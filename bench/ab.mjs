// Two builds of pkg/ side by side, per value class of ./classes.mjs (both families, valid values
// and rejects, and the current deliver declaring each version):
// `node bench/ab.mjs OLD_DIR NEW_DIR [PROCESSES]`, each directory a copy of pkg/ (say, one built
// at the revision before a change and one after). Each build runs in its own fresh processes, the
// two alternating (PROCESSES each, default 8), so drift and other load hit them alike and neither
// build's code sees the other's inline caches. In each process every class is first decoded
// for a while (so the decoder has seen the whole mix, as the per-class benchmark's has), then each
// is timed in 11 short slices; a class's figure is the median over its slices, and the line
// printed per class is the median over the processes, with the new build's time over the old's
// (below 1×, the new build is faster). A program, not a test: nothing is asserted.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median, slice } from "./slices.mjs";


if (process.argv[2] === "--one") {
  // One process of one build: the median ns per decode of every class, as one JSON line.
  const { PER_VERSION, REJECTS, TURN_REJECTS, TURN_VALID, VALID } = await import("./classes.mjs");
  const require = createRequire(import.meta.url);
  const dir = process.argv[3];
  const inbox = require(`${dir}/hookwire.cjs`).decode;
  const turn = require(`${dir}/turn-control.cjs`).decode;
  /** A reject's decode: it must throw (the error is not checked here: the tests do). */
  const refused = (decode, v) => () => {
    try {
      decode(v);
    } catch {
      return;
    }
    throw new Error("a reject decoded");
  };
  const cases = [
    ...Object.entries(VALID).map(([name, v]) => [name, () => inbox(v)]),
    ...Object.entries(PER_VERSION).map(([name, v]) => [`the current deliver as ${name}`, () => inbox(v)]),
    ...Object.entries(TURN_VALID).map(([name, v]) => [`turn control: ${name}`, () => turn(v)]),
    ...Object.entries(REJECTS).map(([name, [v]]) => [`reject: ${name}`, refused(inbox, v)]),
    ...Object.entries(TURN_REJECTS).map(([name, [v]]) => [`turn control reject: ${name}`, refused(turn, v)]),
  ];
  for (const [, op] of cases) slice(op, 50);
  const out = {};
  for (const [name, op] of cases) out[name] = median(Array.from({ length: 11 }, () => slice(op, 10)));
  console.log(JSON.stringify(out));
} else {
  const [oldDir, newDir] = process.argv.slice(2, 4).map((d) => d && resolve(d));
  if (!oldDir || !newDir) throw new Error("usage: node bench/ab.mjs OLD_DIR NEW_DIR [PROCESSES]");
  const processes = Number(process.argv[4] ?? 8);
  const self = fileURLToPath(import.meta.url);
  const runs = { old: [], new: [] };
  const one = (dir) => JSON.parse(execFileSync(process.execPath, [self, "--one", dir], { encoding: "utf8" }));
  for (let i = 0; i < processes; i++) {
    // Which build goes first alternates too.
    for (const which of i % 2 ? ["new", "old"] : ["old", "new"]) runs[which].push(one(which === "old" ? oldDir : newDir));
  }
  console.log(`${processes} processes each, ns per decode (median over processes of the median of 11 slices)`);
  for (const name of Object.keys(runs.old[0])) {
    const [a, b] = [median(runs.old.map((r) => r[name])), median(runs.new.map((r) => r[name]))];
    console.log(`${name.padEnd(48)} old ${a.toFixed(0).padStart(6)}  new ${b.toFixed(0).padStart(6)}  new/old ${(b / a).toFixed(3)}×`);
  }
}
