// Property tests (fast-check) over generated values, each with a fixed seed so a failure replays
// (fast-check prints the seed and the shrunk counterexample):
//   1. the native CLI (`decode --lines`) and the wasm decoders agree on realistic values of every
//      session inbox version (0–6, newer and malformed versions) and of turn control;
//   2. decode throws only its family's error, never mutates its input, keeps opaque subtrees by
//      reference where the contract promises it, and is idempotent on unversioned values;
//   3. the JS encoder (pkg/encoder.cjs) answers what `encode --lines` answers, for every target;
//   4. hostile values (throwing getters and traps, lying proxies, polluted prototypes, deep nesting,
//      another realm's values) leave every module healthy.
// Values that cross to the CLI are JSON; the in-process properties also use what only JS has.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import vm from "node:vm";
import fc from "fast-check";
import * as inboxTables from "../js/contract.js";
import * as turnControlTables from "../js/turn-control-contract.js";
import { canon, hookwire, hookwireBin, pkgDir, TARGETS } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const tc = require(join(pkgDir, "turn-control.cjs"));
const encoder = require(join(pkgDir, "encoder.cjs"));

/** The two decoder families, as the properties take them. */
const INBOX = { name: "session-inbox", args: [], entry: hookwire, decode: (v) => hookwire.decode(v), ErrorClass: hookwire.SessionInboxWireError };
const TURN = { name: "turn-control", args: ["--family", "turn-control"], entry: tc, decode: (v) => tc.decode(v), ErrorClass: tc.TurnControlWireError };

// ---------------------------------------------------------------------------------------------
// Shared helpers.

/** Run the native CLI on NDJSON lines: one answer line per input line. */
function cli(args, values) {
  const stdout = execFileSync(hookwireBin(), args, {
    input: values.map((v) => JSON.stringify(v)).join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  const lines = stdout.trimEnd().split("\n");
  assert.equal(lines.length, values.length, "one output line per input line");
  return lines;
}

/** An error's code, and its version and path when it has them (own properties only). */
function errorOf(e) {
  const own = (k) => (Object.hasOwn(e, k) && e[k] !== undefined ? { [k]: e[k] } : {});
  return { code: e.code, ...own("version"), ...own("path") };
}

/** Everything a CLI error line and a JS error are compared on: code, version, path, expected, message. */
function fullError(e) {
  const own = (k) => (Object.hasOwn(e, k) && e[k] !== undefined ? { [k]: e[k] } : {});
  return { code: e.code, ...own("version"), ...own("path"), ...own("expected"), message: e.message };
}

/** A thrown value described without running anything that could throw again. */
function describe(e) {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : typeof e === "symbol" ? e.toString() : `${typeof e} ${String(e)}`;
  } catch {
    return `an undescribable ${typeof e}`;
  }
}

/** `{ ok }` or `{ error }` for `family.decode(value)`; anything but the family's error fails. */
function decodeOutcome(family, value) {
  try {
    return { ok: family.decode(value) };
  } catch (e) {
    assert.ok(e instanceof family.ErrorClass && e instanceof family.entry.WireError, `${family.name} decode threw ${describe(e)}`);
    assert.equal(e.family, family.name);
    return { error: e };
  }
}

/** JSON text and back: what the CLI sees, as a fresh plain JS value. */
const viaJson = (v) => JSON.parse(JSON.stringify(v));

const has = (o, k) => o !== null && typeof o === "object" && Object.hasOwn(o, k) && o[k] !== undefined;
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** `fc.assert` with the file's defaults: a fixed seed, a run count, a readable counterexample. */
function check(property, seed, numRuns) {
  fc.assert(property, { seed, numRuns, endOnFailure: false });
}

// ---------------------------------------------------------------------------------------------
// Arbitraries. `bad` weighs the wrong-typed alternative of each field against 40 for the right
// one; `exotic` adds what only JS has (undefined, bigint, NaN, dates, maps, typed arrays, boxed
// strings, null-prototype objects, class instances, …) to the wrong alternatives and the leaves.

const ABSENT = Symbol("absent");

/** Each key of `spec` ({ key: [arbitrary, weight of being present, 0..10] }) present or absent; shrinks towards absent. */
function obj(spec) {
  const model = {};
  for (const [k, [arb, w]] of Object.entries(spec)) {
    model[k] = w >= 10 ? arb : fc.oneof({ withCrossShrink: true }, { weight: 10 - w, arbitrary: fc.constant(ABSENT) }, { weight: w, arbitrary: arb });
  }
  return fc.record(model, { noNullPrototype: true }).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ABSENT)));
}

/** Fresh values JSON cannot hold, made anew for every use. */
const EXOTIC = [
  () => undefined,
  () => 1n,
  () => NaN,
  () => -Infinity,
  () => -0,
  () => new Date(0),
  () => new Map([["kind", "clear"]]),
  () => new Set(["deliver"]),
  () => new Uint8Array([1, 2]),
  () => new ArrayBuffer(2),
  () => new URL("https://example.com/a.png"),
  () => Symbol("s"),
  () => function kind() {},
  () => new String("deliver"),
  () => Object.assign(Object.create(null), { kind: "clear", message: "m" }),
  // eslint-disable-next-line no-sparse-arrays
  () => [, { message: "m" }],
  () => new (class Payload {
    constructor() {
      this.message = "m";
    }
  })(),
  () => /deliver/,
  () => new Error("kind"),
];
const exoticValue = fc.nat({ max: EXOTIC.length - 1 }).map((i) => EXOTIC[i]());

function leaves(exotic) {
  const json = fc.jsonValue({ maxDepth: 2, stringUnit: "grapheme" });
  const jsonObject = fc.dictionary(fc.string({ unit: "grapheme", maxLength: 5 }), json, { maxKeys: 3, noNullPrototype: !exotic });
  if (!exotic) return { json, jsonObject };
  const anything = fc.anything({
    maxDepth: 2,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
    withNullPrototype: true,
    withBoxedValues: true,
    withObjectString: true,
  });
  return { json: fc.oneof(json, exoticValue, anything), jsonObject: fc.oneof({ weight: 4, arbitrary: jsonObject }, { weight: 1, arbitrary: anything }) };
}

