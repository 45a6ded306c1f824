//! The builder (contract §5.2, §12, §16): a command becomes the complete **current** wire value,
//! field by field, with the mirror computed by [`coalesce`]. Validation happens afterwards, once,
//! against the current shape (`encode.rs`); the builder only refuses what it cannot build.
//!
//! Commands are strict like envelopes: a `deliver` command's own `payload` or `version` is
//! `INVALID` (the encoder computes both), and so is a `payloadIndex` in a `send` command's
//! `delivery`. The one exception: unknown top-level keys of a `send` command are dropped.
//! This module must never import the decoder, a step or negotiation.

use crate::error::EncodeError;
use crate::removable::Removable;
use crate::session_inbox::WIRE_VERSION;
use crate::canonical::{utf8_order_is_utf16_order, write_str_contents, write_value, Members, Sink};
use crate::shape::{find_key, same_key};
use serde_json::{json, Map, Value};

/// The mirror (`payload` beside `payloads`) exists only for consumers of the raw-send era.
pub const MIRROR_REMOVAL: Removable = Removable {
    what: "the `payload` mirror (built in build::build, required from version 2, dropped by decode)",
    site: "src/families/session_inbox/build.rs",
    when: "every consumer that reads `.payload` (builds 0.30.5–0.31.0) has aged out under the 30-day session timeout, \
           and no stored value still carries a mirror a pinned consumer needs: then a new version without the mirror",
};

/// The commands this builder takes (contract §5.1).
pub const COMMAND_KINDS: &[&str] = &[
    "send",
    "deliver",
    "session-timeout",
    "clear",
    "compact",
    "reset",
    "cancel",
];


/// Build the complete, not yet validated current value for `command`, taking the command by
/// value so nothing is copied but the mirror.
pub fn build(command: Value) -> Result<Value, EncodeError> {
    let Value::Object(mut cmd) = command else {
        return Err(EncodeError::invalid("", "a command object"));
    };
    let mut out = match cmd.get("kind").and_then(Value::as_str) {
        Some("send") => build_send(cmd)?,
        Some("deliver") => {
            for computed in ["payload", "version"] {
                if cmd.contains_key(computed) {
                    return Err(EncodeError::invalid(
                        &format!("/{computed}"),
                        "no such key in a deliver command (the encoder computes the mirror and the version)",
                    ));
                }
            }
            if let Some(mirror) = cmd.get("payloads").and_then(coalesce) {
                cmd.insert("payload".into(), mirror);
            }
            cmd
        }
        Some(k) if COMMAND_KINDS.contains(&k) => {
            if cmd.contains_key("version") {
                return Err(EncodeError::invalid(
                    "/version",
                    "no such key in a command (the encoder writes the version)",
                ));
            }
            cmd
        }
        _ => return Err(EncodeError::not_a_command_kind(COMMAND_KINDS.iter().copied())),
    };
    out.insert("version".into(), json!(WIRE_VERSION));
    Ok(Value::Object(out))
}

fn build_send(mut cmd: Map<String, Value>) -> Result<Map<String, Value>, EncodeError> {
    // Its errors name the places SEND_PLACES maps: the command's payload, the wire's entry.
    let [(payload_at, _), (_, entry_at)] = SEND_PLACES;
    let Some(payload) = cmd.remove("payload") else {
        return Err(EncodeError::invalid(
            payload_at,
            "DeliverPayload (required by a send command)",
        ));
    };
    let mut out = Map::new();
    out.insert("kind".into(), json!("deliver"));
    if let Some(delivery) = cmd.remove("delivery") {
        let Value::Object(mut entry) = delivery else {
            return Err(EncodeError::invalid(
                entry_at,
                "DeliveryEntry (the send's delivery must be an object)",
            ));
        };
        if entry.contains_key("payloadIndex") {
            return Err(EncodeError::invalid(
                &format!("{entry_at}/payloadIndex"),
                "no such key in a send's delivery (the encoder sets payloadIndex 0)",
            ));
        }
        entry.insert("payloadIndex".into(), json!(0));
        out.insert("deliveryMetadata".into(), Value::Array(vec![Value::Object(entry)]));
    }
    for key in CARRIED_KEYS {
        if let Some(v) = cmd.remove(key) {
            out.insert(key.into(), v);
        }
    }
    out.insert("payload".into(), payload.clone());
    out.insert("payloads".into(), Value::Array(vec![payload]));
    Ok(out)
}

