//! The session inbox in JS, for the generators (`crate::jsgen`): the end of its decoder entry's
//! declarations, its part of the encoder's declarations, and its producer facts for the JS
//! encoder (where a send's fields land in the wire value, the stable inbox token's default).

use crate::family::JsFace;
use crate::session_inbox::target::InboxTokens;
use crate::session_inbox::{producer_version, HOOK_METADATA_KEY, WIRE_VERSION};
use crate::shape::{is_variant_of, named_defs, render_ts_def, typescript, variant_fields, Shape};
use crate::What;
use std::fmt::Write as _;

/// The session inbox's face in JS.
pub const JS: JsFace = JsFace {
    prefix: "SessionInbox",
    union: "SessionInboxValue",
    details: &[
        What::SendPayload,
        What::SendDelivery,
        What::DeliverPayloads,
        What::TaskOperations,
        What::CancelTasks,
        What::MissingMirror,
        What::OldInputRequest,
    ],
    declarations,
    encoder_head: ENCODER_HEAD,
    encoder_declarations,
    producer_tables,
};

/// Its producer facts for the JS encoder: the command that becomes another kind of wire value
/// and where its fields land there (`send` → `deliver`: the command's pointer prefix → the
/// wire's, as `build` places them), and the stable inbox token's default template.
pub fn producer_tables() -> serde_json::Value {
    serde_json::json!({
        "commands": {"send": {"becomes": "deliver", "places": crate::session_inbox::build::SEND_PLACES}},
        "stableInboxToken": InboxTokens::DEFAULT_TEMPLATE,
    })
}

/// The end of `js/hookwire.d.ts` (the package's main entry): the error class, the constants,
/// `hookMetadata`, `decode` and its Standard Schema.
pub fn declarations() -> String {
    let mut out = String::new();
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

/// Its lines at the head of `js/encoder.d.ts`.
pub const ENCODER_HEAD: &str = "import type { AuthContext, Caller, DeliverPayload, DeliveryEntry, HookwireSchema, SessionInboxWireError } from \"./hookwire.cjs\";
export { HOOK_METADATA_KEY, SessionInboxWireError, WireError, WIRE_VERSION } from \"./hookwire.cjs\";
";

/// The fields a send carries into the deliver it becomes (`build::CARRIED_KEYS`), typed as the
/// current deliver declares them.
fn carried(wire: &'static Shape) -> String {
    let deliver = variant_fields(wire, "deliver");
    crate::session_inbox::build::CARRIED_KEYS
        .iter()
        .filter_map(|key| {
            let field = deliver.iter().find(|x| x.name == *key)?;
            Some(format!("readonly {key}?: {};", typescript(field.shape)))
        })
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(';')
        .to_string()
}

/// Its part of `js/encoder.d.ts`: the current wire variants, commands, targets, `encode`,
/// `negotiate`, `stableInboxToken` and its `encoderSchema` overload.
pub fn encoder_declarations() -> String {
    let wire = producer_version(WIRE_VERSION).wire;
    let Shape::Named(wire_def) = wire else {
        return String::new();
    };
    let mut out = String::new();
    let mut variants = Vec::new();
    for d in named_defs(wire) {
        if is_variant_of(wire, d) && !std::ptr::eq(d, *wire_def) {
            render_ts_def(&mut out, d);
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
        "type Carried = {{ {carried} }};
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
 * do not catch it into null), as it does for a hook whose metadata nests more than 1,000 levels
 * deep. The rules run in the wasm module; this function only performs the lookups it asks for.
 * Rejects with SessionInboxWireError (UNSUPPORTED_TARGET, RUN_MISMATCH, HOOK_NOT_FOUND,
 * LOOKUP_FAILED) before anything is written.
 */
export declare function negotiate<H extends InspectedHook>(
  command: SessionInboxCommand | {{ readonly kind: string }},
  destination: Destination,
  lookup: (token: string) => H | null | undefined | Promise<H | null | undefined>,
  options?: NegotiateOptions,
): Promise<Negotiated<H>>;
/** The stable inbox token of a run (`template` defaults to `eve:session:{{runId}}:inbox`). */
export declare function stableInboxToken(runId: string, template?: string): string;

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
",
        controls = controls.join(" | "),
        carried = carried(wire),
    );
    out
}
