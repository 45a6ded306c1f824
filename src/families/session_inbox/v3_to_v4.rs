//! Step 3 ↔ 4 of the session inbox (contract §11, §16): version 4 makes `task` (in every
//! DeliverPayload and in the mirror) the strict TaskV4 instead of an opaque JsonObject.
//!
//! `up`, the task rewrite: in every payload's and the mirror's `task.inputRequests`, each entry
//! with no `replyTo` key and a `hookPayload` key is old-form and is replaced, in place and in
//! order, by one entry per element `r` of `hookPayload.event.requests`: the old entry's keys plus
//! `replyTo` (the `childContinuationToken`), `request: r`, `sequence`, `stepIndex` and `turnId`
//! (from the event). A malformed old-form entry is `MISDECLARED_VERSION`. Nothing is mutated:
//! a changed payload, task, array or entry is a new object; everything else is the input's own
//! reference (in JS), and a value with nothing to rewrite is not copied at all.
//! `down`: a payload or mirror whose `task` has an `agentRequests` or `inputRequests` key (even
//! `[]`) is refused with `INCOMPATIBLE` (version 3 cannot carry task operations).
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Type};
use crate::session_inbox::symbols::{
    CHILD_CONTINUATION_TOKEN, EVENT, HOOK_PAYLOAD, INPUT_REQUESTS, PAYLOAD, PAYLOADS, REPLY_TO, REQUEST, REQUESTS,
    SEQUENCE, STEP_INDEX, TASK, TURN_ID, VERSION,
};

fn malformed() -> DecodeError {
    DecodeError::new(ErrorCode::MisdeclaredVersion)
        .with_version(3.0)
        .at(Detail::OldInputRequest)
}

/// Version 3 → 4.
pub fn up<H: Host>(h: &mut H, value: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    let new_payloads = match h.get(value, PAYLOADS)? {
        Some(list) if h.type_of(&list) == Type::Array => payloads(h, &list)?,
        _ => None,
    };
    let new_mirror = match h.get(value, PAYLOAD)? {
        Some(mirror) => payload(h, &mirror)?,
        None => None,
    };
    if new_payloads.is_none() && new_mirror.is_none() {
        return Ok(None);
    }
    let mut out = h.copy_object(value)?;
    if let Some(list) = new_payloads {
        h.set(&mut out, PAYLOADS, list);
    }
    if let Some(mirror) = new_mirror {
        h.set(&mut out, PAYLOAD, mirror);
    }
    let four = h.number(4.0);
    h.set(&mut out, VERSION, four);
    Ok(Some(out))
}

/// The payloads with their tasks rewritten, or `None` when none changes. A list with an element
/// that is not an object is left to the envelope check, untouched. The new list is built only
/// from the first change on (the elements before it are read again), so no buffer is needed.
fn payloads<H: Host>(h: &mut H, list: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    let n = h.len(list)?;
    let mut out: Option<H::Value> = None;
    for i in 0..n {
        let item = h.at(list, i)?;
        if h.type_of(&item) != Type::Object {
            return Ok(None);
        }
        let new = payload(h, &item)?;
        if new.is_some() && out.is_none() {
            out = Some(prefix(h, list, i)?);
        }
        if let Some(arr) = out.as_mut() {
            let kept = new.unwrap_or(item);
            h.push(arr, kept);
        }
    }
    Ok(out)
}

/// A new array holding the first `n` elements of `list`.
fn prefix<H: Host>(h: &mut H, list: &H::Value, n: u32) -> Result<H::Value, DecodeError> {
    let mut arr = h.array();
    for j in 0..n {
        let e = h.at(list, j)?;
        h.push(&mut arr, e);
    }
    Ok(arr)
}

