// The frozen fixtures, decoded through pkg/: the same files the Rust tests read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { canon, cases, DECODE_DIRS, decodeExpectation, ENCODE_DIRS, encodeExpectation, frozenOutput, hookwire, nativeCurrentVersion, TARGETS } from "./helpers.mjs";

for (const dir of DECODE_DIRS) {
  for (const c of cases(dir)) {
    test(`decode ${c.name}`, () => {
      const want = decodeExpectation(c);
      if (want.error) {
        assert.throws(
          () => hookwire.decode(c.input),
          (e) => {
            assert.ok(e instanceof hookwire.SessionInboxWireError);
            assert.ok(e instanceof Error);
            assert.equal(e.name, "SessionInboxWireError");
            assert.equal(e.code, want.error.code);
            if (want.error.version !== undefined) assert.equal(e.version, want.error.version);
            if (want.error.path !== undefined) assert.equal(e.path, want.error.path);
            if (e.code === "NEWER_VERSION") {
              assert.match(e.message, /newer/);
              assert.ok(e.message.includes(String(want.error.version)) && e.message.includes(String(hookwire.WIRE_VERSION)));
            }
            assert.ok(e.message.length > 10);
            return true;
          },
        );
      } else {
        const out = hookwire.decode(c.input);
        assert.equal(canon(out), canon(want.expect));
        assert.ok(!("version" in out) && !("payload" in out));
      }
    });
  }
}

for (const dir of ENCODE_DIRS) {
  for (const c of cases(dir)) {
    test(`decode the frozen encoder outputs of ${c.name}`, () => {
      const stem = c.name.split("/")[1];
      for (const target of Object.keys(TARGETS)) {
        const frozen = frozenOutput(stem, target);
        if (frozen === undefined) continue;
        const want = encodeExpectation(c, target);
        const expected = want.ok ?? (target === "v0-send" && c.decodedFromSend ? c.decodedFromSend : c.decoded);
        assert.equal(canon(hookwire.decode(JSON.parse(frozen))), canon(expected), target);
      }
    });
  }
}

test("contract constants and the metadata helper", () => {
  const current = nativeCurrentVersion();
  assert.ok(current >= 6);
  assert.equal(hookwire.WIRE_VERSION, current);
  assert.equal(hookwire.HOOK_METADATA_KEY, "sessionInboxWireVersion");
  assert.deepEqual(hookwire.hookMetadata(), { sessionInboxWireVersion: current });
});

test("the package loads by require and by import, as one instance", async () => {
  const { entryPath } = await import("./helpers.mjs");
  const esm = await import(entryPath());
  assert.equal(esm.decode, hookwire.decode, "import and require share one module instance");
  assert.equal(esm.SessionInboxWireError, hookwire.SessionInboxWireError);
  assert.deepEqual(esm.decode({ kind: "compact" }), { kind: "compact" });
});
