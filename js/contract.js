// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.
export const FAMILY = "session-inbox";
export const ERROR_CLASS = "SessionInboxWireError";
export const WIRE_VERSION = 6;
export const CAPABILITY_KEY = "sessionInboxWireVersion";
export const TYPE_CODES = { null: 1, boolean: 2, number: 3, string: 4, array: 5, object: 6, other: 7 };
export const READ_CHECKS = { arrayOfObjects: 1, kindedObject: 2 };
export const UNREADABLE = 7;
export const SYMBOLS = ["version", "kind", "payload", "payloads", "auth", "caller", "deliveryMetadata", "requestId", "taskDeliveryId", "turnPolicy", "delivery", "payloadIndex", "reason", "taskId", "turnId", "deliver", "send", "session-timeout", "clear", "compact", "reset", "cancel", "tasks", "task", "inputRequests", "agentRequests", "replyTo", "hookPayload", "childContinuationToken", "event", "requests", "request", "sequence", "stepIndex", "queue", "steer"];
export const KINDS = [[15, 259, 4, 5, 262, 7, 8, 9], [17], [18], [19], [20, 12], [21, 13, 22, 14]];
export const CODES = ["", "NOT_OBJECT", "MALFORMED_VERSION", "NEWER_VERSION", "MIGRATION", "LEGACY_SHAPE", "UNKNOWN_KIND", "MISDECLARED_VERSION", "INVALID", "UNSUPPORTED_TARGET", "RUN_MISMATCH", "INCOMPATIBLE", "HOOK_NOT_FOUND", "LOOKUP_FAILED"];
export const DETAILS = [
  "",
  "null",
  "a boolean",
  "a number",
  "a string",
  "an array",
  "a value JSON cannot hold",
  "a value that cannot be read (a getter or proxy trap threw, or a sparse array is too long)",
  "version is present but is not a number",
  "version is missing and this family has no unversioned era",
  "version is not an integer at or above the lowest version",
  "no migration step starts at this version",
  "the step does not go to the next version",
  "the step's output declares the wrong version",
  "the payload of an unversioned send must be an object",
  "the delivery of an unversioned send must be an object",
  "the payloads of an unversioned deliver must be an array of objects",
  "task operations of version 4 or later",
  "a cancel with tasks (version 6 or later)",
  "a deliver without the payload mirror (required from version 2)",
  "an old-form input request whose hookPayload cannot be rewritten into a valid entry",
  "a value (the field is required)",
  "an object",
  "an object or null",
  "an array of objects",
  "a string",
  "a boolean",
  "one of the field's declared strings",
  "",
  "",
  "",
];
export const MESSAGES = {
  NOT_OBJECT: "a wire value must be a plain object, not {detail}",
  MALFORMED_VERSION: "malformed version: {detail}",
  NEWER_VERSION: "version {version} is newer than version {current}, the newest this build decodes: the value was probably written by a newer deployment",
  MIGRATION: "the migration registry is broken at version {version}: {detail} (a bug in the registry)",
  LEGACY_SHAPE: "an unversioned value has a shape no historic writer produced: {detail}",
  UNKNOWN_KIND: "kind is missing or is not a kind of the current version",
  MISDECLARED_VERSION: "version {version} cannot carry what this value holds: {detail}",
  INVALID: "invalid envelope at {path}: expected {detail}",
};
