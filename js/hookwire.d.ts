// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
/** A plain object of JSON values. */
export type JsonObject = { readonly [key: string]: JsonValue };
/** Binary data: a string in JSON; passed through unchanged in JS. */
export type Binary = string | Uint8Array | ArrayBuffer | URL;

/** One delivered payload. Loose on purpose: undeclared keys are the adapter extension point. (SessionInbox.V4.DeliverPayload) */
export type DeliverPayload = { readonly context?: readonly string[]; readonly inputResponses?: readonly InputResponse[]; readonly message?: UserContent; readonly outputSchema?: JsonObject; readonly task?: Task; readonly [extension: string]: unknown; };

/** An answer to an input request the session asked earlier. (SessionInbox.InputResponse) */
export type InputResponse = { readonly optionId?: string; readonly requestId: string; readonly text?: string; };

/** A user message: a string, or an array of parts. (SessionInbox.UserContent) */
export type UserContent = string | readonly UserContentPart[];

/** One part of a user message; binary image/file data is a string in JSON. (SessionInbox.UserContentPart) */
export type UserContentPart = { readonly type: "text"; readonly providerOptions?: { readonly [key: string]: JsonObject }; readonly text: string; } | { readonly type: "image"; readonly image: Binary; readonly mediaType?: string; readonly providerOptions?: { readonly [key: string]: JsonObject }; } | { readonly type: "file"; readonly data: Binary; readonly filename?: string; readonly mediaType: string; readonly providerOptions?: { readonly [key: string]: JsonObject }; };

/** The task operations a payload carries (TaskV4); views stay opaque. (SessionInbox.V4.Task) */
export type Task = { readonly agentRequests?: readonly AgentRequest[]; readonly authorizationEvents?: readonly AuthorizationEvent[]; readonly inputRequests?: readonly InputRequest[]; readonly views?: readonly JsonObject[]; };

/** A request of a task to an agent, and where the answer goes. (SessionInbox.V4.AgentRequest) */
export type AgentRequest = { readonly replyTo: string; readonly request: AgentOperation; readonly taskId: string; };

/** What an agent request asks: invoke an agent, or report that an invocation settled. (SessionInbox.V4.AgentOperation) */
export type AgentOperation = { readonly kind: "agent-invoke"; readonly input: { readonly agentId?: string; readonly message: string; readonly outputSchema?: JsonObject; readonly target: string; }; readonly invocationId: string; } | { readonly kind: "agent-settled"; readonly result: JsonObject; };

/** An authorization event a subagent raised for a task. (SessionInbox.V4.AuthorizationEvent) */
export type AuthorizationEvent = { readonly hookPayload: { readonly callId: string; readonly childSessionId: string; readonly event: JsonObject; readonly kind: "subagent-authorization-event"; readonly subagentName: string; }; readonly taskId: string; };

/** A question a task asks its user: exactly one of request or requests. Loose: other keys pass. (SessionInbox.V4.InputRequest) */
export type InputRequest = { readonly replyTo: string; readonly request?: JsonValue; readonly requests?: readonly JsonValue[]; readonly sequence: number; readonly stepIndex: number; readonly taskId: string; readonly turnId: string; readonly [extension: string]: unknown; } & ({ readonly request: JsonValue; readonly requests?: never; } | { readonly request?: never; readonly requests: readonly JsonValue[]; });

/** The authenticated principal behind a delivery. (SessionInbox.AuthContext) */
export type AuthContext = { readonly attributes: { readonly [key: string]: string | readonly string[] }; readonly authenticator: string; readonly issuer?: string; readonly principalId: string; readonly principalType: string; readonly subject?: string; };

/** The subagent call a delivery belongs to. (SessionInbox.V2.Caller) */
export type Caller = { readonly activityObserver?: ActivityObserver; readonly callId: string; readonly replyTo: ReplyTo; readonly subagentName: string; readonly taskId?: string; };

/** Where the activity of a call is reported (observation metadata), and whose work it is. (SessionInbox.V2.ActivityObserver) */
export type ActivityObserver = { readonly sink: { readonly url: string; readonly version: 1; }; readonly workIdentity?: { readonly callId?: string; readonly id: string; readonly kind: "root-turn" | "subagent" | "remote-agent" | "task"; readonly name?: string; readonly parentId?: string; readonly rootSessionId: string; readonly rootTurnId: string; readonly sessionId?: string; readonly turnId?: string; }; };

/** Where a subagent's answer goes: a hook token, or a callback URL with its token. (SessionInbox.ReplyTo) */
export type ReplyTo = { readonly kind: "hook"; readonly token: string; } | { readonly kind: "callback"; readonly token: string; readonly url: string; };

/** The channel delivery one payload came from; payloadIndex points into payloads. (SessionInbox.V3.DeliveryEntry) */
export type DeliveryEntry = { readonly acceptedDeploymentId?: string; readonly channelKind: string; readonly channelName: string; readonly deliveryId: string; readonly payloadIndex: number; readonly requestId?: string; readonly requestTraceContext?: TraceContext; };

/** The trace context of the request that produced a delivery. (SessionInbox.TraceContext) */
export type TraceContext = { readonly spanId: string; readonly traceFlags: number; readonly traceId: string; };

