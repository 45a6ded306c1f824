//! A family is a parameter: a small family that exists only in this test (`echo`, one kind, one
//! version, no unversioned era) is described once, as every family is, and passes the same shared
//! checks as the real ones — decode and encode fixtures with byte-frozen outputs, frozen schema,
//! negotiation fixtures, the registry guard and the hash lock — in a scratch tree. Nothing in the
//! generic machinery had to change for it.

use hookwire::chain::Chain;
use hookwire::decode::{opt, Check, KindSpec};
use hookwire::family::{FamilyDesc, ProducerVersion, Registry, VersionEntry};
use hookwire::host::{Host, Sym};
use hookwire::json::JsonHost;
use hookwire::shape::{req, Def, Fields, Shape};
use hookwire::{conformance, Answer, DecodeError, EncodeError, ErrorCode};
use serde_json::{json, Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

const SYMBOLS: &[&str] = &["version", "kind", "note", "ping"];
const KINDS: &[KindSpec] = &[KindSpec {
    kind: Sym(3),
    fields: &[opt(Sym(2), Check::Str)],
}];

static REGISTRY: Registry = Registry {
    name: "echo",
    module_dir: "src/echo",
    current: 1,
    initial: None,
    versions: &[VersionEntry {
        version: 1,
        shipped: true,
    }],
    steps: &[],
};

static STR: Shape = Shape::Str;
static WIRE: Shape = Shape::Named(&Def {
    name: "EchoV1",
    id: "Echo.V1",
    doc: "A ping.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[&PING],
    },
});
static PING: Shape = Shape::Named(&Def {
    name: "EchoPingV1",
    id: "Echo.V1.Ping",
    doc: "A ping, with a note.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[
            req("kind", &Shape::Const("ping")),
            req("version", &Shape::ConstNumber(1)),
            hookwire::shape::opt("note", &STR),
        ],
    }),
});

fn decode_on<H: Host + 'static>(h: &mut H, v: &H::Value) -> Result<H::Value, DecodeError> {
    let chain = Chain {
        current: 1,
        initial: None,
        steps: &[],
        declared: None,
        unversioned: None,
    };
    hookwire::decode::decode(h, &chain, KINDS, &[Sym(3)], v)
}

fn decode(v: &Value) -> Result<Value, DecodeError> {
    decode_on(&mut JsonHost::new(SYMBOLS), v).map_err(|e| e.named(SYMBOLS))
}

/// Its one target, `{"version": 1}`: number 0.
fn read_target(target: &Value) -> Result<usize, EncodeError> {
    if target != &json!({"version": 1}) {
        return Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            "echo writes version 1",
        ));
    }
    Ok(0)
}

fn encode(command: Value, target: &Value) -> Answer {
    match read_target(target) {
        Ok(_) => encode_v1(command),
        Err(e) => Answer::Refused(e),
    }
}

fn encode_v1(command: Value) -> Answer {
    let mut wire = command;
    if let Value::Object(m) = &mut wire {
        m.insert("version".into(), json!(1));
    }
    Answer::from(WIRE.validate(&wire).map(|()| wire))
}

fn encode_text(command: &Value, target: &Value, out: &mut String) {
    out.push_str(&encode(command.clone(), target).to_text());
}

fn negotiate(_: &Value, _: u32) -> Value {
    json!({"ok": {"target": {"version": 1}}})
}

fn no_down(_: &mut Map<String, Value>) -> Result<(), EncodeError> {
    Ok(())
}

fn schema() -> Value {
    hookwire::shape::json_schema(&WIRE, "urn:hookwire:echo:v1", "Echo.V1")
}

static PRODUCER: &[ProducerVersion] = &[ProducerVersion {
    version: 1,
    wire: &WIRE,
    schema_id: "urn:hookwire:echo:v1",
    json_schema: schema,
    down: no_down,
}];

