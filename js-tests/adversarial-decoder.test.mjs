// Adversarial tests of the wasm decoder (pkg/hookwire.cjs) around the shortcut of an unversioned
// deliver: one whose payloads are objects without a task, with no mirror, that reads as its copy,
// is taken as current after two host questions instead of running steps 0 → 6. Its answer must be
// exactly what running every step answers (ARCHITECTURE.md, src/engine/chain.rs): for plain JSON,
// the native decoder's (`hookwire decode --lines`); for values only JS makes, a typed error by
// code, or the decode of the value's plain JSON copy — where the value's reads agree with each
// other (a getter answering differently per read, or a proxy whose key list leaves out an own
// key, gets one self-consistent reading: see the last test).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import fc from "fast-check";
import { canon, hookwire, hookwireBin } from "./helpers.mjs";

/** The wasm decoder's answer, in the CLI's form (the message, path and expected included). */
function decoded(value) {
  try {
    return { ok: hookwire.decode(value) };
  } catch (e) {
    assert.ok(e instanceof hookwire.SessionInboxWireError, `not a SessionInboxWireError: ${e && e.stack}`);
    const error = { code: e.code, message: e.message };
    for (const k of ["version", "path", "expected"]) if (e[k] !== undefined) error[k] = e[k];
    return { error };
  }
}

/** The native decoder's answers to `values`, as JSON text. */
function nativeAnswers(values) {
  const input = values.map((v) => JSON.stringify(v)).join("\n") + "\n";
  const out = execFileSync(hookwireBin(), ["decode", "--lines"], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  return out.trimEnd().split("\n").map((l) => JSON.parse(l));
}

/** The decoder still answers a plain value. */
const healthy = () => assert.deepStrictEqual(hookwire.decode({ kind: "deliver", payloads: [{ m: 1 }] }), { kind: "deliver", payloads: [{ m: 1 }] });

/** A copy of the JSON value `v` with every object made by `objects` and every array by `arrays` (children first). */
function rebuild(v, objects = (o) => o, arrays = (a) => a) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return arrays(v.map((x) => rebuild(x, objects, arrays)));
  const o = {};
  // Defined, so that an own "__proto__" stays a key, as JSON.parse makes it.
  for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: rebuild(v[k], objects, arrays), enumerable: true, writable: true, configurable: true });
  return objects(o);
}

// Values near the shortcut: mostly unversioned delivers, their payloads objects with or without a
// task (old-form input requests, operations), with or without a mirror, envelope fields of every
// type; keys that Object.prototype has.
const KEYS = ["kind", "payloads", "payload", "auth", "caller", "deliveryMetadata", "requestId", "taskDeliveryId", "turnPolicy", "version", "__proto__", "constructor", "toString", "x", "task", "message"];
const K = fc.constantFrom(...KEYS);
const leaf = fc.oneof(fc.constantFrom(null, true, false, 0, -0, 1, 1.5, "queue", "steer", "deliver", "", {}, [], [{}], "x"), fc.string({ maxLength: 3 }));
const json = fc.letrec((tie) => ({ v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(K, tie("v"), { maxKeys: 3 })) })).v;
const oldForm = fc.constantFrom(
  { inputRequests: [{ hookPayload: { childContinuationToken: "c", event: { requests: [1, 2], sequence: 0, stepIndex: 0, turnId: "t" } }, taskId: "x" }] },
  { inputRequests: [{ hookPayload: { childContinuationToken: "c", event: { requests: [], sequence: 0, stepIndex: 0, turnId: "t" } } }] },
  { inputRequests: [{ hookPayload: 1 }] },
  { inputRequests: [{ request: 1 }] },
  { agentRequests: [] },
  {},
);
const payload = fc.oneof(fc.dictionary(K, json, { maxKeys: 3 }), fc.record({ task: fc.oneof(oldForm, json), message: json }, { requiredKeys: [] }), json);
const general = fc.record(
  {
    kind: fc.constantFrom("deliver", "deliver", "deliver", "send", "clear", "reset"),
    payloads: fc.oneof(fc.array(payload, { maxLength: 3 }), fc.array(payload, { maxLength: 3 }), json),
    payload,
    auth: json,
    caller: json,
    deliveryMetadata: json,
    requestId: json,
    taskDeliveryId: json,
    turnPolicy: fc.oneof(fc.constantFrom("queue", "steer"), json),
    reason: json,
    extra: json,
    version: fc.constantFrom(0, 1, 2, 3, 6, undefined),
  },
  { requiredKeys: ["kind"] },
);
/** What the shortcut may take: an unversioned deliver without a mirror, its payloads an array. */
const near = fc.record(
  {
    kind: fc.constant("deliver"),
    payloads: fc.array(fc.oneof(fc.dictionary(K, json, { maxKeys: 3 }), payload), { maxLength: 4 }),
    auth: json,
    caller: json,
    deliveryMetadata: json,
    requestId: json,
    turnPolicy: fc.oneof(fc.constantFrom("queue", "steer"), json),
    extra: json,
  },
  { requiredKeys: ["kind", "payloads"] },
);
const value = fc.oneof(general, near, near);
const VALUES = fc.sample(value, { seed: 0xdec0de, numRuns: 4000 }).map((v) => JSON.parse(JSON.stringify(v)));

