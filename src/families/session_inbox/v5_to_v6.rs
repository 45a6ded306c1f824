//! Step 5 ↔ 6 of the session inbox (contract §11): version 6 adds `tasks` (boolean) to `cancel`.
//!
//! `up`: a pure version bump. `down`: `tasks: true` is refused with `INCOMPATIBLE` (an old
//! receiver cannot cancel the tasks; the operation is never dropped to make the rest fit);
//! `tasks: false` is dropped (it asks for nothing).
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::DecodeError;
use crate::host::Host;

/// Version 5 → 6: the value is unchanged apart from its version.
pub fn up<H: Host>(_: &mut H, _: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    Ok(None)
}

/// Version 6 → 5, on a validated version 6 value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {
    match value.get("tasks") {
        Some(serde_json::Value::Bool(true)) => {
            return Err(crate::error::EncodeError::incompatible(
                "/tasks",
                5,
                "a cancel with tasks: true (cancelling a turn's tasks) needs version 6",
            ))
        }
        Some(_) => {
            value.remove("tasks");
        }
        None => {}
    }
    value.insert("version".into(), 5.into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{down, up};
    use crate::error::ErrorCode;
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::json;

    #[test]
    fn up_is_a_pure_bump() {
        let v = json!({"kind": "cancel", "version": 5});
        assert_eq!(up(&mut JsonHost::new(SYMBOLS), &v).unwrap(), None);
    }

    #[test]
    fn down_refuses_tasks_true_and_drops_tasks_false() {
        let mut yes = json!({"kind": "cancel", "version": 6, "tasks": true});
        let e = down(yes.as_object_mut().unwrap()).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_str(), e.version),
            (ErrorCode::Incompatible, "/tasks", Some(5))
        );
        let mut no = json!({"kind": "cancel", "version": 6, "tasks": false, "taskId": "t"});
        down(no.as_object_mut().unwrap()).unwrap();
        assert_eq!(no, json!({"kind": "cancel", "version": 5, "taskId": "t"}));
    }
}
