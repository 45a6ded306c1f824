//! The JS encoder's boundary without JSON text: a command as the tape `js/encoder-entry.js`
//! writes while it checks JSON-ness, read into a `serde_json::Value` without a parser, and a wire
//! value as the tape that file turns into JS objects without `JSON.parse`. A format and its two
//! walks, no rule of any family: what a command means is the encoder's, after [`read`].
//!
//! A tape is a list of `u32` words in prefix order, with the numbers that are not small integers
//! in a list of `f64` and every string's text in one UTF-8 buffer, in the order they come:
//!
//! | word | value | followed by |
//! |---|---|---|
//! | [`NULL`], [`FALSE`], [`TRUE`] | the literal | — |
//! | [`INT`] | an integer that fits an `i32` | its bits |
//! | [`F64`] | the next `f64` of the list | — |
//! | [`NUMBER_TEXT`] | a number given as the text `String(n)` writes (an integer beyond 2^53) | its string's length |
//! | [`STR`] | the next string | its length in UTF-16 code units |
//! | [`ARRAY`] | an array | its length, then its items |
//! | [`OBJECT`] | an object | its length, then each key's length and its value |
//!
//! A value read is the value `serde_json` parses from the JSON text `JSON.stringify` would have
//! written for the same JS value (numbers included: an integer up to 2^53 is a `u64` or `i64`,
//! anything else the double itself, which is what `float_roundtrip` parses). Every string read
//! is numbered in the order it comes (keys included).
//!
//! The answer's tape uses the same words, but for strings, keys included (each with its word):
//! [`STR`] followed by the number of a string of the command (a string the encoder copied),
//! [`NEW_STR`] followed by its length in bytes and a slot, its bytes in the answer's buffer, or
//! [`KNOWN_STR`] followed by a slot the JS side filled earlier (see [`Known`]). An object's keys come in UTF-16 order, as
//! `JSON.parse` of canonical text makes them; a number is the double that text parses to.
//!
//! Must never import a family: it is generic over JSON.

use crate::canonical::{sorted_members, utf8_order_is_utf16_order, Sink};
use crate::shape::same_text;
use serde_json::{Map, Number, Value};

/// `null`.
pub const NULL: u32 = 0;
/// `false`.
pub const FALSE: u32 = 1;
/// `true`.
pub const TRUE: u32 = 2;
/// An integer in `i32` range; the next word holds it.
pub const INT: u32 = 3;
/// The next number of the `f64` list.
pub const F64: u32 = 4;
/// A number as text (the next string): integers beyond 2^53, parsed as `serde_json` parses them.
pub const NUMBER_TEXT: u32 = 5;
/// A string: of the command, its length in UTF-16 code units; of the answer, a command string's number.
pub const STR: u32 = 6;
/// An array: its length, then its items.
pub const ARRAY: u32 = 7;
/// An object: its length, then each key (a string, without the [`STR`] word) and value.
pub const OBJECT: u32 = 8;
/// Of the answer: a string not in the command, its length in bytes and a slot ([`NO_SLOT`] or
/// one the JS side keeps it in for [`KNOWN_STR`]).
pub const NEW_STR: u32 = 9;
/// Of the answer: a string the JS side keeps in the slot that follows.
pub const KNOWN_STR: u32 = 10;
/// A [`NEW_STR`] the JS side keeps nowhere.
pub const NO_SLOT: u32 = u32::MAX;

/// Every word of a tape by its name: `jsgen` writes them into `js/encoder-contract.js` (as
/// `T_<NAME>`), so the JS side never keeps a copy of its own.
pub const WORDS: [(&str, u32); 11] = [
    ("NULL", NULL),
    ("FALSE", FALSE),
    ("TRUE", TRUE),
    ("INT", INT),
    ("F64", F64),
    ("NUMBER_TEXT", NUMBER_TEXT),
    ("STR", STR),
    ("ARRAY", ARRAY),
    ("OBJECT", OBJECT),
    ("NEW_STR", NEW_STR),
    ("KNOWN_STR", KNOWN_STR),
];

/// A command's tape: its words, numbers and strings' text (`ascii` when every string is ASCII,
/// so that a length in UTF-16 code units is one in bytes).
pub struct Input<'a> {
    /// The words, in prefix order.
    pub ops: &'a [u32],
    /// The numbers that are not small integers, in the order they come.
    pub nums: &'a [f64],
    /// Every string's text, one after the other.
    pub text: &'a str,
    /// Every string is ASCII.
    pub ascii: bool,
}

/// Where a command's strings are: each one's byte range in the tape's text, in the order they
/// come (its number), and each non-empty string the value read holds, by the address of its
/// bytes. A wire value written from the command's own parts holds those very strings:
/// [`Strings`] names them by address, with no hash of their bytes.
pub struct Places {
    /// Byte ranges in the text, by string number.
    pub ranges: Vec<(u32, u32)>,
    /// Open addressing by address (at most `MAX_PROBE` probes): (address, number + 1), or
    /// (0, 0).
    held: Vec<(usize, u32)>,
}

