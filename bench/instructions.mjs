// Instructions per decode, counted rather than timed: `node bench/instructions.mjs OLD_DIR NEW_DIR
// [CLASS…]`, each directory a copy of pkg/ (before and after a change), the classes those of
// ./classes.mjs (default: every valid class of both families; turn control's named
// `turn control: <class>`, as bench/ab.mjs names them; a reject is counted when it is named,
// `reject: <class>` or `turn control reject: <class>`, each decode's error caught). Each count runs `valgrind
// --tool=callgrind` on `node --single-threaded` (no compiler thread, so the JIT does the same
// work each time) decoding one value N times, twice — 1,000 and 41,000 decodes — and takes the
// difference over 40,000: start-up, warm-up and tier-up cancel out. A machine too noisy for
// `bench/ab.mjs` gives the same count from run to run, up to about ±5 % of JIT variance (run it
// twice to see it). Needs valgrind; about 30 s a count. A program, not a test: nothing is asserted.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Every class of both families: its name → [the entry of pkg/ that decodes it, the value,
 * whether it is refused]; the valid ones (counted by default) and the rejects (counted when named).
 */
async function loadClasses() {
  const { REJECTS, TURN_REJECTS, TURN_VALID, VALID } = await import("./classes.mjs");
  const classes = {};
  for (const [name, v] of Object.entries(VALID)) classes[name] = ["hookwire.cjs", v];
  for (const [name, v] of Object.entries(TURN_VALID)) classes[`turn control: ${name}`] = ["turn-control.cjs", v];
  const valid = Object.keys(classes);
  for (const [name, [v]] of Object.entries(REJECTS)) classes[`reject: ${name}`] = ["hookwire.cjs", v, true];
  for (const [name, [v]] of Object.entries(TURN_REJECTS)) classes[`turn control reject: ${name}`] = ["turn-control.cjs", v, true];
  return { classes, valid };
}

if (process.argv[2] === "--one") {
  // One run: decode the class `name` of build `dir`, `n` times.
  const [dir, name, n] = process.argv.slice(3);
  const { createRequire } = await import("node:module");
  const { classes } = await loadClasses();
  const [entry, value, refused] = classes[name] ?? [];
  if (value === undefined) throw new Error(`no class ${name} in bench/classes.mjs`);
  const decode = createRequire(import.meta.url)(`${dir}/${entry}`).decode;
  if (refused) {
    for (let i = 0; i < Number(n); i++) {
      try {
        decode(value);
      } catch {}
    }
  } else {
    for (let i = 0; i < Number(n); i++) decode(value);
  }
} else {
  const [oldDir, newDir] = process.argv.slice(2, 4).map((d) => d && resolve(d));
  if (!oldDir || !newDir) throw new Error("usage: node bench/instructions.mjs OLD_DIR NEW_DIR [CLASS...]");
  const { classes, valid } = await loadClasses();
  const names = process.argv.length > 4 ? process.argv.slice(4) : valid;
  const self = fileURLToPath(import.meta.url);
  /** The instructions callgrind counts for `n` decodes of class `name` by build `dir` (it prints them on stderr). */
  const collected = (dir, name, n) => {
    const args = ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded", self, "--one", dir, name, String(n)];
    const r = spawnSync("valgrind", args, { encoding: "utf8" });
    const m = /Collected : (\d+)/.exec(r.stderr ?? "");
    if (r.status !== 0 || !m) throw new Error(`valgrind ${args.join(" ")} failed (is valgrind installed?): ${r.error?.message ?? r.stderr}`);
    return Number(m[1]);
  };
  const perDecode = (dir, name) => Math.round((collected(dir, name, 41_000) - collected(dir, name, 1_000)) / 40_000);
  console.log("instructions per decode (callgrind, node --single-threaded; 41,000 decodes less 1,000, over 40,000)");
  for (const name of names) {
    const [a, b] = [perDecode(oldDir, name), perDecode(newDir, name)];
    console.log(`${name.padEnd(40)} old ${String(a).padStart(7)}  new ${String(b).padStart(7)}  new/old ${(b / a).toFixed(3)}×`);
  }
}