/** Realistic session inbox values (and commands), valid and not, in every version. */
function inboxArbitraries({ bad = 5, exotic = false } = {}) {
  const often = (good, wrong) => fc.oneof({ withCrossShrink: true }, { weight: 40, arbitrary: good }, { weight: bad, arbitrary: wrong });
  const wrongs = (...xs) => (exotic ? fc.oneof(fc.constantFrom(...xs), exoticValue) : fc.constantFrom(...xs));
  const { json, jsonObject } = leaves(exotic);
  const str = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("a", "req-1", "", "ünï 😀", "a/b~c") }, { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) });
  const notString = wrongs(7, null, true, [], {}, ["a"]);
  const notObject = wrongs("x", 7, null, [], [{}], true);
  const notArray = wrongs({}, "x", 7, null, { 0: {} });
  const nat = fc.oneof(fc.nat({ max: 20 }), fc.constant(9007199254740991));

  const part = fc.oneof(
    obj({ type: [fc.constant("text"), 10], text: [often(str, notString), 10], providerOptions: [fc.dictionary(str, jsonObject, { maxKeys: 2, noNullPrototype: true }), 1] }),
    obj({ type: [fc.constant("image"), 10], image: [str, 9], mediaType: [str, 4] }),
    obj({ type: [fc.constant("file"), 10], data: [str, 9], mediaType: [str, 9], filename: [str, 3] }),
  );
  const message = often(fc.oneof(str, fc.array(part, { maxLength: 3 })), wrongs(3, null, {}));
  const inputResponse = obj({ requestId: [str, 10], optionId: [str, 3], text: [str, 3] });
  // The old form of a task input request (before TaskV4): rewritten by up 3 → 4 when walked.
  const event = obj({
    requests: [often(fc.array(json, { maxLength: 3 }), notArray), 9],
    sequence: [often(nat, wrongs(-1, 1.5, "0")), 9],
    stepIndex: [often(nat, wrongs(-1, 2.5, null)), 9],
    turnId: [often(str, notString), 9],
  });
  const hookPayload = often(
    obj({ childContinuationToken: [often(str, notString), 9], event: [often(event, notObject), 9], kind: [fc.constant("subagent-input-request"), 3] }),
    notObject,
  );
  const oldForm = obj({ taskId: [str, 8], hookPayload: [hookPayload, 10], note: [json, 1] });
  // One the 3 → 4 step can rewrite (every part it reads is there and well typed).
  const oldFormGood = obj({
    taskId: [str, 9],
    hookPayload: [
      obj({
        childContinuationToken: [str, 10],
        event: [obj({ requests: [fc.array(json, { maxLength: 3 }), 10], sequence: [nat, 10], stepIndex: [nat, 10], turnId: [str, 10], extra: [json, 2] }), 10],
        kind: [fc.constant("subagent-input-request"), 5],
      }),
      10,
    ],
    turnId: [str, 1],
    note: [json, 1],
  });
  const newForm = fc
    .tuple(
      obj({ replyTo: [str, 10], taskId: [str, 10], turnId: [str, 10], sequence: [nat, 10], stepIndex: [nat, 10], extra: [json, 1] }),
      fc.oneof(
        { weight: 8, arbitrary: json.map((request) => ({ request })) },
        { weight: 8, arbitrary: fc.array(json, { maxLength: 2 }).map((requests) => ({ requests })) },
        { weight: bad, arbitrary: fc.constant({}) },
      ),
    )
    .map(([a, b]) => ({ ...a, ...b }));
  const usage = obj({ inputTokens: [nat, 6], costUsd: [fc.double({ min: 0, max: 10, noNaN: true }), 5] });
  const agentRequest = obj({
    replyTo: [str, 10],
    taskId: [str, 10],
    request: [
      fc.oneof(
        obj({
          kind: [fc.constant("agent-invoke"), 10],
          invocationId: [str, 10],
          input: [obj({ message: [str, 10], target: [str, 10], agentId: [str, 3], outputSchema: [jsonObject, 2] }), 10],
        }),
        obj({ kind: [fc.constant("agent-settled"), 10], result: [obj({ usage: [usage, 5], outcome: [obj({ usageDelta: [usage, 6] }), 4], text: [str, 3] }), 10] }),
      ),
      10,
    ],
  });
  const authorizationEvent = obj({
    taskId: [str, 10],
    hookPayload: [
      obj({ callId: [str, 10], childSessionId: [str, 10], event: [jsonObject, 10], kind: [fc.constant("subagent-authorization-event"), 10], subagentName: [str, 10] }),
      10,
    ],
  });
  const inputRequest = fc.oneof({ weight: 12, arbitrary: newForm }, { weight: 12, arbitrary: oldFormGood }, { weight: 2 * bad, arbitrary: oldForm }, { weight: bad, arbitrary: json });
  const taskV4 = obj({
    agentRequests: [fc.array(agentRequest, { maxLength: 2 }), 4],
    authorizationEvents: [fc.array(authorizationEvent, { maxLength: 2 }), 2],
    inputRequests: [fc.array(inputRequest, { maxLength: 3 }), 6],
    views: [fc.array(obj({ usage: [usage, 6], title: [str, 4] }), { maxLength: 2 }), 3],
  });
  const task = often(taskV4, fc.oneof(jsonObject, notObject));
  const payload = obj({
    message: [message, 7],
    context: [fc.array(str, { maxLength: 2 }), 2],
    inputResponses: [fc.array(inputResponse, { maxLength: 2 }), 2],
    outputSchema: [jsonObject, 1],
    task: [task, 5],
    interaction: [json, 2],
  });

  const attributes = fc.dictionary(str, fc.oneof(str, fc.array(str, { maxLength: 2 })), { maxKeys: 2, noNullPrototype: true });
  const auth = fc.oneof(
    { weight: 30, arbitrary: obj({ attributes: [attributes, 10], authenticator: [str, 10], principalId: [str, 10], principalType: [str, 10], issuer: [str, 3], subject: [str, 3] }) },
    { weight: 10, arbitrary: fc.constant(null) },
    { weight: bad, arbitrary: wrongs("token", 5, [], true) },
  );
  const activityObserver = obj({
    sink: [obj({ url: [str, 10], version: [fc.constant(1), 10] }), 10],
    workIdentity: [
      obj({
        id: [str, 10],
        rootSessionId: [str, 10],
        rootTurnId: [str, 10],
        kind: [fc.constantFrom("root-turn", "subagent", "remote-agent", "task"), 10],
        callId: [str, 3],
        name: [str, 3],
        parentId: [str, 3],
        sessionId: [str, 3],
        turnId: [str, 3],
      }),
      5,
    ],
  });
  const replyTo = fc.oneof(obj({ kind: [fc.constant("hook"), 10], token: [str, 10] }), obj({ kind: [fc.constant("callback"), 10], token: [str, 10], url: [str, 10] }));
  const caller = often(obj({ callId: [str, 10], subagentName: [str, 10], taskId: [str, 3], replyTo: [replyTo, 10], activityObserver: [activityObserver, 3] }), notObject);
  const entryFields = {
    channelKind: [str, 10],
    channelName: [str, 10],
    deliveryId: [str, 10],
    requestId: [str, 3],
    requestTraceContext: [obj({ spanId: [str, 10], traceFlags: [nat, 10], traceId: [str, 10] }), 2],
    acceptedDeploymentId: [often(str, notString), 3],
  };
  const deliveryEntry = obj({ ...entryFields, payloadIndex: [often(nat, wrongs(-1, 0.5)), 10] });
  const delivery = often(obj(entryFields), notObject);
  const deliveryMetadata = often(fc.array(deliveryEntry, { maxLength: 3 }), fc.oneof(notArray, fc.constantFrom([1], [null], [{}, []])));
  const payloads = often(fc.array(payload, { maxLength: 3 }), fc.oneof(notArray, fc.array(fc.oneof(payload, notObject), { minLength: 1, maxLength: 3 })));
  const carried = {
    auth: [auth, 3],
    caller: [caller, 3],
    requestId: [often(str, notString), 3],
    taskDeliveryId: [often(str, notString), 2],
    turnPolicy: [often(fc.constantFrom("queue", "steer"), wrongs("later", 1, null)), 2],
  };
  const fields = {
    deliver: { payloads: [payloads, 9], payload: [often(payload, notObject), 7], ...carried, deliveryMetadata: [deliveryMetadata, 3] },
    send: { payload: [often(payload, notObject), 9], delivery: [delivery, 4], ...carried },
    reset: { reason: [often(str, notString), 5] },
    cancel: { taskId: [often(str, notString), 5], turnId: [often(str, notString), 5], tasks: [often(fc.boolean(), wrongs("yes", 1, null)), 4] },
    clear: {},
    compact: {},
    "session-timeout": {},
  };
  // Fields of other kinds, and adapter noise, now and then.
  const noise = obj({ extra: [json, 1], payload: [payload, 1], payloads: [payloads, 1], tasks: [fc.boolean(), 1], reason: [str, 1], version: [fc.constantFrom(1, 6), 1] });
  const version = fc.oneof(
    { weight: 5, arbitrary: fc.constant(ABSENT) },
    { weight: 14, arbitrary: fc.integer({ min: 0, max: 6 }) },
    { weight: 1, arbitrary: fc.constantFrom(7, 8, 2 ** 31, 1e300) },
    { weight: 1, arbitrary: wrongs("1", null, 1.5, -1, true, [1], {}, "6") },
  );
  const kinds = Object.keys(fields);
  // Delivers and sends carry nearly everything a decoder reads: most values are one of them.
  const KIND_WEIGHT = { deliver: 5, send: 3 };
  const unknownKind = fc.constantFrom(ABSENT, "explode", 7, null, "Deliver");
  const assemble = ([kind, v, f, n]) => ({ ...(kind === ABSENT ? {} : { kind }), ...(v === ABSENT ? {} : { version: v }), ...n, ...f });
  const noNoise = fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: noise });
  const value = fc.oneof(
    { weight: 40, arbitrary: fc.oneof(...kinds.map((k) => ({ weight: KIND_WEIGHT[k] ?? 1, arbitrary: fc.tuple(fc.constant(k), version, obj(fields[k]), noNoise).map(assemble) }))) },
    { weight: 2, arbitrary: fc.tuple(unknownKind, version, obj(fields.deliver), noNoise).map(assemble) },
    { weight: 1, arbitrary: exotic ? fc.oneof(json, exoticValue) : json },
  );

  // Commands: the value's fields without version and mirror, a send's payload and delivery.
  const commandNoise = obj({ stray: [json, 1], version: [fc.constantFrom(1, 6), 1], payload: [payload, 1] });
  const commandFields = { ...fields, deliver: { payloads: [payloads, 10], ...carried, deliveryMetadata: [deliveryMetadata, 3] } };
  const noCommandNoise = fc.oneof({ weight: 40, arbitrary: fc.constant({}) }, { weight: bad, arbitrary: commandNoise });
  const command = fc.oneof(
    { weight: 40, arbitrary: fc.oneof(...kinds.map((k) => fc.tuple(fc.constant(k), fc.constant(ABSENT), obj(commandFields[k]), noCommandNoise).map(assemble))) },
    { weight: bad, arbitrary: fc.tuple(unknownKind, fc.constant(ABSENT), obj(commandFields.send), noCommandNoise).map(assemble) },
    { weight: 1, arbitrary: json },
  );
  return { value, command, payload, str };
}

