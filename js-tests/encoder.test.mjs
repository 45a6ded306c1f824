// The JS encoder (pkg/encoder.cjs): the native encoder compiled to wasm, checked against the
// frozen encoder outputs, against the native CLI on generated commands, and on what only a JS
// producer can hand it (binary values, undefined, non-JSON values, cycles).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { canon, cases, hookwire, hookwireBin, pkgDir, root } from "./helpers.mjs";

const encoder = createRequire(import.meta.url)(join(pkgDir, "encoder.cjs"));
const TARGETS = { v1: { version: 1 }, "v0-deliver": { version: 0, variant: "deliver" }, "v0-send": { version: 0, variant: "send" } };

function result(command, target) {
  try {
    return { ok: encoder.encode(command, target) };
  } catch (e) {
    assert.ok(e instanceof hookwire.SessionInboxWireError, `not a wire error: ${e}`);
    return { error: { code: e.code, ...(e.path === undefined ? {} : { path: e.path }) } };
  }
}

for (const c of cases("encode")) {
  test(`encode ${c.name} matches the frozen bytes`, () => {
    for (const [name, target] of Object.entries(TARGETS)) {
      const r = result(c.command, target);
      if (c.error) {
        assert.equal(r.error?.code, c.error.code, name);
        if (c.error.path !== undefined) assert.equal(r.error.path, c.error.path, name);
      } else {
        const frozen = readFileSync(join(root, "artifacts", "session-inbox", "v1", "encode", `${c.name.slice(7)}.${name}.json`), "utf8");
        assert.equal(canon(r.ok), frozen, name);
      }
    }
  });
}

test("the error class is the decoder's, shared by both entries", () => {
  assert.equal(encoder.SessionInboxWireError, hookwire.SessionInboxWireError);
  assert.throws(() => encoder.encode({ kind: "deliver", payloads: [], x: 1 }), (e) => e.code === "INVALID" && e.path === "/x" && /declared keys/.test(e.expected));
  assert.throws(() => encoder.encode({ kind: "clear" }, { version: 2 }), { code: "UNSUPPORTED_TARGET" });
  assert.throws(() => encoder.encode({ kind: "clear" }, "v1"), { code: "UNSUPPORTED_TARGET" });
});

test("binary image and file data pass through by reference, for every target", () => {
  const bytes = new Uint8Array([137, 80, 78, 71]);
  const buffer = new ArrayBuffer(4);
  const url = new URL("https://example.com/a.png");
  const message = [
    { type: "image", image: bytes, mediaType: "image/png" },
    { type: "file", data: buffer, mediaType: "application/pdf" },
    { type: "image", image: url },
  ];
  const send = encoder.encode({ kind: "send", payload: { message } });
  for (const p of [send.payload, send.payloads[0]]) {
    assert.equal(p.message[0].image, bytes);
    assert.equal(p.message[1].data, buffer);
    assert.equal(p.message[2].image, url);
  }
  const raw = encoder.encode({ kind: "deliver", payloads: [{ message }, { message: "more" }] }, TARGETS["v0-send"]);
  assert.equal(raw.kind, "send");
  assert.equal(raw.payload.message[0].image, bytes, "through the coalesced mirror too");
  assert.equal(hookwire.decode(send).payloads[0].message[0].image, bytes, "and through decode");
  assert.throws(() => encoder.encode({ kind: "send", payload: { message: [{ type: "text", text: bytes }] } }), {
    code: "INVALID",
    path: "/payloads/0/message/0/text",
  });
  assert.throws(() => encoder.encode({ kind: "send", payload: { interaction: bytes } }), { code: "INVALID", path: "/payloads/0/interaction" });
});

test("JSON-ness: undefined keys are dropped, everything JSON cannot hold is INVALID with its path", () => {
  const w = encoder.encode({ kind: "send", payload: { message: "m", extra: undefined }, requestId: undefined, auth: undefined });
  assert.deepEqual(Object.keys(w).sort(), ["kind", "payload", "payloads", "version"]);
  assert.ok(!("extra" in w.payloads[0]));
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  const cases = [
    [{ kind: "deliver", payloads: [{ task: { n: NaN } }] }, "/payloads/0/task/n"],
    [{ kind: "deliver", payloads: [{ task: { n: Infinity } }] }, "/payloads/0/task/n"],
    [{ kind: "deliver", payloads: [{ task: { d: new Date() } }] }, "/payloads/0/task/d"],
    [{ kind: "deliver", payloads: [{ task: { m: new Map() } }] }, "/payloads/0/task/m"],
    [{ kind: "deliver", payloads: [{ task: { f() {} } }] }, "/payloads/0/task/f"],
    [{ kind: "deliver", payloads: [{ task: { s: Symbol("s") } }] }, "/payloads/0/task/s"],
    [{ kind: "deliver", payloads: [{ task: { b: 1n } }] }, "/payloads/0/task/b"],
    [{ kind: "deliver", payloads: [{ task: cyclic }] }, "/payloads/0/task/self"],
    [{ kind: "deliver", payloads: [{ context: ["a", undefined] }] }, "/payloads/0/context/1"],
    [{ kind: "send", payload: { task: { "a/b": NaN } } }, "/payloads/0/task/a~1b"],
    [{ kind: "send", payload: {}, delivery: { channelKind: NaN } }, "/deliveryMetadata/0/channelKind"],
  ];
  for (const [command, path] of cases) {
    assert.throws(() => encoder.encode(command), (e) => e instanceof hookwire.SessionInboxWireError && e.code === "INVALID" && e.path === path, path);
  }
  const getter = Object.defineProperty({ kind: "clear" }, "boom", { get() { throw new Error("x"); }, enumerable: true });
  assert.throws(() => encoder.encode(getter), { code: "INVALID", path: "" });
  assert.throws(() => encoder.encode(undefined), { code: "INVALID" });
});

