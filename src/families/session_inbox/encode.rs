//! The encode facade (contract §5, §12, §16): the only producer of persisted session inbox
//! values. Build the complete current value, validate it once, walk the `down` steps to the
//! target version, validate against the target version's frozen shape, and for a v0 target
//! convert from version 1. Nothing is dropped to make a value fit: a `down` step that cannot
//! carry a field refuses with `INCOMPATIBLE`.

use crate::canonical::{key_text, write_str, write_u64, write_value, Members, Sink};
use crate::error::{EncodeError, ErrorCode};
use crate::session_inbox::build::{self, Deliver, Entries, Mirror, Payloads, Wire, CARRIED_KEYS};
use crate::session_inbox::{producer_version, v0, WIRE_VERSION};
use crate::shape::{FieldCursor, Fields, Shape};
use crate::Answer;
use serde_json::{Map, Value};

/// The two shapes of the unversioned era a v0 target can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum V0Variant {
    /// The legacy deliver envelope (builds ≤ 0.30.4).
    Deliver,
    /// The raw send command (builds 0.30.5–0.31.0).
    Send,
}

/// The version (and for v0, the variant) a receiver understands. Non-exhaustive: a new version
/// adds a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// A versioned receiver; only supported versions encode.
    Version(u32),
    /// An unversioned receiver of one of the two historic shapes.
    V0(V0Variant),
}

impl Target {
    /// The current version.
    pub const CURRENT: Target = Target::Version(WIRE_VERSION);

    /// The target's JSON form: `{"version":1}` or `{"version":0,"variant":"send"}`.
    pub fn to_json(self) -> Value {
        match self {
            Target::Version(v) => serde_json::json!({ "version": v }),
            Target::V0(V0Variant::Deliver) => {
                serde_json::json!({"version": 0, "variant": "deliver"})
            }
            Target::V0(V0Variant::Send) => serde_json::json!({"version": 0, "variant": "send"}),
        }
    }

    /// Parse the JSON form (`{"version": N}` for N in 1..=current, `{"version": 0, "variant":
    /// "deliver"|"send"}`); anything else, extra keys included, is `UNSUPPORTED_TARGET`.
    pub fn from_json(v: &Value) -> Result<Target, EncodeError> {
        let unsupported = || {
            EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!(
                    "unsupported target {}: expected {{\"version\":N}} with N from 1 to {WIRE_VERSION}, or {{\"version\":0,\"variant\":\"deliver\"|\"send\"}}",
                    crate::canonical::to_string(v)
                ),
            )
        };
        let obj = v.as_object().ok_or_else(unsupported)?;
        let version = obj.get("version").and_then(Value::as_f64).ok_or_else(unsupported)?;
        let target = match (version, obj.get("variant").map(|x| x.as_str())) {
            (n, None) if n.fract() == 0.0 && n >= 1.0 && n <= f64::from(WIRE_VERSION) => Target::Version(n as u32),
            (0.0, Some(Some("deliver"))) => Target::V0(V0Variant::Deliver),
            (0.0, Some(Some("send"))) => Target::V0(V0Variant::Send),
            _ => return Err(unsupported()),
        };
        if obj.len() != if obj.contains_key("variant") { 2 } else { 1 } {
            return Err(unsupported());
        }
        Ok(target)
    }

    /// The CLI's names: `v1` … `v6`, `v0-deliver`, `v0-send`.
    pub fn from_name(name: &str) -> Result<Target, EncodeError> {
        let version = name.strip_prefix('v').filter(|d| d.bytes().all(|b| b.is_ascii_digit()));
        match name {
            "v0-deliver" => Ok(Target::V0(V0Variant::Deliver)),
            "v0-send" => Ok(Target::V0(V0Variant::Send)),
            _ => match version.and_then(|d| d.parse::<u32>().ok()) {
                Some(n) if (1..=WIRE_VERSION).contains(&n) => Ok(Target::Version(n)),
                _ => Err(EncodeError::other(
                    ErrorCode::UnsupportedTarget,
                    format!("unsupported target {name:?}: expected v1 … v{WIRE_VERSION}, v0-deliver or v0-send"),
                )),
            },
        }
    }

    /// The CLI name of this target.
    pub fn name(self) -> String {
        match self {
            Target::Version(n) => format!("v{n}"),
            Target::V0(V0Variant::Deliver) => "v0-deliver".into(),
            Target::V0(V0Variant::Send) => "v0-send".into(),
        }
    }

    /// Its place in [`Target::all`] (and in the family's `targets`, which names them in that
    /// order): a target as a number, for [`encode_to`].
    pub fn index(self) -> usize {
        match self {
            Target::V0(V0Variant::Deliver) => 0,
            Target::V0(V0Variant::Send) => 1,
            Target::Version(n) => (n as usize).saturating_add(1),
        }
    }

    /// The target at `index` in [`Target::all`] ([`Target::index`]); anything else is
    /// `UNSUPPORTED_TARGET`.
    pub fn at(index: usize) -> Result<Target, EncodeError> {
        let target = match index {
            0 => Target::V0(V0Variant::Deliver),
            1 => Target::V0(V0Variant::Send),
            n => Target::Version(u32::try_from(n - 1).unwrap_or(u32::MAX)),
        };
        target.check()
    }

    /// Every target this build encodes for: the two v0 variants, then 1 ..= current.
    pub fn all() -> Vec<Target> {
        let mut out = vec![Target::V0(V0Variant::Deliver), Target::V0(V0Variant::Send)];
        out.extend((1..=WIRE_VERSION).map(Target::Version));
        out
    }

    /// The versioned shape this target is walked down to (1 for the v0 variants).
    pub fn walk_to(self) -> u32 {
        match self {
            Target::Version(n) => n,
            Target::V0(_) => 1,
        }
    }

    /// Whether this build can encode for it.
    pub fn check(self) -> Result<Target, EncodeError> {
        match self {
            Target::Version(v) if !(1..=WIRE_VERSION).contains(&v) => Err(EncodeError::other(
                ErrorCode::UnsupportedTarget,
                format!(
                    "unsupported target version {v}: this build encodes versions 1 to {WIRE_VERSION} and the two v0 variants"
                ),
            )),
            t => Ok(t),
        }
    }
}

/// Encode `command` (contract §5.1) for `target`: the wire value to persist, or why not.
///
/// ```
/// use hookwire::session_inbox::encode::{encode, Target};
/// use serde_json::json;
/// let command = json!({"kind": "send", "payload": {"message": "hi"}});
/// let wire = encode(&command, Target::CURRENT).unwrap();
/// assert_eq!(wire["version"], hookwire::session_inbox::WIRE_VERSION);
/// assert_eq!(wire["payload"], wire["payloads"][0]);
/// let for_v1 = encode(&command, Target::Version(1)).unwrap();
/// assert_eq!(for_v1["version"], 1);
/// ```
pub fn encode(command: &Value, target: Target) -> Result<Value, EncodeError> {
    encode_owned(command.clone(), target)
}

/// [`encode`], taking the command by value: nothing is copied but the mirror.
pub fn encode_owned(command: Value, target: Target) -> Result<Value, EncodeError> {
    let target = target.check()?;
    match view_checked(&command, target).map(|checked| checked.map(|_| ())) {
        Some(Ok(())) => Ok(fast_value(command, target)),
        Some(Err(e)) => Err(e),
        None => encode_built(command, target),
    }
}

/// The long way: build the current value as a map, validate it, run the `down` steps on it.
/// Every error is reported from here.
fn encode_built(command: Value, target: Target) -> Result<Value, EncodeError> {
    let wire = build::build(command)?;
    producer_version(WIRE_VERSION).validate(&wire)?;
    let Value::Object(mut map) = wire else {
        return Err(EncodeError::invalid("", "an object"));
    };
    // Contract §12.4: a v0 send keeps the command's acceptedDeploymentId (older consumers ignore it).
    let accepted = match target {
        Target::V0(V0Variant::Send) => first_accepted_deployment(&map),
        _ => None,
    };
    walk_down(&mut map, target.walk_to())?;
    Ok(match target {
        Target::Version(_) => Value::Object(map),
        Target::V0(V0Variant::Deliver) => v0::to_deliver_envelope(map),
        Target::V0(V0Variant::Send) => v0::to_raw_send(map, accepted),
    })
}