impl Places {
    /// The table of `held` strings, (address, number), by address.
    fn new(ranges: Vec<(u32, u32)>, held: &[(usize, u32)]) -> Places {
        let size = (held.len() * 2).next_power_of_two().max(16);
        let mut table = vec![(0, 0); size];
        for &(at, k) in held {
            let mut i = slot_of(at, size);
            for _ in 0..MAX_PROBE {
                if table[i].1 == 0 {
                    table[i] = (at, k + 1);
                    break;
                }
                i = (i + 1) & (size - 1);
            }
        }
        Places { ranges, held: table }
    }

    /// The number of the string the value read holds at the address `at`, if the table has it.
    fn at(&self, at: usize) -> Option<u32> {
        let size = self.held.len();
        let mut i = slot_of(at, size);
        for _ in 0..MAX_PROBE {
            match self.held[i] {
                (_, 0) => return None,
                (a, k) if a == at => return Some(k - 1),
                _ => i = (i + 1) & (size - 1),
            }
        }
        None
    }
}

/// An address's slot in a table of `size` (a power of two) slots: its bits mixed by a
/// multiplication, the high ones taken.
fn slot_of(at: usize, size: usize) -> usize {
    let mixed = ((at as u64) >> 3).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> (64 - size.trailing_zeros())) as usize
}

/// The value on `tape` and where each of its strings sits, or `None` when the tape is not one
/// value (a bug of the writer).
pub fn read(tape: &Input<'_>) -> Option<(Value, Places)> {
    let mut r = Reader {
        tape,
        op: 0,
        num: 0,
        byte: 0,
        // A string takes a word or more, and a value's string two.
        strings: Vec::with_capacity(tape.ops.len() / 2 + 1),
        held: Vec::with_capacity(tape.ops.len() / 2 + 1),
    };
    let v = r.value()?;
    (r.op == tape.ops.len() && r.num == tape.nums.len() && r.byte == tape.text.len())
        .then(|| (v, Places::new(r.strings, &r.held)))
}

struct Reader<'a, 't> {
    tape: &'t Input<'a>,
    op: usize,
    num: usize,
    byte: usize,
    strings: Vec<(u32, u32)>,
    held: Vec<(usize, u32)>,
}

impl<'a> Reader<'a, '_> {
    fn word(&mut self) -> Option<u32> {
        let w = *self.tape.ops.get(self.op)?;
        self.op += 1;
        Some(w)
    }

    fn string(&mut self) -> Option<&'a str> {
        let units = self.word()? as usize;
        let text: &'a str = self.tape.text;
        let start = self.byte;
        let end = if self.tape.ascii {
            start.checked_add(units)?
        } else {
            let mut end = start;
            let mut counted = 0;
            let mut chars = text.get(start..)?.chars();
            while counted < units {
                let c = chars.next()?;
                counted += c.len_utf16();
                end += c.len_utf8();
            }
            end
        };
        let s = text.get(start..end)?;
        self.byte = end;
        self.strings.push((start as u32, end as u32));
        Some(s)
    }

    /// The last string read, owned: its address is noted.
    fn owned(&mut self, s: &str) -> String {
        let s = s.to_owned();
        if !s.is_empty() {
            self.held.push((s.as_ptr() as usize, self.strings.len() as u32 - 1));
        }
        s
    }

    fn value(&mut self) -> Option<Value> {
        Some(match self.word()? {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            INT => Value::from(self.word()? as i32),
            F64 => {
                let n = *self.tape.nums.get(self.num)?;
                self.num += 1;
                Value::Number(number(n)?)
            }
            NUMBER_TEXT => Value::Number(self.string()?.parse().ok()?),
            STR => {
                let s = self.string()?;
                Value::String(self.owned(s))
            }
            ARRAY => {
                let n = self.word()? as usize;
                let mut items = Vec::with_capacity(n.min(self.tape.ops.len()));
                for _ in 0..n {
                    items.push(self.value()?);
                }
                Value::Array(items)
            }
            OBJECT => {
                let n = self.word()?;
                let mut map = Map::new();
                for _ in 0..n {
                    let k = self.string()?;
                    let k = self.owned(k);
                    let v = self.value()?;
                    map.insert(k, v);
                }
                Value::Object(map)
            }
            _ => return None,
        })
    }
}

/// The number `serde_json` parses from `String(n)` for a finite double that is not an integer
/// beyond 2^53 (those come as [`NUMBER_TEXT`]): an integer written without exponent is a `u64`
/// (`-0` too) or an `i64`, anything else the double (`float_roundtrip` parses it exactly).
fn number(n: f64) -> Option<Number> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if n.fract() == 0.0 && n.abs() <= EXACT {
        return Some(if n >= 0.0 {
            Number::from(n as u64)
        } else {
            Number::from(n as i64)
        });
    }
    Number::from_f64(n)
}

