// The size gate of size-budget.toml: green on the real budget, red (with twiggy's view of what
// is over) when a limit is set below the current size or a forbidden item is present.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers.mjs";

const gate = (budget) => spawnSync(process.execPath, [join(root, "scripts", "size-gate.mjs"), ...(budget ? [budget] : [])], { encoding: "utf8" });

function budgetWith(edit) {
  const file = join(mkdtempSync(join(tmpdir(), "hookwire-budget-")), "size-budget.toml");
  writeFileSync(file, edit(readFileSync(join(root, "size-budget.toml"), "utf8")));
  return file;
}

test("the shipped decoder is within its budget", () => {
  const r = gate();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /size gate: ok/);
});

test("a limit below the current size fails and shows what grew", () => {
  const r = gate(budgetWith((t) => t.replace(/^raw = [\d_]+/m, "raw = 1_000")));
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /wasm\.raw is \d+ B, over its limit of 1000 B/);
  assert.match(r.stdout, /twiggy top/);
  assert.match(r.stdout, /Shallow Bytes/);
});

test("the encoder's module has a budget of its own", () => {
  const r = gate(budgetWith((t) => t.replace(/^(\[encoder-wasm\][^\n]*\nraw = )[\d_]+/m, "$1100_000")));
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /encoder-wasm\.raw is \d+ B, over its limit of 100000 B/);
  assert.doesNotMatch(r.stdout, /^ {2}wasm\.raw is/m, "only the encoder is over");
  assert.match(r.stdout, /twiggy top of the encoder wasm/);
});

test("a forbidden item in the wasm fails", () => {
  const r = gate(budgetWith((t) => t.replace('items = ["core::fmt"', 'items = ["session_inbox::v3_to_v4", "core::fmt"')));
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /forbidden item "session_inbox::v3_to_v4"/);
});

test("the entries' source maps are line-granular and still name the line that threw", () => {
  for (const entry of ["hookwire.cjs", "turn-control.cjs"]) {
    const map = JSON.parse(readFileSync(join(root, "pkg", `${entry}.map`), "utf8"));
    assert.deepEqual(map.names, [], `${entry}: no names`);
    assert.equal(map.sourcesContent, undefined, `${entry}: no sources content`);
  }
  const line = readFileSync(join(root, "js", "decoder.js"), "utf8").split("\n").findIndex((l) => l.includes("throw fill(new NativeError(")) + 1;
  assert.ok(line > 0);
  const r = spawnSync(
    process.execPath,
    ["--enable-source-maps", "-e", `try { require(${JSON.stringify(join(root, "pkg", "hookwire.cjs"))}).decode({ kind: "explode", version: 6 }) } catch (e) { console.log(e.stack) }`],
    { encoding: "utf8" },
  );
  assert.match(r.stdout, /UNKNOWN_KIND|kind is missing/);
  assert.match(r.stdout, new RegExp(`hookwire:js/decoder\\.js:${line}:`), r.stdout);
});

test("an uncaught decode error prints a short source line, not the entry with its inlined module", () => {
  for (const [entry, value] of [["hookwire.cjs", {}], ["turn-control.cjs", { kind: "turn-result" }]]) {
    const file = join(root, "pkg", entry);
    const r = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(file)}).decode(${JSON.stringify(value)})`], { encoding: "utf8" });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /WireError/);
    const longest = Math.max(...r.stderr.split("\n").map((l) => l.length));
    assert.ok(longest <= 1500, `${entry}: a ${longest}-character line was printed`);
    const text = readFileSync(file, "utf8");
    assert.ok(Math.max(...text.split("\n").map((l) => l.length)) <= 1500, `${entry}: no line of the entry is longer than 1,500 characters`);
  }
});
