// The JS encoder (pkg/encoder.cjs): the native encoder compiled to wasm, checked against the
// frozen encoder outputs, against the native CLI on generated commands, and on what only a JS
// producer can hand it (binary values, undefined, non-JSON values, cycles).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import { canon, cases, ENCODE_DIRS, encodeExpectation, frozenOutput, hookwire, hookwireBin, pkgDir, root, TARGETS } from "./helpers.mjs";

const encoder = createRequire(import.meta.url)(join(pkgDir, "encoder.cjs"));

function result(command, target) {
  try {
    return { ok: encoder.encode(command, target) };
  } catch (e) {
    assert.ok(e instanceof hookwire.SessionInboxWireError, `not a wire error: ${e}`);
    return { error: { code: e.code, ...(e.path === undefined ? {} : { path: e.path }), ...(e.code === "INCOMPATIBLE" ? { version: e.version } : {}) } };
  }
}

for (const c of ENCODE_DIRS.flatMap((d) => cases(d))) {
  test(`encode ${c.name} for every target matches the frozen bytes`, () => {
    for (const [name, target] of Object.entries(TARGETS)) {
      const r = result(c.command, target);
      const want = encodeExpectation(c, name);
      if (want.error) {
        assert.equal(r.error?.code, want.error.code, name);
        if (want.error.path !== undefined) assert.equal(r.error.path, want.error.path, name);
        if (want.error.version !== undefined) assert.equal(r.error.version, want.error.version, name);
      } else {
        assert.equal(canon(r.ok), frozenOutput(c.name.split("/")[1], name), name);
      }
    }
  });
}

test("the error class is the decoder's, shared by both entries", () => {
  assert.equal(encoder.SessionInboxWireError, hookwire.SessionInboxWireError);
  assert.throws(() => encoder.encode({ kind: "deliver", payloads: [], x: 1 }), (e) => e.code === "INVALID" && e.path === "/x" && /declared keys/.test(e.expected));
  assert.throws(() => encoder.encode({ kind: "clear" }, { version: hookwire.WIRE_VERSION + 1 }), { code: "UNSUPPORTED_TARGET" });
  assert.throws(() => encoder.encode({ kind: "cancel", tasks: true }, { version: 5 }), (e) => e.code === "INCOMPATIBLE" && e.path === "/tasks" && e.version === 5);
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

test("negotiation answers every fixture exactly as the CLI does, performing only the lookups it is asked for", async () => {
  const cs = cases("negotiate");
  const lines = cs.map((c) => JSON.stringify(c.request));
  for (const c of cs) {
    const hooks = c.request.hooks ?? [];
    const asked = [];
    const lookup = async (token) => {
      asked.push(token);
      return hooks.find((h) => h.token === token) ?? null;
    };
    let got;
    try {
      const n = await encoder.negotiate(c.request.command, c.request.destination, lookup, {
        writeAtMost: c.writeAtMost,
        stableInboxToken: c.request.stableInboxToken,
      });
      got = { ok: { target: n.target, lookups: n.lookups } };
      assert.equal(asked.length, n.lookups, `${c.name}: lookups made`);
      if (n.lookups > 0) assert.equal(n.resume.hook, hooks.find((h) => h.token === asked[0]), `${c.name}: the inspected hook object`);
      else assert.equal(n.resume.token, c.answer.ok.resume.token, c.name);
    } catch (e) {
      assert.ok(e instanceof hookwire.SessionInboxWireError || e.code === "INVALID_REQUEST", `${c.name}: ${e}`);
      got = { error: { code: e.code } };
    }
    const want = c.answer.ok ? { ok: { target: c.answer.ok.target, lookups: c.answer.ok.lookups } } : { error: { code: c.answer.error.code } };
    assert.deepEqual(got, want, c.name);
  }
  // The same requests through the CLI, with each fixture's write ceiling.
  for (const [i, c] of cs.entries()) {
    const args = ["negotiate", "--lines", ...(c.writeAtMost ? ["--write-at-most", String(c.writeAtMost)] : [])];
    const out = JSON.parse(execFileSync(hookwireBin(), args, { input: lines[i] + "\n", encoding: "utf8" }));
    assert.equal(out.ok ? canon(out.ok.target) : out.error.code, c.answer.ok ? canon(c.answer.ok.target) : c.answer.error.code, c.name);
  }
});

test("a lookup that fails refuses the negotiation; it is never taken for not found", async () => {
  const deliver = { kind: "deliver", payloads: [] };
  await assert.rejects(encoder.negotiate(deliver, { token: "c" }, async () => { throw new Error("timeout"); }), (e) => e.code === "LOOKUP_FAILED" && /timeout/.test(e.message));
  for (const bad of [{}, true, 7, { token: "c", runId: 5 }, { run_id: "r", token: "c" }]) {
    await assert.rejects(encoder.negotiate(deliver, { token: "c" }, () => bad), { code: "LOOKUP_FAILED" }, JSON.stringify(bad));
  }
  const inbox = (token) => (token === "c" ? { token: "c", runId: "r" } : { token, runId: 9 });
  await assert.rejects(encoder.negotiate(deliver, { token: "c" }, inbox), { code: "LOOKUP_FAILED" });
  await assert.rejects(encoder.negotiate(deliver, { token: "c" }, () => null), { code: "HOOK_NOT_FOUND" });
});

test("the write ceiling keeps a rollout rollback-safe", async () => {
  const hook = { token: "c", runId: "r", metadata: { sessionInboxWireVersion: 6 } };
  const n = await encoder.negotiate({ kind: "clear" }, { token: "c" }, () => hook, { writeAtMost: 5 });
  assert.deepEqual(n.target, { version: 5 });
  await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: "c" }, () => hook, { writeAtMost: hookwire.WIRE_VERSION + 1 }), { code: "INVALID_REQUEST" });
  // A number JSON cannot carry is no ceiling to take for "none" (JSON text would write it as null).
  for (const w of [NaN, Infinity, -Infinity]) {
    await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: "c" }, () => hook, { writeAtMost: w }), { code: "INVALID_REQUEST" }, String(w));
  }
  assert.equal(encoder.stableInboxToken("run-1"), "eve:session:run-1:inbox");
  assert.equal(encoder.stableInboxToken("run-1", "inbox/{runId}"), "inbox/run-1");
});