/// The command's strings, found by address or by their text: a wire value's strings are mostly
/// the command's own, which the JS side already holds. A string the wire value holds by
/// reference to the command (the encoder's typed view does for all of them) is found by its
/// address, its bytes compared once; any other by a hash table of the command's strings, made
/// when first needed. Naming one is only a saving (a string not found is sent as its bytes), so
/// a lookup probes at most `MAX_PROBE` (8) slots: the work stays linear in the number of strings
/// whatever they are, colliding ones included.
pub struct Strings<'a> {
    text: &'a str,
    ranges: &'a [(u32, u32)],
    places: Option<&'a Places>,
    /// Open addressing: a string's number + 1, or 0 (empty until a lookup needs it).
    slots: Vec<u32>,
    hash: fn(&[u8]) -> u32,
}

/// How many slots a string's insertion or lookup probes at most (a table at most half full).
const MAX_PROBE: usize = 8;

impl<'a> Strings<'a> {
    /// The strings of `text` at `places` (as [`read`] answers them), findable.
    pub fn new(text: &'a str, places: &'a Places) -> Strings<'a> {
        Strings {
            text,
            ranges: &places.ranges,
            places: Some(places),
            slots: Vec::new(),
            hash,
        }
    }

    /// The number of the command's string whose bytes `s` are (the same address and length),
    /// if the value read holds it.
    fn by_address(&self, s: &[u8]) -> Option<u32> {
        let k = self.places?.at(s.as_ptr() as usize)?;
        let (a, b) = self.ranges[k as usize];
        // The same bytes: an address alone could be a freed string's, given again.
        same_text(&self.text.as_bytes()[a as usize..b as usize], s).then_some(k)
    }

    #[cfg(test)]
    fn with_hash(text: &'a str, ranges: &'a [(u32, u32)], hash: fn(&[u8]) -> u32) -> Strings<'a> {
        let mut strings = Strings {
            text,
            ranges,
            places: None,
            slots: Vec::new(),
            hash,
        };
        strings.fill();
        strings
    }

    /// Make the hash table of the command's strings.
    fn fill(&mut self) {
        let (text, ranges, hash) = (self.text, self.ranges, self.hash);
        let size = (ranges.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![0u32; size];
        for (i, &(a, b)) in ranges.iter().enumerate() {
            let mut at = hash(&text.as_bytes()[a as usize..b as usize]) as usize & (size - 1);
            for _ in 0..MAX_PROBE {
                match slots[at] {
                    0 => {
                        slots[at] = i as u32 + 1;
                        break;
                    }
                    // The same text again: the first one answers.
                    k if Self::same(text, ranges[k as usize - 1], a, b) => break,
                    _ => at = (at + 1) & (size - 1),
                }
            }
        }
        self.slots = slots;
    }

    fn same(text: &str, (c, d): (u32, u32), a: u32, b: u32) -> bool {
        same_text(
            &text.as_bytes()[c as usize..d as usize],
            &text.as_bytes()[a as usize..b as usize],
        )
    }

    /// The number of a string of the command with the text `s` (whose hash is `h`), if it has a
    /// slot.
    fn find(&mut self, s: &[u8], h: u32) -> Option<u32> {
        if self.slots.is_empty() {
            self.fill();
        }
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        for _ in 0..MAX_PROBE {
            let k = self.slots[at];
            if k == 0 {
                return None;
            }
            let (a, b) = self.ranges[k as usize - 1];
            if same_text(&self.text.as_bytes()[a as usize..b as usize], s) {
                return Some(k - 1);
            }
            at = (at + 1) & mask;
        }
        None
    }
}

/// A hash of every byte of a string, eight at a time (so strings alike but in their middle, such
/// as URLs of one length, spread like any others). Strings that still collide cost no more than
/// [`MAX_PROBE`] probes each.
fn hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, w: u64| (h.rotate_left(23) ^ w).wrapping_mul(K);
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
    };
    let n = bytes.len();
    let mut h = n as u64;
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            h = mix(h, word(at));
            at += 8;
        }
        // The last eight bytes (overlapping the word before them when the length is no multiple of 8).
        h = mix(h, word(n - 8));
    } else {
        h = mix(h, bytes.iter().rev().fold(0, |w, b| (w << 8) | u64::from(*b)));
    }
    // The words' bits reach the low ones (the table's index) only through a finalizer.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h as u32
}

/// How many strings the JS side keeps for [`KNOWN_STR`], and the longest (in bytes).
pub const KNOWN_SLOTS: usize = 512;
const KNOWN_LEN: usize = 32;

