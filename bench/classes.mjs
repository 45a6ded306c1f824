// The value classes the per-decode benchmark times, one per path through the decoder: current
// values (no step), a version-1 value (five steps), the two version-0 shapes, a value that walks
// the 3→4 task rewrite; and the rejects, timed apart (a mix can hide a loss).
const auth = { attributes: { org: "acme", roles: ["admin"] }, authenticator: "oidc", principalId: "u-1", principalType: "user" };
const caller = { callId: "c-1", subagentName: "researcher", replyTo: { kind: "hook", token: "t-1" } };
const entry = { channelKind: "slack", channelName: "support", deliveryId: "d-1", payloadIndex: 0 };
const payload = { message: "Where is my order #1042?", context: ["order:1042"], interaction: { threadTs: "171.2" } };
const oldForm = {
  message: "answers",
  task: {
    id: "t-1",
    inputRequests: [
      {
        taskId: "task-1",
        hookPayload: {
          childContinuationToken: "child-1",
          event: { requests: [{ id: "q-1", prompt: "Proceed?" }, { id: "q-2", prompt: "Which branch?" }], sequence: 4, stepIndex: 2, turnId: "turn-7" },
        },
      },
    ],
  },
};

/** The deliver of the classes below, declaring `version` (made by one literal: one shape for all). */
const deliverAt = (version) => ({ kind: "deliver", version, payloads: [payload], payload, auth, caller, deliveryMetadata: [entry], requestId: "r-1" });

/** Valid values, by class: each decodes. */
export const VALID = {
  "current deliver": deliverAt(6),
  "current control": { kind: "cancel", version: 6, taskId: "t-9", tasks: true },
  "v1 deliver (5 steps)": deliverAt(1),
  "v0 raw send": { kind: "send", payload, delivery: { channelKind: "slack", channelName: "support", deliveryId: "d-2" }, auth, requestId: "r-2" },
  "v0 legacy deliver": { kind: "deliver", payloads: [payload, { message: "and the invoice" }], auth, deliveryMetadata: [entry] },
  "v3 task rewrite": { kind: "deliver", version: 3, payloads: [oldForm], payload: oldForm, requestId: "r-3" },
};

/**
 * The same deliver (the current one above) declaring each version, and unversioned (version 0:
 * decode's own output, which decodes to itself): from 5 down to 1 the steps up are pure bumps
 * (a v1 value's declared-version check shows they change nothing), and at version 0 the session
 * inbox's shortcut shows that the steps, from the frozen 0 → 1 migration on, change nothing the
 * decode reads (its payloads hold no task). What each version costs over the current one,
 * content held equal.
 */
export const PER_VERSION = {
  ...Object.fromEntries([6, 5, 4, 3, 2, 1].map((v) => [`v${v}${v === 6 ? " (current)" : ""}`, deliverAt(v)])),
  "v0 (unversioned)": { kind: "deliver", payloads: [payload], auth, caller, deliveryMetadata: [entry], requestId: "r-1" },
};

/**
 * The older classes that rewrite something (a version-0 shape, an old-form task), by the name of
 * their class: each is compared with its own current form, the version-6 value whose decode is
 * the same (`currentForm`), so that a rewrite's cost is told apart from its content's.
 */
export const REWRITTEN = ["v0 raw send", "v0 legacy deliver", "v3 task rewrite"];
/**
 * A version-6 value that decodes to `decoded`, a decode's output: its fields, the version, and the
 * first payload as the mirror (which decode drops; an encoder merges several payloads into it).
 */
export const currentForm = ({ kind, ...fields }) => ({ kind, version: 6, ...fields, payload: fields.payloads[0] });

/** Rejects, by class: each is refused with the code named. */
export const REJECTS = {
  "newer version": [{ kind: "deliver", version: 7, payloads: [], payload: {} }, "NEWER_VERSION"],
  "malformed version": [{ kind: "clear", version: "1" }, "MALFORMED_VERSION"],
  "unknown kind": [{ kind: "explode", version: 6 }, "UNKNOWN_KIND"],
  "legacy shape": [{ kind: "send" }, "LEGACY_SHAPE"],
  "invalid envelope": [{ kind: "deliver", version: 6, payloads: [payload, "x"], payload }, "INVALID"],
  "misdeclared version": [{ kind: "deliver", version: 2, payloads: [payload] }, "MISDECLARED_VERSION"],
};

// Turn control (contract §14): the current version, and a version-0 value (one step).
const action = { kind: "reply", text: "Your order ships tomorrow.", citations: [{ url: "https://example.com/o/1042" }] };
const buffered = [{ kind: "deliver", version: 6, payloads: [payload], payload }];

/** Valid turn-control values, by class. */
export const TURN_VALID = {
  "turn-result": { kind: "turn-result", version: 1, action, bufferedDeliveries: buffered },
  "turn-delivery-request": { kind: "turn-delivery-request", version: 1, continuationToken: "c-1", inboxToken: "i-1", requestId: "r-1" },
  "turn-result v0 (1 step)": { kind: "turn-result", action, bufferedDeliveries: buffered },
};

/** Turn-control rejects, by class. */
export const TURN_REJECTS = {
  "newer version": [{ kind: "turn-error", version: 2, error: "x" }, "NEWER_VERSION"],
  "v0 action without a kind": [{ kind: "turn-result", action: { text: "x" } }, "LEGACY_SHAPE"],
  "unknown kind": [{ kind: "turn-paused", version: 1 }, "UNKNOWN_KIND"],
  "invalid envelope": [{ kind: "turn-delivery-accepted", version: 1, requestId: 7 }, "INVALID"],
};
