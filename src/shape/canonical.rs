//! Canonical JSON: object keys sorted (by UTF-16 code units, as JavaScript sorts them), no
//! insignificant whitespace, numbers and strings written exactly as `JSON.stringify` writes
//! them. The byte-frozen encoder outputs and the CLI use this, so native and JS bytes agree.

use serde_json::Value;

/// `value` as canonical JSON text.
///
/// ```
/// let v = serde_json::json!({"b": 1.0, "a": [0.5, "é"]});
/// assert_eq!(hookwire::canonical::to_string(&v), r#"{"a":[0.5,"é"],"b":1}"#);
/// ```
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

/// Append `value` as canonical JSON text to `out` (so a caller can reuse one buffer).
pub fn write_value(value: &Value, out: &mut String) {
    write_in(value, out, false);
}

/// [`write_value`]. An object is written in map order (UTF-8 byte order, which is UTF-16 order
/// unless a key holds a character from U+E000 on: UTF-8 lead byte 0xEE or above), and written
/// again sorted if a key says so. Below an object written again, every object tells its order
/// from its keys before writing anything (`checked`): written twice at every level, nested
/// objects would double the work at every level of nesting.
fn write_in(value: &Value, out: &mut String, checked: bool) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_in(x, out, checked);
            }
            out.push(']');
        }
        Value::Object(map) => {
            if checked && !map.keys().all(|k| utf8_order_is_utf16_order(k)) {
                return write_sorted(map, out);
            }
            let start = out.len();
            let mut first = true;
            for (k, x) in map {
                if !write_key_after(if first { "{\"" } else { ",\"" }, k, out) {
                    out.truncate(start);
                    return write_sorted(map, out);
                }
                first = false;
                write_in(x, out, checked);
            }
            out.push_str(if first { "{}" } else { "}" });
        }
    }
}

/// An object whose keys must be sorted by UTF-16 code units (its members written checked).
#[cold]
fn write_sorted(map: &serde_json::Map<String, Value>, out: &mut String) {
    out.push('{');
    for (i, (k, x)) in sorted_members(map).into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(k, out);
        out.push(':');
        write_in(x, out, true);
    }
    out.push('}');
}

/// The members of `map` with their keys sorted by UTF-16 code units, as canonical text has them
/// (and as `JSON.parse` of it makes them); for a map whose keys are not all
/// [`utf8_order_is_utf16_order`] (the others' order is the map's).
pub fn sorted_members(map: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<(&String, &Value)> = map.iter().collect();
    members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    members
}

/// The members of an object or array being written, in the order given (an object's keys must
/// come in key order): a separator before every member but the first. The caller closes it.
pub struct Members<'o> {
    /// Where the text goes.
    pub out: &'o mut String,
    first: bool,
}

