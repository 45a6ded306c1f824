//! Adversarial tests of the contract-evolution tooling: the breaking-change classifier held to
//! what the validator really accepts, over generated pairs of shapes.

use hookwire::artifacts::{check_lock, extend_lock, sha256, LOCK};
use hookwire::diff::{diff, Change};
use hookwire::session_inbox::REGISTRY;
use hookwire::shape::{Field, Fields, Shape};
use serde_json::{json, Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

mod common;
use common::Rng;

fn leak(s: Shape) -> &'static Shape {
    Box::leak(Box::new(s))
}

fn leak_slice<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

const KEYS: &[&str] = &["p", "q", "r"];
const STRINGS: &[&str] = &["a", "b", "c"];
/// A key no generated shape declares: a loose object's extension data.
const EXT: &str = "zz_ext";

fn json_type_of(s: &Shape) -> Option<u8> {
    Some(match s {
        Shape::Str | Shape::Binary | Shape::Const(_) | Shape::Enum(_) => 0,
        Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_) => 1,
        Shape::Bool => 2,
        Shape::Null => 3,
        Shape::Array(_) => 4,
        Shape::Object(_) | Shape::Map(_) | Shape::Tagged { .. } | Shape::JsonObject | Shape::ExactlyOne { .. } => 5,
        Shape::Named(d) => return json_type_of(&d.shape),
        Shape::Json | Shape::AnyOf(_) => return None,
    })
}

fn gen_leaf(r: &mut Rng) -> &'static Shape {
    match r.below(11) {
        0 => leak(Shape::Str),
        1 => leak(Shape::Number),
        2 => leak(Shape::Bool),
        3 => leak(Shape::Null),
        4 => {
            let a = r.below(5) as i64 - 2;
            let b = a + r.below(4) as i64;
            leak(Shape::Integer { min: a, max: b })
        }
        5 => leak(Shape::Const(r.pick(STRINGS))),
        6 => leak(Shape::ConstNumber(r.below(3) as u32)),
        7 => {
            let set: Vec<&'static str> = STRINGS.iter().copied().filter(|_| r.chance(60)).collect();
            let set = if set.is_empty() { vec!["a"] } else { set };
            leak(Shape::Enum(leak_slice(set)))
        }
        8 => leak(Shape::Json),
        9 => leak(Shape::JsonObject),
        _ => leak(Shape::Str),
    }
}

fn gen_fields(r: &mut Rng, depth: u32, tag: Option<&'static str>) -> Vec<Field> {
    let mut fields = Vec::new();
    if let Some(t) = tag {
        fields.push(Field {
            name: "kind",
            shape: leak(Shape::Const(t)),
            required: true,
        });
    }
    for k in KEYS {
        if r.chance(55) {
            fields.push(Field {
                name: k,
                shape: gen_shape(r, depth + 1),
                required: r.chance(50),
            });
        }
    }
    fields
}

fn object(fields: Vec<Field>, strict: bool) -> &'static Shape {
    leak(Shape::Object(Box::leak(Box::new(Fields {
        fields: leak_slice(fields),
        strict,
    }))))
}

fn gen_shape(r: &mut Rng, depth: u32) -> &'static Shape {
    if depth >= 3 || r.chance(40) {
        return gen_leaf(r);
    }
    match r.below(6) {
        0 => leak(Shape::Array(gen_shape(r, depth + 1))),
        1 => leak(Shape::Map(gen_shape(r, depth + 1))),
        2 => {
            let strict = r.chance(60);
            object(gen_fields(r, depth, None), strict)
        }
        3 => {
            // Alternatives of distinct JSON types.
            let mut alts: Vec<&'static Shape> = Vec::new();
            let mut seen = Vec::new();
            for _ in 0..(2 + r.below(2)) {
                let s = gen_shape(r, depth + 1);
                match json_type_of(s) {
                    Some(t) if !seen.contains(&t) => {
                        seen.push(t);
                        alts.push(s);
                    }
                    _ => {}
                }
            }
            if alts.len() < 2 {
                return gen_leaf(r);
            }
            leak(Shape::AnyOf(leak_slice(alts)))
        }
        4 => gen_tagged(r, depth),
        _ => {
            // Exactly one of the object's optional keys.
            let fields: Vec<Field> = KEYS
                .iter()
                .map(|k| Field {
                    name: k,
                    shape: gen_shape(r, depth + 1),
                    required: false,
                })
                .collect();
            let keys: Vec<&'static str> = KEYS.iter().copied().filter(|_| r.chance(70)).collect();
            let keys = if keys.is_empty() { vec!["p"] } else { keys };
            leak(Shape::ExactlyOne {
                keys: leak_slice(keys),
                shape: object(fields, r.chance(50)),
            })
        }
    }
}

