// Compiled (not run) by js-tests/turn-control.test.mjs against pkg/turn-control.d.ts and
// pkg/encoder.d.ts: a session driver's code and a turn workflow's code must type-check in strict
// mode, narrow by kind, and reject what the turn-control contract (§14–§16) does not allow.
import { CAPABILITY_KEY, decode, driverCapabilities, memoryStats, TurnControlWireError, WireError, WIRE_VERSION } from "hookwire/turn-control";
import type { JsonObject, JsonValue, TransportErrorCode, TurnAction, TurnControlValue, TurnResult, WireErrorCode } from "hookwire/turn-control";
import { SessionInboxWireError, WireError as InboxWireError } from "hookwire";

const capabilities: { readonly turnControlWireVersion: 1 } = driverCapabilities();
const advertised: 1 = driverCapabilities().turnControlWireVersion;
const key: "turnControlWireVersion" = CAPABILITY_KEY;
const version: 1 = WIRE_VERSION;
const handles: number = memoryStats().handles;

/** What the pinned driver does with the value its per-turn control hook was resumed with. */
export function drive(payload: unknown): string {
  let value: TurnControlValue;
  try {
    value = decode(payload);
  } catch (e) {
    if (e instanceof TurnControlWireError) {
      const family: "turn-control" = e.family;
      const name: "TurnControlWireError" = e.name;
      const code: WireErrorCode | TransportErrorCode = e.code;
      const where: string | undefined = code === "INVALID" ? e.path : undefined;
      return `${family} ${name} ${code} ${e.version ?? ""} ${where ?? ""} ${e.expected ?? ""}`;
    }
    // Either family's error, caught by the base class of either entry.
    if (e instanceof WireError || e instanceof InboxWireError) {
      const family: string = e.family;
      const code: WireErrorCode | TransportErrorCode = e.code;
      return `${family} ${code}`;
    }
    if (e instanceof SessionInboxWireError) return e.name;
    throw e;
  }
  switch (value.kind) {
    case "turn-result": {
      const action: TurnAction = value.action;
      const actionKind: string = value.action.kind;
      // Fields inside an action arm are opaque: unknown, never any.
      const text: unknown = value.action.text;
      const buffered: readonly JsonObject[] = value.bufferedDeliveries ?? [];
      return `${actionKind} ${String(text)} ${buffered.length} ${action.kind}`;
    }
    case "turn-error": {
      const error: JsonValue = value.error;
      return typeof error === "string" ? error : JSON.stringify(error);
    }
    case "turn-continuation-token":
      return value.continuationToken;
    case "turn-delivery-request": {
      const fields: [string, string, string] = [value.continuationToken, value.inboxToken, value.requestId];
      return fields.join(" ");
    }
    case "turn-delivery-accepted":
    case "turn-delivery-cancelled":
      return `${value.kind} ${value.requestId}`;
    default: {
      const exhaustive: never = value;
      return exhaustive;
    }
  }
}

export const constants = [capabilities, advertised, key, version, handles] as const;

// @ts-expect-error: the wire-only version is not part of a decoded value
export const noVersion = (v: TurnControlValue) => v.version;
// @ts-expect-error: an arm this version does not have is not a kind
export const noUnknownKind = (v: TurnControlValue) => v.kind === "turn-handoff";
// @ts-expect-error: decoded values are read-only
export const readOnly = (v: TurnResult) => { v.action = { kind: "stop" }; };
// @ts-expect-error: an action's extension fields are unknown, not any
export const noAnyInAction = (v: TurnResult): string => v.action.text;
// @ts-expect-error: the error is a JsonValue (maybe null), not any
export const noAnyInError = (v: Extract<TurnControlValue, { kind: "turn-error" }>) => v.error.message;
// @ts-expect-error: the capability is the literal 1
export const notTwo: 2 = driverCapabilities().turnControlWireVersion;
// @ts-expect-error: only the session-inbox error is a SessionInboxWireError
export const notInbox: SessionInboxWireError = new TurnControlWireError();

// The encoder entry, for the turn workflow (server/step code).
import { turnControl, TurnControlWireError as EncoderTurnControlWireError } from "hookwire/encoder";
import type { TurnControlCommand, TurnControlTarget } from "hookwire/encoder";

export function produce(driverInput: { readonly driverCapabilities?: unknown }) {
  const action = { kind: "reply", text: "Here is your order status.", futureField: { x: 1 } };
  const command: TurnControlCommand = { kind: "turn-result", action, bufferedDeliveries: [{ kind: "deliver", version: 6, payloads: [] }] };
  const target: TurnControlTarget = turnControl.negotiate(driverInput.driverCapabilities, { writeAtMost: 1 });
  const negotiatedWire: TurnControlValue = turnControl.encode(command, target);
  // The return type follows the target.
  const v0 = turnControl.encode(command, { version: 0 });
  const old: TurnControlValue = v0;
  const v1 = turnControl.encode(command, { version: 1 });
  const one: 1 = v1.version;
  const byDefault = turnControl.encode({ kind: "turn-delivery-accepted", requestId: "r" });
  const alsoOne: 1 = byDefault.version;
  const current: 1 = turnControl.WIRE_VERSION;
  const older: TurnControlTarget = turnControl.negotiate(null);
  try {
    turnControl.encode({ kind: "turn-error", error: { message: "boom", retryable: false } }, older);
  } catch (e) {
    if (e instanceof EncoderTurnControlWireError) return e.code;
  }
  return [negotiatedWire, old, one, alsoOne, current] as const;
}

// @ts-expect-error: not a version this build writes
export const newerTarget: TurnControlTarget = { version: 2 };
// @ts-expect-error: turn control has no v0 variants
export const variantTarget: TurnControlTarget = { version: 0, variant: "send" };
// @ts-expect-error: encode refuses a target of version 2
export const encodeNewer = () => turnControl.encode({ kind: "turn-delivery-accepted", requestId: "r" }, { version: 2 });
// @ts-expect-error: a v0 value carries no version
export const v0HasNoVersion = () => turnControl.encode({ kind: "turn-delivery-accepted", requestId: "r" }, { version: 0 }).version;
// @ts-expect-error: an arm this version does not have is not a command
export const unknownCommand: TurnControlCommand = { kind: "turn-handoff", to: "x" };
// @ts-expect-error: a turn-result needs its action
export const noAction: TurnControlCommand = { kind: "turn-result" };
// @ts-expect-error: requestId is a string
export const numberRequestId: TurnControlCommand = { kind: "turn-delivery-accepted", requestId: 7 };
// @ts-expect-error: the write ceiling is a version this build writes
export const badCeiling = () => turnControl.negotiate({}, { writeAtMost: 2 });
