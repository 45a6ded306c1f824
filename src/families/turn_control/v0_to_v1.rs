//! Step 0 ↔ 1 of turn control (contract §14): version 1 is version 0 with `version: 1`.
//!
//! `up`: a `turn-result` whose `action` is not a non-null, non-array object with a string `kind`
//! is `LEGACY_SHAPE` (no writer of the unversioned era produced it); anything else is unchanged
//! apart from its version, so nothing is copied. `down`: drop `version`.
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Type};
use crate::turn_control::symbols::{ACTION, KIND, TURN_RESULT};

/// Version 0 → 1.
pub fn up<H: Host>(h: &mut H, value: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    let turn_result = match h.get(value, KIND)? {
        Some(k) => h.which(&k, &[TURN_RESULT]).is_some(),
        None => false,
    };
    if !turn_result {
        return Ok(None);
    }
    let action = h.get(value, ACTION)?.filter(|a| h.type_of(a) == Type::Object);
    let kinded = match action {
        Some(a) => match h.get(&a, KIND)? {
            Some(k) => h.type_of(&k) == Type::String,
            None => false,
        },
        None => false,
    };
    if !kinded {
        return Err(DecodeError::new(ErrorCode::LegacyShape)
            .with_version(0.0)
            .at(Detail::TurnResultAction));
    }
    Ok(None)
}

/// Version 1 → 0, on a validated version 1 value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {
    value.remove("version");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{down, up};
    use crate::error::ErrorCode;
    use crate::json::JsonHost;
    use crate::turn_control::symbols::SYMBOLS;
    use serde_json::json;

    fn run(v: serde_json::Value) -> Result<Option<serde_json::Value>, ErrorCode> {
        up(&mut JsonHost::new(SYMBOLS), &v).map_err(|e| e.code)
    }

    #[test]
    fn up_checks_the_action_of_a_turn_result_and_bumps_everything_else() {
        assert_eq!(
            run(json!({"kind": "turn-result", "action": {"kind": "reply"}})),
            Ok(None)
        );
        for bad in [json!(null), json!([]), json!({}), json!({"kind": 1}), json!("a")] {
            assert_eq!(
                run(json!({"kind": "turn-result", "action": bad})),
                Err(ErrorCode::LegacyShape)
            );
        }
        assert_eq!(run(json!({"kind": "turn-result"})), Err(ErrorCode::LegacyShape));
        assert_eq!(run(json!({"kind": "turn-error"})), Ok(None));
    }

    #[test]
    fn down_drops_the_version() {
        let mut v = json!({"kind": "turn-error", "version": 1, "error": "x"});
        down(v.as_object_mut().unwrap()).unwrap();
        assert_eq!(v, json!({"kind": "turn-error", "error": "x"}));
    }
}
