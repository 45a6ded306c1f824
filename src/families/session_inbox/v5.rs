//! Session inbox version 5 (contract §11): usage reports may carry `costUsd`. Those reports sit
//! inside opaque JsonObjects (`task.views[i]`, an agent result), so no key of the frozen shape
//! changes except `version`; the step pair is what gives the version its meaning.
//!
//! Frozen once shipped: a shape change is a new version module, never an edit here.
//! This module must never import the decoder, a step or negotiation.

use crate::session_inbox::v2::CALLER;
use crate::session_inbox::v3::DELIVERY_ENTRY;
use crate::session_inbox::v4::DELIVER_PAYLOAD;
use crate::session_inbox::wire::wire_version;

wire_version! {
    version: 5,
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
    fn cost_reports_are_accepted_where_usage_is_opaque() {
        samples(5).iter().for_each(|v| validate(v).unwrap());
        let task = json!({"views": [{"usage": {"costUsd": 0.25}}]});
        validate(&json!({"kind": "deliver", "version": 5, "payloads": [{"task": task}], "payload": {"task": task}}))
            .unwrap();
    }
}
