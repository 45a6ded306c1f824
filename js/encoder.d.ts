// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.

import type { AuthContext, Caller, DeliverPayload, DeliveryEntry, HookwireSchema, SessionInboxWireError } from "./hookwire.cjs";
export { HOOK_METADATA_KEY, SessionInboxWireError, WireError, WIRE_VERSION } from "./hookwire.cjs";
import type { TurnControlValue } from "./turn-control.cjs";
export { TurnControlWireError } from "./turn-control.cjs";

/** Deliver payloads to the session; payload is the mirror for pinned raw-send readers. (SessionInbox.V6.Deliver) */
export type SessionInboxDeliverV6 = { readonly kind: "deliver"; readonly version: 6; readonly payloads: readonly DeliverPayload[]; readonly payload: DeliverPayload; readonly auth?: AuthContext | null; readonly caller?: Caller; readonly deliveryMetadata?: readonly DeliveryEntry[]; readonly requestId?: string; readonly taskDeliveryId?: string; readonly turnPolicy?: "queue" | "steer"; };

/** The session timed out. (SessionInbox.V6.SessionTimeout) */
export type SessionInboxSessionTimeoutV6 = { readonly kind: "session-timeout"; readonly version: 6; };

/** Clear the session's history. (SessionInbox.V6.Clear) */
export type SessionInboxClearV6 = { readonly kind: "clear"; readonly version: 6; };

/** Compact the session's history. (SessionInbox.V6.Compact) */
export type SessionInboxCompactV6 = { readonly kind: "compact"; readonly version: 6; };

/** Reset the session. (SessionInbox.V6.Reset) */
export type SessionInboxResetV6 = { readonly kind: "reset"; readonly version: 6; readonly reason?: string; };

/** Cancel a task or a turn. (SessionInbox.V6.Cancel) */
export type SessionInboxCancelV6 = { readonly kind: "cancel"; readonly version: 6; readonly taskId?: string; readonly tasks?: boolean; readonly turnId?: string; };

/** A version 6 wire value, as the encoder writes it. */
export type SessionInboxWireV6 = SessionInboxDeliverV6 | SessionInboxSessionTimeoutV6 | SessionInboxClearV6 | SessionInboxCompactV6 | SessionInboxResetV6 | SessionInboxCancelV6;

type Carried = { readonly auth?: AuthContext | null; readonly caller?: Caller; readonly requestId?: string; readonly taskDeliveryId?: string; readonly turnPolicy?: "queue" | "steer" };
/** The send command: one payload, built field by field into a deliver. */
export type SendCommand = Carried & { readonly kind: "send"; readonly payload: DeliverPayload; readonly delivery?: Omit<DeliveryEntry, "payloadIndex"> };
/** The deliver command: the current deliver fields without version and mirror. */
export type DeliverCommand = Omit<SessionInboxDeliverV6, "version" | "payload">;
/** A control command. */
export type ControlCommand = Omit<SessionInboxSessionTimeoutV6, "version"> | Omit<SessionInboxClearV6, "version"> | Omit<SessionInboxCompactV6, "version"> | Omit<SessionInboxResetV6, "version"> | Omit<SessionInboxCancelV6, "version">;
/** Any command the encoder takes (contract §5.1, §12). */
export type SessionInboxCommand = SendCommand | DeliverCommand | ControlCommand;

/** A version this build writes. */
export type SessionInboxVersion = 1 | 2 | 3 | 4 | 5 | 6;
/** An encoding target: a version, or one of the two shapes of the unversioned era. */
export type SessionInboxTarget = { readonly version: SessionInboxVersion } | { readonly version: 0; readonly variant: "deliver" | "send" };
/**
 * A wire value as the encoder writes it for version N. Everything the encoder writes for an older
 * version is a value of the current shape minus what the down steps drop, so it is typed as the
 * current shape declaring N.
 */
export type SessionInboxWireAt<N extends SessionInboxVersion> = SessionInboxWireV6 extends infer W ? (W extends { readonly version: number } ? Omit<W, "version"> & { readonly version: N } : never) : never;
/** The legacy deliver envelope (v0 `deliver` target). */
export type LegacyDeliverEnvelope = DeliverCommand;
/** The raw send command (v0 `send` target). */
export type RawSendCommand = SendCommand;
/** Any wire value the encoder writes. */
export type SessionInboxWire = SessionInboxWireV6 | SessionInboxWireAt<SessionInboxVersion> | LegacyDeliverEnvelope | RawSendCommand | ControlCommand;
/** The wire value `encode` returns for a target. */
export type WireFor<T extends SessionInboxTarget> = T extends { readonly variant: "send" }
  ? RawSendCommand | ControlCommand
  : T extends { readonly variant: "deliver" }
    ? LegacyDeliverEnvelope | ControlCommand
    : T extends { readonly version: infer N extends SessionInboxVersion }
      ? SessionInboxWireAt<N>
      : SessionInboxWire;

/** The INVALID error carries where and what was expected. */
export type InvalidError = SessionInboxWireError & { readonly code: "INVALID"; readonly path: string; readonly expected: string };
/** The INCOMPATIBLE error carries the refused field and the version that cannot carry it. */
export type IncompatibleError = SessionInboxWireError & { readonly code: "INCOMPATIBLE"; readonly path: string; readonly version: number };

