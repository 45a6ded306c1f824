//! Session inbox version 4 (contract §11): `task`, in every DeliverPayload and in the mirror,
//! stops being an opaque JsonObject and becomes the strict TaskV4.
//!
//! Frozen once shipped: a shape change is a new version module, never an edit here.
//! This module must never import the decoder, a step or negotiation.

use crate::session_inbox::v1::{INPUT_RESPONSES, JSON_OBJECT, STR_ARRAY, USER_CONTENT};
use crate::session_inbox::v2::CALLER;
use crate::session_inbox::v3::DELIVERY_ENTRY;
use crate::session_inbox::wire::wire_version;

static COUNTER: Shape = Shape::Integer {
    min: 0,
    max: 9_007_199_254_740_991,
};
static JSON: Shape = Shape::Json;
static JSON_ARRAY: Shape = Shape::Array(&JSON);
static K_INVOKE: Shape = Shape::Const("agent-invoke");
static K_SETTLED: Shape = Shape::Const("agent-settled");
static K_AUTHORIZATION: Shape = Shape::Const("subagent-authorization-event");

static INVOKE_INPUT: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        opt("agentId", &STR),
        req("message", &STR),
        opt("outputSchema", &JSON_OBJECT),
        req("target", &STR),
    ],
});
static AGENT_INVOKE: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        req("kind", &K_INVOKE),
        req("input", &INVOKE_INPUT),
        req("invocationId", &STR),
    ],
});
static AGENT_SETTLED: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[req("kind", &K_SETTLED), req("result", &JSON_OBJECT)],
});
static AGENT_OPERATION: Shape = Shape::Named(&Def {
    name: "AgentOperation",
    id: "SessionInbox.V4.AgentOperation",
    doc: "What an agent request asks: invoke an agent, or report that an invocation settled.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[&AGENT_INVOKE, &AGENT_SETTLED],
    },
});
static AGENT_REQUEST: Shape = Shape::Named(&Def {
    name: "AgentRequest",
    id: "SessionInbox.V4.AgentRequest",
    doc: "A request of a task to an agent, and where the answer goes.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            req("replyTo", &STR),
            req("request", &AGENT_OPERATION),
            req("taskId", &STR),
        ],
    }),
});
static AGENT_REQUESTS: Shape = Shape::Array(&AGENT_REQUEST);

static AUTHORIZATION_PAYLOAD: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        req("callId", &STR),
        req("childSessionId", &STR),
        req("event", &JSON_OBJECT),
        req("kind", &K_AUTHORIZATION),
        req("subagentName", &STR),
    ],
});
static AUTHORIZATION_EVENT: Shape = Shape::Named(&Def {
    name: "AuthorizationEvent",
    id: "SessionInbox.V4.AuthorizationEvent",
    doc: "An authorization event a subagent raised for a task.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[req("hookPayload", &AUTHORIZATION_PAYLOAD), req("taskId", &STR)],
    }),
});
static AUTHORIZATION_EVENTS: Shape = Shape::Array(&AUTHORIZATION_EVENT);

static INPUT_REQUEST_FIELDS: Shape = Shape::Object(&Fields {
    strict: false,
    fields: &[
        req("replyTo", &STR),
        opt("request", &JSON),
        opt("requests", &JSON_ARRAY),
        req("sequence", &COUNTER),
        req("stepIndex", &COUNTER),
        req("taskId", &STR),
        req("turnId", &STR),
    ],
});
static INPUT_REQUEST: Shape = Shape::Named(&Def {
    name: "InputRequest",
    id: "SessionInbox.V4.InputRequest",
    doc: "A question a task asks its user: exactly one of request or requests. Loose: other keys pass.",
    shape: Shape::ExactlyOne {
        keys: &["request", "requests"],
        shape: &INPUT_REQUEST_FIELDS,
    },
});
static INPUT_REQUESTS: Shape = Shape::Array(&INPUT_REQUEST);
static VIEWS: Shape = Shape::Array(&JSON_OBJECT);

/// The task operations a payload carries (TaskV4).
pub static TASK: Shape = Shape::Named(&Def {
    name: "Task",
    id: "SessionInbox.V4.Task",
    doc: "The task operations a payload carries (TaskV4); views stay opaque.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            opt("agentRequests", &AGENT_REQUESTS),
            opt("authorizationEvents", &AUTHORIZATION_EVENTS),
            opt("inputRequests", &INPUT_REQUESTS),
            opt("views", &VIEWS),
        ],
    }),
});

/// One delivered payload, with a TaskV4 `task`: loose, so adapter keys pass through untouched.
pub static DELIVER_PAYLOAD: Shape = Shape::Named(&Def {
    name: "DeliverPayload",
    id: "SessionInbox.V4.DeliverPayload",
    doc: "One delivered payload. Loose on purpose: undeclared keys are the adapter extension point.",
    shape: Shape::Object(&Fields {
        strict: false,
        fields: &[
            opt("context", &STR_ARRAY),
            opt("inputResponses", &INPUT_RESPONSES),
            opt("message", &USER_CONTENT),
            opt("outputSchema", &JSON_OBJECT),
            opt("task", &TASK),
        ],
    }),
});

wire_version! {
    version: 4,
    payload: DELIVER_PAYLOAD,
    caller: CALLER,
    delivery_entry: DELIVERY_ENTRY,
    cancel: [opt("taskId", &STR), opt("turnId", &STR)],
}

#[cfg(test)]
mod tests {
    use super::validate;
    use crate::session_inbox::wire::samples;
    use serde_json::{json, Value};

    fn deliver(task: Value) -> Value {
        json!({"kind": "deliver", "version": 4, "payloads": [{"task": task}], "payload": {}})
    }

    #[test]
    fn tasks_are_strict_and_input_requests_carry_exactly_one_request() {
        samples(4).iter().for_each(|v| validate(v).unwrap());
        let entry = json!({"replyTo": "r", "taskId": "t", "turnId": "u", "sequence": 0, "stepIndex": 1, "request": {"q": 1}, "x": 1});
        validate(&deliver(json!({"inputRequests": [entry], "views": [{"usage": {}}]}))).unwrap();
        let mut both = entry.clone();
        both["requests"] = json!([]);
        assert_eq!(
            validate(&deliver(json!({"inputRequests": [both]}))).unwrap_err().path,
            "/payloads/0/task/inputRequests/0"
        );
        let mut neither = entry;
        neither.as_object_mut().unwrap().remove("request");
        assert!(validate(&deliver(json!({"inputRequests": [neither]}))).is_err());
        assert_eq!(
            validate(&deliver(json!({"files": []}))).unwrap_err().path,
            "/payloads/0/task/files"
        );
        let invoke = json!({"replyTo": "r", "taskId": "t", "request": {"kind": "agent-invoke", "invocationId": "i", "input": {"message": "m", "target": "x"}}});
        validate(&deliver(json!({"agentRequests": [invoke]}))).unwrap();
    }
}
