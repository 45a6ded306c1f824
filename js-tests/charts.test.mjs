// The benchmark's SVG charts: one bar per row, lengths proportional to the values, hookwire's
// bars told apart, whiskers only where a spread was measured.
import assert from "node:assert/strict";
import { test } from "node:test";
import { barChart } from "../bench/charts.mjs";

const widths = (svg) => [...svg.matchAll(/<rect x="190" y="[\d.]+" width="([\d.]+)" height="22" fill="([^"]+)"/g)].map((m) => [Number(m[1]), m[2]]);

test("bars are proportional to their values and hookwire's stand out", () => {
  const svg = barChart({ title: "t", unit: "u", better: "lower", rows: [{ label: "hookwire", value: 10 }, { label: "zod", value: 40 }, { label: "valibot", value: 20 }] });
  const bars = widths(svg);
  assert.equal(bars.length, 3);
  assert.ok(Math.abs(bars[1][0] / bars[0][0] - 4) < 1e-9);
  assert.ok(Math.abs(bars[2][0] / bars[0][0] - 2) < 1e-9);
  assert.notEqual(bars[0][1], bars[1][1], "hookwire's bar has its own colour");
  assert.equal(bars[1][1], bars[2][1]);
  assert.doesNotMatch(svg, /min–max/, "no spread claimed without one");
  assert.doesNotMatch(svg, /<path/);
});

test("a measured spread draws a whisker and says so; labels are escaped", () => {
  const svg = barChart({ title: "a < b", unit: "ms", better: "lower", rows: [{ label: "wasm", value: 2, low: 1, high: 4 }] });
  assert.match(svg, /median with min–max/);
  assert.match(svg, /<path d="M[\d.]+ [\d.]+H[\d.]+/);
  assert.match(svg, /a &lt; b/);
});