fn gen_tagged(r: &mut Rng, depth: u32) -> &'static Shape {
    let mut variants: Vec<&'static Shape> = Vec::new();
    for t in STRINGS {
        if r.chance(70) {
            let fields = gen_fields(r, depth, Some(t));
            variants.push(object(fields, r.chance(60)));
        }
    }
    let variants = if variants.is_empty() {
        vec![object(gen_fields(r, depth, Some("a")), true)]
    } else {
        variants
    };
    leak(Shape::Tagged {
        tag: "kind",
        variants: leak_slice(variants),
    })
}

/// A shape near `s`: one place changed, or `s` itself kept.
fn mutate(r: &mut Rng, s: &'static Shape, depth: u32) -> &'static Shape {
    if r.chance(25) {
        return if r.chance(50) { gen_shape(r, depth) } else { gen_leaf(r) };
    }
    match s {
        Shape::Array(x) => leak(Shape::Array(mutate(r, x, depth + 1))),
        Shape::Map(x) => leak(Shape::Map(mutate(r, x, depth + 1))),
        Shape::Object(f) => {
            let mut fields: Vec<Field> = f
                .fields
                .iter()
                .filter_map(|x| {
                    if x.name != "kind" && r.chance(15) {
                        return None;
                    }
                    Some(Field {
                        name: x.name,
                        shape: if x.name == "kind" || r.chance(60) {
                            x.shape
                        } else {
                            mutate(r, x.shape, depth + 1)
                        },
                        required: if x.name == "kind" || r.chance(80) {
                            x.required
                        } else {
                            !x.required
                        },
                    })
                })
                .collect();
            for k in KEYS {
                if !fields.iter().any(|x| x.name == *k) && r.chance(15) {
                    fields.push(Field {
                        name: k,
                        shape: gen_shape(r, depth + 1),
                        required: r.chance(50),
                    });
                }
            }
            let strict = if r.chance(80) { f.strict } else { !f.strict };
            object(fields, strict)
        }
        Shape::AnyOf(alts) => {
            let mut out: Vec<&'static Shape> = Vec::new();
            for a in alts.iter() {
                if !r.chance(20) {
                    out.push(if r.chance(60) { a } else { mutate(r, a, depth + 1) });
                }
            }
            let mut seen: Vec<u8> = Vec::new();
            out.retain(|a| match json_type_of(a) {
                Some(t) if !seen.contains(&t) => {
                    seen.push(t);
                    true
                }
                _ => false,
            });
            match out.len() {
                0 => gen_leaf(r),
                1 => out[0],
                _ => leak(Shape::AnyOf(leak_slice(out))),
            }
        }
        Shape::Tagged { tag, variants } => {
            let mut out: Vec<&'static Shape> = Vec::new();
            for v in variants.iter() {
                if !r.chance(15) {
                    out.push(if r.chance(50) { v } else { mutate(r, v, depth + 1) });
                }
            }
            if r.chance(20) {
                out.push(object(gen_fields(r, depth, Some("d")), r.chance(50)));
            }
            if out.is_empty() {
                return s;
            }
            leak(Shape::Tagged {
                tag,
                variants: leak_slice(out),
            })
        }
        Shape::ExactlyOne { keys, shape } => {
            let keys: &'static [&'static str] = if r.chance(25) {
                let k: Vec<&'static str> = KEYS.iter().copied().filter(|_| r.chance(60)).collect();
                if k.is_empty() {
                    keys
                } else {
                    leak_slice(k)
                }
            } else {
                keys
            };
            if r.chance(15) {
                return shape; // the constraint dropped
            }
            // The constrained shape stays an object (what the model allows).
            let inner = match mutate(r, shape, depth + 1) {
                o @ Shape::Object(_) => o,
                _ => shape,
            };
            leak(Shape::ExactlyOne { keys, shape: inner })
        }
        Shape::Integer { min, max } => {
            let a = min + r.below(3) as i64 - 1;
            let b = (max + r.below(3) as i64 - 1).max(a);
            leak(Shape::Integer { min: a, max: b })
        }
        Shape::Enum(set) => {
            let mut v: Vec<&'static str> = set.iter().copied().filter(|_| !r.chance(25)).collect();
            for s in STRINGS {
                if !v.contains(s) && r.chance(25) {
                    v.push(s);
                }
            }
            if v.is_empty() {
                v.push("a");
            }
            leak(Shape::Enum(leak_slice(v)))
        }
        _ => {
            if r.chance(50) {
                s
            } else {
                gen_leaf(r)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Values a shape accepts, with a loose object's undeclared keys only ever the extension key.

fn any_value(r: &mut Rng, depth: u32) -> Value {
    match r.below(if depth > 2 { 5 } else { 7 }) {
        0 => json!(r.pick(STRINGS)),
        1 => json!(r.below(5) as i64 - 2),
        2 => json!(1.5),
        3 => json!(r.chance(50)),
        4 => Value::Null,
        5 => Value::Array((0..r.below(3)).map(|_| any_value(r, depth + 1)).collect()),
        _ => {
            let mut m = Map::new();
            if r.chance(50) {
                m.insert(EXT.into(), any_value(r, depth + 1));
            }
            Value::Object(m)
        }
    }
}

fn gen_value(r: &mut Rng, s: &'static Shape, depth: u32) -> Value {
    match s {
        Shape::Str | Shape::Binary => json!(r.pick(&["a", "b", "zzz"])),
        Shape::Number => json!(r.pick(&[0.0, 1.0, -2.0, 1.5, 1e9])),
        Shape::Bool => json!(r.chance(50)),
        Shape::Null => Value::Null,
        Shape::Integer { min, max } => {
            let span = (max - min) as u64 + 1;
            json!(min + (r.next() % span) as i64)
        }
        Shape::Const(c) => json!(c),
        Shape::ConstNumber(n) => json!(n),
        Shape::Enum(set) => json!(r.pick(set)),
        Shape::Array(x) => Value::Array((0..r.below(3)).map(|_| gen_value(r, x, depth + 1)).collect()),
        Shape::Map(x) => {
            let mut m = Map::new();
            for k in ["p", "m1", "zz_ext"] {
                if r.chance(50) {
                    m.insert(k.into(), gen_value(r, x, depth + 1));
                }
            }
            Value::Object(m)
        }
        Shape::Object(f) => {
            let mut m = Map::new();
            for x in f.fields {
                if x.required || r.chance(60) {
                    m.insert(x.name.into(), gen_value(r, x.shape, depth + 1));
                }
            }
            if !f.strict && r.chance(40) {
                m.insert(EXT.into(), any_value(r, depth + 1));
            }
            Value::Object(m)
        }
        Shape::AnyOf(alts) => {
            let a = r.pick(alts);
            gen_value(r, a, depth + 1)
        }
        Shape::Tagged { variants, .. } => {
            let v = r.pick(variants);
            gen_value(r, v, depth + 1)
        }
        Shape::ExactlyOne { keys, shape } => {
            let mut v = gen_value(r, shape, depth + 1);
            let keep = r.pick(keys);
            if let (Value::Object(m), Shape::Object(f)) = (&mut v, shape) {
                for k in *keys {
                    m.remove(*k);
                }
                if let Some(field) = f.fields.iter().find(|x| x.name == keep) {
                    m.insert(keep.into(), gen_value(r, field.shape, depth + 1));
                }
            }
            v
        }
        Shape::Json => any_value(r, depth),
        Shape::JsonObject => {
            let mut m = Map::new();
            if r.chance(60) {
                m.insert(EXT.into(), any_value(r, depth + 1));
            }
            Value::Object(m)
        }
        Shape::Named(d) => gen_value(r, &d.shape, depth),
    }
}

/// Values `s` accepts (generated, then held to the validator).
fn samples(r: &mut Rng, s: &'static Shape, n: usize) -> Vec<Value> {
    (0..n).map(|_| gen_value(r, s, 0)).filter(|v| s.accepts(v)).collect()
}

fn verdicts(changes: &[Change]) -> (bool, bool) {
    (
        changes.iter().all(|c| c.forward.is_compatible()),
        changes.iter().all(|c| c.backward.is_compatible()),
    )
}

/// A claimed-compatible direction that a value refutes: the pair, the value and the changes.
fn refutation(seed: u64) -> Option<String> {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let a = if r.chance(30) {
        gen_tagged(&mut r, 0)
    } else {
        gen_shape(&mut r, 0)
    };
    let b = if r.chance(85) {
        mutate(&mut r, a, 0)
    } else {
        gen_shape(&mut r, 0)
    };
    let changes = diff(a, b);
    let (forward, backward) = verdicts(&changes);
    let show = |v: &Value, dir: &str| {
        format!("seed {seed}: {dir} claimed compatible\n  A = {a:?}\n  B = {b:?}\n  value {v}\n  changes: {changes:#?}")
    };
    if forward {
        // A reader of A reads every value written as B.
        if let Some(v) = samples(&mut r, b, 60).into_iter().find(|v| !a.accepts(v)) {
            return Some(show(&v, "forward"));
        }
    }
    if backward {
        if let Some(v) = samples(&mut r, a, 60).into_iter().find(|v| !b.accepts(v)) {
            return Some(show(&v, "backward"));
        }
    }
    None
}

#[test]
fn a_claimed_compatible_direction_accepts_every_value_the_writer_accepts() {
    let mut found = Vec::new();
    let n: u64 = std::env::var("ADV_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    for seed in 0..n {
        if let Some(f) = refutation(seed) {
            found.push(f);
        }
    }
    assert!(found.is_empty(), "{} refutations; first:\n{}", found.len(), found[0]);
}

/// A frozen schema read back (what `diff --against` and `check` compare with) accepts exactly
/// what the shape it was rendered from accepts, and the classifier sees no incompatible change.
fn schema_mismatch(seed: u64) -> Option<String> {
    let mut r = Rng(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
    let s = if r.chance(30) {
        gen_tagged(&mut r, 0)
    } else {
        gen_shape(&mut r, 0)
    };
    let def: &'static hookwire::shape::Def = Box::leak(Box::new(hookwire::shape::Def {
        name: "Root",
        id: "Adversarial.Root",
        doc: "a generated shape",
        shape: *s,
    }));
    let root = leak(Shape::Named(def));
    let doc = hookwire::shape::json_schema(root, "urn:adversarial", "root");
    let back = match hookwire::shape::from_json_schema(&doc) {
        Ok(b) => b,
        Err(e) => return Some(format!("seed {seed}: {s:?} does not read back: {e}")),
    };
    let changes = diff(root, back);
    if changes.iter().any(|c| !c.is_compatible()) {
        return Some(format!("seed {seed}: {s:?} reads back as {back:?}: {changes:#?}"));
    }
    let mut values = samples(&mut r, s, 30);
    values.extend((0..30).map(|_| any_value(&mut r, 0)));
    values
        .into_iter()
        .find(|v| root.accepts(v) != back.accepts(v))
        .map(|v| format!("seed {seed}: {s:?} and its frozen schema {doc} disagree on {v}"))
}

#[test]
fn a_frozen_schema_reads_back_as_the_shape_it_froze() {
    let n: u64 = std::env::var("ADV_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let found: Vec<String> = (0..n).filter_map(schema_mismatch).collect();
    assert!(found.is_empty(), "{} mismatches; first:\n{}", found.len(), found[0]);
}

/// An exactly-one constraint over a named object is frozen as `{"$ref", "oneOf"}`, and reading
/// the frozen schema back keeps the `$ref` and drops the `oneOf`: `check` and `diff --against`
/// then report a change to a shape that did not change.
#[test]
fn an_exactly_one_over_a_named_object_survives_its_frozen_schema() {
    let inner = object(
        vec![
            Field {
                name: "p",
                shape: leak(Shape::Str),
                required: false,
            },
            Field {
                name: "q",
                shape: leak(Shape::Str),
                required: false,
            },
        ],
        true,
    );
    let def: &'static hookwire::shape::Def = Box::leak(Box::new(hookwire::shape::Def {
        name: "Inner",
        id: "Adversarial.Inner",
        doc: "",
        shape: *inner,
    }));
    let one = leak(Shape::ExactlyOne {
        keys: leak_slice(vec!["p", "q"]),
        shape: leak(Shape::Named(def)),
    });
    let root = object(
        vec![Field {
            name: "x",
            shape: one,
            required: true,
        }],
        true,
    );
    let doc = hookwire::shape::json_schema(root, "urn:adversarial", "root");
    let back = hookwire::shape::from_json_schema(&doc).unwrap();
    let both = json!({"x": {"p": "a", "q": "b"}});
    assert!(!root.accepts(&both));
    assert_eq!(back.accepts(&both), root.accepts(&both), "the frozen schema {doc}");
    assert_eq!(diff(root, back), vec![]);
}

