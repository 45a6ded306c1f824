// The benchmark suite: `node bench/run.mjs [ROUNDS] [--encode-only | --decode-only | --tables]`. Every
// contender runs in the same run, each measurement in a fresh process, ROUNDS rounds (default 4);
// medians with min–max, as ratios to hookwire's wasm decoder (decode) or to zod 4 (encode). Raw
// figures go to bench/results.json (`--encode-only` replaces only its encode figures,
// `--decode-only` keeps them) and the tables to bench/latest.md and stdout, whole either way (the
// kept part from results.json, with the date of the run that measured it), then every target of
// the performance work met or missed with its figure (bench/targets.mjs), and the charts
// (bench/charts.mjs). Needs pkg/ and a release CLI.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { CONTENDERS as DECODERS, MIX } from "./mix.mjs";
import { bundle } from "./bundle.mjs";
import { writeCharts } from "./charts.mjs";
import { pairedRatio, targets } from "./targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = process.argv.slice(2);
// `--tables` measures nothing: the tables, verdicts and charts again from results.json (after a
// change to how they are made), which it leaves as it is.
const tablesOnly = args.includes("--tables");
const encodeOnly = tablesOnly || args.includes("--encode-only");
// `--decode-only` runs the decode benchmarks and keeps the encode figures of results.json.
const decodeOnly = tablesOnly || args.includes("--decode-only");
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 4);
const canon = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x, digits = 2) => (x >= 100 ? x.toFixed(0) : x.toFixed(digits));
const raw = { date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, rounds, results: {} };

const samples = {};
const sizes = {};
let perClass;
/** The run the decode tables come from: this one, or with `--encode-only` the kept one. */
let decodeRun = raw;
async function decodeBench() {
  // 1. Every contender must decode the mix exactly as hookwire does before it is timed.
  const reference = (await import("./contenders/wasm.mjs")).decode;
  const outcome = (decode, v) => {
    try {
      return canon(decode(v));
    } catch (e) {
      return `error ${e.code}`;
    }
  };
  for (const c of DECODERS) {
    const { decode } = await import(`./contenders/${c}.mjs`);
    for (const v of MIX) {
      if (outcome(decode, v) !== outcome(reference, v)) throw new Error(`${c} disagrees with hookwire on ${canon(v)}: ${outcome(decode, v)}`);
    }
  }
  // The turn-control contenders, on every turn-control fixture and benchmark class.
  const { TURN_DECODERS } = await import("./contenders/turn-control.mjs");
  const { TURN_REJECTS, TURN_VALID } = await import("./classes.mjs");
  const turnInputs = [...Object.values(TURN_VALID), ...Object.values(TURN_REJECTS).map(([v]) => v)];
  for (const dir of ["v0", "v1", "chain"]) {
    const folder = join(here, "..", "fixtures", "turn-control", dir);
    for (const f of readdirSync(folder)) turnInputs.push(JSON.parse(readFileSync(join(folder, f), "utf8")).input);
  }
  for (const c of DECODERS) {
    for (const v of turnInputs.filter((x) => x !== undefined)) {
      const [got, want] = [outcome(TURN_DECODERS[c], v), outcome(TURN_DECODERS.wasm, v)];
      if (got !== want) throw new Error(`${c} disagrees with hookwire/turn-control on ${canon(v)}: ${got}`);
    }
  }

  // 2. Bundles: each decoder inlined into one minified CommonJS workflow script.
  for (const c of DECODERS) {
    const bytes = readFileSync(await bundle(c));
    sizes[c] = { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length, base64: Math.ceil(bytes.length / 3) * 4 };
  }
  raw.results.size = sizes;

  // 3. Fresh-process measurements, round-robin so drift hits every contender alike.
  const SCENARIOS = ["parsed", "text", "size-100B", "size-100KB", "size-1MB", "payloads-10k", "cold"];
  for (let r = 0; r < rounds; r++) {
    for (const s of SCENARIOS) {
      for (const c of DECODERS) {
        const line = execFileSync(process.execPath, [join(here, "worker.mjs"), c, s], { encoding: "utf8" });
        const v = JSON.parse(line);
        const x = v.opsPerSec ?? v.usPerDecode ?? v.ms;
        ((samples[s] ??= {})[c] ??= []).push(x);
        // The cold process's first context too: what a fresh process pays once (its engine's
        // first compile of the decoder, wasm or JS).
        if (v.first !== undefined) ((samples["cold-first"] ??= {})[c] ??= []).push(v.first);
      }
    }
    process.stderr.write(`round ${r + 1}/${rounds} done\n`);
  }
  raw.results.decode = samples;

  // Per value class (bench/per-class.mjs): every contender in one process, taking turns.
  perClass = JSON.parse(execFileSync(process.execPath, [join(here, "per-class.mjs"), String(Math.max(11, rounds * 4 + 1))], { encoding: "utf8" }));
  raw.results.perClass = perClass;
  // Host calls per decode (bench/calls.mjs): counts, in a process of their own.
  raw.results.calls = JSON.parse(execFileSync(process.execPath, [join(here, "calls.mjs")], { encoding: "utf8" }));
  process.stderr.write("per value class done\n");
}
if (encodeOnly) {
  const previous = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
  Object.assign(samples, previous.results.decode);
  Object.assign(sizes, previous.results.size);
  perClass = previous.results.perClass;
  raw.results.calls = previous.results.calls;
  decodeRun = previous;
} else await decodeBench();