const TC_KINDS = ["turn-result", "turn-error", "turn-continuation-token", "turn-delivery-request", "turn-delivery-accepted", "turn-delivery-cancelled"];

/** Realistic turn-control values (and commands), valid and not. */
function turnArbitraries({ bad = 5, exotic = false } = {}) {
  const often = (good, wrong) => fc.oneof({ withCrossShrink: true }, { weight: 40, arbitrary: good }, { weight: bad, arbitrary: wrong });
  const wrongs = (...xs) => (exotic ? fc.oneof(fc.constantFrom(...xs), exoticValue) : fc.constantFrom(...xs));
  const { json, jsonObject } = leaves(exotic);
  const inbox = inboxArbitraries({ bad, exotic });
  const str = inbox.str;
  const notString = wrongs(7, null, true, [], {});
  const notObject = wrongs("reply", 7, null, [], [{ kind: "reply" }]);
  const action = often(
    obj({ kind: [often(str, notString), 10], text: [str, 4], attachments: [fc.array(jsonObject, { maxLength: 2 }), 2], futureField: [json, 2] }),
    notObject,
  );
  const buffered = often(fc.array(fc.oneof(jsonObject, inbox.value.filter(isObject)), { maxLength: 3 }), fc.oneof(wrongs({}, "x", null, 1), fc.constantFrom([null], [{}, "x"], [[]])));
  const s = (w) => [often(str, notString), w];
  const fields = {
    "turn-result": { action: [action, 9], bufferedDeliveries: [buffered, 5] },
    "turn-error": { error: [json, 9] },
    "turn-continuation-token": { continuationToken: s(9) },
    "turn-delivery-request": { continuationToken: s(9), inboxToken: s(9), requestId: s(9) },
    "turn-delivery-accepted": { requestId: s(9) },
    "turn-delivery-cancelled": { requestId: s(9) },
  };
  const noise = obj({ extra: [json, 1], requestId: [str, 1], action: [action, 1], sessionId: [str, 1] });
  const version = fc.oneof(
    { weight: 6, arbitrary: fc.constant(ABSENT) },
    { weight: 12, arbitrary: fc.integer({ min: 0, max: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(2, 3, 1e300) },
    { weight: 1, arbitrary: wrongs("1", null, 1.5, -1, true, [1]) },
  );
  const assemble = ([kind, v, f, n]) => ({ ...(kind === ABSENT ? {} : { kind }), ...(v === ABSENT ? {} : { version: v }), ...n, ...f });
  const noNoise = fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: noise });
  const value = fc.oneof(
    { weight: 40, arbitrary: fc.oneof(...TC_KINDS.map((k) => fc.tuple(fc.constant(k), version, obj(fields[k]), noNoise).map(assemble))) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(ABSENT, "turn-handoff", "deliver", 7, null), version, obj(fields["turn-result"]), noNoise).map(assemble) },
    { weight: 1, arbitrary: exotic ? fc.oneof(json, exoticValue) : json },
  );
  const commandNoise = obj({ stray: [json, 1], version: [fc.constantFrom(0, 1), 1] });
  const noCommandNoise = fc.oneof({ weight: 40, arbitrary: fc.constant({}) }, { weight: bad, arbitrary: commandNoise });
  const command = fc.oneof(
    { weight: 40, arbitrary: fc.oneof(...TC_KINDS.map((k) => fc.tuple(fc.constant(k), fc.constant(ABSENT), obj(fields[k]), noCommandNoise).map(assemble))) },
    { weight: bad, arbitrary: fc.tuple(fc.constantFrom(ABSENT, "turn-handoff"), fc.constant(ABSENT), obj(fields["turn-error"]), noCommandNoise).map(assemble) },
    { weight: 1, arbitrary: json },
  );
  return { value, command };
}

