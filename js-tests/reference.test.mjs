// Decode builds a fresh top-level object and passes opaque subtrees by reference (contract §4.6):
// binary values, undefined-valued keys and cycles inside payloads come out untouched.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hookwire } from "./helpers.mjs";

test("the top-level object is fresh and subtrees are the input's own", () => {
  const payloads = [{ message: "hi" }];
  const auth = null;
  const caller = { callId: "c", subagentName: "s", replyTo: { kind: "hook", token: "t" } };
  const deliveryMetadata = [{ channelKind: "k", channelName: "n", deliveryId: "d", payloadIndex: 0 }];
  const input = { kind: "deliver", version: 1, payloads, payload: payloads[0], auth, caller, deliveryMetadata };
  const out = hookwire.decode(input);
  assert.notEqual(out, input);
  assert.equal(out.payloads, payloads);
  assert.equal(out.caller, caller);
  assert.equal(out.deliveryMetadata, deliveryMetadata);
  assert.equal(out.auth, null);
  assert.ok("auth" in out, "auth: null is kept");
  out.extra = 1;
  assert.equal(input.extra, undefined, "the output is not the input");
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
});

test("binary values and URLs inside parts pass through unchanged", () => {
  const bytes = new Uint8Array([1, 2, 3]);
  const buffer = new ArrayBuffer(8);
  const url = new URL("https://example.com/a.png");
  const parts = [
    { type: "image", image: bytes, mediaType: "image/png" },
    { type: "file", data: buffer, mediaType: "application/pdf" },
    { type: "image", image: url },
  ];
  const payload = { message: parts };
  for (const input of [
    { kind: "deliver", version: 1, payloads: [payload], payload },
    { kind: "deliver", payloads: [payload] },
    { kind: "send", payload },
  ]) {
    const out = hookwire.decode(input);
    assert.equal(out.payloads[0], payload);
    assert.equal(out.payloads[0].message[0].image, bytes);
    assert.equal(out.payloads[0].message[1].data, buffer);
    assert.equal(out.payloads[0].message[2].image, url);
  }
});

test("undefined-valued keys are omitted at the top and untouched inside payloads", () => {
  const payload = { message: "x", interaction: undefined };
  const out = hookwire.decode({ kind: "deliver", payloads: [payload], requestId: undefined, auth: undefined, turnPolicy: undefined });
  assert.deepEqual(Object.keys(out).sort(), ["kind", "payloads"]);
  assert.ok("interaction" in out.payloads[0]);
  const reset = hookwire.decode({ kind: "reset", version: 1, reason: undefined });
  assert.deepEqual(Object.keys(reset), ["kind"]);
  const send = hookwire.decode({ kind: "send", payload: {}, delivery: undefined, caller: undefined });
  assert.deepEqual(Object.keys(send).sort(), ["kind", "payloads"]);
});

test("cyclic payloads decode and stay cyclic", () => {
  const payload = { message: "loop" };
  payload.self = payload;
  const task = { steps: [] };
  task.steps.push(task);
  payload.task = task;
  const out = hookwire.decode({ kind: "send", payload });
  assert.equal(out.payloads[0], payload);
  assert.equal(out.payloads[0].self, payload);
  const out1 = hookwire.decode({ kind: "deliver", version: 1, payloads: [payload] });
  assert.equal(out1.payloads[0].task.steps[0], task);
});

test("a raw send's delivery becomes a new entry 0; the payload keeps its identity", () => {
  const payload = { message: "m" };
  const delivery = { channelKind: "web", payloadIndex: 9 };
  const out = hookwire.decode({ kind: "send", payload, delivery });
  assert.equal(out.payloads[0], payload);
  assert.deepEqual(out.deliveryMetadata, [{ channelKind: "web", payloadIndex: 0 }]);
  assert.equal(delivery.payloadIndex, 9, "the input is never mutated");
});

test("decode cost does not copy payloads: a 1 MB message is the same string", () => {
  const big = "x".repeat(1 << 20);
  const payload = { message: big, task: { blob: big } };
  const out = hookwire.decode({ kind: "deliver", version: 1, payloads: [payload], payload });
  assert.equal(out.payloads[0], payload);
});
