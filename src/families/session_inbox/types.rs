//! The typed face of the session inbox (contract §5.1, §11 "Decode projection"): commands and
//! decoded values as Rust types with serde derives, and `Target`'s serde form. They convert
//! through the JSON layer (`build`, `encode`, `decode`) and add no rule of their own: a typed
//! command serializes to exactly the JSON command the dynamic [`encode`](super::encode::encode)
//! takes, and a decoded value deserializes from exactly what [`decode`](super::decode) answers.
//!
//! The envelope is typed (kinds, strings, `turnPolicy`, `tasks`); what decode treats as opaque —
//! payloads, `auth`, `caller`, delivery entries — stays a JSON [`Object`], validated by the encoder
//! against the current version's strict shape and passed through by decode as it came. Like
//! the JSON commands, typed ones are strict (an unknown key does not parse) except `send`, whose
//! unknown top-level keys are dropped.
//! This module must never import the decoder's hosts, a step or negotiation's internals.

use crate::error::{DecodeError, EncodeError, ErrorCode};
use crate::session_inbox::encode::{encode_owned, Target};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// A JSON object: a payload (loose: undeclared keys are the adapter extension point), an auth
/// context, a caller or a delivery entry.
pub type Object = Map<String, Value>;

/// How a delivery joins a running turn (`turnPolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TurnPolicy {
    /// Wait for the running turn to end.
    Queue,
    /// Steer the running turn.
    Steer,
}

/// A command the producer writes (contract §5.1): the JSON command with `kind` as its tag.
///
/// ```
/// use hookwire::session_inbox::{Command, SendCommand, Target};
/// use serde_json::json;
/// let command = Command::from(SendCommand::new(json!({"message": "hi"}).as_object().unwrap().clone()));
/// assert_eq!(serde_json::to_value(&command).unwrap(), json!({"kind": "send", "payload": {"message": "hi"}}));
/// let wire = command.encode(Target::Version(3)).unwrap();
/// assert_eq!(wire["version"], 3);
/// let parsed: Command = serde_json::from_value(json!({"kind": "clear"})).unwrap();
/// assert_eq!(parsed, Command::Clear);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", from = "StrictCommand")]
#[non_exhaustive]
pub enum Command {
    /// One payload; built into a `deliver` with the payload mirror.
    Send(SendCommand),
    /// Several payloads at once.
    Deliver(Delivery),
    /// The session timed out.
    SessionTimeout,
    /// Clear the session's history.
    Clear,
    /// Compact the session's history.
    Compact,
    /// Reset the session.
    Reset(Reset),
    /// Cancel a task or a turn.
    Cancel(Cancel),
}

/// The `send` command: one payload, and where it came from.
///
/// ```
/// use hookwire::session_inbox::{SendCommand, TurnPolicy};
/// let mut send = SendCommand::new(serde_json::Map::new());
/// send.turn_policy = Some(TurnPolicy::Steer);
/// assert_eq!(serde_json::to_value(&send).unwrap(), serde_json::json!({"payload": {}, "turnPolicy": "steer"}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SendCommand {
    /// The payload (`DeliverPayload`).
    pub payload: Object,
    /// The channel delivery it came from (a `DeliveryEntry` without `payloadIndex`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub delivery: Option<Object>,
    /// The authenticated principal: `Some(None)` is an explicit `null`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "explicit_null")]
    pub auth: Option<Option<Object>>,
    /// The subagent call it answers (`Caller`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub caller: Option<Object>,
    /// The request id.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub request_id: Option<String>,
    /// The task delivery id.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub task_delivery_id: Option<String>,
    /// How it joins a running turn.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub turn_policy: Option<TurnPolicy>,
}

impl SendCommand {
    /// A `send` of `payload`, with nothing else set.
    ///
    /// ```
    /// let send = hookwire::session_inbox::SendCommand::new(serde_json::Map::new());
    /// assert!(send.payload.is_empty() && send.caller.is_none());
    /// ```
    pub fn new(payload: Object) -> SendCommand {
        SendCommand {
            payload,
            ..SendCommand::default()
        }
    }
}

