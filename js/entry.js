// The package entry of pkg/ (`hookwire`): the session inbox decoder for JS workflow bundles, its
// wasm inlined and instantiated synchronously at import (js/inline.js). The same API
// without the inlined wasm, for a precompiled module, is js/module.js (`hookwire/module`).
import { inline } from "./inline.js";
import { session } from "./session-inbox.js";
import { LENGTH, TEXT } from "hookwire:session-inbox-wasm";

session.load(inline(TEXT, LENGTH), "WebAssembly code generation from bytes");
export { decode, HOOK_METADATA_KEY, hookMetadata, memoryStats, SessionInboxWireError, standardSchema, WireError, WIRE_VERSION } from "./session-inbox.js";
