//! The breaking-change classifier (`hookwire::diff`): the real history of the session inbox,
//! pair by pair, with the exact changes contract §11 describes; every rule of the closed set on
//! small shapes built here; and the three renderers.

use hookwire::diff::{diff, to_github, to_json, to_text, Change, Rule, Verdict};
use hookwire::session_inbox::{producer_version, PRODUCER};
use hookwire::shape::{opt, req, Def, Field, Fields, Shape};
use serde_json::json;

const C: Verdict = Verdict::Compatible;
const I: Verdict = Verdict::Incompatible;

type Row = (Rule, String, String, Verdict, Verdict);

fn rows(changes: &[Change]) -> Vec<Row> {
    changes
        .iter()
        .map(|c| (c.rule, c.kind.clone(), c.path.clone(), c.forward, c.backward))
        .collect()
}

fn row(rule: Rule, kind: &str, path: &str, forward: Verdict, backward: Verdict) -> Row {
    (rule, kind.into(), path.into(), forward, backward)
}

fn history(from: u32, to: u32) -> Vec<Change> {
    diff(producer_version(from).wire, producer_version(to).wire)
}

// ---------------------------------------------------------------------------------------------
// The real history (contract §11).

#[test]
fn v1_to_v2_adds_the_activity_observer_and_requires_the_mirror() {
    assert_eq!(
        rows(&history(1, 2)),
        vec![
            row(Rule::FieldOptionalToRequired, "deliver", "/payload", C, I),
            row(Rule::FieldAddedOptional, "deliver", "/caller/activityObserver", I, C),
        ]
    );
}

#[test]
fn v2_to_v3_adds_the_accepted_deployment() {
    assert_eq!(
        rows(&history(2, 3)),
        vec![row(
            Rule::FieldAddedOptional,
            "deliver",
            "/deliveryMetadata/*/acceptedDeploymentId",
            I,
            C
        )]
    );
}

/// `task` was an opaque JSON object and becomes the strict TaskV4: the object turns strict, and
/// each of its four (optional) keys is declared — in every payload and in the mirror.
#[test]
fn v3_to_v4_declares_the_task_in_every_payload_and_the_mirror() {
    let mut expected = Vec::new();
    for at in ["/payloads/*/task", "/payload/task"] {
        expected.push(row(Rule::ObjectLooseToStrict, "deliver", at, C, I));
        for key in ["agentRequests", "authorizationEvents", "inputRequests", "views"] {
            expected.push(row(Rule::FieldAddedOptional, "deliver", &format!("{at}/{key}"), C, C));
        }
    }
    assert_eq!(rows(&history(3, 4)), expected);
}

#[test]
fn v4_to_v5_changes_nothing_but_the_version() {
    assert_eq!(history(4, 5), vec![]);
}

#[test]
fn v5_to_v6_adds_tasks_to_cancel() {
    assert_eq!(
        rows(&history(5, 6)),
        vec![row(Rule::FieldAddedOptional, "cancel", "/tasks", I, C)]
    );
}

#[test]
fn every_version_is_unchanged_against_itself() {
    for p in PRODUCER {
        assert_eq!(diff(p.wire, p.wire), vec![], "version {}", p.version);
    }
}

