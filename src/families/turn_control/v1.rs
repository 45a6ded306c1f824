//! Turn control version 1 (contract §14): the strict shape of every value the turn workflow
//! writes to the driver's control hook. `action` is opaque on purpose (a JsonObject with a string
//! `kind`): fields added inside an action arm reach old drivers intact. A new arm (kind) is a new
//! version, since a pinned driver cannot dispatch an unknown kind.
//!
//! Frozen: version 1 has shipped. A shape change is a new version module, never an edit here.
//! This module must never import the decoder, a step or negotiation.

use crate::error::EncodeError;
use crate::shape::{opt, req, Def, Field, Fields, Shape};
use serde_json::Value;

/// The version this module describes.
pub const VERSION: u32 = 1;

static STR: Shape = Shape::Str;
static JSON: Shape = Shape::Json;
static JSON_OBJECT: Shape = Shape::JsonObject;
static JSON_OBJECTS: Shape = Shape::Array(&JSON_OBJECT);
static VERSION_1: Shape = Shape::ConstNumber(VERSION);

/// The action a turn ended with: opaque, passed through by reference, never rebuilt.
pub static ACTION: Shape = Shape::Named(&Def {
    name: "TurnAction",
    id: "TurnControl.Action",
    doc: "The action a turn ended with: opaque to this contract (a JSON object with a string kind), passed through untouched.",
    shape: Shape::Object(&Fields {
        strict: false,
        fields: &[req("kind", &STR)],
    }),
});

macro_rules! variant {
    ($name:ident, $kind:literal, $ts:literal, $id:literal, $doc:literal $(, $field:expr)*) => {
        static $name: Shape = Shape::Named(&Def {
            name: $ts,
            id: $id,
            doc: $doc,
            shape: Shape::Object(&Fields {
                strict: true,
                fields: &[req("kind", &Shape::Const($kind)), req("version", &VERSION_1) $(, $field)*],
            }),
        });
    };
}

const fn field(name: &'static str, shape: &'static Shape) -> Field {
    req(name, shape)
}

variant!(
    RESULT,
    "turn-result",
    "TurnControlResultV1",
    "TurnControl.V1.Result",
    "The turn's outcome: the action to take, and the inbox values buffered during the turn.",
    field("action", &ACTION),
    opt("bufferedDeliveries", &JSON_OBJECTS)
);
variant!(
    ERROR,
    "turn-error",
    "TurnControlErrorV1",
    "TurnControl.V1.Error",
    "The turn failed; the error is any JSON value.",
    field("error", &JSON)
);
variant!(
    CONTINUATION,
    "turn-continuation-token",
    "TurnControlContinuationTokenV1",
    "TurnControl.V1.ContinuationToken",
    "The token the turn continues on.",
    field("continuationToken", &STR)
);
variant!(
    DELIVERY_REQUEST,
    "turn-delivery-request",
    "TurnControlDeliveryRequestV1",
    "TurnControl.V1.DeliveryRequest",
    "The turn asks the driver to deliver its inbox to a continuation.",
    field("continuationToken", &STR),
    field("inboxToken", &STR),
    field("requestId", &STR)
);
variant!(
    DELIVERY_ACCEPTED,
    "turn-delivery-accepted",
    "TurnControlDeliveryAcceptedV1",
    "TurnControl.V1.DeliveryAccepted",
    "A delivery request was accepted.",
    field("requestId", &STR)
);
variant!(
    DELIVERY_CANCELLED,
    "turn-delivery-cancelled",
    "TurnControlDeliveryCancelledV1",
    "TurnControl.V1.DeliveryCancelled",
    "A delivery request was cancelled.",
    field("requestId", &STR)
);

/// The complete version 1 wire value: one variant per kind.
pub static WIRE: Shape = Shape::Named(&Def {
    name: "TurnControlWireV1",
    id: "TurnControl.V1",
    doc: "A turn-control wire value, version 1.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[
            &RESULT,
            &ERROR,
            &CONTINUATION,
            &DELIVERY_REQUEST,
            &DELIVERY_ACCEPTED,
            &DELIVERY_CANCELLED,
        ],
    },
});

/// The `$id` of the frozen JSON Schema.
pub const SCHEMA_ID: &str = "urn:hookwire:turn-control:v1";

/// The canonical JSON Schema of version 1.
pub fn json_schema() -> Value {
    crate::shape::json_schema(&WIRE, SCHEMA_ID, "TurnControl.V1")
}

/// Validate a complete version 1 value.
pub fn validate(value: &Value) -> Result<(), EncodeError> {
    WIRE.validate(value)
}

#[cfg(test)]
mod tests {
    use super::validate;
    use serde_json::json;

    #[test]
    fn envelopes_are_strict_and_actions_opaque() {
        validate(
            &json!({"kind": "turn-result", "version": 1, "action": {"kind": "reply", "text": "hi", "extra": [1]}}),
        )
        .unwrap();
        validate(&json!({"kind": "turn-error", "version": 1, "error": null})).unwrap();
        assert_eq!(
            validate(&json!({"kind": "turn-result", "version": 1, "action": {"text": "no kind"}}))
                .unwrap_err()
                .path,
            "/action/kind"
        );
        assert_eq!(
            validate(&json!({"kind": "turn-delivery-accepted", "version": 1, "requestId": "r", "x": 1}))
                .unwrap_err()
                .path,
            "/x"
        );
    }
}
