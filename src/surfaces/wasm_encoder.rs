//! The JS encoder's wasm module (feature `wasm-encoder`, built into `pkg/encoder.cjs`): every
//! registered family's encoder and negotiation, compiled unchanged.
//!
//! The JS side (`js/encoder-entry.js`) checks a producer's command for JSON-ness (with paths,
//! setting binary values aside) and writes it as a tape (`super::tape`) into buffers this module
//! keeps (`tape_reserve`); `tape_encode` reads it into a value without a JSON parser, runs the
//! family's encoder on it — whose answer's canonical text is what one `hookwire --family F
//! encode --lines` line writes (`invariants::check_encode_for` holds the two equal) — and hands
//! a wire value back as a tape written from that value (strings the command carried named by
//! number, so JS gives back its own), anything else as its text. Targets are named once per
//! instance (`tape_target`), and read by their family then. `encode_json` and `negotiate_json`
//! take and answer JSON text (the target check and negotiation). Each export takes the family by
//! name, as the CLI does. Server and step code only: the workflow-safe decoder never links this.

use super::tape;
use crate::{Answer, Transport};
use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use serde::Deserialize as _;
use serde_json::Value;
use std::alloc::System;
use wasm_bindgen::prelude::*;

/// The module's allocator: one call parses a command into many small maps and strings, encodes
/// it and drops them all, so its blocks come from one arena by bumping a pointer, and the arena
/// starts over whenever none of its blocks is live (after each call, once JS has freed the
/// answer). What does not fit (a command of more than a few MiB) comes from the system
/// allocator, so nothing grows without bound. Measured on the encode benchmark: about a third of
/// a call's time went to the system allocator.
///
/// The value a command's tape is read into has a region of its own (see [`reading`]): its
/// blocks are freed all at once when the call ends, so a command the encoder only borrowed is
/// never walked again to be dropped (a BTreeMap's drop visits every node; about 4 % of a call).
#[global_allocator]
static ALLOC: Arena = Arena(UnsafeCell::new(Bump {
    base: 0,
    next: 0,
    live: 0,
    persist: false,
    reading: false,
    command_base: 0,
    command_next: 0,
    spilled: false,
}));

/// The arena's size: a few times what the largest ordinary command allocates.
const ARENA: usize = 4 << 20;

struct Arena(UnsafeCell<Bump>);

/// The arena's bounds (`base` 0 until the first allocation) and its live blocks; `persist` while
/// something that outlives the call is allocated (see [`persistent`]); `reading` while a
/// command's tape is read, whose blocks come from the command's region (`command_base` 0 until
/// first used) and are never counted, `spilled` once one of them came from the system allocator
/// instead (that command is then dropped block by block).
struct Bump {
    base: usize,
    next: usize,
    live: usize,
    persist: bool,
    reading: bool,
    command_base: usize,
    command_next: usize,
    spilled: bool,
}

/// Run `f` with every allocation it makes (or grows) taken from the system allocator: what
/// outlives a call (the tape boundary's buffers, the targets) must not keep the arena from
/// starting over.
fn persistent<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: single-threaded (see `Sync` below); the flag is restored before returning.
    let b = unsafe { &mut *ALLOC.0.get() };
    let before = core::mem::replace(&mut b.persist, true);
    let out = f();
    // SAFETY: as above.
    unsafe { (*ALLOC.0.get()).persist = before };
    out
}

/// Run `f` (the reading of a command's tape) with every block it allocates taken from the
/// command's region: [`end_command`] frees them all at once when the call ends.
fn reading<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: single-threaded (see `Sync` below); the flag is restored before returning.
    let before = core::mem::replace(unsafe { &mut (*ALLOC.0.get()).reading }, true);
    let out = f();
    // SAFETY: as above.
    unsafe { (*ALLOC.0.get()).reading = before };
    out
}

/// The end of a call: the command read in [`reading`] is freed with its region, unless one of
/// its blocks came from the system allocator (then it is dropped). Nothing else may hold a block
/// of the region: the command's tape is read into `command` and what `tape::read` answers beside
/// it, which the caller has dropped; a family that took the command (its long way) left `Null`.
fn end_command(command: Value) {
    // SAFETY: single-threaded; a plain read.
    let spilled = unsafe { (*ALLOC.0.get()).spilled };
    if spilled {
        drop(command);
    } else {
        core::mem::forget(command);
    }
    // SAFETY: single-threaded, and no block of the region is reachable any more (above).
    let b = unsafe { &mut *ALLOC.0.get() };
    b.command_next = b.command_base;
    b.spilled = false;
}

// SAFETY: a wasm32-unknown-unknown module without threads runs single-threaded.
unsafe impl Sync for Arena {}

impl Arena {
    /// Whether `ptr` is one of the arena's blocks.
    fn holds(b: &Bump, ptr: *mut u8) -> bool {
        b.base != 0 && (b.base..b.base + ARENA).contains(&(ptr as usize))
    }

