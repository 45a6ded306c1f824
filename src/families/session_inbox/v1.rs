//! Session inbox version 1 (contract §1): the strict shape of a version 1 wire value, and the
//! shared shapes later versions carry over unchanged.
//!
//! The shape statics here are the single source of the encoder's validation for version 1 and
//! of the frozen JSON Schema (`artifacts/session-inbox/v1/schema.json`).
//! Frozen: v1 has shipped. A shape change is a new version module, never an edit here.
//! This module must never import the decoder, the migration or negotiation.

use crate::error::EncodeError;
use crate::shape::{opt, req, Def, Field, Fields, Shape};
use serde_json::Value;

/// The version this module describes.
pub const VERSION: u32 = 1;

pub(crate) static STR: Shape = Shape::Str;
pub(crate) static BINARY: Shape = Shape::Binary;
pub(crate) static STR_ARRAY: Shape = Shape::Array(&STR);
pub(crate) static NUMBER: Shape = Shape::Number;
pub(crate) static NULL: Shape = Shape::Null;
pub(crate) static JSON_OBJECT: Shape = Shape::JsonObject;
static VERSION_1: Shape = Shape::ConstNumber(VERSION);
pub(crate) static PAYLOAD_INDEX: Shape = Shape::Integer {
    min: 0,
    max: 9_007_199_254_740_991,
};
static ATTRIBUTE: Shape = Shape::AnyOf(&[&STR, &STR_ARRAY]);
static ATTRIBUTES: Shape = Shape::Map(&ATTRIBUTE);
static PROVIDER_OPTIONS: Shape = Shape::Map(&JSON_OBJECT);
pub(crate) static TURN_POLICY: Shape = Shape::Enum(&["queue", "steer"]);

const fn tag(value: &'static Shape) -> Field {
    req("kind", value)
}

macro_rules! konst {
    ($name:ident, $s:literal) => {
        pub(crate) static $name: Shape = Shape::Const($s);
    };
}
konst!(K_DELIVER, "deliver");
konst!(K_TIMEOUT, "session-timeout");
konst!(K_CLEAR, "clear");
konst!(K_COMPACT, "compact");
konst!(K_RESET, "reset");
konst!(K_CANCEL, "cancel");
konst!(K_HOOK, "hook");
konst!(K_CALLBACK, "callback");
konst!(T_TEXT, "text");
konst!(T_IMAGE, "image");
konst!(T_FILE, "file");

/// Who is asking: an authenticated principal.
pub static AUTH_CONTEXT: Shape = Shape::Named(&Def {
    name: "AuthContext",
    id: "SessionInbox.AuthContext",
    doc: "The authenticated principal behind a delivery.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            req("attributes", &ATTRIBUTES),
            req("authenticator", &STR),
            opt("issuer", &STR),
            req("principalId", &STR),
            req("principalType", &STR),
            opt("subject", &STR),
        ],
    }),
});
pub(crate) static AUTH_OR_NULL: Shape = Shape::AnyOf(&[&AUTH_CONTEXT, &NULL]);

static REPLY_HOOK: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[tag(&K_HOOK), req("token", &STR)],
});
static REPLY_CALLBACK: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[tag(&K_CALLBACK), req("token", &STR), req("url", &STR)],
});
pub(crate) static REPLY_TO: Shape = Shape::Named(&Def {
    name: "ReplyTo",
    id: "SessionInbox.ReplyTo",
    doc: "Where a subagent's answer goes: a hook token, or a callback URL with its token.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[&REPLY_HOOK, &REPLY_CALLBACK],
    },
});

/// The subagent call a delivery answers.
pub static CALLER: Shape = Shape::Named(&Def {
    name: "Caller",
    id: "SessionInbox.Caller",
    doc: "The subagent call a delivery belongs to.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            req("callId", &STR),
            req("replyTo", &REPLY_TO),
            req("subagentName", &STR),
            opt("taskId", &STR),
        ],
    }),
});

pub(crate) static TRACE_CONTEXT: Shape = Shape::Named(&Def {
    name: "TraceContext",
    id: "SessionInbox.TraceContext",
    doc: "The trace context of the request that produced a delivery.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[req("spanId", &STR), req("traceFlags", &NUMBER), req("traceId", &STR)],
    }),
});

/// Where one payload came from.
pub static DELIVERY_ENTRY: Shape = Shape::Named(&Def {
    name: "DeliveryEntry",
    id: "SessionInbox.DeliveryEntry",
    doc: "The channel delivery one payload came from; payloadIndex points into payloads.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            req("channelKind", &STR),
            req("channelName", &STR),
            req("deliveryId", &STR),
            req("payloadIndex", &PAYLOAD_INDEX),
            opt("requestId", &STR),
            opt("requestTraceContext", &TRACE_CONTEXT),
        ],
    }),
});
static DELIVERY_ENTRIES: Shape = Shape::Array(&DELIVERY_ENTRY);

static INPUT_RESPONSE: Shape = Shape::Named(&Def {
    name: "InputResponse",
    id: "SessionInbox.InputResponse",
    doc: "An answer to an input request the session asked earlier.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[opt("optionId", &STR), req("requestId", &STR), opt("text", &STR)],
    }),
});
pub(crate) static INPUT_RESPONSES: Shape = Shape::Array(&INPUT_RESPONSE);

