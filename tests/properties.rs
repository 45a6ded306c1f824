//! Property tests: generated commands round-trip through every target; decode never panics,
//! answers only with a family error, and is idempotent where contract §4.5 promises it; the frozen
//! JSON Schema and the encoder's validator agree on generated and mutated values.

use hookwire::session_inbox::encode::{encode, Target, V0Variant};
use hookwire::session_inbox::{decode, v1};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn canon(v: &Value) -> String {
    hookwire::canonical::to_string(v)
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|n| json!(n)),
        "[a-z]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn arb_object() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map("[a-z]{1,6}", arb_json(), 0..4).prop_map(|m| m.into_iter().collect())
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 é\\n\"]{0,8}"
}

fn arb_part() -> impl Strategy<Value = Value> {
    let opts = || {
        prop::option::of(prop::collection::btree_map(
            "[a-z]{1,4}",
            arb_object().prop_map(Value::Object),
            0..2,
        ))
    };
    prop_oneof![
        (text(), opts()).prop_map(|(t, o)| with(
            json!({"type": "text", "text": t}),
            "providerOptions",
            o.map(|m| json!(m))
        )),
        (text(), prop::option::of(text()), opts()).prop_map(|(i, m, o)| {
            with(
                with(json!({"type": "image", "image": i}), "mediaType", m.map(Value::String)),
                "providerOptions",
                o.map(|m| json!(m)),
            )
        }),
        (text(), text(), prop::option::of(text())).prop_map(|(d, m, f)| with(
            json!({"type": "file", "data": d, "mediaType": m}),
            "filename",
            f.map(Value::String)
        )),
    ]
}

fn with(mut v: Value, key: &str, value: Option<Value>) -> Value {
    if let (Some(x), Value::Object(m)) = (value, &mut v) {
        m.insert(key.into(), x);
    }
    v
}

fn arb_payload() -> impl Strategy<Value = Value> {
    let message = prop_oneof![
        text().prop_map(Value::String),
        prop::collection::vec(arb_part(), 0..3).prop_map(Value::Array)
    ];
    let response = (text(), prop::option::of(text()))
        .prop_map(|(r, t)| with(json!({"requestId": r}), "text", t.map(Value::String)));
    (
        prop::option::of(prop::collection::vec(text(), 0..3)),
        prop::option::of(prop::collection::vec(response, 0..2)),
        prop::option::of(message),
        prop::option::of(arb_object()),
        prop::option::of(arb_object()),
        prop::option::of(arb_json()),
    )
        .prop_map(|(context, responses, message, schema, task, adapter)| {
            let mut p = json!({});
            p = with(p, "context", context.map(|c| json!(c)));
            p = with(p, "inputResponses", responses.map(Value::Array));
            p = with(p, "message", message);
            p = with(p, "outputSchema", schema.map(Value::Object));
            p = with(p, "task", task.map(Value::Object));
            with(p, "interaction", adapter)
        })
}

fn arb_delivery() -> impl Strategy<Value = Value> {
    (
        text(),
        text(),
        text(),
        prop::option::of(text()),
        prop::option::of((text(), 0u8..2, text())),
    )
        .prop_map(|(k, n, d, r, t)| {
            let v = json!({"channelKind": k, "channelName": n, "deliveryId": d});
            let v = with(v, "requestId", r.map(Value::String));
            with(
                v,
                "requestTraceContext",
                t.map(|(s, f, id)| json!({"spanId": s, "traceFlags": f, "traceId": id})),
            )
        })
}

fn arb_auth() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        (
            prop::collection::btree_map(
                "[a-z]{1,4}",
                prop_oneof![
                    text().prop_map(Value::String),
                    prop::collection::vec(text(), 0..2).prop_map(|v| json!(v))
                ],
                0..3
            ),
            prop::option::of(text())
        )
            .prop_map(|(attrs, issuer)| with(
                json!({"attributes": attrs, "authenticator": "oidc", "principalId": "p", "principalType": "user"}),
                "issuer",
                issuer.map(Value::String)
            )),
    ]
}

