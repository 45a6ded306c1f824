//! Turn-control negotiation (contract §14): a pure function of the driver's capabilities, read
//! from the turn workflow's input — no lookups. `{turnControlWireVersion: N}` (a positive safe
//! integer) → `{version: min(N, write ceiling)}`; absent (an older driver) → `{version: 0}`.
//! Capabilities that are not an object count as absent.

use crate::error::{EncodeError, ErrorCode, Transport};
use crate::turn_control::CAPABILITY_KEY;
use crate::Answer;
use serde_json::{json, Value};

/// The target version for a driver's capabilities, with the producer's write ceiling.
///
/// ```
/// use hookwire::turn_control::target::negotiate;
/// use serde_json::json;
/// assert_eq!(negotiate(&json!({"turnControlWireVersion": 1}), 1).unwrap(), 1);
/// assert_eq!(negotiate(&json!(null), 1).unwrap(), 0);
/// ```
pub fn negotiate(capabilities: &Value, ceiling: u32) -> Result<u32, EncodeError> {
    let Some(n) = capabilities.as_object().and_then(|c| c.get(CAPABILITY_KEY)) else {
        return Ok(0);
    };
    match n.as_f64() {
        Some(v) if v.fract() == 0.0 && (1.0..=9_007_199_254_740_991.0).contains(&v) => {
            Ok(v.min(f64::from(ceiling)) as u32)
        }
        _ => Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            format!(
                "driver capability {CAPABILITY_KEY} {} is not a version (a positive safe integer); nothing was written",
                crate::canonical::to_string(n)
            ),
        )),
    }
}

/// One `hookwire --family turn-control negotiate --lines` request, `{"capabilities": {…} | null}`,
/// answered: `{"ok": {"target": {"version": N}}}` or `{"error": …}` (a malformed line is
/// `INVALID_REQUEST` with the `path` of what is missing).
#[doc(hidden)] // host plumbing: one `negotiate --lines` line
pub fn answer_request(request: &Value, ceiling: u32) -> Value {
    let Some(capabilities) = request.get("capabilities") else {
        let path = if request.is_object() { "/capabilities" } else { "" };
        let message = "each line must be {\"capabilities\": {…} | null}";
        return Answer::transport_at(Transport::InvalidRequest, message, path).to_json();
    };
    Answer::from(negotiate(capabilities, ceiling).map(|version| json!({"target": {"version": version}}))).to_json()
}

/// Negotiation on JSON, for the JS encoder: `{"capabilities": …, "writeAtMost"?: N}` →
/// `{"ok": {"target"}}` or `{"error": …}` (pure: no lookup, so one move answers).
#[doc(hidden)] // host plumbing: the JS encoder's JSON form
pub fn step_json(req: &Value) -> Value {
    let current = crate::turn_control::WIRE_VERSION;
    let ceiling = match req.get("writeAtMost").filter(|w| !w.is_null()) {
        None => current,
        Some(w) => match crate::family::write_ceiling(w, current) {
            Ok(n) => n,
            Err(message) => return Answer::transport(Transport::InvalidRequest, message).to_json(),
        },
    };
    answer_request(req, ceiling)
}

#[cfg(test)]
mod tests {
    use super::negotiate;
    use crate::error::ErrorCode;
    use serde_json::json;

    #[test]
    fn capabilities_decide_and_the_ceiling_caps() {
        assert_eq!(negotiate(&json!({"turnControlWireVersion": 5}), 1).unwrap(), 1);
        assert_eq!(negotiate(&json!({"other": 1}), 1).unwrap(), 0);
        assert_eq!(negotiate(&json!([1]), 1).unwrap(), 0);
        for bad in [json!(0), json!(1.5), json!("1"), json!(null)] {
            let caps = json!({ "turnControlWireVersion": bad });
            assert_eq!(
                negotiate(&caps, 1).unwrap_err().code,
                ErrorCode::UnsupportedTarget,
                "{caps}"
            );
        }
    }
}
