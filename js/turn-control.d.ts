// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
/** A plain object of JSON values. */
export type JsonObject = { readonly [key: string]: JsonValue };
/** Binary data: a string in JSON; passed through unchanged in JS. */
export type Binary = string | Uint8Array | ArrayBuffer | URL;

/** The action a turn ended with: opaque to this contract (a JSON object with a string kind), passed through untouched. (TurnControl.Action) */
export type TurnAction = { readonly kind: string; readonly [extension: string]: unknown; };

/** A decoded `turn-result` value. */
export type TurnResult = {
  readonly kind: "turn-result";
  /** checked at decode: an object with a string kind; its interior is trusted */
  readonly action: TurnAction;
  /** checked at decode: an array of objects; the objects' interiors are trusted as the encoder wrote them */
  readonly bufferedDeliveries?: readonly JsonObject[];
};

/** A decoded `turn-error` value. */
export type TurnError = {
  readonly kind: "turn-error";
  /** checked at decode: a JSON value (its interior is trusted) */
  readonly error: JsonValue;
};

/** A decoded `turn-continuation-token` value. */
export type TurnContinuationToken = {
  readonly kind: "turn-continuation-token";
  /** checked at decode: a string; trusted otherwise */
  readonly continuationToken: string;
};

/** A decoded `turn-delivery-request` value. */
export type TurnDeliveryRequest = {
  readonly kind: "turn-delivery-request";
  /** checked at decode: a string; trusted otherwise */
  readonly continuationToken: string;
  /** checked at decode: a string; trusted otherwise */
  readonly inboxToken: string;
  /** checked at decode: a string; trusted otherwise */
  readonly requestId: string;
};

/** A decoded `turn-delivery-accepted` value. */
export type TurnDeliveryAccepted = {
  readonly kind: "turn-delivery-accepted";
  /** checked at decode: a string; trusted otherwise */
  readonly requestId: string;
};

/** A decoded `turn-delivery-cancelled` value. */
export type TurnDeliveryCancelled = {
  readonly kind: "turn-delivery-cancelled";
  /** checked at decode: a string; trusted otherwise */
  readonly requestId: string;
};

/**
 * A decoded turn-control value (contract §4, §15): one per kind. Decode checks the version, the
 * kind and the envelope (each declared top-level field's JSON type, as each field says);
 * everything inside those fields is trusted as the validating encoder wrote it.
 */
export type TurnControlValue =
  | TurnResult
  | TurnError
  | TurnContinuationToken
  | TurnDeliveryRequest
  | TurnDeliveryAccepted
  | TurnDeliveryCancelled;

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

/** Why a turn-control value could not be decoded. The only error `decode` throws. */
export declare class TurnControlWireError extends WireError {
  readonly name: "TurnControlWireError";
  readonly family: "turn-control";
}

/** The current turn-control wire version. */
export declare const WIRE_VERSION: 1;
/** The key of the driver's capabilities that says what it reads. */
export declare const CAPABILITY_KEY: "turnControlWireVersion";
/**
 * What a session driver of this build advertises in the turn workflow's input:
 * `{ turnControlWireVersion: 1 }`.
 */
export declare function driverCapabilities(): { readonly turnControlWireVersion: 1 };
/**
 * Decode a turn-control value of any version: a fresh normalized object whose `action` and
 * other subtrees are the input's own references. Throws TurnControlWireError, and nothing else.
 */
export declare function decode(value: unknown): TurnControlValue;
/**
 * The same decoder as a Standard Schema v1: `validate(value)` answers `{ value: decode(value) }`,
 * or `{ issues }` for what decode throws as a TurnControlWireError.
 */
export declare const standardSchema: HookwireSchema<unknown, TurnControlValue>;
/** The decoder's own resources, for soak tests: wasm memory bytes and value handles held. */
export declare function memoryStats(): { readonly memoryBytes: number; readonly tableSlots: number; readonly handles: number };
