//! Generated JS, per family: the contract constants and message templates a decoder entry needs
//! (`js/contract.js`, `js/turn-control-contract.js`) and the TypeScript declarations of the
//! package (`js/hookwire.d.ts`, `js/turn-control.d.ts`, `js/encoder.d.ts`), all rendered from the
//! Rust sources of truth so none can drift. Tests compare the committed files with these
//! renderings; `HOOKWIRE_BLESS=1 cargo test` rewrites them.

use crate::decode::Check;
use crate::decode::KindSpec;
use crate::error::{message_template, ErrorCode, What};
use crate::family::FamilyDesc;
use crate::session_inbox::{producer_version, HOOK_METADATA_KEY, WIRE_VERSION};
use crate::shape::{named_defs, typescript, Shape};
use std::fmt::Write as _;

/// What the generators need of a family's decoder.
pub struct Decoded {
    /// The family.
    pub family: &'static FamilyDesc,
    /// The kinds and projected fields of its current version.
    pub kinds: &'static [KindSpec],
    /// The prefix of its decoded types' names (`SessionInbox` → `SessionInboxDeliver`).
    pub prefix: &'static str,
    /// The details only its own steps and declared-version checks produce (the chain's, the
    /// hosts' and its envelope checks' are derived): the other details are emitted as `""` in its
    /// tables, keeping their positions (`tests/generated.rs` checks this list against the
    /// family's sources).
    pub details: &'static [What],
}

impl Decoded {
    fn current_wire(&self) -> &'static Shape {
        self.family.producer[self.family.producer.len() - 1].wire
    }
}

/// The session inbox's decoder, for the generators.
pub const SESSION_INBOX: Decoded = Decoded {
    family: &crate::session_inbox::FAMILY,
    kinds: crate::session_inbox::KINDS,
    prefix: "SessionInbox",
    details: &[
        What::SendPayload,
        What::SendDelivery,
        What::DeliverPayloads,
        What::TaskOperations,
        What::CancelTasks,
        What::MissingMirror,
        What::OldInputRequest,
    ],
};

/// The turn-control decoder, for the generators.
pub const TURN_CONTROL: Decoded = Decoded {
    family: &crate::turn_control::FAMILY,
    kinds: crate::turn_control::KINDS,
    prefix: "",
    details: &[What::TurnResultAction],
};

const HEADER: &str = "Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.";

fn js_string(s: &str) -> String {
    crate::canonical::to_string(&serde_json::Value::String(s.into()))
}

/// Whether the family's decode can produce the detail `w`: the chain's and the hosts' (what was
/// found, unreadable values, the version rules) always; an envelope check's expectation when one
/// of its kinds' fields has that check; its own steps' and declared-version checks' details
/// (`Decoded::details`).
pub fn produces(d: &Decoded, w: What) -> bool {
    let mut fields = d.kinds.iter().flat_map(|k| k.fields.iter());
    let checked = |c: fn(Check) -> bool| d.kinds.iter().flat_map(|k| k.fields.iter()).any(|f| c(f.check));
    match w {
        What::Required => fields.any(|f| f.required),
        What::ExpectJson => checked(|c| c == Check::Json),
        What::ExpectString => checked(|c| c == Check::Str),
        What::ExpectBool => checked(|c| c == Check::Bool),
        What::ExpectObject => checked(|c| matches!(c, Check::Object | Check::ArrayOfObjects)),
        What::ExpectObjectOrNull => checked(|c| c == Check::ObjectOrNull),
        What::ExpectKindedObject => checked(|c| c == Check::KindedObject),
        What::ExpectArrayOfObjects => checked(|c| c == Check::ArrayOfObjects),
        What::ExpectEnum => checked(|c| matches!(c, Check::OneOf(_))),
        _ if (w as u8) <= What::StepWrongVersion as u8 => true,
        _ => d.details.contains(&w),
    }
}

/// `js/contract.js`: the session inbox's decoder tables.
pub fn contract_js() -> String {
    contract_js_for(&SESSION_INBOX)
}