/// Walk a validated current value down to version `to`, then validate it against that
/// version's frozen shape: a failure there is `INCOMPATIBLE` too (the command is valid; that
/// receiver cannot carry it).
pub fn walk_down(map: &mut Map<String, Value>, to: u32) -> Result<(), EncodeError> {
    for from in (to + 1..=WIRE_VERSION).rev() {
        (producer_version(from).down)(map)?;
    }
    let shape = producer_version(to);
    let walked = Value::Object(std::mem::take(map));
    let checked = shape.validate(&walked);
    let Value::Object(back) = walked else {
        return Err(EncodeError::invalid("", "an object"));
    };
    *map = back;
    checked.map_err(|e| {
        EncodeError::incompatible(
            &e.path,
            to,
            &format!("version {to}'s frozen shape expects {} there", e.expected),
        )
    })
}

/// The `acceptedDeploymentId` of the delivery entry for payload 0, if any.
fn first_accepted_deployment(map: &Map<String, Value>) -> Option<Value> {
    first_payload_entry(map.get("deliveryMetadata")?)?.get("acceptedDeploymentId").cloned()
}

/// Encode `command` for the target given as JSON (`{"version":1}`, …): `{"ok": wire}` or
/// `{"error": …}` — the answer of one `hookwire encode --lines` line.
pub fn encode_result(command: Value, target: &Value) -> Answer {
    Answer::from(Target::from_json(target).and_then(|t| encode_owned(command, t)))
}

/// [`encode`], as canonical JSON bytes (keys sorted, no whitespace).
pub fn encode_to_string(command: &Value, target: Target) -> Result<String, EncodeError> {
    let mut out = String::new();
    encode_into(command, target, &mut out)?;
    Ok(out)
}

/// [`encode`] without building a `serde_json::Value`: the wire value as a typed view that borrows
/// the command's parts and adds what the encoder adds (`version`, the mirror, the v0 forms), so
/// a valid command costs no allocation (but the merge of a several-payload mirror, made as it is
/// serialized). It serializes (serde) to exactly what [`encode`] answers, with its keys in the
/// canonical order; [`Encoded::write`] gives its canonical text, [`Encoded::into_value`] the
/// value. Validated fully before it is answered, as every encode is: a command only the long way
/// can take (one a `down` step changes, or the builder refuses) is answered as the value it built.
pub fn encode_typed(command: &Value, target: Target) -> Result<Encoded<'_>, EncodeError> {
    let target = target.check()?;
    match view_checked(command, target) {
        Some(Ok(wire)) => Ok(Encoded(Typed::View(wire, target))),
        Some(Err(e)) => Err(e),
        None => encode_built(command.clone(), target).map(|v| Encoded(Typed::Built(v))),
    }
}

/// The wire value [`encode_typed`] answers: serialize it (serde), write it ([`Encoded::write`])
/// or turn it into a value ([`Encoded::into_value`]).
pub struct Encoded<'a>(Typed<'a>);

enum Typed<'a> {
    /// The short way's view, for the target (its `version`, or a v0 form).
    View(Wire<'a>, Target),
    /// What the long way built.
    Built(Value),
}

/// What [`Encoded::emit`] and the serialization write: the value the long way built, a
/// control's map with the `version` entry its target adds (none for a v0 form), or a deliver's
/// view with its target.
enum Parts<'v, 'a> {
    Built(&'v Value),
    Control(&'v Map<String, Value>, Option<(&'static str, u32)>),
    Deliver(&'v Deliver<'a>, Target),
}

impl<'a> Encoded<'a> {
    fn parts(&self) -> Parts<'_, 'a> {
        match &self.0 {
            Typed::Built(v) => Parts::Built(v),
            Typed::View(Wire::Control(map), target) => Parts::Control(
                map,
                match target {
                    Target::Version(n) => Some(("version", *n)),
                    Target::V0(_) => None,
                },
            ),
            Typed::View(Wire::Deliver(d), target) => Parts::Deliver(d, *target),
        }
    }
}

impl Encoded<'_> {
    /// Append the wire value's canonical JSON text to `out` (what [`encode_into`] appends).
    pub fn write(&self, out: &mut String) {
        match &self.0 {
            Typed::View(wire, target) => write_wire(wire, *target, out),
            Typed::Built(v) => write_value(v, out),
        }
    }

    /// The wire value as a `serde_json::Value` (what [`encode`] answers).
    pub fn into_value(self) -> Value {
        match self.0 {
            // Serializing into a `Value` cannot fail here: every key is a string, every number
            // a `u32` or the command's own.
            Typed::View(..) => serde_json::to_value(&self).unwrap_or(Value::Null),
            Typed::Built(v) => v,
        }
    }
}

impl Encoded<'_> {
    /// Give the wire value to `sink` member by member, in canonical order (the layout of
    /// [`write_wire`] and of the serialization: [`wire_fields`]): what [`encode`] answers,
    /// without building it. Values of the command go to the sink as they are, a mirror of
    /// several payloads as their parts ([`build::emit_coalesced`]): only the join of several
    /// string messages is made.
    pub fn emit(&self, sink: &mut dyn Sink) {
        let (d, target) = match self.parts() {
            Parts::Built(v) => return sink.value(v),
            Parts::Control(map, version) => return emit_object(map, version, None, sink),
            Parts::Deliver(d, target) => (d, target),
        };
        sink.object(wire_fields(d, target).count());
        // The mirror given whole, when `payloads` is `[mirror]`: given again (`Sink::value_again`).
        let mut mirror = None;
        for (key, _, field) in wire_fields(d, target) {
            sink.added_key(key);
            match field {
                Field::Value(v) => sink.value(v),
                Field::Str(s) => sink.str(s),
                Field::Number(n) => sink.number(n),
                Field::Entry(e, without) => emit_object(e, None, without, sink),
                Field::SendEntries(e) => {
                    sink.array(1);
                    emit_object(e, Some(("payloadIndex", 0)), None, sink);
                }
                Field::Mirror(Mirror::Same(p)) => {
                    sink.value(p);
                    mirror = Some(p);
                }
                Field::Mirror(Mirror::Merged(list)) => build::emit_coalesced(list, sink),
                Field::Payloads(payloads) => match payloads.only() {
                    Some(p) => {
                        sink.array(1);
                        if mirror.is_some_and(|m| core::ptr::eq(m, p)) {
                            sink.value_again(p);
                        } else {
                            sink.value(p);
                        }
                    }
                    None => {
                        if let Payloads::List(l) = payloads {
                            sink.value(l);
                        }
                    }
                },
            }
        }
    }
}

