//! Generated JS: the contract constants and message templates the package entry needs
//! (`js/contract.js`) and the TypeScript declarations of the package (`js/hookwire.d.ts`), both
//! rendered from the Rust sources of truth so neither can drift. Tests compare the committed
//! files with these renderings; `HOOKWIRE_BLESS=1 cargo test` rewrites them.

use crate::decode::KindSpec;
use crate::error::{message_template, ErrorCode, What};
use crate::session_inbox::{symbols::SYMBOLS, v1, HOOK_METADATA_KEY, KINDS, WIRE_VERSION};
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

/// The variant of the v1 wire shape whose `kind` is `kind`, as its object fields.
fn variant_fields(kind: &str) -> &'static [crate::shape::Field] {
    let Shape::Named(def) = &v1::WIRE else { return &[] };
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
                "  readonly {name}{}: {};",
                if f.required { "" } else { "?" },
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
    for d in named_defs(&v1::WIRE) {
        if d.id.starts_with("SessionInbox.V1") {
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
        "/** A decoded session inbox value (contract §4): one per kind. */\nexport type SessionInboxValue =\n  | {};\n",
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
  /** The version involved, when there is one. */
  readonly version?: number;
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

/// `js/encoder.d.ts`: the encoder entry's declarations (commands, targets, wire values).
pub fn encoder_declarations() -> String {
    let mut out = format!("// {HEADER}\n\n");
    out.push_str("import type { AuthContext, Caller, DeliverPayload, DeliveryEntry, SessionInboxWireError } from \"./hookwire.cjs\";\n");
    out.push_str("export { HOOK_METADATA_KEY, SessionInboxWireError, WIRE_VERSION } from \"./hookwire.cjs\";\n\n");
    let mut variants = Vec::new();
    for d in named_defs(&v1::WIRE) {
        if d.id.starts_with("SessionInbox.V1.") {
            render_def(&mut out, d);
            variants.push(d.name);
        }
    }
    let _ = writeln!(
        out,
        "/** A version 1 wire value, as the encoder writes it. */\nexport type SessionInboxWireV1 = {};\n",
        variants.join(" | ")
    );
    let controls: Vec<String> = variants
        .iter()
        .filter(|n| **n != "SessionInboxDeliverV1")
        .map(|n| format!("Omit<{n}, \"version\">"))
        .collect();
    let _ = write!(
        out,
        "type Carried = {{ readonly auth?: AuthContext | null; readonly caller?: Caller; readonly requestId?: string; readonly taskDeliveryId?: string; readonly turnPolicy?: \"queue\" | \"steer\" }};
/** The send command: one payload, built field by field into a deliver. */
export type SendCommand = Carried & {{ readonly kind: \"send\"; readonly payload: DeliverPayload; readonly delivery?: Omit<DeliveryEntry, \"payloadIndex\"> }};
/** The deliver command: the v1 deliver fields without version and mirror. */
export type DeliverCommand = Omit<SessionInboxDeliverV1, \"version\" | \"payload\">;
/** A control command. */
export type ControlCommand = {controls};
/** Any command the encoder takes (contract §5.1). */
export type SessionInboxCommand = SendCommand | DeliverCommand | ControlCommand;

/** An encoding target. */
export type SessionInboxTarget = {{ readonly version: {WIRE_VERSION} }} | {{ readonly version: 0; readonly variant: \"deliver\" | \"send\" }};
/** The legacy deliver envelope (v0 `deliver` target). */
export type LegacyDeliverEnvelope = DeliverCommand;
/** The raw send command (v0 `send` target). */
export type RawSendCommand = SendCommand;
/** Any wire value the encoder writes. */
export type SessionInboxWire = SessionInboxWireV1 | LegacyDeliverEnvelope | RawSendCommand | ControlCommand;

/** The INVALID error carries where and what was expected. */
export type InvalidError = SessionInboxWireError & {{ readonly code: \"INVALID\"; readonly path: string; readonly expected: string }};

/**
 * Build the complete v1 value, validate it once, convert it down for a v0 target (default: the
 * current version). Binary values at a part's image or data come back as the same objects.
 * Throws SessionInboxWireError: INVALID (with path and expected) or UNSUPPORTED_TARGET.
 */
export declare function encode(command: SessionInboxCommand, target?: SessionInboxTarget): SessionInboxWire;

/** What negotiation reads of a hook. */
export interface InspectedHook {{ readonly token: string; readonly runId: string; readonly metadata?: unknown }}
/** Where a command goes: a hook token, or a saved receiver address. */
export type Destination = {{ readonly token: string }} | {{ readonly address: {{ readonly sessionId: string; readonly version: number }} }};
/** The stable inbox token form. */
export interface InboxTokens {{ readonly prefix?: string; readonly suffix?: string }}
/** The outcome of negotiation: the target, the lookups made, and what to resume. */
export interface Negotiated<H extends InspectedHook> {{
  readonly target: SessionInboxTarget;
  readonly lookups: 0 | 1 | 2;
  readonly resume: {{ readonly hook: H }} | {{ readonly token: string }};
}}
/**
 * Choose the target a receiver understands (contract §6); `lookup` is the caller's getHookByToken.
 * Rejects with SessionInboxWireError (UNSUPPORTED_TARGET, RUN_MISMATCH) before anything is written.
 */
export declare function negotiate<H extends InspectedHook>(
  command: {{ readonly kind: string }},
  destination: Destination,
  lookup: (token: string) => H | null | undefined | Promise<H | null | undefined>,
  tokens?: InboxTokens,
): Promise<Negotiated<H>>;
/** The stable inbox token of a run. */
export declare function stableInboxToken(runId: string, tokens?: InboxTokens): string;
",
        controls = controls.join(" | ")
    );
    out
}
