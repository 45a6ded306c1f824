//! Property tests: generated commands round-trip through every target; decode never panics,
//! answers only with a family error, and is idempotent where contract §4.5 promises it; the frozen
//! JSON Schema and the encoder's validator agree on generated and mutated values.

use hookwire::session_inbox::encode::{encode, Target, V0Variant};
use hookwire::session_inbox::{build, decode, producer_version, WIRE_VERSION};
use hookwire::ErrorCode;
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
        prop::option::of(arb_task()),
        prop::option::of(arb_json()),
    )
        .prop_map(|(context, responses, message, schema, task, adapter)| {
            let mut p = json!({});
            p = with(p, "context", context.map(|c| json!(c)));
            p = with(p, "inputResponses", responses.map(Value::Array));
            p = with(p, "message", message);
            p = with(p, "outputSchema", schema.map(Value::Object));
            p = with(p, "task", task);
            with(p, "interaction", adapter)
        })
}

/// A usage report, with or without the version 5 `costUsd`, and an adapter key of the same name
/// beside it (which no step may touch).
fn arb_usage() -> impl Strategy<Value = Value> {
    (0u32..100, prop::option::of(0u32..1000), any::<bool>()).prop_map(|(tokens, cost, adapter)| {
        let usage = with(
            json!({"tokens": tokens}),
            "costUsd",
            cost.map(|c| json!(f64::from(c) / 100.0)),
        );
        with(json!({"usage": usage}), "costUsd", adapter.then(|| json!("adapter")))
    })
}

/// A TaskV4 task: opaque views, agent requests and new-form input requests.
fn arb_task() -> impl Strategy<Value = Value> {
    let invoke = (text(), text())
        .prop_map(|(m, t)| json!({"kind": "agent-invoke", "invocationId": "i", "input": {"message": m, "target": t}}));
    let settled = arb_usage().prop_map(
        |u| json!({"kind": "agent-settled", "result": {"usage": u["usage"], "outcome": {"usageDelta": u["usage"]}}}),
    );
    let agent = prop_oneof![invoke, settled].prop_map(|r| json!({"replyTo": "r", "taskId": "t", "request": r}));
    let input = (arb_json(), 0u32..5, any::<bool>()).prop_map(|(r, n, plural)| {
        let entry = json!({"replyTo": "r", "taskId": "t", "turnId": "u", "sequence": n, "stepIndex": 0});
        if plural {
            with(entry, "requests", Some(json!([r])))
        } else {
            with(entry, "request", Some(r))
        }
    });
    (
        prop::option::of(prop::collection::vec(arb_usage(), 0..2)),
        prop::option::of(prop::collection::vec(agent, 0..2)),
        prop::option::of(prop::collection::vec(input, 0..2)),
    )
        .prop_map(|(views, agents, inputs)| {
            let t = with(json!({}), "views", views.map(Value::Array));
            let t = with(t, "agentRequests", agents.map(Value::Array));
            with(t, "inputRequests", inputs.map(Value::Array))
        })
}