/// A map of the command (an entry, a control) given to `sink` with one number field merged in
/// at its place and one key left out, as [`WithNumber`] serializes it. Its keys are declared
/// ASCII keys (the view passed the strict current shape), so map order is canonical order; a
/// map holding another key is given as the value it serializes to.
fn emit_object(map: &Map<String, Value>, extra: Option<(&'static str, u32)>, without: Option<&'static str>, sink: &mut dyn Sink) {
    if !map.keys().all(|k| crate::canonical::utf8_order_is_utf16_order(k)) {
        let v = serde_json::to_value(WithNumber { map, extra, without }).unwrap_or(Value::Null);
        return sink.value(&v);
    }
    let left_out = without.is_some_and(|k| map.contains_key(k));
    sink.object(map.len() + usize::from(extra.is_some()) - usize::from(left_out));
    let mut extra = extra;
    for (k, v) in map.iter().filter(|(k, _)| Some(k.as_str()) != without) {
        if let Some((name, n)) = extra.filter(|(name, _)| key_before(name, k)) {
            sink.added_key(name);
            sink.number(n);
            extra = None;
        }
        sink.key(k);
        sink.value(v);
    }
    if let Some((name, n)) = extra {
        sink.added_key(name);
        sink.number(n);
    }
}

/// A target given as JSON, read as [`encode_result`] reads it: its number ([`Target::index`]),
/// or why no command is encoded for it (`FamilyDesc::read_target`).
pub fn read_target(target: &Value) -> Result<usize, EncodeError> {
    Target::from_json(target).and_then(Target::check).map(Target::index)
}

/// [`encode_result`] for the target numbered `target` ([`read_target`]), a wire value given to
/// `sink` ([`Encoded::emit`]: a valid command's typed view, no value built) rather than
/// answered: `None` when it went there, else the answer (a refusal). The encoder's wasm module
/// writes its answer tape so. The command is only borrowed on the short way; the long way takes
/// it (leaving `null`).
pub fn encode_to(command: &mut Value, target: usize, sink: &mut dyn Sink) -> Option<Answer> {
    let target = match Target::at(target) {
        Ok(t) => t,
        Err(e) => return Some(Answer::Refused(e)),
    };
    match view_checked(command, target) {
        Some(Ok(wire)) => {
            Encoded(Typed::View(wire, target)).emit(sink);
            return None;
        }
        Some(Err(e)) => return Some(Answer::Refused(e)),
        None => {}
    }
    match encode_built(std::mem::take(command), target) {
        Ok(v) => {
            sink.value(&v);
            None
        }
        Err(e) => Some(Answer::Refused(e)),
    }
}

impl serde::Serialize for Encoded<'_> {
    /// The fields in canonical key order, as [`write_wire`] writes them (every key is a declared
    /// ASCII key, so byte order is UTF-16 order); nested values as `serde_json::Value` serializes
    /// them.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (d, target) = match self.parts() {
            Parts::Built(v) => return v.serialize(serializer),
            Parts::Control(map, version) => return WithNumber::new(map, version).serialize(serializer),
            Parts::Deliver(d, target) => (d, target),
        };
        let mut m = serializer.serialize_map(None)?;
        for (key, _, field) in wire_fields(d, target) {
            match field {
                Field::Value(v) => m.serialize_entry(key, v)?,
                Field::Str(s) => m.serialize_entry(key, s)?,
                Field::Number(n) => m.serialize_entry(key, &n)?,
                Field::Entry(e, without) => m.serialize_entry(key, &WithNumber { map: e, extra: None, without })?,
                Field::SendEntries(e) => m.serialize_entry(key, &[WithNumber::new(e, Some(("payloadIndex", 0)))])?,
                Field::Mirror(Mirror::Same(p)) => m.serialize_entry(key, p)?,
                Field::Mirror(Mirror::Merged(list)) => m.serialize_entry(key, &build::coalesce_list(list))?,
                Field::Payloads(Payloads::One(p)) => m.serialize_entry(key, core::slice::from_ref(p))?,
                Field::Payloads(Payloads::List(l)) => m.serialize_entry(key, l)?,
            }
        }
        m.end()
    }
}

/// A map's entries (in key order) with one number field merged in at its place, and one key
/// left out: `write_object`'s serialization.
struct WithNumber<'a> {
    map: &'a Map<String, Value>,
    extra: Option<(&'static str, u32)>,
    without: Option<&'static str>,
}

impl<'a> WithNumber<'a> {
    fn new(map: &'a Map<String, Value>, extra: Option<(&'static str, u32)>) -> Self {
        WithNumber { map, extra, without: None }
    }
}

impl serde::Serialize for WithNumber<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = serializer.serialize_map(None)?;
        let mut extra = self.extra;
        for (k, v) in self.map.iter().filter(|(k, _)| Some(k.as_str()) != self.without) {
            if let Some((name, n)) = extra.filter(|(name, _)| key_before(name, k)) {
                m.serialize_entry(name, &n)?;
                extra = None;
            }
            m.serialize_entry(k, v)?;
        }
        if let Some((name, n)) = extra {
            m.serialize_entry(name, &n)?;
        }
        m.end()
    }
}

/// [`encode_to_string`], appending the canonical bytes to `out` (nothing is appended on an
/// error). A valid command is written straight from its typed view: no wire value is built.
pub fn encode_into(command: &Value, target: Target, out: &mut String) -> Result<(), EncodeError> {
    let target = target.check()?;
    match view_checked(command, target) {
        Some(Ok(wire)) => write_wire(&wire, target, out),
        Some(Err(e)) => return Err(e),
        None => write_value(&encode_built(command.clone(), target)?, out),
    }
    Ok(())
}

/// One `hookwire encode --lines` answer as canonical text (`{"ok":…}` or `{"error":…}`),
/// appended to `out`: the text of [`encode_result`], without building the answer for a valid
/// command.
pub fn encode_answer_into(command: &Value, target: &Value, out: &mut String) {
    let target = match Target::from_json(target).and_then(Target::check) {
        Ok(t) => t,
        Err(e) => return write_value(&Answer::Refused(e).to_json(), out),
    };
    let answer = match view_checked(command, target) {
        Some(Ok(wire)) => {
            out.push_str("{\"ok\":");
            write_wire(&wire, target, out);
            out.push('}');
            return;
        }
        Some(Err(e)) => Answer::Refused(e),
        None => Answer::from(encode_built(command.clone(), target)),
    };
    write_value(&answer.to_json(), out);
}

// The short way (contract §12 steps 1–5 on a typed view of the command). It answers exactly what
// the long way answers, or declines: it validates the view against the current shape, takes it
// down only when the `down` steps would change nothing but `version`, and validates it against
// the target's frozen shape — field by field, with the shapes' own `accepts`. A view the current
// shape refuses is refused with the error the long way's validation names (its pieces checked
// in declaration order, each made a value only if it fails). Whatever it declines (every error
// of the builder, every value a `down` step changes or a target refuses) goes the long way.

/// The version whose `down` steps [`walk_changes_only_version`] knows. Any other current version
/// takes the long way (the same answers, slower) until the short one is taught the new step:
/// what that step changes goes into [`walk_changes_only_version`], and this constant moves up.
const SHORT_WAY_VERSION: u32 = 6;

/// The view of `command`, when the short way can encode it for `target`, or the current
/// shape's refusal of it; `None` when only the long way can say.
fn view_checked(command: &Value, target: Target) -> Option<Result<Wire<'_>, EncodeError>> {
    if WIRE_VERSION != SHORT_WAY_VERSION {
        return None;
    }
    let wire = build::view(command)?;
    if !accepts(&wire, WIRE_VERSION, None) {
        return view_error(&wire).map(Err);
    }
    let to = target.walk_to();
    let ok = walk_changes_only_version(&wire, to) && (to == WIRE_VERSION || accepts(&wire, to, Some(WIRE_VERSION)));
    if ok {
        debug_assert_merge_accepted(&wire, WIRE_VERSION);
        debug_assert_merge_accepted(&wire, to);
    }
    ok.then_some(Ok(wire))
}

/// In debug builds: the merged mirror that [`Piece::Merged`] checked as its parts, built, has
/// `version`'s payload shape.
fn debug_assert_merge_accepted(wire: &Wire<'_>, version: u32) {
    if let (true, Wire::Deliver(Deliver { mirror: Mirror::Merged(list), .. })) = (cfg!(debug_assertions), wire) {
        let shape = variant(producer_version(version).wire, "deliver").and_then(|f| field(f, "payload"));
        let merged = build::coalesce_list(list);
        assert!(shape.is_some_and(|f| f.shape.accepts(&merged)), "the merge of valid payloads {merged} is not valid");
    }
}

/// The error the long way's validation reports for a view the current shape refuses: its first
/// failing field in declaration order, then its first undeclared key, exactly as
/// `Shape::validate` names them on the built value. `None` where the current shape has no
/// variant for the view's kind (the long way reports it).
fn view_error(wire: &Wire<'_>) -> Option<EncodeError> {
    let shape = producer_version(WIRE_VERSION).wire;
    let (fields, mut pieces): (&'static Fields, Vec<(&str, Piece<'_>)>) = match wire {
        Wire::Control(map) => {
            let kind = map.get("kind")?.as_str()?;
            let pieces = map.iter().map(|(k, v)| (k.as_str(), Piece::Value(v)));
            (variant(shape, kind)?, pieces.chain([("version", Piece::Number(WIRE_VERSION))]).collect())
        }
        Wire::Deliver(d) => (variant(shape, "deliver")?, deliver_pieces(d, WIRE_VERSION).collect()),
    };
    // The built value's map order, in which the undeclared check names the first key.
    pieces.sort_by(|a, b| a.0.cmp(b.0));
    let mut path = String::new();
    for f in fields.fields {
        let piece = pieces.iter().find(|(k, _)| crate::shape::same_key(k, f.name)).map(|(_, p)| p);
        if piece.is_some_and(|p| piece_accepts(f.shape, None, p)) {
            continue;
        }
        crate::shape::push_key(&mut path, f.name);
        match piece {
            Some(p) => {
                if let Err(e) = f.shape.validate_at(&piece_value(p), &mut path) {
                    return Some(e);
                }
            }
            None if f.required => return Some(Fields::missing(f, &path)),
            None => {}
        }
        path.clear();
    }
    if fields.strict {
        if let Some((k, _)) = pieces.iter().find(|(k, _)| field(fields, k).is_none()) {
            crate::shape::push_key(&mut path, k);
            return Some(fields.undeclared(&path));
        }
    }
    None
}