/// The strings, not in a command, that earlier answers carried and the JS side kept (the keys
/// and constants the encoder adds: `version`, `payloads`, `deliver`, …), by slot. A slot, once
/// filled, keeps its string. Lives as long as the module instance; the JS side's copy starts
/// empty with it.
pub struct Known {
    slots: [(u8, [u8; KNOWN_LEN]); KNOWN_SLOTS],
    /// How many slots are filled: a part of a tape written while none was filled would be
    /// written alike again ([`TapeSink`]'s repeat).
    filled: usize,
    /// The writer's own strings (`&'static str`, the same bytes at the same address on every
    /// call) found kept, by address: (address, length, slot + 1), or zeros.
    added: [(usize, u8, u16); ADDED_SLOTS],
}

/// How many of the writer's own strings [`Known`] finds by address (more go by their hash).
const ADDED_SLOTS: usize = 64;

impl Known {
    /// Whether `slot` keeps the string `bytes`.
    fn holds(&self, slot: usize, bytes: &[u8]) -> bool {
        let (len, text) = &self.slots[slot];
        *len != 0 && same_text(&text[..usize::from(*len)], bytes)
    }

    /// Keep `bytes` in `slot` when the slot is free and they fit: whether it did (the JS side
    /// keeps it too, told by the slot [`NEW_STR`] names).
    fn keep(&mut self, slot: usize, bytes: &[u8]) -> bool {
        let (len, text) = &mut self.slots[slot];
        let keep = *len == 0 && !bytes.is_empty() && bytes.len() <= KNOWN_LEN;
        if keep {
            *len = bytes.len() as u8;
            text[..bytes.len()].copy_from_slice(bytes);
            self.filled += 1;
        }
        keep
    }
}

impl Default for Known {
    fn default() -> Self {
        Known {
            slots: [(0, [0; KNOWN_LEN]); KNOWN_SLOTS],
            filled: 0,
            added: [(0, 0, 0); ADDED_SLOTS],
        }
    }
}

/// Where an answer's tape goes: its words, numbers and the bytes of its new strings.
pub struct Output<'o> {
    /// The words, in prefix order.
    pub ops: &'o mut Vec<u32>,
    /// The numbers that are not small integers.
    pub nums: &'o mut Vec<f64>,
    /// The bytes of the strings the command does not hold.
    pub bytes: &'o mut Vec<u8>,
    /// Runs each growth of the three buffers (the wasm module grows them outside its per-call
    /// arena: they outlive the call).
    pub grow: fn(&mut dyn FnMut()),
}

impl Output<'_> {
    fn words<const N: usize>(&mut self, words: [u32; N]) {
        if self.ops.capacity() - self.ops.len() < N {
            let ops = &mut *self.ops;
            (self.grow)(&mut || ops.reserve(N.max(ops.len())));
        }
        self.ops.extend(words);
    }

    fn number(&mut self, f: f64) {
        if self.nums.len() == self.nums.capacity() {
            let nums = &mut *self.nums;
            (self.grow)(&mut || nums.reserve(nums.len().max(8)));
        }
        self.nums.push(f);
    }

    fn bytes(&mut self, b: &[u8]) {
        if self.bytes.capacity() - self.bytes.len() < b.len() {
            let bytes = &mut *self.bytes;
            (self.grow)(&mut || bytes.reserve(b.len().max(bytes.len())));
        }
        self.bytes.extend_from_slice(b);
    }

    /// Where the three buffers end now.
    fn mark(&self) -> Mark {
        Mark {
            ops: self.ops.len(),
            nums: self.nums.len(),
            bytes: self.bytes.len(),
        }
    }

    /// Write again what was written between `from` and `to` (two marks, in that order).
    fn repeat(&mut self, from: Mark, to: Mark) {
        fn again<T: Copy>(v: &mut Vec<T>, range: core::ops::Range<usize>, grow: fn(&mut dyn FnMut())) {
            if v.capacity() - v.len() < range.len() {
                grow(&mut || v.reserve(range.len().max(v.len())));
            }
            v.extend_from_within(range);
        }
        again(self.ops, from.ops..to.ops, self.grow);
        again(self.nums, from.nums..to.nums, self.grow);
        again(self.bytes, from.bytes..to.bytes, self.grow);
    }
}

/// Where an [`Output`]'s three buffers end, at some moment.
#[derive(Clone, Copy)]
struct Mark {
    ops: usize,
    nums: usize,
    bytes: usize,
}

/// Append the tape of the wire value `value` to `out`: the value `JSON.parse` makes of its
/// canonical text (keys in UTF-16 order, each number the double that text parses to), its
/// strings found among the command's or the known ones. No text is written or read.
pub fn write(value: &Value, strings: &mut Strings<'_>, known: &mut Known, out: &mut Output<'_>) {
    match value {
        Value::Null => out.words([NULL]),
        Value::Bool(b) => out.words([if *b { TRUE } else { FALSE }]),
        Value::Number(n) => write_number(n.as_f64().unwrap_or_default(), out),
        Value::String(s) => write_str(s.as_bytes(), strings, known, out),
        Value::Array(items) => {
            out.words([ARRAY, items.len() as u32]);
            items.iter().for_each(|x| write(x, strings, known, out));
        }
        Value::Object(map) => {
            out.words([OBJECT, map.len() as u32]);
            let mut member = |k: &String, x: &Value| {
                write_str(k.as_bytes(), strings, known, out);
                write(x, strings, known, out);
            };
            if map.keys().all(|k| utf8_order_is_utf16_order(k)) {
                map.iter().for_each(|(k, x)| member(k, x));
            } else {
                sorted_members(map).into_iter().for_each(|(k, x)| member(k, x));
            }
        }
    }
}

