//! The declared-version checks of the session inbox (contract §11, §16): a value whose
//! `version` key is present and equals N is refused with `MISDECLARED_VERSION` when it carries
//! what version N cannot have. Run by the chain before the walk, on the input as declared;
//! unversioned values are not checked (decode's own output is unversioned and must keep
//! decoding to itself).
//! This module may import only the host trait, the decode error and the family's symbols.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Sym, Type};
use crate::session_inbox::symbols::{
    AGENT_REQUESTS, CANCEL, DELIVER, INPUT_REQUESTS, PAYLOAD, PAYLOADS, REQUEST, REQUESTS, TASK, TASKS,
};

fn misdeclared(version: u32, detail: Detail) -> DecodeError {
    DecodeError::new(ErrorCode::MisdeclaredVersion)
        .with_version(f64::from(version))
        .at(detail)
}

/// Check what a value declaring `version` (1 ..= current) and whose `kind` is the symbol `kind`
/// carries.
pub fn check<H: Host>(h: &mut H, value: &H::Value, version: u32, kind: Option<Sym>) -> Result<(), DecodeError> {
    if version <= 3 && carries_task_operations(h, value)? {
        return Err(misdeclared(version, Detail::TaskOperations));
    }
    if version <= 5 && kind == Some(CANCEL) && h.get(value, TASKS)?.is_some() {
        return Err(misdeclared(version, Detail::CancelTasks));
    }
    if version >= 2 && kind == Some(DELIVER) && h.get(value, PAYLOAD)?.is_none() {
        return Err(misdeclared(version, Detail::MissingMirror));
    }
    Ok(())
}

/// Whether any payload's or the mirror's `task` has `agentRequests`, or an `inputRequests`
/// entry with `request` or `requests` (whatever the kind).
fn carries_task_operations<H: Host>(h: &mut H, value: &H::Value) -> Result<bool, DecodeError> {
    if let Some(list) = h.get(value, PAYLOADS)? {
        if h.type_of(&list) == Type::Array {
            for i in 0..h.len(&list)? {
                let p = h.at(&list, i)?;
                if task_has_operations(h, &p)? {
                    return Ok(true);
                }
            }
        }
    }
    match h.get(value, PAYLOAD)? {
        Some(mirror) => task_has_operations(h, &mirror),
        None => Ok(false),
    }
}

fn task_has_operations<H: Host>(h: &mut H, payload: &H::Value) -> Result<bool, DecodeError> {
    if h.type_of(payload) != Type::Object {
        return Ok(false);
    }
    let Some(task) = h.get(payload, TASK)? else {
        return Ok(false);
    };
    if h.type_of(&task) != Type::Object {
        return Ok(false);
    }
    if h.get(&task, AGENT_REQUESTS)?.is_some() {
        return Ok(true);
    }
    let Some(entries) = h.get(&task, INPUT_REQUESTS)? else {
        return Ok(false);
    };
    if h.type_of(&entries) != Type::Array {
        return Ok(false);
    }
    for i in 0..h.len(&entries)? {
        let entry = h.at(&entries, i)?;
        if h.type_of(&entry) == Type::Object
            && (h.get(&entry, REQUEST)?.is_some() || h.get(&entry, REQUESTS)?.is_some())
        {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::error::ErrorCode;
    use crate::host::Host;
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::{json, Value};

    fn run(v: Value, n: u32) -> Result<(), ErrorCode> {
        let mut h = JsonHost::new(SYMBOLS);
        let kind = h.head(&v).kind;
        check(&mut h, &v, n, kind).map_err(|e| e.code)
    }

    #[test]
    fn each_rule_applies_to_its_versions_only() {
        let ops = json!({"kind": "deliver", "payloads": [{"task": {"agentRequests": []}}], "payload": {}});
        assert_eq!(run(ops.clone(), 3), Err(ErrorCode::MisdeclaredVersion));
        assert_eq!(run(ops, 4), Ok(()));
        let entry = json!({"kind": "reset", "payload": {"task": {"inputRequests": [{"requests": []}]}}});
        assert_eq!(run(entry, 1), Err(ErrorCode::MisdeclaredVersion));
        let cancel = json!({"kind": "cancel", "tasks": false});
        assert_eq!(run(cancel.clone(), 5), Err(ErrorCode::MisdeclaredVersion));
        assert_eq!(run(cancel, 6), Ok(()));
        let bare = json!({"kind": "deliver", "payloads": []});
        assert_eq!(run(bare.clone(), 1), Ok(()));
        assert_eq!(run(bare, 2), Err(ErrorCode::MisdeclaredVersion));
    }
}
