// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.

import type { AuthContext, Caller, DeliverPayload, DeliveryEntry, SessionInboxWireError } from "./hookwire.cjs";
export { HOOK_METADATA_KEY, SessionInboxWireError, WIRE_VERSION } from "./hookwire.cjs";

/** Deliver payloads to the session; payload is the mirror for pinned raw-send readers. (SessionInbox.V1.Deliver) */
export type SessionInboxDeliverV1 = { readonly kind: "deliver"; readonly version: 1; readonly payloads: readonly DeliverPayload[]; readonly payload?: DeliverPayload; readonly auth?: AuthContext | null; readonly caller?: Caller; readonly deliveryMetadata?: readonly DeliveryEntry[]; readonly requestId?: string; readonly taskDeliveryId?: string; readonly turnPolicy?: "queue" | "steer"; };

/** The session timed out. (SessionInbox.V1.SessionTimeout) */
export type SessionInboxSessionTimeoutV1 = { readonly kind: "session-timeout"; readonly version: 1; };

/** Clear the session's history. (SessionInbox.V1.Clear) */
export type SessionInboxClearV1 = { readonly kind: "clear"; readonly version: 1; };

/** Compact the session's history. (SessionInbox.V1.Compact) */
export type SessionInboxCompactV1 = { readonly kind: "compact"; readonly version: 1; };

/** Reset the session. (SessionInbox.V1.Reset) */
export type SessionInboxResetV1 = { readonly kind: "reset"; readonly version: 1; readonly reason?: string; };

/** Cancel a task or a turn. (SessionInbox.V1.Cancel) */
export type SessionInboxCancelV1 = { readonly kind: "cancel"; readonly version: 1; readonly taskId?: string; readonly turnId?: string; };

/** A version 1 wire value, as the encoder writes it. */
export type SessionInboxWireV1 = SessionInboxDeliverV1 | SessionInboxSessionTimeoutV1 | SessionInboxClearV1 | SessionInboxCompactV1 | SessionInboxResetV1 | SessionInboxCancelV1;

type Carried = { readonly auth?: AuthContext | null; readonly caller?: Caller; readonly requestId?: string; readonly taskDeliveryId?: string; readonly turnPolicy?: "queue" | "steer" };
/** The send command: one payload, built field by field into a deliver. */
export type SendCommand = Carried & { readonly kind: "send"; readonly payload: DeliverPayload; readonly delivery?: Omit<DeliveryEntry, "payloadIndex"> };
/** The deliver command: the v1 deliver fields without version and mirror. */
export type DeliverCommand = Omit<SessionInboxDeliverV1, "version" | "payload">;
/** A control command. */
export type ControlCommand = Omit<SessionInboxSessionTimeoutV1, "version"> | Omit<SessionInboxClearV1, "version"> | Omit<SessionInboxCompactV1, "version"> | Omit<SessionInboxResetV1, "version"> | Omit<SessionInboxCancelV1, "version">;
/** Any command the encoder takes (contract §5.1). */
export type SessionInboxCommand = SendCommand | DeliverCommand | ControlCommand;

/** An encoding target. */
export type SessionInboxTarget = { readonly version: 1 } | { readonly version: 0; readonly variant: "deliver" | "send" };
/** The legacy deliver envelope (v0 `deliver` target). */
export type LegacyDeliverEnvelope = DeliverCommand;
/** The raw send command (v0 `send` target). */
export type RawSendCommand = SendCommand;
/** Any wire value the encoder writes. */
export type SessionInboxWire = SessionInboxWireV1 | LegacyDeliverEnvelope | RawSendCommand | ControlCommand;

/** The INVALID error carries where and what was expected. */
export type InvalidError = SessionInboxWireError & { readonly code: "INVALID"; readonly path: string; readonly expected: string };

/**
 * Build the complete v1 value, validate it once, convert it down for a v0 target (default: the
 * current version). Binary values at a part's image or data come back as the same objects.
 * Throws SessionInboxWireError: INVALID (with path and expected) or UNSUPPORTED_TARGET.
 */
export declare function encode(command: SessionInboxCommand, target?: SessionInboxTarget): SessionInboxWire;

/** What negotiation reads of a hook. */
export interface InspectedHook { readonly token: string; readonly runId: string; readonly metadata?: unknown }
/** Where a command goes: a hook token, or a saved receiver address. */
export type Destination = { readonly token: string } | { readonly address: { readonly sessionId: string; readonly version: number } };
/** The stable inbox token form. */
export interface InboxTokens { readonly prefix?: string; readonly suffix?: string }
/** The outcome of negotiation: the target, the lookups made, and what to resume. */
export interface Negotiated<H extends InspectedHook> {
  readonly target: SessionInboxTarget;
  readonly lookups: 0 | 1 | 2;
  readonly resume: { readonly hook: H } | { readonly token: string };
}
/**
 * Choose the target a receiver understands (contract §6); `lookup` is the caller's getHookByToken.
 * Rejects with SessionInboxWireError (UNSUPPORTED_TARGET, RUN_MISMATCH) before anything is written.
 */
export declare function negotiate<H extends InspectedHook>(
  command: { readonly kind: string },
  destination: Destination,
  lookup: (token: string) => H | null | undefined | Promise<H | null | undefined>,
  tokens?: InboxTokens,
): Promise<Negotiated<H>>;
/** The stable inbox token of a run. */
export declare function stableInboxToken(runId: string, tokens?: InboxTokens): string;
