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
                write_value(x, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let start = out.len();
            out.push('{');
            // A map iterates in UTF-8 byte order, which is UTF-16 order unless a key holds a
            // character from U+E000 on (UTF-8 lead byte 0xEE or above): only then sort again.
            for (i, (k, x)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_key(k, out) {
                    out.truncate(start);
                    return write_sorted(map, out);
                }
                write_value(x, out);
            }
            out.push('}');
        }
    }
}

/// An object whose keys must be sorted by UTF-16 code units.
#[cold]
fn write_sorted(map: &serde_json::Map<String, Value>, out: &mut String) {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    out.push('{');
    for (i, k) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(k, out);
        out.push(':');
        write_value(&map[k.as_str()], out);
    }
    out.push('}');
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
}

/// Write `"key":` for a key of an object written in map order, or answer `false` (writing
/// nothing) when the key's UTF-8 order is not its UTF-16 order. One scan serves both questions
/// for a plain ASCII key.
#[inline]
pub fn write_key(key: &str, out: &mut String) -> bool {
    if key.bytes().all(|b| PLAIN_KEY[b as usize]) {
        out.reserve(key.len() + 3);
        out.push('"');
        out.push_str(key);
        out.push_str("\":");
        return true;
    }
    if !utf8_order_is_utf16_order(key) {
        return false;
    }
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

fn write_u64(mut u: u64, out: &mut String) {
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

/// The bytes a key may hold to be written as it is, in map order: ASCII that a JSON string
/// literal does not escape (one table lookup a byte answers both of [`write_key`]'s questions).
const PLAIN_KEY: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 0x80 {
        t[b] = !ESCAPED[b];
        b += 1;
    }
    t
};

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
    match first_escaped(s.as_bytes()) {
        None => out.push_str(s),
        Some(first) => write_escaped(s, first, out),
    }
}

/// The index of the first byte of `bytes` that a JSON string literal escapes, eight bytes at a
/// time: a byte below 0x20 or equal to `"` or `\` sets the high bit of its lane in `hit`.
#[inline]
fn first_escaped(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut chunks = bytes.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let mut lanes = [0u8; 8];
        lanes.copy_from_slice(chunk);
        let x = u64::from_ne_bytes(lanes);
        let below = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        if (below | zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\')))) != 0 {
            // A lane may be flagged by a borrow from a lower one: look at the bytes themselves.
            return chunk.iter().position(|b| ESCAPED[*b as usize]).map(|j| i * 8 + j);
        }
    }
    let rest = chunks.remainder();
    rest.iter()
        .position(|b| ESCAPED[*b as usize])
        .map(|j| bytes.len() - rest.len() + j)
}

#[cold]
fn write_escaped(s: &str, first: usize, out: &mut String) {
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate().skip(first) {
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
    use super::{number_to_string, to_string};
    use serde_json::json;

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