/** A decoded `deliver` value. */
export type SessionInboxDeliver = {
  readonly kind: "deliver";
  /** checked at decode: an array of objects; the objects' interiors are trusted as the encoder wrote them */
  readonly payloads: readonly DeliverPayload[];
  /** checked at decode: an object or null; its interior is trusted as the encoder wrote it */
  readonly auth?: AuthContext | null;
  /** checked at decode: an object; its interior is trusted as the encoder wrote it */
  readonly caller?: Caller;
  /** checked at decode: an array of objects; the objects' interiors are trusted as the encoder wrote them */
  readonly deliveryMetadata?: readonly DeliveryEntry[];
  /** checked at decode: a string; trusted otherwise */
  readonly requestId?: string;
  /** checked at decode: a string; trusted otherwise */
  readonly taskDeliveryId?: string;
  /** checked at decode: one of the declared strings */
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
  /** checked at decode: a string; trusted otherwise */
  readonly reason?: string;
};

/** A decoded `cancel` value. */
export type SessionInboxCancel = {
  readonly kind: "cancel";
  /** checked at decode: a string; trusted otherwise */
  readonly taskId?: string;
  /** checked at decode: a boolean */
  readonly tasks?: boolean;
  /** checked at decode: a string; trusted otherwise */
  readonly turnId?: string;
};

/**
 * A decoded session-inbox value (contract §4, §15): one per kind. Decode checks the version, the
 * kind and the envelope (each declared top-level field's JSON type, as each field says);
 * everything inside those fields is trusted as the validating encoder wrote it.
 */
export type SessionInboxValue =
  | SessionInboxDeliver
  | SessionInboxSessionTimeout
  | SessionInboxClear
  | SessionInboxCompact
  | SessionInboxReset
  | SessionInboxCancel;

/** A stable error code of a value. */
export type WireErrorCode = "NOT_OBJECT" | "MALFORMED_VERSION" | "NEWER_VERSION" | "MIGRATION" | "LEGACY_SHAPE" | "UNKNOWN_KIND" | "MISDECLARED_VERSION" | "INVALID" | "UNSUPPORTED_TARGET" | "RUN_MISMATCH" | "INCOMPATIBLE" | "HOOK_NOT_FOUND" | "LOOKUP_FAILED";
/** A stable error code of the transport around a value (the encoder's and the command line's answers). */
export type TransportErrorCode = "INVALID_JSON" | "TOO_DEEP" | "INVALID_REQUEST" | "TOO_LARGE";

/**
 * What `decode` throws, every time, in a context where the decoder cannot start: no WebAssembly
 * global, wasm code generation forbidden (a sandbox setting), or no TextEncoder to read the
 * inlined module. Its message names the cause; `cause` is the original exception.
 */
export interface HookwireStartError extends Error {
  readonly name: "HookwireStartError";
  readonly cause: unknown;
}

/**
 * The Standard Schema v1 interface (https://standardschema.dev), declared here so that the package
 * depends on nothing: structurally the `StandardSchemaV1<Input, Output>` of `@standard-schema/spec`.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/**
 * A hookwire Standard Schema: `validate` is synchronous and answers `{ value }` or
 * `{ issues: [{ message, path }] }` — the message starts with the error's code, and the path is its
 * JSON pointer as keys and array indexes (absent when the error has no pointer). `types` is for
 * type inference only, as the specification says: it is not there at run time.
 */
export interface HookwireSchema<Input, Output> extends StandardSchemaV1<Input, Output> {
  readonly "~standard": Omit<StandardSchemaV1.Props<Input, Output>, "vendor" | "validate"> & {
    readonly vendor: "hookwire";
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output>;
  };
}

/**
 * The base of every family's error class: one class, shared by every hookwire entry in a realm.
 * Every error has the same own keys (`family`, `code`, `version`, `path`, `expected`), `undefined`
 * where one says nothing.
 */
export declare class WireError extends Error {
  /** The family whose value could not be decoded or encoded (`session-inbox`, `turn-control`). */
  readonly family: string;
  readonly code: WireErrorCode | TransportErrorCode;
  /** The version involved, when there is one (the value's, or the version that cannot carry it). */
  readonly version?: number | undefined;
  /** INVALID (and INCOMPATIBLE from the encoder): a JSON pointer to the offending place. */
  readonly path?: string | undefined;
  /** INVALID: what was expected there. */
  readonly expected?: string | undefined;
}

/** The stable error codes (every family shares them). */
export type SessionInboxWireErrorCode = WireErrorCode | TransportErrorCode;

/** Why a session inbox value could not be decoded. The only error `decode` throws. */
export declare class SessionInboxWireError extends WireError {
  readonly name: "SessionInboxWireError";
  readonly family: "session-inbox";
}

/** The current session inbox wire version. */
export declare const WIRE_VERSION: 6;
/** The hook metadata key a consumer stamps at createHook. */
export declare const HOOK_METADATA_KEY: "sessionInboxWireVersion";
/** The metadata to pass to createHook: `{ sessionInboxWireVersion: 6 }`. */
export declare function hookMetadata(): { readonly sessionInboxWireVersion: 6 };
/**
 * Decode a session inbox value of any version: a fresh normalized object whose opaque subtrees
 * are the input's own references. Throws SessionInboxWireError, and nothing else.
 */
export declare function decode(value: unknown): SessionInboxValue;
/**
 * The same decoder as a Standard Schema v1: `validate(value)` answers `{ value: decode(value) }`,
 * or `{ issues }` for what decode throws as a SessionInboxWireError.
 */
export declare const standardSchema: HookwireSchema<unknown, SessionInboxValue>;
/** The decoder's own resources, for soak tests: wasm memory bytes, externref table slots, and the value handles held between decodes (0). */
export declare function memoryStats(): { readonly memoryBytes: number; readonly tableSlots: number; readonly handles: number };
