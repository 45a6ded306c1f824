//! Every version step is a pair (contract §11): `up` then `down` on every valid value of version
//! N−1 the fixtures hold (the decode fixtures whose input version N−1's frozen shape accepts, and
//! every frozen encoder output for target N−1) gives the value back — except exactly the
//! documented differences, which this file names step by step.

mod common;

use common::{cases, frozen_output, DECODE_DIRS, ENCODE_DIRS};
use hookwire::chain::Step;
use hookwire::host::Host;
use hookwire::json::JsonHost;
use hookwire::session_inbox::symbols::SYMBOLS;
use hookwire::session_inbox::{producer_version, steps, WIRE_VERSION};
use hookwire::ErrorCode;
use serde_json::{json, Value};

/// Every valid value of version `n` the fixtures hold, with a name.
fn values_of(n: u32) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let input = &case.data["input"];
            if input.get("version").and_then(Value::as_f64) == Some(f64::from(n))
                && producer_version(n).validate(input).is_ok()
            {
                out.push((case.name.clone(), input.clone()));
            }
        }
    }
    for dir in ENCODE_DIRS {
        for case in cases(dir) {
            let stem = case.name.rsplit('/').next().unwrap_or("").to_string();
            if let Some(rel) = frozen_output(&stem, &format!("v{n}")) {
                let text = std::fs::read_to_string(common::root().join(&rel)).unwrap();
                out.push((rel, serde_json::from_str(&text).unwrap()));
            }
        }
    }
    out
}

/// `up` (decoder side) then `down` (encoder side) of the step `from → from + 1`.
fn round_trip(step: &Step<JsonHost>, v: &Value) -> Result<Value, ErrorCode> {
    let up = (step.up)(&mut JsonHost::new(SYMBOLS), v).map_err(|e| e.code)?;
    let mut upper = up.unwrap_or_else(|| {
        let mut bumped = v.clone();
        bumped["version"] = json!(step.to);
        bumped
    });
    // No validity check of `upper` here: a version 3 task is opaque, so up 3 → 4 can give a task
    // TaskV4 would not accept (the decoder trusts interiors; only the encoder validates).
    let map = upper.as_object_mut().unwrap();
    (producer_version(step.to).down)(map).map_err(|e| e.code)?;
    Ok(upper)
}

/// What a round trip through `from → from + 1` is documented to give for `v`.
fn documented(from: u32, v: &Value) -> Result<Value, ErrorCode> {
    let mut out = v.clone();
    let tasks = || {
        let payloads = v["payloads"].as_array().into_iter().flatten();
        payloads.chain(v.get("payload")).map(|p| &p["task"]).collect::<Vec<_>>()
    };
    match from {
        // up 1 → 2 gives a deliver without the mirror `payload: {}`, and version 1 may carry it.
        1 if v["kind"] == "deliver" && v.get("payload").is_none() => {
            out["payload"] = json!({});
        }
        // up 3 → 4 refuses an old-form input request it cannot rewrite into a valid entry.
        3 if tasks().iter().any(|t| {
            t["inputRequests"]
                .as_array()
                .into_iter()
                .flatten()
                .any(malformed_old_form)
        }) =>
        {
            return Err(ErrorCode::MisdeclaredVersion);
        }
        // down 4 → 3 refuses task operations, whatever up 3 → 4 made of them.
        3 if tasks()
            .iter()
            .any(|t| t.get("agentRequests").is_some() || t.get("inputRequests").is_some()) =>
        {
            return Err(ErrorCode::Incompatible);
        }
        // down 5 → 4 deletes costUsd at exactly the three usage reports (lossy by design).
        4 => {
            let strip = |x: Option<&mut Value>| {
                if let Some(Value::Object(m)) = x {
                    m.remove("costUsd");
                }
            };
            let mut payloads: Vec<&mut Value> = Vec::new();
            for (key, p) in out.as_object_mut().unwrap().iter_mut() {
                match key.as_str() {
                    "payloads" => payloads.extend(p.as_array_mut().into_iter().flatten()),
                    "payload" => payloads.push(p),
                    _ => {}
                }
            }
            for p in payloads {
                for view in p
                    .pointer_mut("/task/views")
                    .and_then(Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    strip(view.get_mut("usage"));
                }
                for r in p
                    .pointer_mut("/task/agentRequests")
                    .and_then(Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    strip(r.pointer_mut("/request/result/usage"));
                    strip(r.pointer_mut("/request/result/outcome/usageDelta"));
                }
            }
        }
        _ => {}
    }
    Ok(out)
}

