//! The turn-control family (contract §14): what the turn workflow — often on a newer deployment
//! — writes to the control hook its pinned session driver parks on for each turn
//! (`<sessionId>:turn-control:<n>`): the turn's result, an error, a continuation token, delivery
//! requests and their outcome. The direction is the reverse of the session inbox: the producer is
//! usually the newer side, and the driver says what it reads in the turn workflow's input
//! (`driverCapabilities.turnControlWireVersion`), not in hook metadata.
//!
//! `symbols` and `v0_to_v1` are all its decoder needs; `v0`, `v1`, `encode` and `target` are the
//! producer side (`std`).

#[doc(hidden)]
pub mod symbols;
pub mod v0_to_v1;

#[cfg(feature = "std")]
pub mod encode;
#[cfg(feature = "std")]
#[doc(hidden)] // test support: the fuzz target's checks
pub mod invariants;
#[cfg(feature = "std")]
#[doc(hidden)] // for the generators: the family in JS
pub mod js;
#[cfg(feature = "std")]
pub mod target;
#[cfg(feature = "std")]
mod types;
#[cfg(feature = "std")]
pub use types::Message;
#[cfg(feature = "std")]
pub mod v0;
#[cfg(feature = "std")]
pub mod v1;

use crate::chain::{Chain, Step};
use crate::decode::{req, Check, KindSpec};
use crate::error::DecodeError;
use crate::family::{Registry, VersionEntry};
use crate::host::{Host, Sym};
use symbols::*;

/// The current wire version of turn control.
pub const WIRE_VERSION: u32 = 1;

/// The key of the driver's capabilities that says what it reads: `{turnControlWireVersion: N}`.
pub const CAPABILITY_KEY: &str = "turnControlWireVersion";

/// The family's version registry: v1 is current; v0 is the unversioned era.
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const REGISTRY: Registry = Registry {
    name: "turn-control",
    module_dir: "src/families/turn_control",
    current: WIRE_VERSION,
    initial: Some(0),
    versions: &[VersionEntry {
        version: 1,
        shipped: true,
    }],
    steps: &[(0, 1)],
};

/// The kinds of the current version, the fields decode keeps, and their envelope checks (§15).
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const KINDS: &[KindSpec] = &[
    KindSpec {
        kind: TURN_RESULT,
        fields: &[
            req(ACTION, Check::KindedObject),
            crate::decode::opt(BUFFERED_DELIVERIES, Check::ArrayOfObjects),
        ],
    },
    KindSpec {
        kind: TURN_ERROR,
        fields: &[req(ERROR, Check::Json)],
    },
    KindSpec {
        kind: TURN_CONTINUATION_TOKEN,
        fields: &[req(CONTINUATION_TOKEN, Check::Str)],
    },
    KindSpec {
        kind: TURN_DELIVERY_REQUEST,
        fields: &[
            req(CONTINUATION_TOKEN, Check::Str),
            req(INBOX_TOKEN, Check::Str),
            req(REQUEST_ID, Check::Str),
        ],
    },
    KindSpec {
        kind: TURN_DELIVERY_ACCEPTED,
        fields: &[req(REQUEST_ID, Check::Str)],
    },
    KindSpec {
        kind: TURN_DELIVERY_CANCELLED,
        fields: &[req(REQUEST_ID, Check::Str)],
    },
];
const _: () = assert!(
    crate::decode::kinds_fit(KINDS),
    "a kind keeps more fields than the decoder reads at once"
);

/// The kind symbols of [`KINDS`], in the same order.
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const KIND_SYMS: &[Sym] = &[
    TURN_RESULT,
    TURN_ERROR,
    TURN_CONTINUATION_TOKEN,
    TURN_DELIVERY_REQUEST,
    TURN_DELIVERY_ACCEPTED,
    TURN_DELIVERY_CANCELLED,
];

/// The steps as a constant, so a decode does not build the table on its stack.
struct Steps<H>(core::marker::PhantomData<H>);

impl<H: Host + 'static> Steps<H> {
    const ALL: [Step<H>; 1] = [Step {
        from: 0,
        to: 1,
        up: v0_to_v1::up::<H>,
    }];
}

/// The `up` halves of the family's version steps, as the chain runs them.
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub fn steps<H: Host + 'static>() -> [Step<H>; 1] {
    Steps::<H>::ALL
}

/// Decode a turn-control value on any host (contract §3, §14, §15).
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub fn decode_on<H: Host + 'static>(h: &mut H, value: &H::Value) -> Result<H::Value, DecodeError> {
    let chain = Chain {
        current: WIRE_VERSION,
        initial: REGISTRY.initial,
        steps: &Steps::<H>::ALL,
        declared: None,
        unversioned: None,
    };
    // Step 0 → 1 only refuses a turn-result whose `action` is not an object with a string
    // `kind`, which the envelope of the current turn-result (`action`: required, KindedObject)
    // refuses as well: it runs only when a decode without it fails.
    crate::decode::decode_deferring(h, &chain, KINDS, KIND_SYMS, value, DEFERRED_BELOW)
}

/// The steps that start below this version only refuse, and refuse nothing the current
/// version's decode accepts ([`crate::decode::decode_deferring`]; the fuzz invariant
/// `invariants::check_deferred`, over every fixture too, holds the step to it).
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const DEFERRED_BELOW: u32 = 1;

/// Decode a turn-control value given as parsed JSON: the normalized value, or why not.
///
/// ```
/// use serde_json::json;
/// let v0 = json!({"kind": "turn-result", "action": {"kind": "reply", "text": "hi"}});
/// let decoded = hookwire::turn_control::decode(&v0).unwrap();
/// assert_eq!(decoded, json!({"kind": "turn-result", "action": {"kind": "reply", "text": "hi"}}));
/// ```
#[cfg(feature = "std")]
pub fn decode(value: &serde_json::Value) -> Result<serde_json::Value, DecodeError> {
    decode_on(&mut crate::json::JsonHost::new(SYMBOLS), value).map_err(|e| e.named(SYMBOLS))
}

/// Every versioned shape with its `down` step.
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub static PRODUCER: &[crate::family::ProducerVersion] = &[crate::family::ProducerVersion {
    version: 1,
    wire: &v1::WIRE,
    schema_id: v1::SCHEMA_ID,
    json_schema: v1::json_schema,
    down: v0_to_v1::down,
}];

/// Every temporary path of this family, with its removal condition.
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const REMOVABLE: &[crate::removable::Removable] = &[v0::V0_TARGET_REMOVAL];

/// Turn control, as every surface takes a family.
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const FAMILY: crate::family::FamilyDesc = crate::family::FamilyDesc {
    registry: &REGISTRY,
    symbols: SYMBOLS,
    kinds: KINDS,
    wire_only: &["version"],
    error_class: "TurnControlWireError",
    capability_key: CAPABILITY_KEY,
    producer: PRODUCER,
    decode,
    encode: encode::encode_result,
    read_target: |t| encode::target_from_json(t).map(|v| v as usize),
    encode_to: encode::encode_to,
    encode_text: encode::encode_text,
    // Its encoder makes nothing once and keeps it.
    prepare: || {},
    negotiate: target::answer_request,
    negotiate_step: target::step_json,
    removable: REMOVABLE,
    js: js::JS,
    targets: &["v0", "v1"],
};