/// Going back reverses each change: the inverse rule at the same place, the verdicts swapped.
#[test]
fn every_step_read_backwards_is_the_inverse_change() {
    fn inverse(r: Rule, required: bool) -> Rule {
        match r {
            Rule::KindAdded => Rule::KindRemoved,
            Rule::KindRemoved => Rule::KindAdded,
            Rule::FieldAddedOptional | Rule::FieldAddedRequired => Rule::FieldRemoved,
            Rule::FieldRemoved if required => Rule::FieldAddedRequired,
            Rule::FieldRemoved => Rule::FieldAddedOptional,
            Rule::FieldOptionalToRequired => Rule::FieldRequiredToOptional,
            Rule::FieldRequiredToOptional => Rule::FieldOptionalToRequired,
            Rule::EnumValueAdded => Rule::EnumValueRemoved,
            Rule::EnumValueRemoved => Rule::EnumValueAdded,
            Rule::ObjectStrictToLoose => Rule::ObjectLooseToStrict,
            Rule::ObjectLooseToStrict => Rule::ObjectStrictToLoose,
            r => r,
        }
    }
    for pair in PRODUCER.windows(2) {
        let (a, b) = (pair[0].version, pair[1].version);
        let mut forward: Vec<Row> = history(a, b)
            .iter()
            .map(|c| {
                let required = c.rule == Rule::FieldAddedRequired;
                (
                    inverse(c.rule, required),
                    c.kind.clone(),
                    c.path.clone(),
                    c.backward,
                    c.forward,
                )
            })
            .collect();
        let mut back = rows(&history(b, a));
        forward.sort_by(|x, y| (&x.1, &x.2, x.0.as_str()).cmp(&(&y.1, &y.2, y.0.as_str())));
        back.sort_by(|x, y| (&x.1, &x.2, x.0.as_str()).cmp(&(&y.1, &y.2, y.0.as_str())));
        assert_eq!(forward, back, "{a} → {b} read backwards");
    }
}

// ---------------------------------------------------------------------------------------------
// Small shapes: a two-version family declared as statics, and trees built per test.

static STR: Shape = Shape::Str;
static K_DELIVER: Shape = Shape::Const("deliver");
static K_CLEAR: Shape = Shape::Const("clear");
static K_RESET: Shape = Shape::Const("reset");
static V1: Shape = Shape::ConstNumber(1);
static V2: Shape = Shape::ConstNumber(2);

/// A shared def both versions reach.
static NOTE: Shape = Shape::Named(&Def {
    name: "Note",
    id: "Test.Note",
    doc: "A note.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[req("text", &STR)],
    }),
});
/// The same structure as `NOTE`, declared again under another name.
static NOTE_AGAIN: Shape = Shape::Named(&Def {
    name: "NoteV2",
    id: "Test.V2.Note",
    doc: "A note, declared again.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[req("text", &STR)],
    }),
});

static DELIVER_1: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[req("kind", &K_DELIVER), req("version", &V1), opt("note", &NOTE)],
});
static CLEAR_1: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[req("kind", &K_CLEAR), req("version", &V1)],
});
static DELIVER_2: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[req("kind", &K_DELIVER), req("version", &V2), opt("note", &NOTE_AGAIN)],
});
static RESET_2: Shape = Shape::Object(&Fields {
    strict: true,
    fields: &[req("kind", &K_RESET), req("version", &V2), opt("reason", &STR)],
});
static WIRE_1: Shape = Shape::Named(&Def {
    name: "TestWireV1",
    id: "Test.V1",
    doc: "Version 1.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[&DELIVER_1, &CLEAR_1],
    },
});
static WIRE_2: Shape = Shape::Named(&Def {
    name: "TestWireV2",
    id: "Test.V2",
    doc: "Version 2.",
    shape: Shape::Tagged {
        tag: "kind",
        variants: &[&DELIVER_2, &RESET_2],
    },
});

#[test]
fn kinds_added_and_removed_and_names_do_not_matter() {
    assert_eq!(
        rows(&diff(&WIRE_1, &WIRE_2)),
        vec![
            row(Rule::KindRemoved, "clear", "", C, I),
            row(Rule::KindAdded, "reset", "", I, C),
        ]
    );
    assert_eq!(
        rows(&diff(&WIRE_2, &WIRE_1)),
        vec![
            row(Rule::KindRemoved, "reset", "", C, I),
            row(Rule::KindAdded, "clear", "", I, C),
        ]
    );
}

/// A tree built at run time lives as long as the test binary: a `&'static Shape` like the statics.
fn leak<T>(x: T) -> &'static T {
    Box::leak(Box::new(x))
}

fn shape(s: Shape) -> &'static Shape {
    leak(s)
}

fn object(strict: bool, fields: Vec<Field>) -> &'static Shape {
    shape(Shape::Object(leak(Fields {
        fields: fields.leak(),
        strict,
    })))
}