/**
 * Build the complete current value, validate it once, walk it down to the target's version and
 * validate it against that version's frozen shape; a v0 target is converted from version 1
 * (default target: the current version). Binary values at a part's image or data come back as
 * the same objects. Throws SessionInboxWireError: INVALID (with path and expected),
 * INCOMPATIBLE (with path and version: nothing is ever dropped to make a value fit) or
 * UNSUPPORTED_TARGET.
 */
export declare function encode<const T extends SessionInboxTarget = { readonly version: 6 }>(command: SessionInboxCommand, target?: T): WireFor<T>;

/** What negotiation reads of a hook. */
export interface InspectedHook { readonly token: string; readonly runId: string; readonly metadata?: unknown }
/** Where a command goes: a hook token, or a saved receiver address. */
export type Destination = { readonly token: string } | { readonly address: { readonly sessionId: string; readonly version: number } };
/** The producer's configuration. */
export interface NegotiateOptions {
  /** The newest version to write (a rollout that must stay rollback-safe): 1 … 6; default 6. */
  readonly writeAtMost?: SessionInboxVersion;
  /** The stable inbox token template, with one `{runId}`; default `eve:session:{runId}:inbox`. */
  readonly stableInboxToken?: string;
}
/** The outcome of negotiation: the target, the lookups made, and what to resume. */
export interface Negotiated<H extends InspectedHook> {
  readonly target: SessionInboxTarget;
  readonly lookups: 0 | 1 | 2;
  readonly resume: { readonly hook: H } | { readonly token: string };
}
/**
 * Choose the target a receiver understands (contract §12). `lookup` is the caller's
 * getHookByToken: it resolves to the hook, or to null/undefined when there is none; if it throws
 * or rejects, negotiation refuses with LOOKUP_FAILED (a failure is never taken for "not found";
 * do not catch it into null), as it does for a hook whose metadata nests more than 1,000 levels
 * deep. The rules run in the wasm module; this function only performs the lookups it asks for.
 * Rejects with SessionInboxWireError (UNSUPPORTED_TARGET, RUN_MISMATCH, HOOK_NOT_FOUND,
 * LOOKUP_FAILED) before anything is written.
 */
export declare function negotiate<H extends InspectedHook>(
  command: SessionInboxCommand | { readonly kind: string },
  destination: Destination,
  lookup: (token: string) => H | null | undefined | Promise<H | null | undefined>,
  options?: NegotiateOptions,
): Promise<Negotiated<H>>;
/** The stable inbox token of a run (`template` defaults to `eve:session:{runId}:inbox`). */
export declare function stableInboxToken(runId: string, template?: string): string;

/**
 * The producer side as a Standard Schema v1, for the Workflow SDK's `defineHook({ schema })`:
 * `validate(command)` encodes the command for the fixed `target` (default: the current version)
 * and answers `{ value }`, the wire value that `resume` then persists, or `{ issues }` (the
 * message starts with the code; the path is the error's pointer in the command). An unsupported
 * target throws UNSUPPORTED_TARGET here, once.
 */
export declare function encoderSchema<const T extends SessionInboxTarget = { readonly version: 6 }>(options?: {
  readonly target?: T;
  readonly family?: "session-inbox";
}): HookwireSchema<SessionInboxCommand, WireFor<T>>;

/** A turn-control command: the wire value without `version`. */
export type TurnControlCommand = TurnControlValue;
/** A turn-control target: version 1 or, for a driver without the capability, 0. */
export type TurnControlTarget = { readonly version: 0 | 1 };
/** The wire value for a target version: version 0 carries no `version` key (distributes over a union of versions). */
export type TurnControlWireFor<N extends number> = N extends 0 ? TurnControlValue : TurnControlValue & { readonly version: N };
/** Turn control (contract §14), for the turn workflow. Throws TurnControlWireError. */
export declare const turnControl: {
  readonly WIRE_VERSION: 1;
  /** The value for the target (default: the current version); `action` is the command's own object. */
  encode<const T extends TurnControlTarget = { readonly version: 1 }>(command: TurnControlCommand, target?: T): TurnControlWireFor<T["version"]>;
  /** The target for a driver's capabilities (`{ turnControlWireVersion: N }`, or anything else for an older driver). */
  negotiate(capabilities: unknown, options?: { readonly writeAtMost?: 1 }): TurnControlTarget;
};

/** Turn control's producer side as a Standard Schema v1 (`family: "turn-control"`). */
export declare function encoderSchema<const T extends TurnControlTarget = { readonly version: 1 }>(options: {
  readonly target?: T;
  readonly family: "turn-control";
}): HookwireSchema<TurnControlCommand, TurnControlWireFor<T["version"]>>;

/**
 * The encoder module's own memory: its linear memory in bytes, and the blocks of its per-call
 * arena held between calls (0: a call gives back every block it took, so the next one starts
 * the arena over).
 */
export declare function memoryStats(): { readonly memoryBytes: number; readonly arenaBlocks: number };