/// An old-form input request (no `replyTo`, a `hookPayload`) that is not rewritable (contract §16).
fn malformed_old_form(entry: &Value) -> bool {
    if !entry.is_object() || entry.get("replyTo").is_some() || entry.get("hookPayload").is_none() {
        return false;
    }
    let counter = |v: &Value| v.as_f64().is_some_and(|n| n >= 0.0 && n.fract() == 0.0);
    let event = &entry["hookPayload"]["event"];
    let well_formed = entry["hookPayload"]["childContinuationToken"].is_string()
        && event.is_object()
        && event["requests"].is_array()
        && counter(&event["sequence"])
        && counter(&event["stepIndex"])
        && event["turnId"].is_string();
    !well_formed
}

#[test]
fn up_then_down_gives_every_value_back_but_the_documented_differences() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for step in steps::<JsonHost>().iter().filter(|s| s.from >= 1) {
        let values = values_of(step.from);
        assert!(
            !values.is_empty(),
            "no valid fixture of version {} to run step {} → {} on",
            step.from,
            step.from,
            step.to
        );
        for (name, v) in values {
            checked += 1;
            let canon = |r: Result<Value, ErrorCode>| r.map(|v| hookwire::canonical::to_string(&v));
            let got = canon(round_trip(step, &v));
            let want = canon(documented(step.from, &v));
            if got != want {
                failures.push(format!(
                    "{} → {} on {name}: expected {want:?}, got {got:?}",
                    step.from, step.to
                ));
            }
        }
    }
    assert!(checked > 100, "too few values ({checked})");
    common::report(failures);
}

#[test]
fn every_step_is_registered_up_to_the_current_version() {
    let froms: Vec<u32> = steps::<JsonHost>().iter().map(|s| s.from).collect();
    assert_eq!(froms, (0..WIRE_VERSION).collect::<Vec<_>>());
}

/// Every decode fixture's input that declares a version from 1 to current, and variants of each
/// with the mirror taken out and with an `inputRequests` array put into a payload's task (what
/// decides the declared-version check's claims).
fn declared_inputs() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let input = &case.data["input"];
            let Some(n) = input.get("version").and_then(Value::as_u64) else {
                continue;
            };
            if !(1..=u64::from(WIRE_VERSION)).contains(&n) {
                continue;
            }
            out.push((case.name.clone(), input.clone()));
            if let Some(map) = input.as_object() {
                let mut bare = map.clone();
                if bare.remove("payload").is_some() {
                    out.push((format!("{} without its mirror", case.name), Value::Object(bare)));
                }
                let mut with = input.clone();
                if let Some(p) = with
                    .get_mut("payloads")
                    .and_then(|p| p.get_mut(0))
                    .and_then(Value::as_object_mut)
                {
                    p.insert("task".into(), json!({"inputRequests": [{"hookPayload": {}}]}));
                    out.push((format!("{} with an old-form input request", case.name), with));
                }
            }
        }
    }
    out
}

#[test]
fn the_steps_the_declared_check_claims_are_bumps_change_nothing() {
    // The walk does not run the steps up to the version the check answers the value reads as:
    // each of them must answer `None` (a pure bump) on the value the walk would hand it.
    let all = steps::<JsonHost>();
    let (mut claims, mut failures) = (0, Vec::new());
    for (name, input) in declared_inputs() {
        let mut h = JsonHost::new(SYMBOLS);
        let n = input["version"].as_u64().unwrap() as u32;
        let kind = h.head(&input).kind;
        let Ok(reads_as) = hookwire::session_inbox::declared::check(&mut h, &input, n, kind) else {
            continue;
        };
        if reads_as < n {
            failures.push(format!("{name}: declares version {n}, claimed to read as {reads_as}"));
        }
        let mut at = input.clone();
        for step in all.iter().filter(|s| s.from >= n) {
            let up = (step.up)(&mut h, &at);
            if step.from < reads_as {
                claims += 1;
                if !matches!(up, Ok(None)) {
                    failures.push(format!(
                        "{name}: step {} → {} claimed a bump, answered {up:?}",
                        step.from, step.to
                    ));
                }
            }
            match up {
                Ok(Some(v)) => at = v,
                Ok(None) => {}
                Err(_) => break,
            }
        }
    }
    assert!(claims > 50, "too few claims checked ({claims})");
    common::report(failures);
}