fn named(name: &'static str, s: Shape) -> &'static Shape {
    shape(Shape::Named(leak(Def {
        name,
        id: name,
        doc: "A test shape.",
        shape: s,
    })))
}

/// A one-kind wire value (`kind: "deliver"`, `version: n`) whose deliver variant has `fields`.
fn wire(version: u32, fields: Vec<Field>) -> &'static Shape {
    let mut all = vec![
        req("kind", shape(Shape::Const("deliver"))),
        req("version", shape(Shape::ConstNumber(version))),
    ];
    all.extend(fields);
    named(
        "Wire",
        Shape::Tagged {
            tag: "kind",
            variants: vec![object(true, all)].leak(),
        },
    )
}

/// The changes between two one-field wires whose field `x` has the shapes `a` and `b`.
fn field_change(a: &'static Shape, b: &'static Shape) -> Vec<Row> {
    rows(&diff(wire(1, vec![req("x", a)]), wire(2, vec![req("x", b)])))
}

#[test]
fn fields_added() {
    let str = shape(Shape::Str);
    let base = || vec![req("a", str)];
    let with = |f: Field| {
        let mut v = base();
        v.push(f);
        v
    };
    // On the strict variant itself.
    assert_eq!(
        rows(&diff(wire(1, base()), wire(2, with(opt("b", str))))),
        vec![row(Rule::FieldAddedOptional, "deliver", "/b", I, C)]
    );
    assert_eq!(
        rows(&diff(wire(1, base()), wire(2, with(req("b", str))))),
        vec![row(Rule::FieldAddedRequired, "deliver", "/b", I, I)]
    );
    // In a loose object: undeclared keys already passed.
    let loose = |fields: Vec<Field>| wire(1, vec![req("p", object(false, fields))]);
    assert_eq!(
        rows(&diff(loose(base()), loose(with(opt("b", str))))),
        vec![row(Rule::FieldAddedOptional, "deliver", "/p/b", C, C)]
    );
    assert_eq!(
        rows(&diff(loose(base()), loose(with(req("b", str))))),
        vec![row(Rule::FieldAddedRequired, "deliver", "/p/b", C, I)]
    );
}

#[test]
fn fields_removed() {
    let str = shape(Shape::Str);
    let strict = |fields: Vec<Field>| wire(1, vec![req("p", object(true, fields))]);
    let loose = |fields: Vec<Field>| wire(1, vec![req("p", object(false, fields))]);
    assert_eq!(
        rows(&diff(
            strict(vec![req("a", str), opt("b", str)]),
            strict(vec![req("a", str)])
        )),
        vec![row(Rule::FieldRemoved, "deliver", "/p/b", C, I)]
    );
    assert_eq!(
        rows(&diff(
            strict(vec![req("a", str), req("b", str)]),
            strict(vec![req("a", str)])
        )),
        vec![row(Rule::FieldRemoved, "deliver", "/p/b", I, I)]
    );
    assert_eq!(
        rows(&diff(
            loose(vec![req("a", str), opt("b", str)]),
            loose(vec![req("a", str)])
        )),
        vec![row(Rule::FieldRemoved, "deliver", "/p/b", C, C)]
    );
    assert_eq!(
        rows(&diff(
            loose(vec![req("a", str), req("b", str)]),
            loose(vec![req("a", str)])
        )),
        vec![row(Rule::FieldRemoved, "deliver", "/p/b", I, C)]
    );
}

#[test]
fn fields_turning_required_or_optional() {
    let str = shape(Shape::Str);
    assert_eq!(
        rows(&diff(wire(1, vec![opt("a", str)]), wire(2, vec![req("a", str)]))),
        vec![row(Rule::FieldOptionalToRequired, "deliver", "/a", C, I)]
    );
    assert_eq!(
        rows(&diff(wire(1, vec![req("a", str)]), wire(2, vec![opt("a", str)]))),
        vec![row(Rule::FieldRequiredToOptional, "deliver", "/a", I, C)]
    );
}