impl<'o> Members<'o> {
    /// Open an object.
    pub fn object(out: &'o mut String) -> Members<'o> {
        out.push('{');
        Members { out, first: true }
    }

    /// Open an array.
    pub fn array(out: &'o mut String) -> Members<'o> {
        out.push('[');
        Members { out, first: true }
    }

    /// Start the next member: the returned buffer takes it.
    pub fn item(&mut self) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out
    }

    /// Start the field `key`: the returned buffer takes its value.
    pub fn key(&mut self, key: &str) -> &mut String {
        let out = self.item();
        if !write_key(key, out) {
            write_str(key, out);
            out.push(':');
        }
        out
    }

    /// The field `key` with the value `v`, if there is one.
    pub fn value(&mut self, key: &str, v: Option<&Value>) {
        if let Some(v) = v {
            write_value(v, self.key(key));
        }
    }

    /// Start a field whose key is known when the program is compiled, given as its text
    /// `"key":` (made by the crate's `key_text!` macro): written as it is, nothing scanned.
    #[inline]
    pub fn key_text(&mut self, key_text: &'static str) -> &mut String {
        debug_assert!(
            key_text.len() > 3
                && key_text.starts_with('"')
                && key_text.ends_with("\":")
                && !any_special(&key_text.as_bytes()[1..key_text.len() - 2], true),
            "{key_text} is not the text of a plain key"
        );
        let out = self.item();
        out.push_str(key_text);
        out
    }

    /// [`Members::value`] of a key given as its text ([`Members::key_text`]).
    #[inline]
    pub fn value_text(&mut self, key_text: &'static str, v: Option<&Value>) {
        if let Some(v) = v {
            write_value(v, self.key_text(key_text));
        }
    }
}

/// Where a wire value goes member by member, in canonical order: each object's length before its
/// members, its keys in UTF-16 order (as `JSON.parse` of canonical text makes them), and whole
/// values of a command handed over as they are ([`Sink::value`] puts their keys in that order
/// itself). A writer of a typed wire value (the session inbox's `Encoded::emit`) writes through
/// it without building the value; the JS encoder's answer tape (`tape::TapeSink`) and
/// [`TextSink`] take it.
pub trait Sink {
    /// A number the writer adds (a `version`, a `payloadIndex`).
    fn number(&mut self, n: u32);
    /// A string the writer adds (a `kind`): one of its own, the same on every call.
    fn str(&mut self, s: &'static str);
    /// An array of `len` items, which follow.
    fn array(&mut self, len: usize);
    /// An object of `len` members, which follow: each a [`Sink::key`], then its value.
    fn object(&mut self, len: usize);
    /// The next member's key, of a value the writer was given (a command's entry).
    fn key(&mut self, key: &str);
    /// The next member's key, one the writer adds (`version`, `payloads`, …): one of its own,
    /// the same on every call.
    fn added_key(&mut self, key: &'static str) {
        self.key(key);
    }
    /// A whole value.
    fn value(&mut self, v: &Value);
    /// The value the last [`Sink::value`] was given, whole again (the same reference, unchanged:
    /// a wire value holding one value of the command twice, a mirror and its one payload). A
    /// sink may repeat what it wrote for it rather than walk it again.
    fn value_again(&mut self, v: &Value) {
        self.value(v);
    }
}

/// A [`Sink`] writing canonical text: the text is the value's canonical text when the writer
/// gives keys in canonical order (`invariants::check_encode_for` holds each family's sink writer
/// to its encoder's answer through it).
#[derive(Default)]
pub struct TextSink {
    /// The text written.
    pub out: String,
    /// For each array or object open: whether it is an object, and its members still to come.
    open: Vec<(bool, usize)>,
    /// Whether a key was written and its value is next.
    after_key: bool,
}

impl TextSink {
    /// Before a member: a comma, unless it is the first of its container.
    fn separator(&mut self) {
        if !self.open.is_empty() && !self.out.ends_with(['[', '{']) {
            self.out.push(',');
        }
    }

    /// Before a value: an item's separator (an object's value follows its key).
    fn start(&mut self) {
        if !core::mem::take(&mut self.after_key) {
            self.separator();
        }
    }

    /// After a value: every container it completed is closed.
    fn done(&mut self) {
        while let Some((object, left)) = self.open.last_mut() {
            *left -= 1;
            if *left > 0 {
                return;
            }
            let close = if *object { '}' } else { ']' };
            self.open.pop();
            self.out.push(close);
        }
    }

    fn open(&mut self, object: bool, len: usize) {
        self.start();
        self.out.push(if object { '{' } else { '[' });
        if len > 0 {
            self.open.push((object, len));
        } else {
            self.out.push(if object { '}' } else { ']' });
            self.done();
        }
    }
}

impl Sink for TextSink {
    fn number(&mut self, n: u32) {
        self.start();
        write_u64(n.into(), &mut self.out);
        self.done();
    }

    fn str(&mut self, s: &'static str) {
        self.start();
        write_str(s, &mut self.out);
        self.done();
    }

    fn array(&mut self, len: usize) {
        self.open(false, len);
    }

    fn object(&mut self, len: usize) {
        self.open(true, len);
    }

    fn key(&mut self, key: &str) {
        self.separator();
        write_str(key, &mut self.out);
        self.out.push(':');
        self.after_key = true;
    }

