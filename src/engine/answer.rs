//! The one answer of the producer side, as every surface reports it: `{"ok": value}` or
//! `{"error": {"code", "message", …}}`. The CLI's `--lines` answers, the encoder's wasm exports
//! (which the JS encoder entry reads) and every family's `encode` / `negotiate` descriptions
//! render it here, so its JSON form exists once.

use crate::error::{DecodeError, EncodeError, ErrorCode, Transport};
use serde_json::{Map, Value};

/// An answer: a value, a refusal of the value (an [`EncodeError`]), or a refusal of the
/// transport around it (a [`Transport`] code, a message, and where in the request, if known).
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The value: a wire value, a negotiated target, a decoded value.
    Ok(Value),
    /// The value was refused, with the contract's code.
    Refused(EncodeError),
    /// The value could not be decoded.
    Undecodable(DecodeError),
    /// What carried the value was refused.
    Transport {
        /// The code.
        code: Transport,
        /// What is wrong, in words.
        message: String,
        /// A JSON pointer into the request, when the refusal is about one place of it.
        path: Option<String>,
    },
}

impl Answer {
    /// A transport refusal without a place.
    pub fn transport(code: Transport, message: impl Into<String>) -> Answer {
        Answer::Transport {
            code,
            message: message.into(),
            path: None,
        }
    }

    /// A transport refusal at `path` of the request.
    pub fn transport_at(code: Transport, message: impl Into<String>, path: impl Into<String>) -> Answer {
        Answer::Transport {
            code,
            message: message.into(),
            path: Some(path.into()),
        }
    }

    /// The answer as JSON: `{"ok": …}` or `{"error": {"code", "message"}}`, the error with
    /// `"path"` and `"expected"` for `INVALID`, `"path"` and `"version"` for `INCOMPATIBLE`, and
    /// `"path"` for a transport refusal that has one.
    pub fn to_json(self) -> Value {
        let mut outer = Map::new();
        match self {
            Answer::Ok(v) => {
                outer.insert("ok".into(), v);
            }
            Answer::Refused(e) => {
                outer.insert("error".into(), error_json(&e));
            }
            Answer::Undecodable(e) => {
                let mut m = Map::new();
                m.insert("code".into(), Value::from(e.code.as_str()));
                m.insert("message".into(), Value::from(e.to_string()));
                if let Some(v) = e.version {
                    m.insert("version".into(), crate::canonical::json_number(v));
                }
                if e.detail.at.is_some() {
                    m.insert("path".into(), Value::from(e.path()));
                    m.insert("expected".into(), Value::from(e.detail.text()));
                }
                outer.insert("error".into(), Value::Object(m));
            }
            Answer::Transport { code, message, path } => {
                let mut m = Map::new();
                m.insert("code".into(), Value::from(code.as_str()));
                m.insert("message".into(), Value::from(message));
                if let Some(path) = path {
                    m.insert("path".into(), Value::from(path));
                }
                outer.insert("error".into(), Value::Object(m));
            }
        }
        Value::Object(outer)
    }
}

impl Answer {
    /// The error's code, if the answer is one.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            Answer::Ok(_) => None,
            Answer::Refused(e) => Some(e.code.as_str()),
            Answer::Undecodable(e) => Some(e.code.as_str()),
            Answer::Transport { code, .. } => Some(code.as_str()),
        }
    }

    /// The error's message, if the answer is one.
    pub fn message(&self) -> Option<String> {
        match self {
            Answer::Ok(_) => None,
            Answer::Refused(e) => Some(e.message.clone()),
            Answer::Undecodable(e) => Some(e.to_string()),
            Answer::Transport { message, .. } => Some(message.clone()),
        }
    }

    /// The answer as canonical JSON text (one `--lines` answer).
    pub fn to_text(self) -> String {
        crate::canonical::to_string(&self.to_json())
    }

    /// The value of an `Ok` answer, or the answer itself when it refuses.
    pub fn ok(self) -> Result<Value, Answer> {
        match self {
            Answer::Ok(v) => Ok(v),
            other => Err(other),
        }
    }
}