#[test]
fn types_changed() {
    let str = shape(Shape::Str);
    let num = shape(Shape::Number);
    let null = shape(Shape::Null);
    let t = |f: Verdict, b: Verdict| vec![row(Rule::FieldTypeChanged, "deliver", "/x", f, b)];
    assert_eq!(field_change(str, num), t(I, I));
    // A different const, string or number, is a different type.
    assert_eq!(
        field_change(shape(Shape::Const("a")), shape(Shape::Const("b"))),
        t(I, I)
    );
    assert_eq!(
        field_change(shape(Shape::ConstNumber(1)), shape(Shape::ConstNumber(2))),
        t(I, I)
    );
    // Narrowed and widened.
    assert_eq!(field_change(str, shape(Shape::Enum(&["a", "b"]))), t(C, I));
    assert_eq!(field_change(shape(Shape::Const("a")), str), t(I, C));
    assert_eq!(field_change(num, shape(Shape::Integer { min: 0, max: 9 })), t(C, I));
    assert_eq!(field_change(shape(Shape::Json), str), t(C, I));
    assert_eq!(field_change(shape(Shape::JsonObject), shape(Shape::Map(str))), t(C, I));
    // The same on the wire, and the same in a frozen JSON Schema: no change.
    assert!(field_change(str, shape(Shape::Binary)).is_empty());
    // An alternative added or removed, matched by JSON type; matched alternatives are compared.
    let str_or_null = shape(Shape::AnyOf(vec![str, null].leak()));
    assert_eq!(field_change(str, str_or_null), t(I, C));
    assert_eq!(field_change(str_or_null, str), t(C, I));
    let enum_or_null = shape(Shape::AnyOf(vec![shape(Shape::Enum(&["a"])), null].leak()));
    assert_eq!(field_change(str_or_null, enum_or_null), t(C, I));
    // Different shapes at one place.
    assert_eq!(field_change(object(true, vec![]), shape(Shape::Array(str))), t(I, I));
}

/// A const nested anywhere is compared; only the root variant's own `version` is not a change.
#[test]
fn the_version_const_is_not_a_change_but_a_nested_one_is() {
    let sink = |n: u32| object(true, vec![req("version", shape(Shape::ConstNumber(n)))]);
    assert_eq!(diff(wire(1, vec![]), wire(7, vec![])), vec![]);
    assert_eq!(
        rows(&diff(
            wire(1, vec![req("sink", sink(1))]),
            wire(2, vec![req("sink", sink(2))])
        )),
        vec![row(Rule::FieldTypeChanged, "deliver", "/sink/version", I, I)]
    );
}

#[test]
fn exactly_one_compares_its_keys_and_its_object() {
    let json = shape(Shape::Json);
    let inner = |extra: bool| {
        let mut fields = vec![opt("request", json), opt("requests", json)];
        if extra {
            fields.push(opt("ask", json));
        }
        object(false, fields)
    };
    let one = |keys: &'static [&'static str], extra: bool| {
        shape(Shape::ExactlyOne {
            keys,
            shape: inner(extra),
        })
    };
    let t = |f: Verdict, b: Verdict| row(Rule::FieldTypeChanged, "deliver", "/x", f, b);
    assert_eq!(
        field_change(
            one(&["request", "requests"], false),
            one(&["requests", "request"], false)
        ),
        vec![]
    );
    assert_eq!(
        field_change(
            one(&["request", "requests"], false),
            one(&["request", "requests", "ask"], true)
        ),
        vec![t(I, I), row(Rule::FieldAddedOptional, "deliver", "/x/ask", C, C)]
    );
    assert_eq!(
        field_change(inner(false), one(&["request", "requests"], false)),
        vec![t(C, I)]
    );
    assert_eq!(
        field_change(one(&["request", "requests"], false), inner(false)),
        vec![t(I, C)]
    );
}

