//! The migration chain's rules (contract §3) on families built for the test, including broken
//! registries, which must fail with MIGRATION and never return a value.

use hookwire::chain::{run, Chain, Step, Walked};
use hookwire::host::{Host, Sym};
use hookwire::json::JsonHost;
use hookwire::{DecodeError, ErrorCode};
use serde_json::{json, Value};

const SYMBOLS: &[&str] = &["version", "kind"];

fn set_version(h: &mut JsonHost, v: &Value, n: f64) -> Result<Value, DecodeError> {
    let mut out = h.copy_object(v)?;
    let n = h.number(n);
    h.set(&mut out, hookwire::host::Sym::VERSION, n);
    Ok(out)
}
fn to1(h: &mut JsonHost, v: &Value) -> Result<Option<Value>, DecodeError> {
    set_version(h, v, 1.0).map(Some)
}
fn to2(h: &mut JsonHost, v: &Value) -> Result<Option<Value>, DecodeError> {
    set_version(h, v, 2.0).map(Some)
}
fn to5(h: &mut JsonHost, v: &Value) -> Result<Option<Value>, DecodeError> {
    set_version(h, v, 5.0).map(Some)
}

fn walk(chain: &Chain<'_, JsonHost>, v: Value) -> Result<Option<Value>, ErrorCode> {
    match run(&mut JsonHost::new(SYMBOLS), chain, &v) {
        Ok(Walked::Current) => Ok(None),
        Ok(Walked::Migrated(v)) => Ok(Some(v)),
        Err(e) => Err(e.code),
    }
}