/// The mirror for a list of payloads: `{}` for none, the payload for one, a merge for several
/// (folded left to right). Tolerates invalid input (it runs before validation, which reports it).
pub fn coalesce(payloads: &Value) -> Option<Value> {
    payloads.as_array().map(|list| coalesce_list(list))
}

/// How the mirror merges a key that several payloads hold (contract §5.2): the one table that both
/// the merge ([`coalesce_list`]) and its writer ([`write_coalesced`]) follow.
#[derive(Clone, Copy)]
enum Merge {
    /// Arrays, one after the other (`context`, `inputResponses`).
    Concat,
    /// Tasks: their keys merged, the arrays under one key one after the other.
    Task,
    /// Messages, joined ([`join_messages`]).
    Message,
    /// The last payload's value.
    Last,
}

impl Merge {
    fn of(key: &str) -> Merge {
        match key {
            "context" | "inputResponses" => Merge::Concat,
            "task" => Merge::Task,
            "message" => Merge::Message,
            _ => Merge::Last,
        }
    }
}

/// [`coalesce`] of the payloads `list`.
pub fn coalesce_list(list: &[Value]) -> Value {
    if list.len() == 1 {
        return list[0].clone();
    }
    let mut acc = Map::new();
    for p in list.iter().filter_map(Value::as_object) {
        for (key, v) in p {
            let merged = match (Merge::of(key), acc.remove(key)) {
                (Merge::Concat, Some(Value::Array(mut a))) if v.is_array() => {
                    a.extend(v.as_array().into_iter().flatten().cloned());
                    Value::Array(a)
                }
                (Merge::Task, Some(Value::Object(mut t))) if v.is_object() => {
                    for (tk, tv) in v.as_object().into_iter().flatten() {
                        let joined = match (t.remove(tk), tv) {
                            (Some(Value::Array(mut a)), Value::Array(b)) => {
                                a.extend(b.iter().cloned());
                                Value::Array(a)
                            }
                            _ => tv.clone(),
                        };
                        t.insert(tk.clone(), joined);
                    }
                    Value::Object(t)
                }
                (Merge::Message, Some(previous)) => join_messages(previous, v),
                _ => v.clone(),
            };
            acc.insert(key.clone(), merged);
        }
    }
    Value::Object(acc)
}

/// The canonical text of [`coalesce_list`] of several payloads, each of which the current
/// payload shape accepts, written from the payloads themselves: nothing of the merge is built.
/// Each key merges as `Merge::of` says, as in [`coalesce_list`], here for valid payloads (every
/// `context`, `inputResponses` and task key an array, every task an object, every message a
/// string or an array): arrays under one key are written one after the other, a run of string
/// messages is written as the one string it joins to, and any other key is the last payload's
/// value. The payloads' entries are sorted once, in one vector: no key is looked up.
pub fn write_coalesced(list: &[Value], out: &mut String) {
    let entries = sorted_entries(list.iter().filter_map(Value::as_object));
    let mut fields = Members::object(out);
    for run in key_runs(&entries) {
        let (key, last) = run[run.len() - 1];
        let present = run.iter().map(|(_, v)| *v);
        let out = fields.key(key);
        match Merge::of(key) {
            Merge::Concat => write_joined_arrays(present, out),
            Merge::Task => {
                let tasks = sorted_entries(present.filter_map(Value::as_object));
                let mut task = Members::object(out);
                for run in key_runs(&tasks) {
                    write_joined_arrays(run.iter().map(|(_, v)| *v), task.key(run[0].0));
                }
                task.out.push('}');
            }
            Merge::Message => write_joined_messages(run, out),
            Merge::Last => write_value(last, out),
        }
    }
    fields.out.push('}');
}