// ---------------------------------------------------------------------------------------------
// The artifact lock and the guard, on scratch copies of the tree.

/// A private copy of the parts of the tree the guard and the lock read.
fn tree(name: &str) -> PathBuf {
    common::scratch_tree(
        &format!("hookwire-adversarial-{name}"),
        &["src/families", "artifacts", "fixtures"],
    )
}

fn append_lock(root: &Path, line: &str) {
    let mut text = fs::read_to_string(root.join(LOCK)).unwrap();
    text.push_str(line);
    text.push('\n');
    fs::write(root.join(LOCK), text).unwrap();
}

fn guard_messages(root: &Path) -> Vec<String> {
    hookwire::guard::check(root, &REGISTRY)
        .into_iter()
        .map(|v| v.message)
        .collect()
}

/// The scratch tree as the real one is: clean (so the failures below are the edits').
#[test]
fn a_scratch_copy_of_the_tree_is_clean() {
    let root = tree("clean");
    assert_eq!(guard_messages(&root), Vec::<String>::new());
    fs::remove_dir_all(root).unwrap();
}

/// A shipped fixture deleted, and a "move" recorded to a path outside the family's folders that
/// does not exist: the guard takes the move on its word and never checks the new path.
#[test]
fn a_recorded_move_to_nowhere_does_not_excuse_a_deleted_shipped_file() {
    let root = tree("move-nowhere");
    let rel = "fixtures/session-inbox/v3/cancel.json";
    let hash = sha256(&fs::read(root.join(rel)).unwrap());
    fs::remove_file(root.join(rel)).unwrap();
    append_lock(&root, &format!("{hash}  notes/nowhere.json  <- {rel}"));
    let found = guard_messages(&root);
    fs::remove_dir_all(&root).unwrap();
    assert!(!found.is_empty(), "a deleted shipped fixture passes the guard");
}

