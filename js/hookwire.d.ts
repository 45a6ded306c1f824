// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
/** A plain object of JSON values. */
export type JsonObject = { readonly [key: string]: JsonValue };
/** Binary data: a string in JSON; passed through unchanged in JS. */
export type Binary = string | Uint8Array | ArrayBuffer | URL;

/** One delivered payload. Loose on purpose: undeclared keys are the adapter extension point. (SessionInbox.DeliverPayload) */
export type DeliverPayload = { readonly context?: readonly string[]; readonly inputResponses?: readonly InputResponse[]; readonly message?: UserContent; readonly outputSchema?: JsonObject; readonly task?: JsonObject; readonly [extension: string]: unknown; };

/** An answer to an input request the session asked earlier. (SessionInbox.InputResponse) */
export type InputResponse = { readonly optionId?: string; readonly requestId: string; readonly text?: string; };

/** A user message: a string, or an array of parts. (SessionInbox.UserContent) */
export type UserContent = string | readonly UserContentPart[];

/** One part of a user message; binary image/file data is a string in JSON. (SessionInbox.UserContentPart) */
export type UserContentPart = { readonly type: "text"; readonly providerOptions?: { readonly [key: string]: JsonObject }; readonly text: string; } | { readonly type: "image"; readonly image: Binary; readonly mediaType?: string; readonly providerOptions?: { readonly [key: string]: JsonObject }; } | { readonly type: "file"; readonly data: Binary; readonly filename?: string; readonly mediaType: string; readonly providerOptions?: { readonly [key: string]: JsonObject }; };

/** The authenticated principal behind a delivery. (SessionInbox.AuthContext) */
export type AuthContext = { readonly attributes: { readonly [key: string]: string | readonly string[] }; readonly authenticator: string; readonly issuer?: string; readonly principalId: string; readonly principalType: string; readonly subject?: string; };

/** The subagent call a delivery belongs to. (SessionInbox.Caller) */
export type Caller = { readonly callId: string; readonly replyTo: ReplyTo; readonly subagentName: string; readonly taskId?: string; };

/** Where a subagent's answer goes: a hook token, or a callback URL with its token. (SessionInbox.ReplyTo) */
export type ReplyTo = { readonly kind: "hook"; readonly token: string; } | { readonly kind: "callback"; readonly token: string; readonly url: string; };

/** The channel delivery one payload came from; payloadIndex points into payloads. (SessionInbox.DeliveryEntry) */
export type DeliveryEntry = { readonly channelKind: string; readonly channelName: string; readonly deliveryId: string; readonly payloadIndex: number; readonly requestId?: string; readonly requestTraceContext?: TraceContext; };

/** The trace context of the request that produced a delivery. (SessionInbox.TraceContext) */
export type TraceContext = { readonly spanId: string; readonly traceFlags: number; readonly traceId: string; };

/** A decoded `deliver` value. */
export type SessionInboxDeliver = {
  readonly kind: "deliver";
  readonly auth?: AuthContext | null;
  readonly caller?: Caller;
  readonly deliveryMetadata?: readonly DeliveryEntry[];
  readonly payloads: readonly DeliverPayload[];
  readonly requestId?: string;
  readonly taskDeliveryId?: string;
  readonly turnPolicy?: "queue" | "steer";
};

/** A decoded `session-timeout` value. */
export type SessionInboxSessionTimeout = {
  readonly kind: "session-timeout";
};

/** A decoded `clear` value. */
export type SessionInboxClear = {
  readonly kind: "clear";
};

/** A decoded `compact` value. */
export type SessionInboxCompact = {
  readonly kind: "compact";
};

/** A decoded `reset` value. */
export type SessionInboxReset = {
  readonly kind: "reset";
  readonly reason?: string;
};

/** A decoded `cancel` value. */
export type SessionInboxCancel = {
  readonly kind: "cancel";
  readonly taskId?: string;
  readonly turnId?: string;
};

/** A decoded session inbox value (contract §4): one per kind. */
export type SessionInboxValue =
  | SessionInboxDeliver
  | SessionInboxSessionTimeout
  | SessionInboxClear
  | SessionInboxCompact
  | SessionInboxReset
  | SessionInboxCancel;

/** A stable error code. */
export type SessionInboxWireErrorCode = "NOT_OBJECT" | "MALFORMED_VERSION" | "NEWER_VERSION" | "MIGRATION" | "LEGACY_SHAPE" | "UNKNOWN_KIND" | "INVALID" | "UNSUPPORTED_TARGET" | "RUN_MISMATCH";

/** Why a value could not be decoded. The only error `decode` throws. */
export declare class SessionInboxWireError extends Error {
  readonly name: "SessionInboxWireError";
  readonly code: SessionInboxWireErrorCode;
  /** The version involved, when there is one. */
  readonly version?: number;
}

/** The current session inbox wire version. */
export declare const WIRE_VERSION: 1;
/** The hook metadata key a consumer stamps at createHook. */
export declare const HOOK_METADATA_KEY: "sessionInboxWireVersion";
/** The metadata to pass to createHook: `{ sessionInboxWireVersion: 1 }`. */
export declare function hookMetadata(): { readonly sessionInboxWireVersion: 1 };
/**
 * Decode a session inbox value of any version: a fresh normalized object whose opaque subtrees
 * are the input's own references. Throws SessionInboxWireError, and nothing else.
 */
export declare function decode(value: unknown): SessionInboxValue;
/** The decoder's own resources, for soak tests: wasm memory bytes and externref table slots. */
export declare function memoryStats(): { readonly memoryBytes: number; readonly tableSlots: number };