/// The whole description of the test-only family: what registering a family takes.
static ECHO: FamilyDesc = FamilyDesc {
    registry: &REGISTRY,
    symbols: SYMBOLS,
    kinds: KINDS,
    wire_only: &["version"],
    error_class: "EchoWireError",
    capability_key: "echoWireVersion",
    producer: PRODUCER,
    decode,
    encode,
    read_target,
    encode_to: |c, _, sink| hookwire::family::answer_to(encode_v1(std::mem::take(c)), sink),
    encode_text,
    prepare: || {},
    negotiate,
    negotiate_step: |r| negotiate(r, 1),
    removable: &[],
    targets: &["v1"],
    js: hookwire::family::JsFace {
        prefix: "Echo",
        union: "EchoValue",
        details: &[],
        declarations: String::new,
        encoder_head: "",
        encoder_declarations: String::new,
        producer_tables: || json!({}),
    },
};

fn write(root: &Path, rel: &str, v: &Value) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, serde_json::to_string_pretty(v).unwrap() + "\n").unwrap();
}

/// A scratch tree with the family's module, fixtures and nothing else.
fn scratch() -> PathBuf {
    let root = std::env::temp_dir().join(format!("hookwire-echo-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("src/echo")).unwrap();
    fs::write(
        root.join("src/echo/v1.rs"),
        "//! Echo version 1.\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
    )
    .unwrap();
    write(
        &root,
        "fixtures/echo/v1/ping.json",
        &json!({"input": {"kind": "ping", "version": 1, "note": "hi", "x": 1}, "expect": {"kind": "ping", "note": "hi"}}),
    );
    write(
        &root,
        "fixtures/echo/v1/reject-note-number.json",
        &json!({"input": {"kind": "ping", "version": 1, "note": 3}, "error": {"code": "INVALID", "path": "/note"}}),
    );
    write(
        &root,
        "fixtures/echo/chain/reject-no-version.json",
        &json!({"input": {"kind": "ping"}, "error": {"code": "MALFORMED_VERSION"}}),
    );
    write(
        &root,
        "fixtures/echo/chain/reject-newer.json",
        &json!({"input": {"kind": "ping", "version": 2}, "error": {"code": "NEWER_VERSION", "version": 2}}),
    );
    write(
        &root,
        "fixtures/echo/encode/ping.json",
        &json!({"command": {"kind": "ping", "note": "n"}, "decoded": {"kind": "ping", "note": "n"}}),
    );
    write(
        &root,
        "fixtures/echo/encode/reject-stray.json",
        &json!({"command": {"kind": "ping", "x": 1}, "error": {"code": "INVALID", "path": "/x"}}),
    );
    write(
        &root,
        "fixtures/echo/negotiate/any.json",
        &json!({"request": {}, "answer": {"ok": {"target": {"version": 1}}}}),
    );
    root
}

#[test]
fn a_test_only_family_passes_every_shared_check() {
    let root = scratch();
    // First run: the frozen schema and encoder outputs are written (the version is being added).
    let first = conformance::check_family(&ECHO, &root, true);
    assert!(first.iter().all(|m| m.contains("not in artifacts/LOCK")), "{first:#?}");
    hookwire::artifacts::extend_lock(&root, &REGISTRY).unwrap();
    let failures = conformance::check_family(&ECHO, &root, false);
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(root.join("artifacts/echo/v1/schema.json").exists());
    assert_eq!(
        fs::read_to_string(root.join("artifacts/echo/v1/encode/ping.v1.json")).unwrap(),
        "{\"kind\":\"ping\",\"note\":\"n\",\"version\":1}"
    );

    // And the same checks catch what they catch for every family: a shipped fixture edited…
    write(
        &root,
        "fixtures/echo/v1/ping.json",
        &json!({"input": {"kind": "ping", "version": 1}, "expect": {"kind": "ping"}}),
    );
    let failures = conformance::check_family(&ECHO, &root, false);
    assert!(
        failures.iter().any(|m| m.contains("changed after it shipped")),
        "{failures:#?}"
    );
    // …and a decode fixture the family does not answer as written.
    write(
        &root,
        "fixtures/echo/chain/reject-newer.json",
        &json!({"input": {"kind": "ping", "version": 2}, "error": {"code": "UNKNOWN_KIND"}}),
    );
    let failures = conformance::check_family(&ECHO, &root, false);
    assert!(failures.iter().any(|m| m.contains("reject-newer")), "{failures:#?}");
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn the_test_only_family_decodes_on_the_shared_machinery() {
    // Decode answers a value or a typed error on anything, and is idempotent on what it decodes.
    let values = [
        json!({"kind": "ping", "version": 1}),
        json!({"kind": "ping", "version": 1.0, "note": "a"}),
        json!({"kind": "pong", "version": 1}),
        json!([]),
        json!({"version": "1"}),
        json!({"kind": "ping", "version": 1, "note": null}),
    ];
    let codes: Vec<Result<Value, ErrorCode>> = values.iter().map(|v| decode(v).map_err(|e| e.code)).collect();
    assert_eq!(
        codes,
        vec![
            Ok(json!({"kind": "ping"})),
            Ok(json!({"kind": "ping", "note": "a"})),
            Err(ErrorCode::UnknownKind),
            Err(ErrorCode::NotObject),
            Err(ErrorCode::MalformedVersion),
            Err(ErrorCode::Invalid),
        ]
    );
}

/// The family-generic invariants (`hookwire::invariants`, which the fuzz targets run for the
/// real families) hold for the test-only family too: decode answers a decode code or a value of
/// its kind without `version`; encode answers `ok | error`, and what it writes validates against
/// its version's shape and decodes idempotently; negotiation answers within the ceiling.
#[test]
fn the_test_only_family_passes_the_shared_invariants() {
    let inputs = [
        json!({"kind": "ping"}),
        json!({"kind": "ping", "note": "a"}),
        json!({"kind": "ping", "note": 1}),
        json!({"kind": "ping", "version": 1}),
        json!({"kind": "pong"}),
        json!({"command": {"kind": "ping"}, "target": {"version": 1}}),
        json!({"command": {"kind": "ping"}, "target": {"version": 2}}),
        json!(null),
        json!([1, {"kind": "ping"}]),
        json!("ping"),
    ];
    for v in &inputs {
        hookwire::invariants::check_family(&ECHO, v.to_string().as_bytes());
    }
    // A written value is checked against the frozen shape: the invariant returns it.
    let wire =
        hookwire::invariants::check_encode_for(&ECHO, &json!({"kind": "ping", "note": "n"}), &json!({"version": 1}));
    assert_eq!(wire, Some(json!({"kind": "ping", "note": "n", "version": 1})));
    assert_eq!(
        hookwire::invariants::check_encode_for(&ECHO, &json!({"kind": "ping", "x": 1}), &json!({"version": 1})),
        None,
        "a strict shape refuses an unknown field"
    );
}

/// An encoder that writes what its own frozen shape refuses breaks the shared invariant: the
/// check can fail.
#[test]
#[should_panic(expected = "the encoder wrote an invalid v1 value")]
fn the_shared_encode_invariant_catches_a_bad_writer() {
    fn lax(command: Value, _: &Value) -> Answer {
        Answer::Ok(json!({"kind": command["kind"].clone(), "version": 1, "extra": true}))
    }
    fn lax_text(command: &Value, target: &Value, out: &mut String) {
        out.push_str(&lax(command.clone(), target).to_text());
    }
    static LAX: FamilyDesc = FamilyDesc {
        encode: lax,
        encode_to: |c, _, sink| hookwire::family::answer_to(lax(std::mem::take(c), &Value::Null), sink),
        encode_text: lax_text,
        ..ECHO
    };
    hookwire::invariants::check_encode_for(&LAX, &json!({"kind": "ping"}), &json!({"version": 1}));
}

/// A family whose text answer is not its answer's canonical text breaks the shared invariant:
/// the CLI (`encode_text`) and the JS encoder (`encode`) would disagree.
#[test]
#[should_panic(expected = "encode_text differs from encode")]
fn the_shared_encode_invariant_catches_a_text_that_is_not_the_answer() {
    fn spaced(command: &Value, target: &Value, out: &mut String) {
        out.push_str(&serde_json::to_string_pretty(&encode(command.clone(), target).to_json()).unwrap());
    }
    static SPACED: FamilyDesc = FamilyDesc {
        encode_text: spaced,
        ..ECHO
    };
    hookwire::invariants::check_encode_for(&SPACED, &json!({"kind": "ping"}), &json!({"version": 1}));
}