/** Generated commands, valid and invalid, as JSON (so the CLI can read them too). */
function* commands(seed, n) {
  let s = seed >>> 0;
  const r = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const payload = () => pick([{ message: "hi" }, { message: [{ type: "text", text: "t" }] }, { message: 1 }, { context: ["a"], task: { files: [1] } }, {}, "x", { inputResponses: [{ requestId: "q" }] }, { message: [{ type: "image" }] }]);
  for (let i = 0; i < n; i++) {
    const kind = pick(["send", "deliver", "deliver", "clear", "reset", "cancel", "compact", "session-timeout", "explode"]);
    const c = { kind };
    if (kind === "send" && r() < 0.9) c.payload = payload();
    if (kind === "send" && r() < 0.4) c.delivery = pick([{ channelKind: "k", channelName: "n", deliveryId: "d" }, { channelKind: "k" }, "d"]);
    if (kind === "deliver" && r() < 0.95) c.payloads = Array.from({ length: Math.floor(r() * 4) }, payload);
    if (kind === "deliver" && r() < 0.3) c.deliveryMetadata = [{ channelKind: "k", channelName: "n", deliveryId: "d", payloadIndex: pick([0, 1, -1, 0.5]) }];
    if ((kind === "send" || kind === "deliver") && r() < 0.3) c.auth = pick([null, { attributes: {}, authenticator: "a", principalId: "p", principalType: "t" }, { attributes: 1 }]);
    if ((kind === "send" || kind === "deliver") && r() < 0.3) c.turnPolicy = pick(["queue", "steer", "later"]);
    if (kind === "reset" && r() < 0.5) c.reason = pick(["r", 3]);
    if (kind === "cancel" && r() < 0.5) c.taskId = "t";
    if (r() < 0.1) c.stray = 1;
    yield { command: c, target: pick(Object.values(TARGETS)) };
  }
}

test("JS encoder and native CLI agree on 3000 generated commands", () => {
  const requests = [...commands(424242, 3000)];
  const out = execFileSync(hookwireBin(), ["encode", "--lines"], { input: requests.map((x) => JSON.stringify(x)).join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 26 });
  const lines = out.trimEnd().split("\n");
  assert.equal(lines.length, requests.length);
  let ok = 0;
  for (let i = 0; i < requests.length; i++) {
    const native = JSON.parse(lines[i]);
    const js = result(requests[i].command, requests[i].target);
    const label = `#${i} ${JSON.stringify(requests[i])}`;
    if (native.ok !== undefined) {
      ok++;
      assert.equal(canon(js.ok), lines[i].slice(6, -1), label);
    } else {
      assert.equal(js.error?.code, native.error.code, label);
      assert.equal(js.error?.path, native.error.path, label);
    }
  }
  assert.ok(ok > 500 && ok < 2900, `a useful mix of valid and invalid (${ok} valid)`);
});

test("negotiation: every rule, lookups counted, the inspected hook handed back", async () => {
  const hooks = new Map();
  const add = (token, runId, metadata) => hooks.set(token, { token, runId, metadata, id: `${token}#${runId}` });
  add("stamped", "r1", { sessionInboxWireVersion: 1 });
  add("eve:session:r2:inbox", "r2");
  add("cont-3", "r3");
  add("eve:session:r3:inbox", "r3");
  add("cont-4", "r4");
  add("cont-5", "r5");
  add("eve:session:r5:inbox", "r9");
  add("future", "r6", { sessionInboxWireVersion: 9 });
  let calls = 0;
  const lookup = async (token) => {
    calls++;
    return hooks.get(token) ?? null;
  };
  const deliver = { kind: "deliver", payloads: [] };
  const expectations = [
    ["stamped", { version: 1 }, 1],
    ["eve:session:r2:inbox", { version: 0, variant: "send" }, 1],
    ["cont-3", { version: 0, variant: "send" }, 2],
    ["cont-4", { version: 0, variant: "deliver" }, 2],
  ];
  for (const [token, target, lookups] of expectations) {
    calls = 0;
    const n = await encoder.negotiate(deliver, { token }, lookup);
    assert.deepEqual(n.target, target, token);
    assert.equal(n.lookups, lookups);
    assert.equal(calls, lookups);
    assert.equal(n.resume.hook, hooks.get(token), "the inspected hook object itself");
  }
  await assert.rejects(encoder.negotiate(deliver, { token: "cont-5" }, lookup), { code: "RUN_MISMATCH" });
  await assert.rejects(encoder.negotiate(deliver, { token: "future" }, lookup), { code: "UNSUPPORTED_TARGET" });
  await assert.rejects(encoder.negotiate(deliver, { token: "missing" }, lookup), { code: "UNSUPPORTED_TARGET" });
  calls = 0;
  const fast = await encoder.negotiate({ kind: "send", payload: {} }, { token: "eve:session:r2:inbox" }, lookup);
  assert.deepEqual([fast.target, fast.lookups, fast.resume, calls], [{ version: 0, variant: "send" }, 0, { token: "eve:session:r2:inbox" }, 0]);
  const saved = await encoder.negotiate(deliver, { address: { sessionId: "s", version: 1 } }, lookup);
  assert.deepEqual([saved.target, saved.lookups, calls], [{ version: 1 }, 0, 0]);
  await assert.rejects(encoder.negotiate(deliver, { address: { sessionId: "s", version: 5 } }, lookup), { code: "UNSUPPORTED_TARGET" });
  assert.equal(encoder.stableInboxToken("run-1"), "eve:session:run-1:inbox");
});