/// [`write_coalesced`] given to `sink` member by member (`Encoded::emit`'s mirror of several
/// payloads), in the same layout: the payloads' keys and values go to the sink as the command's
/// own (the answer's tape names them by address), and only a run of several string messages
/// makes a string (the one they join to). Nothing else of the merge is built.
pub fn emit_coalesced(list: &[Value], sink: &mut dyn Sink) {
    let entries = sorted_entries(list.iter().filter_map(Value::as_object));
    sink.object(key_runs(&entries).count());
    for run in key_runs(&entries) {
        let (key, last) = run[run.len() - 1];
        let present = run.iter().map(|(_, v)| *v);
        sink.key(key);
        match Merge::of(key) {
            Merge::Concat => emit_joined_arrays(present, sink),
            Merge::Task => {
                let tasks = sorted_entries(present.filter_map(Value::as_object));
                sink.object(key_runs(&tasks).count());
                for run in key_runs(&tasks) {
                    sink.key(run[0].0);
                    emit_joined_arrays(run.iter().map(|(_, v)| *v), sink);
                }
            }
            Merge::Message => emit_joined_messages(run, sink),
            Merge::Last => sink.value(last),
        }
    }
}

/// The entries of `maps`, in canonical key order (UTF-16 order: map order but where a key holds
/// a character from U+E000 on), the entries of one key in the order of their maps (the sort is
/// stable): one vector, nothing looked up again.
fn sorted_entries<'m>(maps: impl Iterator<Item = &'m Map<String, Value>> + Clone) -> Vec<(&'m str, &'m Value)> {
    let mut entries = Vec::with_capacity(maps.clone().map(Map::len).sum());
    for m in maps {
        entries.extend(m.iter().map(|(k, v)| (k.as_str(), v)));
    }
    sort_entries(&mut entries);
    entries
}

/// [`sorted_entries`]'s sort, one function whatever the maps come from (the sort's code is
/// large, and made once per caller of a generic function).
fn sort_entries(entries: &mut [(&str, &Value)]) {
    if entries.iter().all(|(k, _)| utf8_order_is_utf16_order(k)) {
        entries.sort_by(|a, b| a.0.cmp(b.0));
    } else {
        entries.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    }
}

/// The entries of [`sorted_entries`] of one key each, in order: the merge's members.
fn key_runs<'e, 'm>(entries: &'e [(&'m str, &'m Value)]) -> impl Iterator<Item = &'e [(&'m str, &'m Value)]> {
    entries.chunk_by(|a, b| same_key(a.0, b.0))
}

/// Arrays under one key, concatenated, as one array's text.
fn write_joined_arrays<'v>(arrays: impl Iterator<Item = &'v Value>, out: &mut String) {
    out.push('[');
    let mut first = true;
    for x in arrays.filter_map(Value::as_array).flatten() {
        if !first {
            out.push(',');
        }
        first = false;
        write_value(x, out);
    }
    out.push(']');
}

/// Arrays under one key, concatenated, given to `sink` as one array.
fn emit_joined_arrays<'v>(arrays: impl Iterator<Item = &'v Value> + Clone, sink: &mut dyn Sink) {
    let items = || arrays.clone().filter_map(Value::as_array).flatten();
    sink.array(items().count());
    items().for_each(|x| sink.value(x));
}