/// A number's words. Canonical text writes every number so that it parses back to its double
/// (an integer beyond 2^53 to the nearest one, as `as f64` rounds it); -0 as `0`.
fn write_number(f: f64, out: &mut Output<'_>) {
    if f.fract() == 0.0 && f.abs() < 2_147_483_648.0 {
        out.words([INT, f as i32 as u32]);
    } else {
        out.words([F64]);
        out.number(f);
    }
}

/// A string's words: [`STR`] and the number of the command's string with its text (found by
/// address first), else [`KNOWN_STR`] and its slot, else [`NEW_STR`], its length, a slot, and its
/// bytes.
fn write_str(bytes: &[u8], strings: &mut Strings<'_>, known: &mut Known, out: &mut Output<'_>) {
    if let Some(k) = (!bytes.is_empty()).then(|| strings.by_address(bytes)).flatten() {
        out.words([STR, k]);
        return;
    }
    let h = (strings.hash)(bytes);
    let slot = h as usize % KNOWN_SLOTS;
    if known.holds(slot, bytes) {
        out.words([KNOWN_STR, slot as u32]);
        return;
    }
    if let Some(k) = strings.find(bytes, h) {
        out.words([STR, k]);
        return;
    }
    let keep = known.keep(slot, bytes);
    write_new(bytes, keep.then_some(slot), out);
}

/// A string the JS side does not hold: [`NEW_STR`], its length, the slot it is to be kept in
/// (else [`NO_SLOT`]), and its bytes.
fn write_new(bytes: &[u8], slot: Option<usize>, out: &mut Output<'_>) {
    out.words([NEW_STR, bytes.len() as u32, slot.map_or(NO_SLOT, |s| s as u32)]);
    out.bytes(bytes);
}

/// A string the writer adds (`&'static str`): [`KNOWN_STR`] and its slot, found by its address
/// once it is kept, else kept if its slot is free ([`NEW_STR`] with the slot), else [`NEW_STR`].
/// Never looked for among the command's strings: the JS side keeps it after its first answer.
fn write_added(s: &'static str, known: &mut Known, out: &mut Output<'_>) {
    let bytes = s.as_bytes();
    let at = bytes.as_ptr() as usize;
    let cached = slot_of(at, ADDED_SLOTS);
    let (a, len, slot) = known.added[cached];
    if a == at && usize::from(len) == bytes.len() && slot != 0 {
        out.words([KNOWN_STR, u32::from(slot - 1)]);
        return;
    }
    let slot = hash(bytes) as usize % KNOWN_SLOTS;
    let kept = known.holds(slot, bytes);
    let keep = !kept && known.keep(slot, bytes);
    if kept || keep {
        // Kept for good (a slot keeps its string): found by address from now on.
        known.added[cached] = (at, bytes.len() as u8, slot as u16 + 1);
    }
    if kept {
        out.words([KNOWN_STR, slot as u32]);
    } else {
        write_new(bytes, keep.then_some(slot), out);
    }
}

/// The answer's tape as a [`Sink`]: a family's writer (`FamilyDesc::encode_to`) gives it the wire
/// value member by member, whole values of the command written by [`write`]. A whole value
/// given again ([`Sink::value_again`]) is the words, numbers and bytes it was written as,
/// copied, when no string was kept since it was written began: what writing it again would
/// write, since nothing else the writing reads changes (the command's strings and where they
/// are, the slots kept, which are never emptied).
pub struct TapeSink<'t> {
    strings: Strings<'t>,
    known: &'t mut Known,
    out: Output<'t>,
    /// The last whole value written: its address, where its tape starts and ends, and how many
    /// slots were filled then.
    last: Option<(*const Value, Mark, Mark, usize)>,
}

impl<'t> TapeSink<'t> {
    /// A sink writing to `out`, naming the command's `strings` and the ones the JS side keeps.
    pub fn new(strings: Strings<'t>, known: &'t mut Known, out: Output<'t>) -> TapeSink<'t> {
        TapeSink {
            strings,
            known,
            out,
            last: None,
        }
    }
}

impl Sink for TapeSink<'_> {
    fn number(&mut self, n: u32) {
        write_number(f64::from(n), &mut self.out);
    }

    fn str(&mut self, s: &'static str) {
        write_added(s, self.known, &mut self.out);
    }

