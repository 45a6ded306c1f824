//! The session inbox's symbol table: every key and kind string the decoder reads or writes.
//! Dependency-free, shared by the migration, the decoder and every host.

use crate::host::Sym;

/// The symbol table, indexed by [`Sym`]. `version` and `kind` come first, as every family's do.
pub const SYMBOLS: &[&str] = &[
    "version",
    "kind",
    "payload",
    "payloads",
    "auth",
    "caller",
    "deliveryMetadata",
    "requestId",
    "taskDeliveryId",
    "turnPolicy",
    "delivery",
    "payloadIndex",
    "reason",
    "taskId",
    "turnId",
    "deliver",
    "send",
    "session-timeout",
    "clear",
    "compact",
    "reset",
    "cancel",
    "tasks",
    "task",
    "inputRequests",
    "agentRequests",
    "replyTo",
    "hookPayload",
    "childContinuationToken",
    "event",
    "requests",
    "request",
    "sequence",
    "stepIndex",
    "queue",
    "steer",
];

/// `"version"`.
pub const VERSION: Sym = Sym::VERSION;
/// `"kind"`.
pub const KIND: Sym = Sym::KIND;
/// `"payload"`.
pub const PAYLOAD: Sym = Sym(2);
/// `"payloads"`.
pub const PAYLOADS: Sym = Sym(3);
/// `"auth"`.
pub const AUTH: Sym = Sym(4);
/// `"caller"`.
pub const CALLER: Sym = Sym(5);
/// `"deliveryMetadata"`.
pub const DELIVERY_METADATA: Sym = Sym(6);
/// `"requestId"`.
pub const REQUEST_ID: Sym = Sym(7);
/// `"taskDeliveryId"`.
pub const TASK_DELIVERY_ID: Sym = Sym(8);
/// `"turnPolicy"`.
pub const TURN_POLICY: Sym = Sym(9);
/// `"delivery"`.
pub const DELIVERY: Sym = Sym(10);
/// `"payloadIndex"`.
pub const PAYLOAD_INDEX: Sym = Sym(11);
/// `"reason"`.
pub const REASON: Sym = Sym(12);
/// `"taskId"`.
pub const TASK_ID: Sym = Sym(13);
/// `"turnId"`.
pub const TURN_ID: Sym = Sym(14);
/// `"deliver"`.
pub const DELIVER: Sym = Sym(15);
/// `"send"`.
pub const SEND: Sym = Sym(16);
/// `"session-timeout"`.
pub const SESSION_TIMEOUT: Sym = Sym(17);
/// `"clear"`.
pub const CLEAR: Sym = Sym(18);
/// `"compact"`.
pub const COMPACT: Sym = Sym(19);
/// `"reset"`.
pub const RESET: Sym = Sym(20);
/// `"cancel"`.
pub const CANCEL: Sym = Sym(21);
/// `"tasks"`.
pub const TASKS: Sym = Sym(22);
/// `"task"`.
pub const TASK: Sym = Sym(23);
/// `"inputRequests"`.
pub const INPUT_REQUESTS: Sym = Sym(24);
/// `"agentRequests"`.
pub const AGENT_REQUESTS: Sym = Sym(25);
/// `"replyTo"`.
pub const REPLY_TO: Sym = Sym(26);
/// `"hookPayload"`.
pub const HOOK_PAYLOAD: Sym = Sym(27);
/// `"childContinuationToken"`.
pub const CHILD_CONTINUATION_TOKEN: Sym = Sym(28);
/// `"event"`.
pub const EVENT: Sym = Sym(29);
/// `"requests"`.
pub const REQUESTS: Sym = Sym(30);
/// `"request"`.
pub const REQUEST: Sym = Sym(31);
/// `"sequence"`.
pub const SEQUENCE: Sym = Sym(32);
/// `"stepIndex"`.
pub const STEP_INDEX: Sym = Sym(33);
/// `"queue"`.
pub const QUEUE: Sym = Sym(34);
/// `"steer"`.
pub const STEER: Sym = Sym(35);

/// The optional fields a v0 `send` carries over unchanged into a v1 `deliver`.
pub const SEND_CARRIED: &[Sym] = &[AUTH, CALLER, REQUEST_ID, TASK_DELIVERY_ID, TURN_POLICY];