/// Every decode fixture's input without its `version` (an unversioned value of every kind and
/// shape the fixtures hold) and without its mirror, decode's output of each (itself
/// unversioned), and variants of each
/// with a task or an old-form input request in a payload or the mirror, a payload that is not an
/// object, and a mirror of each type (what decides whether decode takes the shortcut).
fn unversioned_inputs() -> Vec<(String, Value)> {
    let mut base = Vec::new();
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let Some(map) = case.data["input"].as_object() else {
                continue;
            };
            let mut bare = map.clone();
            bare.remove("version");
            if bare.contains_key("payload") {
                let mut without = bare.clone();
                without.remove("payload");
                base.push((
                    format!("{} unversioned, without its mirror", case.name),
                    Value::Object(without),
                ));
            }
            let bare = Value::Object(bare);
            if let Ok(out) = hookwire::session_inbox::decode(&bare) {
                base.push((format!("{} decoded", case.name), out));
            }
            base.push((format!("{} unversioned", case.name), bare));
        }
    }
    let old_form = json!({"inputRequests": [{"taskId": "t", "hookPayload": {"childContinuationToken": "c",
        "event": {"requests": [1, 2], "sequence": 0, "stepIndex": 1, "turnId": "u"}}}]});
    let malformed = json!({"inputRequests": [{"hookPayload": {}}]});
    let mut out = Vec::new();
    for (name, v) in base {
        let mut variants = vec![(name.clone(), v.clone())];
        for (what, task) in [
            ("a task", json!({"id": "t"})),
            ("an old-form input request", old_form.clone()),
            ("a malformed one", malformed.clone()),
        ] {
            let mut with = v.clone();
            if let Some(p) = with
                .get_mut("payloads")
                .and_then(|p| p.get_mut(0))
                .and_then(Value::as_object_mut)
            {
                p.insert("task".into(), task.clone());
                variants.push((format!("{name}, {what} in a payload"), with));
            }
            let mut with = v.clone();
            with["payload"] = json!({"task": task});
            variants.push((format!("{name}, {what} in the mirror"), with));
            let mut with = v.clone();
            with["payloads"] = json!([{"message": "m"}, {"task": task}]);
            variants.push((format!("{name}, {what} in its second payload"), with));
        }
        for (what, value) in [
            ("a payload that is not an object", json!([{}, 5])),
            ("payloads that are no array", json!({"0": {}})),
        ] {
            let mut with = v.clone();
            with["payloads"] = value;
            variants.push((format!("{name}, {what}"), with));
        }
        for mirror in [json!(null), json!([]), json!("m"), json!({}), json!({"task": null})] {
            let mut with = v.clone();
            with["payload"] = mirror.clone();
            variants.push((format!("{name}, the mirror {mirror}"), with));
        }
        out.extend(variants);
    }
    out
}

#[test]
fn the_shortcut_of_an_unversioned_value_answers_what_running_every_step_answers() {
    // Decode takes an unversioned value as current, as it is, where the family's shortcut has
    // shown the steps change nothing the decode reads: it must answer exactly what running them
    // does, value or error.
    let inputs = unversioned_inputs();
    let taken: Vec<&Value> = inputs
        .iter()
        .filter(|(_, v)| hookwire::session_inbox::invariants::check_unversioned(v))
        .map(|(_, v)| v)
        .collect();
    let refused = taken
        .iter()
        .filter(|v| hookwire::session_inbox::decode(v).is_err())
        .count();
    assert!(
        taken.len() > 50,
        "the shortcut was taken too rarely ({} of {})",
        taken.len(),
        inputs.len()
    );
    assert!(refused > 5, "too few values the shortcut took were refused ({refused})");
    assert!(inputs.len() - taken.len() > 1000, "the steps ran too rarely");
}