/// What the messages of one key (strings or part arrays, in payload order) join to:
/// [`join_messages`] folded over them. Strings alone join with a blank line; once an array comes,
/// what came before is promoted (one text part, or none for an empty string) and every later
/// string becomes a part.
enum Joined<'e, 'v> {
    /// One message: itself.
    One(&'v Value),
    /// Strings alone: the one string they join to ([`Part::Text`]'s text).
    Text(&'e [(&'v str, &'v Value)]),
    /// A part array: [`message_parts`] of these messages, whose first `.1` are strings.
    Parts(&'e [(&'v str, &'v Value)], usize),
}

/// One item of a joined message's part array.
#[derive(Clone, Copy)]
enum Part<'e, 'v> {
    /// `{"text": …, "type": "text"}`, its text the messages' strings joined with a blank line.
    Text(&'e [(&'v str, &'v Value)]),
    /// A part of a message's own array.
    Item(&'v Value),
}

fn joined_messages<'e, 'v>(messages: &'e [(&'v str, &'v Value)]) -> Joined<'e, 'v> {
    let strings = messages.iter().take_while(|(_, m)| m.is_string()).count();
    match messages {
        [(_, one)] => Joined::One(one),
        _ if strings == messages.len() => Joined::Text(messages),
        _ => Joined::Parts(messages, strings),
    }
}

/// The part array of [`Joined::Parts`]: the leading `strings` messages as one text part (none
/// for a lone empty string), then every later array's items and every later non-empty string
/// as a text part of its own.
fn message_parts<'e, 'v>(messages: &'e [(&'v str, &'v Value)], strings: usize) -> impl Iterator<Item = Part<'e, 'v>> + Clone {
    let head = match &messages[..strings] {
        [] => None,
        [(_, one)] if one.as_str() == Some("") => None,
        run => Some(Part::Text(run)),
    };
    let later = messages[strings..].iter().flat_map(|entry| {
        let (items, text): (&'v [Value], _) = match entry.1 {
            Value::Array(items) => (items, None),
            Value::String(s) if s.is_empty() => (&[], None),
            _ => (&[], Some(Part::Text(core::slice::from_ref(entry)))),
        };
        items.iter().map(Part::Item).chain(text)
    });
    head.into_iter().chain(later)
}

/// The messages of one key as text ([`joined_messages`]).
fn write_joined_messages(messages: &[(&str, &Value)], out: &mut String) {
    let joined = |out: &mut String, run: &[(&str, &Value)]| {
        out.push('"');
        for (i, (_, m)) in run.iter().enumerate() {
            if i > 0 {
                out.push_str("\\n\\n");
            }
            write_str_contents(m.as_str().unwrap_or(""), out);
        }
        out.push('"');
    };
    match joined_messages(messages) {
        Joined::One(one) => write_value(one, out),
        Joined::Text(run) => joined(out, run),
        Joined::Parts(messages, strings) => {
            let mut parts = Members::array(out);
            for part in message_parts(messages, strings) {
                let out = parts.item();
                match part {
                    Part::Text(run) => {
                        out.push_str("{\"text\":");
                        joined(out, run);
                        out.push_str(",\"type\":\"text\"}");
                    }
                    Part::Item(x) => write_value(x, out),
                }
            }
            parts.out.push(']');
        }
    }
}

/// The messages of one key given to `sink` ([`joined_messages`]): a string of the command as it
/// is, the join of several made.
fn emit_joined_messages(messages: &[(&str, &Value)], sink: &mut dyn Sink) {
    let joined = |sink: &mut dyn Sink, run: &[(&str, &Value)]| match run {
        [(_, one)] => sink.value(one),
        _ => {
            let texts: Vec<&str> = run.iter().map(|(_, m)| m.as_str().unwrap_or("")).collect();
            sink.value(&Value::String(texts.join("\n\n")));
        }
    };
    match joined_messages(messages) {
        Joined::One(one) => sink.value(one),
        Joined::Text(run) => joined(sink, run),
        Joined::Parts(messages, strings) => {
            sink.array(message_parts(messages, strings).count());
            for part in message_parts(messages, strings) {
                match part {
                    Part::Text(run) => {
                        sink.object(2);
                        sink.added_key("text");
                        joined(sink, run);
                        sink.added_key("type");
                        sink.str("text");
                    }
                    Part::Item(x) => sink.value(x),
                }
            }
        }
    }
}

fn join_messages(a: Value, b: &Value) -> Value {
    if let (Value::String(a), Value::String(b)) = (&a, b) {
        return Value::String(format!("{a}\n\n{b}"));
    }
    let mut parts = promote(a);
    parts.extend(promote(b.clone()));
    Value::Array(parts)
}

fn promote(message: Value) -> Vec<Value> {
    match message {
        Value::String(s) if s.is_empty() => Vec::new(),
        Value::String(s) => vec![json!({"type": "text", "text": s})],
        Value::Array(parts) => parts,
        _ => Vec::new(),
    }
}

/// A command's current wire value as a typed view over the command: the envelope's fields by
/// reference into the command, the mirror of several payloads as those payloads. Nothing is
/// allocated. [`view`] answers `None` for any command whose
/// wire value it does not describe exactly as [`build`] builds it; the encoder then builds the
/// value (and reports its error) the long way.
pub enum Wire<'a> {
    /// A `send` or `deliver` command: the current `deliver` value.
    Deliver(Deliver<'a>),
    /// A control command: its own fields (`kind` included), plus `version`.
    Control(&'a Map<String, Value>),
}

/// The `deliver` value of a `send` or `deliver` command, field by field.
pub struct Deliver<'a> {
    /// `payloads`: the send's one payload, or the deliver's list.
    pub payloads: Payloads<'a>,
    /// The mirror (`payload`).
    pub mirror: Mirror<'a>,
    /// `deliveryMetadata`: a send's `delivery` (with `payloadIndex: 0` added), or the list.
    pub entries: Option<Entries<'a>>,
    /// The other optional envelope fields, in key order: `auth`, `caller`, `requestId`,
    /// `taskDeliveryId`, `turnPolicy`.
    pub carried: [Option<&'a Value>; 5],
}

/// `payloads`.
#[derive(Clone, Copy)]
pub enum Payloads<'a> {
    /// A send's payload: `[payload]`.
    One(&'a Value),
    /// A deliver's list (an array).
    List(&'a Value),
}

/// The mirror: one of the payloads, or the coalesced value of several.
#[derive(Clone, Copy)]
pub enum Mirror<'a> {
    /// By reference (a send, or a one-payload deliver).
    Same(&'a Value),
    /// Several payloads (none, or two and more): their merge ([`coalesce_list`]), which is
    /// never built on the short way: it is checked as its parts and written from them
    /// ([`write_coalesced`]).
    Merged(&'a [Value]),
}

/// `deliveryMetadata`.
pub enum Entries<'a> {
    /// A send's `delivery`: one entry, to which the wire value adds `payloadIndex: 0`.
    Send(&'a Map<String, Value>),
    /// A deliver's list (an array).
    List(&'a Value),
}

impl<'a> Payloads<'a> {
    /// The one payload, when there is exactly one (`payloads` is `[it]`).
    pub fn only(&self) -> Option<&'a Value> {
        match self {
            Payloads::One(p) => Some(p),
            Payloads::List(l) => match l.as_array().map(Vec::as_slice) {
                Some([p]) => Some(p),
                _ => None,
            },
        }
    }

    /// The payloads, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Value> {
        let (one, list) = match self {
            Payloads::One(p) => (Some(*p), &[][..]),
            Payloads::List(l) => (None, l.as_array().map_or(&[][..], Vec::as_slice)),
        };
        one.into_iter().chain(list.iter())
    }
}

/// The keys of [`Deliver::carried`], in that order.
/// Where a send command's fields land in the wire value it becomes: the command's pointer
/// prefix and the wire's (what `build` does with `payload` and `delivery`).
pub const SEND_PLACES: [(&str, &str); 2] = [("/payload", "/payloads/0"), ("/delivery", "/deliveryMetadata/0")];

pub const CARRIED_KEYS: [&str; 5] = ["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];

/// The view of `command`'s current wire value, or `None` where only [`build`] can say (an
/// error to report, or a shape of command the view does not take).
pub fn view(command: &Value) -> Option<Wire<'_>> {
    let cmd = command.as_object()?;
    // One pass over the command's keys (in key order): each envelope field by reference.
    let (mut kind, mut payload, mut payloads, mut delivery, mut entries) = (None, None, None, None, None);
    let mut carried = [None; 5];
    let mut undeclared = false;
    for (key, v) in cmd {
        match key.as_str() {
            "auth" => carried[0] = Some(v),
            "caller" => carried[1] = Some(v),
            "delivery" => delivery = Some(v),
            "deliveryMetadata" => entries = Some(v),
            "kind" => kind = Some(v),
            "payload" => payload = Some(v),
            "payloads" => payloads = Some(v),
            "requestId" => carried[2] = Some(v),
            "taskDeliveryId" => carried[3] = Some(v),
            "turnPolicy" => carried[4] = Some(v),
            _ => undeclared = true,
        }
    }
    match kind?.as_str()? {
        // A send drops what it does not carry (`payloads`, `deliveryMetadata`, unknown keys).
        "send" => {
            let payload = payload?;
            let entries = match delivery {
                None => None,
                Some(d) => {
                    let d = d.as_object()?;
                    if find_key(d, "payloadIndex").is_some() {
                        return None;
                    }
                    Some(Entries::Send(d))
                }
            };
            Some(Wire::Deliver(Deliver {
                payloads: Payloads::One(payload),
                mirror: Mirror::Same(payload),
                entries,
                carried,
            }))
        }
        // Exactly the keys a deliver value may have: anything else is the long way's error.
        "deliver" if !undeclared && payload.is_none() && delivery.is_none() => {
            let payloads = payloads?;
            let mirror = match payloads.as_array()?.as_slice() {
                [one] => Mirror::Same(one),
                list => Mirror::Merged(list),
            };
            Some(Wire::Deliver(Deliver {
                payloads: Payloads::List(payloads),
                mirror,
                entries: entries.map(Entries::List),
                carried,
            }))
        }
        k if k != "deliver" && COMMAND_KINDS.iter().any(|c| same_key(c, k)) && find_key(cmd, "version").is_none() => {
            Some(Wire::Control(cmd))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{build, coalesce, coalesce_list, emit_coalesced, write_coalesced};
    use crate::error::ErrorCode;
    use crate::session_inbox::WIRE_VERSION;
    use serde_json::json;

    #[test]
    fn send_is_built_field_by_field() {
        let v =
            build(json!({"kind": "send", "payload": {"message": "hi"}, "stray": 1, "turnPolicy": "steer"})).unwrap();
        assert_eq!(
            v,
            json!({"kind": "deliver", "version": WIRE_VERSION, "payload": {"message": "hi"}, "payloads": [{"message": "hi"}], "turnPolicy": "steer"})
        );
    }

    #[test]
    fn commands_are_strict_about_what_the_encoder_computes() {
        for (command, path) in [
            (json!({"kind": "deliver", "payloads": [], "payload": {}}), "/payload"),
            (json!({"kind": "deliver", "payloads": [], "version": 6}), "/version"),
            (json!({"kind": "clear", "version": 6}), "/version"),
            (
                json!({"kind": "send", "payload": {}, "delivery": {"payloadIndex": 0}}),
                "/deliveryMetadata/0/payloadIndex",
            ),
        ] {
            let e = build(command).unwrap_err();
            assert_eq!((e.code, e.path.as_str()), (ErrorCode::Invalid, path));
        }
    }

    #[test]
    fn coalesce_merges_as_the_contract_says() {
        assert_eq!(coalesce(&json!([])), Some(json!({})));
        assert_eq!(coalesce(&json!([{"a": 1}])), Some(json!({"a": 1})));
        let merged = coalesce(&json!([
            {"message": "a", "context": ["x"], "task": {"views": [1], "id": "t1"}, "outputSchema": {"a": 1}, "interaction": 1},
            {"message": "b", "context": ["y"], "task": {"views": [2], "id": "t2"}, "interaction": 2},
        ]))
        .unwrap();
        assert_eq!(
            merged,
            json!({"message": "a\n\nb", "context": ["x", "y"], "task": {"views": [1, 2], "id": "t2"}, "outputSchema": {"a": 1}, "interaction": 2})
        );
        let parts = coalesce(&json!([{"message": "a"}, {"message": [{"type": "text", "text": "b"}]}, {"message": ""}]))
            .unwrap();
        assert_eq!(
            parts,
            json!({"message": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})
        );
        assert_eq!(
            coalesce(&json!([{"message": ""}, {"message": "b"}])),
            Some(json!({"message": "\n\nb"}))
        );
    }

    /// The merge written from its parts, as text and to a sink, is the merge built, for lists of
    /// payloads whose keys merge as valid payloads' do (messages strings or part arrays, every
    /// `context` and task key an array).
    #[test]
    fn the_merge_written_or_emitted_from_its_parts_is_the_merge_built() {
        let part = |t: &str| json!({"type": "text", "text": t});
        let lists = [
            json!([]),
            json!([{"message": "a", "context": ["x"]}, {"message": "b", "context": ["y", "z"], "interaction": {"k": 1}}]),
            json!([{"message": "a"}, {"message": [part("b")]}, {"message": ""}, {"message": "c"}, {"message": "d"}]),
            json!([{"message": ""}, {"message": [part("b")]}]),
            json!([{"message": "a"}, {"message": "b"}, {"message": [part("c")], "task": {"views": [1]}}]),
            json!([{"task": {"views": [1], "files": ["f"]}, "inputResponses": [1]}, {"task": {"views": [2]}}, {"inputResponses": [2, 3]}]),
            json!([{"outputSchema": {"a": 1}, "\u{e000}": 1, "\u{1d11e}": 2}, {"message": "m"}]),
        ];
        for list in &lists {
            let list = list.as_array().unwrap();
            let built = crate::canonical::to_string(&coalesce_list(list));
            let mut text = String::new();
            write_coalesced(list, &mut text);
            assert_eq!(text, built);
            let mut sink = crate::canonical::TextSink::default();
            emit_coalesced(list, &mut sink);
            assert_eq!(sink.out, built);
        }
    }
}