/// A piece as the value the builder makes of it.
fn piece_value<'a>(piece: &Piece<'a>) -> std::borrow::Cow<'a, Value> {
    use std::borrow::Cow;
    match piece {
        Piece::Value(v) => Cow::Borrowed(*v),
        Piece::Str(s) => Cow::Owned(Value::from(*s)),
        Piece::Number(n) => Cow::Owned(Value::from(*n)),
        Piece::One(p) => Cow::Owned(Value::Array(vec![(*p).clone()])),
        Piece::Merged(list) => Cow::Owned(build::coalesce_list(list)),
        Piece::SendEntry(m) => {
            let mut entry = (*m).clone();
            entry.insert("payloadIndex".into(), 0.into());
            Cow::Owned(Value::Array(vec![Value::Object(entry)]))
        }
    }
}

/// Whether the `down` steps from the current version to `to` leave `wire` as it is but for its
/// `version`: 6 → 5 changes a cancel's `tasks`, 5 → 4 usage reports in a task's `views` and
/// `agentRequests`, 4 → 3 refuses task operations, 3 → 2 drops delivery entries'
/// `acceptedDeploymentId`, 2 → 1 the caller's `activityObserver`.
fn walk_changes_only_version(wire: &Wire<'_>, to: u32) -> bool {
    match wire {
        Wire::Control(map) => to >= 6 || !map.contains_key("tasks"),
        Wire::Deliver(d) => {
            if to < 5 {
                // The mirror is one of the payloads or their merge, whose task holds every key
                // of theirs (the current shape accepts them: each task is an object).
                let mut payloads = d.payloads.iter();
                let operations = ["views", "agentRequests", "inputRequests"];
                if payloads.any(|p| {
                    p.get("task")
                        .is_some_and(|t| operations.iter().any(|k| t.get(*k).is_some()))
                }) {
                    return false;
                }
            }
            if to < 3 {
                let accepted = match &d.entries {
                    None => false,
                    Some(Entries::Send(e)) => e.contains_key("acceptedDeploymentId"),
                    Some(Entries::List(l)) => l
                        .as_array()
                        .is_some_and(|l| l.iter().any(|e| e.get("acceptedDeploymentId").is_some())),
                };
                if accepted {
                    return false;
                }
            }
            if to < 2 && d.carried[1].is_some_and(|c| c.get("activityObserver").is_some()) {
                return false;
            }
            true
        }
    }
}