    /// Whether `ptr` is a block of the command's region.
    fn holds_command(b: &Bump, ptr: *mut u8) -> bool {
        b.command_base != 0 && (b.command_base..b.command_base + ARENA).contains(&(ptr as usize))
    }

    /// A block of `layout` from the region that starts at `*base` (made on first use: `*base`
    /// 0), its free part from `*next`; `None` when the region cannot be made or the block does
    /// not fit.
    unsafe fn bump(base: &mut usize, next: &mut usize, layout: Layout) -> Option<*mut u8> {
        if *base == 0 {
            let region = System.alloc(Layout::from_size_align_unchecked(ARENA, 16));
            if region.is_null() {
                return None;
            }
            (*base, *next) = (region as usize, region as usize);
        }
        let start = (*next + layout.align() - 1) & !(layout.align() - 1);
        let end = start.checked_add(layout.size()).filter(|end| *end <= *base + ARENA)?;
        *next = end;
        Some(start as *mut u8)
    }

    /// A block of the command's region (of the system allocator when it does not fit).
    unsafe fn alloc_command(b: &mut Bump, layout: Layout) -> *mut u8 {
        Arena::bump(&mut b.command_base, &mut b.command_next, layout).unwrap_or_else(|| {
            b.spilled = true;
            System.alloc(layout)
        })
    }
}

// SAFETY: each block is handed out once until it is freed (the arena starts over only when no
// block is live), aligned as asked, and blocks from the system allocator go back to it.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let b = &mut *self.0.get();
        if b.persist {
            return System.alloc(layout);
        }
        if b.reading {
            return Arena::alloc_command(b, layout);
        }
        match Arena::bump(&mut b.base, &mut b.next, layout) {
            Some(block) => {
                b.live += 1;
                block
            }
            None => System.alloc(layout),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let b = &mut *self.0.get();
        if Arena::holds_command(b, ptr) {
            // Freed with the region, when the call ends.
            return;
        }
        if Arena::holds(b, ptr) {
            b.live -= 1;
            if b.live == 0 {
                b.next = b.base;
            }
        } else {
            System.dealloc(ptr, layout);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let b = &mut *self.0.get();
        if b.persist && !Arena::holds(b, ptr) && !Arena::holds_command(b, ptr) {
            return System.realloc(ptr, layout, new_size);
        }
        // The newest block of the command's region grows in place while the tape is read.
        if b.reading && Arena::holds_command(b, ptr) && ptr as usize + layout.size() == b.command_next {
            if let Some(end) = (ptr as usize)
                .checked_add(new_size)
                .filter(|end| *end <= b.command_base + ARENA)
            {
                b.command_next = end;
                return ptr;
            }
        }
        // The newest block (a string or vector being grown) grows in place.
        if Arena::holds(b, ptr) && ptr as usize + layout.size() == b.next {
            if let Some(end) = (ptr as usize)
                .checked_add(new_size)
                .filter(|end| *end <= b.base + ARENA)
            {
                b.next = end;
                return ptr;
            }
        }
        let new = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
        if !new.is_null() {
            core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
            self.dealloc(ptr, layout);
        }
        new
    }
}

/// Run when an instance is made (JS calls it first): what a family's encoder keeps once made is
/// made here, outside the arena. A block of it in the arena would stay live, and the arena would
/// never start over again (every call after it filled up would go to the system allocator).
#[wasm_bindgen(start)]
fn start() {
    persistent(|| crate::ENCODERS.iter().for_each(|e| (e.prepare)()));
}

/// The arena's blocks that are live: between calls, none (each call gives back what it took, so
/// the next one starts at the arena's start).
#[wasm_bindgen]
pub fn arena_blocks() -> u32 {
    // SAFETY: single-threaded (see `Sync` above); a plain read.
    unsafe { (*ALLOC.0.get()).live as u32 }
}

fn parse(text: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).ok()
}

fn bad_request(message: &str) -> String {
    Answer::transport(Transport::InvalidRequest, message).to_text()
}

/// What this module calls of a family (`lib.rs` registers one per family as `ENCODERS`): the
/// entries of its `FamilyDesc` by the same names.
pub struct Encoder {
    /// The family's name.
    pub name: &'static str,
    /// Read a target given as JSON: its number, or the refusal every command gets for it.
    pub read_target: fn(&Value) -> Result<usize, crate::EncodeError>,
    /// Encode a command for a target read by `read_target`, a wire value given to a sink
    /// (`None`) and any other answer answered.
    pub encode_to: fn(&mut Value, usize, &mut dyn crate::canonical::Sink) -> Option<Answer>,
    /// The same answer as canonical text.
    pub encode_text: fn(&Value, &Value, &mut String),
    /// One move of its negotiation.
    pub negotiate_step: fn(&Value) -> Value,
    /// Make what its encoder keeps once made (run once, outside the arena).
    pub prepare: fn(),
}