// 5. Encode. First every contender must answer the mix exactly as hookwire does (the same wire
// value for a valid command, a refusal for a reject), then: the native encoder against zod 4 (the
// wire value, and the wire text: canonical bytes against JSON.stringify of zod's object), the JS
// encoder (pkg/encoder.cjs) against zod 4 in one process, and `hookwire encode --lines`.
const zod = await import("./encode-zod.mjs");
let encode = { native: [], zod: [], js: [], cli: [] };
if (decodeOnly) {
  const previous = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
  encode = previous.results.encode;
  raw.encodeRun = previous.encodeRun ?? { date: previous.date, node: previous.node, cpu: previous.cpu, cores: previous.cores, rounds: previous.rounds };
  raw.results.encode = encode;
  if (!tablesOnly) writeFileSync(join(here, "results.json"), JSON.stringify(raw, null, 2) + "\n");
} else {
  const { encode: jsEncode } = (await import("node:module")).createRequire(import.meta.url)(join(root, "pkg", "encoder.cjs"));
  const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
  for (const [name, target] of Object.entries(zod.TARGETS)) {
    for (const c of commands) {
      const answer = (f) => {
        try {
          return canon(f());
        } catch {
          return "refused";
        }
      };
      const [h, z] = [answer(() => jsEncode(c, target)), answer(() => zod.encode(c, name))];
      if (h !== z) throw new Error(`zod disagrees with hookwire on ${canon(c)} for ${name}: ${z} against ${h}`);
    }
  }
  execFileSync("cargo", ["build", "--quiet", "--release", "--example", "encode-bench", "--features", "std"], { cwd: root, stdio: "inherit" });
  execFileSync("cargo", ["build", "--quiet", "--release"], { cwd: root, stdio: "inherit" });
  for (let r = 0; r < rounds; r++) {
    encode.native.push(JSON.parse(execFileSync(join(root, "target", "release", "examples", "encode-bench"), { encoding: "utf8" })));
    encode.zod.push(JSON.parse(execFileSync(process.execPath, [join(here, "encode-zod.mjs")], { encoding: "utf8" })));
    encode.js.push(JSON.parse(execFileSync(process.execPath, [join(here, "encode-js.mjs")], { encoding: "utf8" })));
    encode.cli.push(JSON.parse(execFileSync(process.execPath, [join(here, "encode-cli.mjs")], { encoding: "utf8" })).linesPerSec);
    process.stderr.write(`encode round ${r + 1}/${rounds} done\n`);
  }
  if (encodeOnly) {
    const previous = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
    previous.results.encode = encode;
    previous.encodeRun = { date: raw.date, node: raw.node, cpu: raw.cpu, cores: raw.cores, rounds };
    writeFileSync(join(here, "results.json"), JSON.stringify(previous, null, 2) + "\n");
  } else {
    raw.results.encode = encode;
    writeFileSync(join(here, "results.json"), JSON.stringify(raw, null, 2) + "\n");
  }
}