    fn value(&mut self, v: &Value) {
        self.start();
        write_value(v, &mut self.out);
        self.done();
    }
}

/// The text `"key":` of a key known when the program is compiled, for [`Members::key_text`]
/// (which asserts in debug builds that the key is plain ASCII that needs no escape).
macro_rules! key_text {
    ($key:literal) => {
        concat!("\"", $key, "\":")
    };
}
pub(crate) use key_text;

/// Write `"key":` for a key of an object written in map order, or answer `false` (writing
/// nothing) when the key's UTF-8 order is not its UTF-16 order. One scan, eight bytes at a time,
/// serves both questions for a plain ASCII key.
#[inline]
pub fn write_key(key: &str, out: &mut String) -> bool {
    write_key_after("\"", key, out)
}

/// [`write_key`] after `open`: the key's opening quote, or what comes before the key (`{`, `,`)
/// and its opening quote, written in one piece (two bytes at most).
#[inline(always)]
fn write_key_after(open: &'static str, key: &str, out: &mut String) -> bool {
    if !any_special(key.as_bytes(), true) {
        out.reserve(key.len() + 4);
        out.push_str(open);
        out.push_str(key);
        out.push_str("\":");
        return true;
    }
    write_other_key(open, key, out)
}

/// [`write_key_after`] of a key holding a byte that is escaped or not ASCII.
#[cold]
fn write_other_key(open: &str, key: &str, out: &mut String) -> bool {
    if !utf8_order_is_utf16_order(key) {
        return false;
    }
    out.push_str(&open[..open.len() - 1]);
    write_str(key, out);
    out.push(':');
    true
}

/// Whether sorting `key` among others by UTF-8 bytes agrees with sorting by UTF-16 code units:
/// the two orders differ only between characters from U+E000 to U+FFFF and supplementary ones.
#[inline]
pub fn utf8_order_is_utf16_order(key: &str) -> bool {
    key.bytes().all(|b| b < 0xEE)
}

/// A JSON number as `JSON.stringify` writes it; integers that a double holds exactly are
/// written without a detour through floating-point formatting.
#[inline]
pub fn write_number(n: &serde_json::Number, out: &mut String) {
    const EXACT: u64 = 1 << 53;
    if let Some(u) = n.as_u64().filter(|u| *u <= EXACT) {
        write_u64(u, out);
    } else if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        // Negative here (a non-negative one is a u64 above).
        out.push('-');
        write_u64(i.unsigned_abs(), out);
    } else {
        out.push_str(&number_to_string(n.as_f64().unwrap_or(f64::NAN)));
    }
}

/// A non-negative integer's digits.
pub fn write_u64(mut u: u64, out: &mut String) {
    if u < 10 {
        out.push(char::from(b'0' + u as u8));
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    out.push_str(core::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

/// `s` as a JSON string literal, escaped exactly as `JSON.stringify` escapes it.
#[inline]
pub fn write_str(s: &str, out: &mut String) {
    out.push('"');
    write_str_contents(s, out);
    out.push('"');
}

/// `s` escaped as in a JSON string literal, without the quotes (so pieces of one string can be
/// written one after the other).
#[inline]
pub fn write_str_contents(s: &str, out: &mut String) {
    if any_special(s.as_bytes(), false) {
        write_escaped(s, out);
    } else {
        out.push_str(s);
    }
}

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// The lanes of the word `x` (eight bytes) that hold a byte a JSON string literal escapes (below
/// 0x20, `"`, `\`) or, with `non_ascii`, a byte from 0x80: the high bit of each such lane is set.
/// A borrow out of such a lane may also set the bit of a lane above it, but a word holding no such
/// byte answers 0, so the answer is exact as "any or none".
#[inline(always)]
fn special(x: u64, non_ascii: bool) -> u64 {
    let zero = |y: u64| y.wrapping_sub(ONES) & !y & HIGH;
    let below = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    let marks = below | zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\')));
    if non_ascii {
        marks | (x & HIGH)
    } else {
        marks
    }
}

/// Whether `bytes` holds a byte that [`special`] marks, read eight bytes at a time: whole words,
/// then the last word (overlapping the one before it); a shorter string as two overlapping halves,
/// or as its first, middle and last byte (which are all of its bytes when it has three or fewer).
#[inline(always)]
fn any_special(bytes: &[u8], non_ascii: bool) -> bool {
    let n = bytes.len();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let half = |at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&bytes[at..at + 4]);
        u64::from(u32::from_le_bytes(w))
    };
    if n >= 8 {
        (0..n / 8).any(|i| special(word(i * 8), non_ascii) != 0) || (n % 8 != 0 && special(word(n - 8), non_ascii) != 0)
    } else if n >= 4 {
        special(half(0) | half(n - 4) << 32, non_ascii) != 0
    } else if n > 0 {
        // The lanes not read hold a plain byte.
        let x = u64::from_le_bytes([bytes[0], bytes[n / 2], bytes[n - 1], b'a', b'a', b'a', b'a', b'a']);
        special(x, non_ascii) != 0
    } else {
        false
    }
}

/// Which bytes a JSON string literal escapes: control characters, `"` and the backslash.
const ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

#[cold]
fn write_escaped(s: &str, out: &mut String) {
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if !ESCAPED[b as usize] {
            continue;
        }
        // Every byte that needs escaping is ASCII, so `start..i` falls on character boundaries.
        out.push_str(&s[start..i]);
        start = i + 1;
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[(b as usize) >> 4] as char);
                out.push(HEX[(b as usize) & 15] as char);
            }
        }
    }
    out.push_str(&s[start..]);
}