/// The registered family named `name`: what this module calls of it.
fn family(name: &str) -> Result<&'static Encoder, String> {
    crate::ENCODERS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| bad_request("no such family in this build"))
}

/// Encode the command (JSON text) for the target (JSON text) with the family named `family`:
/// `{"ok": wire}` or `{"error": …}` (the family may write a valid command's answer straight from
/// the command).
#[wasm_bindgen]
pub fn encode_json(family_name: &str, command: &str, target: &str) -> String {
    let f = match family(family_name) {
        Ok(f) => f,
        Err(e) => return e,
    };
    match (parse(command), parse(target)) {
        (Some(c), Some(t)) => {
            let mut out = String::with_capacity(command.len() * 2 + 64);
            (f.encode_text)(&c, &t, &mut out);
            out
        }
        _ => bad_request("the encoder's input is not JSON text"),
    }
}

/// One move of the family's negotiation (contract §12, §14), on JSON text, so the JS driver
/// re-implements no rule: the request and the answer are the family's (`negotiate_step`).
#[wasm_bindgen]
pub fn negotiate_json(family_name: &str, request: &str) -> String {
    let f = match family(family_name) {
        Ok(f) => f,
        Err(e) => return e,
    };
    match parse(request) {
        Some(req) => crate::canonical::to_string(&(f.negotiate_step)(&req)),
        None => bad_request("the negotiation request is not JSON text"),
    }
}

/// The tape boundary's buffers (`super::tape`), which live as long as the instance: the command's
/// tape as JS writes it, the answer's as JS reads it, the targets JS named, the strings it keeps.
/// Allocated and grown only inside [`persistent`].
struct Boundary {
    ops: Vec<u32>,
    nums: Vec<f64>,
    text: Vec<u8>,
    out_ops: Vec<u32>,
    out_nums: Vec<f64>,
    out_bytes: Vec<u8>,
    targets: Vec<Named>,
    known: tape::Known,
    /// Addresses for JS: the command's buffers (`tape_reserve`), then the answer (`tape_encode`).
    header: [u32; 8],
}

/// A target JS named ([`tape_target`]): its family, its JSON (the same JSON is the same
/// number), and what the family read of it, once for every command encoded for it: its number
/// for `encode_to`, or the text of the refusal every command gets.
struct Named {
    family: &'static Encoder,
    json: Value,
    read: Result<usize, String>,
}

struct Global(UnsafeCell<Option<Box<Boundary>>>);
// SAFETY: a wasm32-unknown-unknown module without threads runs single-threaded.
unsafe impl Sync for Global {}
static BOUNDARY: Global = Global(UnsafeCell::new(None));

fn boundary() -> &'static mut Boundary {
    // SAFETY: single-threaded, and no export holds the reference across a call to another.
    let b = unsafe { &mut *BOUNDARY.0.get() };
    b.get_or_insert_with(|| {
        persistent(|| {
            Box::new(Boundary {
                ops: Vec::new(),
                nums: Vec::new(),
                text: Vec::new(),
                out_ops: Vec::new(),
                out_nums: Vec::new(),
                out_bytes: Vec::new(),
                targets: Vec::new(),
                known: tape::Known::default(),
                header: [0; 8],
            })
        })
    })
}

/// How many bytes each of the boundary's buffers keeps between calls: what a larger command or
/// answer grew is given back after it (the buffers outlive calls, the arena's blocks do not).
const KEEP: usize = 1 << 20;

/// Empty `v`, giving back what it holds beyond [`KEEP`] bytes.
fn clear<T>(v: &mut Vec<T>) {
    v.clear();
    if v.capacity() * core::mem::size_of::<T>() > KEEP {
        *v = Vec::new();
    }
}

/// Room for a command's tape of `ops` words, `nums` numbers and `bytes` bytes of strings' text:
/// the address of three addresses, where JS writes each.
#[wasm_bindgen]
pub fn tape_reserve(ops: u32, nums: u32, bytes: u32) -> u32 {
    let b = boundary();
    persistent(|| {
        fn room<T: Copy + Default>(v: &mut Vec<T>, n: u32) {
            if v.len() < n as usize {
                v.resize((n as usize).next_power_of_two(), T::default());
            }
        }
        room(&mut b.ops, ops.max(1));
        room(&mut b.nums, nums.max(1));
        room(&mut b.text, bytes.max(1));
    });
    b.header[..3].copy_from_slice(&[b.ops.as_ptr() as u32, b.nums.as_ptr() as u32, b.text.as_ptr() as u32]);
    b.header.as_ptr() as u32
}

