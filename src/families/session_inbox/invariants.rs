//! The session inbox's own invariants, beside the family-generic ones of `crate::invariants`
//! (the fuzz targets `chain` and `negotiate` run both): the declared-version chain, the shortcut
//! of an unversioned value's decode, and negotiation's lookups.

use crate::chain::{self, Chain, Walked};
use crate::decode;
use crate::host::{Host, Type, Version};
use crate::json::JsonHost;
use crate::session_inbox::target::{negotiate, Destination, Hook, Options, ReceiverAddress};
use crate::session_inbox::{self, symbols::SYMBOLS, WIRE_VERSION};
use crate::ErrorCode;
use serde_json::Value;

/// The declared-version check, its claim left out: the walk then runs every step from the
/// declared version.
fn claiming_nothing(h: &mut JsonHost, v: &Value, n: u32, kind: Option<crate::host::Sym>) -> Result<u32, crate::DecodeError> {
    session_inbox::declared::check(h, v, n, kind).map(|_| n)
}

/// The chain leaves a value declaring exactly the current version (or the input itself, when
/// it declares a version from which only pure bumps lead to the current one), or refuses it;
/// and it answers the same when it runs the steps the declared-version check claimed to be
/// pure bumps; and decode answers the same without the shortcut of an unversioned value
/// ([`check_unversioned`]).
pub fn check_chain(v: &Value) {
    let steps = session_inbox::steps::<JsonHost>();
    let chain = Chain {
        current: WIRE_VERSION,
        initial: Some(0),
        steps: &steps,
        declared: Some(session_inbox::declared::check::<JsonHost>),
        unversioned: None,
    };
    let every_step = Chain {
        declared: Some(claiming_nothing),
        ..chain
    };
    let walked = chain::run(&mut JsonHost::new(SYMBOLS), &chain, v);
    let unclaimed = chain::run(&mut JsonHost::new(SYMBOLS), &every_step, v);
    let outcome = |r: &Result<Walked<Value>, crate::DecodeError>| match r {
        Ok(Walked::Current) => Ok(None),
        Ok(Walked::Migrated(out)) => Ok(Some(out.clone())),
        Err(e) => Err(e.code),
    };
    assert_eq!(outcome(&walked), outcome(&unclaimed), "a claimed bump changed the walk of {v}");
    check_unversioned(v);
    match walked {
        Ok(Walked::Current) => {
            let declared = v["version"].as_f64().unwrap_or(0.0);
            assert!((1.0..=f64::from(WIRE_VERSION)).contains(&declared), "{v}");
        }
        Ok(Walked::Migrated(out)) => assert_eq!(out["version"], WIRE_VERSION),
        Err(e) => assert!(
            ErrorCode::DECODE.contains(&e.code) && e.code != ErrorCode::Migration,
            "{e:?} on {v}"
        ),
    }
}

/// Decode, which takes an unversioned value the session inbox's shortcut
/// (`declared::unversioned`) takes as current as it is, answers exactly what a decode running
/// every step answers: the same value, or the same error (code, version, detail). Answers
/// whether the shortcut was taken.
pub fn check_unversioned(v: &Value) -> bool {
    let steps = session_inbox::steps::<JsonHost>();
    let every_step = Chain {
        current: WIRE_VERSION,
        initial: session_inbox::REGISTRY.initial,
        steps: &steps,
        declared: Some(session_inbox::declared::check::<JsonHost>),
        unversioned: None,
    };
    let (kinds, kind_syms) = (session_inbox::KINDS, session_inbox::KIND_SYMS);
    let all = decode::decode(&mut JsonHost::new(SYMBOLS), &every_step, kinds, kind_syms, v);
    let answer = session_inbox::decode_on(&mut JsonHost::new(SYMBOLS), v);
    assert_eq!(answer, all, "the shortcut changed the decode of {v}");
    let mut h = JsonHost::new(SYMBOLS);
    let head = h.head(v);
    let unversioned = match head.version {
        Version::Absent => true,
        Version::Number(n) => n == 0.0,
        Version::NotNumber => false,
    };
    head.ty == Type::Object && unversioned && session_inbox::declared::unversioned(&mut h, v, head.kind)
}

/// Negotiation makes at most two lookups, resumes an inspected hook when it made any, and
/// answers RUN_MISMATCH only when the stable inbox belongs to another run.
pub fn check_negotiate(v: &Value) {
    let hooks: Vec<Hook> = v["hooks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| {
            Some(Hook {
                token: h.get("token")?.as_str()?.into(),
                run_id: h.get("runId")?.as_str()?.into(),
                metadata: h.get("metadata").cloned(),
            })
        })
        .collect();
    let dest = match (&v["token"], &v["address"]) {
        (Value::String(t), _) => Destination::Token(t.clone()),
        (_, Value::Object(a)) => Destination::Address(ReceiverAddress {
            session_id: a.get("sessionId").and_then(Value::as_str).unwrap_or("").into(),
            version: a.get("version").and_then(Value::as_f64).unwrap_or(0.0),
        }),
        _ => return,
    };
    let mut calls = 0;
    let result = negotiate(&v["command"], &dest, &Options::default(), |token: &str| {
        calls += 1;
        Ok::<_, String>(hooks.iter().find(|h| h.token == token).cloned())
    });
    assert!(calls <= 2);
    match result {
        Ok(n) => {
            assert_eq!(n.lookups, calls);
            assert!(n.target.check().is_ok());
        }
        Err(e) => assert!(matches!(
            e.code(),
            ErrorCode::UnsupportedTarget | ErrorCode::RunMismatch | ErrorCode::HookNotFound
        )),
    }
}