/// A number as JavaScript's `Number.prototype.toString()` writes it (`1`, `0.5`, `1e+21`,
/// `1.5e-7`); `-0` is `0`; non-finite numbers are `null`, as `JSON.stringify` writes them.
///
/// ```
/// use hookwire::canonical::number_to_string;
/// assert_eq!((number_to_string(1e21), number_to_string(-0.0), number_to_string(f64::NAN)), ("1e+21".into(), "0".into(), "null".into()));
/// ```
pub fn number_to_string(n: f64) -> String {
    if !n.is_finite() {
        return "null".into();
    }
    if n == 0.0 {
        return "0".into();
    }
    let mut buf = ryu::Buffer::new();
    let shortest = buf.format_finite(n.abs());
    let (mantissa, exp) = match shortest.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (shortest, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = format!("{int_part}{frac_part}");
    let lead = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0');
    // value = 0.digits × 10^n, with n the position of the decimal point after the first digit.
    let point = int_part.len() as i32 - lead as i32 + exp;
    let k = digits.len() as i32;
    let mut out = String::new();
    if n < 0.0 {
        out.push('-');
    }
    if k <= point && point <= 21 {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', (point - k) as usize));
    } else if 0 < point && point <= 21 {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    } else if -6 < point && point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-point) as usize));
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = point - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&e.abs().to_string());
    }
    out
}

