//! The envelope of one version of the session inbox, declared once: `wire_version!` writes the
//! six variants (`deliver` and the five controls) and the complete tagged shape of a version
//! from the parts that change between versions. Versions 2 and later use it; version 1's shapes
//! are written out in `v1.rs` (they shipped first and their rendering is frozen).
//! Changing this macro changes every version that uses it: the frozen schemas and the hash lock
//! catch any change to a shipped version's rendering.

/// Declare version `$n`'s wire shape: `WIRE`, `SCHEMA_ID`, `TITLE`, `json_schema()`,
/// `validate()`.
macro_rules! wire_version {
    (
        version: $n:literal,
        payload: $payload:path,
        caller: $caller:path,
        delivery_entry: $entry:path,
        cancel: [$($cancel:expr),*] $(,)?
    ) => {
        use crate::session_inbox::v1::{
            AUTH_OR_NULL, K_CANCEL, K_CLEAR, K_COMPACT, K_DELIVER, K_RESET, K_TIMEOUT, STR, TURN_POLICY,
        };
        use crate::shape::{opt, req, Def, Fields, Shape};

        /// The version this module describes.
        pub const VERSION: u32 = $n;
        static VERSION_N: Shape = Shape::ConstNumber(VERSION);
        static PAYLOADS: Shape = Shape::Array(&$payload);
        static ENTRIES: Shape = Shape::Array(&$entry);

        static DELIVER: Shape = Shape::Named(&Def {
            name: concat!("SessionInboxDeliverV", $n),
            id: concat!("SessionInbox.V", $n, ".Deliver"),
            doc: "Deliver payloads to the session; payload is the mirror for pinned raw-send readers.",
            shape: Shape::Object(&Fields {
                strict: true,
                fields: &[
                    req("kind", &K_DELIVER),
                    req("version", &VERSION_N),
                    req("payloads", &PAYLOADS),
                    req("payload", &$payload),
                    opt("auth", &AUTH_OR_NULL),
                    opt("caller", &$caller),
                    opt("deliveryMetadata", &ENTRIES),
                    opt("requestId", &STR),
                    opt("taskDeliveryId", &STR),
                    opt("turnPolicy", &TURN_POLICY),
                ],
            }),
        });

        wire_version!(@control $n, TIMEOUT, "SessionTimeout", "The session timed out.", K_TIMEOUT);
        wire_version!(@control $n, CLEAR, "Clear", "Clear the session's history.", K_CLEAR);
        wire_version!(@control $n, COMPACT, "Compact", "Compact the session's history.", K_COMPACT);
        wire_version!(@control $n, RESET, "Reset", "Reset the session.", K_RESET, opt("reason", &STR));
        wire_version!(@control $n, CANCEL, "Cancel", "Cancel a task or a turn.", K_CANCEL $(, $cancel)*);

        /// The complete wire value of this version: one variant per kind.
        pub static WIRE: Shape = Shape::Named(&Def {
            name: concat!("SessionInboxWireV", $n),
            id: concat!("SessionInbox.V", $n),
            doc: concat!("A session inbox wire value, version ", $n, "."),
            shape: Shape::Tagged {
                tag: "kind",
                variants: &[&DELIVER, &TIMEOUT, &CLEAR, &COMPACT, &RESET, &CANCEL],
            },
        });

        /// The `$id` of the frozen JSON Schema.
        pub const SCHEMA_ID: &str = concat!("urn:hookwire:session-inbox:v", $n);

        /// The canonical JSON Schema of this version.
        pub fn json_schema() -> serde_json::Value {
            crate::shape::json_schema(&WIRE, SCHEMA_ID, concat!("SessionInbox.V", $n))
        }

        /// Validate a complete value against this version's strict shape.
        pub fn validate(value: &serde_json::Value) -> Result<(), crate::error::EncodeError> {
            WIRE.validate(value)
        }
    };
    (@control $n:literal, $name:ident, $kind:literal, $doc:literal, $tag:ident $(, $field:expr)*) => {
        static $name: Shape = Shape::Named(&Def {
            name: concat!("SessionInbox", $kind, "V", $n),
            id: concat!("SessionInbox.V", $n, ".", $kind),
            doc: $doc,
            shape: Shape::Object(&Fields {
                strict: true,
                fields: &[req("kind", &$tag), req("version", &VERSION_N) $(, $field)*],
            }),
        });
    };
}

pub(crate) use wire_version;

/// A sample of every kind at version `n`, with the fields every version from 2 has, for the
/// colocated tests of the version modules.
#[cfg(test)]
pub(crate) fn samples(n: u32) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut out =
        vec![json!({"kind": "deliver", "version": n, "payloads": [{"message": "hi"}], "payload": {"message": "hi"}})];
    for kind in ["session-timeout", "clear", "compact"] {
        out.push(json!({"kind": kind, "version": n}));
    }
    out.push(json!({"kind": "reset", "version": n, "reason": "r"}));
    out.push(json!({"kind": "cancel", "version": n, "taskId": "t", "turnId": "u"}));
    out
}
