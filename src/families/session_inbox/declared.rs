//! The declared-version checks of the session inbox (contract §11, §16): a value whose
//! `version` key is present and equals N is refused with `MISDECLARED_VERSION` when it carries
//! what version N cannot have. Run by the chain before the walk, on the input as declared;
//! unversioned values are not checked (decode's own output is unversioned and must keep
//! decoding to itself). For them, [`unversioned`] tells decode whether it may take the value
//! as current instead of running the steps (a shortcut, exactly as good); it never refuses.
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

/// What [`tasks`] finds, as bits.
const HAS_OPERATIONS: u32 = 1;
const HAS_INPUT_REQUESTS: u32 = 2;
const HAS_MIRROR: u32 = 4;

/// Check what a value declaring `version` (1 ..= current) and whose `kind` is the symbol `kind`
/// carries. Answers the version the value reads as, as it is (see [`crate::chain::Declared`]):
/// below version 4, where the check has read every payload's `task` and the mirror, the walk
/// does not read them again to find that the steps 1 → 2 (which adds a deliver's missing
/// mirror) and 3 → 4 (which rewrites old-form entries of an `inputRequests` array) change
/// nothing; 2 → 3 is a pure bump.
pub fn check<H: Host>(h: &mut H, value: &H::Value, version: u32, kind: Option<Sym>) -> Result<u32, DecodeError> {
    // Below version 4 the tasks and the mirror are read at once.
    let found = if version <= 3 { tasks(h, value)? } else { 0 };
    if found & HAS_OPERATIONS != 0 {
        return Err(misdeclared(version, Detail::TaskOperations));
    }
    if version <= 5 && kind == Some(CANCEL) && h.get(value, TASKS)?.is_some() {
        return Err(misdeclared(version, Detail::CancelTasks));
    }
    let deliver = kind == Some(DELIVER);
    // Below version 4 the mirror was read with the tasks; it is not read again.
    if version >= 2 && deliver && found & HAS_MIRROR == 0 && (version <= 3 || h.get(value, PAYLOAD)?.is_none()) {
        return Err(misdeclared(version, Detail::MissingMirror));
    }
    // From version 4 on nothing was read and nothing is claimed.
    Ok(if version > 3 || (deliver && found & HAS_MIRROR == 0) {
        version
    } else if found & HAS_INPUT_REQUESTS != 0 {
        3
    } else {
        4
    })
}

/// The shortcut of an unversioned value (see [`crate::chain::Unversioned`]): whether decode may
/// take it as current, as it is. So for a deliver whose payloads are objects without a `task`,
/// which has no mirror and which reads as its copy: run on it, step 0 → 1 copies it and sets its
/// version, 1 → 2 adds an empty mirror, 3 → 4 rewrites only tasks, and the others are pure
/// bumps, so the walked value is the copy with a version and a mirror, neither of which decode
/// reads, and no step refuses it. The shortcut reads what the steps read, in their order (the
/// payloads before the copy, as 0 → 1 does; the mirror after it). A send (rebuilt by 0 → 1), a
/// deliver with a mirror (never written unversioned) and the other kinds run the steps.
pub fn unversioned<H: Host>(h: &mut H, value: &H::Value, kind: Option<Sym>) -> bool {
    kind == Some(DELIVER)
        && matches!(h.get(value, PAYLOADS), Ok(Some(list)) if h.objects_without(&list, TASK))
        && h.reads_as_copy(value)
        && matches!(h.get(value, PAYLOAD), Ok(None))
}

/// Every payload's and the mirror's `task`, read once (whatever the kind): [`HAS_OPERATIONS`] when
/// one has `agentRequests` or an `inputRequests` entry with `request` or `requests` (the rest
/// is then not read), [`HAS_INPUT_REQUESTS`] when one has an `inputRequests` array, [`HAS_MIRROR`] when
/// the value has a mirror.
fn tasks<H: Host>(h: &mut H, value: &H::Value) -> Result<u32, DecodeError> {
    let mut found = 0;
    if let Some(list) = h.get(value, PAYLOADS)? {
        if h.type_of(&list) == Type::Array {
            for i in 0..h.len(&list)? {
                let p = h.at(&list, i)?;
                found |= task(h, &p)?;
                if found & HAS_OPERATIONS != 0 {
                    return Ok(found);
                }
            }
        }
    }
    if let Some(mirror) = h.get(value, PAYLOAD)? {
        found |= HAS_MIRROR | task(h, &mirror)?;
    }
    Ok(found)
}

/// What [`tasks`] finds in one payload.
fn task<H: Host>(h: &mut H, payload: &H::Value) -> Result<u32, DecodeError> {
    if h.type_of(payload) != Type::Object {
        return Ok(0);
    }
    let Some(task) = h.get(payload, TASK)? else {
        return Ok(0);
    };
    if h.type_of(&task) != Type::Object {
        return Ok(0);
    }
    if h.get(&task, AGENT_REQUESTS)?.is_some() {
        return Ok(HAS_OPERATIONS);
    }
    let Some(entries) = h.get(&task, INPUT_REQUESTS)? else {
        return Ok(0);
    };
    if h.type_of(&entries) != Type::Array {
        return Ok(0);
    }
    for i in 0..h.len(&entries)? {
        let entry = h.at(&entries, i)?;
        if h.type_of(&entry) == Type::Object
            && (h.get(&entry, REQUEST)?.is_some() || h.get(&entry, REQUESTS)?.is_some())
        {
            return Ok(HAS_OPERATIONS);
        }
    }
    Ok(HAS_INPUT_REQUESTS)
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
        check(&mut h, &v, n, kind).map(|_| ()).map_err(|e| e.code)
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
