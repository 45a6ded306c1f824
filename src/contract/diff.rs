//! The breaking-change classifier: [`diff`] compares two versions' complete wire shapes (from the
//! shape model) and lists every change with its [`Rule`], where it is (the variant's kind and a
//! JSON pointer), and whether each direction still reads; [`to_json`], [`to_text`] and
//! [`to_github`] render the list. This module must never import a family: it takes shapes as
//! parameters, and only tests name the session inbox.
//!
//! # Verdicts
//!
//! `forward` answers "can a reader of `from` (A) read a value written as `to` (B)?", `backward`
//! answers "can a reader of B read a value written as A?". Both are judged against the strict
//! schemas, place by place: a change is compatible in a direction when every value the writer's
//! shape accepts at that place, the reader's shape accepts too. One convention applies to loose
//! objects: an undeclared key of a loose object is extension data, assumed never to carry a key
//! the other version declares. So a field added to (or removed from) a loose object is compatible
//! both ways when it is optional, while a strict object rejects an undeclared key (adding an
//! optional field to a strict object is forward-incompatible and backward-compatible).
//!
//! # What is walked
//!
//! The root is expected to be a tagged union (the `kind` of each variant): its variants are
//! matched by tag value, a variant only in B is [`Rule::KindAdded`] and one only in A is
//! [`Rule::KindRemoved`], both at the empty pointer (the whole value). Each matched pair is
//! compared field by field, except the const of the variant's own `version` field: a version
//! number is expected to change and is not a change. A root that is not a tagged union is compared
//! as one value whose kind is the empty string.
//!
//! Below the root everything is compared by structure, never by name or by pointer: a named
//! shape is its shape (so the same def reached from two versions gives no change, and a def
//! renamed or re-declared identically gives none either). Arrays and maps add the segment `*`.
//! Each place is reported once per path that reaches it: a shape reached twice (a version's
//! deliver payload, under `payloads/*` and as the mirror `payload`) is reported at both paths.
//!
//! # Decisions
//!
//! - A **JSON object** (`Shape::JsonObject`: any object, nothing declared) is a loose object with
//!   no declared fields. When it becomes a strict object with declared fields, the change is
//!   [`Rule::ObjectLooseToStrict`] at that place (forward compatible: a reader of A takes any
//!   object; backward incompatible: a reader of B rejects A's undeclared keys), **plus one
//!   [`Rule::FieldAddedOptional`] (or [`Rule::FieldAddedRequired`]) per newly declared field**,
//!   judged like any field added to a loose object (an optional one is compatible both ways). The
//!   declared fields' own shapes are not walked: A had nothing there to compare them with. The
//!   reverse (a declared object becoming opaque) is [`Rule::ObjectStrictToLoose`] plus one
//!   [`Rule::FieldRemoved`] per field.
//! - A **nested tagged union** whose variant set changes reports [`Rule::EnumValueAdded`] or
//!   [`Rule::EnumValueRemoved`] at the pointer of its tag key (for example
//!   `/payloads/*/task/agentRequests/*/request/kind`): the set of tag values is a closed enum that
//!   gained or lost a value. Variants present in both are compared field by field, like the root's.
//!   `KIND_ADDED`/`KIND_REMOVED` are kept for the root's kinds.
//! - A different **const** (`Const` or `ConstNumber`, other than the root variant's `version`) is
//!   [`Rule::FieldTypeChanged`], incompatible both ways. So is a changed key set of an
//!   **exactly-one** constraint; adding or removing that constraint around the same object is
//!   [`Rule::FieldTypeChanged`] too (adding it narrows: forward compatible, backward incompatible).
//! - **Alternatives** (`AnyOf`, or one shape against an `AnyOf`) are matched by JSON type and the
//!   matched pairs compared; an alternative added or removed is [`Rule::FieldTypeChanged`] (added:
//!   forward incompatible, backward compatible; removed: the reverse).
//! - Any other pair of different shapes at one place is [`Rule::FieldTypeChanged`]; its verdicts
//!   say whether one shape accepts everything the other does (a string narrowed to an enum is
//!   forward compatible and backward incompatible; a string and a number are incompatible both
//!   ways). `Str` and `Binary` are the same on the wire (a JSON string): no change (a frozen
//!   JSON Schema, read back with `shape::from_json_schema`, cannot tell them apart either).
//! - An enum that gains or loses several values gives one change per value.
//!
//! Changes are listed in walk order: the root's variants in A's order (a removed kind in its
//! place) then the kinds only B has; within an object, a strictness change first, then A's fields
//! in declaration order (a removed field in its place), then the fields only B declares.

