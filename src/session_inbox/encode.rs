//! The encode facade (contract §5): the only producer of persisted session inbox values.
//! Build the complete v1 value, validate it once, then emit it for the receiver's version.
//! Nothing is changed after validation except the documented v0 down-conversion.

use crate::error::{EncodeError, ErrorCode};
use crate::session_inbox::{v0, v1, WIRE_VERSION};
use serde_json::Value;

/// The two shapes of the unversioned era a v0 target can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum V0Variant {
    /// The legacy deliver envelope (builds ≤ 0.30.4).
    Deliver,
    /// The raw send command (builds 0.30.5–0.31.0).
    Send,
}

/// The version (and for v0, the variant) a receiver understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A versioned receiver; only supported versions encode.
    Version(u32),
    /// An unversioned receiver of one of the two historic shapes.
    V0(V0Variant),
}

impl Target {
    /// The current version.
    pub const CURRENT: Target = Target::Version(WIRE_VERSION);

    /// The target's JSON form: `{"version":1}` or `{"version":0,"variant":"send"}`.
    pub fn to_json(self) -> Value {
        match self {
            Target::Version(v) => serde_json::json!({ "version": v }),
            Target::V0(V0Variant::Deliver) => {
                serde_json::json!({"version": 0, "variant": "deliver"})
            }
            Target::V0(V0Variant::Send) => serde_json::json!({"version": 0, "variant": "send"}),
        }
    }

    /// Parse the JSON form; anything else (extra keys included) is `UNSUPPORTED_TARGET`.
    pub fn from_json(v: &Value) -> Result<Target, EncodeError> {
        let unsupported = || {
            EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!(
                    "unsupported target {}: expected {{\"version\":{WIRE_VERSION}}} or {{\"version\":0,\"variant\":\"deliver\"|\"send\"}}",
                    crate::canonical::to_string(v)
                ),
            )
        };
        let obj = v.as_object().ok_or_else(unsupported)?;
        let version = obj.get("version").and_then(Value::as_f64).ok_or_else(unsupported)?;
        let target = match (version, obj.get("variant").map(|x| x.as_str())) {
            (v, None) if v == f64::from(WIRE_VERSION) => Target::Version(WIRE_VERSION),
            (0.0, Some(Some("deliver"))) => Target::V0(V0Variant::Deliver),
            (0.0, Some(Some("send"))) => Target::V0(V0Variant::Send),
            _ => return Err(unsupported()),
        };
        if obj.len() != if obj.contains_key("variant") { 2 } else { 1 } {
            return Err(unsupported());
        }
        Ok(target)
    }

    /// The CLI's names: `v1`, `v0-deliver`, `v0-send`.
    pub fn from_name(name: &str) -> Result<Target, EncodeError> {
        match name {
            "v0-deliver" => Ok(Target::V0(V0Variant::Deliver)),
            "v0-send" => Ok(Target::V0(V0Variant::Send)),
            n if n.strip_prefix('v').and_then(|x| x.parse::<u32>().ok()) == Some(WIRE_VERSION) => Ok(Target::CURRENT),
            _ => Err(EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!("unsupported target {name:?}: expected v{WIRE_VERSION}, v0-deliver or v0-send"),
            )),
        }
    }

    /// Whether this build can encode for it.
    pub fn check(self) -> Result<Target, EncodeError> {
        match self {
            Target::Version(v) if v != WIRE_VERSION => Err(EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!(
                    "unsupported target version {v}: this build encodes version {WIRE_VERSION} and the two v0 variants"
                ),
            )),
            t => Ok(t),
        }
    }
}

/// Encode `command` (contract §5.1) for `target`: the wire value to persist, or why not.
///
/// ```
/// use hookwire::session_inbox::encode::{encode, Target};
/// use serde_json::json;
/// let wire = encode(&json!({"kind": "send", "payload": {"message": "hi"}}), Target::CURRENT).unwrap();
/// assert_eq!(wire["version"], 1);
/// assert_eq!(wire["payload"], wire["payloads"][0]);
/// ```
pub fn encode(command: &Value, target: Target) -> Result<Value, EncodeError> {
    encode_owned(command.clone(), target)
}

/// [`encode`], taking the command by value: nothing is copied but the mirror.
pub fn encode_owned(command: Value, target: Target) -> Result<Value, EncodeError> {
    let target = target.check()?;
    let wire = v1::build(command)?;
    v1::validate(&wire)?;
    let Value::Object(map) = wire else {
        return Err(EncodeError::invalid("", "an object"));
    };
    Ok(match target {
        Target::Version(_) => Value::Object(map),
        Target::V0(V0Variant::Deliver) => v0::to_deliver_envelope(map),
        Target::V0(V0Variant::Send) => v0::to_raw_send(map),
    })
}

/// An encode error as the JSON object the CLI and the JS encoder report:
/// `{"code", "message"}`, plus `"path"` and `"expected"` for `INVALID`.
pub fn error_json(e: &EncodeError) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), Value::from(e.code.as_str()));
    m.insert("message".into(), Value::from(e.message.as_str()));
    if e.code == ErrorCode::Invalid {
        m.insert("path".into(), Value::from(e.path.as_str()));
        m.insert("expected".into(), Value::from(e.expected.as_str()));
    }
    Value::Object(m)
}

/// Encode `command` for the target given as JSON (`{"version":1}`, …): `{"ok": wire}` or
/// `{"error": …}` — the answer of one `hookwire encode --lines` line.
pub fn encode_result(command: Value, target: &Value) -> Value {
    let result = Target::from_json(target).and_then(|t| encode_owned(command, t));
    match result {
        Ok(wire) => serde_json::json!({ "ok": wire }),
        Err(e) => serde_json::json!({ "error": error_json(&e) }),
    }
}

/// [`encode`], as canonical JSON bytes (keys sorted, no whitespace).
pub fn encode_to_string(command: &Value, target: Target) -> Result<String, EncodeError> {
    encode(command, target).map(|v| crate::canonical::to_string(&v))
}

#[cfg(test)]
mod tests {
    use super::{encode, Target, V0Variant};
    use crate::error::ErrorCode;
    use serde_json::json;

    #[test]
    fn targets_parse_strictly() {
        assert_eq!(Target::from_json(&json!({"version": 1})).unwrap(), Target::CURRENT);
        assert_eq!(
            Target::from_json(&json!({"version": 0, "variant": "send"})).unwrap(),
            Target::V0(V0Variant::Send)
        );
        for bad in [
            json!({"version": 2}),
            json!({"version": 0}),
            json!({"version": 1, "variant": "send"}),
            json!({"version": 1, "x": 1}),
            json!("v1"),
        ] {
            assert_eq!(
                Target::from_json(&bad).unwrap_err().code,
                ErrorCode::UnsupportedTarget,
                "{bad}"
            );
        }
        assert_eq!(
            encode(&json!({"kind": "clear"}), Target::Version(2)).unwrap_err().code,
            ErrorCode::UnsupportedTarget
        );
    }
}