/// One payload with its task rewritten, or `None` when nothing changes.
fn payload<H: Host>(h: &mut H, p: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    if h.type_of(p) != Type::Object {
        return Ok(None);
    }
    let Some(task) = object(h, p, TASK)? else {
        return Ok(None);
    };
    let Some(entries) = h.get(&task, INPUT_REQUESTS)? else {
        return Ok(None);
    };
    if h.type_of(&entries) != Type::Array {
        return Ok(None);
    }
    let Some(rewritten) = input_requests(h, &entries)? else {
        return Ok(None);
    };
    let mut new_task = h.copy_object(&task)?;
    h.set(&mut new_task, INPUT_REQUESTS, rewritten);
    let mut out = h.copy_object(p)?;
    h.set(&mut out, TASK, new_task);
    Ok(Some(out))
}

/// The input requests with every old-form entry expanded, or `None` when there is none.
fn input_requests<H: Host>(h: &mut H, entries: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    let n = h.len(entries)?;
    let mut out: Option<H::Value> = None;
    for i in 0..n {
        let entry = h.at(entries, i)?;
        let old_form = h.type_of(&entry) == Type::Object
            && h.get(&entry, REPLY_TO)?.is_none()
            && h.get(&entry, HOOK_PAYLOAD)?.is_some();
        if !old_form {
            if let Some(arr) = out.as_mut() {
                h.push(arr, entry);
            }
            continue;
        }
        let hook_payload = object(h, &entry, HOOK_PAYLOAD)?.ok_or_else(malformed)?;
        let token = typed(h, &hook_payload, CHILD_CONTINUATION_TOKEN, Type::String)?;
        let event = object(h, &hook_payload, EVENT)?.ok_or_else(malformed)?;
        let requests = typed(h, &event, REQUESTS, Type::Array)?;
        let sequence = counter(h, &event, SEQUENCE)?;
        let step_index = counter(h, &event, STEP_INDEX)?;
        let turn_id = typed(h, &event, TURN_ID, Type::String)?;
        if out.is_none() {
            out = Some(prefix(h, entries, i)?);
        }
        for j in 0..h.len(&requests)? {
            let request = h.at(&requests, j)?;
            let mut new = h.copy_object(&entry)?;
            for (key, v) in [
                (REPLY_TO, &token),
                (SEQUENCE, &sequence),
                (STEP_INDEX, &step_index),
                (TURN_ID, &turn_id),
            ] {
                let v = h.share(v);
                h.set(&mut new, key, v);
            }
            h.set(&mut new, REQUEST, request);
            if let Some(arr) = out.as_mut() {
                h.push(arr, new);
            }
        }
    }
    Ok(out)
}

fn object<H: Host>(h: &mut H, obj: &H::Value, key: crate::host::Sym) -> Result<Option<H::Value>, DecodeError> {
    Ok(h.get(obj, key)?.filter(|v| h.type_of(v) == Type::Object))
}

fn typed<H: Host>(h: &mut H, obj: &H::Value, key: crate::host::Sym, ty: Type) -> Result<H::Value, DecodeError> {
    h.get(obj, key)?.filter(|v| h.type_of(v) == ty).ok_or_else(malformed)
}

/// An integer from 0 to 2^53 − 1.
fn counter<H: Host>(h: &mut H, obj: &H::Value, key: crate::host::Sym) -> Result<H::Value, DecodeError> {
    let v = typed(h, obj, key, Type::Number)?;
    match h.as_number(&v) {
        Some(n) if (0.0..=9_007_199_254_740_991.0).contains(&n) && n == (n as u64) as f64 => Ok(v),
        _ => Err(malformed()),
    }
}

