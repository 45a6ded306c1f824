// The encoder written with zod 4 as a zod-based producer of this contract would write it: build
// the complete current (version 6) value, parse it once against the strict version 6 schema,
// then walk it down to the target (dropping or refusing what the contract's `down` steps drop or
// refuse) and convert it for a v0 target. It does not parse the walked value again against the
// target version's schema (hookwire does, contract §12.3): the comparison leans toward zod.
//
// `node bench/encode-zod.mjs` prints commands per second per target for bench/commands.json,
// valid commands and rejects apart, each as the wire value (zod's output object) and as the wire
// text (that object through JSON.stringify): one JSON line shaped like bench/encode.rs's.
// `encode` and `TARGETS` are exported so bench/run.mjs can check that it answers exactly what
// hookwire answers before anything is timed.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";

const str = z.string();
const json = z.json();
const jsonObject = z.record(z.string(), json);
const index = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const providerOptions = z.record(z.string(), jsonObject).optional();
const part = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: str, providerOptions }),
  z.strictObject({ type: z.literal("image"), image: str, mediaType: str.optional(), providerOptions }),
  z.strictObject({ type: z.literal("file"), data: str, mediaType: str, filename: str.optional(), providerOptions }),
]);
const inputRequest = z
  .looseObject({
    replyTo: str, taskId: str, turnId: str, sequence: index, stepIndex: index,
    request: json.optional(), requests: z.array(json).optional(),
  })
  .refine((r) => ("request" in r) !== ("requests" in r), "exactly one of request, requests");
const task = z.strictObject({
  agentRequests: z.array(z.strictObject({
    replyTo: str, taskId: str,
    request: z.discriminatedUnion("kind", [
      z.strictObject({
        kind: z.literal("agent-invoke"), invocationId: str,
        input: z.strictObject({ message: str, target: str, agentId: str.optional(), outputSchema: jsonObject.optional() }),
      }),
      z.strictObject({ kind: z.literal("agent-settled"), result: jsonObject }),
    ]),
  })).optional(),
  authorizationEvents: z.array(z.strictObject({
    taskId: str,
    hookPayload: z.strictObject({ callId: str, childSessionId: str, event: jsonObject, kind: z.literal("subagent-authorization-event"), subagentName: str }),
  })).optional(),
  inputRequests: z.array(inputRequest).optional(),
  views: z.array(jsonObject).optional(),
});
const deliverPayload = z.looseObject({
  context: z.array(str).optional(),
  inputResponses: z.array(z.strictObject({ requestId: str, optionId: str.optional(), text: str.optional() })).optional(),
  message: z.union([str, z.array(part)]).optional(),
  outputSchema: jsonObject.optional(),
  task: task.optional(),
});
const auth = z.strictObject({
  attributes: z.record(z.string(), z.union([str, z.array(str)])),
  authenticator: str, principalId: str, principalType: str, issuer: str.optional(), subject: str.optional(),
});
const activityObserver = z.strictObject({
  sink: z.strictObject({ url: str, version: z.literal(1) }),
  workIdentity: z.strictObject({
    id: str, rootSessionId: str, rootTurnId: str, kind: z.enum(["root-turn", "subagent", "remote-agent", "task"]),
    callId: str.optional(), name: str.optional(), parentId: str.optional(), sessionId: str.optional(), turnId: str.optional(),
  }).optional(),
});
const caller = z.strictObject({
  callId: str, subagentName: str, taskId: str.optional(), activityObserver: activityObserver.optional(),
  replyTo: z.discriminatedUnion("kind", [z.strictObject({ kind: z.literal("hook"), token: str }), z.strictObject({ kind: z.literal("callback"), token: str, url: str })]),
});
const entry = z.strictObject({
  channelKind: str, channelName: str, deliveryId: str, payloadIndex: index, acceptedDeploymentId: str.optional(),
  requestId: str.optional(), requestTraceContext: z.strictObject({ spanId: str, traceFlags: z.number(), traceId: str }).optional(),
});
const v6 = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("deliver"), version: z.literal(6), payloads: z.array(deliverPayload), payload: deliverPayload,
    auth: auth.nullable().optional(), caller: caller.optional(), deliveryMetadata: z.array(entry).optional(),
    requestId: str.optional(), taskDeliveryId: str.optional(), turnPolicy: z.enum(["queue", "steer"]).optional(),
  }),
  z.strictObject({ kind: z.literal("session-timeout"), version: z.literal(6) }),
  z.strictObject({ kind: z.literal("clear"), version: z.literal(6) }),
  z.strictObject({ kind: z.literal("compact"), version: z.literal(6) }),
  z.strictObject({ kind: z.literal("reset"), version: z.literal(6), reason: str.optional() }),
  z.strictObject({ kind: z.literal("cancel"), version: z.literal(6), taskId: str.optional(), turnId: str.optional(), tasks: z.boolean().optional() }),
]);