use crate::shape::{push_key, Fields, Shape};
use serde_json::{json, Value};
use std::fmt;

/// Whether one direction of a change still reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Every value the writer's shape accepts here, the reader's shape accepts.
    Compatible,
    /// Some value the writer's shape accepts here, the reader's shape rejects.
    Incompatible,
}

impl Verdict {
    /// `"compatible"` or `"incompatible"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Compatible => "compatible",
            Verdict::Incompatible => "incompatible",
        }
    }

    /// Whether the direction still reads.
    pub const fn is_compatible(self) -> bool {
        matches!(self, Verdict::Compatible)
    }

    const fn of(compatible: bool) -> Verdict {
        if compatible {
            Verdict::Compatible
        } else {
            Verdict::Incompatible
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The closed set of change rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The root union gained a kind (a variant).
    KindAdded,
    /// The root union lost a kind (a variant).
    KindRemoved,
    /// An object declares a new optional field.
    FieldAddedOptional,
    /// An object declares a new required field.
    FieldAddedRequired,
    /// An object no longer declares a field.
    FieldRemoved,
    /// A declared field that was optional is now required.
    FieldOptionalToRequired,
    /// A declared field that was required is now optional.
    FieldRequiredToOptional,
    /// The shape at a place changed to another one (a const, a JSON type, an alternative, a constraint).
    FieldTypeChanged,
    /// An enum (or a nested tagged union's tag) accepts a new value.
    EnumValueAdded,
    /// An enum (or a nested tagged union's tag) no longer accepts a value.
    EnumValueRemoved,
    /// A strict object became loose: undeclared keys now pass.
    ObjectStrictToLoose,
    /// A loose object (or an opaque JSON object) became strict: undeclared keys are now rejected.
    ObjectLooseToStrict,
    /// An integer's accepted range (its minimum or maximum) changed.
    NumberRangeChanged,
}

impl Rule {
    /// Every rule, in declaration order.
    pub const ALL: &'static [Rule] = &[
        Rule::KindAdded,
        Rule::KindRemoved,
        Rule::FieldAddedOptional,
        Rule::FieldAddedRequired,
        Rule::FieldRemoved,
        Rule::FieldOptionalToRequired,
        Rule::FieldRequiredToOptional,
        Rule::FieldTypeChanged,
        Rule::EnumValueAdded,
        Rule::EnumValueRemoved,
        Rule::ObjectStrictToLoose,
        Rule::ObjectLooseToStrict,
        Rule::NumberRangeChanged,
    ];

    /// The rule's name in SCREAMING_SNAKE (`KIND_ADDED`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Rule::KindAdded => "KIND_ADDED",
            Rule::KindRemoved => "KIND_REMOVED",
            Rule::FieldAddedOptional => "FIELD_ADDED_OPTIONAL",
            Rule::FieldAddedRequired => "FIELD_ADDED_REQUIRED",
            Rule::FieldRemoved => "FIELD_REMOVED",
            Rule::FieldOptionalToRequired => "FIELD_OPTIONAL_TO_REQUIRED",
            Rule::FieldRequiredToOptional => "FIELD_REQUIRED_TO_OPTIONAL",
            Rule::FieldTypeChanged => "FIELD_TYPE_CHANGED",
            Rule::EnumValueAdded => "ENUM_VALUE_ADDED",
            Rule::EnumValueRemoved => "ENUM_VALUE_REMOVED",
            Rule::ObjectStrictToLoose => "OBJECT_STRICT_TO_LOOSE",
            Rule::ObjectLooseToStrict => "OBJECT_LOOSE_TO_STRICT",
            Rule::NumberRangeChanged => "NUMBER_RANGE_CHANGED",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change between two shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What changed.
    pub rule: Rule,
    /// The kind (tag value) of the root variant the change is in (`"deliver"`).
    pub kind: String,
    /// A JSON pointer into the value; `*` stands for any array element or map entry
    /// (`/payloads/*/task/agentRequests`); empty for the whole value.
    pub path: String,
    /// Whether a reader of `from` reads a value written as `to`.
    pub forward: Verdict,
    /// Whether a reader of `to` reads a value written as `from`.
    pub backward: Verdict,
    /// What changed, in one line.
    pub reason: String,
}

