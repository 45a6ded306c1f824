//! The native encoder's benchmark (`cargo run --release --example encode-bench --features std`):
//! bench/commands.json encoded for each target — build, validation against the current shape,
//! the `down` steps, validation against the target's shape, the v0 conversion — valid commands
//! and rejects timed apart, each three ways: the typed wire value (`encode_typed`, a view that
//! borrows the command), the wire value as a `serde_json::Value` (`encode_owned`, from an owned
//! command) and the wire text (`encode_into`, canonical JSON bytes from a borrowed command, into a
//! reused buffer). Prints commands per second as one JSON line:
//! `{"v6": {"valid": {"typed": …, "value": …, "text": …}, "rejects": {…}}, …}`. bench/run.mjs
//! runs it beside zod 4 doing the same work.

use hookwire::session_inbox::encode::{encode_into, encode_owned, encode_typed, Target};
use serde_json::{json, Map, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};

const TARGETS: [&str; 4] = ["v6", "v1", "v0-deliver", "v0-send"];
const RUN: Duration = Duration::from_millis(400);

/// Commands per second of `f` over `commands`, in batches of 1,000 (warmed up first).
fn rate(commands: &[Value], mut f: impl FnMut(&[Value]) -> Duration) -> f64 {
    let batch: Vec<Value> = (0..1_000).map(|i| commands[i % commands.len()].clone()).collect();
    for _ in 0..10 {
        f(&batch);
    }
    let (mut count, mut elapsed) = (0usize, Duration::ZERO);
    while elapsed < RUN {
        elapsed += f(&batch);
        count += batch.len();
    }
    count as f64 / elapsed.as_secs_f64()
}

fn main() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/commands.json"))
        .expect("bench/commands.json");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    let commands = doc["commands"].as_array().expect("commands").clone();
    let mut out = Map::new();
    for name in TARGETS {
        let target = Target::from_name(name).expect("target");
        let (valid, rejects): (Vec<Value>, Vec<Value>) = commands
            .iter()
            .cloned()
            .partition(|c| encode_owned(c.clone(), target).is_ok());
        let mut sets = Map::new();
        for (set, list) in [("valid", &valid), ("rejects", &rejects)] {
            // The wire value from an owned command: the producer hands over a command it built,
            // so the owned copies are made outside the timed loop (zod's benchmark likewise
            // reuses its command objects).
            let value = rate(list, |batch| {
                let owned = batch.to_vec();
                let start = Instant::now();
                for c in owned {
                    let _ = black_box(encode_owned(black_box(c), target));
                }
                start.elapsed()
            });
            // The typed wire value, dropped at once as zod's object is left to its collector.
            let typed = rate(list, |batch| {
                let start = Instant::now();
                for c in batch {
                    let _ = black_box(encode_typed(black_box(c), target));
                }
                start.elapsed()
            });
            let mut buf = String::with_capacity(4096);
            let text = rate(list, |batch| {
                let start = Instant::now();
                for c in batch {
                    buf.clear();
                    let _ = black_box(encode_into(black_box(c), target, &mut buf));
                }
                start.elapsed()
            });
            sets.insert(
                set.into(),
                json!({ "typed": typed, "value": value, "text": text, "commands": list.len() }),
            );
        }
        out.insert(name.into(), Value::Object(sets));
    }
    println!("{}", Value::Object(out));
}