/// A decoder entry's tables: the family and its error class, the symbol table, the kinds and
/// their fields, codes and
/// details by their `repr`, the decode message templates, the current version and the key a
/// consumer advertises it under.
pub fn contract_js_for(d: &Decoded) -> String {
    let f = d.family;
    let mut codes = vec![String::from("\"\"")];
    codes.extend(ErrorCode::ALL.iter().map(|c| js_string(c.as_str())));
    // Indexed by the detail's `repr`: what the family never produces is an empty text.
    let details: Vec<String> = What::ALL
        .iter()
        .map(|w| js_string(if produces(d, *w) { w.text() } else { "" }))
        .collect();
    let messages: Vec<String> = ErrorCode::DECODE
        .iter()
        .map(|c| format!("  {}: {},", c.as_str(), js_string(message_template(*c))))
        .collect();
    let mut out = format!("// {HEADER}\n");
    let _ = writeln!(out, "export const FAMILY = {};", js_string(f.name()));
    let _ = writeln!(out, "export const ERROR_CLASS = {};", js_string(f.error_class));
    let _ = writeln!(out, "export const WIRE_VERSION = {};", f.registry.current);
    let _ = writeln!(out, "export const CAPABILITY_KEY = {};", js_string(f.capability_key));
    let symbols: Vec<String> = f.symbols.iter().map(|s| js_string(s)).collect();
    let _ = writeln!(out, "export const SYMBOLS = [{}];", symbols.join(", "));
    // Each kind of the current version and the fields decode keeps, as symbols, in the decoder's
    // order: the wasm host reads and projects a kind's fields in one call each, by its position.
    let kinds: Vec<String> = d
        .kinds
        .iter()
        .map(|k| {
            let syms = core::iter::once(k.kind).chain(k.fields.iter().map(|f| f.key));
            let syms: Vec<String> = syms.map(|s| s.0.to_string()).collect();
            format!("[{}]", syms.join(", "))
        })
        .collect();
    let _ = writeln!(out, "export const KINDS = [{}];", kinds.join(", "));
    let _ = writeln!(out, "export const CODES = [{}];", codes.join(", "));
    let _ = writeln!(out, "export const DETAILS = [\n  {},\n];", details.join(",\n  "));
    let _ = writeln!(out, "export const MESSAGES = {{\n{}\n}};", messages.join("\n"));
    out
}

/// `export type Name = …;` for a named shape, with its doc and stable identifier.
fn render_def(out: &mut String, d: &crate::shape::Def) {
    let _ = writeln!(
        out,
        "/** {} ({}) */\nexport type {} = {};\n",
        d.doc,
        d.id,
        d.name,
        typescript(&d.shape)
    );
}