/// Version 4 → 3, on a validated version 4 value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {
    use alloc::format;
    let listed = value.get("payloads").and_then(serde_json::Value::as_array);
    let places = listed
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, p)| (format!("/payloads/{i}"), p))
        .chain(
            value
                .get("payload")
                .map(|m| (alloc::string::String::from("/payload"), m)),
        );
    for (at, p) in places {
        for key in ["agentRequests", "inputRequests"] {
            if p.get("task").and_then(|t| t.get(key)).is_some() {
                return Err(crate::error::EncodeError::incompatible(
                    &format!("{at}/task/{key}"),
                    3,
                    "task operations (agentRequests, inputRequests) need version 4",
                ));
            }
        }
    }
    value.insert("version".into(), 3.into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{down, up};
    use crate::error::ErrorCode;
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::{json, Value};

    fn run_up(v: &Value) -> Result<Option<Value>, ErrorCode> {
        up(&mut JsonHost::new(SYMBOLS), v).map_err(|e| e.code)
    }

    fn old_form(requests: Value) -> Value {
        json!({"taskId": "t", "extra": 1, "hookPayload": {"childContinuationToken": "child",
            "event": {"requests": requests, "sequence": 2, "stepIndex": 0, "turnId": "turn"}}})
    }

    #[test]
    fn old_form_entries_expand_in_place_and_in_order() {
        let kept = json!({"replyTo": "r0", "taskId": "t", "turnId": "u", "sequence": 0, "stepIndex": 0, "request": 1});
        let v = json!({"kind": "deliver", "version": 3, "payloads": [{"task": {"inputRequests": [kept, old_form(json!(["a", "b"])), old_form(json!([]))], "views": []}}, {"message": "m"}]});
        let out = run_up(&v).unwrap().unwrap();
        let hook_payload = old_form(json!(["a", "b"]))["hookPayload"].clone();
        let expanded = |r: &str| {
            json!({"taskId": "t", "extra": 1, "hookPayload": hook_payload, "replyTo": "child", "request": r,
                "sequence": 2, "stepIndex": 0, "turnId": "turn"})
        };
        assert_eq!(
            out,
            json!({"kind": "deliver", "version": 4, "payloads": [
                {"task": {"inputRequests": [kept, expanded("a"), expanded("b")], "views": []}}, {"message": "m"}]})
        );
    }

    #[test]
    fn nothing_to_rewrite_is_a_pure_bump() {
        let v = json!({"kind": "deliver", "version": 3, "payloads": [{"task": {"inputRequests": [{"replyTo": "r", "hookPayload": 1}]}}], "payload": {"task": {"files": []}}});
        assert_eq!(run_up(&v), Ok(None));
    }

    #[test]
    fn malformed_old_form_entries_are_misdeclared() {
        for bad in [
            json!({"hookPayload": "x"}),
            json!({"hookPayload": {"childContinuationToken": 1, "event": {"requests": [], "sequence": 0, "stepIndex": 0, "turnId": "u"}}}),
            json!({"hookPayload": {"childContinuationToken": "c", "event": {"requests": {}, "sequence": 0, "stepIndex": 0, "turnId": "u"}}}),
            json!({"hookPayload": {"childContinuationToken": "c", "event": {"requests": [], "sequence": -1, "stepIndex": 0, "turnId": "u"}}}),
            json!({"hookPayload": {"childContinuationToken": "c", "event": {"requests": [], "sequence": 0, "stepIndex": 0.5, "turnId": "u"}}}),
            json!({"hookPayload": {"childContinuationToken": "c", "event": {"requests": [], "sequence": 0, "stepIndex": 0}}}),
        ] {
            let v =
                json!({"kind": "deliver", "version": 3, "payloads": [], "payload": {"task": {"inputRequests": [bad]}}});
            assert_eq!(run_up(&v), Err(ErrorCode::MisdeclaredVersion), "{v}");
        }
    }

    #[test]
    fn down_refuses_task_operations_with_the_place() {
        let mut v =
            json!({"kind": "deliver", "version": 4, "payloads": [{}, {"task": {"agentRequests": []}}], "payload": {}});
        let e = down(v.as_object_mut().unwrap()).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_str(), e.version),
            (ErrorCode::Incompatible, "/payloads/1/task/agentRequests", Some(3))
        );
        let mut fine = json!({"kind": "deliver", "version": 4, "payloads": [{"task": {"views": []}}], "payload": {}});
        down(fine.as_object_mut().unwrap()).unwrap();
        assert_eq!(fine["version"], 3);
    }
}