// ---------------------------------------------------------------------------------------------
// 1. Native ≡ wasm on generated values: one CLI batch per property run.

/** Decode a batch natively and in wasm; identical values, and identical errors (code, version, path, expected, message). */
function sameAnswers(family, values, seen) {
  const lines = cli([...family.args, "decode", "--lines"], values);
  for (const [i, value] of values.entries()) {
    const native = JSON.parse(lines[i]);
    const wasm = decodeOutcome(family, viaJson(value));
    const label = `#${i} ${JSON.stringify(value)}`;
    if (native.ok !== undefined) {
      assert.ok(wasm.ok !== undefined, `${label}: native ok, wasm ${wasm.error && describe(wasm.error)}`);
      assert.equal(canon(wasm.ok), canon(native.ok), label);
      seen.add(`ok ${native.ok.kind}`);
      if (isObject(value)) seen.add(`ok version ${Object.hasOwn(value, "version") ? value.version : "absent"}`);
    } else {
      assert.ok(wasm.error !== undefined, `${label}: native ${native.error.code}, wasm ok ${canon(wasm.ok)}`);
      assert.deepEqual(fullError(wasm.error), fullError(native.error), label);
      seen.add(native.error.code);
    }
  }
}

test("1a. native ≡ wasm: session inbox values of every version (0–6), newer and malformed", () => {
  const { value } = inboxArbitraries();
  const seen = new Set();
  const versions = new Set();
  check(
    fc.property(fc.array(value, { minLength: 1, maxLength: 60, size: "max" }), (values) => {
      for (const v of values) if (isObject(v)) versions.add(Object.hasOwn(v, "version") ? String(v.version) : "absent");
      sameAnswers(INBOX, values, seen);
    }),
    20261201,
    200,
  );
  for (const k of ["deliver", "reset", "cancel", "clear", "compact", "session-timeout"]) assert.ok(seen.has(`ok ${k}`), `no decodable ${k} was generated`);
  for (const c of ["NOT_OBJECT", "MALFORMED_VERSION", "NEWER_VERSION", "LEGACY_SHAPE", "UNKNOWN_KIND", "MISDECLARED_VERSION", "INVALID"]) {
    assert.ok(seen.has(c), `the generator never produced ${c}`);
  }
  for (const v of ["absent", "0", "1", "2", "3", "4", "5", "6", "7"]) assert.ok(versions.has(v), `no value of version ${v}`);
  for (const v of ["absent", "0", "1", "2", "3", "4", "5", "6"]) assert.ok(seen.has(`ok version ${v}`), `no decodable value of version ${v}`);
});

test("1b. native ≡ wasm: turn-control values", () => {
  const { value } = turnArbitraries();
  const seen = new Set();
  check(
    fc.property(fc.array(value, { minLength: 1, maxLength: 60, size: "max" }), (values) => sameAnswers(TURN, values, seen)),
    20261202,
    120,
  );
  for (const k of TC_KINDS) assert.ok(seen.has(`ok ${k}`), `no decodable ${k} was generated`);
  for (const v of ["absent", "0", "1"]) assert.ok(seen.has(`ok version ${v}`), `no decodable value of version ${v}`);
  for (const c of ["NOT_OBJECT", "MALFORMED_VERSION", "NEWER_VERSION", "LEGACY_SHAPE", "UNKNOWN_KIND", "INVALID"]) assert.ok(seen.has(c), `the generator never produced ${c}`);
});

// ---------------------------------------------------------------------------------------------
// 2. Decode in JS: only the family's error, no mutation, references, idempotence.

/**
 * Everything observable about a value, recursively: own keys and descriptors, prototype,
 * extensibility, and the contents of typed arrays, buffers, maps, sets and dates. Two snapshots
 * are compared with isDeepStrictEqual; functions and symbols compare by identity.
 */
function snapshot(v, seen = new Map()) {
  if (v === null || typeof v !== "object") return Object.is(v, -0) ? { minusZero: true } : v;
  if (seen.has(v)) return { cycle: seen.get(v) };
  seen.set(v, seen.size);
  const s = { proto: Object.getPrototypeOf(v), extensible: Object.isExtensible(v), keys: [] };
  for (const k of Reflect.ownKeys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    s.keys.push([k, d.enumerable, d.configurable, "value" in d ? [d.writable, snapshot(d.value, seen)] : [d.get, d.set]]);
  }
  if (ArrayBuffer.isView(v)) s.bytes = [...new Uint8Array(v.buffer, v.byteOffset, v.byteLength)];
  else if (v instanceof ArrayBuffer) s.bytes = [...new Uint8Array(v)];
  else if (v instanceof Map) s.entries = [...v].map(([a, b]) => [snapshot(a, seen), snapshot(b, seen)]);
  else if (v instanceof Set) s.entries = [...v].map((a) => snapshot(a, seen));
  else if (v instanceof Date) s.time = v.getTime();
  return s;
}

/** Freeze a value and everything it holds (typed arrays and buffers cannot be frozen: skipped). */
function deepFreeze(v, seen = new Set()) {
  if (v === null || typeof v !== "object" || seen.has(v)) return v;
  seen.add(v);
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
  for (const k of Reflect.ownKeys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    if ("value" in d) deepFreeze(d.value, seen);
  }
  return Object.freeze(v);
}

/** The outcome as comparable data: the decoded value itself, or the error's code, version and path. */
const summary = (r) => (r.ok !== undefined ? { ok: r.ok } : { error: errorOf(r.error) });

/** An old-form task input request (contract §11): no replyTo key, a hookPayload key. */
const isOldForm = (e) => isObject(e) && !has(e, "replyTo") && Object.hasOwn(e, "hookPayload");
/** Whether up 3 → 4 rewrites this payload: its task has an inputRequests array holding an old-form entry. */
const rewrites = (p) => isObject(p) && isObject(p.task) && Array.isArray(p.task.inputRequests) && p.task.inputRequests.some(isOldForm);

