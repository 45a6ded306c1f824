//! Step 1 ↔ 2 of the session inbox (contract §11): version 2 adds `caller.activityObserver` and
//! makes the deliver mirror `payload` required.
//!
//! `up` (decoder side, every host): a deliver without `payload` gains `payload: {}`; anything
//! else is unchanged apart from its version. `down` (encoder side): drop
//! `caller.activityObserver` (observation metadata, lossy by design).
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::DecodeError;
use crate::host::Host;
use crate::session_inbox::symbols::{DELIVER, KIND, PAYLOAD, VERSION};

/// Version 1 → 2.
pub fn up<H: Host>(h: &mut H, value: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    let deliver = match h.get(value, KIND)? {
        Some(k) => h.which(&k, &[DELIVER]).is_some(),
        None => false,
    };
    if !deliver || h.get(value, PAYLOAD)?.is_some() {
        return Ok(None);
    }
    let mut out = h.copy_object(value)?;
    let empty = h.object();
    h.set(&mut out, PAYLOAD, empty);
    let two = h.number(2.0);
    h.set(&mut out, VERSION, two);
    Ok(Some(out))
}

/// Version 2 → 1, on a validated version 2 value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {
    if let Some(caller) = value.get_mut("caller").and_then(serde_json::Value::as_object_mut) {
        caller.remove("activityObserver");
    }
    value.insert("version".into(), 1.into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{down, up};
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::json;

    fn run_up(v: serde_json::Value) -> Option<serde_json::Value> {
        up(&mut JsonHost::new(SYMBOLS), &v).unwrap()
    }

    #[test]
    fn up_adds_the_mirror_only_where_it_is_missing() {
        assert_eq!(
            run_up(json!({"kind": "deliver", "version": 1, "payloads": []})),
            Some(json!({"kind": "deliver", "version": 2, "payloads": [], "payload": {}}))
        );
        assert_eq!(
            run_up(json!({"kind": "deliver", "version": 1, "payloads": [], "payload": {"a": 1}})),
            None
        );
        assert_eq!(run_up(json!({"kind": "clear", "version": 1})), None);
    }

    #[test]
    fn down_drops_the_activity_observer_only() {
        let mut v = json!({"kind": "deliver", "version": 2, "payloads": [], "payload": {},
            "caller": {"callId": "c", "activityObserver": {"sink": {"url": "u", "version": 1}}}});
        down(v.as_object_mut().unwrap()).unwrap();
        assert_eq!(
            v,
            json!({"kind": "deliver", "version": 1, "payloads": [], "payload": {}, "caller": {"callId": "c"}})
        );
    }
}
