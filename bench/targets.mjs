// The performance targets, read off one run's figures: `targets(results, entryBytes)` answers
// the lines bench/run.mjs prints under "Against the targets", each target met or missed with the
// figure that decides it. `results` is bench/results.json's `results` (the decode samples, the
// per-class medians, the encode runs); `entryBytes` the session inbox entry's raw size
// (pkg/hookwire.cjs). The verdicts compare medians only: a figure near its bound can fall on
// either side from run to run, so each line gives the figure as well.

/** The targets' bounds. */
export const BOUNDS = {
  /** A contender's time per decode over hookwire's, on every valid class. */
  overContenders: 1.5,
  /** hookwire's time per decode over the plain-JS reference's, at most. */
  overPlain: 3,
  /** An older value's time over a current one's, at most. */
  olderOverCurrent: 1.5,
  /** hookwire's cold start over valibot's, at most. */
  coldOverValibot: 1,
  /** The session inbox entry, raw bytes, at most. */
  entryBytes: 12 * 1024,
  /** The native encoder's rate over zod 4's, at least. */
  nativeOverZod: 10,
  /** `hookwire encode --lines`, lines per second, at least. */
  cliLines: 250_000,
  /** The JS encoder, valid commands per second, at least. */
  jsCommands: 300_000,
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * The median over rounds of `a[i] / b[i]`: each round's two figures were measured one right
 * after the other (the native encoder's process, then zod 4's), so a noisy phase that slows one
 * of them moves one round's ratio, not the median of either side.
 */
export const pairedRatio = (a, b) => median(a.map((v, i) => v / b[i]));
const x = (r) => `${r.toFixed(2)}×`;
const verdict = (ok) => (ok ? "met" : "**missed**");

/** The contenders a class's ratios are taken against (every one but hookwire and the reference). */
const RIVALS = ["zod", "zod-mini", "valibot"];

export function targets(results, entryBytes) {
  const lines = [];
  const { decode, perClass, encode } = results;
  const classes = [...Object.entries(perClass.valid), ...Object.entries(perClass.turnValid).map(([n, by]) => [`turn control: ${n}`, by])];

  // 1. Per decode, valid values: against each rival, against the reference, older against current.
  const slow = [];
  let lowest = Infinity;
  let lowestAt = "";
  for (const [name, by] of classes) {
    for (const c of RIVALS) {
      const r = by[c].median / by.wasm.median;
      if (r < lowest) [lowest, lowestAt] = [r, `${c} on ${name}`];
      if (r < BOUNDS.overContenders) slow.push(`${c} on ${name} ${x(r)}`);
    }
  }
  lines.push(
    `- Per decode ≥ ${BOUNDS.overContenders}× zod 4, zod/mini and valibot on every valid class: ${verdict(slow.length === 0)}` +
      (slow.length ? ` (${slow.join(", ")})` : ` (the closest: ${lowestAt}, ${x(lowest)})`),
  );
  const plain = classes.map(([n, by]) => [n, by.wasm.median / by.plain.median]);
  const worstPlain = plain.reduce((a, b) => (b[1] > a[1] ? b : a));
  lines.push(`- Per decode ≤ ${BOUNDS.overPlain}× the plain-JS reference: ${verdict(worstPlain[1] <= BOUNDS.overPlain)} (the most: ${worstPlain[0]}, ${x(worstPlain[1])})`);
  // An older class over a current deliver; one that rewrites something over its own current form
  // too (the version-6 value that decodes to the same, when the run measured it): both must hold.
  const current = perClass.valid["current deliver"].wasm.median;
  for (const [n, by] of Object.entries(perClass.valid).filter(([n]) => !n.startsWith("current"))) {
    const r = by.wasm.median / current;
    const form = perClass.currentForms?.[n];
    const own = form && by.wasm.median / form.wasm.median;
    const ok = r <= BOUNDS.olderOverCurrent && (!own || own <= BOUNDS.olderOverCurrent);
    lines.push(`- An older value ≤ ${BOUNDS.olderOverCurrent}× a current one, ${n}: ${verdict(ok)} (${x(r)}${own ? ` a current deliver, ${x(own)} its own current form` : ""})`);
  }
  // The same deliver declaring each older version, over version 6.
  if (perClass.perVersion) {
    const v6 = perClass.perVersion["v6 (current)"].wasm.median;
    const versions = Object.entries(perClass.perVersion)
      .filter(([n]) => !n.startsWith("v6"))
      .map(([n, by]) => [n, by.wasm.median / v6]);
    const over = versions.filter(([, r]) => r > BOUNDS.olderOverCurrent);
    const rest = versions.filter(([, r]) => r <= BOUNDS.olderOverCurrent);
    const most = rest.length ? rest.reduce((a, b) => (b[1] > a[1] ? b : a)) : null;
    lines.push(
      `- An older value ≤ ${BOUNDS.olderOverCurrent}× a current one, the current deliver declaring each older version (over version 6): ${verdict(over.length === 0)} (` +
        [over.length ? over.map(([n, r]) => `${n} ${x(r)}`).join(", ") : "", most ? `${over.length ? "the others at most" : "the most:"} ${most[0]} ${x(most[1])}` : ""].filter(Boolean).join("; ") +
        ")",
    );
  }
  const turnOlder = Object.entries(perClass.turnValid)
    .filter(([n]) => n.includes(" v0"))
    .map(([n, by]) => [`turn control: ${n}`, by.wasm.median / perClass.turnValid["turn-result"].wasm.median]);
  for (const [n, r] of turnOlder) lines.push(`- An older value ≤ ${BOUNDS.olderOverCurrent}× a current one, ${n}: ${verdict(r <= BOUNDS.olderOverCurrent)} (${x(r)})`);

  // 2. Cold start against valibot, the contenders in alternating processes round by round.
  for (const [key, what] of [
    ["cold", "a fresh node:vm context (each round's median over its contexts)"],
    ["cold-first", "a fresh process's first context"],
  ]) {
    if (!decode[key]) continue;
    const r = median(decode[key].wasm) / median(decode[key].valibot);
    const rounds = decode[key].wasm.map((t, i) => t / decode[key].valibot[i]);
    lines.push(
      `- Cold start ≤ valibot's, ${what}: ${verdict(r <= BOUNDS.coldOverValibot)} (${x(r)}: ${median(decode[key].wasm).toFixed(2)} ms against ${median(decode[key].valibot).toFixed(2)}; ` +
        `per round ${x(Math.min(...rounds))}–${x(Math.max(...rounds))})`,
    );
  }

  // 3. Size.
  lines.push(`- The session inbox entry ≤ ${BOUNDS.entryBytes} B raw: ${verdict(entryBytes <= BOUNDS.entryBytes)} (${entryBytes} B)`);

  // 4. Encoders.
  const targetNames = Object.keys(encode.native[0]);
  const rounds = (runs, t, set, key) => runs.map((r) => r[t][set][key]);
  const per = (runs, t, set, key) => median(rounds(runs, t, set, key));
  for (const [key, what] of [
    ["typed", "as a typed wire value"],
    ["text", "as wire text"],
  ]) {
    const zodKey = key === "typed" ? "value" : "text";
    const ratios = [];
    for (const t of targetNames) for (const set of ["valid", "rejects"]) ratios.push([`${t} ${set}`, pairedRatio(rounds(encode.native, t, set, key), rounds(encode.zod, t, set, zodKey))]);
    const low = ratios.filter(([, r]) => r < BOUNDS.nativeOverZod);
    const least = ratios.reduce((a, b) => (b[1] < a[1] ? b : a));
    lines.push(
      `- Native encoder ≥ ${BOUNDS.nativeOverZod}× zod 4 on every target, ${what}: ${verdict(low.length === 0)}` +
        (low.length ? ` (${low.map(([n, r]) => `${n} ${x(r)}`).join(", ")})` : ` (the least: ${least[0]}, ${x(least[1])})`),
    );
  }
  const cli = median(encode.cli);
  lines.push(`- \`hookwire encode --lines\` ≥ ${BOUNDS.cliLines / 1000} k lines/s: ${verdict(cli >= BOUNDS.cliLines)} (${(cli / 1000).toFixed(0)} k)`);
  const js = targetNames.map((t) => [t, per(encode.js, t, "valid", "hookwire")]);
  const jsLow = js.reduce((a, b) => (b[1] < a[1] ? b : a));
  // The floor beside it, where the run has one: a bare JSON deep copy of the same commands.
  const copies = encode.js[0][targetNames[0]].valid.copy === undefined ? null : targetNames.map((t) => per(encode.js, t, "valid", "copy"));
  lines.push(
    `- JS encoder ≥ ${BOUNDS.jsCommands / 1000} k valid commands/s on every target: ${verdict(jsLow[1] >= BOUNDS.jsCommands)} ` +
      `(${js.map(([t, r]) => `${t} ${(r / 1000).toFixed(0)} k`).join(", ")}` +
      (copies === null ? ")" : `; a bare JSON deep copy of the same commands, no check: ${(Math.min(...copies) / 1000).toFixed(0)}–${(Math.max(...copies) / 1000).toFixed(0)} k)`),
  );
  return lines;
}
