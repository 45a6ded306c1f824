//! The session inbox family: the payloads that resume a parked session's inbox hook.
//!
//! `symbols`, `declared` and the `up` halves of the version steps (`vN_to_vM.rs`) are all the
//! decoder needs (and all the wasm module links); the version shapes (`v0` … `v6`), the `down`
//! halves, `build`, `encode` and `target` are the producer side (`std`).

#[doc(hidden)]
pub mod declared;
#[doc(hidden)]
pub mod symbols;
pub mod v0_to_v1;
pub mod v1_to_v2;
pub mod v2_to_v3;
pub mod v3_to_v4;
pub mod v4_to_v5;
pub mod v5_to_v6;

#[cfg(feature = "std")]
#[doc(hidden)]
pub mod build;
#[cfg(feature = "std")]
pub mod encode;
#[cfg(feature = "std")]
#[doc(hidden)] // test support: the fuzz targets' checks
pub mod invariants;
#[cfg(feature = "std")]
#[doc(hidden)] // for the generators: the family in JS
pub mod js;
#[cfg(feature = "std")]
pub mod target;
#[cfg(feature = "std")]
pub(crate) mod types;
#[cfg(feature = "std")]
pub use encode::{Target, V0Variant};
#[cfg(feature = "std")]
pub use types::{Cancel, Command, Decoded, Delivery, Object, Reset, SendCommand, TurnPolicy};
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod v0;
#[cfg(feature = "std")]
pub mod v1;
#[cfg(feature = "std")]
pub mod v2;
#[cfg(feature = "std")]
pub mod v3;
#[cfg(feature = "std")]
pub mod v4;
#[cfg(feature = "std")]
pub mod v5;
#[cfg(feature = "std")]
pub mod v6;
#[cfg(feature = "std")]
mod wire;

use crate::chain::{Chain, Step};
use crate::decode::{opt, req, Check, KindSpec};
use crate::error::DecodeError;
use crate::family::{Registry, VersionEntry};
use crate::host::{Host, Sym};
use symbols::*;

/// The current wire version of the session inbox.
pub const WIRE_VERSION: u32 = 6;

/// The hook metadata key a consumer stamps at `createHook`: `{sessionInboxWireVersion: N}`.
pub const HOOK_METADATA_KEY: &str = "sessionInboxWireVersion";

/// The family's version registry: versions 1 to 6, v6 current; v0 is the unversioned era.
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const REGISTRY: Registry = Registry {
    name: "session-inbox",
    module_dir: "src/families/session_inbox",
    current: WIRE_VERSION,
    initial: Some(0),
    versions: &[
        VersionEntry {
            version: 1,
            shipped: true,
        },
        VersionEntry {
            version: 2,
            shipped: true,
        },
        VersionEntry {
            version: 3,
            shipped: true,
        },
        VersionEntry {
            version: 4,
            shipped: true,
        },
        VersionEntry {
            version: 5,
            shipped: true,
        },
        VersionEntry {
            version: 6,
            shipped: true,
        },
    ],
    steps: &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)],
};

/// The kinds of the current version, the fields decode keeps for each, and the envelope checks
/// of those fields (contract §11 "Decode projection", §15).
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const KINDS: &[KindSpec] = &[
    KindSpec {
        kind: DELIVER,
        fields: &[
            req(PAYLOADS, Check::ArrayOfObjects),
            opt(AUTH, Check::ObjectOrNull),
            opt(CALLER, Check::Object),
            opt(DELIVERY_METADATA, Check::ArrayOfObjects),
            opt(REQUEST_ID, Check::Str),
            opt(TASK_DELIVERY_ID, Check::Str),
            opt(TURN_POLICY, Check::OneOf(&[QUEUE, STEER])),
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
        fields: &[opt(REASON, Check::Str)],
    },
    KindSpec {
        kind: CANCEL,
        fields: &[
            opt(TASK_ID, Check::Str),
            opt(TASKS, Check::Bool),
            opt(TURN_ID, Check::Str),
        ],
    },
];
const _: () = assert!(
    crate::decode::kinds_fit(KINDS),
    "a kind keeps more fields than the decoder reads at once"
);

/// The kind symbols of [`KINDS`], in the same order.
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const KIND_SYMS: &[Sym] = &[DELIVER, SESSION_TIMEOUT, CLEAR, COMPACT, RESET, CANCEL];

/// The `up` half of the step 0 → 1 (frozen as it shipped, before steps were pairs).
fn v0_up<H: Host>(h: &mut H, value: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    v0_to_v1::migrate(h, value).map(Some)
}

/// The `up` halves of the family's version steps, as the chain runs them.
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub fn steps<H: Host + 'static>() -> [Step<H>; 6] {
    Steps::<H>::ALL
}

/// The steps as a constant, so a decode does not build the table on its stack.
struct Steps<H>(core::marker::PhantomData<H>);

