//! Session inbox version 3 (contract §11): every delivery entry gains the optional
//! `acceptedDeploymentId`.
//!
//! Frozen once shipped: a shape change is a new version module, never an edit here.
//! This module must never import the decoder, a step or negotiation.

use crate::session_inbox::v1::DELIVER_PAYLOAD;
use crate::session_inbox::v1::{PAYLOAD_INDEX, TRACE_CONTEXT};
use crate::session_inbox::v2::CALLER;
use crate::session_inbox::wire::wire_version;

/// Where one payload came from, and which deployment accepted it.
pub static DELIVERY_ENTRY: Shape = Shape::Named(&Def {
    name: "DeliveryEntry",
    id: "SessionInbox.V3.DeliveryEntry",
    doc: "The channel delivery one payload came from; payloadIndex points into payloads.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            opt("acceptedDeploymentId", &STR),
            req("channelKind", &STR),
            req("channelName", &STR),
            req("deliveryId", &STR),
            req("payloadIndex", &PAYLOAD_INDEX),
            opt("requestId", &STR),
            opt("requestTraceContext", &TRACE_CONTEXT),
        ],
    }),
});

wire_version! {
    version: 3,
    payload: DELIVER_PAYLOAD,
    caller: CALLER,
    delivery_entry: DELIVERY_ENTRY,
    cancel: [opt("taskId", &STR), opt("turnId", &STR)],
}

#[cfg(test)]
mod tests {
    use super::validate;
    use crate::session_inbox::wire::samples;
    use serde_json::json;

    #[test]
    fn delivery_entries_accept_the_deployment() {
        samples(3).iter().for_each(|v| validate(v).unwrap());
        let entry = json!({"channelKind": "web", "channelName": "c", "deliveryId": "d", "payloadIndex": 0, "acceptedDeploymentId": "dpl"});
        validate(
            &json!({"kind": "deliver", "version": 3, "payloads": [{}], "payload": {}, "deliveryMetadata": [entry]}),
        )
        .unwrap();
        let e = validate(&json!({"kind": "deliver", "version": 2, "payloads": [], "payload": {}})).unwrap_err();
        assert_eq!(e.path, "/version");
    }
}