fn arb_delivery() -> impl Strategy<Value = Value> {
    (
        text(),
        text(),
        text(),
        prop::option::of(text()),
        prop::option::of((text(), 0u8..2, text())),
        prop::option::of(text()),
    )
        .prop_map(|(k, n, d, r, t, accepted)| {
            let v = json!({"channelKind": k, "channelName": n, "deliveryId": d});
            let v = with(v, "acceptedDeploymentId", accepted.map(Value::String));
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
    (text(), any::<bool>(), prop::option::of(text()), any::<bool>()).prop_map(|(id, hook, task, observed)| {
        let reply = if hook {
            json!({"kind": "hook", "token": id})
        } else {
            json!({"kind": "callback", "token": id, "url": "https://x"})
        };
        let observer = json!({"sink": {"url": "https://o", "version": 1},
            "workIdentity": {"id": id, "kind": "subagent", "rootSessionId": "s", "rootTurnId": "t"}});
        let caller = with(
            json!({"callId": id, "subagentName": "s", "replyTo": reply}),
            "taskId",
            task.map(Value::String),
        );
        with(caller, "activityObserver", observed.then_some(observer))
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
        (
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(any::<bool>())
        )
            .prop_map(|(t, u, all)| with(
                with(
                    with(json!({"kind": "cancel"}), "taskId", t.map(Value::String)),
                    "turnId",
                    u.map(Value::String)
                ),
                "tasks",
                all.map(Value::Bool)
            )),
    ];
    prop_oneof![send, deliver, control]
}

const CARRIED: &[&str] = &["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];

/// The version a target walks down to (1 for the v0 variants).
fn level(target: Target) -> u32 {
    target.walk_to()
}

/// Whether a payload's task carries operations version 3 cannot (contract §11, down 4 → 3).
fn has_task_operations(p: &Value) -> bool {
    let task = &p["task"];
    task.get("agentRequests").is_some() || task.get("inputRequests").is_some()
}

/// Delete `costUsd` where down 5 → 4 does, and nowhere else.
fn strip_costs(p: &mut Value) {
    let strip = |v: Option<&mut Value>| {
        if let Some(Value::Object(m)) = v {
            m.remove("costUsd");
        }
    };
    if let Some(views) = p.pointer_mut("/task/views").and_then(Value::as_array_mut) {
        views.iter_mut().for_each(|v| strip(v.get_mut("usage")));
    }
    if let Some(agents) = p.pointer_mut("/task/agentRequests").and_then(Value::as_array_mut) {
        for a in agents {
            strip(a.pointer_mut("/request/result/usage"));
            strip(a.pointer_mut("/request/result/outcome/usageDelta"));
        }
    }
}

/// The normalized value contract §12 promises for a command encoded for `target` (the command
/// minus exactly what the lossy down steps drop), or the version whose down step refuses it.
/// Built directly from the contract's words, not from the encoder.
fn expected(command: &Value, target: Target) -> Result<Value, u32> {
    let n = level(target);
    let cmd = command.as_object().unwrap();
    let mut out = Map::new();
    out.insert("kind".into(), cmd["kind"].clone());
    let (payloads, entries) = match cmd["kind"].as_str().unwrap() {
        "cancel" => {
            let mut c = cmd.clone();
            match (c.get("tasks"), n < 6) {
                (Some(Value::Bool(true)), true) => return Err(5),
                (Some(_), true) => {
                    c.remove("tasks");
                }
                _ => {}
            }
            return Ok(Value::Object(c));
        }
        "send" => {
            out.insert("kind".into(), json!("deliver"));
            let entries = cmd
                .get("delivery")
                .map(|d| vec![with(d.clone(), "payloadIndex", Some(json!(0)))]);
            (vec![cmd["payload"].clone()], entries)
        }
        "deliver" => {
            let payloads = cmd["payloads"].as_array().unwrap().clone();
            let entries = cmd.get("deliveryMetadata").map(|d| d.as_array().unwrap().clone());
            (payloads, entries)
        }
        _ => return Ok(command.clone()),
    };
    let mirror = build::coalesce(&Value::Array(payloads.clone())).unwrap();
    if n < 4 && (payloads.iter().any(has_task_operations) || has_task_operations(&mirror)) {
        return Err(3);
    }
    let (mut payloads, mut entries) = match target {
        Target::V0(V0Variant::Send) => {
            let first = entries.and_then(|e| e.into_iter().find(|x| x["payloadIndex"] == 0));
            (vec![mirror], first.map(|e| vec![e]))
        }
        _ => (payloads, entries),
    };
    if n < 5 {
        payloads.iter_mut().for_each(strip_costs);
    }
    if n < 3 && target != Target::V0(V0Variant::Send) {
        for e in entries.iter_mut().flatten() {
            e.as_object_mut().unwrap().remove("acceptedDeploymentId");
        }
    }
    out.insert("payloads".into(), Value::Array(payloads));
    if let Some(e) = entries {
        out.insert("deliveryMetadata".into(), Value::Array(e));
    }
    for key in CARRIED {
        if let Some(v) = cmd.get(*key) {
            out.insert((*key).into(), v.clone());
        }
    }
    if n < 2 {
        if let Some(Value::Object(caller)) = out.get_mut("caller") {
            caller.remove("activityObserver");
        }
    }
    Ok(Value::Object(out))
}

fn schema(version: u32) -> &'static jsonschema::Validator {
    static SCHEMAS: std::sync::OnceLock<Vec<jsonschema::Validator>> = std::sync::OnceLock::new();
    let all = SCHEMAS.get_or_init(|| {
        (1..=WIRE_VERSION)
            .map(|v| jsonschema::draft202012::new(&(producer_version(v).json_schema)()).unwrap())
            .collect()
    });
    &all[version as usize - 1]
}

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
        for target in Target::all() {
            match (expected(&command, target), encode(&command, target)) {
                (Ok(want), Ok(wire)) => {
                    let decoded = decode(&wire).map_err(|e| TestCaseError::fail(format!("{e}")))?;
                    prop_assert_eq!(canon(&decoded), canon(&want), "target {:?}", target);
                    prop_assert_eq!(decode(&decoded).map(|d| canon(&d)), Ok(canon(&decoded)), "idempotent");
                    if let Target::Version(n) = target {
                        prop_assert!(schema(n).is_valid(&wire), "the v{} schema accepts the output", n);
                    }
                }
                (Err(version), Err(e)) => {
                    prop_assert_eq!((e.code, e.version), (ErrorCode::Incompatible, Some(version)), "target {:?}", target);
                }
                (want, got) => prop_assert!(false, "target {:?}: expected {:?}, got {:?} for {}", target, want, got, command),
            }
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
        let current = producer_version(WIRE_VERSION);
        let schema = schema(WIRE_VERSION);
        let built = build::build(command.clone()).unwrap();
        prop_assert!(current.validate(&built).is_ok());
        prop_assert!(schema.is_valid(&built));
        let mut bad = built.clone();
        mutate(&mut bad, &path, junk, stray);
        prop_assert_eq!(current.validate(&bad).is_ok(), schema.is_valid(&bad), "on {}", bad);
    }

    /// The encoder's text (written straight from the command on the short way where it can) is
    /// the canonical text of its value (built by moving the command's parts), and both ways
    /// refuse alike, for commands valid and mutated.
    #[test]
    fn the_encoders_text_is_its_value_written(
        command in arb_command(),
        path in prop::collection::vec(0usize..8, 1..6),
        junk in arb_json(),
        stray in any::<bool>(),
    ) {
        let mut bad_command = command.clone();
        mutate(&mut bad_command, &path, junk, stray);
        for c in [&command, &bad_command] {
            for target in Target::all() {
                let text = hookwire::session_inbox::encode::encode_to_string(c, target);
                let value = encode(c, target);
                let want = value.as_ref().ok().map(canon);
                prop_assert_eq!(text.as_ref().ok(), want.as_ref(), "{:?} on {}", target, c);
                prop_assert_eq!(text.err().map(|e| e.to_string()), value.err().map(|e| e.to_string()), "{:?} on {}", target, c);
            }
        }
    }
}
