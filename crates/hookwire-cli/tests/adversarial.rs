//! The adversarial catalog (`fixtures/adversarial.json`) through the CLI, every entry a line of
//! one `hookwire decode --lines` run: the expected code for each, one output line per input line,
//! and never a crash. `js-tests/adversarial.test.mjs` runs the same catalog through `pkg/`.

#[path = "../../../tests/common/mod.rs"]
mod common;

use serde_json::Value;

/// The bytes of one entry: `text`, `repeat` expanded, or `hex`.
fn bytes(entry: &Value) -> Vec<u8> {
    if let Some(t) = entry["text"].as_str() {
        return t.as_bytes().to_vec();
    }
    if let Some(h) = entry["hex"].as_str() {
        return (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
            .collect();
    }
    let r = &entry["repeat"];
    let s = |k: &str| r[k].as_str().unwrap();
    let n = r["count"].as_u64().unwrap() as usize;
    format!(
        "{}{}{}{}{}",
        s("prefix"),
        s("open").repeat(n),
        s("middle"),
        s("close").repeat(n),
        s("suffix")
    )
    .into_bytes()
}

#[test]
fn the_catalog_through_the_cli() {
    let catalog: Value =
        serde_json::from_str(&std::fs::read_to_string(common::root().join("fixtures/adversarial.json")).unwrap())
            .unwrap();
    let entries = catalog["entries"].as_array().unwrap();
    let mut input = Vec::new();
    for e in entries {
        input.extend(bytes(e));
        input.push(b'\n');
    }
    let out = common::hookwire(&["decode", "--lines"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), entries.len(), "one output line per input line");
    let mut failures = Vec::new();
    for (e, line) in entries.iter().zip(lines) {
        let name = e["name"].as_str().unwrap();
        // Deep outputs are only inspected by their start (the test's own parser is bounded).
        let outcome = if line.starts_with("{\"ok\":") {
            "ok".to_string()
        } else {
            let err: Value = serde_json::from_str(line).unwrap();
            err["error"]["code"].as_str().unwrap_or("?").to_string()
        };
        if outcome != e["native"].as_str().unwrap() {
            failures.push(format!(
                "{name}: expected {}, got {}",
                e["native"],
                &line[..line.len().min(300)]
            ));
        } else if let Some(expect) = e.get("expect") {
            let got: Value = serde_json::from_str(line).unwrap();
            if common::canon(expect) != common::canon(&got["ok"]) {
                failures.push(format!("{name}: decoded {line}"));
            }
        }
        if e["native"] != e["js"] && e.get("differs").is_none() {
            failures.push(format!("{name}: the decoders differ but the catalog does not say why"));
        }
    }
    common::report(failures);
}