impl<H: Host + 'static> Steps<H> {
    const ALL: [Step<H>; 6] = [
        Step {
            from: 0,
            to: 1,
            up: v0_up::<H>,
        },
        Step {
            from: 1,
            to: 2,
            up: v1_to_v2::up::<H>,
        },
        Step {
            from: 2,
            to: 3,
            up: v2_to_v3::up::<H>,
        },
        Step {
            from: 3,
            to: 4,
            up: v3_to_v4::up::<H>,
        },
        Step {
            from: 4,
            to: 5,
            up: v4_to_v5::up::<H>,
        },
        Step {
            from: 5,
            to: 6,
            up: v5_to_v6::up::<H>,
        },
    ];
}

/// Decode a session inbox value on any host (contract §3–§4).
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub fn decode_on<H: Host + 'static>(h: &mut H, value: &H::Value) -> Result<H::Value, DecodeError> {
    let chain = Chain {
        current: WIRE_VERSION,
        initial: REGISTRY.initial,
        steps: &Steps::<H>::ALL,
        declared: Some(declared::check::<H>),
        unversioned: Some(declared::unversioned::<H>),
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
    decode_on(&mut crate::json::JsonHost::new(SYMBOLS), value).map_err(|e| e.named(SYMBOLS))
}

#[cfg(feature = "std")]
pub use crate::family::ProducerVersion;

#[cfg(feature = "std")]
fn v1_down(_: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::EncodeError> {
    Ok(())
}

/// Every version's producer side, 1 ..= current.
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub static PRODUCER: &[ProducerVersion] = &[
    ProducerVersion {
        version: 1,
        wire: &v1::WIRE,
        schema_id: v1::SCHEMA_ID,
        json_schema: v1::json_schema,
        down: v1_down,
    },
    ProducerVersion {
        version: 2,
        wire: &v2::WIRE,
        schema_id: v2::SCHEMA_ID,
        json_schema: v2::json_schema,
        down: v1_to_v2::down,
    },
    ProducerVersion {
        version: 3,
        wire: &v3::WIRE,
        schema_id: v3::SCHEMA_ID,
        json_schema: v3::json_schema,
        down: v2_to_v3::down,
    },
    ProducerVersion {
        version: 4,
        wire: &v4::WIRE,
        schema_id: v4::SCHEMA_ID,
        json_schema: v4::json_schema,
        down: v3_to_v4::down,
    },
    ProducerVersion {
        version: 5,
        wire: &v5::WIRE,
        schema_id: v5::SCHEMA_ID,
        json_schema: v5::json_schema,
        down: v4_to_v5::down,
    },
    ProducerVersion {
        version: 6,
        wire: &v6::WIRE,
        schema_id: v6::SCHEMA_ID,
        json_schema: v6::json_schema,
        down: v5_to_v6::down,
    },
];

/// The producer side of `version` (1 ..= current; anything else is the current version).
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub fn producer_version(version: u32) -> &'static ProducerVersion {
    PRODUCER
        .iter()
        .find(|p| p.version == version)
        .unwrap_or(&PRODUCER[PRODUCER.len() - 1])
}

/// Every temporary path of this family, with its removal condition.
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const REMOVABLE: &[crate::removable::Removable] =
    &[v0::ENCODERS_REMOVAL, target::MARKERLESS_REMOVAL, build::MIRROR_REMOVAL];

/// One `negotiate --lines` request with a write ceiling (contract §12).
#[cfg(feature = "std")]
fn negotiate_request(request: &serde_json::Value, ceiling: u32) -> serde_json::Value {
    match target::Options::default().with_write_ceiling(ceiling) {
        Ok(options) => target::answer_request(request, &options),
        Err(e) => crate::Answer::transport(crate::Transport::InvalidRequest, e).to_json(),
    }
}

/// The session inbox, as every surface takes a family.
#[cfg(feature = "std")]
#[doc(hidden)] // family machinery: the chain, the hosts, the CLI and the checks take it
pub const FAMILY: crate::family::FamilyDesc = crate::family::FamilyDesc {
    registry: &REGISTRY,
    symbols: SYMBOLS,
    kinds: KINDS,
    wire_only: &["version", "payload"],
    error_class: "SessionInboxWireError",
    capability_key: HOOK_METADATA_KEY,
    producer: PRODUCER,
    decode,
    encode: encode::encode_result,
    read_target: encode::read_target,
    encode_to: encode::encode_to,
    encode_text: encode::encode_answer_into,
    prepare: encode::prepare,
    negotiate: negotiate_request,
    negotiate_step: target::step_json,
    removable: REMOVABLE,
    js: js::JS,
    targets: &["v0-deliver", "v0-send", "v1", "v2", "v3", "v4", "v5", "v6"],
};
