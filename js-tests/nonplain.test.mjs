// Values a JSON document cannot hold: every one gets a typed error or a correct decode, the
// decoder never throws anything but SessionInboxWireError, and it stays usable afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hookwire, wasmResult } from "./helpers.mjs";

const stillWorks = () => assert.deepEqual(hookwire.decode({ kind: "clear" }), { kind: "clear" });

function code(value) {
  const r = wasmResult(value);
  stillWorks();
  return r.error ? r.error.code : "ok";
}

test("primitives and non-JSON values are NOT_OBJECT", () => {
  for (const v of [undefined, null, 0, 1n, "deliver", true, Symbol("s"), () => ({ kind: "clear" }), [], [{ kind: "clear" }]]) {
    assert.equal(code(v), "NOT_OBJECT", String(typeof v));
  }
});

test("versions that are not plain numbers", () => {
  assert.equal(code({ kind: "clear", version: 1n }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "clear", version: NaN }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "clear", version: Infinity }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "clear", version: -Infinity }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "clear", version: new Number(1) }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "clear", version: -0 }), "ok", "-0 is version 0");
  assert.equal(code({ kind: "clear", version: Number.MAX_VALUE }), "NEWER_VERSION");
  assert.equal(code({ kind: "clear", version: undefined }), "ok", "an undefined version is an absent one");
});

test("frozen, sealed and null-prototype objects decode", () => {
  const frozen = Object.freeze({ kind: "deliver", payloads: Object.freeze([Object.freeze({ message: "f" })]) });
  assert.deepEqual(hookwire.decode(frozen), { kind: "deliver", payloads: [{ message: "f" }] });
  const bare = Object.assign(Object.create(null), { kind: "reset", reason: "r" });
  assert.deepEqual(hookwire.decode(bare), { kind: "reset", reason: "r" });
  const sealed = Object.seal({ kind: "send", payload: { m: 1 } });
  assert.deepEqual(hookwire.decode(sealed), { kind: "deliver", payloads: [{ m: 1 }] });
});

test("a Proxy decodes through its traps; a throwing trap is a typed error", () => {
  const proxied = new Proxy({ kind: "cancel", taskId: "t" }, {});
  assert.deepEqual(hookwire.decode(proxied), { kind: "cancel", taskId: "t" });
  const hostile = new Proxy({ kind: "clear" }, { get() { throw new Error("trap"); } });
  assert.equal(code(hostile), "NOT_OBJECT");
  // Only own properties are read: a get trap over a target that owns nothing is never called.
  assert.equal(code(new Proxy({}, { get() { throw new Error("trap"); } })), "UNKNOWN_KIND");
  const hostileOwn = new Proxy({ kind: "clear" }, { getOwnPropertyDescriptor() { throw new Error("trap"); } });
  assert.equal(code(hostileOwn), "NOT_OBJECT", "asking whether a key is own can throw too");
  const { proxy, revoke } = Proxy.revocable({ kind: "clear" }, {});
  revoke();
  assert.equal(code(proxy), "NOT_OBJECT");
  const arrayProxy = new Proxy([], {});
  assert.equal(code(arrayProxy), "NOT_OBJECT");
  const hostileOwnKeys = new Proxy({ kind: "deliver", payloads: [] }, { ownKeys() { throw new Error("keys"); } });
  assert.equal(code(hostileOwnKeys), "NOT_OBJECT", "a legacy deliver is copied, which lists keys");
});

test("a throwing getter anywhere the decoder reads is a typed error", () => {
  const on = (key, base) => Object.defineProperty({ ...base }, key, { get() { throw new Error("boom"); }, enumerable: true });
  assert.equal(code(on("version", { kind: "clear" })), "NOT_OBJECT");
  assert.equal(code(on("kind", {})), "NOT_OBJECT");
  assert.equal(code(on("payload", { kind: "send" })), "NOT_OBJECT");
  assert.equal(code(on("reason", { kind: "reset", version: 1 })), "NOT_OBJECT");
  const payloads = [{}];
  Object.defineProperty(payloads, 0, { get() { throw new Error("elem"); } });
  assert.equal(code({ kind: "deliver", payloads }), "NOT_OBJECT");
  const legacy = on("extra", { kind: "deliver", payloads: [] });
  assert.equal(code(legacy), "NOT_OBJECT", "copying a legacy deliver reads every key");
});

