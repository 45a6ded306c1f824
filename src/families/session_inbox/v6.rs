//! Session inbox version 6 (contract §11), the current version: `cancel` gains the optional
//! `tasks` (boolean).
//!
//! Frozen once shipped: a shape change is a new version module, never an edit here.
//! This module must never import the decoder, a step or negotiation.

use crate::session_inbox::v2::CALLER;
use crate::session_inbox::v3::DELIVERY_ENTRY;
use crate::session_inbox::v4::DELIVER_PAYLOAD;
use crate::session_inbox::wire::wire_version;

static BOOL: Shape = Shape::Bool;

wire_version! {
    version: 6,
    payload: DELIVER_PAYLOAD,
    caller: CALLER,
    delivery_entry: DELIVERY_ENTRY,
    cancel: [opt("taskId", &STR), opt("tasks", &BOOL), opt("turnId", &STR)],
}

#[cfg(test)]
mod tests {
    use super::validate;
    use crate::session_inbox::wire::samples;
    use serde_json::json;

    #[test]
    fn cancel_takes_a_boolean_tasks() {
        samples(6).iter().for_each(|v| validate(v).unwrap());
        validate(&json!({"kind": "cancel", "version": 6, "tasks": true})).unwrap();
        assert_eq!(
            validate(&json!({"kind": "cancel", "version": 6, "tasks": "yes"}))
                .unwrap_err()
                .path,
            "/tasks"
        );
    }
}
