// The frozen fixtures, decoded through pkg/: the same files the Rust tests read.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { canon, cases, hookwire, root } from "./helpers.mjs";

for (const dir of ["v0", "v1", "chain"]) {
  for (const c of cases(dir)) {
    test(`decode ${c.name}`, () => {
      if (c.error) {
        assert.throws(
          () => hookwire.decode(c.input),
          (e) => {
            assert.ok(e instanceof hookwire.SessionInboxWireError);
            assert.ok(e instanceof Error);
            assert.equal(e.name, "SessionInboxWireError");
            assert.equal(e.code, c.error.code);
            if (c.error.version !== undefined) assert.equal(e.version, c.error.version);
            if (e.code === "NEWER_VERSION") {
              assert.match(e.message, /newer/);
              assert.ok(e.message.includes(String(c.error.version)) && e.message.includes(String(hookwire.WIRE_VERSION)));
            }
            assert.ok(e.message.length > 10);
            return true;
          },
        );
      } else {
        const out = hookwire.decode(c.input);
        assert.equal(canon(out), canon(c.expect));
        assert.ok(!("version" in out) && !("payload" in out));
      }
    });
  }
}

for (const c of cases("encode").filter((c) => !c.error)) {
  test(`decode the frozen encoder output of ${c.name}`, () => {
    for (const target of ["v1", "v0-deliver", "v0-send"]) {
      const file = join(root, "artifacts", "session-inbox", "v1", "encode", `${c.name.slice(7)}.${target}.json`);
      const wire = JSON.parse(readFileSync(file, "utf8"));
      const expected = target === "v0-send" && c.decodedFromSend ? c.decodedFromSend : c.decoded;
      assert.equal(canon(hookwire.decode(wire)), canon(expected), target);
    }
  });
}

test("contract constants and the metadata helper", () => {
  assert.equal(hookwire.WIRE_VERSION, 1);
  assert.equal(hookwire.HOOK_METADATA_KEY, "sessionInboxWireVersion");
  assert.deepEqual(hookwire.hookMetadata(), { sessionInboxWireVersion: 1 });
});

test("the package loads by require and by import, as one instance", async () => {
  const { entryPath } = await import("./helpers.mjs");
  const esm = await import(entryPath());
  assert.equal(esm.decode, hookwire.decode, "import and require share one module instance");
  assert.equal(esm.SessionInboxWireError, hookwire.SessionInboxWireError);
  assert.deepEqual(esm.decode({ kind: "compact" }), { kind: "compact" });
});
