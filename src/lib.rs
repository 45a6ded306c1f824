#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

// The layout, bottom-up: `engine` knows no family and no `std`; `hosts` know the engine; `shape`
// knows no family; `families` use all three; `contract` and `surfaces` take a family as a
// parameter. Nothing imports a layer above its own (`tests/tidy.rs` checks it). The modules are
// re-exported at the crate root, so every path below is also `hookwire::<module>`.

/// The generic core of the decoder: no family, no `std` on the decode path.
mod engine {
    #[cfg(feature = "std")]
    pub mod answer;
    pub mod chain;
    pub mod decode;
    pub mod error;
    pub mod family;
    pub mod host;
    #[cfg(feature = "std")]
    pub mod removable;
}

/// The hosts the decoder runs on: parsed JSON natively, live JS values in wasm.
mod hosts {
    #[cfg(feature = "std")]
    pub mod json;
    #[cfg(all(feature = "wasm", target_arch = "wasm32"))]
    pub mod wasm;
}

/// The shape model behind each version's `validate` and `json_schema` (validation with JSON
/// pointers, JSON Schema and TypeScript rendering), and canonical JSON.
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod shape {
    pub mod canonical;
    mod model;
    pub use model::*;
}

/// The contract's tooling over any family: the lock, the guard, the change classifier, the
/// shared conformance checks, the invariants, the maintainer workflows.
#[cfg(feature = "std")]
mod contract {
    #[cfg(feature = "maintainer")]
    pub mod artifacts;
    #[cfg(feature = "maintainer")]
    pub mod conformance;
    pub mod diff;
    #[cfg(feature = "maintainer")]
    pub mod evolve;
    #[cfg(feature = "maintainer")]
    pub mod guard;
    pub mod invariants;
}

/// What the outside sees of a family: the JS generator, the encoder's wasm exports and their tape.
mod surfaces {
    #[cfg(feature = "std")]
    pub mod jsgen;
    #[cfg(feature = "std")]
    pub mod tape;
    #[cfg(all(feature = "wasm-encoder", target_arch = "wasm32"))]
    pub mod wasm_encoder;
}

#[cfg(feature = "std")]
pub use engine::answer::{self as answer, Answer};
use engine::error;
#[cfg(feature = "std")]
pub use engine::error::EncodeError;
pub use engine::error::{message_template, At, DecodeError, Detail, ErrorCode, Transport, What};

// The generic machinery the families, the hosts and the maintainer tools share: public for the
// crates of this repository (the CLI, the wasm modules, the tests, fuzz/), not an interface.
#[cfg(feature = "std")]
#[doc(hidden)] // the change classifier of `hookwire diff` and `hookwire check`
pub use contract::diff;
#[cfg(feature = "std")]
#[doc(hidden)] // test support: the fuzz targets' and their regression tests' checks
pub use contract::invariants;
#[cfg(feature = "std")]
#[doc(hidden)]
pub use engine::removable; // `hookwire removable`'s data
#[doc(hidden)]
pub use engine::{chain, decode, family, host};
#[cfg(feature = "std")]
#[doc(hidden)]
pub use hosts::json;
#[cfg(feature = "std")]
pub use shape::canonical;
#[cfg(feature = "std")]
#[doc(hidden)] // a generator: js/contract.js and the TypeScript declarations
pub use surfaces::jsgen;
#[cfg(feature = "std")]
#[doc(hidden)] // the JS encoder's boundary (its words are generated into js/encoder-contract.js)
pub use surfaces::tape;
// The maintainer machinery (feature `maintainer`, which the CLI enables): not an interface.
#[cfg(feature = "maintainer")]
#[doc(hidden)]
pub use contract::{artifacts, conformance, evolve, guard};

/// The registration: every family this build knows, by the name of its folder under
/// `src/families/`. It declares the family's module (re-exported at the root: `hookwire::<family>`),
/// makes `FAMILIES` (the CLI, the generators and the shared checks take a family from it) and,
/// for the encoder's wasm module, `ENCODERS`: only the entry points that module calls, so that it
/// links nothing else of a family (its generators, its schemas).
macro_rules! register {
    ($($family:ident),* $(,)?) => {
        /// The families: each one's decoder, encoder, negotiation and typed commands and values.
        mod families {
            $(pub mod $family;)*
        }
        pub use families::{$($family),*};

        #[doc(hidden)]
        /// Every family this build knows, as the CLI and the shared checks take them.
        #[cfg(feature = "std")]
        pub static FAMILIES: &[&family::FamilyDesc] = &[$(&$family::FAMILY),*];

        /// What the encoder's wasm module calls of each family.
        #[cfg(all(feature = "wasm-encoder", target_arch = "wasm32"))]
        static ENCODERS: &[surfaces::wasm_encoder::Encoder] = &[$(surfaces::wasm_encoder::Encoder {
            name: $family::FAMILY.registry.name,
            read_target: $family::FAMILY.read_target,
            encode_to: $family::FAMILY.encode_to,
            encode_text: $family::FAMILY.encode_text,
            negotiate_step: $family::FAMILY.negotiate_step,
            prepare: $family::FAMILY.prepare,
        }),*];
    };
}

// Adding a family is its folder, its fixtures and artifacts, and its name here.
register!(session_inbox, turn_control);

#[doc(hidden)]
/// The family named `name` (`session-inbox`, `turn-control`).
#[cfg(feature = "std")]
pub fn family(name: &str) -> Option<&'static family::FamilyDesc> {
    FAMILIES.iter().copied().find(|f| f.name() == name)
}

/// The family the wasm decoder module serves: one module per family, chosen by feature (the
/// registration point of `hosts/wasm.rs`, which names no family).
#[cfg(all(feature = "wasm", target_arch = "wasm32", not(feature = "wasm-turn-control")))]
use session_inbox::decode_on as wasm_decode_on;
#[cfg(all(feature = "wasm", target_arch = "wasm32", feature = "wasm-turn-control"))]
use turn_control::decode_on as wasm_decode_on;

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
