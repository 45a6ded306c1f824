//! Generated JS: the contract constants and message templates the package entry needs
//! (`js/contract.js`) and the TypeScript declarations of the package (`js/hookwire.d.ts`), both
//! rendered from the Rust sources of truth so neither can drift. Tests compare the committed
//! files with these renderings; `HOOKWIRE_BLESS=1 cargo test` rewrites them.

use crate::decode::Check;
use crate::decode::KindSpec;
use crate::error::{message_template, ErrorCode, What};
use crate::session_inbox::{producer_version, symbols::SYMBOLS, HOOK_METADATA_KEY, KINDS, WIRE_VERSION};
use crate::shape::{named_defs, typescript, Shape};
use std::fmt::Write as _;

const HEADER: &str = "Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.";

fn js_string(s: &str) -> String {
    crate::canonical::to_string(&serde_json::Value::String(s.into()))
}

/// `js/contract.js`: the symbol table, codes and details by their `repr`, the decode message
/// templates (the first six codes are the decoder's), constants.
pub fn contract_js() -> String {
    let mut codes = vec![String::from("\"\"")];
    codes.extend(ErrorCode::ALL.iter().map(|c| js_string(c.as_str())));
    let details: Vec<String> = What::ALL.iter().map(|d| js_string(d.text())).collect();
    let messages: Vec<String> = ErrorCode::DECODE
        .iter()
        .map(|c| format!("  {}: {},", c.as_str(), js_string(message_template(*c))))
        .collect();
    let mut out = format!("// {HEADER}\n");
    let _ = writeln!(out, "export const WIRE_VERSION = {WIRE_VERSION};");
    let _ = writeln!(
        out,
        "export const HOOK_METADATA_KEY = {};",
        js_string(HOOK_METADATA_KEY)
    );
    let symbols: Vec<String> = SYMBOLS.iter().map(|s| js_string(s)).collect();
    let _ = writeln!(out, "export const SYMBOLS = [{}];", symbols.join(", "));
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

fn type_name(kind: &str) -> String {
    let mut out = String::from("SessionInbox");
    for word in kind.split('-') {
        let mut c = word.chars();
        if let Some(first) = c.next() {
            out.extend(first.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    out
}

/// The current wire shape and its variants (`SessionInboxDeliverV6`, …).
fn current_wire() -> &'static Shape {
    producer_version(WIRE_VERSION).wire
}

/// Whether `d` is the current wire shape or one of its variants (the encoder's declarations
/// render those; the decoder's render the decoded values instead).
fn is_wire_variant(d: &crate::shape::Def) -> bool {
    let Shape::Named(wire) = current_wire() else {
        return false;
    };
    let Shape::Tagged { variants, .. } = &wire.shape else {
        return false;
    };
    std::ptr::eq(*wire, d)
        || variants
            .iter()
            .any(|v| matches!(v, Shape::Named(x) if std::ptr::eq(*x, d)))
}

/// What the envelope check of contract §15 checks of a field, for the declarations.
fn checked(check: Check) -> &'static str {
    match check {
        Check::Any => "trusted as the encoder wrote it",
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

/// The variant of the current wire shape whose `kind` is `kind`, as its object fields.
fn variant_fields(kind: &str) -> &'static [crate::shape::Field] {
    let Shape::Named(def) = current_wire() else { return &[] };
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

fn decoded_type(spec: &KindSpec) -> (String, String) {
    let kind = SYMBOLS[spec.kind.0 as usize];
    let fields = variant_fields(kind);
    let mut body = format!("{{\n  readonly kind: \"{kind}\";\n");
    for field in spec.fields {
        let name = SYMBOLS[field.key.0 as usize];
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
    (type_name(kind), body)
}

/// `js/hookwire.d.ts`: the package's declarations, decoded values typed as contract §4's union.
pub fn typescript_declarations() -> String {
    let mut out = format!("// {HEADER}\n\n");
    out.push_str("/** Any JSON value. */\nexport type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;\n");
    out.push_str(
        "/** A plain object of JSON values. */\nexport type JsonObject = { readonly [key: string]: JsonValue };\n",
    );
    out.push_str("/** Binary data: a string in JSON; passed through unchanged in JS. */\nexport type Binary = string | Uint8Array | ArrayBuffer | URL;\n\n");
    for d in named_defs(current_wire()) {
        if is_wire_variant(d) {
            continue;
        }
        render_def(&mut out, d);
    }
    let mut names = Vec::new();
    for spec in KINDS {
        let (name, body) = decoded_type(spec);
        let _ = writeln!(
            out,
            "/** A decoded `{}` value. */\nexport type {name} = {body};\n",
            SYMBOLS[spec.kind.0 as usize]
        );
        names.push(name);
    }
    let _ = writeln!(
        out,
        "/**\n * A decoded session inbox value (contract §4, §11, §15): one per kind. Decode checks the\n * version, the kind and the envelope (each declared top-level field's JSON type, as each field\n * says); everything inside those fields is trusted as the validating encoder wrote it.\n */\nexport type SessionInboxValue =\n  | {};\n",
        names.join("\n  | ")
    );
    let codes: Vec<String> = ErrorCode::ALL.iter().map(|c| format!("\"{}\"", c.as_str())).collect();
    let _ = writeln!(
        out,
        "/** A stable error code. */\nexport type SessionInboxWireErrorCode = {};\n",
        codes.join(" | ")
    );
    let _ = write!(
        out,
        "/** Why a value could not be decoded. The only error `decode` throws. */
export declare class SessionInboxWireError extends Error {{
  readonly name: \"SessionInboxWireError\";
  readonly code: SessionInboxWireErrorCode;
  /** The version involved, when there is one (the value's, or the version that cannot carry it). */
  readonly version?: number;
  /** INVALID (and INCOMPATIBLE from the encoder): a JSON pointer to the offending place. */
  readonly path?: string;
  /** INVALID: what was expected there. */
  readonly expected?: string;
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
/** The decoder's own resources, for soak tests: wasm memory bytes and externref table slots. */
export declare function memoryStats(): {{ readonly memoryBytes: number; readonly tableSlots: number }};
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
    out.push_str("import type { AuthContext, Caller, DeliverPayload, DeliveryEntry, SessionInboxWireError } from \"./hookwire.cjs\";\n");
    out.push_str("export { HOOK_METADATA_KEY, SessionInboxWireError, WIRE_VERSION } from \"./hookwire.cjs\";\n\n");
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
",
        controls = controls.join(" | ")
    );
    out
}
