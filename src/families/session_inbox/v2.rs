//! Session inbox version 2 (contract §11): `caller` gains the optional `activityObserver`, and
//! the deliver mirror `payload` becomes required.
//!
//! Frozen once shipped: a shape change is a new version module, never an edit here.
//! This module must never import the decoder, a step or negotiation.

use crate::session_inbox::v1::{DELIVERY_ENTRY, DELIVER_PAYLOAD, REPLY_TO};
use crate::session_inbox::wire::wire_version;

static WORK_KIND: Shape = Shape::Enum(&["root-turn", "subagent", "remote-agent", "task"]);
static SINK_VERSION: Shape = Shape::ConstNumber(1);
static SINK: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[req("url", &STR), req("version", &SINK_VERSION)],
});
static WORK_IDENTITY: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        opt("callId", &STR),
        req("id", &STR),
        req("kind", &WORK_KIND),
        opt("name", &STR),
        opt("parentId", &STR),
        req("rootSessionId", &STR),
        req("rootTurnId", &STR),
        opt("sessionId", &STR),
        opt("turnId", &STR),
    ],
});

/// Where a subagent's activity is observed.
pub static ACTIVITY_OBSERVER: Shape = Shape::Named(&Def {
    name: "ActivityObserver",
    id: "SessionInbox.V2.ActivityObserver",
    doc: "Where the activity of a call is reported (observation metadata), and whose work it is.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[req("sink", &SINK), opt("workIdentity", &WORK_IDENTITY)],
    }),
});

/// The subagent call a delivery answers, with its activity observer.
pub static CALLER: Shape = Shape::Named(&Def {
    name: "Caller",
    id: "SessionInbox.V2.Caller",
    doc: "The subagent call a delivery belongs to.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            opt("activityObserver", &ACTIVITY_OBSERVER),
            req("callId", &STR),
            req("replyTo", &REPLY_TO),
            req("subagentName", &STR),
            opt("taskId", &STR),
        ],
    }),
});

wire_version! {
    version: 2,
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
    fn the_mirror_is_required_and_the_observer_accepted() {
        samples(2).iter().for_each(|v| validate(v).unwrap());
        let e = validate(&json!({"kind": "deliver", "version": 2, "payloads": []})).unwrap_err();
        assert_eq!(e.path, "/payload");
        let caller = json!({"callId": "c", "subagentName": "s", "replyTo": {"kind": "hook", "token": "t"},
            "activityObserver": {"sink": {"url": "https://o", "version": 1}, "workIdentity": {"id": "w", "kind": "task", "rootSessionId": "s", "rootTurnId": "t"}}});
        validate(&json!({"kind": "deliver", "version": 2, "payloads": [], "payload": {}, "caller": caller})).unwrap();
    }
}
