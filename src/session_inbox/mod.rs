//! The session inbox family: the payloads that resume a parked session's inbox hook.
//!
//! `symbols` and `v0_to_v1` are all the decoder needs (and all the wasm module links);
//! `v0`, `v1`, `encode` and `target` are the producer side (`std`).

pub mod symbols;
pub mod v0_to_v1;

#[cfg(feature = "std")]
pub mod encode;
#[cfg(feature = "std")]
pub mod target;
#[cfg(feature = "std")]
pub mod v0;
#[cfg(feature = "std")]
pub mod v1;

use crate::chain::{Chain, Step};
use crate::decode::KindSpec;
use crate::error::DecodeError;
use crate::family::{Registry, VersionEntry};
use crate::host::{Host, Sym};
use symbols::*;

/// The current wire version of the session inbox.
pub const WIRE_VERSION: u32 = 1;

/// The hook metadata key a consumer stamps at `createHook`: `{sessionInboxWireVersion: N}`.
pub const HOOK_METADATA_KEY: &str = "sessionInboxWireVersion";

/// The family's version registry: v1 is current and shipped; v0 is the unversioned era.
pub const REGISTRY: Registry = Registry {
    name: "session-inbox",
    module_dir: "src/session_inbox",
    current: WIRE_VERSION,
    initial: Some(0),
    versions: &[VersionEntry {
        version: 1,
        shipped: true,
    }],
    migrations: &[(0, 1)],
};

/// The kinds of the current version and the fields decode keeps for each (contract §4).
pub const KINDS: &[KindSpec] = &[
    KindSpec {
        kind: DELIVER,
        fields: &[
            AUTH,
            CALLER,
            DELIVERY_METADATA,
            PAYLOADS,
            REQUEST_ID,
            TASK_DELIVERY_ID,
            TURN_POLICY,
        ],
    },
    KindSpec {
        kind: SESSION_TIMEOUT,
        fields: &[],
    },
    KindSpec {
        kind: CLEAR,
        fields: &[],
    },
    KindSpec {
        kind: COMPACT,
        fields: &[],
    },
    KindSpec {
        kind: RESET,
        fields: &[REASON],
    },
    KindSpec {
        kind: CANCEL,
        fields: &[TASK_ID, TURN_ID],
    },
];

/// The kind symbols of [`KINDS`], in the same order.
pub const KIND_SYMS: &[Sym] = &[DELIVER, SESSION_TIMEOUT, CLEAR, COMPACT, RESET, CANCEL];

/// The family's one-step migrations.
pub fn steps<H: Host>() -> [Step<H>; 1] {
    [Step {
        from: 0,
        to: 1,
        migrate: v0_to_v1::migrate::<H>,
    }]
}

/// Decode a session inbox value on any host (contract §3–§4).
pub fn decode_on<H: Host>(h: &mut H, value: &H::Value) -> Result<H::Value, DecodeError> {
    let steps = steps::<H>();
    let chain = Chain {
        current: WIRE_VERSION,
        initial: REGISTRY.initial,
        steps: &steps,
    };
    crate::decode::decode(h, &chain, KINDS, KIND_SYMS, value)
}

/// Decode a session inbox value given as parsed JSON: the normalized value, or why not.
///
/// ```
/// use serde_json::json;
/// let raw_send = json!({"kind": "send", "payload": {"message": "hi"}});
/// let decoded = hookwire::session_inbox::decode(&raw_send).unwrap();
/// assert_eq!(decoded, json!({"kind": "deliver", "payloads": [{"message": "hi"}]}));
/// ```
#[cfg(feature = "std")]
pub fn decode(value: &serde_json::Value) -> Result<serde_json::Value, DecodeError> {
    decode_on(&mut crate::json::JsonHost::new(SYMBOLS), value)
}

/// Every temporary path of this family, with its removal condition.
#[cfg(feature = "std")]
pub const REMOVABLE: &[crate::removable::Removable] =
    &[v0::ENCODERS_REMOVAL, target::MARKERLESS_REMOVAL, v1::MIRROR_REMOVAL];