/// Name a target (JSON text) of the family `family_name` for [`tape_encode`]: its number, or -1
/// when the family is unknown or the text is not JSON. The same text is the same number. The
/// family reads it here, once (`read_target`), not on every encode.
#[wasm_bindgen]
pub fn tape_target(family_name: &str, target: &str) -> i32 {
    let (Ok(f), Some(t)) = (family(family_name), persistent(|| parse(target))) else {
        return -1;
    };
    let b = boundary();
    if let Some(i) = b.targets.iter().position(|n| core::ptr::eq(n.family, f) && n.json == t) {
        return i as i32;
    }
    persistent(|| {
        let read = (f.read_target)(&t).map_err(|e| Answer::Refused(e).to_text());
        b.targets.push(Named {
            family: f,
            json: t,
            read,
        });
    });
    b.targets.len() as i32 - 1
}

/// Encode the command on the tape JS wrote (`ops` words, `nums` numbers, `bytes` bytes of text,
/// `ascii` when all of it is ASCII) for the target numbered `target` ([`tape_target`]). Answers
/// the address of seven words: 0 and the answer's tape (its words' address and count, its numbers'
/// address, its new strings' bytes' address and count) for a wire value, or 1 and the answer's
/// JSON text (as those bytes) for anything else — the text `encode_json` answers —, then 1 if
/// the command's buffers were given back (JS reserves them again).
#[wasm_bindgen]
pub fn tape_encode(target: u32, ops: u32, nums: u32, bytes: u32, ascii: bool) -> u32 {
    let b = boundary();
    let answer = match (
        b.targets.get(target as usize),
        core::str::from_utf8(b.text.get(..bytes as usize).unwrap_or_default()),
    ) {
        (Some(target), Ok(text)) => {
            let input = tape::Input {
                ops: b.ops.get(..ops as usize).unwrap_or_default(),
                nums: b.nums.get(..nums as usize).unwrap_or_default(),
                text,
                ascii,
            };
            match reading(|| tape::read(&input)) {
                Some((mut command, places)) => {
                    persistent(|| {
                        clear(&mut b.out_ops);
                        clear(&mut b.out_nums);
                        clear(&mut b.out_bytes);
                    });
                    // A wire value goes to the answer's tape as the family writes it (its
                    // buffers grown outside the arena); any other answer back as its text.
                    let mut sink = tape::TapeSink::new(
                        tape::Strings::new(text, &places),
                        &mut b.known,
                        tape::Output {
                            ops: &mut b.out_ops,
                            nums: &mut b.out_nums,
                            bytes: &mut b.out_bytes,
                            grow: |f| persistent(f),
                        },
                    );
                    let answer = match &target.read {
                        Ok(t) => (target.family.encode_to)(&mut command, *t, &mut sink).map(|other| other.to_text()),
                        Err(refusal) => Some(refusal.clone()),
                    };
                    drop(sink);
                    drop(places);
                    end_command(command);
                    answer
                }
                None => {
                    end_command(Value::Null);
                    Some(bad_request("the encoder's input is not a tape"))
                }
            }
        }
        _ => Some(bad_request("the encoder's input is not a tape")),
    };
    let status = match answer {
        None => 0,
        Some(text) => {
            persistent(|| {
                clear(&mut b.out_ops);
                clear(&mut b.out_bytes);
                b.out_bytes.extend_from_slice(text.as_bytes());
            });
            1
        }
    };
    // A command's buffers that a large command grew are given back (JS reserves them again).
    let released = b.text.len() > KEEP || b.ops.len() * 4 > KEEP || b.nums.len() * 8 > KEEP;
    if released {
        persistent(|| {
            b.ops = Vec::new();
            b.nums = Vec::new();
            b.text = Vec::new();
        });
    }
    b.header = [
        status,
        b.out_ops.as_ptr() as u32,
        b.out_ops.len() as u32,
        b.out_nums.as_ptr() as u32,
        b.out_bytes.as_ptr() as u32,
        b.out_bytes.len() as u32,
        u32::from(released),
        0,
    ];
    b.header.as_ptr() as u32
}

/// The serde-wasm-bindgen route, for comparison only (feature `route-comparison`, never shipped):
/// the command and target as live JS values converted by serde-wasm-bindgen, the answer
/// converted back the same way.
#[cfg(feature = "route-comparison")]
#[wasm_bindgen]
pub fn encode_value(family_name: &str, command: JsValue, target: JsValue) -> Result<JsValue, JsValue> {
    use serde::Serialize as _;
    let err = |e: serde_wasm_bindgen::Error| JsValue::from(e);
    let f = crate::family(family_name).ok_or_else(|| JsValue::from("no such family"))?;
    let command: Value = serde_wasm_bindgen::from_value(command).map_err(err)?;
    let target: Value = serde_wasm_bindgen::from_value(target).map_err(err)?;
    (f.encode)(command, &target)
        .to_json()
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(err)
}