fn type_name(prefix: &str, kind: &str) -> String {
    let mut out = String::from(prefix);
    for word in kind.split('-') {
        let mut c = word.chars();
        if let Some(first) = c.next() {
            out.extend(first.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    out
}

/// The session inbox's current wire shape and its variants (`SessionInboxDeliverV6`, …).
fn current_wire() -> &'static Shape {
    producer_version(WIRE_VERSION).wire
}

/// Whether `d` is the wire shape `wire` or one of its variants (the encoder's declarations
/// render those; the decoder's render the decoded values instead).
fn is_variant_of(wire: &'static Shape, d: &crate::shape::Def) -> bool {
    let Shape::Named(w) = wire else { return false };
    let Shape::Tagged { variants, .. } = &w.shape else {
        return false;
    };
    std::ptr::eq(*w, d)
        || variants
            .iter()
            .any(|v| matches!(v, Shape::Named(x) if std::ptr::eq(*x, d)))
}

fn is_wire_variant(d: &crate::shape::Def) -> bool {
    is_variant_of(current_wire(), d)
}

/// What the envelope check of contract §15 checks of a field, for the declarations.
fn checked(check: Check) -> &'static str {
    match check {
        Check::Any => "trusted as the encoder wrote it",
        Check::Json => "checked at decode: a JSON value (its interior is trusted)",
        Check::Str => "checked at decode: a string; trusted otherwise",
        Check::Bool => "checked at decode: a boolean",
        Check::Object => "checked at decode: an object; its interior is trusted as the encoder wrote it",
        Check::ObjectOrNull => "checked at decode: an object or null; its interior is trusted as the encoder wrote it",
        Check::KindedObject => "checked at decode: an object with a string kind; its interior is trusted",
        Check::ArrayOfObjects => {
            "checked at decode: an array of objects; the objects' interiors are trusted as the encoder wrote them"
        }
        Check::OneOf(_) => "checked at decode: one of the declared strings",
    }
}

/// The variant of `wire` whose `kind` is `kind`, as its object fields.
fn variant_fields(wire: &'static Shape, kind: &str) -> &'static [crate::shape::Field] {
    let Shape::Named(def) = wire else { return &[] };
    let Shape::Tagged { variants, .. } = &def.shape else {
        return &[];
    };
    for v in variants.iter() {
        let Shape::Named(d) = v else { continue };
        let Shape::Object(f) = &d.shape else { continue };
        if f.fields
            .iter()
            .any(|x| x.name == "kind" && matches!(x.shape, Shape::Const(k) if *k == kind))
        {
            return f.fields;
        }
    }
    &[]
}

fn decoded_type(d: &Decoded, spec: &KindSpec) -> (String, String) {
    let kind = d.family.symbols[spec.kind.0 as usize];
    let fields = variant_fields(d.current_wire(), kind);
    let mut body = format!("{{\n  readonly kind: \"{kind}\";\n");
    for field in spec.fields {
        let name = d.family.symbols[field.key.0 as usize];
        if let Some(f) = fields.iter().find(|f| f.name == name) {
            let _ = writeln!(
                body,
                "  /** {} */\n  readonly {name}{}: {};",
                checked(field.check),
                if field.required { "" } else { "?" },
                typescript(f.shape)
            );
        }
    }
    body.push('}');
    (type_name(d.prefix, kind), body)
}

/// The shared head of a decoder entry's declarations: JSON types, the named shapes of the
/// current version, the decoded types and their union named `union`.
fn decoded_declarations(d: &Decoded, union: &str) -> String {
    let mut out = format!("// {HEADER}\n\n");
    out.push_str("/** Any JSON value. */\nexport type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;\n");
    out.push_str(
        "/** A plain object of JSON values. */\nexport type JsonObject = { readonly [key: string]: JsonValue };\n",
    );
    out.push_str("/** Binary data: a string in JSON; passed through unchanged in JS. */\nexport type Binary = string | Uint8Array | ArrayBuffer | URL;\n\n");
    for def in named_defs(d.current_wire()) {
        if is_variant_of(d.current_wire(), def) {
            continue;
        }
        render_def(&mut out, def);
    }
    let mut names = Vec::new();
    for spec in d.kinds {
        let (name, body) = decoded_type(d, spec);
        let _ = writeln!(
            out,
            "/** A decoded `{}` value. */\nexport type {name} = {body};\n",
            d.family.symbols[spec.kind.0 as usize]
        );
        names.push(name);
    }
    let _ = writeln!(
        out,
        "/**\n * A decoded {} value (contract §4, §15): one per kind. Decode checks the version, the\n * kind and the envelope (each declared top-level field's JSON type, as each field says);\n * everything inside those fields is trusted as the validating encoder wrote it.\n */\nexport type {union} =\n  | {};\n",
        d.family.name(),
        names.join("\n  | ")
    );
    let codes: Vec<String> = ErrorCode::ALL.iter().map(|c| format!("\"{}\"", c.as_str())).collect();
    let transport: Vec<String> = crate::error::TRANSPORT_CODES
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect();
    let _ = writeln!(
        out,
        "/** A stable error code of a value. */\nexport type WireErrorCode = {};\n/** A stable error code of the transport around a value (the encoder's and the command line's answers). */\nexport type TransportErrorCode = {};\n",
        codes.join(" | "),
        transport.join(" | ")
    );
    out.push_str(WIRE_ERROR_DECL);
    out
}

/// The base class every family's error class extends (one class in a realm, shared by every
/// decoder entry).
const WIRE_ERROR_DECL: &str = "/**
 * What `decode` throws, every time, in a context where the decoder cannot start: no WebAssembly
 * global, wasm code generation forbidden (a sandbox setting), or no TextEncoder to read the
 * inlined module. Its message names the cause; `cause` is the original exception.
 */
export interface HookwireStartError extends Error {
  readonly name: \"HookwireStartError\";
  readonly cause: unknown;
}

/**
 * The Standard Schema v1 interface (https://standardschema.dev), declared here so that the package
 * depends on nothing: structurally the `StandardSchemaV1<Input, Output>` of `@standard-schema/spec`.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly \"~standard\": StandardSchemaV1.Props<Input, Output>;
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
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema[\"~standard\"][\"types\"]>[\"input\"];
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema[\"~standard\"][\"types\"]>[\"output\"];
}

/**
 * A hookwire Standard Schema: `validate` is synchronous and answers `{ value }` or
 * `{ issues: [{ message, path }] }` — the message starts with the error's code, and the path is its
 * JSON pointer as keys and array indexes (absent when the error has no pointer). `types` is for
 * type inference only, as the specification says: it is not there at run time.
 */
export interface HookwireSchema<Input, Output> extends StandardSchemaV1<Input, Output> {
  readonly \"~standard\": Omit<StandardSchemaV1.Props<Input, Output>, \"vendor\" | \"validate\"> & {
    readonly vendor: \"hookwire\";
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output>;
  };
}

/** The base of every family's error class: one class, shared by every hookwire entry in a realm. */
export declare class WireError extends Error {
  /** The family whose value could not be decoded or encoded (`session-inbox`, `turn-control`). */
  readonly family: string;
  readonly code: WireErrorCode | TransportErrorCode;
  /** The version involved, when there is one (the value's, or the version that cannot carry it). */
  readonly version?: number;
  /** INVALID (and INCOMPATIBLE from the encoder): a JSON pointer to the offending place. */
  readonly path?: string;
  /** INVALID: what was expected there. */
  readonly expected?: string;
}

";

/// `js/turn-control.d.ts`: the turn-control decoder entry's declarations.
pub fn turn_control_declarations() -> String {
    let d = &TURN_CONTROL;
    let current = d.family.registry.current;
    let key = d.family.capability_key;
    let mut out = decoded_declarations(d, "TurnControlValue");
    let _ = write!(
        out,
        "/** Why a turn-control value could not be decoded. The only error `decode` throws. */
export declare class TurnControlWireError extends WireError {{
  readonly name: \"TurnControlWireError\";
  readonly family: \"turn-control\";
}}

/** The current turn-control wire version. */
export declare const WIRE_VERSION: {current};
/** The key of the driver's capabilities that says what it reads. */
export declare const CAPABILITY_KEY: \"{key}\";
/**
 * What a session driver of this build advertises in the turn workflow's input:
 * `{{ {key}: {current} }}`.
 */
export declare function driverCapabilities(): {{ readonly {key}: {current} }};
/**
 * Decode a turn-control value of any version: a fresh normalized object whose `action` and
 * other subtrees are the input's own references. Throws TurnControlWireError, and nothing else.
 */
export declare function decode(value: unknown): TurnControlValue;
/**
 * The same decoder as a Standard Schema v1: `validate(value)` answers `{{ value: decode(value) }}`,
 * or `{{ issues }}` for what decode throws as a TurnControlWireError.
 */
export declare const standardSchema: HookwireSchema<unknown, TurnControlValue>;
/** The decoder's own resources, for soak tests: wasm memory bytes and value handles held. */
export declare function memoryStats(): {{ readonly memoryBytes: number; readonly tableSlots: number; readonly handles: number }};
"
    );
    out
}

/// `js/hookwire.d.ts`: the package's main entry, decoded values typed as contract §4's union.
pub fn typescript_declarations() -> String {
    let mut out = decoded_declarations(&SESSION_INBOX, "SessionInboxValue");
    out.push_str("/** The stable error codes (every family shares them). */\nexport type SessionInboxWireErrorCode = WireErrorCode | TransportErrorCode;\n\n");
    let _ = write!(
        out,
        "/** Why a session inbox value could not be decoded. The only error `decode` throws. */
export declare class SessionInboxWireError extends WireError {{
  readonly name: \"SessionInboxWireError\";
  readonly family: \"session-inbox\";
}}

/** The current session inbox wire version. */
export declare const WIRE_VERSION: {WIRE_VERSION};
/** The hook metadata key a consumer stamps at createHook. */
export declare const HOOK_METADATA_KEY: \"{HOOK_METADATA_KEY}\";
/** The metadata to pass to createHook: `{{ {HOOK_METADATA_KEY}: {WIRE_VERSION} }}`. */
export declare function hookMetadata(): {{ readonly {HOOK_METADATA_KEY}: {WIRE_VERSION} }};
/**
 * Decode a session inbox value of any version: a fresh normalized object whose opaque subtrees
 * are the input's own references. Throws SessionInboxWireError, and nothing else.
 */
export declare function decode(value: unknown): SessionInboxValue;
/**
 * The same decoder as a Standard Schema v1: `validate(value)` answers `{{ value: decode(value) }}`,
 * or `{{ issues }}` for what decode throws as a SessionInboxWireError.
 */
export declare const standardSchema: HookwireSchema<unknown, SessionInboxValue>;
/** The decoder's own resources, for soak tests: wasm memory bytes, externref table slots, and the value handles held between decodes (0). */
export declare function memoryStats(): {{ readonly memoryBytes: number; readonly tableSlots: number; readonly handles: number }};
"
    );
    out
}

fn wire_def() -> &'static crate::shape::Def {
    match current_wire() {
        Shape::Named(d) => d,
        _ => unreachable!("every wire shape is a named def"),
    }
}