test("every call gives back the blocks of the module's arena, so the next one starts it over", async () => {
  const tc = (dir) =>
    readdirSync(join(root, "fixtures", "turn-control", dir))
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(root, "fixtures", "turn-control", dir, f), "utf8")));
  const all = () => {
    for (const c of ENCODE_DIRS.flatMap((d) => cases(d))) for (const target of Object.values(TARGETS)) result(c.command, target);
    for (const c of tc("encode")) {
      for (const target of [{ version: 0 }, { version: 1 }]) {
        try {
          encoder.turnControl.encode(c.command, target);
        } catch {}
      }
    }
  };
  all();
  await encoder.negotiate({ kind: "clear" }, { token: "c" }, () => ({ token: "c", runId: "r", metadata: { sessionInboxWireVersion: 3 } }));
  encoder.turnControl.negotiate({ turnControlWireVersion: 1 });
  // A block made on first use and kept (a table computed once) would be held here for good, and
  // every call after the arena filled up would take its memory from the system allocator.
  assert.equal(encoder.memoryStats().arenaBlocks, 0);
  const before = encoder.memoryStats();
  for (let i = 0; i < 40; i++) all();
  assert.deepEqual(encoder.memoryStats(), before);
});

test("many strings alike but in their middle come back as they were (the module's string table probes a bounded number of slots)", () => {
  const context = Array.from({ length: 5000 }, (_, i) => `https://img.example/${String(i).padStart(6, "0")}/a.png`);
  const same = Array.from({ length: 300 }, () => "the very same text");
  const wire = encoder.encode({ kind: "send", payload: { message: "m", context: [...context, ...same] } });
  assert.deepEqual(wire.payloads[0].context, [...context, ...same]);
  assert.deepEqual(wire.payload.context, [...context, ...same]);
});
