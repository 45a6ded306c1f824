// The adversarial catalog (fixtures/adversarial.json) through pkg/, after JSON.parse as a JS
// producer's value would arrive. crates/hookwire-cli/tests/adversarial.rs runs the same entries through the CLI.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { canon, hookwire, root, wasmResult } from "./helpers.mjs";

const catalog = JSON.parse(readFileSync(join(root, "fixtures", "adversarial.json"), "utf8"));

function text(e) {
  if (e.text !== undefined) return e.text;
  const r = e.repeat;
  return r.prefix + r.open.repeat(r.count) + r.middle + r.close.repeat(r.count) + r.suffix;
}

for (const e of catalog.entries.filter((e) => e.js !== "n/a")) {
  test(`adversarial: ${e.name}`, () => {
    const r = wasmResult(JSON.parse(text(e)));
    assert.equal(r.error ? r.error.code : "ok", e.js, e.why);
    if (r.ok && e.expect !== undefined) assert.equal(canon(r.ok), canon(e.expect));
    assert.deepEqual(hookwire.decode({ kind: "clear" }), { kind: "clear" }, "still usable");
  });
}

test("no prototype was polluted by the catalog", () => {
  assert.equal({}.polluted, undefined);
  assert.equal({}.x, undefined);
});
