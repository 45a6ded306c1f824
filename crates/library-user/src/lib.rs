//! A producer and a consumer written against the hookwire library with its default features,
//! as a user of the crate writes them (the crate by path, nothing else enabled).
//! `tests/dependencies.rs` checks what that builds: neither clap nor a cdylib.

use hookwire::session_inbox::target::{negotiate, Destination, Hook, NegotiateError, Options};
use hookwire::session_inbox::{Command, Decoded, SendCommand};
use serde_json::{json, Value};

/// The producer: negotiate with the caller's lookup, then encode the typed command.
pub fn produce(message: &str, hooks: &[Hook], token: &str) -> Result<Value, NegotiateError<std::io::Error>> {
    let payload = json!({ "message": message }).as_object().cloned().unwrap_or_default();
    let command = Command::from(SendCommand::new(payload));
    let lookup = |t: &str| Ok(hooks.iter().find(|h| h.token == t).cloned());
    let n = negotiate(
        &command.to_value(),
        &Destination::Token(token.into()),
        &Options::default(),
        lookup,
    )?;
    command.encode(n.target).map_err(NegotiateError::Refused)
}

/// The consumer: the typed decoded value.
pub fn consume(wire: &Value) -> Option<Decoded> {
    Decoded::decode(wire).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_trip_through_the_typed_api() {
        let hooks = [Hook {
            token: "cont-1".into(),
            run_id: "run-1".into(),
            metadata: Some(json!({ "sessionInboxWireVersion": 2 })),
        }];
        let wire = produce("hi", &hooks, "cont-1").unwrap();
        assert_eq!(wire["version"], 2);
        let Some(Decoded::Deliver(delivery)) = consume(&wire) else {
            panic!("a deliver")
        };
        assert_eq!(delivery.payloads[0]["message"], "hi");
        assert_eq!(
            produce("hi", &hooks, "gone").unwrap_err().code().as_str(),
            "HOOK_NOT_FOUND"
        );
    }
}