/**
 * The reference property, where the contract promises it (§4.6, §11, §14):
 *   - `auth` and `caller` are always the input's own (no step rewrites them);
 *   - a deliver's `deliveryMetadata` is the input's own array (a raw send's is rebuilt from its
 *     `delivery` as `[{...delivery, payloadIndex: 0}]`: new by contract, so not checked);
 *   - a deliver's `payloads` is the input's own array, and a raw send's `payloads[0]` its own
 *     `payload`, unless the 3 → 4 step rewrote something: it runs when the value is walked from
 *     below version 4 (unversioned included) and a payload's task holds an old-form input
 *     request. Then the contract still says exactly what is new: the rewritten payload, its task
 *     and its inputRequests array are new objects; every other payload, every other payload key,
 *     every other task key and every other entry is the input's own, and each old-form entry
 *     becomes one new entry per request holding the old entry's values (by reference) plus
 *     replyTo, request, sequence, stepIndex and turnId.
 */
function checkInboxReferences(input, out) {
  for (const k of ["auth", "caller"]) if (Object.hasOwn(out, k)) assert.equal(out[k], input[k], `${k} by reference`);
  if (input.kind === "deliver" && Object.hasOwn(out, "deliveryMetadata")) {
    assert.equal(out.deliveryMetadata, input.deliveryMetadata, "deliveryMetadata by reference");
  }
  if (out.kind !== "deliver") return "control";
  const given = input.kind === "send" ? [input.payload] : input.payloads;
  const walked = !has(input, "version") || input.version < 4;
  const rewritten = given.map((p) => walked && rewrites(p));
  if (input.kind === "deliver" && !rewritten.some(Boolean)) assert.equal(out.payloads, input.payloads, "payloads by reference");
  assert.equal(out.payloads.length, given.length);
  for (const [i, p] of given.entries()) {
    const o = out.payloads[i];
    if (!rewritten[i]) {
      assert.equal(o, p, `payloads/${i} by reference`);
      continue;
    }
    assert.notEqual(o, p, `payloads/${i} was rewritten`);
    assert.deepEqual(Object.keys(o).sort(), Object.keys(p).sort());
    for (const k of Object.keys(p)) if (k !== "task") assert.equal(o[k], p[k], `payloads/${i}/${k} by reference`);
    assert.notEqual(o.task, p.task);
    for (const k of Object.keys(p.task)) if (k !== "inputRequests") assert.equal(o.task[k], p.task[k], `payloads/${i}/task/${k} by reference`);
    const want = [];
    for (const e of p.task.inputRequests) {
      if (!isOldForm(e)) {
        want.push(e);
        continue;
      }
      const { childContinuationToken, event } = e.hookPayload;
      for (const request of event.requests) {
        want.push({ ...e, replyTo: childContinuationToken, request, sequence: event.sequence, stepIndex: event.stepIndex, turnId: event.turnId });
      }
    }
    const got = o.task.inputRequests;
    assert.equal(got.length, want.length, `payloads/${i}/task/inputRequests: one entry per request`);
    for (const [j, w] of want.entries()) {
      if (p.task.inputRequests.includes(w)) {
        assert.equal(got[j], w, `inputRequests/${j} by reference`);
      } else {
        assert.deepEqual(Object.keys(got[j]).sort(), Object.keys(w).sort(), `inputRequests/${j} keys`);
        for (const k of Object.keys(w)) assert.equal(got[j][k], w[k], `inputRequests/${j}/${k} by reference`);
      }
    }
  }
  if (rewritten.some(Boolean)) return "rewritten";
  return given.some(rewrites) ? "old form kept (version ≥ 4)" : "by reference";
}

/** Turn control: action, bufferedDeliveries and an object error are the input's own (§14: never rebuilt). */
function checkTurnReferences(input, out) {
  for (const k of ["action", "bufferedDeliveries", "error"]) if (Object.hasOwn(out, k)) assert.equal(out[k], input[k], `${k} by reference`);
  return out.kind;
}

function decodeProperties(family, value, checkReferences, seed, numRuns) {
  const stats = { ok: 0, error: 0, idempotent: 0, frozen: 0, references: {} };
  check(
    fc.property(value, (input) => {
      const before = snapshot(input);
      const r = decodeOutcome(family, input);
      assert.ok(isDeepStrictEqual(snapshot(input), before), "decode mutated its input");
      if (r.ok !== undefined) {
        stats.ok++;
        assert.notEqual(r.ok, input, "a fresh top-level object");
        assert.ok(!Object.hasOwn(r.ok, "version"), "the wire-only version is dropped");
        const checked = checkReferences(input, r.ok);
        stats.references[checked] = (stats.references[checked] ?? 0) + 1;
        // Idempotent on unversioned decodable values (§4.5): decode's output is a v0 value that
        // decodes to itself, with the same subtrees.
        if (isObject(input) && !Object.hasOwn(input, "version")) {
          stats.idempotent++;
          const again = decodeOutcome(family, r.ok);
          assert.ok(again.ok !== undefined, `decode(decode(x)) threw ${again.error && describe(again.error)}`);
          assert.ok(isDeepStrictEqual(again.ok, r.ok), "decode(decode(x)) equals decode(x)");
          for (const k of Object.keys(r.ok)) if (r.ok[k] !== null && typeof r.ok[k] === "object") assert.equal(again.ok[k], r.ok[k], `${k} still by reference`);
        }
      } else {
        stats.error++;
      }
      // The same value frozen (deeply) decodes the same: nothing is ever written to the input.
      if (input !== null && typeof input === "object") {
        stats.frozen++;
        const frozen = decodeOutcome(family, deepFreeze(input));
        assert.ok(isDeepStrictEqual(summary(frozen), summary(r)), "a frozen input decodes the same");
      }
    }),
    seed,
    numRuns,
  );
  return stats;
}

test("2a. session inbox decode: only its error class, no mutation, opaque subtrees by reference, idempotent", () => {
  // Mostly JSON-valued, realistic values; now and then what only JS has, anywhere.
  const json = decodeProperties(INBOX, inboxArbitraries({ bad: 3 }).value, checkInboxReferences, 20261203, 2500);
  const exotic = decodeProperties(INBOX, inboxArbitraries({ bad: 5, exotic: true }).value, checkInboxReferences, 20261204, 2500);
  for (const s of [json, exotic]) {
    assert.ok(s.ok > 300 && s.error > 300 && s.idempotent > 100, JSON.stringify(s));
    // The reference model meets every case it distinguishes, the 3 → 4 rewrite included.
    for (const k of ["control", "by reference", "rewritten", "old form kept (version ≥ 4)"]) assert.ok(s.references[k] > 20, `${k}: ${JSON.stringify(s)}`);
  }
});

test("2b. turn-control decode: only its error class, no mutation, action/bufferedDeliveries by reference, idempotent", () => {
  const json = decodeProperties(TURN, turnArbitraries({ bad: 3 }).value, checkTurnReferences, 20261205, 2000);
  const exotic = decodeProperties(TURN, turnArbitraries({ bad: 5, exotic: true }).value, checkTurnReferences, 20261206, 2000);
  for (const s of [json, exotic]) assert.ok(s.ok > 300 && s.error > 300 && s.idempotent > 100, JSON.stringify(s));
});

// ---------------------------------------------------------------------------------------------
// 3. The JS encoder ≡ `encode --lines`, for every target, answers and errors alike.