/// A delivery of payloads: the `deliver` command, and the decoded `deliver` value (the same
/// fields; decode drops only the wire's `version` and `payload` mirror).
///
/// ```
/// use hookwire::session_inbox::Delivery;
/// let delivery = Delivery::new(vec![serde_json::Map::new()]);
/// assert_eq!(serde_json::to_value(&delivery).unwrap(), serde_json::json!({"payloads": [{}]}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Delivery {
    /// The payloads (`DeliverPayload`s).
    pub payloads: Vec<Object>,
    /// The authenticated principal: `Some(None)` is an explicit `null`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "explicit_null")]
    pub auth: Option<Option<Object>>,
    /// The subagent call it answers (`Caller`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub caller: Option<Object>,
    /// Where each payload came from (`DeliveryEntry`s, `payloadIndex` into `payloads`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub delivery_metadata: Option<Vec<Object>>,
    /// The request id.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub request_id: Option<String>,
    /// The task delivery id.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub task_delivery_id: Option<String>,
    /// How it joins a running turn.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub turn_policy: Option<TurnPolicy>,
}

impl Delivery {
    /// A delivery of `payloads`, with nothing else set.
    ///
    /// ```
    /// let delivery = hookwire::session_inbox::Delivery::new(Vec::new());
    /// assert!(delivery.payloads.is_empty() && delivery.turn_policy.is_none());
    /// ```
    pub fn new(payloads: Vec<Object>) -> Delivery {
        Delivery {
            payloads,
            ..Delivery::default()
        }
    }
}

/// `reset`: the command and the decoded value.
///
/// ```
/// let mut reset = hookwire::session_inbox::Reset::default();
/// reset.reason = Some("stale".into());
/// assert_eq!(serde_json::to_value(&reset).unwrap(), serde_json::json!({"reason": "stale"}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Reset {
    /// Why.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub reason: Option<String>,
}

/// `cancel`: the command and the decoded value.
///
/// ```
/// let mut cancel = hookwire::session_inbox::Cancel::default();
/// cancel.turn_id = Some("t-1".into());
/// cancel.tasks = Some(true);
/// assert_eq!(serde_json::to_value(&cancel).unwrap(), serde_json::json!({"turnId": "t-1", "tasks": true}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Cancel {
    /// The task to cancel.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub task_id: Option<String>,
    /// Whether the turn's tasks are cancelled too (version 6; older targets refuse `true`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub tasks: Option<bool>,
    /// The turn to cancel.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some")]
    pub turn_id: Option<String>,
}

/// What a command parses as: serde's unit variants of a tagged enum would accept any other key
/// (`{"kind": "clear", "payloads": []}`), which the JSON encoder refuses; empty struct variants
/// refuse it too.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum StrictCommand {
    Send(SendCommand),
    Deliver(Delivery),
    SessionTimeout {},
    Clear {},
    Compact {},
    Reset(Reset),
    Cancel(Cancel),
}

impl From<StrictCommand> for Command {
    fn from(c: StrictCommand) -> Command {
        match c {
            StrictCommand::Send(c) => Command::Send(c),
            StrictCommand::Deliver(c) => Command::Deliver(c),
            StrictCommand::SessionTimeout {} => Command::SessionTimeout,
            StrictCommand::Clear {} => Command::Clear,
            StrictCommand::Compact {} => Command::Compact,
            StrictCommand::Reset(c) => Command::Reset(c),
            StrictCommand::Cancel(c) => Command::Cancel(c),
        }
    }
}

impl From<SendCommand> for Command {
    fn from(c: SendCommand) -> Command {
        Command::Send(c)
    }
}

impl From<Delivery> for Command {
    fn from(c: Delivery) -> Command {
        Command::Deliver(c)
    }
}

impl From<Reset> for Command {
    fn from(c: Reset) -> Command {
        Command::Reset(c)
    }
}

impl From<Cancel> for Command {
    fn from(c: Cancel) -> Command {
        Command::Cancel(c)
    }
}