#[test]
fn enum_values_added_and_removed() {
    let e = |values: &'static [&'static str]| shape(Shape::Enum(values));
    assert_eq!(
        field_change(e(&["queue", "steer"]), e(&["queue", "steer", "interrupt"])),
        vec![row(Rule::EnumValueAdded, "deliver", "/x", I, C)]
    );
    assert_eq!(
        field_change(e(&["queue", "steer"]), e(&["queue"])),
        vec![row(Rule::EnumValueRemoved, "deliver", "/x", C, I)]
    );
    assert_eq!(
        rows(&diff(
            wire(1, vec![req("x", e(&["a", "b"]))]),
            wire(1, vec![req("x", e(&["b", "c"]))])
        )),
        vec![
            row(Rule::EnumValueRemoved, "deliver", "/x", C, I),
            row(Rule::EnumValueAdded, "deliver", "/x", I, C),
        ]
    );
}

/// A nested tagged union's variants are values of its tag: reported at the tag's pointer.
#[test]
fn nested_union_variants_are_enum_values_of_the_tag() {
    let str = shape(Shape::Str);
    let v = |tag: &'static str, fields: Vec<Field>| {
        let mut all = vec![req("kind", shape(Shape::Const(tag)))];
        all.extend(fields);
        object(true, all)
    };
    let union = |variants: Vec<&'static Shape>| {
        named(
            "Op",
            Shape::Tagged {
                tag: "kind",
                variants: variants.leak(),
            },
        )
    };
    let list = |u: &'static Shape| shape(Shape::Array(u));
    let a = union(vec![v("invoke", vec![req("id", str)]), v("settled", vec![])]);
    let b = union(vec![
        v("invoke", vec![req("id", str), opt("agent", str)]),
        v("failed", vec![]),
    ]);
    assert_eq!(
        field_change(list(a), list(b)),
        vec![
            row(Rule::FieldAddedOptional, "deliver", "/x/*/agent", I, C),
            row(Rule::EnumValueRemoved, "deliver", "/x/*/kind", C, I),
            row(Rule::EnumValueAdded, "deliver", "/x/*/kind", I, C),
        ]
    );
}

#[test]
fn objects_turning_strict_or_loose() {
    let str = shape(Shape::Str);
    let o = |strict: bool| object(strict, vec![req("a", str)]);
    assert_eq!(
        field_change(o(true), o(false)),
        vec![row(Rule::ObjectStrictToLoose, "deliver", "/x", I, C)]
    );
    assert_eq!(
        field_change(o(false), o(true)),
        vec![row(Rule::ObjectLooseToStrict, "deliver", "/x", C, I)]
    );
}

/// The decision for an opaque JSON object that gets declared fields (version 3 → 4's `task`):
/// the object turns strict, and every declared field is an added field of a loose object.
#[test]
fn an_opaque_object_that_gets_declared_fields() {
    let str = shape(Shape::Str);
    let declared = object(true, vec![opt("a", str), req("b", str)]);
    assert_eq!(
        field_change(shape(Shape::JsonObject), declared),
        vec![
            row(Rule::ObjectLooseToStrict, "deliver", "/x", C, I),
            row(Rule::FieldAddedOptional, "deliver", "/x/a", C, C),
            row(Rule::FieldAddedRequired, "deliver", "/x/b", C, I),
        ]
    );
    assert_eq!(
        field_change(declared, shape(Shape::JsonObject)),
        vec![
            row(Rule::ObjectStrictToLoose, "deliver", "/x", I, C),
            row(Rule::FieldRemoved, "deliver", "/x/a", C, C),
            row(Rule::FieldRemoved, "deliver", "/x/b", I, C),
        ]
    );
    // Declared fields in a still-loose object: nothing but the fields.
    assert_eq!(
        field_change(shape(Shape::JsonObject), object(false, vec![opt("a", str)])),
        vec![row(Rule::FieldAddedOptional, "deliver", "/x/a", C, C)]
    );
}

#[test]
fn number_ranges() {
    let int = |min: i64, max: i64| shape(Shape::Integer { min, max });
    let r = |f: Verdict, b: Verdict| vec![row(Rule::NumberRangeChanged, "deliver", "/x", f, b)];
    assert_eq!(field_change(int(0, 10), int(0, 5)), r(C, I));
    assert_eq!(field_change(int(0, 10), int(-1, 10)), r(I, C));
    assert_eq!(field_change(int(0, 10), int(5, 15)), r(I, I));
    assert_eq!(field_change(int(0, 10), int(0, 10)), vec![]);
}

