// The package entry of pkg/ (`hookwire`): the session inbox decoder for JS workflow bundles, its
// wasm inlined and instantiated synchronously at import (js/inline.js). The same API without the
// inlined wasm, for a precompiled module, is js/module.js (`hookwire/module`).
import "./inline.js";
export * from "./session-inbox.js";
