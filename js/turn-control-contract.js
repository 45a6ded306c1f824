// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.
export const FAMILY = "turn-control";
export const ERROR_CLASS = "TurnControlWireError";
export const WIRE_VERSION = 1;
export const CAPABILITY_KEY = "turnControlWireVersion";
export const TYPE_CODES = { null: 1, boolean: 2, number: 3, string: 4, array: 5, object: 6, other: 7 };
export const READ_CHECKS = { arrayOfObjects: 1, kindedObject: 2 };
export const UNREADABLE = 7;
export const SYMBOLS = ["version", "kind", "action", "bufferedDeliveries", "error", "continuationToken", "inboxToken", "requestId", "turn-result", "turn-error", "turn-continuation-token", "turn-delivery-request", "turn-delivery-accepted", "turn-delivery-cancelled"];
export const KINDS = [[8, 514, 259], [9, 4], [10, 5], [11, 5, 6, 7], [12, 7], [13, 7]];
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
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "a value (the field is required)",
  "an object",
  "",
  "an array of objects",
  "a string",
  "",
  "",
  "an object with a string kind",
  "the action of an unversioned turn-result must be an object with a string kind",
  "a JSON value",
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
