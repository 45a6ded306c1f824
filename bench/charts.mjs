// SVG charts of the benchmark figures: `node bench/charts.mjs` reads bench/results.json (written
// by bench/run.mjs) and e2e/bundle-growth.json (written by e2e/bench.mjs) and writes
// bench/decode.svg, bench/per-class.svg, bench/cold-start.svg and bench/bundle-growth.svg. Each
// bar is a median; the whisker spans min–max over the rounds. Plain SVG, no dependency.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const COLORS = { wasm: "#2f6fde", hookwire: "#2f6fde" };

/**
 * A horizontal bar chart: `rows` of {label, value, low?, high?}, one bar each, hookwire's in blue.
 * `better` says which way is better ("higher" or "lower"), printed under the title.
 */
export function barChart({ title, unit, better, rows }) {
  const left = 190;
  const width = 640;
  const bar = 22;
  const gap = 10;
  const top = 52;
  const plot = width - left - 90;
  const max = Math.max(...rows.map((r) => r.high ?? r.value)) || 1;
  const x = (v) => left + (v / max) * plot;
  const height = top + rows.length * (bar + gap) + 16;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">${esc(title)}</text>`,
    `<text x="12" y="40" fill="#555">${esc(`${unit}${rows.some((r) => r.low !== undefined) ? ", median with min–max" : ""}; ${better} is better`)}</text>`,
  ];
  rows.forEach((r, i) => {
    const y = top + i * (bar + gap);
    const color = Object.entries(COLORS).find(([k]) => r.label.startsWith(k))?.[1] ?? "#9aa3ad";
    out.push(`<text x="${left - 8}" y="${y + bar * 0.7}" text-anchor="end">${esc(r.label)}</text>`);
    out.push(`<rect x="${left}" y="${y}" width="${Math.max(1, x(r.value) - left)}" height="${bar}" fill="${color}"/>`);
    if (r.low !== undefined && r.high !== undefined) {
      const mid = y + bar / 2;
      out.push(`<path d="M${x(r.low)} ${mid}H${x(r.high)}M${x(r.low)} ${mid - 5}V${mid + 5}M${x(r.high)} ${mid - 5}V${mid + 5}" stroke="#222" stroke-width="1.2" fill="none"/>`);
    }
    out.push(`<text x="${x(r.high ?? r.value) + 6}" y="${y + bar * 0.7}">${esc(fmt(r.value))}</text>`);
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

const spread = (label, xs, scale = 1) => ({ label, value: median(xs) / scale, low: Math.min(...xs) / scale, high: Math.max(...xs) / scale });
const written = [];
const write = (name, svg) => {
  writeFileSync(join(here, name), svg);
  written.push(`bench/${name}`);
};

// Run as a program it writes the charts; imported, it lends barChart (to a test) and writeCharts
// (to bench/run.mjs, which writes them after every run).
if (process.argv[1] === fileURLToPath(import.meta.url)) writeCharts();

/** Write every chart whose figures exist. */
export function writeCharts() {
  const resultsFile = join(here, "results.json");
  if (existsSync(resultsFile)) {
    const { results } = JSON.parse(readFileSync(resultsFile, "utf8"));
    const names = Object.keys(results.decode.parsed);
    write("decode.svg", barChart({ title: "Decode throughput, parsed objects (the payload mix)", unit: "million decodes per second", better: "higher", rows: names.map((c) => spread(c, results.decode.parsed[c], 1e6)) }));
    write("cold-start.svg", barChart({ title: "Cold start to the first decode in a fresh node:vm context", unit: "milliseconds", better: "lower", rows: names.map((c) => spread(c, results.decode.cold[c])) }));
    if (results.perClass) {
      // Each class in its own unit: a contender's median time over hookwire's (above 1, hookwire is faster).
      const rows = [];
      for (const [cls, by] of Object.entries(results.perClass.valid)) {
        for (const c of names.filter((n) => n !== "wasm")) rows.push({ label: `${c} · ${cls}`, value: by[c].median / by.wasm.median });
      }
      write("per-class.svg", barChart({ title: "Time per decode against hookwire's, by value class", unit: "contender's time ÷ hookwire's (above 1, hookwire is faster)", better: "higher", rows }));
    }
  }
  const growthFile = join(here, "..", "e2e", "bundle-growth.json");
  if (existsSync(growthFile)) {
    const { growth } = JSON.parse(readFileSync(growthFile, "utf8"));
    write("bundle-growth.svg", barChart({ title: "What each decoder adds to a built workflow bundle", unit: "KiB over a bundle without a decoder", better: "lower", rows: Object.entries(growth).map(([n, b]) => ({ label: n, value: b / 1024 })) }));
  }
  console.log(written.length ? `charts: ${written.join(", ")}` : "charts: no results yet (run bench/run.mjs, e2e/bench.mjs)");
}