fn arb_caller() -> impl Strategy<Value = Value> {
    (text(), any::<bool>(), prop::option::of(text())).prop_map(|(id, hook, task)| {
        let reply = if hook {
            json!({"kind": "hook", "token": id})
        } else {
            json!({"kind": "callback", "token": id, "url": "https://x"})
        };
        with(
            json!({"callId": id, "subagentName": "s", "replyTo": reply}),
            "taskId",
            task.map(Value::String),
        )
    })
}

/// Optional fields shared by send and deliver commands.
fn arb_common() -> impl Strategy<Value = Map<String, Value>> {
    (
        prop::option::of(arb_auth()),
        prop::option::of(arb_caller()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(prop_oneof![Just("queue"), Just("steer")]),
    )
        .prop_map(|(auth, caller, req, task, policy)| {
            let mut v = json!({});
            v = with(v, "auth", auth);
            v = with(v, "caller", caller);
            v = with(v, "requestId", req.map(Value::String));
            v = with(v, "taskDeliveryId", task.map(Value::String));
            v = with(v, "turnPolicy", policy.map(|p| json!(p)));
            v.as_object().cloned().unwrap_or_default()
        })
}

fn arb_command() -> impl Strategy<Value = Value> {
    let send =
        (arb_payload(), prop::option::of(arb_delivery()), arb_common()).prop_map(|(payload, delivery, common)| {
            let mut m = common;
            m.insert("kind".into(), json!("send"));
            m.insert("payload".into(), payload);
            if let Some(d) = delivery {
                m.insert("delivery".into(), d);
            }
            Value::Object(m)
        });
    let deliver = (
        prop::collection::vec(arb_payload(), 0..4),
        prop::option::of(prop::collection::vec(arb_delivery(), 0..3)),
        arb_common(),
    )
        .prop_map(|(payloads, entries, common)| {
            let mut m = common;
            m.insert("kind".into(), json!("deliver"));
            let n = payloads.len().max(1);
            m.insert("payloads".into(), Value::Array(payloads));
            if let Some(entries) = entries {
                let entries = entries
                    .into_iter()
                    .enumerate()
                    .map(|(i, e)| with(e, "payloadIndex", Some(json!(i % n))))
                    .collect();
                m.insert("deliveryMetadata".into(), Value::Array(entries));
            }
            Value::Object(m)
        });
    let control = prop_oneof![
        Just(json!({"kind": "session-timeout"})),
        Just(json!({"kind": "clear"})),
        Just(json!({"kind": "compact"})),
        prop::option::of(text()).prop_map(|r| with(json!({"kind": "reset"}), "reason", r.map(Value::String))),
        (prop::option::of(text()), prop::option::of(text())).prop_map(|(t, u)| with(
            with(json!({"kind": "cancel"}), "taskId", t.map(Value::String)),
            "turnId",
            u.map(Value::String)
        )),
    ];
    prop_oneof![send, deliver, control]
}

const CARRIED: &[&str] = &["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];

/// The normalized value contract §4 promises for a command encoded for `target`, built directly.
fn expected(command: &Value, target: Target) -> Value {
    let cmd = command.as_object().unwrap();
    let mut out = Map::new();
    out.insert("kind".into(), cmd["kind"].clone());
    match cmd["kind"].as_str().unwrap() {
        "send" => {
            out.insert("kind".into(), json!("deliver"));
            out.insert("payloads".into(), json!([cmd["payload"]]));
            if let Some(d) = cmd.get("delivery") {
                out.insert(
                    "deliveryMetadata".into(),
                    json!([with(d.clone(), "payloadIndex", Some(json!(0)))]),
                );
            }
        }
        "deliver" if target == Target::V0(V0Variant::Send) => {
            out.insert("payloads".into(), json!([v1::coalesce(&cmd["payloads"]).unwrap()]));
            let first = cmd
                .get("deliveryMetadata")
                .and_then(Value::as_array)
                .and_then(|e| e.iter().find(|x| x["payloadIndex"] == 0));
            if let Some(entry) = first {
                out.insert("deliveryMetadata".into(), json!([entry]));
            }
        }
        "deliver" => {
            out.insert("payloads".into(), cmd["payloads"].clone());
            if let Some(d) = cmd.get("deliveryMetadata") {
                out.insert("deliveryMetadata".into(), d.clone());
            }
        }
        _ => return command.clone(),
    }
    for key in CARRIED {
        if let Some(v) = cmd.get(*key) {
            out.insert((*key).into(), v.clone());
        }
    }
    Value::Object(out)
}

fn schema() -> &'static jsonschema::Validator {
    static SCHEMA: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(|| jsonschema::draft202012::new(&v1::json_schema()).unwrap())
}

const TARGETS: [Target; 3] = [
    Target::CURRENT,
    Target::V0(V0Variant::Deliver),
    Target::V0(V0Variant::Send),
];

/// Put `junk` somewhere inside `v` (a stray key in an object, or a replaced value).
fn mutate(v: &mut Value, path: &[usize], junk: Value, stray: bool) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            let i = path.first().copied().unwrap_or(0) % (m.len() + 1);
            if i == m.len() || path.len() <= 1 {
                if stray {
                    m.insert("zzStray".into(), junk);
                } else if let Some(k) = m.keys().nth(i % m.len()).cloned() {
                    m.insert(k, junk);
                }
            } else if let Some(child) = m.values_mut().nth(i) {
                mutate(child, &path[1..], junk, stray);
            }
        }
        Value::Array(a) if !a.is_empty() && path.len() > 1 => {
            let i = path[0] % a.len();
            mutate(&mut a[i], &path[1..], junk, stray);
        }
        other => *other = junk,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn valid_commands_round_trip_through_every_target(command in arb_command()) {
        for target in TARGETS {
            let wire = encode(&command, target).map_err(|e| TestCaseError::fail(format!("{e} for {command}")))?;
            let decoded = decode(&wire).map_err(|e| TestCaseError::fail(format!("{e}")))?;
            prop_assert_eq!(canon(&decoded), canon(&expected(&command, target)), "target {:?}", target);
            prop_assert_eq!(decode(&decoded).map(|d| canon(&d)), Ok(canon(&decoded)), "idempotent");
        }
    }

    #[test]
    fn decode_never_panics_and_answers_with_a_code(v in arb_json()) {
        if let Ok(Value::Object(m)) = decode(&v) {
            prop_assert!(!m.contains_key("version") && !m.contains_key("payload"));
        }
    }

    #[test]
    fn decode_of_kinded_objects_never_panics_and_is_idempotent_without_version(
        kind in prop_oneof![Just("deliver"), Just("send"), Just("reset"), Just("cancel"), Just("clear"), Just("x")],
        fields in arb_object(),
        payloads in prop::option::of(prop::collection::vec(prop_oneof![arb_object().prop_map(Value::Object), arb_json()], 0..3)),
        payload in prop::option::of(arb_json()),
    ) {
        let mut m = fields;
        m.remove("version");
        m.insert("kind".into(), json!(kind));
        if let Some(p) = payloads { m.insert("payloads".into(), Value::Array(p)); }
        if let Some(p) = payload { m.insert("payload".into(), p); }
        let v = Value::Object(m);
        if let Ok(d) = decode(&v) {
            prop_assert_eq!(decode(&d).map(|x| canon(&x)), Ok(canon(&d)));
        }
    }

    #[test]
    fn schema_and_encoder_agree_on_generated_and_mutated_values(
        command in arb_command(),
        path in prop::collection::vec(0usize..8, 1..6),
        junk in arb_json(),
        stray in any::<bool>(),
    ) {
        let schema = schema();
        let built = v1::build(command.clone()).unwrap();
        prop_assert!(v1::validate(&built).is_ok());
        prop_assert!(schema.is_valid(&built));
        let mut bad = built.clone();
        mutate(&mut bad, &path, junk, stray);
        prop_assert_eq!(v1::validate(&bad).is_ok(), schema.is_valid(&bad), "on {}", bad);
    }
}
