// The encoder written with zod 4 as a zod-based producer would: build the complete v1 value, parse
// it once against the strict v1 schema, convert down for a v0 target. Prints commands per second
// per target for bench/commands.json (one JSON line).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";

const str = z.string();
const jsonObject = z.record(z.string(), z.json());
const providerOptions = z.record(z.string(), jsonObject).optional();
const part = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: str, providerOptions }),
  z.strictObject({ type: z.literal("image"), image: str, mediaType: str.optional(), providerOptions }),
  z.strictObject({ type: z.literal("file"), data: str, mediaType: str, filename: str.optional(), providerOptions }),
]);
const deliverPayload = z.looseObject({
  context: z.array(str).optional(),
  inputResponses: z.array(z.strictObject({ requestId: str, optionId: str.optional(), text: str.optional() })).optional(),
  message: z.union([str, z.array(part)]).optional(),
  outputSchema: jsonObject.optional(),
  task: jsonObject.optional(),
});
const auth = z.strictObject({
  attributes: z.record(z.string(), z.union([str, z.array(str)])),
  authenticator: str, principalId: str, principalType: str, issuer: str.optional(), subject: str.optional(),
});
const caller = z.strictObject({
  callId: str, subagentName: str, taskId: str.optional(),
  replyTo: z.discriminatedUnion("kind", [z.strictObject({ kind: z.literal("hook"), token: str }), z.strictObject({ kind: z.literal("callback"), token: str, url: str })]),
});
const entry = z.strictObject({
  channelKind: str, channelName: str, deliveryId: str, payloadIndex: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  requestId: str.optional(), requestTraceContext: z.strictObject({ spanId: str, traceFlags: z.number(), traceId: str }).optional(),
});
const v1 = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("deliver"), version: z.literal(1), payloads: z.array(deliverPayload), payload: deliverPayload.optional(),
    auth: auth.nullable().optional(), caller: caller.optional(), deliveryMetadata: z.array(entry).optional(),
    requestId: str.optional(), taskDeliveryId: str.optional(), turnPolicy: z.enum(["queue", "steer"]).optional(),
  }),
  z.strictObject({ kind: z.literal("session-timeout"), version: z.literal(1) }),
  z.strictObject({ kind: z.literal("clear"), version: z.literal(1) }),
  z.strictObject({ kind: z.literal("compact"), version: z.literal(1) }),
  z.strictObject({ kind: z.literal("reset"), version: z.literal(1), reason: str.optional() }),
  z.strictObject({ kind: z.literal("cancel"), version: z.literal(1), taskId: str.optional(), turnId: str.optional() }),
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
function build(cmd) {
  if (cmd.kind === "send") {
    const out = { kind: "deliver", payload: cmd.payload, payloads: [cmd.payload] };
    if (cmd.delivery !== undefined) out.deliveryMetadata = [{ ...cmd.delivery, payloadIndex: 0 }];
    for (const k of CARRIED) if (cmd[k] !== undefined) out[k] = cmd[k];
    out.version = 1;
    return out;
  }
  if (cmd.kind === "deliver") return { ...cmd, version: 1, payload: Array.isArray(cmd.payloads) ? coalesce(cmd.payloads) : undefined };
  return { ...cmd, version: 1 };
}
export function encode(cmd, target) {
  const wire = v1.parse(build(cmd));
  if (target === "v1") return wire;
  const { version, ...rest } = wire;
  if (rest.kind !== "deliver") return rest;
  if (target === "v0-deliver") {
    delete rest.payload;
    return rest;
  }
  const out = { kind: "send", payload: rest.payload };
  const first = rest.deliveryMetadata?.find((e) => e.payloadIndex === 0);
  if (first) {
    const { payloadIndex, ...delivery } = first;
    out.delivery = delivery;
  }
  for (const k of CARRIED) if (rest[k] !== undefined) out[k] = rest[k];
  return out;
}

const here = dirname(fileURLToPath(import.meta.url));
const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
const result = {};
for (const target of ["v1", "v0-deliver", "v0-send"]) {
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      try {
        encode(commands[i % commands.length], target);
      } catch {}
    }
  };
  run(20_000);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < 700) {
    run(1_000);
    count += 1_000;
  }
  result[target] = count / ((performance.now() - start) / 1000);
}
console.log(JSON.stringify(result));