impl From<Result<Value, DecodeError>> for Answer {
    fn from(r: Result<Value, DecodeError>) -> Answer {
        match r {
            Ok(v) => Answer::Ok(v),
            Err(e) => Answer::Undecodable(e),
        }
    }
}

impl From<Result<Value, EncodeError>> for Answer {
    fn from(r: Result<Value, EncodeError>) -> Answer {
        match r {
            Ok(v) => Answer::Ok(v),
            Err(e) => Answer::Refused(e),
        }
    }
}

/// The JSON Schema of every answer (the CLI's `--lines` lines, the encoder's wasm exports):
/// `{"ok": …}` or `{"error": {"code", "message", "path"?, "expected"?, "version"?}}`, whose code
/// is one of the stable codes — every [`ErrorCode`] and every [`Transport`] code (contract §13).
pub fn json_schema() -> Value {
    let codes: Vec<&str> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .chain(Transport::ALL.iter().map(|t| t.as_str()))
        .collect();
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "hookwire.Answer",
        "title": "An answer of hookwire: one `--lines` line of the CLI, or of the encoder's wasm exports",
        "oneOf": [
            {
                "type": "object",
                "description": "The value: a decoded value, a wire value, or a negotiated target.",
                "required": ["ok"],
                "properties": {"ok": {}},
                "additionalProperties": false
            },
            {
                "type": "object",
                "description": "A refusal, with a stable code.",
                "required": ["error"],
                "properties": {
                    "error": {
                        "type": "object",
                        "required": ["code", "message"],
                        "properties": {
                            "code": {"enum": codes},
                            "message": {"type": "string"},
                            "path": {"type": "string", "description": "A JSON pointer (RFC 6901) to the offending place."},
                            "expected": {"type": "string", "description": "INVALID: what was expected there."},
                            "version": {"type": ["number", "null"], "description": "The version involved: the value's, or the one that cannot carry it."}
                        },
                        "additionalProperties": false
                    }
                },
                "additionalProperties": false
            }
        ]
    })
}

/// An encode error as the JSON object of an answer's `"error"`.
pub fn error_json(e: &EncodeError) -> Value {
    let mut m = Map::new();
    m.insert("code".into(), Value::from(e.code.as_str()));
    m.insert("message".into(), Value::from(e.message.as_str()));
    match e.code {
        ErrorCode::Invalid => {
            m.insert("path".into(), Value::from(e.path.as_str()));
            m.insert("expected".into(), Value::from(e.expected.as_str()));
        }
        ErrorCode::Incompatible => {
            m.insert("path".into(), Value::from(e.path.as_str()));
            m.insert("version".into(), Value::from(e.version));
        }
        _ => {}
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::Answer;
    use crate::error::{EncodeError, ErrorCode, Transport};
    use serde_json::json;

    #[test]
    fn one_rendering_for_every_answer() {
        assert_eq!(Answer::Ok(json!(1)).to_json(), json!({"ok": 1}));
        let e = EncodeError::invalid("/kind", "a kind");
        let rendered = Answer::Refused(e.clone()).to_json();
        assert_eq!(rendered["error"]["code"], "INVALID");
        assert_eq!(rendered["error"]["path"], "/kind");
        assert_eq!(rendered["error"]["expected"], "a kind");
        assert_eq!(rendered["error"]["message"], e.message.as_str());
        assert_eq!(
            Answer::transport_at(Transport::InvalidRequest, "no", "/hooks").to_json(),
            json!({"error": {"code": "INVALID_REQUEST", "message": "no", "path": "/hooks"}})
        );
        let unsupported = Answer::Refused(EncodeError::other(ErrorCode::UnsupportedTarget, "no such target")).to_json();
        assert_eq!(unsupported["error"].as_object().map(|m| m.len()), Some(2));
    }
}