/** `{ ok }` or `{ error }` from a JS encoder; anything but the family's error fails. */
function encodeOutcome(encode, ErrorClass, command, target) {
  try {
    return { ok: target === ABSENT ? encode(command) : encode(command, target) };
  } catch (e) {
    assert.ok(e instanceof ErrorClass && e instanceof encoder.WireError, `encode threw ${describe(e)}`);
    return { error: e };
  }
}

/** Encode every command for every target and one extra target, natively in one batch and in JS. */
function sameEncodings(args, encode, ErrorClass, commands, targets, seen) {
  const requests = commands.flatMap(({ command, extra }) => [...targets, extra].map((target) => ({ command, target })));
  const lines = cli([...args, "encode", "--lines"], requests.map(({ command, target }) => (target === ABSENT ? { command } : { command, target })));
  for (const [i, { command, target }] of requests.entries()) {
    const native = JSON.parse(lines[i]);
    // The JS encoder gets what the CLI read: the same JSON text, parsed.
    const js = encodeOutcome(encode, ErrorClass, viaJson(command), target === ABSENT ? ABSENT : viaJson(target));
    const label = `#${i} ${JSON.stringify(command)} for ${target === ABSENT ? "no target" : JSON.stringify(target)}`;
    if (native.ok !== undefined) {
      assert.ok(js.ok !== undefined, `${label}: native ok, js ${js.error && describe(js.error)}`);
      assert.ok(lines[i].startsWith('{"ok":'));
      assert.equal(canon(js.ok), lines[i].slice(6, -1), `${label}: the canonical bytes`);
      seen.add(`ok ${command?.kind} ${target === ABSENT ? "default" : canon(target)}`);
    } else {
      assert.ok(js.error !== undefined, `${label}: native ${native.error.code}, js ok ${canon(js.ok)}`);
      assert.deepEqual(fullError(js.error), fullError(native.error), label);
      seen.add(native.error.code);
    }
  }
}

test("3a. JS encode ≡ CLI encode --lines: session inbox commands for every target", () => {
  const { command } = inboxArbitraries({ bad: 1 });
  const targets = Object.values(TARGETS);
  const extra = fc.oneof(
    { weight: 2, arbitrary: fc.constant(ABSENT) },
    { weight: 3, arbitrary: fc.constantFrom(...targets) },
    { weight: 3, arbitrary: fc.constantFrom({ version: 7 }, { version: 0 }, { version: 0, variant: "raw" }, { version: 1, variant: "send" }, { version: "1" }, "v1", null, { version: 1, extra: true }, { version: -1 }, { version: 2.5 }, {}) },
  );
  const seen = new Set();
  check(
    fc.property(fc.array(fc.record({ command, extra }), { minLength: 1, maxLength: 25, size: "max" }), (commands) =>
      sameEncodings([], encoder.encode, encoder.SessionInboxWireError, commands, targets, seen),
    ),
    20261208,
    150,
  );
  for (const k of ["send", "deliver", "cancel", "reset", "clear"]) {
    for (const t of targets) assert.ok(seen.has(`ok ${k} ${canon(t)}`), `no ${k} encoded for ${canon(t)}`);
  }
  for (const c of ["INVALID", "INCOMPATIBLE", "UNSUPPORTED_TARGET"]) assert.ok(seen.has(c), `the generator never produced ${c}`);
});

test("3b. JS encode ≡ CLI encode --lines: turn-control commands for both targets", () => {
  const { command } = turnArbitraries({ bad: 1 });
  const targets = [{ version: 0 }, { version: 1 }];
  const extra = fc.oneof(
    { weight: 2, arbitrary: fc.constant(ABSENT) },
    { weight: 3, arbitrary: fc.constantFrom({ version: 2 }, { version: 0, variant: "send" }, { version: "1" }, "v1", null, { version: 1, extra: true }, { version: 0.5 }, {}) },
  );
  const seen = new Set();
  check(
    fc.property(fc.array(fc.record({ command, extra }), { minLength: 1, maxLength: 30, size: "max" }), (commands) =>
      sameEncodings(["--family", "turn-control"], encoder.turnControl.encode, encoder.TurnControlWireError, commands, targets, seen),
    ),
    20261209,
    120,
  );
  for (const k of TC_KINDS) for (const t of targets) assert.ok(seen.has(`ok ${k} ${canon(t)}`), `no ${k} encoded for ${canon(t)}`);
  for (const c of ["INVALID", "UNSUPPORTED_TARGET"]) assert.ok(seen.has(c), `the generator never produced ${c}`);
});

// ---------------------------------------------------------------------------------------------
// 4. Hostile values leave every module healthy.

/** The same tools in this realm and in another one (values, getters, proxies, errors built there). */
const toolkit = `({
  parse: (text) => JSON.parse(text),
  error: (m) => new Error(m),
  proxy: (target, handler) => new Proxy(target, handler),
  define: (o, k, get) => Object.defineProperty(o, k, { get() { return get(); }, enumerable: true, configurable: true }),
  nest: (depth, array) => { let t = 1; for (let i = 0; i < depth; i++) t = array ? [t] : { a: t }; return t; },
  prototypes: [Object.prototype, Array.prototype],
})`;
const REALMS = { here: vm.runInThisContext(toolkit), foreign: vm.runInNewContext(toolkit) };

const TRAPS = ["get", "getOwnPropertyDescriptor", "has", "ownKeys", "getPrototypeOf", "isExtensible", "defineProperty", "set"];
const THROWN = ["error", "symbol", "undefined", "string", "null", "proxy"];
/** Every key and kind string the decoders read (inbox and turn control), from the tables generated from Rust. */
const READ_KEYS = [...new Set([...inboxTables.SYMBOLS, ...turnControlTables.SYMBOLS])];
const POLLUTANTS = ["reset", "deliver", "turn-error", 9, 1, 0, [{ polluted: true }], { polluted: true }, null, true, "x"];
/** For each key, a value of the type decode expects there: what a reader of inherited keys would take. */
const TYPED_POLLUTANT = {
  version: 1,
  kind: "reset",
  payload: { polluted: true },
  payloads: [{ polluted: true }],
  auth: null,
  caller: { polluted: true },
  deliveryMetadata: [{ polluted: true }],
  turnPolicy: "queue",
  delivery: { polluted: true },
  payloadIndex: 0,
  tasks: true,
  task: { inputRequests: [] },
  inputRequests: [{ hookPayload: {} }],
  agentRequests: [],
  hookPayload: { childContinuationToken: "c", event: { requests: [1], sequence: 0, stepIndex: 0, turnId: "u" } },
  event: { requests: [1], sequence: 0, stepIndex: 0, turnId: "u" },
  requests: [1],
  sequence: 0,
  stepIndex: 0,
  action: { kind: "polluted" },
  bufferedDeliveries: [{ polluted: true }],
  error: "polluted",
};
/** The pollutant `p` names for key `k`: -1 is the key's typed value (a string where none is listed). */
const pollutant = (k, p) => (p >= 0 ? POLLUTANTS[p] : Object.hasOwn(TYPED_POLLUTANT, k) ? TYPED_POLLUTANT[k] : "polluted");
const FLIPS = ["deliver", "reset", "turn-result", [{}], [{ message: "m" }], "not an array", {}, { kind: "stop" }, 5, null, undefined, 6, 1];