/// `js/encoder.d.ts`: the encoder entry's declarations (commands, targets, wire values).
pub fn encoder_declarations() -> String {
    let mut out = format!("// {HEADER}\n\n");
    out.push_str("import type { AuthContext, Caller, DeliverPayload, DeliveryEntry, HookwireSchema, SessionInboxWireError } from \"./hookwire.cjs\";\n");
    out.push_str("import type { TurnControlValue } from \"./turn-control.cjs\";\n");
    out.push_str(
        "export { HOOK_METADATA_KEY, SessionInboxWireError, WireError, WIRE_VERSION } from \"./hookwire.cjs\";\n",
    );
    out.push_str("export { TurnControlWireError } from \"./turn-control.cjs\";\n\n");
    let mut variants = Vec::new();
    for d in named_defs(current_wire()) {
        if is_wire_variant(d) && !std::ptr::eq(d, wire_def()) {
            render_def(&mut out, d);
            variants.push(d.name);
        }
    }
    let current = format!("SessionInboxWireV{WIRE_VERSION}");
    let _ = writeln!(
        out,
        "/** A version {WIRE_VERSION} wire value, as the encoder writes it. */\nexport type {current} = {};\n",
        variants.join(" | ")
    );
    let deliver = format!("SessionInboxDeliverV{WIRE_VERSION}");
    let controls: Vec<String> = variants
        .iter()
        .filter(|n| **n != deliver)
        .map(|n| format!("Omit<{n}, \"version\">"))
        .collect();
    let versions: Vec<String> = (1..=WIRE_VERSION).map(|n| n.to_string()).collect();
    let versions = versions.join(" | ");
    let _ = write!(
        out,
        "type Carried = {{ readonly auth?: AuthContext | null; readonly caller?: Caller; readonly requestId?: string; readonly taskDeliveryId?: string; readonly turnPolicy?: \"queue\" | \"steer\" }};
/** The send command: one payload, built field by field into a deliver. */
export type SendCommand = Carried & {{ readonly kind: \"send\"; readonly payload: DeliverPayload; readonly delivery?: Omit<DeliveryEntry, \"payloadIndex\"> }};
/** The deliver command: the current deliver fields without version and mirror. */
export type DeliverCommand = Omit<{deliver}, \"version\" | \"payload\">;
/** A control command. */
export type ControlCommand = {controls};
/** Any command the encoder takes (contract §5.1, §12). */
export type SessionInboxCommand = SendCommand | DeliverCommand | ControlCommand;

/** A version this build writes. */
export type SessionInboxVersion = {versions};
/** An encoding target: a version, or one of the two shapes of the unversioned era. */
export type SessionInboxTarget = {{ readonly version: SessionInboxVersion }} | {{ readonly version: 0; readonly variant: \"deliver\" | \"send\" }};
/**
 * A wire value as the encoder writes it for version N. Everything the encoder writes for an older
 * version is a value of the current shape minus what the down steps drop, so it is typed as the
 * current shape declaring N.
 */
export type SessionInboxWireAt<N extends SessionInboxVersion> = {current} extends infer W ? (W extends {{ readonly version: number }} ? Omit<W, \"version\"> & {{ readonly version: N }} : never) : never;
/** The legacy deliver envelope (v0 `deliver` target). */
export type LegacyDeliverEnvelope = DeliverCommand;
/** The raw send command (v0 `send` target). */
export type RawSendCommand = SendCommand;
/** Any wire value the encoder writes. */
export type SessionInboxWire = {current} | SessionInboxWireAt<SessionInboxVersion> | LegacyDeliverEnvelope | RawSendCommand | ControlCommand;
/** The wire value `encode` returns for a target. */
export type WireFor<T extends SessionInboxTarget> = T extends {{ readonly variant: \"send\" }}
  ? RawSendCommand | ControlCommand
  : T extends {{ readonly variant: \"deliver\" }}
    ? LegacyDeliverEnvelope | ControlCommand
    : T extends {{ readonly version: infer N extends SessionInboxVersion }}
      ? SessionInboxWireAt<N>
      : SessionInboxWire;

/** The INVALID error carries where and what was expected. */
export type InvalidError = SessionInboxWireError & {{ readonly code: \"INVALID\"; readonly path: string; readonly expected: string }};
/** The INCOMPATIBLE error carries the refused field and the version that cannot carry it. */
export type IncompatibleError = SessionInboxWireError & {{ readonly code: \"INCOMPATIBLE\"; readonly path: string; readonly version: number }};

/**
 * Build the complete current value, validate it once, walk it down to the target's version and
 * validate it against that version's frozen shape; a v0 target is converted from version 1
 * (default target: the current version). Binary values at a part's image or data come back as
 * the same objects. Throws SessionInboxWireError: INVALID (with path and expected),
 * INCOMPATIBLE (with path and version: nothing is ever dropped to make a value fit) or
 * UNSUPPORTED_TARGET.
 */
export declare function encode<const T extends SessionInboxTarget = {{ readonly version: {WIRE_VERSION} }}>(command: SessionInboxCommand, target?: T): WireFor<T>;

/** What negotiation reads of a hook. */
export interface InspectedHook {{ readonly token: string; readonly runId: string; readonly metadata?: unknown }}
/** Where a command goes: a hook token, or a saved receiver address. */
export type Destination = {{ readonly token: string }} | {{ readonly address: {{ readonly sessionId: string; readonly version: number }} }};
/** The producer's configuration. */
export interface NegotiateOptions {{
  /** The newest version to write (a rollout that must stay rollback-safe): 1 … {WIRE_VERSION}; default {WIRE_VERSION}. */
  readonly writeAtMost?: SessionInboxVersion;
  /** The stable inbox token template, with one `{{runId}}`; default `eve:session:{{runId}}:inbox`. */
  readonly stableInboxToken?: string;
}}
/** The outcome of negotiation: the target, the lookups made, and what to resume. */
export interface Negotiated<H extends InspectedHook> {{
  readonly target: SessionInboxTarget;
  readonly lookups: 0 | 1 | 2;
  readonly resume: {{ readonly hook: H }} | {{ readonly token: string }};
}}
/**
 * Choose the target a receiver understands (contract §12). `lookup` is the caller's
 * getHookByToken: it resolves to the hook, or to null/undefined when there is none; if it throws
 * or rejects, negotiation refuses with LOOKUP_FAILED (a failure is never taken for \"not found\";
 * do not catch it into null). The rules run in the wasm module; this function only performs the
 * lookups it asks for. Rejects with SessionInboxWireError (UNSUPPORTED_TARGET, RUN_MISMATCH,
 * HOOK_NOT_FOUND, LOOKUP_FAILED) before anything is written.
 */
export declare function negotiate<H extends InspectedHook>(
  command: SessionInboxCommand | {{ readonly kind: string }},
  destination: Destination,
  lookup: (token: string) => H | null | undefined | Promise<H | null | undefined>,
  options?: NegotiateOptions,
): Promise<Negotiated<H>>;
/** The stable inbox token of a run (`template` defaults to `eve:session:{{runId}}:inbox`). */
export declare function stableInboxToken(runId: string, template?: string): string;

/** A turn-control command: the wire value without `version`. */
export type TurnControlCommand = TurnControlValue;
/** A turn-control target: version {tc} or, for a driver without the capability, 0. */
export type TurnControlTarget = {{ readonly version: {tc_versions} }};
/** The wire value for a target version: version 0 carries no `version` key (distributes over a union of versions). */
export type TurnControlWireFor<N extends number> = N extends 0 ? TurnControlValue : TurnControlValue & {{ readonly version: N }};
/** Turn control (contract §14), for the turn workflow. Throws TurnControlWireError. */
export declare const turnControl: {{
  readonly WIRE_VERSION: {tc};
  /** The value for the target (default: the current version); `action` is the command's own object. */
  encode<const T extends TurnControlTarget = {{ readonly version: {tc} }}>(command: TurnControlCommand, target?: T): TurnControlWireFor<T[\"version\"]>;
  /** The target for a driver's capabilities (`{{ turnControlWireVersion: N }}`, or anything else for an older driver). */
  negotiate(capabilities: unknown, options?: {{ readonly writeAtMost?: {tc} }}): TurnControlTarget;
}};

/**
 * The producer side as a Standard Schema v1, for the Workflow SDK's `defineHook({{ schema }})`:
 * `validate(command)` encodes the command for the fixed `target` (default: the current version)
 * and answers `{{ value }}`, the wire value that `resume` then persists, or `{{ issues }}` (the
 * message starts with the code; the path is the error's pointer in the command). An unsupported
 * target throws UNSUPPORTED_TARGET here, once.
 */
export declare function encoderSchema<const T extends SessionInboxTarget = {{ readonly version: {WIRE_VERSION} }}>(options?: {{
  readonly target?: T;
  readonly family?: \"session-inbox\";
}}): HookwireSchema<SessionInboxCommand, WireFor<T>>;
/** Turn control's producer side as a Standard Schema v1 (`family: \"turn-control\"`). */
export declare function encoderSchema<const T extends TurnControlTarget = {{ readonly version: {tc} }}>(options: {{
  readonly target?: T;
  readonly family: \"turn-control\";
}}): HookwireSchema<TurnControlCommand, TurnControlWireFor<T[\"version\"]>>;
",
        controls = controls.join(" | "),
        tc = crate::turn_control::WIRE_VERSION,
        tc_versions = (0..=crate::turn_control::WIRE_VERSION).map(|n| n.to_string()).collect::<Vec<_>>().join(" | "),
    );
    out
}

/// `js/module.d.ts` or `js/turn-control-module.d.ts`: a precompiled-module entry's declarations,
/// the inline entry's (`from`, e.g. `./hookwire.cjs`) plus `init`.
pub fn module_declarations(from: &str, wasm: &str) -> String {
    format!(
        "// {HEADER}

export * from \"{from}\";

/**
 * Start the decoder on `module`: this package's `{wasm}` as a precompiled
 * `WebAssembly.Module` (what workerd, edge runtimes and bundlers give for an imported `.wasm`), or
 * its bytes where the runtime compiles wasm from bytes. Synchronous. Until it has succeeded,
 * `decode` throws a HookwireStartError; so does `init` when the decoder cannot start on `module`.
 */
export declare function init(module: WebAssembly.Module | ArrayBuffer | ArrayBufferView): void;
"
    )
}
