//! Session inbox version 0, the unversioned era (contract §2): the two incompatible shapes that
//! were persisted before values carried `version`, and the down-encoders that still write them
//! for consumers pinned to those builds.
//!
//! `to_deliver_envelope` and `to_raw_send` are the `down` half of step 0 ↔ 1 (its up half,
//! `v0_to_v1::migrate`, shipped before steps were pairs).
//!
//! Legacy only: current code never depends on this module except to emit a v0 target.
//! Frozen: v0 has shipped; its shapes never change.

use crate::removable::Removable;
use serde_json::{Map, Value};

// The shape read by builds ≤ 0.30.4: `{kind:"deliver", payloads, auth?, caller?,
// deliveryMetadata?, requestId?, taskDeliveryId?, turnPolicy?}` — no `version`, no mirror.

/// The kind of the shape read by builds 0.30.5–0.31.0 during an active turn: `{kind:"send",
/// payload, delivery?, auth?, caller?, requestId?, taskDeliveryId?, turnPolicy?}`.
pub const RAW_SEND: &str = "send";

/// Both v0 down-encoders exist only for consumers that cannot read a versioned value.
pub const ENCODERS_REMOVAL: Removable = Removable {
    what: "the v0 down-encoders (v0 `deliver` and v0 `send` targets)",
    site: "src/families/session_inbox/v0.rs",
    when: "every pre-stamp consumer (hooks without sessionInboxWireVersion metadata) has aged out \
           under the 30-day session timeout; from then on every hook advertises a version",
};

/// A validated v1 value as the legacy deliver envelope: drop `version` and the mirror.
/// Controls lose only `version`.
pub fn to_deliver_envelope(v1: Map<String, Value>) -> Value {
    let mut out = v1;
    out.remove("version");
    if out.get("kind").and_then(Value::as_str) == Some("deliver") {
        out.remove("payload");
    }
    Value::Object(out)
}

/// A validated v1 value as the raw send command: a deliver becomes `{kind:"send", payload:
/// <mirror>, delivery: <entry with payloadIndex 0, without it>, …}`; controls lose `version`.
/// `accepted` is the current value's `acceptedDeploymentId` for payload 0, which the delivery
/// keeps (contract §12.4: older consumers ignore that optional key).
pub fn to_raw_send(mut v1: Map<String, Value>, accepted: Option<Value>) -> Value {
    if v1.get("kind").and_then(Value::as_str) != Some("deliver") {
        return to_deliver_envelope(v1);
    }
    let mut out = Map::new();
    out.insert("kind".into(), Value::String(RAW_SEND.into()));
    out.insert(
        "payload".into(),
        v1.remove("payload").unwrap_or_else(|| Value::Object(Map::new())),
    );
    let first = match v1.remove("deliveryMetadata") {
        Some(Value::Array(entries)) => entries
            .into_iter()
            .find(|e| e.get("payloadIndex").and_then(Value::as_f64) == Some(0.0)),
        _ => None,
    };
    if let Some(Value::Object(mut delivery)) = first {
        delivery.remove("payloadIndex");
        if let Some(id) = accepted {
            delivery.insert("acceptedDeploymentId".into(), id);
        }
        out.insert("delivery".into(), Value::Object(delivery));
    }
    for key in ["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"] {
        if let Some(v) = v1.remove(key) {
            out.insert(key.into(), v);
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::{to_deliver_envelope, to_raw_send};
    use serde_json::json;

    fn obj(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn deliver_envelope_drops_version_and_mirror() {
        let v1 = obj(json!({"kind": "deliver", "version": 1, "payloads": [{}], "payload": {}, "requestId": "r"}));
        assert_eq!(
            to_deliver_envelope(v1),
            json!({"kind": "deliver", "payloads": [{}], "requestId": "r"})
        );
        assert_eq!(
            to_deliver_envelope(obj(json!({"kind": "reset", "version": 1}))),
            json!({"kind": "reset"})
        );
    }

    #[test]
    fn raw_send_carries_the_mirror_and_the_first_delivery() {
        let v1 = obj(json!({
            "kind": "deliver", "version": 1, "payloads": [{"m": 1}, {"m": 2}], "payload": {"m": 2},
            "deliveryMetadata": [{"channelKind": "b", "payloadIndex": 1}, {"channelKind": "a", "payloadIndex": 0}],
            "auth": null
        }));
        assert_eq!(
            to_raw_send(v1, None),
            json!({"kind": "send", "payload": {"m": 2}, "delivery": {"channelKind": "a"}, "auth": null})
        );
        assert_eq!(
            to_raw_send(obj(json!({"kind": "cancel", "version": 1, "taskId": "t"})), None),
            json!({"kind": "cancel", "taskId": "t"})
        );
    }
}
