// Differential test: thousands of generated inputs, valid and invalid, decoded by the native CLI
// (`hookwire decode --lines`) and by the wasm decoder give identical values, error codes and
// messages (the JS host fills the templates the build numbered: js/decoder.js).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { canon, hookwire, hookwireBin, wasmResult } from "./helpers.mjs";

/** The message of the error decoding `value` throws. */
function messageOf(value) {
  try {
    hookwire.decode(value);
  } catch (e) {
    return e.message;
  }
}

/** A small seeded PRNG (mulberry32), so a failure can be replayed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generator(seed) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const json = (depth) => {
    const k = r();
    if (depth <= 0 || k < 0.45) return pick([null, true, false, 0, -1, 2.5, 1e21, -0, "", "x", "ünï", 9007199254740993]);
    if (k < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => json(depth - 1));
    return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [pick(["a", "b", "message", "kind", "version", "payload", "z"]), json(depth - 1)]));
  };
  const oldForm = () => ({
    taskId: "t",
    hookPayload: pick([
      { childContinuationToken: "c", event: { requests: [1, 2], sequence: 0, stepIndex: 1, turnId: "u" } },
      { childContinuationToken: "c", event: { requests: [], sequence: 0, stepIndex: 1, turnId: "u" } },
      { childContinuationToken: 3, event: {} },
      "x",
    ]),
  });
  const object = () => ({ message: pick(["hi", [{ type: "text", text: "t" }], 3]), ...(r() < 0.3 ? { extra: json(2) } : {}) });
  const field = (gen) => (r() < 0.5 ? undefined : gen());
  return () => {
    if (r() < 0.08) return json(3);
    const v = {};
    const kind = pick(["deliver", "send", "clear", "reset", "cancel", "compact", "session-timeout", "explode", undefined, 7, null]);
    if (kind !== undefined) v.kind = kind;
    const version = pick([undefined, undefined, undefined, 0, 1, 1, 2, 3, 4, 5, 6, 6, 7, "1", null, 1.5, -1, 1e300, true, [1]]);
    if (version !== undefined) v.version = version;
    const extras = {
      payload: () => pick([object(), object(), object(), [], null, "p", {}, { task: { agentRequests: [] } }]),
      payloads: () =>
        pick([[object()], [object(), object()], [], [object(), null], [[]], {}, "x", [{ task: { inputRequests: [oldForm()] } }], [{ task: { inputRequests: [{ request: 1 }] } }]]),
      delivery: () => pick([{ channelKind: "c", payloadIndex: 4 }, {}, null, "d", []]),
      auth: () => pick([null, { principalId: "p" }, "token"]),
      caller: () => ({ callId: "c", replyTo: { kind: "hook", token: "t" } }),
      deliveryMetadata: () => [{ channelKind: "k", payloadIndex: 0 }],
      requestId: () => pick(["r", 1, null]),
      taskDeliveryId: () => "td",
      turnPolicy: () => pick(["queue", "steer", "later"]),
      reason: () => pick(["why", 3]),
      taskId: () => "t",
      tasks: () => pick([true, false, "yes"]),
      turnId: () => "u",
      noise: () => json(2),
    };
    for (const [key, gen] of Object.entries(extras)) {
      const x = field(gen);
      if (x !== undefined) v[key] = x;
    }
    return v;
  };
}

test("native CLI and wasm decoder agree on 4000 generated inputs", () => {
  const next = generator(20261129);
  const inputs = Array.from({ length: 4000 }, next);
  const stdout = execFileSync(hookwireBin(), ["decode", "--lines"], {
    input: inputs.map((v) => JSON.stringify(v)).join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const lines = stdout.trimEnd().split("\n");
  assert.equal(lines.length, inputs.length, "one output line per input line");
  let ok = 0;
  const codes = new Set();
  for (let i = 0; i < inputs.length; i++) {
    const native = JSON.parse(lines[i]);
    // What the CLI saw is the JSON text, so the wasm decoder gets the same value re-parsed.
    const wasm = wasmResult(JSON.parse(JSON.stringify(inputs[i])));
    const input = JSON.stringify(inputs[i]);
    if (native.ok !== undefined) {
      ok++;
      assert.ok(wasm.ok !== undefined, `#${i} ${input}: native ok, wasm ${canon(wasm)}`);
      assert.equal(canon(wasm.ok), canon(native.ok), `#${i} ${input}`);
    } else {
      codes.add(native.error.code);
      assert.equal(wasm.error?.code, native.error.code, `#${i} ${input}`);
      assert.equal(wasm.error?.version, native.error.version, `#${i} ${input}: version`);
      assert.equal(wasm.error?.path, native.error.path, `#${i} ${input}: path`);
      assert.equal(messageOf(JSON.parse(input)), native.error.message, `#${i} ${input}: message`);
    }
  }
  assert.ok(ok > 500, `too few valid inputs (${ok})`);
  for (const c of ["NOT_OBJECT", "MALFORMED_VERSION", "NEWER_VERSION", "LEGACY_SHAPE", "UNKNOWN_KIND", "MISDECLARED_VERSION", "INVALID"]) {
    assert.ok(codes.has(c), `the generator never produced ${c}`);
  }
});
