//! Step 4 ↔ 5 of the session inbox (contract §11): version 5 lets usage reports carry `costUsd`;
//! no key of the frozen shape changes except `version`.
//!
//! `up`: a pure version bump. `down`: delete `costUsd` from exactly `task.views[i].usage`,
//! `task.agentRequests[i].request.result.usage` and
//! `task.agentRequests[i].request.result.outcome.usageDelta`, in every payload and the mirror;
//! nothing else is touched (adapter data with a `costUsd` key stays).
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::DecodeError;
use crate::host::Host;

/// Version 4 → 5: the value is unchanged apart from its version.
pub fn up<H: Host>(_: &mut H, _: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    Ok(None)
}

/// Version 5 → 4, on a validated version 5 value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {
    use serde_json::Value;
    fn strip(v: Option<&mut Value>, path: &[&str]) {
        let mut at = v;
        for key in path {
            at = at.and_then(|x| x.get_mut(*key));
        }
        if let Some(report) = at.and_then(Value::as_object_mut) {
            report.remove("costUsd");
        }
    }
    let mut tasks: Vec<&mut Value> = Vec::new();
    let (payloads, mirror) = split_payloads(value);
    for p in payloads.into_iter().chain(mirror) {
        if let Some(task) = p.get_mut("task") {
            tasks.push(task);
        }
    }
    for task in tasks {
        if let Some(views) = task.get_mut("views").and_then(Value::as_array_mut) {
            views.iter_mut().for_each(|v| strip(Some(v), &["usage"]));
        }
        if let Some(requests) = task.get_mut("agentRequests").and_then(Value::as_array_mut) {
            for r in requests.iter_mut() {
                let result = r.get_mut("request").and_then(|q| q.get_mut("result"));
                if let Some(result) = result {
                    strip(Some(result), &["usage"]);
                    strip(Some(result), &["outcome", "usageDelta"]);
                }
            }
        }
    }
    value.insert("version".into(), 4.into());
    Ok(())
}

/// The payloads and the mirror of a deliver, mutably.
#[cfg(feature = "std")]
fn split_payloads(
    value: &mut serde_json::Map<String, serde_json::Value>,
) -> (Vec<&mut serde_json::Value>, Option<&mut serde_json::Value>) {
    let mut payloads = Vec::new();
    let mut mirror = None;
    for (key, v) in value.iter_mut() {
        match key.as_str() {
            "payloads" => payloads.extend(v.as_array_mut().into_iter().flatten()),
            "payload" => mirror = Some(v),
            _ => {}
        }
    }
    (payloads, mirror)
}

#[cfg(test)]
mod tests {
    use super::{down, up};
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::json;

    #[test]
    fn up_is_a_pure_bump() {
        let v = json!({"kind": "clear", "version": 4});
        assert_eq!(up(&mut JsonHost::new(SYMBOLS), &v).unwrap(), None);
    }

    #[test]
    fn down_deletes_cost_at_exactly_the_three_places() {
        let task = json!({
            "views": [{"usage": {"tokens": 1, "costUsd": 0.1}, "costUsd": 9}],
            "agentRequests": [{"replyTo": "r", "taskId": "t", "request": {"kind": "agent-settled",
                "result": {"usage": {"costUsd": 0.2}, "outcome": {"usageDelta": {"costUsd": 0.3, "n": 1}}, "costUsd": 7}}}]
        });
        let mut v = json!({"kind": "deliver", "version": 5, "payloads": [{"task": task, "costUsd": 1}], "payload": {"task": task}});
        down(v.as_object_mut().unwrap()).unwrap();
        let stripped = json!({
            "views": [{"usage": {"tokens": 1}, "costUsd": 9}],
            "agentRequests": [{"replyTo": "r", "taskId": "t", "request": {"kind": "agent-settled",
                "result": {"usage": {}, "outcome": {"usageDelta": {"n": 1}}, "costUsd": 7}}}]
        });
        assert_eq!(
            v,
            json!({"kind": "deliver", "version": 4, "payloads": [{"task": stripped, "costUsd": 1}], "payload": {"task": stripped}})
        );
    }
}