const CARRIED = ["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];
const promote = (m) => (typeof m === "string" ? (m ? [{ type: "text", text: m }] : []) : Array.isArray(m) ? m : []);
function coalesce(payloads) {
  if (payloads.length === 1) return payloads[0];
  const acc = {};
  for (const p of payloads) {
    for (const [k, v] of Object.entries(p)) {
      const prev = acc[k];
      if ((k === "context" || k === "inputResponses") && Array.isArray(prev) && Array.isArray(v)) acc[k] = [...prev, ...v];
      else if (k === "task" && prev && typeof prev === "object" && v && typeof v === "object") {
        const t = { ...prev };
        for (const [tk, tv] of Object.entries(v)) t[tk] = Array.isArray(t[tk]) && Array.isArray(tv) ? [...t[tk], ...tv] : tv;
        acc[k] = t;
      } else if (k === "message" && prev !== undefined) acc[k] = typeof prev === "string" && typeof v === "string" ? `${prev}\n\n${v}` : [...promote(prev), ...promote(v)];
      else acc[k] = v;
    }
  }
  return acc;
}
class Refused extends Error {}
function build(cmd) {
  if (cmd.kind === "send") {
    const out = { kind: "deliver", payload: cmd.payload, payloads: [cmd.payload] };
    if (cmd.delivery !== undefined) out.deliveryMetadata = [{ ...cmd.delivery, payloadIndex: 0 }];
    for (const k of CARRIED) if (cmd[k] !== undefined) out[k] = cmd[k];
    out.version = 6;
    return out;
  }
  if (cmd.kind === "deliver") return { ...cmd, version: 6, payload: Array.isArray(cmd.payloads) ? coalesce(cmd.payloads) : undefined };
  return { ...cmd, version: 6 };
}
/** The `down` steps from 6 to `to`, on zod's fresh output (so mutating it is safe). */
function down(wire, to) {
  if (to < 6 && wire.tasks !== undefined) {
    if (wire.tasks) throw new Refused("/tasks");
    delete wire.tasks;
  }
  if (wire.kind !== "deliver") return wire;
  const tasks = [...wire.payloads, wire.payload].map((p) => p.task).filter(Boolean);
  if (to < 5) {
    for (const t of tasks) {
      for (const v of t.views ?? []) if (v.usage && typeof v.usage === "object") delete v.usage.costUsd;
      for (const r of t.agentRequests ?? []) {
        const result = r.request?.result;
        if (result?.usage && typeof result.usage === "object") delete result.usage.costUsd;
        if (result?.outcome?.usageDelta && typeof result.outcome.usageDelta === "object") delete result.outcome.usageDelta.costUsd;
      }
    }
  }
  if (to < 4 && tasks.some((t) => t.agentRequests !== undefined || t.inputRequests !== undefined)) throw new Refused("task operations");
  if (to < 3) for (const e of wire.deliveryMetadata ?? []) delete e.acceptedDeploymentId;
  if (to < 2) delete wire.caller?.activityObserver;
  return wire;
}
export const TARGETS = { v6: { version: 6 }, v1: { version: 1 }, "v0-deliver": { version: 0, variant: "deliver" }, "v0-send": { version: 0, variant: "send" } };
export function encode(cmd, target) {
  const wire = v6.parse(build(cmd));
  const t = TARGETS[target];
  if (t.version > 0) {
    if (t.version === 6) return wire;
    const accepted = null;
    return { ...down(wire, t.version), version: t.version, ...(accepted ?? {}) };
  }
  const first = wire.deliveryMetadata?.find((e) => e.payloadIndex === 0);
  const accepted = first?.acceptedDeploymentId;
  const { version, ...rest } = down(wire, 1);
  if (rest.kind !== "deliver") return rest;
  if (t.variant === "deliver") {
    delete rest.payload;
    return rest;
  }
  const out = { kind: "send", payload: rest.payload };
  if (first) {
    const { payloadIndex, ...delivery } = first;
    if (accepted !== undefined) delivery.acceptedDeploymentId = accepted;
    out.delivery = delivery;
  }
  for (const k of CARRIED) if (rest[k] !== undefined) out[k] = rest[k];
  return out;
}

/** Commands per second of `f` over `commands` (warmed up first). */
function rate(commands, f) {
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      try {
        f(commands[i % commands.length]);
      } catch {}
    }
  };
  run(20_000);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < 400) {
    run(1_000);
    count += 1_000;
  }
  return count / ((performance.now() - start) / 1000);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
  const result = {};
  for (const target of Object.keys(TARGETS)) {
    const ok = (c) => {
      try {
        encode(c, target);
        return true;
      } catch {
        return false;
      }
    };
    const sets = { valid: commands.filter(ok), rejects: commands.filter((c) => !ok(c)) };
    result[target] = {};
    for (const [set, list] of Object.entries(sets)) {
      result[target][set] = {
        value: rate(list, (c) => encode(c, target)),
        text: rate(list, (c) => JSON.stringify(encode(c, target))),
        commands: list.length,
      };
    }
  }
  console.log(JSON.stringify(result));
}
