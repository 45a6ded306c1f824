//! Data-driven contract tests: every decode fixture (`fixtures/session-inbox/{v0,v1,chain}`)
//! and every encode fixture (`fixtures/session-inbox/encode`) with its byte-frozen outputs
//! (`artifacts/session-inbox/v1/encode`). The file name is the case name.

mod common;

use common::{canon, cases, report, root, DECODE_DIRS, TARGETS};
use hookwire::artifacts::{blessing, compare_or_bless};
use hookwire::session_inbox::encode::{encode, Target};
use hookwire::session_inbox::{decode, REGISTRY, WIRE_VERSION};
use hookwire::ErrorCode;
use serde_json::Value;

#[test]
fn decode_fixtures() {
    let mut failures = Vec::new();
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let input = &case.data["input"];
            let got = decode(input);
            match (&case.data.get("expect"), &case.data.get("error"), got) {
                (Some(expect), None, Ok(v)) if canon(&v) == canon(expect) => {}
                (None, Some(err), Err(e)) => {
                    if ErrorCode::parse(err["code"].as_str().unwrap_or("")) != Some(e.code) {
                        failures.push(format!("{}: expected {}, got {:?}", case.name, err["code"], e.code));
                    }
                    if let Some(v) = err.get("version").and_then(Value::as_f64) {
                        if e.version != Some(v) {
                            failures.push(format!("{}: expected version {v}, got {:?}", case.name, e.version));
                        }
                    }
                    if e.code == ErrorCode::NewerVersion {
                        let m = e.to_string();
                        let found = canon(&err["version"]);
                        if !(m.contains("newer") && m.contains(&found) && m.contains(&WIRE_VERSION.to_string())) {
                            failures.push(format!("{}: message lacks 'newer' or the numbers: {m}", case.name));
                        }
                    }
                }
                (_, _, got) => failures.push(format!("{}: got {got:?}", case.name)),
            }
        }
    }
    report(failures);
}

#[test]
fn decode_never_keeps_wire_only_fields() {
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            if let Ok(Value::Object(m)) = decode(&case.data["input"]) {
                assert!(
                    !m.contains_key("version") && !m.contains_key("payload"),
                    "{}",
                    case.name
                );
            }
        }
    }
}

fn target(name: &str) -> Target {
    Target::from_name(name).unwrap()
}

#[test]
fn encode_fixtures_and_frozen_bytes() {
    let (root, bless) = (root(), blessing());
    let mut failures = Vec::new();
    for case in cases("encode") {
        let stem = case.name.trim_start_matches("encode/");
        let command = &case.data["command"];
        for t in TARGETS {
            let got = encode(command, target(t));
            if let Some(err) = case.data.get("error") {
                match got {
                    Err(e)
                        if Some(e.code) == ErrorCode::parse(err["code"].as_str().unwrap_or(""))
                            && err.get("path").is_none_or(|p| p.as_str() == Some(e.path.as_str())) => {}
                    other => failures.push(format!("{} [{t}]: expected {err}, got {other:?}", case.name)),
                }
                continue;
            }
            let wire = match got {
                Ok(w) => w,
                Err(e) => {
                    failures.push(format!("{} [{t}]: {e}", case.name));
                    continue;
                }
            };
            let bytes = canon(&wire);
            let rel = format!("artifacts/{}/v{WIRE_VERSION}/encode/{stem}.{t}.json", REGISTRY.name);
            if let Err(e) = compare_or_bless(&root, &REGISTRY, WIRE_VERSION, &rel, &bytes, bless) {
                failures.push(e);
            }
            if *t == "v1" && wire["version"] != WIRE_VERSION {
                failures.push(format!(
                    "{}: v1 output does not declare version {WIRE_VERSION}",
                    case.name
                ));
            }
            let expected = match (*t, case.data.get("decodedFromSend")) {
                ("v0-send", Some(d)) => d,
                _ => &case.data["decoded"],
            };
            match decode(&wire) {
                Ok(d) if canon(&d) == canon(expected) => {
                    if decode(&d).map(|x| canon(&x)) != Ok(canon(&d)) {
                        failures.push(format!(
                            "{} [{t}]: decode is not idempotent on {}",
                            case.name,
                            canon(&d)
                        ));
                    }
                }
                other => failures.push(format!(
                    "{} [{t}]: decoded {other:?}, expected {}",
                    case.name,
                    canon(expected)
                )),
            }
        }
    }
    report(failures);
}

#[test]
fn every_frozen_output_has_its_case() {
    let dir = root().join(format!("artifacts/{}/v{WIRE_VERSION}/encode", REGISTRY.name));
    let names: Vec<String> = cases("encode")
        .iter()
        .map(|c| c.name.trim_start_matches("encode/").to_string())
        .collect();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let stem = file.split('.').next().unwrap_or("");
        assert!(
            names.iter().any(|n| n == stem),
            "{file} has no fixture in fixtures/session-inbox/encode"
        );
    }
}
