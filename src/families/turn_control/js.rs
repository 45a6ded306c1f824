//! Turn control in JS, for the generators (`crate::jsgen`): the end of its decoder entry's
//! declarations and its part of the encoder's declarations.

use crate::family::JsFace;
use crate::What;
use std::fmt::Write as _;

/// Turn control's face in JS.
pub const JS: JsFace = JsFace {
    prefix: "",
    union: "TurnControlValue",
    details: &[What::TurnResultAction],
    declarations,
    encoder_head: ENCODER_HEAD,
    encoder_declarations,
    producer_tables: || serde_json::json!({}),
};

/// The end of `js/turn-control.d.ts`: the error class, the constants, `driverCapabilities`,
/// `decode` and its Standard Schema.
pub fn declarations() -> String {
    let current = crate::turn_control::WIRE_VERSION;
    let key = crate::turn_control::CAPABILITY_KEY;
    let mut out = String::new();
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

/// Its lines at the head of `js/encoder.d.ts`.
pub const ENCODER_HEAD: &str = "import type { TurnControlValue } from \"./turn-control.cjs\";
export { TurnControlWireError } from \"./turn-control.cjs\";
";

/// Its part of `js/encoder.d.ts`: commands, targets, `turnControl` and its `encoderSchema`
/// overload.
pub fn encoder_declarations() -> String {
    let tc = crate::turn_control::WIRE_VERSION;
    let tc_versions = (0..=tc).map(|n| n.to_string()).collect::<Vec<_>>().join(" | ");
    format!(
        "
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

/** Turn control's producer side as a Standard Schema v1 (`family: \"turn-control\"`). */
export declare function encoderSchema<const T extends TurnControlTarget = {{ readonly version: {tc} }}>(options: {{
  readonly target?: T;
  readonly family: \"turn-control\";
}}): HookwireSchema<TurnControlCommand, TurnControlWireFor<T[\"version\"]>>;
"
    )
}