/// A shipped step edited, and a second lock line for it with the new hash: lines are only added,
/// yet the lock now says the edited bytes are the shipped ones.
#[test]
fn a_second_lock_line_does_not_re_lock_an_edited_shipped_step() {
    let root = tree("relock");
    let rel = "src/families/session_inbox/v2_to_v3.rs";
    let mut text = fs::read_to_string(root.join(rel)).unwrap();
    text.push_str("// edited after it shipped\n");
    fs::write(root.join(rel), &text).unwrap();
    append_lock(&root, &format!("{}  {rel}", sha256(text.as_bytes())));
    let found = guard_messages(&root);
    fs::remove_dir_all(&root).unwrap();
    assert!(!found.is_empty(), "an edited shipped step passes the guard");
}

/// A shipped encoder output deleted while a new case of a later version happens to have the
/// same bytes: `hookwire lock` records the new file as the old one's move, and the deletion
/// then passes every check.
#[test]
fn lock_does_not_take_a_copy_for_the_move_of_a_deleted_shipped_file() {
    let root = tree("copy-move");
    let old = "artifacts/session-inbox/v1/encode/control-compact.v0-deliver.json";
    let new = "artifacts/session-inbox/v6/encode/compact-again.v0-send.json";
    fs::copy(root.join(old), root.join(new)).unwrap();
    fs::remove_file(root.join(old)).unwrap();
    assert!(
        check_lock(&root, &REGISTRY).iter().any(|m| m.contains(old)),
        "before the lock runs, the deletion is seen"
    );
    let added = extend_lock(&root, &REGISTRY).unwrap();
    assert_eq!(added, vec![new.to_string()]);
    let found = check_lock(&root, &REGISTRY);
    fs::remove_dir_all(&root).unwrap();
    assert!(!found.is_empty(), "the deletion of {old} passes once `lock` ran");
}

