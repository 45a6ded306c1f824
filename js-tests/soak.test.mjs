// Resources: after warm-up, hundreds of thousands of decodes (valid, invalid, hostile) leave the
// wasm memory and the externref table exactly as they were. bench/soak.mjs runs 10 million.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hookwire } from "./helpers.mjs";

export const MIX = [
  { kind: "send", payload: { message: "m" }, delivery: { channelKind: "c", channelName: "n", deliveryId: "d" } },
  { kind: "deliver", payloads: [{ message: "a" }, { message: "b" }], requestId: "r" },
  { kind: "deliver", version: 1, payloads: [{ message: "x" }], payload: { message: "x" } },
  { kind: "cancel", taskId: "t" },
  { kind: "clear", version: 9 },
  null,
  { kind: "send", payload: [] },
  new Proxy({}, { get() { throw new Error("trap"); } }),
  { kind: "reset", version: "1" },
];

function run(n) {
  let errors = 0;
  for (let i = 0; i < n; i++) {
    try {
      hookwire.decode(MIX[i % MIX.length]);
    } catch (e) {
      if (!(e instanceof hookwire.SessionInboxWireError)) throw e;
      errors++;
    }
  }
  return errors;
}

test("no growth of wasm memory or of the externref table", () => {
  run(20_000);
  const before = hookwire.memoryStats();
  const errors = run(300_000);
  const after = hookwire.memoryStats();
  let expected = 0;
  for (let i = 0; i < 300_000; i++) expected += Number(i % MIX.length >= 4);
  assert.equal(errors, expected, "every invalid value is a typed error");
  assert.deepEqual(after, before);
});