static TEXT_PART: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        req("type", &T_TEXT),
        opt("providerOptions", &PROVIDER_OPTIONS),
        req("text", &STR),
    ],
});
static IMAGE_PART: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        req("type", &T_IMAGE),
        req("image", &BINARY),
        opt("mediaType", &STR),
        opt("providerOptions", &PROVIDER_OPTIONS),
    ],
});
static FILE_PART: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[
        req("type", &T_FILE),
        req("data", &BINARY),
        opt("filename", &STR),
        req("mediaType", &STR),
        opt("providerOptions", &PROVIDER_OPTIONS),
    ],
});
static PART: Shape = Shape::Named(&Def {
    name: "UserContentPart",
    id: "SessionInbox.UserContentPart",
    doc: "One part of a user message; binary image/file data is a string in JSON.",
    shape: Shape::Tagged {
        tag: "type",
        variants: &[&TEXT_PART, &IMAGE_PART, &FILE_PART],
    },
});
static PARTS: Shape = Shape::Array(&PART);
pub(crate) static USER_CONTENT: Shape = Shape::Named(&Def {
    name: "UserContent",
    id: "SessionInbox.UserContent",
    doc: "A user message: a string, or an array of parts.",
    shape: Shape::AnyOf(&[&STR, &PARTS]),
});

/// One delivered payload: loose, so adapter-specific keys pass through untouched.
pub static DELIVER_PAYLOAD: Shape = Shape::Named(&Def {
    name: "DeliverPayload",
    id: "SessionInbox.DeliverPayload",
    doc: "One delivered payload. Loose on purpose: undeclared keys are the adapter extension point.",
    shape: Shape::Object(&Fields {
        strict: false,
        fields: &[
            opt("context", &STR_ARRAY),
            opt("inputResponses", &INPUT_RESPONSES),
            opt("message", &USER_CONTENT),
            opt("outputSchema", &JSON_OBJECT),
            opt("task", &JSON_OBJECT),
        ],
    }),
});
static DELIVER_PAYLOADS: Shape = Shape::Array(&DELIVER_PAYLOAD);

static DELIVER: Shape = Shape::Named(&Def {
    name: "SessionInboxDeliverV1",
    id: "SessionInbox.V1.Deliver",
    doc: "Deliver payloads to the session; payload is the mirror for pinned raw-send readers.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            tag(&K_DELIVER),
            req("version", &VERSION_1),
            req("payloads", &DELIVER_PAYLOADS),
            opt("payload", &DELIVER_PAYLOAD),
            opt("auth", &AUTH_OR_NULL),
            opt("caller", &CALLER),
            opt("deliveryMetadata", &DELIVERY_ENTRIES),
            opt("requestId", &STR),
            opt("taskDeliveryId", &STR),
            opt("turnPolicy", &TURN_POLICY),
        ],
    }),
});

macro_rules! control {
    ($name:ident, $ts:literal, $id:literal, $doc:literal, $kind:ident $(, $field:expr)*) => {
        static $name: Shape = Shape::Named(&Def {
            name: $ts,
            id: $id,
            doc: $doc,
            shape: Shape::Object(&Fields { strict: true, fields: &[tag(&$kind), req("version", &VERSION_1) $(, $field)*] }),
        });
    };
}
control!(
    TIMEOUT,
    "SessionInboxSessionTimeoutV1",
    "SessionInbox.V1.SessionTimeout",
    "The session timed out.",
    K_TIMEOUT
);
control!(
    CLEAR,
    "SessionInboxClearV1",
    "SessionInbox.V1.Clear",
    "Clear the session's history.",
    K_CLEAR
);
control!(
    COMPACT,
    "SessionInboxCompactV1",
    "SessionInbox.V1.Compact",
    "Compact the session's history.",
    K_COMPACT
);
control!(
    RESET,
    "SessionInboxResetV1",
    "SessionInbox.V1.Reset",
    "Reset the session.",
    K_RESET,
    opt("reason", &STR)
);
control!(
    CANCEL,
    "SessionInboxCancelV1",
    "SessionInbox.V1.Cancel",
    "Cancel a task or a turn.",
    K_CANCEL,
    opt("taskId", &STR),
    opt("turnId", &STR)
);

/// The complete version 1 wire value: one variant per kind.
pub static WIRE: Shape = Shape::Named(&Def {
    name: "SessionInboxWireV1",
    id: "SessionInbox.V1",
    doc: "A session inbox wire value, version 1.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[&DELIVER, &TIMEOUT, &CLEAR, &COMPACT, &RESET, &CANCEL],
    },
});

/// The `$id` of the frozen JSON Schema.
pub const SCHEMA_ID: &str = "urn:hookwire:session-inbox:v1";

/// The canonical JSON Schema of version 1.
pub fn json_schema() -> Value {
    crate::shape::json_schema(&WIRE, SCHEMA_ID, "SessionInbox.V1")
}

/// Validate a complete v1 value against the strict v1 shape.
pub fn validate(value: &Value) -> Result<(), EncodeError> {
    WIRE.validate(value)
}

#[cfg(test)]
mod tests {
    use super::validate;
    use serde_json::json;

    #[test]
    fn validation_names_the_path_and_what_was_expected() {
        let e = validate(&json!({"kind": "deliver", "version": 1, "payloads": [{"message": [{"type": "text"}]}]}))
            .unwrap_err();
        assert_eq!(e.path, "/payloads/0/message/0/text");
        assert!(e.expected.contains("string"), "{}", e.expected);
        let e = validate(&json!({"kind": "deliver", "version": 1, "payloads": [], "auth": {"attributes": {}}}))
            .unwrap_err();
        assert_eq!(e.path, "/auth/authenticator");
        validate(&json!({"kind": "deliver", "version": 1, "payloads": [], "auth": null})).unwrap();
        validate(&json!({"kind": "deliver", "version": 1, "payloads": [], "payload": {"task": {"files": []}}}))
            .unwrap();
    }
}
