//! Negotiation through every driver at once (contract §6, §12, §14, §16), over the fixtures'
//! requests and generated ones (malformed stamps, addresses, hooks lists, templates, ceilings):
//! the CLI's `answer_request`, the JS encoder's moves (`step_json`, its state carried as JSON
//! between lookups), the synchronous `negotiate` and `negotiate_async` must answer alike, and
//! each makes exactly the lookups it reports. Turn control: its two JSON entries agree, and its
//! decode, which defers step 0 → 1, answers what running every step answers.

mod common;

use hookwire::session_inbox::target::{
    answer_json, answer_request, negotiate, negotiate_async, step_json, Destination, Hook, InboxTokens, Options,
};
use hookwire::{turn_control, EncodeError};
use serde_json::{json, Value};

/// Versions a stamp, an address or a capability may claim, good and bad.
fn versions() -> Vec<Value> {
    vec![
        json!(1),
        json!(2),
        json!(3),
        json!(5),
        json!(6),
        json!(7),
        json!(100),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(2.0),
        json!("3"),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
        json!(9_007_199_254_740_991_u64),
        json!(9_007_199_254_740_992_u64),
        json!(1e20),
        json!(-0.0),
        json!(6.000000000000001),
        json!(5.999999999999999),
    ]
}

fn commands() -> Vec<Value> {
    let mut out: Vec<Value> = common::ENCODE_DIRS
        .iter()
        .flat_map(|d| common::cases(d))
        .map(|c| c.data["command"].clone())
        .collect();
    out.extend([
        json!({"kind": "clear"}),
        json!({"kind": "reset", "reason": 5}),
        json!({"kind": "cancel", "tasks": true}),
        json!({"kind": "nope"}),
        json!({}),
        json!(null),
        json!({"kind": "send"}),
        json!({"kind": "send", "payload": {"message": "hi"}, "extra": 1}),
    ]);
    out
}

/// A generated `negotiate --lines` request and the write ceiling it runs under.
fn request(rng: &mut common::Rng, commands: &[Value]) -> (Value, u32) {
    let template = rng.pick(&[
        None,
        Some(json!(null)),
        Some(json!("inbox/{runId}")),
        Some(json!("{runId}")),
        Some(json!("x{runId}y{runId}")),
        Some(json!("nope")),
        Some(json!(5)),
    ]);
    let form = match &template {
        Some(Value::String(t)) if t.matches("{runId}").count() == 1 => t.clone(),
        _ => InboxTokens::DEFAULT_TEMPLATE.to_string(),
    };
    let stable = |run: &str| form.replace("{runId}", run);
    let tokens = [
        "c-1".to_string(),
        "c-2".to_string(),
        stable("r1"),
        stable("r2"),
        stable(""),
        "eve:session:r1:inbox".into(),
    ];
    let destination = match rng.next() % 20 {
        0..=11 => json!({"token": rng.pick(&tokens)}),
        12..=16 => {
            json!({"address": {"sessionId": rng.pick(&[json!("s"), json!(""), json!("a:b"), json!(5)]), "version": rng.pick(&versions())}})
        }
        _ => rng.pick(&[
            json!({}),
            json!({"token": 5}),
            json!({"token": "c-1", "address": {"sessionId": "s", "version": 1}}),
            json!("c-1"),
            json!(null),
        ]),
    };
    let mut hooks = Vec::new();
    for _ in 0..rng.next() % 4 {
        let mut h = json!({"token": rng.pick(&tokens), "runId": rng.pick(&["r1", "r2", "", "a:b"])});
        match rng.next() % 10 {
            0..=3 => h["metadata"] = json!({ "sessionInboxWireVersion": rng.pick(&versions()) }),
            4 => h["metadata"] = rng.pick(&[json!(null), json!("x"), json!([]), json!(5), json!({"other": 1})]),
            _ => {}
        }
        if rng.chance(8) {
            h.as_object_mut().unwrap().remove("runId");
        } else if rng.chance(5) {
            h["runId"] = json!(7);
        }
        hooks.push(h);
    }
    let mut req = json!({"command": rng.pick(commands), "destination": destination, "hooks": hooks});
    if let Some(t) = template {
        req["stableInboxToken"] = t;
    }
    (req, rng.pick(&[6, 6, 1, 3, 5]))
}

/// The hook the request's list gives for `token` (the first listed with it), as the CLI finds it.
fn listed<'a>(req: &'a Value, token: &str) -> Option<&'a Value> {
    req["hooks"]
        .as_array()?
        .iter()
        .find(|h| h.get("token").and_then(Value::as_str) == Some(token))
}

/// The JS encoder's way: one move to start, then one per lookup with the state it was given.
fn by_moves(req: &Value, ceiling: u32, calls: &mut u32) -> Value {
    let mut answer = step_json(&json!({"start": {
        "command": req["command"],
        "destination": req["destination"],
        "writeAtMost": ceiling,
        "stableInboxToken": req.get("stableInboxToken").cloned().unwrap_or(Value::Null),
    }}));
    while let Some(token) = answer.get("lookup").and_then(Value::as_str) {
        *calls += 1;
        let hook = listed(req, token).cloned().unwrap_or(Value::Null);
        answer = step_json(&json!({"resume": answer["state"], "answer": {"hook": hook}}));
    }
    answer
}