test("plain JSON values near the shortcut decode as the native decoder decodes them: value, code, message, path, expected", () => {
  const want = nativeAnswers(VALUES);
  let shortcut = 0;
  for (const [i, v] of VALUES.entries()) {
    const got = decoded(rebuild(v));
    assert.equal(canon(got), canon(want[i]), JSON.stringify(v));
    if (v.kind === "deliver" && v.version === undefined && !("payload" in v) && Array.isArray(v.payloads)) shortcut++;
  }
  assert.ok(shortcut > 2000, `${shortcut} values the shortcut may take`);
  healthy();
});

/** Ways to make a value that JSON cannot tell from its plain copy (own enumerable string keys alike). */
const SHAPES = {
  "null prototypes": (v) => rebuild(v, (o) => Object.setPrototypeOf(o, null)),
  "transparent proxies": (v) => rebuild(v, (o) => new Proxy(o, {}), (a) => new Proxy(a, {})),
  "own getters": (v) =>
    rebuild(v, (o) => {
      const g = {};
      for (const k of Object.keys(o)) {
        const x = o[k];
        Object.defineProperty(g, k, { get: () => x, enumerable: true, configurable: true });
      }
      return g;
    }),
  "frozen objects and arrays": (v) => rebuild(v, Object.freeze, Object.freeze),
  "symbol keys": (v) =>
    rebuild(v, (o) => {
      o[Symbol("s")] = 1;
      Object.defineProperty(o, Symbol("hidden"), { value: 2 });
      return o;
    }),
  "prototypes holding envelope keys": (v) => rebuild(v, (o) => Object.setPrototypeOf(o, { requestId: "inherited", payloads: [{}], payload: {}, kind: "clear", version: 3, task: { agentRequests: [] } })),
  "class instances": (v) => rebuild(v, (o) => Object.setPrototypeOf(o, class Payload {}.prototype)),
  "arrays with extra properties": (v) =>
    rebuild(
      v,
      (o) => o,
      (a) => Object.assign(a, { extra: { task: 1 }, kind: "x" }),
    ),
};

for (const [name, shape] of Object.entries(SHAPES)) {
  test(`values made of ${name} decode as their plain JSON copy`, () => {
    for (const v of VALUES.slice(0, 1500)) {
      const plain = decoded(rebuild(v));
      const made = shape(v);
      assert.equal(canon(decoded(made)), canon(plain), `${name}: ${JSON.stringify(v)}`);
    }
    healthy();
  });
}

test("a decode from inside a getter, while the shortcut reads a value, changes neither answer", () => {
  for (const v of VALUES.slice(0, 600)) {
    if (v.kind !== "deliver" || v.version !== undefined) continue;
    const inner = VALUES[(VALUES.indexOf(v) * 13 + 5) % VALUES.length];
    const wantInner = canon(decoded(rebuild(inner)));
    let gotInner;
    const outer = rebuild(v);
    const payloads = outer.payloads;
    Object.defineProperty(outer, "payloads", {
      get: () => ((gotInner = canon(decoded(rebuild(inner)))), payloads),
      enumerable: true,
      configurable: true,
    });
    assert.equal(canon(decoded(outer)), canon(decoded(rebuild(v))), JSON.stringify(v));
    assert.equal(gotInner, wantInner, JSON.stringify(inner));
  }
  healthy();
});