#[test]
fn arrays_and_maps_are_walked_with_a_star() {
    let str = shape(Shape::Str);
    let item = |more: bool| {
        let mut fields = vec![req("a", str)];
        if more {
            fields.push(opt("b~/c", str));
        }
        object(true, fields)
    };
    assert_eq!(
        field_change(
            shape(Shape::Map(shape(Shape::Array(item(false))))),
            shape(Shape::Map(shape(Shape::Array(item(true)))))
        ),
        vec![row(Rule::FieldAddedOptional, "deliver", "/x/*/*/b~0~1c", I, C)]
    );
}

/// Structure, not names or pointers: a shared def, and the same structure declared twice.
#[test]
fn named_shapes_are_compared_by_structure() {
    let str = shape(Shape::Str);
    let a = named(
        "A",
        Shape::Object(leak(Fields {
            fields: vec![req("s", str)].leak(),
            strict: true,
        })),
    );
    let b = named(
        "B",
        Shape::Object(leak(Fields {
            fields: vec![req("s", str)].leak(),
            strict: true,
        })),
    );
    assert_eq!(field_change(a, a), vec![]);
    assert_eq!(field_change(a, b), vec![]);
    assert_eq!(field_change(a, object(true, vec![req("s", shape(Shape::Str))])), vec![]);
    assert_eq!(diff(&NOTE, &NOTE_AGAIN), vec![]);
}

/// Recursive shapes terminate: a pair met again on the way down is left as is.
static NODE_A: Shape = Shape::Named(&Def {
    name: "Node",
    id: "Test.Node",
    doc: "A list node.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[opt("next", &NODE_A)],
    }),
});
static NODE_B: Shape = Shape::Named(&Def {
    name: "Node",
    id: "Test.V2.Node",
    doc: "A list node with a label.",
    shape: Shape::Object(&Fields {
        strict: true,
        fields: &[opt("label", &STR), opt("next", &NODE_B)],
    }),
});

#[test]
fn recursive_shapes_terminate() {
    assert_eq!(
        rows(&diff(&NODE_A, &NODE_B)),
        vec![row(Rule::FieldAddedOptional, "", "/label", I, C)]
    );
}

#[test]
fn the_rule_catalog_is_closed_and_named() {
    let names: Vec<&str> = Rule::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(
        names,
        [
            "KIND_ADDED",
            "KIND_REMOVED",
            "FIELD_ADDED_OPTIONAL",
            "FIELD_ADDED_REQUIRED",
            "FIELD_REMOVED",
            "FIELD_OPTIONAL_TO_REQUIRED",
            "FIELD_REQUIRED_TO_OPTIONAL",
            "FIELD_TYPE_CHANGED",
            "ENUM_VALUE_ADDED",
            "ENUM_VALUE_REMOVED",
            "OBJECT_STRICT_TO_LOOSE",
            "OBJECT_LOOSE_TO_STRICT",
            "NUMBER_RANGE_CHANGED",
        ]
    );
    assert_eq!(Rule::FieldTypeChanged.to_string(), "FIELD_TYPE_CHANGED");
    assert_eq!(Verdict::Compatible.as_str(), "compatible");
    assert_eq!(Verdict::Incompatible.to_string(), "incompatible");
}

// ---------------------------------------------------------------------------------------------
// Renderers.

#[test]
fn json_rendering() {
    assert_eq!(to_json(&[]), json!([]));
    let out = to_json(&history(1, 2));
    assert_eq!(
        out,
        json!([
            {"rule": "FIELD_OPTIONAL_TO_REQUIRED", "kind": "deliver", "path": "/payload",
             "forward": "compatible", "backward": "incompatible",
             "reason": "field \"payload\" became required (a reader of the new shape requires it)"},
            {"rule": "FIELD_ADDED_OPTIONAL", "kind": "deliver", "path": "/caller/activityObserver",
             "forward": "incompatible", "backward": "compatible",
             "reason": "optional field \"activityObserver\" added to a strict object"},
        ])
    );
}

