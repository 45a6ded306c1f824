// The benchmark's value classes (bench/classes.mjs) are what their names say: every contender
// decodes each valid one to hookwire's value and refuses each reject with its code, the same
// deliver declaring each version decodes to one value, a rewritten class's current form decodes
// as the class does; and the host calls a decode makes (bench/calls.mjs) show that pure version
// bumps cross nothing per step.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { currentForm, PER_VERSION, REJECTS, REWRITTEN, TURN_REJECTS, TURN_VALID, VALID } from "../bench/classes.mjs";
import { TURN_DECODERS } from "../bench/contenders/turn-control.mjs";
import { CONTENDERS } from "../bench/mix.mjs";

const bench = join(dirname(fileURLToPath(import.meta.url)), "..", "bench");
const decoders = {};
for (const c of CONTENDERS) decoders[c] = (await import(join(bench, "contenders", `${c}.mjs`))).decode;
/** A decoded value as JSON holds it (the contenders' objects differ in prototype only). */
const plain = (v) => JSON.parse(JSON.stringify(v));
const forms = Object.fromEntries(REWRITTEN.map((n) => [n, currentForm(decoders.wasm(VALID[n]))]));

test("every contender decodes every valid class, every version and every current form to hookwire's value", () => {
  for (const [set, cases, by] of [
    ["valid", VALID, decoders],
    ["per version", PER_VERSION, decoders],
    ["current forms", forms, decoders],
    ["turn control", TURN_VALID, TURN_DECODERS],
  ]) {
    for (const [name, value] of Object.entries(cases)) {
      const expected = plain(by.wasm(value));
      for (const c of CONTENDERS) assert.deepEqual(plain(by[c](value)), expected, `${c}, ${set}: ${name}`);
    }
  }
});

test("every contender refuses every reject with its code", () => {
  for (const [cases, by] of [
    [REJECTS, decoders],
    [TURN_REJECTS, TURN_DECODERS],
  ]) {
    for (const [name, [value, code]] of Object.entries(cases)) {
      for (const c of CONTENDERS) assert.throws(() => by[c](value), (e) => e.code === code, `${c}: ${name}`);
    }
  }
});

test("the same deliver at each version decodes to one value; a current form decodes as its class", () => {
  const current = plain(decoders.wasm(VALID["current deliver"]));
  const versions = Object.entries(PER_VERSION);
  assert.equal(versions.length, 7);
  for (const [name, value] of versions) assert.deepEqual(plain(decoders.wasm(value)), current, name);
  assert.equal(PER_VERSION["v0 (unversioned)"].version, undefined);
  for (const name of REWRITTEN) {
    assert.equal(forms[name].version, 6);
    assert.deepEqual(plain(decoders.wasm(forms[name])), plain(decoders.wasm(VALID[name])), name);
  }
});

test("host calls: a pure bump crosses nothing per step, a current form as few as a current value", () => {
  const calls = JSON.parse(execFileSync(process.execPath, [join(bench, "calls.mjs")], { encoding: "utf8" }));
  const total = (set, name) => calls[set][name].total;
  const current = total("perVersion", "v6 (current)");
  assert.equal(total("valid", "current deliver"), current);
  // Versions 4 and 5 are pure bumps to 6, and so are 1 to 3 once their tasks are read (the
  // declared-version check, one read whatever the version): no step adds a crossing.
  assert.equal(total("perVersion", "v5"), current);
  assert.equal(total("perVersion", "v4"), current);
  assert.equal(total("perVersion", "v2"), total("perVersion", "v3"));
  assert.equal(total("perVersion", "v1"), total("perVersion", "v3"));
  assert.ok(total("perVersion", "v3") > current, "a v3 value's tasks are read");
  // An unversioned deliver whose payloads hold no task is taken as current by the session
  // inbox's shortcut: its payloads are read, typed and scanned, and whether it reads as its copy
  // asked (its mirror is asked as a current deliver's is); no step runs (a raw send runs them).
  assert.equal(total("perVersion", "v0 (unversioned)"), current + 4, "the shortcut's four questions");
  assert.equal(total("valid", "v0 legacy deliver"), current + 4, "the shortcut's four questions");
  assert.ok(total("valid", "v0 raw send") > total("perVersion", "v1"), "a raw send runs the 0 → 1 migration");
  for (const name of REWRITTEN) assert.equal(total("currentForms", name), current, name);
  // Each count is the sum of the imports called, and a decode asks its head and its fields.
  for (const set of Object.values(calls)) {
    for (const [name, { total: t, by }] of Object.entries(set)) {
      assert.equal(Object.values(by).reduce((a, b) => a + b, 0), t, name);
      assert.ok(by.head >= 1, name);
      assert.equal(by.fields, 1, name);
    }
  }
});
