// The size gate: the shipped decoders (pkg/) must stay within size-budget.toml, and nothing on
// its forbidden list (formatting, serde, a big allocator, panic machinery) may appear in their
// wasm; the encoder's module (server-side, where size matters less) has a budget of its own, so
// that it grows only by decision. Items are read with twiggy from the names-kept copy target/wasm/hookwire.names.wasm.
// Usage: node scripts/size-gate.mjs [BUDGET_FILE]   (exit 1 when over, 2 when it cannot run)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const budgetFile = process.argv[2] ?? join(root, "size-budget.toml");

/** A small TOML reader for this file's shape: [sections], `key = integer`, `key = ["a", …]`. */
export function parseBudget(text) {
  const out = {};
  let section = out;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    const head = /^\[([A-Za-z0-9_-]+)\]$/.exec(line);
    if (head) {
      section = out[head[1]] = {};
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!kv) throw new Error(`size-budget: cannot read line ${JSON.stringify(raw)}`);
    section[kv[1]] = JSON.parse(kv[2].replace(/(?<=\d)_(?=\d)/g, ""));
  }
  return out;
}

// Each decoder entry has its own budget: the session inbox's ([wasm], [entry]) and turn
// control's ([turn-control-wasm], [turn-control-entry]).
const files = {
  wasm: join(root, "pkg", "hookwire_bg.wasm"),
  entry: join(root, "pkg", "hookwire.cjs"),
  names: join(root, "target", "wasm", "hookwire.names.wasm"),
  "turn-control-wasm": join(root, "pkg", "turn-control_bg.wasm"),
  "turn-control-entry": join(root, "pkg", "turn-control.cjs"),
  "turn-control-names": join(root, "target", "wasm", "turn-control.names.wasm"),
  "encoder-wasm": join(root, "target", "wasm", "encoder.wasm"),
  "encoder-names": join(root, "target", "wasm", "encoder.names.wasm"),
};
for (const f of Object.values(files)) {
  if (!existsSync(f)) {
    console.error(`size gate: ${f} is missing; build pkg/ first (node scripts/build-pkg.mjs)`);
    process.exit(2);
  }
}

const budget = parseBudget(readFileSync(budgetFile, "utf8"));
const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const parts = ["wasm", "entry", "turn-control-wasm", "turn-control-entry", "encoder-wasm"];
const measured = Object.fromEntries(parts.map((p) => [p, sizes(readFileSync(files[p]))]));

const items = (names) => JSON.parse(execFileSync("twiggy", ["top", "-f", "json", names], { encoding: "utf8" }));
const top = [...items(files.names), ...items(files["turn-control-names"])];
const over = [];
const rows = [];
for (const part of parts) {
  for (const [metric, limit] of Object.entries(budget[part] ?? {})) {
    const value = measured[part][metric];
    if (value === undefined) throw new Error(`size-budget: unknown metric ${part}.${metric}`);
    rows.push(`${part}.${metric}`.padEnd(26) + `${value} B`.padStart(9) + `  (limit ${limit} B)`);
    if (value > limit) over.push(`${part}.${metric} is ${value} B, over its limit of ${limit} B by ${value - limit} B`);
  }
}
for (const word of budget.forbid?.items ?? []) {
  const hits = top.filter((item) => item.name.includes(word));
  for (const hit of hits) over.push(`forbidden item "${word}" in the wasm: ${hit.name} (${hit.shallow_size} B)`);
}

console.log(`size gate (${budgetFile.replace(root + "/", "")}):\n  ${rows.join("\n  ")}`);
if (over.length) {
  console.log("\nover budget:\n  " + over.join("\n  "));
  console.log("\ntwiggy top of the session inbox decoder wasm (names kept):");
  console.log(execFileSync("twiggy", ["top", "-n", "15", files.names], { encoding: "utf8" }));
  console.log("twiggy top of the turn-control decoder wasm (names kept):");
  console.log(execFileSync("twiggy", ["top", "-n", "10", files["turn-control-names"]], { encoding: "utf8" }));
  console.log("twiggy top of the encoder wasm (names kept):");
  console.log(execFileSync("twiggy", ["top", "-n", "10", files["encoder-names"]], { encoding: "utf8" }));
  process.exit(1);
}
console.log("size gate: ok");