// ---------------------------------------------------------------------------------------------
// check --against, on a scratch git repository.

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let o = common::git_output(dir, args).ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// A scratch repository of the tree, committed; `None` without git.
fn repository(name: &str) -> Option<PathBuf> {
    let dir = tree(name);
    git(&dir, &["init", "-q"])?;
    git(&dir, &["add", "-A"])?;
    git(&dir, &["commit", "-q", "-m", "base"])?;
    Some(dir)
}

/// The next version's files added as `new-version` adds them (here, copies of the newest
/// version's: the tree may already hold a version past 6, as a scaffolded one does).
fn add_version_files(root: &Path) {
    let dir = root.join("src/families/session_inbox");
    let newest = (1..)
        .take_while(|n| dir.join(format!("v{n}.rs")).exists())
        .last()
        .unwrap();
    let (n, m) = (newest, newest + 1);
    fs::copy(dir.join(format!("v{n}.rs")), dir.join(format!("v{m}.rs"))).unwrap();
    fs::copy(
        dir.join(format!("v{}_to_v{n}.rs", n - 1)),
        dir.join(format!("v{n}_to_v{m}.rs")),
    )
    .unwrap();
}

fn against(root: &Path) -> Vec<String> {
    hookwire::evolve::check_against(root, "HEAD", &[&hookwire::session_inbox::FAMILY]).unwrap()
}