/// A JSON number for `n`: an integer when `n` is integral and exactly representable, as in JS.
pub fn json_number(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0 {
        if n >= 0.0 {
            return serde_json::Value::Number(serde_json::Number::from(n as u64));
        }
        return serde_json::Value::Number(serde_json::Number::from(n as i64));
    }
    serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

#[cfg(test)]
mod tests {
    use super::{any_special, number_to_string, to_string, Sink, TextSink, ESCAPED};
    use serde_json::json;

    /// A value given to a `TextSink` member by member is its canonical text: separators, empty
    /// and nested containers, keys followed by whole values.
    #[test]
    fn a_text_sink_writes_what_it_is_given_as_canonical_text() {
        let mut t = TextSink::default();
        t.object(4);
        t.key("a");
        t.array(3);
        t.array(0);
        t.value(&json!({"y": [1, {}], "x": "é"}));
        t.object(1);
        t.key("k");
        t.number(0);
        t.key("b");
        t.object(0);
        t.key("c");
        t.str("deliver");
        t.key("d");
        t.array(1);
        t.array(1);
        t.number(7);
        assert_eq!(
            t.out,
            to_string(&json!({"a": [[], {"x": "é", "y": [1, {}]}, {"k": 0}], "b": {}, "c": "deliver", "d": [[7]]}))
        );
        let mut t = TextSink::default();
        t.value(&json!("only"));
        assert_eq!(t.out, "\"only\"");
    }

    /// Objects whose keys sort apart in UTF-8 and UTF-16, nested 80 deep, are written in time
    /// polynomial in the depth: writing every level in map order and then again sorted would
    /// take 2^80 writes of the leaf.
    #[test]
    fn nested_objects_that_sort_again_are_written_once() {
        let mut v = json!("leaf");
        for i in 0..80 {
            v = json!({"k": v, "\u{1d11e}": [i]});
        }
        let text = to_string(&v);
        assert_eq!(text.matches("leaf").count(), 1);
        // Each level sorted: "k" (U+006B) before the astral key (U+D834 U+DD1E in UTF-16).
        assert!(text.starts_with("{\"k\":{\"k\":"), "{}", &text[..40]);
        let v = json!({"\u{e000}": 1, "\u{1d11e}": 2, "a": 3});
        assert_eq!(to_string(&v), "{\"a\":3,\"\u{1d11e}\":2,\"\u{e000}\":1}");
    }

    /// The word-at-a-time scan answers what a byte-at-a-time one answers, for every length up to
    /// two words and more, with one or two telling bytes at every place (among them the neighbours
    /// of each class's bounds, where a borrow between lanes would show).
    #[test]
    fn the_word_scan_agrees_with_the_byte_scan() {
        let telling = [
            0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xc3, 0xee, 0xff,
        ];
        let naive =
            |bytes: &[u8], non_ascii: bool| bytes.iter().any(|b| ESCAPED[*b as usize] || (non_ascii && *b >= 0x80));
        for fill in [b'a', 0x20, 0x21, 0x7f, 0x80] {
            for len in 0..=19 {
                let mut bytes = vec![fill; len];
                for non_ascii in [false, true] {
                    assert_eq!(any_special(&bytes, non_ascii), naive(&bytes, non_ascii), "{bytes:?}");
                }
                for at in 0..len {
                    for t in telling {
                        bytes[at] = t;
                        for also in [None, Some(0), Some(len - 1), Some(len / 2)] {
                            let saved = also.map(|i| bytes[i]);
                            if let Some(i) = also {
                                bytes[i] = 0x22;
                            }
                            for non_ascii in [false, true] {
                                assert_eq!(any_special(&bytes, non_ascii), naive(&bytes, non_ascii), "{bytes:?}");
                            }
                            if let (Some(i), Some(v)) = (also, saved) {
                                bytes[i] = v;
                            }
                        }
                        bytes[at] = fill;
                    }
                }
            }
        }
    }

    /// Strings and keys of every length up to 17 characters, with an escaped character, a
    /// multibyte one (two to four bytes, straddling a word's end at some place) or both at every
    /// place, are written as JSON.stringify writes them (serde_json escapes alike; U+2028, U+2029
    /// and DEL are not escaped).
    #[test]
    fn strings_and_keys_are_escaped_at_every_place_of_a_word() {
        let inserts = [
            "\"", "\\", "\n", "\u{1f}", "\u{0}", "\u{8}", "\u{c}", "\u{7f}", "é", "€", "\u{2028}", "\u{2029}",
            "\u{e000}", "\u{ff61}", "😀", "é\"", "😀\n",
        ];
        for len in 0..=17 {
            for at in 0..=len {
                for ins in inserts {
                    let base: String = "abcdefghijklmnopq".chars().take(len).collect();
                    let mut s = base.clone();
                    s.insert_str(at, ins);
                    let literal = serde_json::to_string(&s).unwrap();
                    assert_eq!(to_string(&json!(s)), literal, "{s:?}");
                    // As a key, beside a plain one: sorted by UTF-16 code units.
                    let (k, v) = (s.clone(), "m".to_string());
                    let text = to_string(&json!({ k.clone(): 1, v.clone(): 2 }));
                    let key_first = k.encode_utf16().cmp(v.encode_utf16()).is_lt();
                    let expected = if key_first {
                        format!("{{{literal}:1,\"m\":2}}")
                    } else {
                        format!("{{\"m\":2,{literal}:1}}")
                    };
                    assert_eq!(text, expected, "{s:?}");
                }
            }
        }
        assert_eq!(
            to_string(&json!("\u{2028}\u{2029}\u{7f}")),
            "\"\u{2028}\u{2029}\u{7f}\""
        );
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (-0.0, "0"),
            (0.5, "0.5"),
            (123.456, "123.456"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (-2.5e300, "-2.5e+300"),
            (9007199254740993.0, "9007199254740992"),
            (5e-324, "5e-324"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        for (n, s) in cases {
            assert_eq!(number_to_string(*n), *s, "{n:e}");
        }
    }

    #[test]
    fn keys_sort_by_utf16_and_strings_escape_as_json_stringify() {
        let v = json!({"b": 1, "a": [true, null, "x\"\\\n\u{1}é"], "\u{ff61}": 0, "\u{1f600}": 0});
        assert_eq!(
            to_string(&v),
            "{\"a\":[true,null,\"x\\\"\\\\\\n\\u0001é\"],\"b\":1,\"\u{1f600}\":0,\"\u{ff61}\":0}"
        );
    }

    #[test]
    fn integers_take_the_short_way_and_agree_with_the_long_one() {
        let v = json!([
            0,
            7,
            -5,
            9007199254740992u64,
            9007199254740993u64,
            -9007199254740993i64,
            u64::MAX,
            i64::MIN,
            1.0,
            -0.0,
            2.5e-8
        ]);
        assert_eq!(
            to_string(&v),
            "[0,7,-5,9007199254740992,9007199254740992,-9007199254740992,18446744073709552000,-9223372036854776000,1,0,2.5e-8]"
        );
        for n in [0u64, 1, 9, 10, 99, 100, 12345678901234, 1 << 53] {
            assert_eq!(to_string(&json!(n)), number_to_string(n as f64));
        }
    }

    #[test]
    fn escapes_are_found_at_every_place_of_a_chunk() {
        for len in 0..20 {
            for at in 0..len {
                for c in ['"', '\\', '\n', '\u{1f}', '\u{0}'] {
                    let mut s: String = "abcdéfghijklmnopqrst".chars().take(len).collect();
                    s.replace_range(
                        s.char_indices().nth(at).map(|(i, ch)| i..i + ch.len_utf8()).unwrap(),
                        &c.to_string(),
                    );
                    let expected = serde_json::to_string(&s).unwrap();
                    assert_eq!(to_string(&json!(s)), expected, "{s:?}");
                }
            }
        }
        assert_eq!(
            to_string(&json!("\u{7f}\u{80}\u{ff}\u{2028}")),
            "\"\u{7f}\u{80}\u{ff}\u{2028}\""
        );
    }
}
