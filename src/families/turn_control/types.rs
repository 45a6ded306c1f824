//! The typed face of turn control (contract §14): its values as a Rust type with serde derives.
//! A command is the wire value without `version`, and decode answers the same fields, so one
//! type, [`Message`], is both. It converts through the JSON layer (`encode`, `decode`) and adds no
//! rule of its own. `action` and the buffered deliveries stay JSON objects: the session driver
//! reads them, the contract only carries them.
//! This module must never import the decoder's hosts or another family.

use crate::error::{DecodeError, EncodeError, ErrorCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A turn-control value: the command a turn workflow writes, and what the driver decodes.
///
/// ```
/// use hookwire::turn_control::Message;
/// use serde_json::json;
/// let accepted = Message::TurnDeliveryAccepted { request_id: "r-1".into() };
/// assert_eq!(accepted.encode(1).unwrap(), json!({"kind": "turn-delivery-accepted", "version": 1, "requestId": "r-1"}));
/// let parsed: Message = serde_json::from_value(json!({"kind": "turn-error", "error": null})).unwrap();
/// assert_eq!(parsed, Message::TurnError { error: serde_json::Value::Null });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
#[non_exhaustive]
pub enum Message {
    /// The turn's outcome: the action to take (an object with a string `kind`), and the inbox
    /// values buffered during the turn.
    TurnResult {
        /// The action.
        action: Map<String, Value>,
        /// The inbox values buffered during the turn.
        #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
        buffered_deliveries: Option<Vec<Map<String, Value>>>,
    },
    /// The turn failed; the error is any JSON value.
    TurnError {
        /// The error.
        error: Value,
    },
    /// The token the turn continues on.
    TurnContinuationToken {
        /// The token.
        continuation_token: String,
    },
    /// The turn asks the driver to deliver its inbox to a continuation.
    TurnDeliveryRequest {
        /// The continuation's token.
        continuation_token: String,
        /// The inbox's token.
        inbox_token: String,
        /// The request's id.
        request_id: String,
    },
    /// A delivery request was accepted.
    TurnDeliveryAccepted {
        /// The request's id.
        request_id: String,
    },
    /// A delivery request was cancelled.
    TurnDeliveryCancelled {
        /// The request's id.
        request_id: String,
    },
}

impl Message {
    /// The JSON command the dynamic layer takes.
    ///
    /// ```
    /// use hookwire::turn_control::Message;
    /// let m = Message::TurnContinuationToken { continuation_token: "c-1".into() };
    /// assert_eq!(m.to_value(), serde_json::json!({"kind": "turn-continuation-token", "continuationToken": "c-1"}));
    /// ```
    pub fn to_value(&self) -> Value {
        // Serializing these types cannot fail: every map key is a string.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Encode for the target version (0 ..= current; see [`negotiate`](super::target::negotiate)):
    /// exactly what [`encode`](super::encode::encode) answers for [`Message::to_value`].
    ///
    /// ```
    /// use hookwire::turn_control::{target::negotiate, Message};
    /// let target = negotiate(&serde_json::json!(null), 1).unwrap(); // a driver older than the capability
    /// let m = Message::TurnDeliveryCancelled { request_id: "r-1".into() };
    /// assert_eq!(m.encode(target).unwrap(), serde_json::json!({"kind": "turn-delivery-cancelled", "requestId": "r-1"}));
    /// ```
    pub fn encode(&self, target: u32) -> Result<Value, EncodeError> {
        super::encode::encode(self.to_value(), target)
    }

    /// Decode a wire value of any version this build knows: exactly what
    /// [`decode`](super::decode) answers, typed.
    ///
    /// ```
    /// use hookwire::turn_control::Message;
    /// let v0 = serde_json::json!({"kind": "turn-delivery-accepted", "requestId": "r-1"});
    /// assert_eq!(Message::decode(&v0).unwrap(), Message::TurnDeliveryAccepted { request_id: "r-1".into() });
    /// ```
    pub fn decode(wire: &Value) -> Result<Message, DecodeError> {
        let value = super::decode(wire)?;
        // Decode checked each kept field's JSON type (contract §15), which is all this type asks;
        // `tests/typed.rs` holds the two layers equal over every fixture.
        serde_json::from_value(value).map_err(|_| DecodeError::new(ErrorCode::Invalid))
    }
}
/// An optional field that, when present, holds a `T`: `null` is refused as the JSON commands
/// refuse it (an absent field is `None` by `#[serde(default)]`).
fn some<'de, T: Deserialize<'de>, D: serde::Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}