const key = fc.oneof(fc.nat().map((existing) => ({ existing })), fc.constantFrom(...READ_KEYS).map((name) => ({ name })));
const hostility = fc.oneof(
  fc.record({ type: fc.constant("getter"), key, thrown: fc.constantFrom(...THROWN) }),
  fc.record({ type: fc.constant("proxy"), traps: fc.subarray(TRAPS), thrown: fc.constantFrom(...THROWN) }),
  fc.record({ type: fc.constant("length"), length: fc.constantFrom(Infinity, -1, 1.5, NaN, "9", 2 ** 32, 2 ** 32 - 1, 2 ** 21, 1e9, 0, 1, 3) }),
  fc.record({ type: fc.constant("deep"), key, depth: fc.integer({ min: 1_000, max: 100_000 }), array: fc.boolean() }),
  fc.record({ type: fc.constant("flip"), key, answers: fc.array(fc.constantFrom(...FLIPS.keys()), { minLength: 2, maxLength: 4 }) }),
);
/** Keys and values installed on Object.prototype and indexes on Array.prototype, as values or as setters. */
const pollution = fc.record({
  object: fc.array(
    fc.tuple(fc.constantFrom(...READ_KEYS), fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.constantFrom(...POLLUTANTS.keys()) })),
    { minLength: 1, maxLength: 12 },
  ),
  array: fc.array(fc.tuple(fc.nat({ max: 3 }), fc.constantFrom(...POLLUTANTS.keys())), { maxLength: 3 }),
  setters: fc.boolean(),
});

/** The object and array nodes of a value (the root first), with where each one sits. */
function nodes(root) {
  const out = [{ node: root, parent: null, key: null }];
  for (let i = 0; i < out.length && out.length < 200; i++) {
    const { node } = out[i];
    if (node === null || typeof node !== "object") continue;
    for (const k of Object.keys(node)) if (node[k] !== null && typeof node[k] === "object") out.push({ node: node[k], parent: node, key: k });
  }
  return out.filter(({ node }) => node !== null && typeof node === "object");
}

/** Build the hostile value a description names, in its realm. Answers the value and a plain twin where one applies. */
function build({ family, base, at, realm: realmName, hostile }) {
  const realm = REALMS[realmName];
  const make = () => realm.parse(JSON.stringify(base));
  const value = make();
  const all = nodes(value);
  if (all.length === 0) return { value };
  const pick = (list) => list[at % list.length];
  const spot = pick(all);
  const place = (v) => (spot.parent === null ? v : ((spot.parent[spot.key] = v), value));
  const keyOf = (k, node) => {
    const own = Object.keys(node);
    return k.existing !== undefined && own.length > 0 ? own[k.existing % own.length] : k.name ?? "deep";
  };
  const thrower = (thrown) => () => {
    if (thrown === "error") throw realm.error("hostile");
    if (thrown === "symbol") throw Symbol("hostile");
    if (thrown === "undefined") throw undefined;
    if (thrown === "string") throw "hostile";
    if (thrown === "null") throw null;
    throw realm.proxy({}, Object.fromEntries(TRAPS.map((t) => [t, () => { throw realm.error("again"); }])));
  };
  switch (hostile.type) {
    case "getter":
      realm.define(spot.node, keyOf(hostile.key, spot.node), thrower(hostile.thrown));
      return { value };
    case "proxy": {
      const handler = Object.fromEntries(hostile.traps.map((t) => [t, thrower(hostile.thrown)]));
      const v = place(realm.proxy(spot.node, handler));
      // A proxy with no trap is the value itself to every reader: its twin is the plain value.
      return { value: v, twin: hostile.traps.length === 0 ? make() : undefined };
    }
    case "length": {
      const target = Array.isArray(spot.node) ? spot.node : [spot.node];
      return { value: place(realm.proxy(target, { get: (t, k) => (k === "length" ? hostile.length : Reflect.get(t, k)) })) };
    }
    case "deep": {
      // The same value with a shallow stand-in of the same shape: decode checks envelopes, never
      // interiors, so both decode alike.
      const twin = make();
      const twinSpot = pick(nodes(twin));
      const k = keyOf(hostile.key, spot.node);
      spot.node[k] = realm.nest(hostile.depth, hostile.array);
      twinSpot.node[k] = realm.nest(2, hostile.array);
      return { value, twin, deep: true };
    }
    case "flip": {
      let n = 0;
      const answers = hostile.answers.map((i) => FLIPS[i]);
      realm.define(spot.node, keyOf(hostile.key, spot.node), () => answers[n++ % answers.length]);
      // Only a top-level field is what decode checks and returns; a getter deeper down sits in a
      // subtree decode passes on by reference, and may answer anything on a later read.
      return { value, flip: spot.parent === null };
    }
  }
  throw new Error(`unknown hostility ${hostile.type}`);
}

/**
 * Install the pollution a description names on the prototypes of each realm given; answers the
 * function that removes it. While it is installed nothing here writes to an array (an inherited
 * index setter would run): what was installed is kept in a Map, and the setters count their calls.
 */
function pollute({ object, array, setters }, realms, calls) {
  const installed = new Map();
  const entries = realms.flatMap(({ prototypes: [objects, arrays] }) => [
    ...object.map(([k, p]) => [objects, k, p]),
    ...array.map(([i, p]) => [arrays, String(i), p]),
  ]);
  const restore = () => {
    for (const [id, [target, k]] of installed) {
      delete target[k];
      installed.delete(id);
    }
  };
  try {
    for (const [target, k, p] of entries) {
      if (Object.hasOwn(target, k)) continue;
      installed.set(installed.size, [target, k]);
      if (setters) {
        Object.defineProperty(target, k, {
          set() {
            calls.count++;
          },
          configurable: true,
        });
      } else {
        target[k] = pollutant(k, p);
      }
    }
  } catch (e) {
    restore();
    throw e;
  }
  return restore;
}

const KNOWN = [
  [INBOX, { kind: "deliver", version: 3, payload: {}, payloads: [{ message: "a" }, { message: "b" }], requestId: "r" }, '{"kind":"deliver","payloads":[{"message":"a"},{"message":"b"}],"requestId":"r"}'],
  [INBOX, { kind: "send", payload: { message: "m" }, delivery: { channelKind: "c" } }, '{"deliveryMetadata":[{"channelKind":"c","payloadIndex":0}],"kind":"deliver","payloads":[{"message":"m"}]}'],
  [TURN, { kind: "turn-result", version: 1, action: { kind: "stop" } }, '{"action":{"kind":"stop"},"kind":"turn-result"}'],
];