#[test]
fn text_rendering() {
    assert_eq!(to_text(&[]), "no change\n");
    assert_eq!(to_text(&history(4, 5)), "no change\n");
    assert_eq!(
        to_text(&history(5, 6)),
        "FIELD_ADDED_OPTIONAL cancel /tasks: optional field \"tasks\" added to a strict object \
         (forward incompatible, backward compatible)\n"
    );
    assert_eq!(
        to_text(&diff(&WIRE_1, &WIRE_2)),
        "KIND_REMOVED clear: kind \"clear\" removed (a reader of the new shape rejects it) \
         (forward compatible, backward incompatible)\n\
         KIND_ADDED reset: kind \"reset\" added (a reader of the old shape rejects it) \
         (forward incompatible, backward compatible)\n"
    );
    for c in history(3, 4) {
        assert!(!c.reason.contains('\n'), "{c}");
    }
}

#[test]
fn github_rendering() {
    assert_eq!(to_github(&[], "src/x.rs", |_| 1), "");
    let changes = history(3, 4);
    let out = to_github(&changes[..2], "src/families/session_inbox/v4.rs", |c| c.path.len());
    assert_eq!(
        out,
        "::error file=src/families/session_inbox/v4.rs,line=16,title=OBJECT_LOOSE_TO_STRICT::deliver /payloads/*/task: \
         an opaque JSON object became a strict object (a reader of the new shape rejects undeclared keys)\n\
         ::warning file=src/families/session_inbox/v4.rs,line=30,title=FIELD_ADDED_OPTIONAL::deliver \
         /payloads/*/task/agentRequests: optional field \"agentRequests\" declared in what was an opaque JSON object\n"
    );
    // Workflow-command escaping: properties escape `:` and `,`; every value escapes `%` and newlines.
    let odd = Change {
        rule: Rule::KindAdded,
        kind: "k".into(),
        path: String::new(),
        forward: I,
        backward: C,
        reason: "100% new\nkind".into(),
    };
    assert_eq!(
        to_github(&[odd], "a,b:c.rs", |_| 7),
        "::error file=a%2Cb%3Ac.rs,line=7,title=KIND_ADDED::k: 100%25 new%0Akind\n"
    );
}

#[test]
fn frozen_schemas_read_back_into_the_same_shapes() {
    // What `hookwire diff --against` and the guard rely on: a rendered schema, read back, is the
    // code's shape (no change either way), for every version of every family.
    for f in hookwire::FAMILIES {
        for p in f.producer {
            let back = hookwire::shape::from_json_schema(&(p.json_schema)()).unwrap();
            assert!(
                diff(p.wire, back).is_empty(),
                "{} v{}: {:?}",
                f.name(),
                p.version,
                diff(p.wire, back)
            );
            assert!(diff(back, p.wire).is_empty(), "{} v{}", f.name(), p.version);
        }
    }
}

#[test]
fn a_schema_whose_defs_refer_to_themselves_is_refused_not_read_forever() {
    // `json_schema` never writes a recursive shape; a frozen schema edited or corrupted into one
    // is an error `diff --against` and the guard report, not a stack overflow.
    for doc in [
        serde_json::json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}),
        serde_json::json!({"$defs": {"A": {"type": "object", "properties": {"a": {"$ref": "#/$defs/B"}}}, "B": {"type": "array", "items": {"$ref": "#/$defs/A"}}}, "$ref": "#/$defs/A"}),
    ] {
        let e = hookwire::shape::from_json_schema(&doc).map(|_| ()).unwrap_err();
        assert!(e.contains("refers to itself"), "{e}");
    }
    // A def used twice, not recursively, is read once and shared.
    let twice = serde_json::json!({"$defs": {"S": {"type": "string"}}, "type": "object", "properties": {"a": {"$ref": "#/$defs/S"}, "b": {"$ref": "#/$defs/S"}}, "required": ["a"], "additionalProperties": false});
    assert!(hookwire::shape::from_json_schema(&twice).is_ok());
}
