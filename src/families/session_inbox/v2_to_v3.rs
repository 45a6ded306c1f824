//! Step 2 ↔ 3 of the session inbox (contract §11): version 3 adds the optional
//! `acceptedDeploymentId` to every delivery entry.
//!
//! `up`: a pure version bump (nothing is copied). `down`: drop `acceptedDeploymentId` from every
//! `deliveryMetadata` entry (lossy by design; a v0 `send` target keeps it, contract §12.4).
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::DecodeError;
use crate::host::Host;

/// Version 2 → 3: the value is unchanged apart from its version.
pub fn up<H: Host>(_: &mut H, _: &H::Value) -> Result<Option<H::Value>, DecodeError> {
    Ok(None)
}

/// Version 3 → 2, on a validated version 3 value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {
    if let Some(entries) = value
        .get_mut("deliveryMetadata")
        .and_then(serde_json::Value::as_array_mut)
    {
        for entry in entries.iter_mut().filter_map(serde_json::Value::as_object_mut) {
            entry.remove("acceptedDeploymentId");
        }
    }
    value.insert("version".into(), 2.into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{down, up};
    use crate::json::JsonHost;
    use crate::session_inbox::symbols::SYMBOLS;
    use serde_json::json;

    #[test]
    fn up_is_a_pure_bump() {
        let v = json!({"kind": "deliver", "version": 2, "payloads": [], "payload": {}});
        assert_eq!(up(&mut JsonHost::new(SYMBOLS), &v).unwrap(), None);
    }

    #[test]
    fn down_drops_accepted_deployment_ids() {
        let mut v = json!({"kind": "deliver", "version": 3, "payloads": [{}], "payload": {},
            "deliveryMetadata": [{"payloadIndex": 0, "acceptedDeploymentId": "dpl-1"}, {"payloadIndex": 1}]});
        down(v.as_object_mut().unwrap()).unwrap();
        assert_eq!(v["deliveryMetadata"], json!([{"payloadIndex": 0}, {"payloadIndex": 1}]));
        assert_eq!(v["version"], 2);
    }
}
