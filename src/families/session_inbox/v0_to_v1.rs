//! Migration 0 → 1 of the session inbox (contract §2): a pure data transform from the unversioned
//! era to version 1. No normalization, no policy: decode projects the result afterwards.
//!
//! Frozen: this step is shipped. A change to it is a new version with a new step, never an
//! edit here (the hash lock in `artifacts/LOCK` fails otherwise).
//! This module may import only the host trait, the decode error and the family's symbols.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Type};
use crate::session_inbox::symbols::{
    DELIVER, DELIVERY, DELIVERY_METADATA, KIND, PAYLOAD, PAYLOADS, PAYLOAD_INDEX, SEND, SEND_CARRIED, VERSION,
};

fn legacy(detail: Detail) -> DecodeError {
    DecodeError {
        code: ErrorCode::LegacyShape,
        version: Some(0.0),
        current: 1,
        detail,
    }
}

/// Migrate one unversioned value to version 1.
pub fn migrate<H: Host>(h: &mut H, value: &H::Value) -> Result<H::Value, DecodeError> {
    let kind = h.get(value, KIND)?;
    let which = match &kind {
        Some(k) => h.which(k, &[SEND, DELIVER]),
        None => None,
    };
    let mut out = match which {
        Some(0) => send_to_deliver(h, value)?,
        Some(_) => {
            let payloads = h.get(value, PAYLOADS)?;
            let ok = match &payloads {
                Some(p) => h.type_of(p) == Type::Array && h.every_object(p)?,
                None => false,
            };
            if !ok {
                return Err(legacy(Detail::DeliverPayloads));
            }
            h.copy_object(value)?
        }
        None => h.copy_object(value)?,
    };
    let one = h.number(1.0);
    h.set(&mut out, VERSION, one);
    Ok(out)
}

/// The raw `send` command of builds 0.30.5–0.31.0, rebuilt field by field as a v1 `deliver`.
fn send_to_deliver<H: Host>(h: &mut H, send: &H::Value) -> Result<H::Value, DecodeError> {
    let Some(payload) = object_field(h, send, PAYLOAD)? else {
        return Err(legacy(Detail::SendPayload));
    };
    let delivery = h.get(send, DELIVERY)?;
    let mut out = h.object();
    let kind = h.string(DELIVER);
    h.set(&mut out, KIND, kind);
    let mirror = h.share(&payload);
    h.set(&mut out, PAYLOAD, mirror);
    let payloads = h.array1(payload);
    h.set(&mut out, PAYLOADS, payloads);
    if let Some(delivery) = delivery {
        if h.type_of(&delivery) != Type::Object {
            return Err(legacy(Detail::SendDelivery));
        }
        let mut entry = h.copy_object(&delivery)?;
        let zero = h.number(0.0);
        h.set(&mut entry, PAYLOAD_INDEX, zero);
        let metadata = h.array1(entry);
        h.set(&mut out, DELIVERY_METADATA, metadata);
    }
    for &key in SEND_CARRIED {
        if let Some(v) = h.get(send, key)? {
            h.set(&mut out, key, v);
        }
    }
    Ok(out)
}

fn object_field<H: Host>(h: &mut H, obj: &H::Value, key: crate::host::Sym) -> Result<Option<H::Value>, DecodeError> {
    match h.get(obj, key)? {
        Some(v) if h.type_of(&v) == Type::Object => Ok(Some(v)),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::migrate;
    use crate::error::ErrorCode;
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::json;

    fn run(v: serde_json::Value) -> Result<serde_json::Value, ErrorCode> {
        migrate(&mut JsonHost::new(SYMBOLS), &v).map_err(|e| e.code)
    }

    #[test]
    fn send_becomes_a_deliver_with_mirror_and_indexed_metadata() {
        let out = run(json!({
            "kind": "send", "payload": {"message": "hi"}, "delivery": {"channelKind": "web"},
            "requestId": "r", "stray": true
        }))
        .unwrap();
        assert_eq!(
            out,
            json!({
                "kind": "deliver", "version": 1, "payload": {"message": "hi"},
                "payloads": [{"message": "hi"}], "requestId": "r",
                "deliveryMetadata": [{"channelKind": "web", "payloadIndex": 0}]
            })
        );
    }

    #[test]
    fn send_rejects_non_object_payload_and_delivery() {
        for bad in [json!(null), json!([]), json!("x"), json!(3)] {
            assert_eq!(
                run(json!({"kind": "send", "payload": bad})),
                Err(ErrorCode::LegacyShape)
            );
            let with_delivery = json!({"kind": "send", "payload": {}, "delivery": bad});
            assert_eq!(run(with_delivery), Err(ErrorCode::LegacyShape));
        }
        assert_eq!(run(json!({"kind": "send"})), Err(ErrorCode::LegacyShape));
    }

    #[test]
    fn deliver_keeps_its_fields_and_requires_object_payloads() {
        let out = run(json!({"kind": "deliver", "payloads": [{}], "x": 1})).unwrap();
        assert_eq!(out, json!({"kind": "deliver", "payloads": [{}], "x": 1, "version": 1}));
        for bad in [
            json!({"kind": "deliver"}),
            json!({"kind": "deliver", "payloads": [null]}),
            json!({"kind": "deliver", "payloads": {}}),
        ] {
            assert_eq!(run(bad), Err(ErrorCode::LegacyShape));
        }
    }

    #[test]
    fn other_kinds_only_gain_the_version() {
        assert_eq!(
            run(json!({"kind": "reset", "reason": "r"})).unwrap(),
            json!({"kind": "reset", "reason": "r", "version": 1})
        );
        assert_eq!(run(json!({"kind": 7})).unwrap(), json!({"kind": 7, "version": 1}));
    }
}