impl Change {
    /// Whether the change is compatible both ways.
    pub fn is_compatible(&self) -> bool {
        self.forward.is_compatible() && self.backward.is_compatible()
    }

    /// `kind path`, or `kind` alone for a change to the whole value.
    fn place(&self) -> String {
        if self.path.is_empty() {
            self.kind.clone()
        } else {
            format!("{} {}", self.kind, self.path)
        }
    }
}

impl fmt::Display for Change {
    /// `RULE kind path: reason (forward …, backward …)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {} (forward {}, backward {})",
            self.rule,
            self.place(),
            self.reason,
            self.forward,
            self.backward
        )
    }
}

/// Every change from `from` to `to` (two versions' complete wire shapes), in walk order.
pub fn diff(from: &'static Shape, to: &'static Shape) -> Vec<Change> {
    let mut w = Walker::default();
    match (resolve(from), resolve(to)) {
        (Shape::Tagged { tag: ta, variants: va }, Shape::Tagged { tag: tb, variants: vb }) if ta == tb => {
            w.kinds(ta, va, vb)
        }
        _ => w.walk(from, to),
    }
    w.out
}

/// The changes as a JSON array of `{"rule", "kind", "path", "forward", "backward", "reason"}`.
pub fn to_json(changes: &[Change]) -> Value {
    Value::Array(
        changes
            .iter()
            .map(|c| {
                json!({
                    "rule": c.rule.as_str(),
                    "kind": c.kind,
                    "path": c.path,
                    "forward": c.forward.as_str(),
                    "backward": c.backward.as_str(),
                    "reason": c.reason,
                })
            })
            .collect(),
    )
}

/// One line per change (`RULE kind path: reason (forward …, backward …)`), or `no change`; every
/// line ends with a newline.
pub fn to_text(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no change\n".into();
    }
    changes.iter().map(|c| format!("{c}\n")).collect()
}