    fn array(&mut self, len: usize) {
        self.out.words([ARRAY, len as u32]);
    }

    fn object(&mut self, len: usize) {
        self.out.words([OBJECT, len as u32]);
    }

    fn key(&mut self, key: &str) {
        write_str(key.as_bytes(), &mut self.strings, self.known, &mut self.out);
    }

    fn added_key(&mut self, key: &'static str) {
        write_added(key, self.known, &mut self.out);
    }

    fn value(&mut self, v: &Value) {
        let (start, filled) = (self.out.mark(), self.known.filled);
        write(v, &mut self.strings, self.known, &mut self.out);
        self.last = Some((v as *const Value, start, self.out.mark(), filled));
    }

    fn value_again(&mut self, v: &Value) {
        match self.last {
            Some((at, start, end, filled)) if core::ptr::eq(at, v) && self.known.filled == filled => {
                self.out.repeat(start, end);
            }
            _ => self.value(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The tape the JS side writes for `v` (keys in map order, which the reader keeps anyway).
    fn tape(v: &Value, ops: &mut Vec<u32>, nums: &mut Vec<f64>, text: &mut String) {
        match v {
            Value::Null => ops.push(NULL),
            Value::Bool(b) => ops.push(if *b { TRUE } else { FALSE }),
            Value::Number(n) => {
                let f = n.as_f64().unwrap();
                if f.fract() == 0.0 && f.abs() < 2f64.powi(31) {
                    ops.extend([INT, f as i32 as u32]);
                } else if f.fract() == 0.0 && f.abs() > 2f64.powi(53) && f.abs() < 1e21 {
                    let s = n.to_string();
                    ops.extend([NUMBER_TEXT, s.encode_utf16().count() as u32]);
                    text.push_str(&s);
                } else {
                    ops.push(F64);
                    nums.push(f);
                }
            }
            Value::String(s) => {
                ops.extend([STR, s.encode_utf16().count() as u32]);
                text.push_str(s);
            }
            Value::Array(a) => {
                ops.extend([ARRAY, a.len() as u32]);
                a.iter().for_each(|x| tape(x, ops, nums, text));
            }
            Value::Object(m) => {
                ops.extend([OBJECT, m.len() as u32]);
                for (k, x) in m {
                    ops.push(k.encode_utf16().count() as u32);
                    text.push_str(k);
                    tape(x, ops, nums, text);
                }
            }
        }
    }

    #[test]
    fn a_tape_reads_as_the_json_text_parses() {
        let text = r#"{"a":[1,-1,0,2147483648,-2147483649,9007199254740992,-9007199254740992,18446744073709550000,1.5,1e+21,-0.25],"é𝄞\u00ff":"x𝄞é","":"","z":{"b":null,"c":true,"d":false}}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        let (mut ops, mut nums, mut s) = (Vec::new(), Vec::new(), String::new());
        tape(&v, &mut ops, &mut nums, &mut s);
        for ascii in [false, s.is_ascii()] {
            let (read, places) = read(&Input {
                ops: &ops,
                nums: &nums,
                text: &s,
                ascii,
            })
            .unwrap();
            assert_eq!(read, v);
            // 7 keys, 2 strings, 1 number as text; the value holds them but the two "" and the text.
            assert_eq!(places.ranges.len(), 10);
            assert_eq!(places.held.iter().filter(|(_, k)| *k != 0).count(), 7);
            // Every number keeps its serde_json variant.
            assert_eq!(crate::canonical::to_string(&read), crate::canonical::to_string(&v));
            for (a, b) in read["a"].as_array().unwrap().iter().zip(v["a"].as_array().unwrap()) {
                assert_eq!(
                    (a.is_u64(), a.is_i64(), a.is_f64()),
                    (b.is_u64(), b.is_i64(), b.is_f64()),
                    "{a}"
                );
            }
        }
        assert!(read(&Input {
            ops: &ops[..ops.len() - 1],
            nums: &nums,
            text: &s,
            ascii: false
        })
        .is_none());
    }

    /// The value an answer's tape holds (what the JS side makes of it).
    fn untape(o: &[u32], n: &[f64], b: &[u8], command: &[String], kept: &mut Vec<String>) -> Value {
        let (mut op, mut num, mut byte) = (0, 0, 0);
        fn go(
            o: &[u32],
            n: &[f64],
            b: &[u8],
            c: &[String],
            kept: &mut Vec<String>,
            at: &mut (usize, usize, usize),
        ) -> Value {
            let w = o[at.0];
            at.0 += 1;
            match w {
                NULL => Value::Null,
                FALSE => false.into(),
                TRUE => true.into(),
                INT => {
                    at.0 += 1;
                    (o[at.0 - 1] as i32).into()
                }
                F64 => {
                    at.1 += 1;
                    Value::Number(Number::from_f64(n[at.1 - 1]).unwrap())
                }
                ARRAY => {
                    at.0 += 1;
                    Value::Array((0..o[at.0 - 1]).map(|_| go(o, n, b, c, kept, at)).collect())
                }
                OBJECT => {
                    at.0 += 1;
                    let mut m = Map::new();
                    for _ in 0..o[at.0 - 1] {
                        let Value::String(k) = go(o, n, b, c, kept, at) else {
                            panic!("a key")
                        };
                        let v = go(o, n, b, c, kept, at);
                        m.insert(k, v);
                    }
                    Value::Object(m)
                }
                STR => {
                    at.0 += 1;
                    c[o[at.0 - 1] as usize].clone().into()
                }
                KNOWN_STR => {
                    at.0 += 1;
                    kept[o[at.0 - 1] as usize].clone().into()
                }
                NEW_STR => {
                    let (len, slot) = (o[at.0] as usize, o[at.0 + 1]);
                    at.0 += 2;
                    let s = String::from_utf8(b[at.2..at.2 + len].to_vec()).unwrap();
                    at.2 += len;
                    if slot != NO_SLOT {
                        kept.resize(kept.len().max(slot as usize + 1), String::new());
                        kept[slot as usize] = s.clone();
                    }
                    s.into()
                }
                _ => panic!("word {w}"),
            }
        }
        let mut at = (op, num, byte);
        let v = go(o, n, b, command, kept, &mut at);
        (op, num, byte) = at;
        assert_eq!((op, num, byte), (o.len(), n.len(), b.len()));
        v
    }

    #[test]
    fn an_answer_is_what_json_parse_makes_of_its_canonical_text_with_the_commands_strings_and_kept_ones() {
        let command = json!({"kind": "send", "payload": {"message": "hi"}});
        let (mut ops, mut nums, mut s) = (Vec::new(), Vec::new(), String::new());
        tape(&command, &mut ops, &mut nums, &mut s);
        let (command_read, places) = read(&Input {
            ops: &ops,
            nums: &nums,
            text: &s,
            ascii: true,
        })
        .unwrap();
        let names: Vec<String> = places
            .ranges
            .iter()
            .map(|(a, b)| s[*a as usize..*b as usize].to_owned())
            .collect();
        let mut strings = Strings::new(&s, &places);
        let mut known = Known::default();
        let mut kept = Vec::new();
        let wires = [
            json!({"kind": "deliver", "payload": {"message": "hi"}, "version": 6, "x": [0.5, -1, 1e21, 12345678901234567000u64, [], {}], "\u{e000}": 1, "𝄞": "q\"\\\n\u{1}\u{7f}é"}),
            json!({"kind": "deliver", "e": "", "n": null, "t": true, "f": false, "a": [[{"hi": "hi"}]]}),
            json!("hi"),
            json!(-7),
        ];
        let mut tape_of = |wire: &Value, known: &mut Known| {
            let (mut o, mut n, mut b) = (Vec::new(), Vec::new(), Vec::new());
            let mut out = Output {
                ops: &mut o,
                nums: &mut n,
                bytes: &mut b,
                grow: |f| f(),
            };
            write(wire, &mut strings, known, &mut out);
            (o, n, b)
        };
        for wire in wires.iter().chain(wires.iter()) {
            let (o, n, b) = tape_of(wire, &mut known);
            let back = untape(&o, &n, &b, &names, &mut kept);
            // The same value, its numbers the doubles JSON.parse makes of its canonical text
            // (which writes each double as that text again).
            assert_eq!(crate::canonical::to_string(&back), crate::canonical::to_string(wire));
        }
        // The second time, "deliver" and "version" are kept strings, "hi" the command's.
        assert_eq!(&tape_of(&wires[0], &mut known).0[..5], &[OBJECT, 6, STR, 0, KNOWN_STR]);
        // The command's own strings (the value read holds them) are named by their address: the
        // key "message" and its value "hi" (strings 3 and 4: "kind", "send" and "payload" come first).
        let (o, _, b) = tape_of(&command_read["payload"], &mut known);
        assert_eq!(o, [OBJECT, 1, STR, 3, STR, 4]);
        assert!(b.is_empty());
        // -0 is the 0 that its text, `0`, parses to.
        assert_eq!(tape_of(&json!(-0.0), &mut known).0, [INT, 0]);
        // Keys come in UTF-16 order, as JSON.parse of canonical text makes them: U+1D11E (a
        // surrogate pair, D834 DD1E) before U+E000, which UTF-8 (and the map) put the other way.
        let (o, _, b) = tape_of(&json!({"\u{e000}": 1, "𝄞": 2, "a": 3}), &mut Known::default());
        assert_eq!(o[..2], [OBJECT, 3]);
        assert_eq!(b, "a𝄞\u{e000}".as_bytes());
    }

    /// A string the writer adds is sent once with a slot, then named by it (found by its address,
    /// with no hash), and never looked for among the command's strings.
    #[test]
    fn the_writers_own_strings_are_kept_then_found_by_address() {
        let (_, places) = read(&Input {
            ops: &[OBJECT, 1, 7, STR, 7],
            nums: &[],
            text: "versionversion",
            ascii: true,
        })
        .unwrap();
        let mut known = Known::default();
        let (mut o, mut n, mut b) = (Vec::new(), Vec::new(), Vec::new());
        let mut sink = TapeSink::new(
            Strings::new("versionversion", &places),
            &mut known,
            Output {
                ops: &mut o,
                nums: &mut n,
                bytes: &mut b,
                grow: |f| f(),
            },
        );
        for _ in 0..3 {
            sink.object(1);
            sink.added_key("version");
            sink.str("deliver");
        }
        assert!(sink.strings.slots.is_empty(), "the command's strings were hashed");
        let (v, d) = (o[4], o[7]);
        assert_eq!(o[..8], [OBJECT, 1, NEW_STR, 7, v, NEW_STR, 7, d]);
        assert_eq!(
            o[8..],
            [OBJECT, 1, KNOWN_STR, v, KNOWN_STR, d, OBJECT, 1, KNOWN_STR, v, KNOWN_STR, d]
        );
        assert_eq!(b, b"versiondeliver");
    }

    /// A whole value given again is the tape it was written as, copied, which is what writing
    /// it again writes; unless writing it kept a string (the JS side then holds it: written
    /// again, it is named by its slot), or it is not the last value written.
    #[test]
    fn a_value_given_again_is_written_as_writing_it_again_would() {
        let command = json!({"payload": {"m": "hi", "n": [1.5, null, ""], "o": {"p": true}}});
        let (mut ops, mut nums, mut s) = (Vec::new(), Vec::new(), String::new());
        tape(&command, &mut ops, &mut nums, &mut s);
        let (read, places) = read(&Input {
            ops: &ops,
            nums: &nums,
            text: &s,
            ascii: true,
        })
        .unwrap();
        let mut known = Known::default();
        let fresh = json!({"x": "not the command's"});
        let (mut o, mut n, mut b) = (Vec::new(), Vec::new(), Vec::new());
        let mut sink = TapeSink::new(
            Strings::new(&s, &places),
            &mut known,
            Output {
                ops: &mut o,
                nums: &mut n,
                bytes: &mut b,
                grow: |f| f(),
            },
        );
        let part = |sink: &mut TapeSink<'_>, again: bool, v: &Value| {
            let start = sink.out.mark();
            if again {
                sink.value_again(v);
            } else {
                sink.value(v);
            }
            let (end, out) = (sink.out.mark(), &sink.out);
            let ops = out.ops[start.ops..end.ops].to_vec();
            (
                ops,
                out.nums[start.nums..end.nums].to_vec(),
                out.bytes[start.bytes..end.bytes].to_vec(),
            )
        };
        let payload = &read["payload"];
        let first = part(&mut sink, false, payload);
        assert!(first.0.contains(&F64) && first.0.contains(&STR));
        assert_eq!(part(&mut sink, true, payload), first);
        assert_eq!(part(&mut sink, false, payload), first);
        // A string kept while it was written: named by its slot the second time.
        let kept = part(&mut sink, false, &fresh);
        let again = part(&mut sink, true, &fresh);
        assert_eq!((kept.0[2], again.0[2]), (NEW_STR, KNOWN_STR));
        assert!(again.2.is_empty());
        // Not the last value written: written again.
        assert_eq!(part(&mut sink, true, payload), first);
    }

    /// Strings that all hash alike cost at most `MAX_PROBE` probes each: the first ones are
    /// named, the rest go unnamed (sent as their bytes), and nothing is ever named wrongly.
    #[test]
    fn colliding_strings_are_bounded_work_and_never_misnamed() {
        let names: Vec<String> = (0..100).map(|i| format!("s{i}")).collect();
        let text: String = names.concat();
        let mut ranges = Vec::new();
        let mut at = 0u32;
        for n in &names {
            ranges.push((at, at + n.len() as u32));
            at += n.len() as u32;
        }
        let mut strings = Strings::with_hash(&text, &ranges, |_| 7);
        for (i, n) in names.iter().enumerate() {
            let found = strings.find(n.as_bytes(), 7);
            assert_eq!(found, (i < MAX_PROBE).then_some(i as u32), "{n}");
        }
        assert_eq!(strings.find(b"absent", 7), None);
        // Strings alike but in their middle (URLs of one length) spread like any others.
        let urls: Vec<String> = (0..1000).map(|i| format!("https://img.example/{i:04}/a.png")).collect();
        let mut slots: Vec<u32> = urls.iter().map(|u| hash(u.as_bytes()) & 2047).collect();
        slots.sort_unstable();
        slots.dedup();
        assert!(
            slots.len() > 600,
            "{} distinct slots of 2048 for 1000 strings",
            slots.len()
        );
    }
}
