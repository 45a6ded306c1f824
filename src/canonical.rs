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
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number_to_string(n.as_f64().unwrap_or(f64::NAN))),
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(x, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(k, out);
                out.push(':');
                write(&map[k.as_str()], out);
            }
            out.push('}');
        }
    }
}

fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 15] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
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
}
