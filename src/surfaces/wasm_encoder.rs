//! The JS encoder's wasm module (feature `wasm-encoder`, built into `pkg/encoder.cjs`): every
//! registered family's encoder and negotiation, compiled unchanged, behind a JSON-text boundary.
//!
//! The JS side (`js/encoder-entry.js`) turns a producer's command into JSON text — checking
//! JSON-ness with paths and setting binary values aside — and this module answers exactly what
//! one `hookwire --family F encode --lines` line answers, so the two cannot differ. Each export
//! takes the family by name, as the CLI does. Server and step code only: the workflow-safe
//! decoder never links this.

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
#[global_allocator]
static ALLOC: Arena = Arena(UnsafeCell::new(Bump {
    base: 0,
    next: 0,
    live: 0,
}));

/// The arena's size: a few times what the largest ordinary command allocates.
const ARENA: usize = 4 << 20;

struct Arena(UnsafeCell<Bump>);

/// The arena's bounds (`base` 0 until the first allocation) and its live blocks.
struct Bump {
    base: usize,
    next: usize,
    live: usize,
}

// SAFETY: a wasm32-unknown-unknown module without threads runs single-threaded.
unsafe impl Sync for Arena {}

impl Arena {
    /// Whether `ptr` is one of the arena's blocks.
    fn holds(b: &Bump, ptr: *mut u8) -> bool {
        b.base != 0 && (b.base..b.base + ARENA).contains(&(ptr as usize))
    }
}

// SAFETY: each block is handed out once until it is freed (the arena starts over only when no
// block is live), aligned as asked, and blocks from the system allocator go back to it.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let b = &mut *self.0.get();
        if b.base == 0 {
            let arena = System.alloc(Layout::from_size_align_unchecked(ARENA, 16));
            if arena.is_null() {
                return System.alloc(layout);
            }
            (b.base, b.next) = (arena as usize, arena as usize);
        }
        let start = (b.next + layout.align() - 1) & !(layout.align() - 1);
        match start.checked_add(layout.size()) {
            Some(end) if end <= b.base + ARENA => {
                b.next = end;
                b.live += 1;
                start as *mut u8
            }
            _ => System.alloc(layout),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let b = &mut *self.0.get();
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

fn parse(text: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).ok()
}

fn bad_request(message: &str) -> String {
    Answer::transport(Transport::InvalidRequest, message).to_text()
}

type Entry = (&'static str, fn(&Value, &Value, &mut String), fn(&Value) -> Value);

/// The registered family named `name`: its encoder's text answer and its negotiation's move.
fn family(name: &str) -> Result<&'static Entry, String> {
    crate::ENCODERS
        .iter()
        .find(|e| e.0 == name)
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
            (f.1)(&c, &t, &mut out);
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
        Some(req) => crate::canonical::to_string(&(f.2)(&req)),
        None => bad_request("the negotiation request is not JSON text"),
    }
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
