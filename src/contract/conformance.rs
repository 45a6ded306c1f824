//! The checks every family passes, as library functions over a [`FamilyDesc`] and a repository
//! root: its decode fixtures, its encode fixtures for every target with their byte-frozen
//! outputs, its frozen schemas, its negotiation fixtures, and the registry guard. The test suite
//! runs them for every registered family and for a test-only family built in a scratch tree, so
//! a new family gets the whole harness by registering itself.
//!
//! Fixture layout, per family: `fixtures/<family>/<dir>/<case>.json` — decode folders (`v<N>`,
//! `chain`, `walk`: `{"input", "expect"}` or `{"input", "error": {"code", "version"?, "path"?}}`),
//! encode folders (`encode*`: `{"command", "decoded", "decodedAt"?, "refusedAt"?}` or
//! `{"command", "error"}`), `negotiate` (`{"request", "writeAtMost"?, "answer"}`), and
//! `superseded.json` (frozen cases whose expectation a later contract section replaced).
//! This module must never import a family.

use crate::artifacts::compare_or_bless;
use crate::canonical;
use crate::error::ErrorCode;
use crate::family::FamilyDesc;
use serde_json::Value;
use std::path::Path;

/// One fixture file: its name (`<dir>/<file stem>`, the test name) and its content.
pub struct Case {
    /// `<dir>/<file stem>`.
    pub name: String,
    /// The parsed file.
    pub data: Value,
}

fn canon(v: &Value) -> String {
    canonical::to_string(v)
}

