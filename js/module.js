// `hookwire/module` (pkg/module.mjs, pkg/module.cjs): the session inbox decoder without the
// inlined wasm, for runtimes and bundlers that import `.wasm` files as precompiled modules
// (workerd forbids compiling wasm from bytes). The API of `hookwire`, plus `init(module)`.
import { initFor } from "./init.js";
import { session, SESSION_INBOX } from "./session-inbox.js";

export const init = initFor(session, SESSION_INBOX);
export { decode, HOOK_METADATA_KEY, hookMetadata, memoryStats, SessionInboxWireError, standardSchema, WireError, WIRE_VERSION } from "./session-inbox.js";
