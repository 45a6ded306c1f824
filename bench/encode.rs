//! The native encoder's benchmark (`cargo run --release --example encode-bench`): build plus
//! full validation plus target conversion of bench/commands.json for each target, printed as commands per second (one
//! JSON line). bench/run.mjs runs it beside zod 4 doing the same work.

use hookwire::session_inbox::encode::{encode_owned, Target};
use serde_json::Value;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/commands.json"))
        .expect("bench/commands.json");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    let commands = doc["commands"].as_array().expect("commands").clone();
    let mut out = serde_json::Map::new();
    for name in ["v1", "v0-deliver", "v0-send"] {
        let target = Target::from_name(name).expect("target");
        // The producer hands over a command it built: the pool of owned commands is made
        // outside the timed loop, as zod's benchmark reuses its command objects.
        let pool = |n: usize| -> Vec<Value> { (0..n).map(|i| commands[i % commands.len()].clone()).collect() };
        for c in pool(20_000) {
            let _ = black_box(encode_owned(c, target));
        }
        let (mut count, mut elapsed) = (0usize, Duration::ZERO);
        while elapsed < Duration::from_millis(700) {
            let batch = pool(1_000);
            let start = Instant::now();
            for c in batch {
                let _ = black_box(encode_owned(black_box(c), target));
            }
            elapsed += start.elapsed();
            count += 1_000;
        }
        let seconds = elapsed.as_secs_f64();
        out.insert(name.into(), Value::from(count as f64 / seconds));
    }
    println!("{}", Value::Object(out));
}