/// One field of a wire value in the view: a value of the command, or what the builder adds.
enum Piece<'a> {
    Value(&'a Value),
    Str(&'static str),
    Number(u32),
    /// `[payload]`.
    One(&'a Value),
    /// `[{...delivery, payloadIndex: 0}]`.
    SendEntry(&'a Map<String, Value>),
    /// The mirror of several payloads (`build::coalesce_list`), checked as its parts: the merge
    /// of payloads that each have a version's payload shape has that shape too (it concatenates
    /// arrays of valid items, joins strings into a string or valid text parts, and otherwise
    /// takes one payload's own value), and the mirror's shape is the payloads' item shape in
    /// every version. `view_checked` asserts it on the built merge in debug builds.
    Merged(&'a [Value]),
}

/// The declared fields of the variant `kind` of a tagged wire shape.
fn variant(shape: &'static Shape, kind: &str) -> Option<&'static Fields> {
    let Shape::Tagged { tag: "kind", variants } = resolve(shape) else {
        return None;
    };
    variants
        .iter()
        .filter_map(|v| object_fields(v))
        .find(|fields| field(fields, "kind").is_some_and(|f| matches!(resolve(f.shape), Shape::Const(c) if crate::shape::same_key(c, kind))))
}

/// Every version's variants (version, kind, fields), the current version first: made once per
/// build, on first use or by [`prepare`].
static VARIANTS: std::sync::OnceLock<Vec<(u32, &'static str, &'static Fields)>> = std::sync::OnceLock::new();

/// The [`Subsumed`] facts: made once per build, on first use or by [`prepare`].
static SUBSUMED: std::sync::OnceLock<Vec<Subsumed>> = std::sync::OnceLock::new();

/// Make the tables the encoder makes once per build and keeps (`VARIANTS`, `SUBSUMED`), if
/// they are not made yet (`FamilyDesc::prepare`).
pub fn prepare() {
    variant_at(WIRE_VERSION, "deliver");
    subsumed();
}

/// [`variant`] of version `version`'s wire shape, from a table made once per build.
fn variant_at(version: u32, kind: &str) -> Option<&'static Fields> {
    let table = VARIANTS.get_or_init(|| {
        let mut table = Vec::new();
        // The current version first: most lookups are of it.
        for version in (1..=WIRE_VERSION).rev() {
            let Shape::Tagged { variants, .. } = resolve(producer_version(version).wire) else {
                continue;
            };
            for fields in variants.iter().filter_map(|v| object_fields(v)) {
                if let Some(Shape::Const(kind)) = field(fields, "kind").map(|f| resolve(f.shape)) {
                    table.push((version, *kind, fields));
                }
            }
        }
        table
    });
    let found = table
        .iter()
        .find(|(v, k, _)| *v == version && crate::shape::same_key(k, kind))
        .map(|(_, _, fields)| *fields);
    debug_assert!(
        found.map(|f| f as *const Fields) == variant(producer_version(version).wire, kind).map(|f| f as *const Fields)
    );
    found
}

fn resolve(mut shape: &'static Shape) -> &'static Shape {
    while let Shape::Named(d) = shape {
        shape = &d.shape;
    }
    shape
}

fn object_fields(shape: &'static Shape) -> Option<&'static Fields> {
    match resolve(shape) {
        Shape::Object(fields) => Some(fields),
        _ => None,
    }
}

/// `Shape::accepts` of an object given as its fields (each key once). `known`, when given, is a
/// shape the object is already known to have: see [`accepts_known`]. `fit` has bit `i` set when
/// the object's value for `fields.fields[i]` is known to be accepted there ([`Subsumed::fit`]):
/// that value is not walked again.
fn object_accepts<'a>(
    fields: &'static Fields,
    known: Option<&'static Fields>,
    fit: u64,
    pieces: impl IntoIterator<Item = (&'a str, Piece<'a>)>,
) -> bool {
    let mut required = 0;
    // The last value accepted, with its shape and known shape (resolved): a send's payload is
    // both the mirror and `payloads`' one item, checked against the same shape once.
    let mut accepted: Option<(&Value, &'static Shape, Option<&'static Shape>)> = None;
    // The merged mirror accepted (its payloads, with their shape and known shape): `payloads`
    // is then accepted too.
    let mut merged: Option<(*const Value, &'static Shape, Option<&'static Shape>)> = None;
    let (mut in_fields, mut in_known) = (FieldCursor::default(), FieldCursor::default());
    for (key, piece) in pieces {
        let known = known.and_then(|k| in_known.find(k, key)).map(|f| f.shape);
        let Some(f) = in_fields.find(fields, key) else {
            if fields.strict {
                return false;
            }
            continue;
        };
        let ok = match (&piece, resolve(f.shape), accepted) {
            _ if fit & 1u64.checked_shl(in_fields.last() as u32).unwrap_or(0) != 0 => {
                debug_assert!(piece_accepts(f.shape, known, &piece), "field {key} was known to fit");
                true
            }
            (Piece::One(p), Shape::Array(item), Some((v, s, k)))
                if core::ptr::eq(*p, v)
                    && core::ptr::eq(resolve(item), s)
                    && same_shape(known_array_item(known), k) =>
            {
                true
            }
            (Piece::Value(Value::Array(list)), Shape::Array(item), _)
                if merged.is_some_and(|(p, s, k)| {
                    core::ptr::eq(p, list.as_ptr())
                        && core::ptr::eq(resolve(item), s)
                        && same_shape(known_array_item(known), k)
                }) =>
            {
                true
            }
            _ => piece_accepts(f.shape, known, &piece),
        };
        if !ok {
            return false;
        }
        match piece {
            Piece::Value(v) => accepted = Some((v, resolve(f.shape), known.map(resolve))),
            Piece::Merged(list) => merged = Some((list.as_ptr(), resolve(f.shape), known.map(resolve))),
            _ => {}
        }
        required += usize::from(f.required);
    }
    required == fields.fields.iter().filter(|f| f.required).count()
}

/// The declared field `key` of `fields`.
#[inline]
fn field(fields: &'static Fields, key: &str) -> Option<&'static crate::shape::Field> {
    fields.fields.iter().find(|f| crate::shape::same_key(f.name, key))
}

/// The item shape (resolved) of a known array shape.
fn known_array_item(known: Option<&'static Shape>) -> Option<&'static Shape> {
    match known.map(resolve) {
        Some(Shape::Array(item)) => Some(resolve(item)),
        _ => None,
    }
}

fn same_shape(a: Option<&'static Shape>, b: Option<&'static Shape>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => core::ptr::eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// `Shape::accepts` of one piece (already known to have the shape `known`, when given); a shape
/// of a form it does not expect declines (`false`).
fn piece_accepts(shape: &'static Shape, known: Option<&'static Shape>, piece: &Piece<'_>) -> bool {
    let known_item = || match known.map(resolve) {
        Some(Shape::Array(item)) => Some(*item),
        _ => None,
    };
    match (piece, resolve(shape)) {
        (Piece::Value(v), _) => match known {
            Some(k) => accepts_known(shape, k, v),
            None => shape.accepts(v),
        },
        (Piece::Merged(list), _) => list.iter().all(|p| match known {
            Some(k) => accepts_known(shape, k, p),
            None => shape.accepts(p),
        }),
        (Piece::Str(s), Shape::Const(c)) => c == s,
        (Piece::Str(_), Shape::Str) => true,
        (Piece::Str(s), Shape::Enum(set)) => set.contains(s),
        (Piece::Number(n), Shape::ConstNumber(m)) => n == m,
        (Piece::Number(_), Shape::Number) => true,
        (Piece::Number(n), Shape::Integer { min, max }) => (*min..=*max).contains(&i64::from(*n)),
        (Piece::One(p), Shape::Array(item)) => match known_item() {
            Some(k) => accepts_known(item, k, p),
            None => item.accepts(p),
        },
        (Piece::SendEntry(d), Shape::Array(item)) => object_fields(item).is_some_and(|fields| {
            object_accepts(
                fields,
                known_item().and_then(object_fields),
                0,
                d.iter()
                    .map(|(k, v)| (k.as_str(), Piece::Value(v)))
                    .chain([("payloadIndex", Piece::Number(0))]),
            )
        }),
        _ => false,
    }
}

/// `target.accepts(v)` for a value `v` already known to have the shape `known`: where the two
/// shapes are one and the same static shape, the answer is known and nothing is walked; objects
/// and arrays are walked only down to the parts whose shapes differ (a target version's shape
/// reuses most of the current version's parts).
fn accepts_known(target: &'static Shape, known: &'static Shape, v: &Value) -> bool {
    let (t, k) = (resolve(target), resolve(known));
    if core::ptr::eq(t, k) {
        return true;
    }
    match (t, k) {
        (Shape::Array(t), Shape::Array(k)) => v.as_array().is_some_and(|a| a.iter().all(|x| accepts_known(t, k, x))),
        (Shape::Object(t), Shape::Object(k)) => v
            .as_object()
            .is_some_and(|m| object_accepts(t, Some(k), 0, m.iter().map(|(key, x)| (key.as_str(), Piece::Value(x))))),
        _ => target.accepts(v),
    }
}

/// Whether the view's value, at `version`, has that version's frozen shape; `known` is a version
/// whose shape it is already known to have. When that is the current version, the shapes decide
/// what needs no walk ([`Subsumed`]): a value holding no field whose current shape may not fit
/// the target's is accepted outright, and otherwise only those fields are walked.
fn accepts(wire: &Wire<'_>, version: u32, known: Option<u32>) -> bool {
    let kind = match wire {
        Wire::Control(map) => crate::shape::find_key(map, "kind").and_then(Value::as_str).unwrap_or(""),
        Wire::Deliver(_) => "deliver",
    };
    let facts = known.filter(|k| *k == WIRE_VERSION).and_then(|_| subsumed_at(version, kind));
    if let Some(facts) = facts.filter(|f| f.whole) {
        if facts.unfit.iter().all(|(k, keys)| absent_or_lacks(wire, k, keys.as_deref())) {
            debug_assert!(accepts(wire, version, None), "the shapes said {kind} needs no walk");
            return true;
        }
    }
    let fit = facts.map_or(0, |f| f.fit);
    let version_piece = ("version", Piece::Number(version));
    let Some(fields) = facts.map(|f| f.fields).or_else(|| variant_at(version, kind)) else {
        return false;
    };
    let known = known.and_then(|k| variant_at(k, kind));
    match wire {
        Wire::Control(map) => object_accepts(
            fields,
            known,
            fit,
            map.iter()
                .map(|(k, v)| (k.as_str(), Piece::Value(v)))
                .chain([version_piece]),
        ),
        Wire::Deliver(d) => object_accepts(fields, known, fit, deliver_pieces(d, version)),
    }
}

/// What the shapes alone decide about one variant of an older version's wire shape, for a value
/// the current version's variant of the same kind already accepted.
struct Subsumed {
    /// The target version.
    version: u32,
    /// The variant's kind.
    kind: &'static str,
    /// The target variant.
    fields: &'static Fields,
    /// Bit `i` set: the current variant declares `fields.fields[i]` with a shape that fits it
    /// (`shape::fits`: every value the current shape accepts there, the target's accepts too), or
    /// it is `version`, whose piece is always the target's own number.
    fit: u64,
    /// The current variant's fields a value may hold that the target may refuse: declared with a
    /// shape that does not fit the target's, or not declared by a strict target. Each with the
    /// keys it must lack to fit nonetheless (`shape::fits_without`), or `None`: it must be absent.
    unfit: Vec<(&'static str, Option<Vec<&'static str>>)>,
    /// Whether the target accepts every value of the current variant whose `unfit` fields are
    /// absent or lack their keys: the current variant is strict, and each field the target
    /// requires, the current one requires.
    whole: bool,
}

/// The [`Subsumed`] facts of every variant of every older version, computed once per build.
fn subsumed() -> &'static [Subsumed] {
    SUBSUMED.get_or_init(|| {
        let current = producer_version(WIRE_VERSION).wire;
        let mut table = Vec::new();
        for version in 1..WIRE_VERSION {
            let Shape::Tagged { variants, .. } = resolve(producer_version(version).wire) else {
                continue;
            };
            for fields in variants.iter().filter_map(|v| object_fields(v)) {
                let kind = field(fields, "kind").and_then(|f| match resolve(f.shape) {
                    Shape::Const(c) => Some(*c),
                    _ => None,
                });
                let Some((kind, known)) = kind.and_then(|k| Some((k, variant(current, k)?))) else {
                    continue;
                };
                let fits_at = |f: &'static crate::shape::Field| match f.name {
                    "version" => piece_accepts(f.shape, None, &Piece::Number(version)),
                    name => field(known, name).is_some_and(|k| crate::shape::fits(k.shape, f.shape)),
                };
                let fit = fields.fields.iter().take(64).enumerate().fold(0u64, |mask, (i, f)| {
                    mask | (u64::from(fits_at(f)) << i)
                });
                let unfit = known
                    .fields
                    .iter()
                    .filter_map(|k| match field(fields, k.name) {
                        Some(f) if fits_at(f) => None,
                        Some(f) if f.name != "version" => Some((k.name, crate::shape::fits_without(k.shape, f.shape))),
                        Some(_) => Some((k.name, None)),
                        None => fields.strict.then_some((k.name, None)),
                    })
                    .collect();
                let whole = known.strict
                    && fields
                        .fields
                        .iter()
                        .filter(|f| f.required)
                        .all(|f| field(known, f.name).is_some_and(|k| k.required));
                table.push(Subsumed { version, kind, fields, fit, unfit, whole });
            }
        }
        table
    })
}

/// The [`Subsumed`] facts of the variant `kind` of version `version`.
fn subsumed_at(version: u32, kind: &str) -> Option<&'static Subsumed> {
    subsumed()
        .iter()
        .find(|s| s.version == version && crate::shape::same_key(s.kind, kind))
}

/// Whether the view's field `key` is absent, or (with `keys`) present and lacking every one of
/// `keys` at its top ([`Subsumed::unfit`]).
fn absent_or_lacks(wire: &Wire<'_>, key: &str, keys: Option<&[&str]>) -> bool {
    let lacks = |v: &Value| keys.is_some_and(|keys| crate::shape::lacks(v, keys));
    let d = match wire {
        Wire::Control(map) => return key != "version" && map.get(key).is_none_or(lacks),
        Wire::Deliver(d) => d,
    };
    match key {
        "kind" | "version" => false,
        "payload" => match d.mirror {
            Mirror::Same(p) => lacks(p),
            Mirror::Merged(list) => list.iter().all(lacks),
        },
        "payloads" => match d.payloads {
            Payloads::One(p) | Payloads::List(p) => lacks(p),
        },
        "deliveryMetadata" => match &d.entries {
            None => true,
            // The entry written is `m` with `payloadIndex`.
            Some(Entries::Send(m)) => {
                keys.is_some_and(|keys| !keys.iter().any(|k| *k == "payloadIndex" || m.contains_key(*k)))
            }
            Some(Entries::List(l)) => lacks(l),
        },
        _ => CARRIED_KEYS
            .iter()
            .zip(d.carried)
            .all(|(k, v)| *k != key || v.is_none_or(lacks)),
    }
}

/// The fields of a `deliver` view's value at `version`, as pieces, in the order every version's
/// `deliver` declares its fields (so that each is found at the field after the one before it,
/// `FieldCursor`), but for `payload` before `payloads`: the mirror of a send is its payload,
/// then known accepted as `payloads`' one item (`object_accepts`).
fn deliver_pieces<'a>(d: &'a Deliver<'_>, version: u32) -> impl Iterator<Item = (&'a str, Piece<'a>)> + 'a {
    let [auth, caller, request_id, task_delivery_id, turn_policy] = d.carried;
    let carried = |key, v: Option<&'a Value>| v.map(|v| (key, Piece::Value(v)));
    let payload = match d.mirror {
        Mirror::Same(p) => Piece::Value(p),
        Mirror::Merged(list) => Piece::Merged(list),
    };
    let payloads = match (d.payloads.only(), d.payloads) {
        // `[p]`, a send's or a deliver's of one: checked once with the mirror when that is `p`.
        (Some(p), _) => Piece::One(p),
        (None, Payloads::One(p) | Payloads::List(p)) => Piece::Value(p),
    };
    let entries = d.entries.as_ref().map(|e| match e {
        Entries::Send(m) => ("deliveryMetadata", Piece::SendEntry(m)),
        Entries::List(l) => ("deliveryMetadata", Piece::Value(l)),
    });
    [
        Some(("kind", Piece::Str("deliver"))),
        Some(("version", Piece::Number(version))),
        Some(("payload", payload)),
        Some(("payloads", payloads)),
        carried("auth", auth),
        carried("caller", caller),
        entries,
        carried("requestId", request_id),
        carried("taskDeliveryId", task_delivery_id),
        carried("turnPolicy", turn_policy),
    ]
    .into_iter()
    .flatten()
}

/// One field of a delivery's wire value, as [`wire_fields`] lists it.
enum Field<'a> {
    /// A value of the command, as it is.
    Value(&'a Value),
    /// A string the encoder adds (`kind`).
    Str(&'static str),
    /// A number the encoder adds (`version`).
    Number(u32),
    /// An entry of the command, a key left out where one is named: a v0 send's `delivery`.
    Entry(&'a Map<String, Value>, Option<&'static str>),
    /// A send's `deliveryMetadata`: `[{...delivery, payloadIndex: 0}]`.
    SendEntries(&'a Map<String, Value>),
    /// The mirror (`payload`).
    Mirror(Mirror<'a>),
    /// `payloads`.
    Payloads(Payloads<'a>),
}

/// A field of [`wire_fields`]: its key, the key's canonical text (`"key":`, made at compile
/// time) and what goes there.
macro_rules! at {
    ($key:literal, $field:expr) => {
        ($key, key_text!($key), $field)
    };
}

/// The fields of the delivery `d`'s wire value for `target`, each with its key and the key's
/// text, in canonical key order (every key is a declared ASCII key, so byte order is UTF-16
/// order), the v0 conversions as `v0.rs` makes them. The one layout of the short way's value:
/// the canonical text ([`write_wire`]) and the serialization ([`Encoded`]) both write it.
fn wire_fields<'a>(d: &'a Deliver<'a>, target: Target) -> impl Iterator<Item = (&'static str, &'static str, Field<'a>)> + 'a {
    let (version, send) = match target {
        Target::Version(n) => (Some(n), false),
        Target::V0(v) => (None, v == V0Variant::Send),
    };
    let [auth, caller, request_id, task_delivery_id, turn_policy] = d.carried;
    let entries = match (&d.entries, send) {
        (None, _) => None,
        (Some(Entries::Send(e)), false) => Some(at!("deliveryMetadata", Field::SendEntries(e))),
        (Some(Entries::Send(e)), true) => Some(at!("delivery", Field::Entry(e, None))),
        (Some(Entries::List(l)), false) => Some(at!("deliveryMetadata", Field::Value(l))),
        (Some(Entries::List(l)), true) => first_payload_entry(l).map(|e| at!("delivery", Field::Entry(e, Some("payloadIndex")))),
    };
    let kind = if send { v0::RAW_SEND } else { "deliver" };
    [
        auth.map(|v| at!("auth", Field::Value(v))),
        caller.map(|v| at!("caller", Field::Value(v))),
        entries,
        Some(at!("kind", Field::Str(kind))),
        (version.is_some() || send).then_some(at!("payload", Field::Mirror(d.mirror))),
        (!send).then_some(at!("payloads", Field::Payloads(d.payloads))),
        request_id.map(|v| at!("requestId", Field::Value(v))),
        task_delivery_id.map(|v| at!("taskDeliveryId", Field::Value(v))),
        turn_policy.map(|v| at!("turnPolicy", Field::Value(v))),
        version.map(|n| at!("version", Field::Number(n))),
    ]
    .into_iter()
    .flatten()
}

/// Write the view's value for `target` as canonical JSON: keys in UTF-16 order (every key
/// written here is a declared ASCII key, so map order is that order), the v0 conversions as
/// `v0.rs` makes them.
fn write_wire(wire: &Wire<'_>, target: Target, out: &mut String) {
    let version = match target {
        Target::Version(n) => Some(n),
        Target::V0(_) => None,
    };
    match wire {
        Wire::Control(map) => write_object(map.iter(), version.map(|n| ("version", n)), out),
        Wire::Deliver(d) => {
            let mut fields = Members::object(out);
            // The mirror's text, when `payloads` is `[mirror]`: copied rather than written again.
            let mut mirror_text = None;
            for (_, key, field) in wire_fields(d, target) {
                let out = fields.key_text(key);
                match field {
                    Field::Value(v) => write_value(v, out),
                    Field::Str(s) => write_str(s, out),
                    Field::Number(n) => write_u64(n.into(), out),
                    Field::Entry(e, without) => write_object(e.iter().filter(|(k, _)| Some(k.as_str()) != without), None, out),
                    Field::SendEntries(e) => {
                        out.push('[');
                        write_object(e.iter(), Some(("payloadIndex", 0)), out);
                        out.push(']');
                    }
                    Field::Mirror(mirror) => {
                        let start = out.len();
                        match mirror {
                            Mirror::Same(p) => write_value(p, out),
                            Mirror::Merged(list) => {
                                build::write_coalesced(list, out);
                                debug_assert_eq!(
                                    out[start..],
                                    crate::canonical::to_string(&build::coalesce_list(list)),
                                    "the merge written from its parts is not the merge's text"
                                );
                            }
                        }
                        mirror_text = Some(start..out.len());
                    }
                    Field::Payloads(payloads) => {
                        match (payloads.only(), mirror_text.clone()) {
                            (Some(p), Some(range)) if matches!(d.mirror, Mirror::Same(m) if core::ptr::eq(m, p)) => {
                                out.push('[');
                                let text = &out[range.clone()]; // panics unless on character boundaries
                                debug_assert!(!text.is_empty());
                                // SAFETY: the bytes appended are those of `out[range]`, a `str` slice (the
                                // line above checks its boundaries), so `out` stays UTF-8. (What
                                // `String::extend_from_within` does, which is newer than this crate's MSRV.)
                                unsafe { out.as_mut_vec() }.extend_from_within(range);
                                out.push(']');
                            }
                            (Some(p), _) => {
                                out.push('[');
                                write_value(p, out);
                                out.push(']');
                            }
                            (None, _) => {
                                if let Payloads::List(l) = payloads {
                                    write_value(l, out);
                                }
                            }
                        }
                    }
                }
            }
            fields.out.push('}');
        }
    }
}

/// The delivery entry of a `deliveryMetadata` list for payload 0 (what a v0 send's `delivery`
/// is made of), if it is an object.
fn first_payload_entry(list: &Value) -> Option<&Map<String, Value>> {
    list.as_array()?
        .iter()
        .find(|e| e.get("payloadIndex").and_then(Value::as_f64) == Some(0.0))?
        .as_object()
}

/// A map's entries (in key order) with one number field merged in at its place.
fn write_object<'a>(
    entries: impl Iterator<Item = (&'a String, &'a Value)>,
    extra: Option<(&str, u32)>,
    out: &mut String,
) {
    let mut fields = Members::object(out);
    let mut extra = extra;
    for (k, v) in entries {
        if let Some((name, n)) = extra.filter(|(name, _)| key_before(name, k)) {
            write_u64(n.into(), fields.key(name));
            extra = None;
        }
        write_value(v, fields.key(k));
    }
    if let Some((name, n)) = extra {
        write_u64(n.into(), fields.key(name));
    }
    fields.out.push('}');
}

/// Whether the key `a` sorts before `b` (byte order), compared inline: keys are short.
#[inline]
fn key_before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) => x < y,
        None => a.len() < b.len(),
    }
}

/// The wire value for `target` of a command [`fast_checks`] took, built by moving the command's
/// parts: what the long way builds, without its intermediate maps.
fn fast_value(command: Value, target: Target) -> Value {
    let Value::Object(mut cmd) = command else {
        return Value::Null;
    };
    let version = match target {
        Target::Version(n) => Some(n),
        Target::V0(_) => None,
    };
    let send = target == Target::V0(V0Variant::Send);
    let kind = cmd.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind != "send" && kind != "deliver" {
        if let Some(n) = version {
            cmd.insert("version".into(), n.into());
        }
        return Value::Object(cmd);
    }
    let mut out = Map::new();
    let (payloads, mirror, entries) = if kind == "send" {
        let payload = cmd.remove("payload").unwrap_or(Value::Null);
        let entries = cmd.remove("delivery").map(|d| match (d, send) {
            (Value::Object(mut e), false) => {
                e.insert("payloadIndex".into(), 0.into());
                Value::Array(vec![Value::Object(e)])
            }
            (d, _) => d,
        });
        match (send, version) {
            (true, _) => (None, payload, entries),
            (false, Some(_)) => (Some(Value::Array(vec![payload.clone()])), payload, entries),
            (false, None) => (Some(Value::Array(vec![payload])), Value::Null, entries),
        }
    } else {
        let payloads = cmd.remove("payloads").unwrap_or(Value::Null);
        let entries = cmd.remove("deliveryMetadata");
        match (send, version) {
            (true, _) => {
                let mirror = match payloads {
                    Value::Array(mut list) if list.len() == 1 => list.swap_remove(0),
                    Value::Array(list) => build::coalesce_list(&list),
                    other => other,
                };
                let delivery = match entries {
                    Some(Value::Array(list)) => list
                        .into_iter()
                        .find(|e| e.get("payloadIndex").and_then(Value::as_f64) == Some(0.0))
                        .map(|mut e| {
                            if let Some(e) = e.as_object_mut() {
                                e.remove("payloadIndex");
                            }
                            e
                        }),
                    _ => None,
                };
                (None, mirror, delivery)
            }
            (false, Some(_)) => {
                let m = build::coalesce_list(payloads.as_array().map_or(&[][..], Vec::as_slice));
                (Some(payloads), m, entries)
            }
            (false, None) => (Some(payloads), Value::Null, entries),
        }
    };
    out.insert("kind".into(), Value::from(if send { v0::RAW_SEND } else { "deliver" }));
    if let Some(p) = payloads {
        out.insert("payloads".into(), p);
    }
    if version.is_some() || send {
        out.insert("payload".into(), mirror);
    }
    if let Some(e) = entries {
        out.insert((if send { "delivery" } else { "deliveryMetadata" }).into(), e);
    }
    for key in CARRIED_KEYS {
        if let Some(v) = cmd.remove(key) {
            out.insert(key.into(), v);
        }
    }
    if let Some(n) = version {
        out.insert("version".into(), n.into());
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::{encode, Target, V0Variant};
    use crate::error::ErrorCode;
    use crate::session_inbox::WIRE_VERSION;
    use serde_json::json;

    /// A target's number (`read_target`, `encode_to`) is its index in the family's `targets`,
    /// which name the targets of `Target::all` in its order; no other number is a target.
    #[test]
    fn a_targets_number_is_its_index_among_the_familys_targets() {
        let names = crate::session_inbox::FAMILY.targets;
        assert_eq!(Target::all().len(), names.len());
        for (i, t) in Target::all().into_iter().enumerate() {
            assert_eq!((t.index(), names[i]), (i, t.name().as_str()));
            assert_eq!(Target::at(i), Ok(t));
            assert_eq!(super::read_target(&t.to_json()), Ok(i));
        }
        assert_eq!(Target::at(names.len()).unwrap_err().code, ErrorCode::UnsupportedTarget);
        assert_eq!(Target::at(usize::MAX).unwrap_err().code, ErrorCode::UnsupportedTarget);
    }

    /// `prepare` makes every table the encoder keeps once made: a caller whose memory lives per
    /// call (the wasm encoder's arena) runs it first, outside that memory. (These two are the
    /// family's only ones: `tests/tidy.rs` lists every table kept for good.)
    #[test]
    fn prepare_makes_the_tables_the_encoder_keeps() {
        super::prepare();
        assert!(super::VARIANTS.get().is_some_and(|t| !t.is_empty()));
        assert!(super::SUBSUMED.get().is_some_and(|t| !t.is_empty()));
    }

    /// Every command of the encode fixtures, and commands that make each `down` step change
    /// something: the short way answers exactly what the long way answers, as values and as text.
    #[test]
    fn the_short_way_answers_what_the_long_way_answers() {
        use super::{encode_answer_into, encode_built, encode_owned, encode_to_string, encode_typed, view_checked};
        use crate::engine::answer::error_json;
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/session-inbox");
        let mut commands = Vec::new();
        for dir in ["encode", "encode-v6"] {
            for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                let case: serde_json::Value = serde_json::from_str(&text).unwrap();
                commands.push(case["command"].clone());
            }
        }
        let caller = json!({"callId": "c", "subagentName": "s", "replyTo": {"kind": "hook", "token": "t"}});
        let mut observed = caller.clone();
        observed["activityObserver"] = json!({"sink": {"url": "u", "version": 1}});
        let entry = json!({"channelKind": "k", "channelName": "n", "deliveryId": "d"});
        let mut accepted = entry.clone();
        accepted["acceptedDeploymentId"] = json!("dpl");
        let payload = json!({"message": "m", "\u{ff61}": 1, "\u{1f600}": {"é": [1.5, -0.0, 1e21]}});
        let usage = json!({"views": [{"usage": {"costUsd": 1, "tokens": 2}}]});
        for c in [&caller, &observed] {
            commands.push(json!({"kind": "send", "payload": payload, "caller": c}));
            commands.push(json!({"kind": "deliver", "payloads": [payload, payload], "caller": c}));
        }
        for e in [&entry, &accepted] {
            commands.push(json!({"kind": "send", "payload": payload, "delivery": e}));
            let mut second = e.clone();
            second["payloadIndex"] = json!(1);
            let mut first = e.clone();
            first["payloadIndex"] = json!(0.0);
            commands.push(json!({"kind": "deliver", "payloads": [{}, payload], "deliveryMetadata": [second, first]}));
        }
        for task in [usage, json!({"inputRequests": []}), json!({"agentRequests": []})] {
            commands.push(json!({"kind": "send", "payload": {"task": task}}));
            commands.push(json!({"kind": "deliver", "payloads": [{"task": task}, {}]}));
        }
        for tasks in [true, false] {
            commands.push(json!({"kind": "cancel", "tasks": tasks, "turnId": "t"}));
        }
        commands.push(json!({"kind": "send", "payload": payload, "stray": 1, "auth": null, "turnPolicy": "queue"}));
        commands.push(json!({"kind": "deliver", "payloads": []}));
        // Merged mirrors, written from their parts: every way messages join, arrays and task keys
        // concatenated, adapter keys (one sorting differently in UTF-16) the last payload's.
        let part = json!({"type": "text", "text": "p\n\"q\""});
        for messages in [
            json!(["a", "b\u{1}", "c"]),
            json!(["", [part]]),
            json!(["a", [part]]),
            json!(["a", "", [part], "", "z", [part, part]]),
            json!([[part], "x", ""]),
            json!([[], ""]),
        ] {
            let payloads: Vec<serde_json::Value> = messages
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    json!({"message": m, "context": [format!("c{i}")], "\u{ff61}": i, "\u{1f600}": [i], "task": {"authorizationEvents": [], "views": [{"i": i}]}})
                })
                .collect();
            commands.push(json!({"kind": "deliver", "payloads": payloads}));
            let mut sparse = payloads.clone();
            sparse.insert(1, json!({"outputSchema": {"o": 1}, "inputResponses": [{"requestId": "r"}]}));
            commands.push(json!({"kind": "deliver", "payloads": sparse}));
        }
        // Refusals the short way names itself: a failing field, a missing one, an undeclared key.
        for bad in [
            json!({"kind": "deliver", "payloads": [{"message": [{"type": "text", "text": 1}]}]}),
            json!({"kind": "deliver", "payloads": [payload, {"task": {"files": ["a"]}}], "taskDeliveryId": "t"}),
            json!({"kind": "send", "payload": payload, "delivery": {"channelKind": "x"}}),
            json!({"kind": "send", "payload": payload, "caller": {"callId": "c"}, "turnPolicy": "now"}),
            json!({"kind": "send", "payload": 1, "auth": {}}),
            json!({"kind": "deliver", "payloads": [{}], "turnPolicy": 1, "auth": 2}),
            json!({"kind": "reset", "reason": 1}),
            json!({"kind": "cancel", "tasks": "yes", "stray": 1}),
            json!({"kind": "clear", "stray": 1}),
        ] {
            commands.push(bad);
        }
        let (mut short, mut refused) = (0, 0);
        for command in &commands {
            for target in Target::all() {
                match view_checked(command, target) {
                    Some(Ok(_)) => short += 1,
                    Some(Err(_)) => refused += 1,
                    None => {}
                }
                let long = encode_built(command.clone(), target);
                let long_answer = match &long {
                    Ok(wire) => json!({ "ok": wire }),
                    Err(e) => json!({ "error": error_json(e) }),
                };
                let at = format!("{command} for {}", target.name());
                let owned = encode_owned(command.clone(), target);
                assert_eq!(owned.as_ref().ok(), long.as_ref().ok(), "{at}");
                assert_eq!(
                    owned.err().map(|e| error_json(&e)),
                    long.as_ref().err().map(error_json),
                    "{at}"
                );
                let text = encode_to_string(command, target);
                assert_eq!(text.ok(), long.as_ref().ok().map(crate::canonical::to_string), "{at}");
                // The typed wire value: the same value serialized (serde) and turned into a
                // value, the same canonical text written, the same refusal.
                match encode_typed(command, target) {
                    Ok(typed) => {
                        let long = long.as_ref().expect("the long way refused what the typed way took");
                        assert_eq!(&serde_json::to_value(&typed).unwrap(), long, "{at}");
                        let serialized: serde_json::Value = serde_json::from_str(&serde_json::to_string(&typed).unwrap()).unwrap();
                        assert_eq!(&serialized, long, "{at}");
                        let mut written = String::new();
                        typed.write(&mut written);
                        assert_eq!(written, crate::canonical::to_string(long), "{at}");
                        assert_eq!(&typed.into_value(), long, "{at}");
                    }
                    Err(e) => assert_eq!(Some(error_json(&e)), long.as_ref().err().map(error_json), "{at}"),
                }
                let mut answer = String::new();
                encode_answer_into(command, &target.to_json(), &mut answer);
                assert_eq!(answer, crate::canonical::to_string(&long_answer), "{at}");
            }
        }
        // A new version turns the short way off until it is taught that version's `down` step.
        if super::WIRE_VERSION == super::SHORT_WAY_VERSION {
            assert!(short > commands.len() * 2, "the short way took only {short} encodes");
            assert!(refused > 0, "the short way refused nothing");
        }
    }

    /// The fields whose current shape fits version 1's: a payload (strict `task` into an opaque
    /// one) and the controls' fields, not a caller (`activityObserver`), a delivery entry
    /// (`acceptedDeploymentId`), a cancel (`tasks`) or `version`.
    #[test]
    fn the_fields_that_fit_version_1_are_skipped_there() {
        use super::{producer_version, subsumed_at, variant};
        let fitting = |kind: &str| {
            let facts = subsumed_at(1, kind).unwrap();
            let (fields, mask) = (facts.fields, facts.fit);
            assert!(core::ptr::eq(fields, variant(producer_version(1).wire, kind).unwrap()));
            assert!(facts.whole, "{kind}");
            let mut names: Vec<&str> =
                fields.fields.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, f)| f.name).collect();
            names.sort_unstable();
            names
        };
        // The exact lists below are facts of version 6 as the current version. Once a later
        // version is current they may not hold, and the change adding it may not edit this file
        // (`check --against`): only the table's structure is checked then.
        if super::WIRE_VERSION != 6 {
            for kind in ["deliver", "reset", "cancel", "clear"] {
                let _ = fitting(kind);
            }
            assert!(subsumed_at(super::WIRE_VERSION, "clear").is_none());
            return;
        }
        let deliver = fitting("deliver");
        for name in ["auth", "kind", "payload", "payloads", "requestId", "taskDeliveryId", "turnPolicy", "version"] {
            assert!(deliver.contains(&name), "{name} in {deliver:?}");
        }
        for name in ["caller", "deliveryMetadata"] {
            assert!(!deliver.contains(&name), "{name} in {deliver:?}");
        }
        // A current caller fits version 1's without `activityObserver`, a delivery entry without
        // `acceptedDeploymentId`; a cancel, without `tasks` (which version 1 does not declare).
        let unfit = |v, kind| subsumed_at(v, kind).unwrap().unfit.clone();
        assert_eq!(
            unfit(1, "deliver"),
            [("caller", Some(vec!["activityObserver"])), ("deliveryMetadata", Some(vec!["acceptedDeploymentId"]))]
        );
        assert_eq!(fitting("reset"), ["kind", "reason", "version"]);
        assert_eq!(fitting("cancel"), ["kind", "taskId", "turnId", "version"]);
        assert_eq!(unfit(1, "cancel"), [("tasks", None)]);
        assert!(unfit(1, "clear").is_empty());
        // The current version is never the target of the second check; versions 3 to 5 take
        // every current deliver, version 2 not a delivery entry's `acceptedDeploymentId`.
        assert!(subsumed_at(WIRE_VERSION, "clear").is_none());
        assert!(unfit(3, "deliver").is_empty());
        assert_eq!(unfit(2, "deliver"), [("deliveryMetadata", Some(vec!["acceptedDeploymentId"]))]);
    }

    #[test]
    fn targets_parse_strictly() {
        assert_eq!(
            Target::from_json(&json!({ "version": WIRE_VERSION })).unwrap(),
            Target::CURRENT
        );
        assert_eq!(Target::from_json(&json!({"version": 1})).unwrap(), Target::Version(1));
        assert_eq!(
            Target::from_json(&json!({"version": 0, "variant": "send"})).unwrap(),
            Target::V0(V0Variant::Send)
        );
        assert_eq!(Target::from_json(&json!({"version": 2.0})).unwrap(), Target::Version(2));
        for bad in [
            json!({ "version": WIRE_VERSION + 1 }),
            json!({"version": 1.5}),
            json!({"version": 0}),
            json!({"version": 1, "variant": "send"}),
            json!({"version": 1, "x": 1}),
            json!("v1"),
        ] {
            assert_eq!(
                Target::from_json(&bad).unwrap_err().code,
                ErrorCode::UnsupportedTarget,
                "{bad}"
            );
        }
        assert_eq!(
            encode(&json!({"kind": "clear"}), Target::Version(WIRE_VERSION + 1))
                .unwrap_err()
                .code,
            ErrorCode::UnsupportedTarget
        );
    }
}