test("values the shortcut must not take give what the steps give: typed errors where a read fails, holes, lengths", () => {
  const boom = () => {
    throw new Error("boom");
  };
  const getter = (o, k, get) => Object.defineProperty(o, k, { get, enumerable: true, configurable: true });
  let reads = 0;
  const cases = [
    // A payload's task that throws when read: the steps read it (3 → 4) and report it.
    [{ kind: "deliver", payloads: [{ m: 1 }, getter({}, "task", boom)] }, "NOT_OBJECT"],
    // A payload that is a hole, or an array, or a primitive: step 0 → 1 refuses it.
    [{ kind: "deliver", payloads: [{}, , {}] }, "LEGACY_SHAPE"],
    [{ kind: "deliver", payloads: [{}, []] }, "LEGACY_SHAPE"],
    [{ kind: "deliver", payloads: [new Proxy([], {})] }, "LEGACY_SHAPE"],
    [{ kind: "deliver", payloads: Object.assign([{}], { length: 2 }) }, "LEGACY_SHAPE"],
    // A sparse array claiming a length past 2^20: a value that cannot be read.
    [{ kind: "deliver", payloads: Object.assign([{}], { length: 2 ** 21 }) }, "NOT_OBJECT"],
    // An envelope field whose read throws, after the payloads were found fine.
    [getter({ kind: "deliver", payloads: [{}] }, "requestId", boom), "NOT_OBJECT"],
    // A getter on a key decode never projects runs without changing the answer.
    [getter({ kind: "deliver", payloads: [{ m: 1 }], requestId: "r" }, "other", () => (reads++, 1)), "ok"],
  ];
  for (const [v, want] of cases) {
    const r = decoded(v);
    assert.equal(r.error ? r.error.code : "ok", want, `${want}: ${String(Object.keys(v))}`);
    healthy();
  }
  assert.ok(reads > 0);
  // A revoked proxy as a payload cannot be read (Array.isArray throws on it): NOT_OBJECT, as at
  // the current version, where the envelope check reads it the same way.
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.equal(decoded({ kind: "deliver", payloads: [proxy] }).error?.code, "NOT_OBJECT");
  assert.equal(decoded({ version: 6, kind: "deliver", payload: {}, payloads: [proxy] }).error?.code, "NOT_OBJECT");
  healthy();
});

test("a proxy whose key list leaves out an own key: the shortcut reads its fields as a current value's are read", () => {
  // Reads that disagree with each other have no one right answer (as getters that answer
  // differently per read, hostile.test.mjs): decode answers one self-consistent reading. The
  // steps copy an unversioned deliver by its key list (step 0 → 1), so running them drops
  // `requestId`; the shortcut, which takes the value as current, reads each field as an own
  // property, as a current value's fields are read, and keeps it.
  const hiding = (v) => new Proxy(v, { ownKeys: () => ["kind", "payloads"] });
  const unversioned = decoded(hiding({ kind: "deliver", payloads: [{ m: 1 }], requestId: "r" }));
  const current = decoded(hiding({ kind: "deliver", version: 6, payload: { m: 1 }, payloads: [{ m: 1 }], requestId: "r" }));
  assert.equal(canon(unversioned), canon(current));
  assert.equal(unversioned.ok.requestId, "r");
  assert.deepStrictEqual(hookwire.decode(unversioned.ok), unversioned.ok, "the value returned passes its own checks");
  // A payload with a task runs the steps: the copy by the key list has no `requestId`.
  const steps = decoded(hiding({ kind: "deliver", payloads: [{ m: 1, task: {} }], requestId: "r" }));
  assert.equal(canon(steps), canon({ ok: { kind: "deliver", payloads: [{ m: 1, task: {} }] } }));
});