/// The rule holds where it should: a change that adds a version and edits a fixture that does
/// not follow the newest version is refused.
#[test]
fn a_version_change_that_edits_an_unrelated_fixture_is_refused() {
    let Some(root) = repository("against-unrelated") else {
        return;
    };
    add_version_files(&root);
    let rel = root.join("fixtures/session-inbox/chain/reject-not-object-array.json");
    assert!(rel.exists());
    fs::write(&rel, "{\"input\": 1, \"error\": {\"code\": \"NOT_OBJECT\"}}\n").unwrap();
    let found = against(&root);
    fs::remove_dir_all(&root).unwrap();
    assert!(found.iter().any(|p| p.contains("reject-not-object-array")), "{found:?}");
}

/// A change that adds a version may move the newer-version probes as `new-version` moves them;
/// it may not delete a probe that does not follow the newest version (1e300 is "far newer"
/// whatever the newest version), nor rewrite a probe into another case.
#[test]
fn a_version_change_may_not_delete_or_rewrite_probes_that_do_not_follow_it() {
    let Some(root) = repository("against-probes") else {
        return;
    };
    add_version_files(&root);
    let far = "fixtures/session-inbox/chain/reject-far-newer-version.json";
    fs::remove_file(root.join(far)).unwrap();
    let wins = "fixtures/session-inbox/chain/newer-version-wins-over-kind.json";
    fs::write(
        root.join(wins),
        "{\"input\": {\"kind\": \"x\", \"version\": 1000000}, \"error\": {\"code\": \"NEWER_VERSION\", \"version\": 1000000}}\n",
    )
    .unwrap();
    let found = against(&root);
    fs::remove_dir_all(&root).unwrap();
    assert!(found.iter().any(|p| p.contains(far)), "{found:?}");
    assert!(found.iter().any(|p| p.contains(wins)), "{found:?}");
}
