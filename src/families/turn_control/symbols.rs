//! The turn-control family's symbol table: every key and kind string its decoder reads or writes.
//! Dependency-free, shared by the step, the decoder and every host.

use crate::host::Sym;

/// The symbol table, indexed by [`Sym`]. `version` and `kind` come first, as every family's do.
pub const SYMBOLS: &[&str] = &[
    "version",
    "kind",
    "action",
    "bufferedDeliveries",
    "error",
    "continuationToken",
    "inboxToken",
    "requestId",
    "turn-result",
    "turn-error",
    "turn-continuation-token",
    "turn-delivery-request",
    "turn-delivery-accepted",
    "turn-delivery-cancelled",
];

/// `"version"`.
pub const VERSION: Sym = Sym::VERSION;
/// `"kind"`.
pub const KIND: Sym = Sym::KIND;
/// `"action"`.
pub const ACTION: Sym = Sym(2);
/// `"bufferedDeliveries"`.
pub const BUFFERED_DELIVERIES: Sym = Sym(3);
/// `"error"`.
pub const ERROR: Sym = Sym(4);
/// `"continuationToken"`.
pub const CONTINUATION_TOKEN: Sym = Sym(5);
/// `"inboxToken"`.
pub const INBOX_TOKEN: Sym = Sym(6);
/// `"requestId"`.
pub const REQUEST_ID: Sym = Sym(7);
/// `"turn-result"`.
pub const TURN_RESULT: Sym = Sym(8);
/// `"turn-error"`.
pub const TURN_ERROR: Sym = Sym(9);
/// `"turn-continuation-token"`.
pub const TURN_CONTINUATION_TOKEN: Sym = Sym(10);
/// `"turn-delivery-request"`.
pub const TURN_DELIVERY_REQUEST: Sym = Sym(11);
/// `"turn-delivery-accepted"`.
pub const TURN_DELIVERY_ACCEPTED: Sym = Sym(12);
/// `"turn-delivery-cancelled"`.
pub const TURN_DELIVERY_CANCELLED: Sym = Sym(13);
