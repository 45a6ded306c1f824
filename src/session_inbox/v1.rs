//! Session inbox version 1 (contract §1, §5.2): the strict shape of the current wire value, the
//! builder that turns a command into a complete v1 value, and the mirror's coalescing.
//!
//! The shape statics here are the single source of the encoder's validation, the frozen JSON
//! Schema (`artifacts/session-inbox/v1/schema.json`) and the TypeScript declarations.
//! Frozen: v1 has shipped. A shape change is a new version module, never an edit here.
//! This module must never import the decoder, the migration or negotiation.

use crate::error::EncodeError;
use crate::removable::Removable;
use crate::shape::{opt, req, Def, Field, Fields, Shape};
use serde_json::{json, Map, Value};

/// The version this module describes.
pub const VERSION: u32 = 1;

static STR: Shape = Shape::Str;
static BINARY: Shape = Shape::Binary;
static STR_ARRAY: Shape = Shape::Array(&STR);
static NUMBER: Shape = Shape::Number;
static NULL: Shape = Shape::Null;
static JSON_OBJECT: Shape = Shape::JsonObject;
static VERSION_1: Shape = Shape::ConstNumber(VERSION);
static PAYLOAD_INDEX: Shape = Shape::Integer {
    min: 0,
    max: 9_007_199_254_740_991,
};
static ATTRIBUTE: Shape = Shape::AnyOf(&[&STR, &STR_ARRAY]);
static ATTRIBUTES: Shape = Shape::Map(&ATTRIBUTE);
static PROVIDER_OPTIONS: Shape = Shape::Map(&JSON_OBJECT);
static TURN_POLICY: Shape = Shape::Enum(&["queue", "steer"]);

const fn tag(value: &'static Shape) -> Field {
    req("kind", value)
}

