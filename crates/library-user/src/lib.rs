//! A producer and a consumer written against the hookwire library with its default features,
//! as a user of the crate writes them. `tests/dependencies.rs` checks what this builds.

/// Encode a message for the current version and decode it back.
pub fn round_trip(message: &str) -> serde_json::Value {
    let command = serde_json::json!({"kind": "send", "payload": {"message": message}});
    let wire = hookwire::session_inbox::encode::encode(&command, hookwire::session_inbox::encode::Target::CURRENT)
        .expect("a valid command encodes");
    hookwire::session_inbox::decode(&wire).expect("what the encoder writes decodes")
}