/// Every `*.json` case of `fixtures/<family>/<dir>`, sorted by name (none when the folder is missing).
pub fn cases(root: &Path, family: &str, dir: &str) -> Vec<Case> {
    let path = root.join("fixtures").join(family).join(dir);
    let mut out: Vec<Case> = std::fs::read_dir(&path)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            Some(Case {
                name: format!("{dir}/{}", e.path().file_stem()?.to_string_lossy()),
                data: serde_json::from_str(&text).unwrap_or(Value::Null),
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The fixture folders of a family, sorted.
fn dirs(root: &Path, family: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root.join("fixtures").join(family))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The decode fixture folders (`v<N>`, `chain`, `walk`).
pub fn decode_dirs(root: &Path, family: &str) -> Vec<String> {
    dirs(root, family)
        .into_iter()
        .filter(|d| {
            d == "chain"
                || d == "walk"
                || d.strip_prefix('v')
                    .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect()
}

/// The encode fixture folders (`encode…`).
pub fn encode_dirs(root: &Path, family: &str) -> Vec<String> {
    dirs(root, family)
        .into_iter()
        .filter(|d| d.starts_with("encode"))
        .collect()
}

/// The expectation of a decode case: its own, or the one `superseded.json` gives a frozen case.
pub fn decode_expectation(root: &Path, family: &str, case: &Case) -> Value {
    let path = root.join("fixtures").join(family).join("superseded.json");
    let superseded: Value = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    superseded["cases"]
        .get(&case.name)
        .cloned()
        .unwrap_or_else(|| case.data.clone())
}

/// What an encode case expects for target `t`: `Ok(decoded)` or `Err(error)`.
pub fn encode_expectation(case: &Case, t: &str) -> Result<Value, Value> {
    let d = &case.data;
    if let Some(e) = d.get("error") {
        return Err(e.clone());
    }
    if let Some(e) = d.get("refusedAt").and_then(|r| r.get(t)) {
        return Err(e.clone());
    }
    if let Some(v) = d.get("decodedAt").and_then(|r| r.get(t)) {
        return Ok(v.clone());
    }
    match (t, d.get("decodedFromSend")) {
        ("v0-send", Some(v)) => Ok(v.clone()),
        _ => Ok(d["decoded"].clone()),
    }
}

/// The frozen output of encode case `stem` for target `t`, wherever a version's encoder first
/// wrote it: `artifacts/<family>/v<N>/encode/<stem>.<t>.json`, relative to the root.
pub fn frozen_output(root: &Path, desc: &FamilyDesc, stem: &str, t: &str) -> Option<String> {
    (1..=desc.registry.current)
        .map(|n| format!("artifacts/{}/v{n}/encode/{stem}.{t}.json", desc.name()))
        .find(|rel| root.join(rel).exists())
}

/// Whether an error answer (`{"code", "message", "path"?, "version"?}`) matches an expectation.
fn error_matches(got: &Value, want: &Value) -> bool {
    got["code"] == want["code"]
        && want.get("path").is_none_or(|p| got.get("path") == Some(p))
        && want
            .get("version")
            .is_none_or(|v| got.get("version").and_then(Value::as_f64) == v.as_f64())
}

/// Every decode fixture decodes to its expectation.
pub fn check_decode_fixtures(desc: &FamilyDesc, root: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    let current = desc.registry.current.to_string();
    for dir in decode_dirs(root, desc.name()) {
        for case in cases(root, desc.name(), &dir) {
            let want = decode_expectation(root, desc.name(), &case);
            let got = (desc.decode)(&case.data["input"]);
            match (want.get("expect"), want.get("error"), got) {
                (Some(expect), None, Ok(v)) if canon(&v) == canon(expect) => {
                    let m = v.as_object();
                    if m.is_some_and(|m| m.contains_key("version")) {
                        failures.push(format!("{}: the decoded value keeps `version`", case.name));
                    }
                }
                (None, Some(err), Err(e)) => {
                    let mut answer = serde_json::json!({"code": e.code.as_str()});
                    if let Some(v) = e.version {
                        answer["version"] = crate::json::json_number(v);
                    }
                    if e.detail.at.is_some() {
                        answer["path"] = Value::String(e.path());
                    }
                    if !error_matches(&answer, err) {
                        failures.push(format!("{}: expected {err}, got {answer} ({e})", case.name));
                    }
                    let m = e.to_string();
                    if e.code == ErrorCode::NewerVersion && !(m.contains("newer") && m.contains(&current)) {
                        failures.push(format!("{}: message lacks 'newer' or the numbers: {m}", case.name));
                    }
                }
                (_, _, got) => failures.push(format!("{}: got {got:?}", case.name)),
            }
        }
    }
    failures
}

/// Every encode fixture, for every target: the expected answer, the byte-frozen output (written
/// with `bless` while its version is unshipped), and every frozen output still decoding.
pub fn check_encode_fixtures(desc: &FamilyDesc, root: &Path, bless: bool) -> Vec<String> {
    let mut failures = Vec::new();
    let current = desc.registry.current;
    for dir in encode_dirs(root, desc.name()) {
        for case in cases(root, desc.name(), &dir) {
            let stem = case.name.rsplit('/').next().unwrap_or("").to_string();
            for t in desc.targets {
                let target = crate::family::target_json(t);
                let answer = (desc.encode)(case.data["command"].clone(), &target).to_json();
                let expected = encode_expectation(&case, t);
                let frozen = frozen_output(root, desc, &stem, t);
                match (&expected, answer.get("ok"), answer.get("error")) {
                    (Err(want), None, Some(got)) if error_matches(got, want) => {}
                    (Err(want), _, _) => failures.push(format!("{} [{t}]: expected {want}, got {answer}", case.name)),
                    (Ok(_), Some(wire), None) => {
                        let rel = frozen
                            .clone()
                            .unwrap_or_else(|| format!("artifacts/{}/v{current}/encode/{stem}.{t}.json", desc.name()));
                        let version = rel
                            .split("/v")
                            .nth(1)
                            .and_then(|x| x.split('/').next()?.parse().ok())
                            .unwrap_or(current);
                        if let Err(e) = compare_or_bless(root, desc.registry, version, &rel, &canon(wire), bless) {
                            failures.push(e);
                        }
                        if wire.get("version") != target.get("version").filter(|v| v.as_u64() != Some(0)) {
                            failures.push(format!(
                                "{} [{t}]: output declares {:?}",
                                case.name,
                                wire.get("version")
                            ));
                        }
                    }
                    (Ok(_), _, _) => failures.push(format!("{} [{t}]: {answer}", case.name)),
                }
                let Some(rel) = frozen else { continue };
                let wire: Value = std::fs::read_to_string(root.join(&rel))
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok())
                    .unwrap_or(Value::Null);
                let want = match &expected {
                    Ok(v) => v.clone(),
                    Err(_) if *t == "v0-send" && case.data.get("decodedFromSend").is_some() => {
                        case.data["decodedFromSend"].clone()
                    }
                    Err(_) => case.data["decoded"].clone(),
                };
                match (desc.decode)(&wire) {
                    Ok(d) if canon(&d) == canon(&want) => {
                        // Decoded values are unversioned: they decode to themselves where the
                        // family has an unversioned era (contract §4.5).
                        let era = desc.registry.initial.is_some();
                        if era && (desc.decode)(&d).map(|x| canon(&x)) != Ok(canon(&d)) {
                            failures.push(format!("{rel}: decode is not idempotent on {}", canon(&d)));
                        }
                    }
                    other => failures.push(format!("{rel}: decoded {other:?}, expected {}", canon(&want))),
                }
            }
        }
    }
    failures
}

/// Every frozen output has its encode case.
pub fn check_outputs_have_cases(desc: &FamilyDesc, root: &Path) -> Vec<String> {
    let names: Vec<String> = encode_dirs(root, desc.name())
        .iter()
        .flat_map(|d| cases(root, desc.name(), d))
        .map(|c| c.name.rsplit('/').next().unwrap_or("").to_string())
        .collect();
    let mut failures = Vec::new();
    for n in 1..=desc.registry.current {
        let dir = root.join(format!("artifacts/{}/v{n}/encode", desc.name()));
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let stem = file.split('.').next().unwrap_or("");
            if !names.iter().any(|n| n == stem) {
                failures.push(format!("{file} has no encode fixture"));
            }
        }
    }
    failures
}

/// Every version's rendered JSON Schema equals its frozen file (written with `bless` while the
/// version is unshipped). A shipped version whose shapes changed fails with every change
/// classified (`hookwire diff`'s rules and verdicts) and the one green path; an unshipped
/// version's changes are listed too, and re-blessing accepts them.
pub fn check_schemas(desc: &FamilyDesc, root: &Path, bless: bool) -> Vec<String> {
    let mut failures = Vec::new();
    for p in desc.producer {
        let mut text = serde_json::to_string_pretty(&(p.json_schema)()).unwrap_or_default();
        text.push('\n');
        let rel = format!("artifacts/{}/v{}/schema.json", desc.name(), p.version);
        if let Err(e) = compare_or_bless(root, desc.registry, p.version, &rel, &text, bless) {
            failures.push(format!("{e}{}", classified(root, &rel, p.wire)));
        }
    }
    failures
}

/// The changes between the frozen schema at `rel` and the code's shape, classified.
fn classified(root: &Path, rel: &str, now: &'static crate::shape::Shape) -> String {
    let frozen = std::fs::read_to_string(root.join(rel))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .map(|doc| crate::shape::from_json_schema(&doc));
    match frozen {
        Some(Ok(then)) => {
            let changes = crate::diff::diff(then, now);
            let list: String = changes.iter().map(|c| format!("\n    {c}")).collect();
            format!(
                "\n  the code's shapes differ from the frozen ones ({} change{}):{list}\n  the one green path: keep this version as it shipped and add the change as a new version (a new vN+1.rs and its step pair; see ARCHITECTURE.md, \"Adding a version\")",
                changes.len(),
                if changes.len() == 1 { "" } else { "s" }
            )
        }
        _ => String::new(),
    }
}

/// Every negotiation fixture gets its answer (the answer may carry more, such as a message).
pub fn check_negotiate_fixtures(desc: &FamilyDesc, root: &Path) -> Vec<String> {
    fn covers(got: &Value, want: &Value) -> bool {
        match (got, want) {
            (Value::Object(g), Value::Object(w)) => w.iter().all(|(k, v)| g.get(k).is_some_and(|x| covers(x, v))),
            _ => got == want,
        }
    }
    let mut failures = Vec::new();
    for case in cases(root, desc.name(), "negotiate") {
        let ceiling = case
            .data
            .get("writeAtMost")
            .and_then(Value::as_u64)
            .map_or(desc.registry.current, |w| w as u32);
        let got = (desc.negotiate)(&case.data["request"], ceiling);
        if !covers(&got, &case.data["answer"]) {
            failures.push(format!("{}: expected {}, got {got}", case.name, case.data["answer"]));
        }
    }
    failures
}

/// Everything above and the registry guard.
pub fn check_family(desc: &FamilyDesc, root: &Path, bless: bool) -> Vec<String> {
    let mut failures = check_schemas(desc, root, bless);
    failures.extend(check_decode_fixtures(desc, root));
    failures.extend(check_encode_fixtures(desc, root, bless));
    failures.extend(check_outputs_have_cases(desc, root));
    failures.extend(check_negotiate_fixtures(desc, root));
    failures.extend(
        crate::guard::check(root, desc.registry)
            .into_iter()
            .map(|v| format!("guard {:?}: {}", v.rule, v.message)),
    );
    failures
}