macro_rules! konst {
    ($name:ident, $s:literal) => {
        static $name: Shape = Shape::Const($s);
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
static AUTH_OR_NULL: Shape = Shape::AnyOf(&[&AUTH_CONTEXT, &NULL]);

static REPLY_HOOK: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[tag(&K_HOOK), req("token", &STR)],
});
static REPLY_CALLBACK: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[tag(&K_CALLBACK), req("token", &STR), req("url", &STR)],
});
static REPLY_TO: Shape = Shape::Named(&Def {
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

static TRACE_CONTEXT: Shape = Shape::Named(&Def {
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
static INPUT_RESPONSES: Shape = Shape::Array(&INPUT_RESPONSE);

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
static USER_CONTENT: Shape = Shape::Named(&Def {
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

/// The mirror (`payload` beside `payloads`) exists only for consumers of the raw-send era.
pub const MIRROR_REMOVAL: Removable = Removable {
    what: "the v1 `payload` mirror (built in v1::build, dropped by decode)",
    site: "src/session_inbox/v1.rs",
    when: "every consumer that reads `.payload` (builds 0.30.5–0.31.0) has aged out under the 30-day session timeout, \
           and no stored value still carries a mirror a pinned consumer needs: then a v2 without the mirror",
};

/// The commands this builder takes (contract §5.1).
pub const COMMAND_KINDS: &[&str] = &[
    "send",
    "deliver",
    "session-timeout",
    "clear",
    "compact",
    "reset",
    "cancel",
];

/// The optional fields a `send` command carries over unchanged.
const SEND_CARRIED: &[&str] = &["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];

/// Build the complete, not yet validated v1 value for `command` (contract §5.2), taking the
/// command by value so nothing is copied but the mirror.
pub fn build(command: Value) -> Result<Value, EncodeError> {
    let Value::Object(mut cmd) = command else {
        return Err(EncodeError::invalid("", "a command object"));
    };
    let mut out = match cmd.get("kind").and_then(Value::as_str) {
        Some("send") => build_send(cmd)?,
        Some("deliver") => {
            match cmd.get("payloads").and_then(coalesce) {
                Some(mirror) => cmd.insert("payload".into(), mirror),
                None => cmd.remove("payload"),
            };
            cmd
        }
        Some(k) if COMMAND_KINDS.contains(&k) => cmd,
        _ => {
            let list = COMMAND_KINDS
                .iter()
                .map(|k| format!("\"{k}\""))
                .collect::<Vec<_>>()
                .join(" | ");
            return Err(EncodeError::invalid("/kind", format!("a command kind: one of {list}")));
        }
    };
    out.insert("version".into(), json!(VERSION));
    Ok(Value::Object(out))
}

fn build_send(mut cmd: Map<String, Value>) -> Result<Map<String, Value>, EncodeError> {
    let Some(payload) = cmd.remove("payload") else {
        return Err(EncodeError::invalid(
            "/payload",
            "DeliverPayload (required by a send command)",
        ));
    };
    let mut out = Map::new();
    out.insert("kind".into(), json!("deliver"));
    if let Some(delivery) = cmd.remove("delivery") {
        let Value::Object(mut entry) = delivery else {
            return Err(EncodeError::invalid(
                "/deliveryMetadata/0",
                "DeliveryEntry (the send's delivery must be an object)",
            ));
        };
        entry.insert("payloadIndex".into(), json!(0));
        out.insert("deliveryMetadata".into(), Value::Array(vec![Value::Object(entry)]));
    }
    for &key in SEND_CARRIED {
        if let Some(v) = cmd.remove(key) {
            out.insert(key.into(), v);
        }
    }
    out.insert("payload".into(), payload.clone());
    out.insert("payloads".into(), Value::Array(vec![payload]));
    Ok(out)
}

/// Validate a complete v1 value against the strict v1 shape.
pub fn validate(value: &Value) -> Result<(), EncodeError> {
    WIRE.validate(value)
}

/// The mirror for a list of payloads: `{}` for none, the payload for one, a merge for several.
/// Tolerates invalid input (it runs before validation, which reports it).
pub fn coalesce(payloads: &Value) -> Option<Value> {
    let list = payloads.as_array()?;
    if list.len() == 1 {
        return Some(list[0].clone());
    }
    let mut acc = Map::new();
    for p in list.iter().filter_map(Value::as_object) {
        for (key, v) in p {
            let merged = match (key.as_str(), acc.remove(key)) {
                ("context" | "inputResponses", Some(Value::Array(mut a))) if v.is_array() => {
                    a.extend(v.as_array().into_iter().flatten().cloned());
                    Value::Array(a)
                }
                ("task", Some(Value::Object(mut t))) if v.is_object() => {
                    for (tk, tv) in v.as_object().into_iter().flatten() {
                        let joined = match (t.remove(tk), tv) {
                            (Some(Value::Array(mut a)), Value::Array(b)) => {
                                a.extend(b.iter().cloned());
                                Value::Array(a)
                            }
                            _ => tv.clone(),
                        };
                        t.insert(tk.clone(), joined);
                    }
                    Value::Object(t)
                }
                ("message", Some(previous)) => join_messages(previous, v),
                _ => v.clone(),
            };
            acc.insert(key.clone(), merged);
        }
    }
    Some(Value::Object(acc))
}

fn join_messages(a: Value, b: &Value) -> Value {
    if let (Value::String(a), Value::String(b)) = (&a, b) {
        return Value::String(format!("{a}\n\n{b}"));
    }
    let mut parts = promote(a);
    parts.extend(promote(b.clone()));
    Value::Array(parts)
}

fn promote(message: Value) -> Vec<Value> {
    match message {
        Value::String(s) if s.is_empty() => Vec::new(),
        Value::String(s) => vec![json!({"type": "text", "text": s})],
        Value::Array(parts) => parts,
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{build, coalesce, validate};
    use crate::error::ErrorCode;
    use serde_json::json;

    #[test]
    fn send_is_built_field_by_field() {
        let v =
            build(json!({"kind": "send", "payload": {"message": "hi"}, "stray": 1, "turnPolicy": "steer"})).unwrap();
        assert_eq!(
            v,
            json!({"kind": "deliver", "version": 1, "payload": {"message": "hi"}, "payloads": [{"message": "hi"}], "turnPolicy": "steer"})
        );
        validate(&v).unwrap();
    }

    #[test]
    fn deliver_keeps_stray_keys_so_validation_rejects_them() {
        let v = build(json!({"kind": "deliver", "payloads": [], "stray": 1})).unwrap();
        let e = validate(&v).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::Invalid, "/stray"));
    }

    #[test]
    fn coalesce_merges_as_the_spec_says() {
        assert_eq!(coalesce(&json!([])), Some(json!({})));
        assert_eq!(coalesce(&json!([{"a": 1}])), Some(json!({"a": 1})));
        let merged = coalesce(&json!([
            {"message": "a", "context": ["x"], "task": {"files": [1], "id": "t1"}, "outputSchema": {"a": 1}, "interaction": 1},
            {"message": "b", "context": ["y"], "task": {"files": [2], "id": "t2"}, "interaction": 2},
        ]))
        .unwrap();
        assert_eq!(
            merged,
            json!({"message": "a\n\nb", "context": ["x", "y"], "task": {"files": [1, 2], "id": "t2"}, "outputSchema": {"a": 1}, "interaction": 2})
        );
        let parts = coalesce(&json!([{"message": "a"}, {"message": [{"type": "text", "text": "b"}]}, {"message": ""}]))
            .unwrap();
        assert_eq!(
            parts,
            json!({"message": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})
        );
    }

    #[test]
    fn validation_names_the_path_and_what_was_expected() {
        let v = build(json!({"kind": "deliver", "payloads": [{"message": [{"type": "text"}]}]})).unwrap();
        let e = validate(&v).unwrap_err();
        assert_eq!(e.path, "/payloads/0/message/0/text");
        assert!(e.expected.contains("string"), "{}", e.expected);
        let e = validate(&json!({"kind": "deliver", "version": 1, "payloads": [], "auth": {"attributes": {}}}))
            .unwrap_err();
        assert_eq!(e.path, "/auth/authenticator");
        validate(&json!({"kind": "deliver", "version": 1, "payloads": [], "auth": null})).unwrap();
    }
}
