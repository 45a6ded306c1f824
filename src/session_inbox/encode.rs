//! The encode facade (contract §5, §12, §16): the only producer of persisted session inbox
//! values. Build the complete current value, validate it once, walk the `down` steps to the
//! target version, validate against the target version's frozen shape, and for a v0 target
//! convert from version 1. Nothing is dropped to make a value fit: a `down` step that cannot
//! carry a field refuses with `INCOMPATIBLE`.

use crate::error::{EncodeError, ErrorCode};
use crate::session_inbox::{build, producer_version, v0, WIRE_VERSION};
use serde_json::{Map, Value};

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

    /// Parse the JSON form (`{"version": N}` for N in 1..=current, `{"version": 0, "variant":
    /// "deliver"|"send"}`); anything else, extra keys included, is `UNSUPPORTED_TARGET`.
    pub fn from_json(v: &Value) -> Result<Target, EncodeError> {
        let unsupported = || {
            EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!(
                    "unsupported target {}: expected {{\"version\":N}} with N from 1 to {WIRE_VERSION}, or {{\"version\":0,\"variant\":\"deliver\"|\"send\"}}",
                    crate::canonical::to_string(v)
                ),
            )
        };
        let obj = v.as_object().ok_or_else(unsupported)?;
        let version = obj.get("version").and_then(Value::as_f64).ok_or_else(unsupported)?;
        let target = match (version, obj.get("variant").map(|x| x.as_str())) {
            (n, None) if n.fract() == 0.0 && n >= 1.0 && n <= f64::from(WIRE_VERSION) => Target::Version(n as u32),
            (0.0, Some(Some("deliver"))) => Target::V0(V0Variant::Deliver),
            (0.0, Some(Some("send"))) => Target::V0(V0Variant::Send),
            _ => return Err(unsupported()),
        };
        if obj.len() != if obj.contains_key("variant") { 2 } else { 1 } {
            return Err(unsupported());
        }
        Ok(target)
    }

    /// The CLI's names: `v1` … `v6`, `v0-deliver`, `v0-send`.
    pub fn from_name(name: &str) -> Result<Target, EncodeError> {
        let version = name.strip_prefix('v').filter(|d| d.bytes().all(|b| b.is_ascii_digit()));
        match name {
            "v0-deliver" => Ok(Target::V0(V0Variant::Deliver)),
            "v0-send" => Ok(Target::V0(V0Variant::Send)),
            _ => match version.and_then(|d| d.parse::<u32>().ok()) {
                Some(n) if (1..=WIRE_VERSION).contains(&n) => Ok(Target::Version(n)),
                _ => Err(EncodeError::other(
                    ErrorCode::UnsupportedTarget,
                    format!("unsupported target {name:?}: expected v1 … v{WIRE_VERSION}, v0-deliver or v0-send"),
                )),
            },
        }
    }

    /// The CLI name of this target.
    pub fn name(self) -> String {
        match self {
            Target::Version(n) => format!("v{n}"),
            Target::V0(V0Variant::Deliver) => "v0-deliver".into(),
            Target::V0(V0Variant::Send) => "v0-send".into(),
        }
    }

    /// Every target this build encodes for: the two v0 variants, then 1 ..= current.
    pub fn all() -> Vec<Target> {
        let mut out = vec![Target::V0(V0Variant::Deliver), Target::V0(V0Variant::Send)];
        out.extend((1..=WIRE_VERSION).map(Target::Version));
        out
    }

    /// The versioned shape this target is walked down to (1 for the v0 variants).
    pub fn walk_to(self) -> u32 {
        match self {
            Target::Version(n) => n,
            Target::V0(_) => 1,
        }
    }

    /// Whether this build can encode for it.
    pub fn check(self) -> Result<Target, EncodeError> {
        match self {
            Target::Version(v) if !(1..=WIRE_VERSION).contains(&v) => Err(EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!(
                    "unsupported target version {v}: this build encodes versions 1 to {WIRE_VERSION} and the two v0 variants"
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
/// let command = json!({"kind": "send", "payload": {"message": "hi"}});
/// let wire = encode(&command, Target::CURRENT).unwrap();
/// assert_eq!(wire["version"], hookwire::session_inbox::WIRE_VERSION);
/// assert_eq!(wire["payload"], wire["payloads"][0]);
/// let for_v1 = encode(&command, Target::Version(1)).unwrap();
/// assert_eq!(for_v1["version"], 1);
/// ```
pub fn encode(command: &Value, target: Target) -> Result<Value, EncodeError> {
    encode_owned(command.clone(), target)
}

/// [`encode`], taking the command by value: nothing is copied but the mirror.
pub fn encode_owned(command: Value, target: Target) -> Result<Value, EncodeError> {
    let target = target.check()?;
    let wire = build::build(command)?;
    producer_version(WIRE_VERSION).validate(&wire)?;
    let Value::Object(mut map) = wire else {
        return Err(EncodeError::invalid("", "an object"));
    };
    // Contract §12.4: a v0 send keeps the command's acceptedDeploymentId (older consumers ignore it).
    let accepted = match target {
        Target::V0(V0Variant::Send) => first_accepted_deployment(&map),
        _ => None,
    };
    walk_down(&mut map, target.walk_to())?;
    Ok(match target {
        Target::Version(_) => Value::Object(map),
        Target::V0(V0Variant::Deliver) => v0::to_deliver_envelope(map),
        Target::V0(V0Variant::Send) => v0::to_raw_send(map, accepted),
    })
}

/// Walk a validated current value down to version `to`, then validate it against that
/// version's frozen shape: a failure there is `INCOMPATIBLE` too (the command is valid; that
/// receiver cannot carry it).
pub fn walk_down(map: &mut Map<String, Value>, to: u32) -> Result<(), EncodeError> {
    for from in (to + 1..=WIRE_VERSION).rev() {
        (producer_version(from).down)(map)?;
    }
    let shape = producer_version(to);
    let walked = Value::Object(std::mem::take(map));
    let checked = shape.validate(&walked);
    let Value::Object(back) = walked else {
        return Err(EncodeError::invalid("", "an object"));
    };
    *map = back;
    checked.map_err(|e| {
        EncodeError::incompatible(
            &e.path,
            to,
            &format!("version {to}'s frozen shape expects {} there", e.expected),
        )
    })
}

/// The `acceptedDeploymentId` of the delivery entry for payload 0, if any.
fn first_accepted_deployment(map: &Map<String, Value>) -> Option<Value> {
    map.get("deliveryMetadata")?
        .as_array()?
        .iter()
        .find(|e| e.get("payloadIndex").and_then(Value::as_f64) == Some(0.0))?
        .get("acceptedDeploymentId")
        .cloned()
}

/// An encode error as the JSON object the CLI and the JS encoder report:
/// `{"code", "message"}`, plus `"path"` and `"expected"` for `INVALID`, `"path"` and
/// `"version"` for `INCOMPATIBLE`.
pub fn error_json(e: &EncodeError) -> Value {
    let mut m = serde_json::Map::new();
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

/// `{key: value}`, moving `value` in (`json!` would copy it through `Serialize`).
pub fn answer(key: &str, value: Value) -> Value {
    let mut m = Map::new();
    m.insert(key.into(), value);
    Value::Object(m)
}

/// Encode `command` for the target given as JSON (`{"version":1}`, …): `{"ok": wire}` or
/// `{"error": …}` — the answer of one `hookwire encode --lines` line.
pub fn encode_result(command: Value, target: &Value) -> Value {
    let result = Target::from_json(target).and_then(|t| encode_owned(command, t));
    match result {
        Ok(wire) => answer("ok", wire),
        Err(e) => answer("error", error_json(&e)),
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
    use crate::session_inbox::WIRE_VERSION;
    use serde_json::json;

    #[test]
    fn targets_parse_strictly() {
        assert_eq!(
            Target::from_json(&json!({ "version": WIRE_VERSION })).unwrap(),
            Target::CURRENT
        );
        assert_eq!(Target::from_json(&json!({"version": 1})).unwrap(), Target::Version(1));
        assert_eq!(
            Target::from_json(&json!({"version": 0, "variant": "send"})).unwrap(),
            Target::V0(V0Variant::Send)
        );
        assert_eq!(Target::from_json(&json!({"version": 2.0})).unwrap(), Target::Version(2));
        for bad in [
            json!({ "version": WIRE_VERSION + 1 }),
            json!({"version": 1.5}),
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
            encode(&json!({"kind": "clear"}), Target::Version(WIRE_VERSION + 1))
                .unwrap_err()
                .code,
            ErrorCode::UnsupportedTarget
        );
    }
}