// 6. The tables.
const stat = (xs) => `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
const out = [];
{
  out.push(`hookwire benchmarks — ${decodeRun.date.slice(0, 10)}, ${decodeRun.cpu} ×${decodeRun.cores}, Node ${decodeRun.node}, ${decodeRun.rounds} rounds, medians (min–max)`);
  out.push("");
  out.push("| decode | " + DECODERS.join(" | ") + " |");
  out.push("|---|" + DECODERS.map(() => "---").join("|") + "|");
  const row = (label, s, unit, higherIsBetter, scale = 1) => {
    const ref = median(samples[s].wasm);
    out.push(`| ${label} | ` + DECODERS.map((c) => {
      const m = median(samples[s][c]);
      const ratio = higherIsBetter ? m / ref : ref / m;
      return `${stat(samples[s][c].map((x) => x / scale))} ${unit} · **${ratio.toFixed(2)}×**`;
    }).join(" | ") + " |");
  };
  row("parsed objects, mix", "parsed", "M/s", true, 1e6);
  row("JSON text in, mix", "text", "M/s", true, 1e6);
  for (const s of ["size-100B", "size-100KB", "size-1MB", "payloads-10k"]) row(`${s}, per decode`, s, "µs", false);
  out.push("| 1 MB / 100 B time | " + DECODERS.map((c) => `${(median(samples["size-1MB"][c]) / median(samples["size-100B"][c])).toFixed(2)}×`).join(" | ") + " |");
  out.push("| 10k payloads / 100 B time | " + DECODERS.map((c) => `${(median(samples["payloads-10k"][c]) / median(samples["size-100B"][c])).toFixed(2)}×`).join(" | ") + " |");
  row("cold start to first decode (vm)", "cold", "ms", false);
  if (samples["cold-first"]) row("the same, a fresh process's first context", "cold-first", "ms", false);
  out.push("| bundle minified / gzip / brotli / base64 (bytes) | " + DECODERS.map((c) => `${sizes[c].minified} / ${sizes[c].gzip} / ${sizes[c].brotli} / ${sizes[c].base64}`).join(" | ") + " |");
  out.push("| bundle size vs wasm | " + DECODERS.map((c) => `${(sizes[c].minified / sizes.wasm.minified).toFixed(2)}×`).join(" | ") + " |");
  out.push("");
  out.push("Ratios: to hookwire's wasm decoder; above 1× the contender is faster (or, for sizes, larger).");
  out.push("");
  // `calls`: hookwire's host calls per decode of each class (bench/calls.mjs), a last column.
  const classTable = (title, table, calls) => {
    out.push(`| ${title} (ns per decode, one process, ${perClass.rounds} turns) | ` + DECODERS.join(" | ") + (calls ? " | host calls |" : " |"));
    out.push("|---|" + DECODERS.map(() => "---").join("|") + (calls ? "|---|" : "|"));
    for (const [name, by] of Object.entries(table)) {
      const cell = (c) => `${by[c].median.toFixed(0)} (${by[c].min.toFixed(0)}–${by[c].max.toFixed(0)}) · **${(by[c].median / by.wasm.median).toFixed(2)}×**`;
      out.push(`| ${name} | ${DECODERS.map(cell).join(" | ")}${calls ? ` | ${calls[name]?.total ?? "—"}` : ""} |`);
    }
    out.push("");
  };
  const calls = raw.results.calls;
  // Each class of `entries` as hookwire's time over `of(name)`.
  const over = (entries, of) => entries.map(([n, by]) => `${n} ${(by.wasm.median / of(n)).toFixed(2)}×`).join(", ");
  classTable("valid values", perClass.valid, calls?.valid);
  const current = perClass.valid["current deliver"].wasm.median;
  out.push("Ratios: a contender's time over hookwire's; above 1× hookwire is faster. hookwire's time per older value over a current deliver: " +
    over(Object.entries(perClass.valid).filter(([n]) => !n.startsWith("current")), () => current) + ".");
  out.push("");
  if (perClass.perVersion) {
    classTable("the current deliver declaring each version", perClass.perVersion, calls?.perVersion);
    classTable("each rewritten class's current form", perClass.currentForms, calls?.currentForms);
    const v6 = perClass.perVersion["v6 (current)"].wasm.median;
    out.push("hookwire's time per version over the same deliver at version 6: " +
      over(Object.entries(perClass.perVersion).filter(([n]) => !n.startsWith("v6")), () => v6) +
      "; each rewritten class over its current form (the version-6 value that decodes to the same): " +
      over(Object.keys(perClass.currentForms).map((n) => [n, perClass.valid[n]]), (n) => perClass.currentForms[n].wasm.median) + ".");
    out.push("");
  }
  classTable("rejects", perClass.rejects);
  classTable("turn control, valid values", perClass.turnValid, calls?.turnValid);
  classTable("turn control, rejects", perClass.turnRejects);
  out.push(`Turn control's version-0 turn-result over a current one: ${(perClass.turnValid["turn-result v0 (1 step)"].wasm.median / perClass.turnValid["turn-result"].wasm.median).toFixed(2)}×.`);
  out.push("");
}
const TARGET_NAMES = Object.keys(zod.TARGETS);
const per = (runs, t, set, key) => runs.map((x) => x[t][set][key]);
const encodeRun = decodeOnly ? raw.encodeRun : { ...raw, rounds };
out.push(`Encode — ${encodeOnly || decodeOnly ? `${encodeRun.date.slice(0, 10)}, ${encodeRun.cpu} ×${encodeRun.cores}, Node ${encodeRun.node}, ` : ""}${encodeRun.rounds} rounds, medians (min–max); ratio = hookwire / zod 4 (above 1×, hookwire is faster; the native encoder's, the median of each round's ratio: its process and zod 4's run one after the other).`);
out.push("");
out.push(`Native encoder (Rust) against zod 4 (Node), bench/commands.json: ${encode.native[0].v6.valid.commands} valid commands, ${encode.native[0].v6.rejects.commands} rejects.`);
out.push("");
out.push("| target, commands | native → typed wire value | native → `serde_json::Value` | zod 4 → object | ratio (typed, `Value`) | native → wire text | zod 4 → JSON.stringify | ratio |");
out.push("|---|---|---|---|---|---|---|---|");
for (const set of ["valid", "rejects"]) {
  for (const t of TARGET_NAMES) {
    const rates = (runs, key) => per(runs, t, set, key).map((x) => x / 1e6);
    const [typed, value, zodValue] = [rates(encode.native, "typed"), rates(encode.native, "value"), rates(encode.zod, "value")];
    const [text, zodText] = [rates(encode.native, "text"), rates(encode.zod, "text")];
    const ratio = (n, z) => `${pairedRatio(n, z).toFixed(1)}×`;
    out.push(
      `| ${t}, ${set} | ${stat(typed)} M/s | ${stat(value)} M/s | ${stat(zodValue)} M/s | **${ratio(typed, zodValue)}**, ${ratio(value, zodValue)} | ` +
        `${stat(text)} M/s | ${stat(zodText)} M/s | **${ratio(text, zodText)}** |`,
    );
  }
}
out.push("");
out.push(
  "JS encoder (pkg/encoder.cjs) against zod 4, both in one Node process, both answering a JS object; and, as a floor, the same valid commands copied by `JSON.parse(JSON.stringify(command))` (no check, no conversion).",
);
out.push("");
out.push("| target, commands | hookwire JS encoder | zod 4 | ratio | JSON deep copy | hookwire / copy |");
out.push("|---|---|---|---|---|---|");
for (const set of ["valid", "rejects"]) {
  for (const t of TARGET_NAMES) {
    const h = per(encode.js, t, set, "hookwire").map((x) => x / 1e3);
    const z = per(encode.js, t, set, "zod").map((x) => x / 1e3);
    const c = set === "valid" ? per(encode.js, t, set, "copy").map((x) => x / 1e3) : null;
    const floor = c === null ? "| — | — |" : `| ${stat(c)} k/s | ${(median(h) / median(c)).toFixed(2)}× |`;
    out.push(`| ${t}, ${set} | ${stat(h)} k/s | ${stat(z)} k/s | **${(median(h) / median(z)).toFixed(2)}×** ${floor}`);
  }
}
out.push("");
out.push(`\`hookwire encode --lines\`, end to end (200,000 lines, a third each for v1, v0-deliver, v0-send): ${stat(encode.cli.map((x) => x / 1e3))} k lines/s`);
out.push("");
// 7. Against the targets of the performance work, from the figures above (bench/targets.mjs).
out.push("Against the targets (medians of the figures above):");
out.push("");
out.push(...targets({ decode: samples, perClass, encode }, statSync(join(root, "pkg", "hookwire.cjs")).size));
writeFileSync(join(here, "latest.md"), out.join("\n") + "\n");
console.log(out.join("\n"));
// 8. The charts (bench/charts.mjs), from the results.json just written.
writeCharts();
