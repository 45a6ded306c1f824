// Two builds of the JS encoder side by side: `node bench/encode-ab.mjs OLD_DIR NEW_DIR
// [PROCESSES]`, each directory a copy of pkg/ (one built before a change, one after). Each build
// runs in its own fresh processes, the two alternating (PROCESSES each, default 6), so drift and
// other load hit them alike. In each process every target's valid commands and rejects of
// bench/commands.json are encoded for a while, then each set is timed in 11 short slices (one
// command after another); its figure is the median over the slices, and the line printed per set
// is the median over the processes, with the new build's time over the old's (below 1×, the new
// build is faster). Both builds must answer every command alike (checked first). A program, not
// a test: nothing is asserted.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TARGETS } from "./encode-zod.mjs";
import { median, slice } from "./slices.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
const require = createRequire(import.meta.url);

/** What `encode` answers for `c`: the wire value, or the error's code, path and message. */
function answer(encode, c, target) {
  try {
    return { ok: encode(c, target) };
  } catch (e) {
    return { error: [e.code, e.path, e.message] };
  }
}

if (process.argv[2] === "--one") {
  // One process of one build: the median ns per encode of every set, as one JSON line.
  const { encode } = require(`${process.argv[3]}/encoder.cjs`);
  const sets = [];
  for (const [name, target] of Object.entries(TARGETS)) {
    const valid = commands.filter((c) => answer(encode, c, target).ok !== undefined);
    const rejects = commands.filter((c) => answer(encode, c, target).ok === undefined);
    for (const [set, list] of [["valid", valid], ["rejects", rejects]]) {
      let i = 0;
      const op = () => {
        try {
          encode(list[i++ % list.length], target);
        } catch {}
      };
      sets.push([`${name}, ${set}`, op]);
    }
  }
  for (const [, op] of sets) slice(op, 300);
  const out = {};
  for (const [name, op] of sets) {
    const xs = [];
    for (let r = 0; r < 11; r++) xs.push(slice(op, 60));
    out[name] = median(xs);
  }
  console.log(JSON.stringify(out));
} else {
  const [oldDir, newDir] = process.argv.slice(2, 4).map((d) => resolve(d));
  const processes = Number(process.argv[4] ?? 6);
  const a = require(`${oldDir}/encoder.cjs`).encode;
  const b = require(`${newDir}/encoder.cjs`).encode;
  for (const [name, target] of Object.entries(TARGETS)) {
    for (const c of commands) {
      const [x, y] = [answer(a, c, target), answer(b, c, target)];
      if (JSON.stringify(x) !== JSON.stringify(y)) throw new Error(`the builds answer ${name} differently: ${JSON.stringify(x)} / ${JSON.stringify(y)}`);
    }
  }
  const runs = { old: [], new: [] };
  const me = fileURLToPath(import.meta.url);
  for (let p = 0; p < processes; p++) {
    for (const [key, dir] of p % 2 === 0 ? [["old", oldDir], ["new", newDir]] : [["new", newDir], ["old", oldDir]]) {
      runs[key].push(JSON.parse(execFileSync(process.execPath, [me, "--one", dir], { encoding: "utf8" })));
    }
  }
  console.log(`JS encoder, ns per command, median over ${processes} processes each (old → new, new / old)`);
  for (const name of Object.keys(runs.old[0])) {
    const o = median(runs.old.map((r) => r[name]));
    const n = median(runs.new.map((r) => r[name]));
    console.log(`${name.padEnd(22)} ${o.toFixed(0).padStart(7)} → ${n.toFixed(0).padStart(7)}  ${(n / o).toFixed(2)}×`);
  }
}