test("an unversioned deliver taken as current answers what running every step answers, whatever it is made of", () => {
  // The session inbox's shortcut takes an unversioned deliver as current only when it reads as
  // the copy step 0 → 1 makes (no non-enumerable own property, every value readable) and its
  // payloads are objects without a task; anything else runs the steps. Each answer here is the
  // one the decoder gave before the shortcut existed.
  const boom = () => {
    throw new Error("boom");
  };
  const hidden = (o, k, value) => Object.defineProperty(o, k, { value, enumerable: false });
  const getter = (o, k, get) => Object.defineProperty(o, k, { get, enumerable: true });
  const cases = [
    [hidden({ kind: "deliver", payloads: [{}] }, "auth", null), { kind: "deliver", payloads: [{}] }],
    [hidden({ kind: "deliver", payloads: [{}], requestId: "r" }, "extra", 1), { kind: "deliver", payloads: [{}], requestId: "r" }],
    [hidden({ kind: "deliver" }, "payloads", [{}]), "INVALID /payloads"],
    [{ kind: "deliver", payloads: [getter({}, "task", boom)] }, "NOT_OBJECT"],
    [{ kind: "deliver", payloads: [getter({}, "task", boom), 5] }, "LEGACY_SHAPE"],
    [getter({ kind: "deliver" }, "payloads", boom), "NOT_OBJECT"],
    [new Proxy({ kind: "deliver", payloads: [{ m: 1 }], requestId: "r" }, {}), { kind: "deliver", payloads: [{ m: 1 }], requestId: "r" }],
    [getter({ kind: "deliver", payloads: [{}] }, Symbol("s"), boom), { kind: "deliver", payloads: [{}] }],
    [{ kind: "deliver", payloads: [, {}] }, "LEGACY_SHAPE"],
    [Object.create({ payloads: [{}] }, { kind: { value: "deliver", enumerable: true } }), "LEGACY_SHAPE"],
    [{ kind: "deliver", payloads: new Proxy([{}], { get: (t, k) => (k === "length" ? 2 ** 31 : t[k]) }) }, "NOT_OBJECT"],
    [{ kind: "deliver", payloads: [Object.create({ task: { inputRequests: [{ hookPayload: 1 }] } })] }, { kind: "deliver", payloads: [{}] }],
    [{ kind: "deliver", payloads: [{}], auth: 5 }, "INVALID /auth"],
    [{ kind: "deliver", payloads: [{}], payload: null, version: 0 }, { kind: "deliver", payloads: [{}] }],
  ];
  for (const [value, want] of cases) {
    const r = wasmResult(value);
    if (typeof want === "string") assert.equal(r.error && `${r.error.code}${r.error.path ? ` ${r.error.path}` : ""}`, want);
    else assert.equal(JSON.stringify(r.ok), JSON.stringify(want));
  }
  stillWorks();
});

test("a getter that decodes re-entrantly does not confuse the decoder", () => {
  const inner = { kind: "clear", version: 9 };
  const outer = {
    get kind() {
      assert.throws(() => hookwire.decode(inner), { code: "NEWER_VERSION" });
      return "reset";
    },
    reason: "r",
  };
  assert.deepEqual(hookwire.decode(outer), { kind: "reset", reason: "r" });
  assert.throws(() => hookwire.decode({ version: 8 }), (e) => e.code === "NEWER_VERSION" && e.version === 8);
});

test("class instances and boxed values are objects without a known kind", () => {
  assert.equal(code(new Date()), "UNKNOWN_KIND");
  assert.equal(code(new String("deliver")), "UNKNOWN_KIND");
  assert.equal(code(new Map([["kind", "clear"]])), "UNKNOWN_KIND");
  assert.equal(code({ kind: new String("clear") }), "UNKNOWN_KIND");
  assert.equal(code({ kind: Symbol("clear") }), "UNKNOWN_KIND");
});

test("no prototype pollution through the output", () => {
  const input = JSON.parse('{"kind":"deliver","payloads":[],"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
  const out = hookwire.decode(input);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(out.polluted, undefined);
  assert.equal({}.polluted, undefined);
  assert.deepEqual(Object.keys(out).sort(), ["kind", "payloads"]);
  const send = hookwire.decode(JSON.parse('{"kind":"send","payload":{},"delivery":{"__proto__":{"x":1},"channelKind":"c"}}'));
  assert.equal({}.x, undefined);
  assert.equal(send.deliveryMetadata[0].channelKind, "c");
});

test("thousands of errors in a row leave the module healthy", () => {
  for (let i = 0; i < 5000; i++) {
    assert.throws(() => hookwire.decode({ kind: "x", version: i % 3 }));
  }
  stillWorks();
});
