//! The turn-control encoder (contract §14, §16): the command is the wire value without `version`
//! (strict: an unknown key, or a `version` of its own, is `INVALID`); the encoder adds the
//! current version, validates the complete value once, and walks it down to the target —
//! `{version: 1}`, or `{version: 0}` for a driver that predates the capability. `action` is
//! moved, never rebuilt.

use crate::error::{EncodeError, ErrorCode};
use crate::family::ProducerVersion;
use crate::turn_control::{FAMILY, WIRE_VERSION};
use serde_json::{json, Value};

/// The kinds a command may have: the kinds of the current version, from the symbol table.
fn command_kinds() -> impl Iterator<Item = &'static str> {
    crate::turn_control::KIND_SYMS.iter().map(|s| crate::turn_control::symbols::SYMBOLS[s.0 as usize])
}

/// The producer entry of `version` ([`FamilyDesc::version`](crate::family::FamilyDesc::version)).
/// The registry guard holds every version to one, so a missing one is refused, never taken for
/// another version's.
fn producer(version: u32) -> Result<&'static ProducerVersion, EncodeError> {
    FAMILY.version(version).ok_or_else(|| {
        EncodeError::other(
            ErrorCode::UnsupportedTarget,
            format!("this build has no producer of turn-control version {version}"),
        )
    })
}

/// A target given as JSON: `{"version": N}` with N in 0 ..= current (no other key).
///
/// ```
/// use hookwire::turn_control::encode::target_from_json;
/// assert_eq!(target_from_json(&serde_json::json!({"version": 0})).unwrap(), 0);
/// assert_eq!(target_from_json(&serde_json::json!({"version": 9})).unwrap_err().code.as_str(), "UNSUPPORTED_TARGET");
/// ```
pub fn target_from_json(v: &Value) -> Result<u32, EncodeError> {
    let obj = v.as_object().filter(|o| o.len() == 1);
    match obj.and_then(|o| o.get("version")).and_then(Value::as_f64) {
        Some(n) if n.fract() == 0.0 && (0.0..=f64::from(WIRE_VERSION)).contains(&n) => Ok(n as u32),
        _ => Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            format!(
                "unsupported target {}: expected {{\"version\":N}} with N from 0 to {WIRE_VERSION}",
                crate::canonical::to_string(v)
            ),
        )),
    }
}

/// Encode `command` for the target version (0 ..= current).
///
/// ```
/// use hookwire::turn_control::encode::encode;
/// use serde_json::json;
/// let command = json!({"kind": "turn-delivery-accepted", "requestId": "r-1"});
/// assert_eq!(encode(command.clone(), 1).unwrap()["version"], 1);
/// assert_eq!(encode(command, 0).unwrap(), json!({"kind": "turn-delivery-accepted", "requestId": "r-1"}));
/// ```
pub fn encode(command: Value, target: u32) -> Result<Value, EncodeError> {
    if target > WIRE_VERSION {
        return Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            format!("unsupported target version {target}: this build encodes 0 to {WIRE_VERSION}"),
        ));
    }
    let Value::Object(mut map) = command else {
        return Err(EncodeError::invalid("", "a command object"));
    };
    if !map
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| command_kinds().any(|c| c == k))
    {
        return Err(EncodeError::not_a_command_kind(command_kinds()));
    }
    if map.contains_key("version") {
        return Err(EncodeError::invalid(
            "/version",
            "no such key in a command (the encoder writes the version)",
        ));
    }
    map.insert("version".into(), json!(WIRE_VERSION));
    let mut wire = Value::Object(map);
    // The current version's shape, whichever version that is.
    producer(WIRE_VERSION)?.validate(&wire)?;
    if let Value::Object(map) = &mut wire {
        for from in (target + 1..=WIRE_VERSION).rev() {
            (producer(from)?.down)(map)?;
        }
    }
    Ok(wire)
}

/// Encode `command` for the target given as JSON: `{"ok": wire}` or `{"error": …}` — the answer
/// of one `hookwire --family turn-control encode --lines` line.
#[doc(hidden)] // host plumbing: the CLI's and the JS encoder's JSON answer
pub fn encode_result(command: Value, target: &Value) -> crate::Answer {
    crate::Answer::from(target_from_json(target).and_then(|t| encode(command, t)))
}

/// [`encode_result`] for the target version `target` (its index in the family's `targets`,
/// `v0` and `v1`), a wire value given to `sink` rather than answered (`None` then): the
/// encoder's wasm module writes its answer tape so. Takes the command (leaving `null`).
pub fn encode_to(command: &mut Value, target: usize, sink: &mut dyn crate::canonical::Sink) -> Option<crate::Answer> {
    let target = u32::try_from(target).unwrap_or(u32::MAX);
    crate::family::answer_to(crate::Answer::from(encode(std::mem::take(command), target)), sink)
}

/// [`encode_result`] as canonical text, appended to `out`.
pub fn encode_text(command: &Value, target: &Value, out: &mut String) {
    crate::canonical::write_value(&encode_result(command.clone(), target).to_json(), out);
}

#[cfg(test)]
mod tests {
    use super::{encode, producer, target_from_json};
    use crate::error::ErrorCode;
    use crate::turn_control::WIRE_VERSION;
    use serde_json::json;

    #[test]
    fn commands_are_strict_and_targets_are_versions() {
        let e = encode(json!({"kind": "turn-error", "error": 1, "x": 1}), 1).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::Invalid, "/x"));
        let e = encode(json!({"kind": "turn-error", "error": 1, "version": 1}), 1).unwrap_err();
        assert_eq!(e.path, "/version");
        assert_eq!(encode(json!({"kind": "turn-error"}), 1).unwrap_err().path, "/error");
        assert_eq!(target_from_json(&json!({"version": 0})).unwrap(), 0);
        for bad in [
            json!({"version": WIRE_VERSION + 1}),
            json!({"version": 0, "variant": "send"}),
            json!("v1"),
        ] {
            assert_eq!(target_from_json(&bad).unwrap_err().code, ErrorCode::UnsupportedTarget);
        }
    }

    #[test]
    fn the_command_is_validated_against_the_current_version_and_walked_down_by_each() {
        for v in 1..=WIRE_VERSION {
            assert_eq!(producer(v).map(|p| p.version).ok(), Some(v), "every version has its producer entry");
        }
        assert!(producer(WIRE_VERSION + 1).is_err());
        let wire = encode(json!({"kind": "turn-error", "error": "x"}), WIRE_VERSION).unwrap();
        assert_eq!(wire["version"], WIRE_VERSION);
        assert!(producer(WIRE_VERSION).unwrap().validate(&wire).is_ok());
    }
}