/// GitHub workflow-command annotations, one line per change: `::warning` for a change compatible
/// both ways, `::error` otherwise, at `file` and the line `line_of` gives
/// (`::error file=F,line=L,title=RULE::kind path: reason`). Values are escaped as workflow
/// commands require; no change gives an empty string.
pub fn to_github(changes: &[Change], file: &str, line_of: impl Fn(&Change) -> usize) -> String {
    let file = escape_property(file);
    changes
        .iter()
        .map(|c| {
            format!(
                "::{} file={file},line={},title={}::{}\n",
                if c.is_compatible() { "warning" } else { "error" },
                line_of(c),
                c.rule,
                escape_data(&format!("{}: {}", c.place(), c.reason)),
            )
        })
        .collect()
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A loose object with nothing declared: what a JSON object is, for the comparison of fields.
static OPAQUE: Fields = Fields {
    fields: &[],
    strict: false,
};

/// The deepest named shapes nest; a longer chain of names is taken as a cycle and left as is.
const NAME_DEPTH: usize = 64;

/// `s` without its names.
fn resolve(s: &'static Shape) -> &'static Shape {
    let mut s = s;
    for _ in 0..NAME_DEPTH {
        match s {
            Shape::Named(d) => s = &d.shape,
            _ => return s,
        }
    }
    s
}

/// The tag value of a tagged union's variant.
fn variant_tag(s: &'static Shape, tag: &str) -> Option<&'static str> {
    let Shape::Object(fields) = resolve(s) else {
        return None;
    };
    fields
        .fields
        .iter()
        .find(|f| f.name == tag)
        .and_then(|f| match resolve(f.shape) {
            Shape::Const(c) => Some(*c),
            _ => None,
        })
}

/// The JSON type a shape's values have, when it is one.
fn json_type(s: &'static Shape) -> Option<&'static str> {
    match resolve(s) {
        Shape::Str | Shape::Binary | Shape::Const(_) | Shape::Enum(_) => Some("string"),
        Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_) => Some("number"),
        Shape::Bool => Some("boolean"),
        Shape::Null => Some("null"),
        Shape::Array(_) => Some("array"),
        Shape::Object(_) | Shape::Map(_) | Shape::Tagged { .. } | Shape::JsonObject | Shape::ExactlyOne { .. } => {
            Some("object")
        }
        Shape::Json | Shape::AnyOf(_) | Shape::Named(_) => None,
    }
}

fn same_set(a: &[&str], b: &[&str]) -> bool {
    a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
}

/// Whether `a` accepts every value `b` accepts (`false` when that cannot be shown).
fn covers(a: &'static Shape, b: &'static Shape, depth: usize) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    if depth > NAME_DEPTH {
        return false;
    }
    let d = depth + 1;
    let (a, b) = (resolve(a), resolve(b));
    match (a, b) {
        (Shape::Json, _) => true,
        (_, Shape::Json) => false,
        (_, Shape::AnyOf(ys)) => ys.iter().all(|y| covers(a, y, d)),
        (Shape::AnyOf(xs), _) => xs.iter().any(|x| covers(x, b, d)),
        (Shape::Str | Shape::Binary, Shape::Str | Shape::Binary | Shape::Const(_) | Shape::Enum(_)) => true,
        (Shape::Number, Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_)) => true,
        (Shape::Integer { min, max }, Shape::Integer { min: m, max: n }) => min <= m && n <= max,
        (Shape::Integer { min, max }, Shape::ConstNumber(n)) => (*min..=*max).contains(&i64::from(*n)),
        (Shape::Const(x), Shape::Const(y)) => x == y,
        (Shape::Const(x), Shape::Enum(ys)) => ys.iter().all(|y| y == x),
        (Shape::Enum(xs), Shape::Const(y)) => xs.contains(y),
        (Shape::Enum(xs), Shape::Enum(ys)) => ys.iter().all(|y| xs.contains(y)),
        (Shape::ConstNumber(x), Shape::ConstNumber(y)) => x == y,
        (Shape::Bool, Shape::Bool) | (Shape::Null, Shape::Null) => true,
        (Shape::Array(x), Shape::Array(y)) | (Shape::Map(x), Shape::Map(y)) => covers(x, y, d),
        (Shape::JsonObject, _) => json_type(b) == Some("object"),
        (Shape::Map(x), Shape::JsonObject) => matches!(resolve(x), Shape::Json),
        (Shape::ExactlyOne { keys, shape }, Shape::ExactlyOne { keys: k, shape: s }) => {
            same_set(keys, k) && covers(shape, s, d)
        }
        (Shape::ExactlyOne { .. }, _) => false,
        (_, Shape::ExactlyOne { shape, .. }) => covers(a, shape, d),
        (Shape::Object(fa), Shape::Object(fb)) => object_covers(fa, fb, d),
        (Shape::Tagged { tag, variants }, Shape::Tagged { tag: t, variants: vs }) => {
            tag == t
                && vs.iter().all(|y| {
                    let ty = variant_tag(y, t);
                    variants
                        .iter()
                        .find(|x| variant_tag(x, tag) == ty)
                        .is_some_and(|x| covers(x, y, d))
                })
        }
        _ => false,
    }
}

/// Whether the object `fa` accepts every object `fb` accepts (loose keys by the module's convention).
fn object_covers(fa: &'static Fields, fb: &'static Fields, depth: usize) -> bool {
    if fa.strict && !fb.strict {
        return false;
    }
    let required_kept = fa
        .fields
        .iter()
        .filter(|f| f.required)
        .all(|f| fb.fields.iter().any(|g| g.name == f.name && g.required));
    required_kept
        && fb
            .fields
            .iter()
            .all(|g| match fa.fields.iter().find(|f| f.name == g.name) {
                Some(f) => covers(f.shape, g.shape, depth),
                None => !fa.strict,
            })
}

/// The walk: where it is, and what it found.
#[derive(Default)]
struct Walker {
    out: Vec<Change>,
    /// The root variant being compared.
    kind: &'static str,
    /// The JSON pointer of the place being compared.
    path: String,
    /// The pairs being compared, outermost first (a pair met again is a cycle: left as is).
    stack: Vec<(*const Shape, *const Shape)>,
}

impl Walker {
    fn report(&mut self, rule: Rule, forward: bool, backward: bool, reason: String) {
        self.out.push(Change {
            rule,
            kind: self.kind.into(),
            path: self.path.clone(),
            forward: Verdict::of(forward),
            backward: Verdict::of(backward),
            reason,
        });
    }

    /// Report at `self.path` + `/key`.
    fn report_at(&mut self, key: &str, rule: Rule, forward: bool, backward: bool, reason: String) {
        let len = self.path.len();
        push_key(&mut self.path, key);
        self.report(rule, forward, backward, reason);
        self.path.truncate(len);
    }

    /// The root union's kinds.
    fn kinds(&mut self, tag: &str, va: &'static [&'static Shape], vb: &'static [&'static Shape]) {
        for x in va {
            let t = variant_tag(x, tag);
            self.kind = t.unwrap_or("");
            match vb.iter().find(|y| variant_tag(y, tag) == t) {
                Some(y) => self.variant(x, y),
                None => self.report(
                    Rule::KindRemoved,
                    true,
                    false,
                    format!("kind \"{}\" removed (a reader of the new shape rejects it)", self.kind),
                ),
            }
        }
        for y in vb {
            let t = variant_tag(y, tag);
            if !va.iter().any(|x| variant_tag(x, tag) == t) {
                self.kind = t.unwrap_or("");
                self.report(
                    Rule::KindAdded,
                    false,
                    true,
                    format!("kind \"{}\" added (a reader of the old shape rejects it)", self.kind),
                );
            }
        }
    }

    /// One root variant: its fields, but not its `version` const.
    fn variant(&mut self, x: &'static Shape, y: &'static Shape) {
        if std::ptr::eq(x, y) {
            return;
        }
        match (resolve(x), resolve(y)) {
            (Shape::Object(fa), Shape::Object(fb)) => self.objects(fa, fb, true),
            _ => self.walk(x, y),
        }
    }

    fn walk(&mut self, a: &'static Shape, b: &'static Shape) {
        if std::ptr::eq(a, b) {
            return;
        }
        let pair = (a as *const Shape, b as *const Shape);
        if self.stack.contains(&pair) {
            return;
        }
        self.stack.push(pair);
        self.compare(resolve(a), resolve(b));
        self.stack.pop();
    }

    fn compare(&mut self, a: &'static Shape, b: &'static Shape) {
        match (a, b) {
            (Shape::Object(fa), Shape::Object(fb)) => self.objects(fa, fb, false),
            (Shape::JsonObject, Shape::Object(fb)) => self.objects(&OPAQUE, fb, false),
            (Shape::Object(fa), Shape::JsonObject) => self.objects(fa, &OPAQUE, false),
            (Shape::Array(x), Shape::Array(y)) | (Shape::Map(x), Shape::Map(y)) => {
                let len = self.path.len();
                self.path.push_str("/*");
                self.walk(x, y);
                self.path.truncate(len);
            }
            (Shape::Integer { min: a0, max: a1 }, Shape::Integer { min: b0, max: b1 }) => {
                if a0 != b0 || a1 != b1 {
                    self.report(
                        Rule::NumberRangeChanged,
                        a0 <= b0 && b1 <= a1,
                        b0 <= a0 && a1 <= b1,
                        format!("integer range changed from {a0}..={a1} to {b0}..={b1}"),
                    );
                }
            }
            (Shape::Enum(xs), Shape::Enum(ys)) => self.enums(xs, ys),
            (Shape::Tagged { tag: ta, variants: va }, Shape::Tagged { tag: tb, variants: vb }) if ta == tb => {
                self.union(ta, va, vb)
            }
            (Shape::AnyOf(_), _) | (_, Shape::AnyOf(_)) => self.alternatives(a, b),
            (Shape::ExactlyOne { .. }, _) | (_, Shape::ExactlyOne { .. })
                if json_type(a) == Some("object") && json_type(b) == Some("object") =>
            {
                self.exactly_one(a, b)
            }
            _ if same_leaf(a, b) => {}
            _ => self.type_changed(a, b),
        }
    }

    fn type_changed(&mut self, a: &'static Shape, b: &'static Shape) {
        let (fwd, bwd) = (covers(a, b, 0), covers(b, a, 0));
        let why = match (fwd, bwd) {
            (true, true) => "the same values on the wire",
            (true, false) => "narrowed: a reader of the new shape rejects some old values",
            (false, true) => "widened: a reader of the old shape rejects some new values",
            (false, false) => "neither accepts all of the other's values",
        };
        self.report(
            Rule::FieldTypeChanged,
            fwd,
            bwd,
            format!("type changed from {} to {} ({why})", a.describe(), b.describe()),
        );
    }

    fn objects(&mut self, fa: &'static Fields, fb: &'static Fields, root: bool) {
        let opaque = std::ptr::eq(fa, &OPAQUE);
        if fa.strict && !fb.strict {
            let reason = if std::ptr::eq(fb, &OPAQUE) {
                "a strict object became an opaque JSON object (any key now passes)"
            } else {
                "object became loose (a reader of the old shape rejects undeclared keys)"
            };
            self.report(Rule::ObjectStrictToLoose, false, true, reason.into());
        } else if !fa.strict && fb.strict {
            let reason = if opaque {
                "an opaque JSON object became a strict object (a reader of the new shape rejects undeclared keys)"
            } else {
                "object became strict (a reader of the new shape rejects undeclared keys)"
            };
            self.report(Rule::ObjectLooseToStrict, true, false, reason.into());
        }
        let kind_of = |strict: bool| if strict { "strict" } else { "loose" };
        for f in fa.fields {
            let Some(g) = fb.fields.iter().find(|g| g.name == f.name) else {
                let reason = format!(
                    "{} field \"{}\" removed from a {} object",
                    if f.required { "required" } else { "optional" },
                    f.name,
                    kind_of(fb.strict)
                );
                self.report_at(f.name, Rule::FieldRemoved, !f.required, !fb.strict, reason);
                continue;
            };
            let len = self.path.len();
            push_key(&mut self.path, f.name);
            if f.required && !g.required {
                self.report(
                    Rule::FieldRequiredToOptional,
                    false,
                    true,
                    format!(
                        "field \"{}\" became optional (a reader of the old shape requires it)",
                        f.name
                    ),
                );
            } else if !f.required && g.required {
                self.report(
                    Rule::FieldOptionalToRequired,
                    true,
                    false,
                    format!(
                        "field \"{}\" became required (a reader of the new shape requires it)",
                        f.name
                    ),
                );
            }
            let version = root
                && f.name == "version"
                && matches!(resolve(f.shape), Shape::ConstNumber(_))
                && matches!(resolve(g.shape), Shape::ConstNumber(_));
            if !version {
                self.walk(f.shape, g.shape);
            }
            self.path.truncate(len);
        }
        for g in fb.fields {
            if fa.fields.iter().any(|f| f.name == g.name) {
                continue;
            }
            let (rule, what) = if g.required {
                (Rule::FieldAddedRequired, "required")
            } else {
                (Rule::FieldAddedOptional, "optional")
            };
            let reason = if opaque {
                format!("{what} field \"{}\" declared in what was an opaque JSON object", g.name)
            } else {
                format!("{what} field \"{}\" added to a {} object", g.name, kind_of(fa.strict))
            };
            self.report_at(g.name, rule, !fa.strict, !g.required, reason);
        }
    }

    fn enums(&mut self, xs: &[&str], ys: &[&str]) {
        for x in xs.iter().filter(|x| !ys.contains(x)) {
            self.report(
                Rule::EnumValueRemoved,
                true,
                false,
                format!("enum value \"{x}\" removed (a reader of the new shape rejects it)"),
            );
        }
        for y in ys.iter().filter(|y| !xs.contains(y)) {
            self.report(
                Rule::EnumValueAdded,
                false,
                true,
                format!("enum value \"{y}\" added (a reader of the old shape rejects it)"),
            );
        }
    }

    /// A nested tagged union: variants matched by tag value; the tag's value set is an enum.
    fn union(&mut self, tag: &str, va: &'static [&'static Shape], vb: &'static [&'static Shape]) {
        for x in va {
            let t = variant_tag(x, tag);
            match vb.iter().find(|y| variant_tag(y, tag) == t) {
                Some(y) => self.walk(x, y),
                None => self.report_at(
                    tag,
                    Rule::EnumValueRemoved,
                    true,
                    false,
                    format!(
                        "variant \"{}\" removed from the union tagged by \"{tag}\" (a reader of the new shape rejects it)",
                        t.unwrap_or("")
                    ),
                ),
            }
        }
        for y in vb {
            let t = variant_tag(y, tag);
            if !va.iter().any(|x| variant_tag(x, tag) == t) {
                self.report_at(
                    tag,
                    Rule::EnumValueAdded,
                    false,
                    true,
                    format!(
                        "variant \"{}\" added to the union tagged by \"{tag}\" (a reader of the old shape rejects it)",
                        t.unwrap_or("")
                    ),
                );
            }
        }
    }

    /// Alternatives matched by JSON type (a shape that is not an `AnyOf` is one alternative).
    fn alternatives(&mut self, a: &'static Shape, b: &'static Shape) {
        let alts = |s: &'static Shape| -> Vec<&'static Shape> {
            match s {
                Shape::AnyOf(list) => list.to_vec(),
                _ => vec![s],
            }
        };
        let (xs, ys) = (alts(a), alts(b));
        let typed = |list: &[&'static Shape]| {
            let types: Option<Vec<&str>> = list.iter().map(|s| json_type(s)).collect();
            types.filter(|t| t.iter().enumerate().all(|(i, x)| !t[..i].contains(x)))
        };
        let (Some(tx), Some(ty)) = (typed(&xs), typed(&ys)) else {
            if !(covers(a, b, 0) && covers(b, a, 0)) {
                self.type_changed(a, b);
            }
            return;
        };
        for (x, t) in xs.iter().zip(&tx) {
            match ys.iter().zip(&ty).find(|(_, u)| *u == t) {
                Some((y, _)) => self.walk(x, y),
                None => self.report(
                    Rule::FieldTypeChanged,
                    true,
                    false,
                    format!(
                        "alternative {} (a JSON {t}) removed (a reader of the new shape rejects it)",
                        x.describe()
                    ),
                ),
            }
        }
        for (y, u) in ys.iter().zip(&ty) {
            if !tx.contains(u) {
                self.report(
                    Rule::FieldTypeChanged,
                    false,
                    true,
                    format!(
                        "alternative {} (a JSON {u}) added (a reader of the old shape rejects it)",
                        y.describe()
                    ),
                );
            }
        }
    }

    /// An exactly-one constraint on either side: the key sets, then the inner objects.
    fn exactly_one(&mut self, a: &'static Shape, b: &'static Shape) {
        let split = |s: &'static Shape| match s {
            Shape::ExactlyOne { keys, shape } => (Some(*keys), *shape),
            _ => (None, s),
        };
        let ((ka, sa), (kb, sb)) = (split(a), split(b));
        match (ka, kb) {
            (Some(x), Some(y)) if !same_set(x, y) => self.report(
                Rule::FieldTypeChanged,
                false,
                false,
                format!(
                    "exactly one of [{}] became exactly one of [{}]",
                    x.join(", "),
                    y.join(", ")
                ),
            ),
            (Some(x), None) => self.report(
                Rule::FieldTypeChanged,
                false,
                true,
                format!(
                    "the constraint \"exactly one of [{}]\" was removed (a reader of the old shape rejects some new values)",
                    x.join(", ")
                ),
            ),
            (None, Some(y)) => self.report(
                Rule::FieldTypeChanged,
                true,
                false,
                format!(
                    "the constraint \"exactly one of [{}]\" was added (a reader of the new shape rejects some old values)",
                    y.join(", ")
                ),
            ),
            _ => {}
        }
        self.walk(sa, sb);
    }
}

/// Two leaf shapes that accept the same values in the same way.
fn same_leaf(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Const(x), Shape::Const(y)) => x == y,
        (Shape::ConstNumber(x), Shape::ConstNumber(y)) => x == y,
        _ => matches!(
            (a, b),
            // A string and binary data are the same JSON on the wire (binary is a base64, data
            // URL or URL string): not a change, and a frozen JSON Schema cannot tell them apart.
            (Shape::Str | Shape::Binary, Shape::Str | Shape::Binary)
                | (Shape::Number, Shape::Number)
                | (Shape::Bool, Shape::Bool)
                | (Shape::Null, Shape::Null)
                | (Shape::Json, Shape::Json)
                | (Shape::JsonObject, Shape::JsonObject)
        ),
    }
}