impl Command {
    /// The JSON command the dynamic layer takes (`encode`, `negotiate`, `start`).
    ///
    /// ```
    /// use hookwire::session_inbox::Command;
    /// assert_eq!(Command::Compact.to_value(), serde_json::json!({"kind": "compact"}));
    /// ```
    pub fn to_value(&self) -> Value {
        // Serializing these types cannot fail: every map key is a string and there is no number.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Encode for `target` (contract §12): the wire value to persist, or why not — exactly
    /// what [`encode`](super::encode::encode) answers for [`Command::to_value`].
    ///
    /// ```
    /// use hookwire::session_inbox::{Cancel, Command, Target};
    /// let mut cancel = Cancel::default();
    /// cancel.tasks = Some(true);
    /// let refused = Command::from(cancel).encode(Target::Version(5)).unwrap_err();
    /// assert_eq!((refused.code.as_str(), refused.path.as_str()), ("INCOMPATIBLE", "/tasks"));
    /// ```
    pub fn encode(&self, target: Target) -> Result<Value, EncodeError> {
        encode_owned(self.to_value(), target)
    }
}

/// A decoded session inbox value (contract §4): the kind and the fields decode keeps for it.
///
/// ```
/// use hookwire::session_inbox::Decoded;
/// use serde_json::json;
/// let raw_send = json!({"kind": "send", "payload": {"message": "hi"}});
/// let Decoded::Deliver(delivery) = Decoded::decode(&raw_send).unwrap() else { panic!("a deliver") };
/// assert_eq!(delivery.payloads[0]["message"], "hi");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Decoded {
    /// Payloads delivered to the session.
    Deliver(Delivery),
    /// The session timed out.
    SessionTimeout,
    /// Clear the session's history.
    Clear,
    /// Compact the session's history.
    Compact,
    /// Reset the session.
    Reset(Reset),
    /// Cancel a task or a turn.
    Cancel(Cancel),
}

impl Decoded {
    /// Decode a wire value of any version this build knows: exactly what
    /// [`decode`](super::decode) answers, typed.
    ///
    /// ```
    /// use hookwire::session_inbox::Decoded;
    /// let newer = serde_json::json!({"kind": "clear", "version": hookwire::session_inbox::WIRE_VERSION + 1});
    /// assert_eq!(Decoded::decode(&newer).unwrap_err().code.as_str(), "NEWER_VERSION");
    /// ```
    pub fn decode(wire: &Value) -> Result<Decoded, DecodeError> {
        let value = super::decode(wire)?;
        // Decode checked each kept field's JSON type (contract §15), which is all these types
        // ask; `tests/typed.rs` holds the two layers equal over every fixture.
        serde_json::from_value(value).map_err(|_| DecodeError::new(ErrorCode::Invalid))
    }

    /// The normalized JSON value, as [`decode`](super::decode) answers it.
    ///
    /// ```
    /// use hookwire::session_inbox::Decoded;
    /// assert_eq!(Decoded::Clear.to_value(), serde_json::json!({"kind": "clear"}));
    /// ```
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// `Target`'s serde form is its JSON form: `{"version": N}` or `{"version": 0, "variant":
/// "deliver"|"send"}` ([`Target::to_json`], [`Target::from_json`]).
///
/// ```
/// use hookwire::session_inbox::Target;
/// let t: Target = serde_json::from_str(r#"{"version": 0, "variant": "send"}"#).unwrap();
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"variant":"send","version":0}"#);
/// assert!(serde_json::from_str::<Target>(r#"{"version": 99}"#).is_err());
/// ```
impl Serialize for Target {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Target {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Target, D::Error> {
        let v = Value::deserialize(d)?;
        Target::from_json(&v).map_err(serde::de::Error::custom)
    }
}

/// An optional field that, when present, holds a `T`: `null` is refused as the JSON commands
/// refuse it (an absent field is `None` by `#[serde(default)]`).
pub(crate) fn some<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `Option<Option<T>>` with an explicit `null` kept apart from an absent field.
mod explicit_null {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[allow(clippy::ref_option)] // serde's `with` hands the field by reference
    pub fn serialize<T: Serialize, S: Serializer>(v: &Option<Option<T>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(inner) => inner.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }
}