#[test]
fn walks_every_step_to_current() {
    let steps = [
        Step {
            from: 1,
            to: 2,
            up: to2,
        },
        Step {
            from: 0,
            to: 1,
            up: to1,
        },
    ];
    let chain = Chain {
        current: 2,
        initial: Some(0),
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    assert_eq!(
        walk(&chain, json!({"kind": "a"})),
        Ok(Some(json!({"kind": "a", "version": 2})))
    );
    assert_eq!(walk(&chain, json!({"version": 1})), Ok(Some(json!({"version": 2}))));
    assert_eq!(walk(&chain, json!({"version": 2})), Ok(None));
    assert_eq!(walk(&chain, json!({"version": 2.0})), Ok(None));
}

#[test]
fn a_missing_step_is_a_migration_error() {
    let steps = [Step {
        from: 0,
        to: 1,
        up: to1,
    }];
    let chain = Chain {
        current: 2,
        initial: Some(0),
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    assert_eq!(walk(&chain, json!({})), Err(ErrorCode::Migration));
    assert_eq!(walk(&chain, json!({"version": 1})), Err(ErrorCode::Migration));
}

#[test]
fn a_step_that_skips_a_version_is_a_migration_error() {
    let steps = [Step {
        from: 0,
        to: 2,
        up: to2,
    }];
    let chain = Chain {
        current: 2,
        initial: Some(0),
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    assert_eq!(walk(&chain, json!({})), Err(ErrorCode::Migration));
}

#[test]
fn a_step_declaring_the_wrong_version_is_a_migration_error() {
    let steps = [Step {
        from: 0,
        to: 1,
        up: to5,
    }];
    let chain = Chain {
        current: 1,
        initial: Some(0),
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    assert_eq!(walk(&chain, json!({})), Err(ErrorCode::Migration));
}

#[test]
fn without_an_initial_version_a_version_is_required_and_at_least_one() {
    let steps = [Step {
        from: 1,
        to: 2,
        up: to2,
    }];
    let chain = Chain {
        current: 2,
        initial: None,
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    assert_eq!(walk(&chain, json!({})), Err(ErrorCode::MalformedVersion));
    assert_eq!(walk(&chain, json!({"version": 0})), Err(ErrorCode::MalformedVersion));
    assert_eq!(walk(&chain, json!({"version": 1})), Ok(Some(json!({"version": 2}))));
}

#[test]
fn version_rules_in_order() {
    let steps = [Step {
        from: 0,
        to: 1,
        up: to1,
    }];
    let chain = Chain {
        current: 1,
        initial: Some(0),
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    for v in [json!(null), json!([]), json!("x"), json!(1), json!(true)] {
        assert_eq!(walk(&chain, v), Err(ErrorCode::NotObject));
    }
    for v in [json!("1"), json!(null), json!([1]), json!({}), json!(0.5), json!(-1)] {
        assert_eq!(walk(&chain, json!({ "version": v })), Err(ErrorCode::MalformedVersion));
    }
    assert_eq!(walk(&chain, json!({"version": 2})), Err(ErrorCode::NewerVersion));
    assert_eq!(walk(&chain, json!({"version": 0})), Ok(Some(json!({"version": 1}))));
}

fn bump(_: &mut JsonHost, _: &Value) -> Result<Option<Value>, DecodeError> {
    Ok(None)
}

fn refuse_version_2(_: &mut JsonHost, v: &Value, n: u32, _: Option<Sym>) -> Result<u32, DecodeError> {
    if n == 2 && v.get("bad").is_some() {
        return Err(DecodeError::new(ErrorCode::MisdeclaredVersion));
    }
    Ok(n)
}

#[test]
fn pure_bumps_copy_nothing_and_a_rewritten_value_leaves_declaring_current() {
    let steps = [
        Step {
            from: 0,
            to: 1,
            up: to1,
        },
        Step {
            from: 1,
            to: 2,
            up: bump,
        },
        Step {
            from: 2,
            to: 3,
            up: bump,
        },
    ];
    let chain = Chain {
        current: 3,
        initial: Some(0),
        steps: &steps,
        declared: Some(refuse_version_2),
        unversioned: None,
    };
    assert_eq!(walk(&chain, json!({"version": 1, "kind": "a"})), Ok(None));
    assert_eq!(
        walk(&chain, json!({"kind": "a"})),
        Ok(Some(json!({"kind": "a", "version": 3})))
    );
    assert_eq!(
        walk(&chain, json!({"version": 2, "bad": 1})),
        Err(ErrorCode::MisdeclaredVersion)
    );
    // Unversioned values are not checked against a declared version.
    assert_eq!(
        walk(&chain, json!({"bad": 1})),
        Ok(Some(json!({"bad": 1, "version": 3})))
    );
}

/// A check that claims the step 1 → 2 a pure bump for any value with `same: true`.
fn claim_step_1(_: &mut JsonHost, v: &Value, n: u32, _: Option<Sym>) -> Result<u32, DecodeError> {
    Ok(if v.get("same") == Some(&json!(true)) { 2 } else { n })
}

/// The step `from → from + 1`.
fn step(from: u32, up: hookwire::chain::Up<JsonHost>) -> Step<JsonHost> {
    Step { from, to: from + 1, up }
}

#[test]
fn a_step_the_declared_check_shows_to_be_a_bump_is_not_run() {
    // Step 1 → 2 rewrites every value it is run on; the walk runs it unless the check said it
    // would change nothing, and the steps after it still run.
    let steps = [step(1, to2), step(2, bump)];
    let chain = Chain {
        current: 3,
        initial: None,
        steps: &steps,
        declared: Some(claim_step_1),
        unversioned: None,
    };
    assert_eq!(walk(&chain, json!({"version": 1, "same": true})), Ok(None));
    assert_eq!(
        walk(&chain, json!({"version": 1, "same": false})),
        Ok(Some(json!({"version": 3, "same": false})))
    );
    // A value declaring the current version is current, whatever the check claims.
    assert_eq!(walk(&chain, json!({"version": 3, "same": true})), Ok(None));
    // A claim does not stand in for a missing step after it: the registry is still checked.
    let chain = Chain {
        current: 3,
        initial: None,
        steps: &steps[..1],
        declared: Some(claim_step_1),
        unversioned: None,
    };
    assert_eq!(
        walk(&chain, json!({"version": 1, "same": true})),
        Err(ErrorCode::Migration)
    );
}

/// A step that only refuses: a value with `bad: true` is `LEGACY_SHAPE`, anything else a bump.
fn refuse_bad(_: &mut JsonHost, v: &Value) -> Result<Option<Value>, DecodeError> {
    if v.get("bad") == Some(&json!(true)) {
        return Err(DecodeError::new(ErrorCode::LegacyShape));
    }
    Ok(None)
}

#[test]
fn a_deferred_step_runs_only_when_the_decode_without_it_fails() {
    use hookwire::decode::{decode, decode_deferring, req, Check, KindSpec};
    const SYMS: &[&str] = &["version", "kind", "a", "bad"];
    // Kind "a" requires `bad` to be a string: a value with `bad: true` fails the envelope too,
    // so the step refuses nothing the decode accepts.
    const KINDS: &[KindSpec] = &[KindSpec {
        kind: Sym(2),
        fields: &[req(Sym(3), Check::Str)],
    }];
    let steps = [step(0, refuse_bad)];
    let chain = Chain {
        current: 1,
        initial: Some(0),
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    let both = |v: Value| {
        let every_step = decode(&mut JsonHost::new(SYMS), &chain, KINDS, &[Sym(2)], &v).map_err(|e| e.code);
        let deferring = decode_deferring(&mut JsonHost::new(SYMS), &chain, KINDS, &[Sym(2)], &v, 1).map_err(|e| e.code);
        assert_eq!(deferring, every_step, "{v}");
        deferring
    };
    assert_eq!(
        both(json!({"kind": "a", "bad": "no"})),
        Ok(json!({"kind": "a", "bad": "no"}))
    );
    // The decode without the step fails (INVALID), so the step runs and its refusal is the answer.
    assert_eq!(both(json!({"kind": "a", "bad": true})), Err(ErrorCode::LegacyShape));
    assert_eq!(both(json!({"kind": "b"})), Err(ErrorCode::UnknownKind));
    // A versioned value passes over nothing.
    assert_eq!(
        both(json!({"version": 1, "kind": "a", "bad": true})),
        Err(ErrorCode::Invalid)
    );
    // Deferring a step that refuses what the decode accepts would change the answer: the
    // contract the family states, which its fuzz invariant checks.
    const LAX: &[KindSpec] = &[KindSpec {
        kind: Sym(2),
        fields: &[req(Sym(3), Check::Json)],
    }];
    let v = json!({"kind": "a", "bad": true});
    let lax = decode_deferring(&mut JsonHost::new(SYMS), &chain, LAX, &[Sym(2)], &v, 1).map_err(|e| e.code);
    assert_eq!(lax, Ok(v.clone()));
    assert_eq!(
        decode(&mut JsonHost::new(SYMS), &chain, LAX, &[Sym(2)], &v).map_err(|e| e.code),
        Err(ErrorCode::LegacyShape)
    );
}
