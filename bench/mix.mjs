/** The decoders every decode benchmark runs (bench/contenders/<name>.mjs), hookwire's first. */
export const CONTENDERS = ["wasm", "plain", "zod", "zod-mini", "valibot"];

// The realistic payload mix every decode benchmark uses: each historic cohort of the unversioned
// era, v1 deliveries with and without caller and metadata, controls, and the rejects.
const auth = { attributes: { org: "acme", roles: ["admin"] }, authenticator: "oidc", principalId: "u-1", principalType: "user" };
const caller = { callId: "c-1", subagentName: "researcher", replyTo: { kind: "hook", token: "t-1" } };
const entry = { channelKind: "slack", channelName: "support", deliveryId: "d-1", payloadIndex: 0 };
const payload = { message: "Where is my order #1042?", context: ["order:1042"], interaction: { threadTs: "171.2" } };

export const MIX = [
  // unversioned era
  { kind: "deliver", payloads: [payload], requestId: "r-1" },
  { kind: "deliver", payloads: [payload, { message: "and the invoice" }], auth, deliveryMetadata: [entry] },
  { kind: "send", payload },
  { kind: "send", payload, delivery: { channelKind: "slack", channelName: "support", deliveryId: "d-2" }, auth, caller, requestId: "r-2", turnPolicy: "steer" },
  { kind: "cancel", taskId: "t-9" },
  { kind: "clear" },
  // version 1
  { kind: "deliver", version: 1, payloads: [payload], payload },
  { kind: "deliver", version: 1, payloads: [payload], payload, auth, caller, deliveryMetadata: [entry], requestId: "r-3", taskDeliveryId: "td" },
  { kind: "deliver", version: 1, payloads: [payload], payload, auth: null, turnPolicy: "queue" },
  { kind: "reset", version: 1, reason: "user asked" },
  { kind: "session-timeout", version: 1 },
  { kind: "compact", version: 1 },
  // rejects
  { kind: "deliver", version: 7, payloads: [], payload: {} },
  { kind: "clear", version: "1" },
  { kind: "send" },
  { kind: "explode", version: 1 },
];

/** One v1 delivery whose message is `bytes` long. */
export function sized(bytes) {
  const p = { message: "x".repeat(bytes) };
  return { kind: "deliver", version: 1, payloads: [p], payload: p, requestId: "r" };
}

/** One v1 delivery carrying `n` payloads. */
export function many(n) {
  const payloads = Array.from({ length: n }, (_, i) => ({ message: `m${i}` }));
  return { kind: "deliver", version: 1, payloads, payload: payloads[0] };
}
