// The session inbox's version steps (contract §2, §11, §16) written by hand in plain JS, for the
// benchmark's contenders (not shipped): each contender validates with its own library and walks
// these steps in code, as a user of that library would.
export class WireError extends Error {
  constructor(code, version) {
    super(code);
    this.code = code;
    this.version = version;
  }
}
export const CURRENT = 6;
export const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o, k) => Object.hasOwn(o, k);
const CARRIED = ["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];
const isIndex = (n) => Number.isInteger(n) && n >= 0;

/** §11's declared-version checks, on the value as declared (`version` present and 1..6). */
export function checkDeclared(v, n) {
  if (n <= 3) {
    for (const p of tasksOf(v)) {
      const t = p.task;
      if (!isObject(t)) continue;
      if (has(t, "agentRequests")) throw new WireError("MISDECLARED_VERSION", n);
      const irs = t.inputRequests;
      if (Array.isArray(irs)) for (const e of irs) if (isObject(e) && (has(e, "request") || has(e, "requests"))) throw new WireError("MISDECLARED_VERSION", n);
    }
  }
  if (n <= 5 && v.kind === "cancel" && has(v, "tasks")) throw new WireError("MISDECLARED_VERSION", n);
  if (n >= 2 && v.kind === "deliver" && !has(v, "payload")) throw new WireError("MISDECLARED_VERSION", n);
}

function* tasksOf(v) {
  if (Array.isArray(v.payloads)) for (const p of v.payloads) if (isObject(p)) yield p;
  if (isObject(v.payload)) yield v.payload;
}

/** 0 → 1: the two legacy shapes (payload and delivery checks are the caller's schema's job). */
export function up0(v) {
  if (v.kind === "send") {
    const { payload, delivery } = v;
    const out = { kind: "deliver", payload, payloads: [payload] };
    if (delivery !== undefined) out.deliveryMetadata = [{ ...delivery, payloadIndex: 0 }];
    for (const k of CARRIED) if (v[k] !== undefined) out[k] = v[k];
    out.version = 1;
    return out;
  }
  return { ...v, version: 1 };
}

/** 1 → 2: a deliver without its mirror gets `payload: {}`. */
export const up1 = (v) => (v.kind === "deliver" && !has(v, "payload") ? { ...v, payload: {}, version: 2 } : { ...v, version: 2 });

function rewriteTask(p) {
  const t = isObject(p) ? p.task : undefined;
  if (!isObject(t) || !Array.isArray(t.inputRequests)) return p;
  let changed = false;
  const entries = [];
  for (const e of t.inputRequests) {
    if (!isObject(e) || has(e, "replyTo") || !has(e, "hookPayload")) {
      entries.push(e);
      continue;
    }
    const hp = e.hookPayload;
    const ev = isObject(hp) ? hp.event : undefined;
    if (!isObject(hp) || typeof hp.childContinuationToken !== "string" || !isObject(ev) || !Array.isArray(ev.requests)) throw new WireError("MISDECLARED_VERSION", 3);
    if (!isIndex(ev.sequence) || !isIndex(ev.stepIndex) || typeof ev.turnId !== "string") throw new WireError("MISDECLARED_VERSION", 3);
    changed = true;
    for (const r of ev.requests) entries.push({ ...e, replyTo: hp.childContinuationToken, request: r, sequence: ev.sequence, stepIndex: ev.stepIndex, turnId: ev.turnId });
  }
  return changed ? { ...p, task: { ...t, inputRequests: entries } } : p;
}

/** 3 → 4: the task rewrite, in every payload and the mirror; unchanged parts by reference. */
export function up3(v) {
  if (v.kind !== "deliver") return { ...v, version: 4 };
  const out = { ...v, version: 4 };
  if (Array.isArray(v.payloads)) out.payloads = v.payloads.map(rewriteTask);
  if (has(v, "payload")) out.payload = rewriteTask(v.payload);
  return out;
}

/** The walk from `n` to the current version (2→3, 4→5 and 5→6 only bump the version). */
export function walk(v, n) {
  if (n === 0) v = up0(v);
  if (n <= 1) v = up1(v);
  if (n <= 3) v = up3(v);
  return v;
}

/** §3's version rules: the declared version, or a thrown WireError. */
export function versionOf(v) {
  if (!has(v, "version")) return 0;
  const n = v.version;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) throw new WireError("MALFORMED_VERSION", n);
  if (n > CURRENT) throw new WireError("NEWER_VERSION", n);
  return n;
}

/** §11's projection of a current value whose envelope was checked. */
export const FIELDS = {
  deliver: ["auth", "caller", "deliveryMetadata", "payloads", "requestId", "taskDeliveryId", "turnPolicy"],
  "session-timeout": [],
  clear: [],
  compact: [],
  reset: ["reason"],
  cancel: ["taskId", "tasks", "turnId"],
};
export function project(v, fields = FIELDS[v.kind]) {
  const out = { kind: v.kind };
  for (const k of fields) if (v[k] !== undefined) out[k] = v[k];
  return out;
}

/** What a library contender's `parse` answers when the value does not match the schema. */
export const FAIL = Symbol("no match");

/**
 * The decode each library contender makes (zod 4, zod/mini, valibot): its own schemas, `parse`
 * its own safe parse (the output, or FAIL), and the declared-version checks and steps above.
 */
export function decoderOver(parse, { AnyObject, Head, LegacySend, LegacyDeliver, Current }) {
  return function decode(v) {
    if (parse(AnyObject, v) === FAIL) throw new WireError("NOT_OBJECT");
    const head = parse(Head, v);
    if (head === FAIL) throw new WireError("MALFORMED_VERSION");
    const n = Object.hasOwn(v, "version") ? head.version : 0;
    // zod's .int() refuses integers past 2^53 (1e300 is NEWER_VERSION, not malformed): checked here.
    if (n === undefined || !Number.isInteger(n) || n < 0) throw new WireError("MALFORMED_VERSION");
    if (n > CURRENT) throw new WireError("NEWER_VERSION", n);
    if (n >= 1) checkDeclared(v, n);
    if (n === 0 && v.kind === "send" && parse(LegacySend, v) === FAIL) throw new WireError("LEGACY_SHAPE", 0);
    if (n === 0 && v.kind === "deliver" && parse(LegacyDeliver, v) === FAIL) throw new WireError("LEGACY_SHAPE", 0);
    const cur = walk(v, n);
    if (!Object.hasOwn(FIELDS, cur.kind)) throw new WireError("UNKNOWN_KIND");
    const out = parse(Current, cur);
    if (out === FAIL) throw new WireError("INVALID");
    return out;
  };
}
