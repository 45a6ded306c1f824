#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

mod error;
#[cfg(feature = "std")]
pub use error::EncodeError;
pub use error::{message_template, At, DecodeError, Detail, ErrorCode, What, TRANSPORT_CODES};

// The families: each one's decoder, encoder, negotiation and typed commands and values.
pub mod session_inbox;
pub mod turn_control;

// The generic machinery the families, the hosts and the maintainer tools share: public for the
// crates of this repository (the CLI, the wasm modules, the tests, fuzz/), not an interface.
#[doc(hidden)]
pub mod chain;
#[doc(hidden)]
pub mod decode;
#[doc(hidden)]
pub mod family;
#[doc(hidden)]
pub mod host;

#[cfg(feature = "std")]
pub mod canonical;
#[cfg(feature = "std")]
#[doc(hidden)] // the change classifier of `hookwire diff` and `hookwire check`
pub mod diff;
#[cfg(feature = "std")]
#[doc(hidden)] // test support: the fuzz targets' and their regression tests' checks
pub mod invariants;
#[cfg(feature = "std")]
#[doc(hidden)] // a generator: js/contract.js and the TypeScript declarations
pub mod jsgen;
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod json;
#[cfg(feature = "std")]
#[doc(hidden)] // `hookwire removable`'s data
pub mod removable;
#[cfg(feature = "std")]
#[doc(hidden)] // the shape model behind each version's `validate` and `json_schema`
pub mod shape;

#[doc(hidden)]
/// Every family this build knows, as the CLI and the shared checks take them. Adding a family
/// is one line here.
#[cfg(feature = "std")]
pub static FAMILIES: &[&family::FamilyDesc] = &[&session_inbox::FAMILY, &turn_control::FAMILY];

#[doc(hidden)]
/// The family named `name` (`session-inbox`, `turn-control`).
#[cfg(feature = "std")]
pub fn family(name: &str) -> Option<&'static family::FamilyDesc> {
    FAMILIES.iter().copied().find(|f| f.name() == name)
}

// The maintainer machinery (feature `maintainer`, which the CLI enables): not an interface.
#[cfg(feature = "maintainer")]
#[doc(hidden)]
pub mod artifacts;
#[cfg(feature = "maintainer")]
#[doc(hidden)]
pub mod conformance;
#[cfg(feature = "maintainer")]
#[doc(hidden)]
pub mod evolve;
#[cfg(feature = "maintainer")]
#[doc(hidden)]
pub mod guard;

#[cfg(all(feature = "wasm", target_arch = "wasm32"))]
mod wasm;
/// The family the wasm decoder module serves: one module per family, chosen by feature (the
/// registration point of `wasm.rs`, which names no family).
#[cfg(all(feature = "wasm", target_arch = "wasm32", not(feature = "wasm-turn-control")))]
use session_inbox::decode_on as wasm_decode_on;
#[cfg(all(feature = "wasm", target_arch = "wasm32", feature = "wasm-turn-control"))]
use turn_control::decode_on as wasm_decode_on;
#[cfg(all(feature = "wasm-encoder", target_arch = "wasm32"))]
mod wasm_encoder;

/// The wasm decoder's allocator: small, because every byte of the module is paid per delivery.
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
#[global_allocator]
static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    // SAFETY: a wasm32-unknown-unknown module without threads runs single-threaded.
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

/// No panic is reachable on the decode path; if one were, the module stops without formatting.
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