fn lookup_of(req: &Value, token: &str) -> Result<Option<Hook>, String> {
    listed(req, token).map_or(Ok(None), Hook::from_json)
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// The options and destination a well-formed request gives, as `answer_request` reads them.
fn parts(req: &Value, ceiling: u32) -> Option<(Destination, Options)> {
    let dest = Destination::from_json(req.get("destination")?).ok()?;
    let mut options = Options::default().with_write_ceiling(ceiling).ok()?;
    match req.get("stableInboxToken") {
        None | Some(Value::Null) => {}
        Some(t) => options.tokens = InboxTokens::from_template(t.as_str()?).ok()?,
    }
    if !matches!(req.get("hooks"), None | Some(Value::Null) | Some(Value::Array(_))) {
        return None;
    }
    Some((dest, options))
}

fn without_path(mut v: Value) -> Value {
    if let Some(e) = v.get_mut("error").and_then(Value::as_object_mut) {
        e.remove("path");
    }
    v
}

#[test]
fn every_driver_answers_every_request_alike_with_the_lookups_it_reports() {
    let commands = commands();
    let mut rng = common::Rng(7);
    let mut requests: Vec<(Value, u32)> = common::cases("negotiate")
        .into_iter()
        .map(|c| {
            (
                c.data["request"].clone(),
                c.data["writeAtMost"].as_u64().map_or(6, |w| w as u32),
            )
        })
        .collect();
    requests.extend((0..3000).map(|_| request(&mut rng, &commands)));
    let mut failures = Vec::new();
    let mut compared = 0;
    for (req, ceiling) in &requests {
        let options = Options::default().with_write_ceiling(*ceiling).unwrap();
        let cli = answer_request(req, &options);
        let lookups = cli.pointer("/ok/lookups").and_then(Value::as_u64);
        let mut calls = 0;
        let moves = by_moves(req, *ceiling, &mut calls);
        // A malformed request is INVALID_REQUEST in both; only the CLI names the path.
        let invalid = cli.pointer("/error/code") == Some(&json!("INVALID_REQUEST"));
        if invalid {
            if moves.pointer("/error/code") != Some(&json!("INVALID_REQUEST")) {
                failures.push(format!("{req}: the CLI refuses the request, the moves answer {moves}"));
            }
            continue;
        }
        if without_path(cli.clone()) != moves {
            failures.push(format!("{req} (ceiling {ceiling}):\n  CLI   {cli}\n  moves {moves}"));
        }
        if let Some(n) = lookups {
            if u64::from(calls) != n {
                failures.push(format!("{req}: the moves made {calls} lookups and report {n}"));
            }
        }
        let Some((dest, options)) = parts(req, *ceiling) else {
            failures.push(format!("{req}: well-formed for the CLI, not for the test"));
            continue;
        };
        let mut sync_calls = 0;
        let sync = negotiate(&req["command"], &dest, &options, |t| {
            sync_calls += 1;
            lookup_of(req, t)
        })
        .map_err(EncodeError::from);
        let mut async_calls = 0;
        let asynchronous = block_on(negotiate_async(&req["command"], &dest, &options, |t: String| {
            async_calls += 1;
            let found = lookup_of(req, &t);
            async move { found }
        }))
        .map_err(EncodeError::from);
        for (name, answer, made) in [
            ("negotiate", sync, sync_calls),
            ("negotiate_async", asynchronous, async_calls),
        ] {
            if let Ok(n) = &answer {
                if n.lookups != made {
                    failures.push(format!("{req}: {name} made {made} lookups and reports {}", n.lookups));
                }
            }
            let json = answer_json(&answer);
            // The caller's failed lookup keeps the caller's error as its text: the codes agree.
            let same = if cli.pointer("/error/code") == Some(&json!("LOOKUP_FAILED")) {
                json.pointer("/error/code") == Some(&json!("LOOKUP_FAILED"))
            } else {
                json == cli
            };
            if !same {
                failures.push(format!("{req} (ceiling {ceiling}):\n  CLI {cli}\n  {name} {json}"));
            }
        }
        compared += 1;
    }
    assert!(compared > 1000, "too few well-formed requests ({compared})");
    common::report(failures);
}

#[test]
fn a_lookup_answer_that_is_no_hook_is_a_failed_lookup_never_not_found() {
    // The JS encoder hands the state machine what a lookup answered as `{"hook": …}`. Anything
    // that is not null and not a hook with a string token and runId must refuse.
    let start =
        step_json(&json!({"start": {"command": {"kind": "deliver", "payloads": []}, "destination": {"token": "c-1"}}}));
    let state = start["state"].clone();
    assert_eq!(start["lookup"], json!("c-1"));
    for bad in [
        json!(5),
        json!("c-1"),
        json!(true),
        json!([]),
        json!({}),
        json!({"token": "c-1"}),
        json!({"token": "c-1", "runId": 5}),
    ] {
        let answer = step_json(&json!({"resume": state, "answer": {"hook": bad}}));
        assert_eq!(
            answer.pointer("/error/code"),
            Some(&json!("LOOKUP_FAILED")),
            "{bad}: {answer}"
        );
    }
    let none = step_json(&json!({"resume": state, "answer": {"hook": null}}));
    assert_eq!(none.pointer("/error/code"), Some(&json!("HOOK_NOT_FOUND")), "{none}");
}

#[test]
fn an_answer_that_names_neither_a_hook_nor_a_failure_is_refused() {
    // What JSON text leaves of `{hook: f}` for a function or a symbol is `{}`: never "not found"
    // (which would let garbage pass for a missing hook, or for a markerless hook's stable inbox,
    // choose a target).
    let start =
        step_json(&json!({"start": {"command": {"kind": "deliver", "payloads": []}, "destination": {"token": "c-1"}}}));
    let answer = step_json(&json!({"resume": start["state"], "answer": {}}));
    assert_eq!(answer.pointer("/error/code"), Some(&json!("LOOKUP_FAILED")), "{answer}");
}

#[test]
fn turn_control_entries_agree_on_every_capability() {
    let mut caps = vec![
        json!(null),
        json!(5),
        json!("x"),
        json!([]),
        json!([1]),
        json!({}),
        json!({"other": 1}),
    ];
    for v in versions() {
        caps.push(json!({ "turnControlWireVersion": v }));
        caps.push(json!({ "turnControlWireVersion": v, "other": 2 }));
    }
    for c in &caps {
        for ceiling in 1..=turn_control::WIRE_VERSION {
            let cli = turn_control::target::answer_request(&json!({ "capabilities": c }), ceiling);
            let js = turn_control::target::step_json(&json!({"capabilities": c, "writeAtMost": ceiling}));
            assert_eq!(cli, js, "{c} at {ceiling}");
            match turn_control::target::negotiate(c, ceiling) {
                Ok(n) => assert_eq!(cli, json!({"ok": {"target": {"version": n}}}), "{c}"),
                Err(e) => assert_eq!(cli.pointer("/error/code"), Some(&json!(e.code.as_str())), "{c}"),
            }
        }
    }
}

/// Turn-control values of every kind, version and field mix, good and bad.
fn turn_values(rng: &mut common::Rng, n: usize) -> Vec<Value> {
    // Every kind turn control decodes, a session-inbox kind, and near-misses.
    let kinds = common::kind_names(
        hookwire::turn_control::KINDS,
        hookwire::turn_control::symbols::SYMBOLS,
        &["deliver", "TURN-RESULT", ""],
    );
    let anything = [
        json!(null),
        json!(true),
        json!(0),
        json!(1.5),
        json!("x"),
        json!(""),
        json!([]),
        json!({}),
        json!([{}]),
        json!([1]),
        json!({"kind": "reply"}),
        json!({"kind": 1}),
        json!({"kind": null}),
        json!([{"kind": "r"}]),
        json!({"kind": "a", "x": [1]}),
    ];
    let versions = [
        json!(0),
        json!(1),
        json!(2),
        json!(1.0),
        json!(0.5),
        json!(-0.0),
        json!("1"),
        json!(null),
        json!(0.0),
    ];
    (0..n)
        .map(|_| {
            let mut v = serde_json::Map::new();
            if rng.chance(95) {
                v.insert("kind".into(), json!(rng.pick(&kinds)));
            }
            if rng.chance(40) {
                v.insert("version".into(), rng.pick(&versions));
            }
            for key in [
                "action",
                "bufferedDeliveries",
                "error",
                "continuationToken",
                "inboxToken",
                "requestId",
                "extra",
            ] {
                if rng.chance(45) {
                    v.insert(key.into(), rng.pick(&anything));
                }
            }
            if v.get("kind") == Some(&json!("turn-result")) && rng.chance(60) {
                v.insert("action".into(), json!({"kind": "reply"}));
            }
            for key in ["continuationToken", "inboxToken", "requestId"] {
                if rng.chance(40) {
                    v.insert(key.into(), json!("t"));
                }
            }
            Value::Object(v)
        })
        .collect()
}

#[test]
fn turn_control_decode_deferring_step_0_answers_what_every_step_answers() {
    let mut rng = common::Rng(11);
    let mut values = turn_values(&mut rng, 20_000);
    for dir in ["v0", "v1", "chain"] {
        let base = common::root().join("fixtures/turn-control").join(dir);
        for e in std::fs::read_dir(base).unwrap().flatten() {
            let f: Value = serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            values.push(f["input"].clone());
        }
    }
    let mut outcomes = std::collections::BTreeMap::new();
    for v in &values {
        turn_control::invariants::check_deferred(v);
        let code = turn_control::decode(v).map_or_else(|e| e.code.as_str().to_string(), |_| "ok".into());
        *outcomes.entry(code).or_insert(0) += 1;
    }
    // The generated values reach every outcome the deferred step could change.
    for code in ["ok", "LEGACY_SHAPE", "INVALID", "UNKNOWN_KIND"] {
        assert!(outcomes.get(code).copied().unwrap_or(0) > 50, "{code}: {outcomes:?}");
    }
}