/** Every module still answers as before and holds no value handle. */
function healthy() {
  for (const [family, value, want] of KNOWN) {
    assert.equal(canon(family.decode(value)), want);
    assert.equal(family.entry.memoryStats().handles, 0, `${family.name} handles`);
  }
  assert.equal(canon(encoder.encode({ kind: "clear" })), '{"kind":"clear","version":6}');
  assert.equal(canon(encoder.turnControl.encode({ kind: "turn-error", error: 1 }, { version: 0 })), '{"error":1,"kind":"turn-error"}');
}

/** What a decode outcome is, as data that survives a deep value: ok (and its canonical form when it can be written), or the error. */
function shape(r, deep) {
  return r.ok !== undefined ? { ok: deep ? true : canon(r.ok) } : { error: errorOf(r.error) };
}

const inboxBase = inboxArbitraries({ bad: 3 }).value;
const turnBase = turnArbitraries({ bad: 3 }).value;
/** A base value of either family, the node to make hostile, and the realm it is built in. */
const based = (extra) =>
  fc.oneof(
    fc.record({ family: fc.constant("inbox"), base: inboxBase, at: fc.nat(), realm: fc.constantFrom("here", "foreign"), ...extra }),
    fc.record({ family: fc.constant("turn"), base: turnBase, at: fc.nat(), realm: fc.constantFrom("here", "foreign"), ...extra }),
  );
const count = (stats, tag) => (stats[tag] = (stats[tag] ?? 0) + 1);

test("4a. hostile values (getters, traps, lying lengths, deep nesting, flipping answers, either realm): only the family's error, then healthy", () => {
  const stats = {};
  check(
    fc.property(based({ hostile: hostility }), (d) => {
      const family = d.family === "inbox" ? INBOX : TURN;
      const { value, twin, deep, flip } = build(d);
      const r = decodeOutcome(family, value);
      count(stats, `${d.hostile.type} ${d.realm} ${r.ok !== undefined ? "ok" : r.error.code}`);
      // Decode checks envelopes only: a transparent proxy and a deep interior change nothing.
      if (twin !== undefined) assert.deepEqual(shape(r, deep), shape(decodeOutcome(family, twin), deep), "the same answer as the plain twin");
      // What decode returns passes its own envelope checks, however a top-level getter answered.
      if (flip && r.ok !== undefined) {
        const again = decodeOutcome(family, { ...r.ok });
        assert.ok(again.ok !== undefined || !["INVALID", "UNKNOWN_KIND"].includes(again.error.code), `decode returned what it refuses: ${again.error && again.error.code}`);
      }
      // The encoders throw only their family's error too (not for arrays claiming 2^32 elements:
      // the encoder reads every element it is told of).
      if (d.hostile.type !== "length") {
        if (family === INBOX) encodeOutcome(encoder.encode, encoder.SessionInboxWireError, value, ABSENT);
        else encodeOutcome(encoder.turnControl.encode, encoder.TurnControlWireError, value, ABSENT);
      }
      healthy();
    }),
    20261210,
    2500,
  );
  for (const t of ["getter", "proxy", "length", "deep", "flip"]) {
    for (const realm of ["here", "foreign"]) assert.ok(Object.keys(stats).some((k) => k.startsWith(`${t} ${realm} `)), `no ${t} in ${realm}`);
  }
  assert.ok(Object.keys(stats).filter((k) => k.endsWith(" NOT_OBJECT")).length > 2, "hostile reads surfaced as NOT_OBJECT");
});

test("4b. polluted prototypes (values or setters, in the value's realm and this one) change no answer and run no setter", () => {
  const stats = {};
  check(
    fc.property(based({ pollution }), (d) => {
      const family = d.family === "inbox" ? INBOX : TURN;
      const realm = REALMS[d.realm];
      const value = realm.parse(JSON.stringify(d.base));
      const pristine = decodeOutcome(family, realm.parse(JSON.stringify(d.base)));
      const calls = { count: 0 };
      let r;
      const restore = pollute(d.pollution, d.realm === "here" ? [realm] : [realm, REALMS.here], calls);
      try {
        // Only the decode runs polluted; its outcome is checked once the prototypes are clean.
        try {
          r = { ok: family.decode(value) };
        } catch (e) {
          r = { thrown: e };
        }
      } finally {
        restore();
      }
      if (r.thrown !== undefined) {
        assert.ok(r.thrown instanceof family.ErrorClass && r.thrown instanceof family.entry.WireError, `decode threw ${describe(r.thrown)}`);
        r = { error: r.thrown };
      }
      count(stats, `${d.pollution.setters ? "setters" : "values"} ${d.realm} ${r.ok !== undefined ? "ok" : r.error.code}`);
      assert.equal(calls.count, 0, "no inherited setter ran");
      // Decode reads own properties only. (Errors are compared on their own code, version and
      // path: what else an error built under pollution carries is the regression test below.)
      assert.deepEqual(shape(r), shape(pristine), "the answer decode gives without the pollution");
      healthy();
    }),
    20261212,
    3000,
  );
  for (const t of ["values", "setters"]) for (const realm of ["here", "foreign"]) assert.ok(stats[`${t} ${realm} ok`] > 50, `${t} ${realm}: ${JSON.stringify(stats)}`);
});

test("4c. another realm's plain values decode exactly as this realm's", () => {
  const inbox = inboxArbitraries({ bad: 3 }).value;
  const turn = turnArbitraries({ bad: 3 }).value;
  check(
    fc.property(fc.oneof(inbox.map((v) => ["inbox", v]), turn.map((v) => ["turn", v])), ([name, v]) => {
      const family = name === "inbox" ? INBOX : TURN;
      const here = decodeOutcome(family, viaJson(v));
      const foreign = decodeOutcome(family, REALMS.foreign.parse(JSON.stringify(v)));
      assert.deepEqual(shape(foreign), shape(here));
      healthy();
    }),
    20261211,
    1000,
  );
});

// ---------------------------------------------------------------------------------------------
// Regressions: counterexamples these properties found, kept as minimal reproductions.

test(
  "regression: an error built while Object.prototype carries an enumerable key keeps its own message and fields",
  () => {
    const errors = [];
    try {
      Object.prototype.message = "polluted";
      for (const f of [() => hookwire.decode({ kind: "explode" }), () => tc.decode({ kind: "explode" }), () => encoder.encode({ kind: "explode" })]) {
        try {
          f();
        } catch (thrown) {
          errors.push(thrown);
        }
      }
    } finally {
      delete Object.prototype.message;
    }
    assert.equal(errors.length, 3);
    for (const e of errors) {
      assert.ok(e instanceof hookwire.WireError, describe(e));
      assert.notEqual(e.message, "polluted", `${e.name} ${e.code}: the error's own message`);
      assert.ok(!Object.keys(e).includes("message"), `${e.name} ${e.code}: no copied key`);
    }
  },
);
