// The start of the precompiled-module entries (js/module.js, js/turn-control-module.js): no wasm
// is inlined; `init(module)` takes the family's module — `hookwire_bg.wasm` or
// `turn-control_bg.wasm` of the same package, as a runtime or bundler that imports `.wasm` files
// hands it over (workerd, edge runtimes), already compiled — and starts the shared decoder core
// (js/decoder.js) on it, synchronously. Until then every decode throws a HookwireStartError.

/** The module itself, or one compiled from bytes (where the runtime allows compiling). */
function compiled(module) {
  try {
    WebAssembly.Module.exports(module);
    return module;
  } catch {
    return new WebAssembly.Module(module);
  }
}

/** `init` for the decoder `d` of the family described by `f` (js/decoder.js). */
export function initFor(d, f) {
  const needs = `init(module) with the ${f.FAMILY} decoder's WebAssembly.Module from this package`;
  d.load(() => {
    throw new Error("init(module) has not been called");
  }, needs);
  /**
   * Start the decoder on `module`: a precompiled `WebAssembly.Module` of this package's
   * `hookwire_bg.wasm` (session inbox) or `turn-control_bg.wasm` (turn control) — or its bytes,
   * where the runtime compiles wasm from bytes. Synchronous; may be called again (the decoder
   * then runs on the new module). Throws a HookwireStartError when the decoder cannot start on it.
   */
  return function init(module) {
    const failure = d.load(
      () => {
        const m = compiled(module);
        // A family's module is told by the name of its decode export (scripts/build-pkg.mjs).
        const names = WebAssembly.Module.exports(m).map((e) => e.name);
        const missing = [f.X, "c", "v", "e", "i"].filter((n) => !names.includes(n));
        if (missing.length) throw new Error(`the module is not this entry's (it lacks the exports ${missing.join(", ")})`);
        return [m];
      },
      needs,
    );
    if (failure !== null) throw failure;
  };
}
