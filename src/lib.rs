#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

mod error;
#[cfg(feature = "std")]
pub use error::EncodeError;
pub use error::{message_template, At, DecodeError, Detail, ErrorCode, What};

pub mod chain;
pub mod decode;
pub mod family;
pub mod host;
pub mod session_inbox;

#[cfg(feature = "std")]
pub mod canonical;
#[cfg(feature = "std")]
pub mod invariants;
#[cfg(feature = "std")]
pub mod jsgen;
#[cfg(feature = "std")]
pub mod json;
#[cfg(feature = "std")]
pub mod removable;
#[cfg(feature = "std")]
pub mod shape;

#[cfg(feature = "cli")]
pub mod artifacts;
#[cfg(feature = "cli")]
pub mod guard;

#[cfg(all(feature = "wasm", target_arch = "wasm32"))]
mod wasm;
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
