//! Generated JS, per family: the contract constants and message templates a decoder entry needs
//! (`js/contract.js`, `js/turn-control-contract.js`) and the TypeScript declarations of the
//! package (`js/hookwire.d.ts`, `js/turn-control.d.ts`, `js/encoder.d.ts`), all rendered from the
//! Rust sources of truth so none can drift. Tests compare the committed files with these
//! renderings; `HOOKWIRE_BLESS=1 cargo test` rewrites them.

use crate::decode::Check;
use crate::decode::KindSpec;
use crate::error::{message_template, ErrorCode, What};
use crate::family::FamilyDesc;
use crate::shape::{binary_places, is_variant_of, named_defs, render_ts_def, typescript, variant_fields, Shape};
use std::fmt::Write as _;

/// The current version's complete wire shape of `f`.
fn current_wire(f: &FamilyDesc) -> &'static Shape {
    f.producer[f.producer.len() - 1].wire
}

const HEADER: &str = "Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.";

fn js_string(s: &str) -> String {
    crate::canonical::to_string(&serde_json::Value::String(s.into()))
}

/// Whether the family's decode can produce the detail `w`: the chain's and the hosts' (what was
/// found, unreadable values, the version rules) always; an envelope check's expectation when one
/// of its kinds' fields has that check; its own steps' and declared-version checks' details
/// (`JsFace::details`).
pub fn produces(f: &FamilyDesc, w: What) -> bool {
    let mut fields = f.kinds.iter().flat_map(|k| k.fields.iter());
    let checked = |c: fn(Check) -> bool| f.kinds.iter().flat_map(|k| k.fields.iter()).any(|x| c(x.check));
    match w {
        What::Required => fields.any(|f| f.required),
        What::ExpectJson => checked(|c| c == Check::Json),
        What::ExpectString => checked(|c| c == Check::Str),
        What::ExpectBool => checked(|c| c == Check::Bool),
        What::ExpectObject => checked(|c| matches!(c, Check::Object | Check::ArrayOfObjects)),
        What::ExpectObjectOrNull => checked(|c| c == Check::ObjectOrNull),
        What::ExpectKindedObject => checked(|c| c == Check::KindedObject),
        What::ExpectArrayOfObjects => checked(|c| c == Check::ArrayOfObjects),
        What::ExpectEnum => checked(|c| matches!(c, Check::OneOf(_))),
        _ if (w as u8) <= What::StepWrongVersion as u8 => true,
        _ => f.js.details.contains(&w),
    }
}

/// A decoder entry's tables: the family and its error class, the symbol table, the kinds and
/// their fields, codes and
/// details by their `repr`, the decode message templates, the current version and the key a
/// consumer advertises it under.
pub fn contract_js(f: &FamilyDesc) -> String {
    let mut codes = vec![String::from("\"\"")];
    codes.extend(ErrorCode::ALL.iter().map(|c| js_string(c.as_str())));
    // Indexed by the detail's `repr`: what the family never produces is an empty text.
    let details: Vec<String> = What::ALL
        .iter()
        .map(|w| js_string(if produces(f, *w) { w.text() } else { "" }))
        .collect();
    let messages: Vec<String> = ErrorCode::DECODE
        .iter()
        .map(|c| format!("  {}: {},", c.as_str(), js_string(message_template(*c))))
        .collect();
    let mut out = format!("// {HEADER}\n");
    let _ = writeln!(out, "export const FAMILY = {};", js_string(f.name()));
    let _ = writeln!(out, "export const ERROR_CLASS = {};", js_string(f.error_class));
    let _ = writeln!(out, "export const WIRE_VERSION = {};", f.registry.current);
    let _ = writeln!(out, "export const CAPABILITY_KEY = {};", js_string(f.capability_key));
    // The codes the host answers a value's type with (`Type`'s discriminants).
    let types: Vec<String> = crate::host::Type::ALL
        .iter()
        .map(|t| format!("{}: {}", t.js_name(), *t as u8))
        .collect();
    let _ = writeln!(out, "export const TYPE_CODES = {{ {} }};", types.join(", "));
    let checks: Vec<String> = READ_CHECKS
        .iter()
        .map(|(c, name)| format!("{name}: {}", read_check(*c)))
        .collect();
    let _ = writeln!(out, "export const READ_CHECKS = {{ {} }};", checks.join(", "));
    // The detail of a value some read of which threw: the one error the JS host makes itself.
    let _ = writeln!(out, "export const UNREADABLE = {};", What::Unreadable as u8);
    let symbols: Vec<String> = f.symbols.iter().map(|s| js_string(s)).collect();
    let _ = writeln!(out, "export const SYMBOLS = [{}];", symbols.join(", "));
    // Each kind of the current version and the fields decode keeps, as symbols, in the decoder's
    // order: the wasm host reads and projects a kind's fields in one call each, by its position.
    // A field the host checks as it reads it has 256 × its check added (see `read_check`).
    let kinds: Vec<String> = f
        .kinds
        .iter()
        .map(|k| {
            let syms = core::iter::once(u32::from(k.kind.0))
                .chain(k.fields.iter().map(|f| u32::from(f.key.0) + 256 * read_check(f.check)));
            let syms: Vec<String> = syms.map(|s| s.to_string()).collect();
            format!("[{}]", syms.join(", "))
        })
        .collect();
    let _ = writeln!(out, "export const KINDS = [{}];", kinds.join(", "));
    let _ = writeln!(out, "export const CODES = [{}];", codes.join(", "));
    let _ = writeln!(out, "export const DETAILS = [\n  {},\n];", details.join(",\n  "));
    let _ = writeln!(out, "export const MESSAGES = {{\n{}\n}};", messages.join("\n"));
    out
}

/// The most optional fields a kind may keep for its output to be made as literals
/// ([`outputs_js`]): each subset of them is one literal.
pub const MAX_OPTIONAL_FIELDS: usize = 2;

/// Whether the output of kind `k` is made as literals ([`outputs_js`]): it keeps two fields or
/// more (with one, the object it replaces gets one key added), at most [`MAX_OPTIONAL_FIELDS`] of
/// them optional.
pub fn has_literal_output(k: &KindSpec) -> bool {
    k.fields.len() >= 2 && k.fields.iter().filter(|x| !x.required).count() <= MAX_OPTIONAL_FIELDS
}

/// A key as an object literal defines it: as it is when it is an identifier, computed for
/// `__proto__` (which a plain key would take as the literal's prototype), else quoted.
fn literal_key(key: &str) -> String {
    let identifier = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    match key {
        "__proto__" => format!("[{}]", js_string(key)),
        _ if identifier => key.to_string(),
        _ => js_string(key),
    }
}

/// The literal outputs of a family, if any of its kinds has them ([`has_literal_output`]): a
/// module whose `OUTPUTS` holds, per kind in the order of `KINDS`, `null` or the function
/// `(v, b, t)` that makes a decode's normalized output from the fields the JS host read
/// (`v[b + i]`, the i-th field) and their types (`t`, 3 bits per field, 0 when absent), as an
/// object literal: `kind`, then the fields present, in the kind's order. A literal defines its
/// keys, so no inherited setter runs, and makes its object with all its keys at once instead of
/// adding them one by one, each a store that V8 cannot specialize when the keys change from kind
/// to kind (js/host.js, `fields`). A required field is always written: when one is absent the
/// decode fails and its output is never seen.
pub fn outputs_js(f: &FamilyDesc) -> Option<String> {
    if !f.kinds.iter().any(has_literal_output) {
        return None;
    }
    let mut out = format!("// {HEADER}\n");
    out.push_str(
        "// The decode output of each kind of the family that keeps two fields or more, by the\n\
         // optional fields present (null: made key by key): see `outputs_js` in\n\
         // src/surfaces/jsgen.rs.\n",
    );
    out.push_str("export const OUTPUTS = [\n");
    for k in f.kinds {
        let kind = f.symbols[usize::from(k.kind.0)];
        if !has_literal_output(k) {
            let _ = writeln!(out, "  // {kind}\n  null,");
            continue;
        }
        // One literal per subset of the optional fields, chosen by their type bits.
        let optional: Vec<usize> = (0..k.fields.len()).filter(|&i| !k.fields[i].required).collect();
        let body = choose(f, k, &optional, 0);
        let _ = writeln!(out, "  // {kind}\n  (v, b, t) => ({body}),");
    }
    out.push_str("];\n");
    Some(out)
}

/// The literal of kind `k` whose optional fields present are those of `optional` chosen so far
/// (the bits of `chosen`) or, while some are left, the choice on the next one's type bits.
fn choose(f: &FamilyDesc, k: &KindSpec, optional: &[usize], chosen: u32) -> String {
    if let Some((&i, rest)) = optional.split_first() {
        let with = choose(f, k, rest, chosen | 1 << i);
        let without = choose(f, k, rest, chosen);
        return format!("t & {} ? {with} : {without}", 7u32 << (3 * i));
    }
    let mut members = vec![format!(
        "{}: {}",
        literal_key("kind"),
        js_string(f.symbols[usize::from(k.kind.0)])
    )];
    for (i, field) in k.fields.iter().enumerate() {
        if field.required || chosen & 1 << i != 0 {
            let value = if i == 0 {
                "v[b]".to_string()
            } else {
                format!("v[b + {i}]")
            };
            members.push(format!("{}: {value}", literal_key(f.symbols[usize::from(field.key.0)])));
        }
    }
    format!("{{ {} }}", members.join(", "))
}

/// The checks the wasm decoder's JS host makes as it reads a field (`fields` in js/host.js), by
/// their numbers in the kind table (`READ_CHECKS`, which the build gives js/host.js): every
/// element of an array is an object; an object's own `kind` is a string. 0 is none (the decoder
/// asks what it needs).
const READ_CHECKS: [(Check, &str); 2] = [
    (Check::ArrayOfObjects, "arrayOfObjects"),
    (Check::KindedObject, "kindedObject"),
];

/// The number of the check the JS host makes as it reads a field with `check`.
fn read_check(check: Check) -> u32 {
    READ_CHECKS
        .iter()
        .position(|(c, _)| *c == check)
        .map_or(0, |i| i as u32 + 1)
}

fn type_name(prefix: &str, kind: &str) -> String {
    let mut out = String::from(prefix);
    for word in kind.split('-') {
        let mut c = word.chars();
        if let Some(first) = c.next() {
            out.extend(first.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    out
}

/// What the envelope check of contract §15 checks of a field, for the declarations.
fn checked(check: Check) -> &'static str {
    match check {
        Check::Any => "trusted as the encoder wrote it",
        Check::Json => "checked at decode: a JSON value (its interior is trusted)",
        Check::Str => "checked at decode: a string; trusted otherwise",
        Check::Bool => "checked at decode: a boolean",
        Check::Object => "checked at decode: an object; its interior is trusted as the encoder wrote it",
        Check::ObjectOrNull => "checked at decode: an object or null; its interior is trusted as the encoder wrote it",
        Check::KindedObject => "checked at decode: an object with a string kind; its interior is trusted",
        Check::ArrayOfObjects => {
            "checked at decode: an array of objects; the objects' interiors are trusted as the encoder wrote them"
        }
        Check::OneOf(_) => "checked at decode: one of the declared strings",
    }
}

fn decoded_type(f: &FamilyDesc, spec: &KindSpec) -> (String, String) {
    let kind = f.symbols[spec.kind.0 as usize];
    let fields = variant_fields(current_wire(f), kind);
    let mut body = format!("{{\n  readonly kind: \"{kind}\";\n");
    for field in spec.fields {
        let name = f.symbols[field.key.0 as usize];
        if let Some(x) = fields.iter().find(|x| x.name == name) {
            let _ = writeln!(
                body,
                "  /** {} */\n  readonly {name}{}: {};",
                checked(field.check),
                if field.required { "" } else { "?" },
                typescript(x.shape)
            );
        }
    }
    body.push('}');
    (type_name(f.js.prefix, kind), body)
}

/// The shared head of a decoder entry's declarations: JSON types, the named shapes of the
/// current version, the decoded types and their union named `union`.
fn decoded_declarations(f: &FamilyDesc) -> String {
    let union = f.js.union;
    let mut out = format!("// {HEADER}\n\n");
    out.push_str("/** Any JSON value. */\nexport type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;\n");
    out.push_str(
        "/** A plain object of JSON values. */\nexport type JsonObject = { readonly [key: string]: JsonValue };\n",
    );
    out.push_str("/** Binary data: a string in JSON; passed through unchanged in JS. */\nexport type Binary = string | Uint8Array | ArrayBuffer | URL;\n\n");
    for def in named_defs(current_wire(f)) {
        if is_variant_of(current_wire(f), def) {
            continue;
        }
        render_ts_def(&mut out, def);
    }
    let mut names = Vec::new();
    for spec in f.kinds {
        let (name, body) = decoded_type(f, spec);
        let _ = writeln!(
            out,
            "/** A decoded `{}` value. */\nexport type {name} = {body};\n",
            f.symbols[spec.kind.0 as usize]
        );
        names.push(name);
    }
    let _ = writeln!(
        out,
        "/**\n * A decoded {} value (contract §4, §15): one per kind. Decode checks the version, the\n * kind and the envelope (each declared top-level field's JSON type, as each field says);\n * everything inside those fields is trusted as the validating encoder wrote it.\n */\nexport type {union} =\n  | {};\n",
        f.name(),
        names.join("\n  | ")
    );
    let codes: Vec<String> = ErrorCode::ALL.iter().map(|c| format!("\"{}\"", c.as_str())).collect();
    let transport: Vec<String> = crate::Transport::ALL
        .iter()
        .map(|c| format!("\"{}\"", c.as_str()))
        .collect();
    let _ = writeln!(
        out,
        "/** A stable error code of a value. */\nexport type WireErrorCode = {};\n/** A stable error code of the transport around a value (the encoder's and the command line's answers). */\nexport type TransportErrorCode = {};\n",
        codes.join(" | "),
        transport.join(" | ")
    );
    out.push_str(WIRE_ERROR_DECL);
    out
}

/// The base class every family's error class extends (one class in a realm, shared by every
/// decoder entry).
const WIRE_ERROR_DECL: &str = "/**
 * What `decode` throws, every time, in a context where the decoder cannot start: no WebAssembly
 * global, wasm code generation forbidden (a sandbox setting), or no TextEncoder to read the
 * inlined module. Its message names the cause; `cause` is the original exception.
 */
export interface HookwireStartError extends Error {
  readonly name: \"HookwireStartError\";
  readonly cause: unknown;
}

/**
 * The Standard Schema v1 interface (https://standardschema.dev), declared here so that the package
 * depends on nothing: structurally the `StandardSchemaV1<Input, Output>` of `@standard-schema/spec`.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly \"~standard\": StandardSchemaV1.Props<Input, Output>;
}
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema[\"~standard\"][\"types\"]>[\"input\"];
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema[\"~standard\"][\"types\"]>[\"output\"];
}

/**
 * A hookwire Standard Schema: `validate` is synchronous and answers `{ value }` or
 * `{ issues: [{ message, path }] }` — the message starts with the error's code, and the path is its
 * JSON pointer as keys and array indexes (absent when the error has no pointer). `types` is for
 * type inference only, as the specification says: it is not there at run time.
 */
export interface HookwireSchema<Input, Output> extends StandardSchemaV1<Input, Output> {
  readonly \"~standard\": Omit<StandardSchemaV1.Props<Input, Output>, \"vendor\" | \"validate\"> & {
    readonly vendor: \"hookwire\";
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output>;
  };
}

/**
 * The base of every family's error class: one class, shared by every hookwire entry in a realm.
 * Every error has the same own keys (`family`, `code`, `version`, `path`, `expected`), `undefined`
 * where one says nothing.
 */
export declare class WireError extends Error {
  /** The family whose value could not be decoded or encoded (`session-inbox`, `turn-control`). */
  readonly family: string;
  readonly code: WireErrorCode | TransportErrorCode;
  /** The version involved, when there is one (the value's, or the version that cannot carry it). */
  readonly version?: number | undefined;
  /** INVALID (and INCOMPATIBLE from the encoder): a JSON pointer to the offending place. */
  readonly path?: string | undefined;
  /** INVALID: what was expected there. */
  readonly expected?: string | undefined;
}

";

/// A decoder entry's declarations (`js/hookwire.d.ts`, `js/turn-control.d.ts`): JSON types, the
/// named shapes of the current version, the decoded types and their union, the codes, the
/// shared error classes, then what the family declares of its entry (`JsFace::declarations`).
pub fn decoder_declarations(f: &FamilyDesc) -> String {
    let mut out = decoded_declarations(f);
    out.push_str(&(f.js.declarations)());
    out
}

/// `js/encoder.d.ts`: the encoder entry's declarations — each family's imports and re-exports of
/// its decoder entry, then its commands, targets, wire values and functions.
pub fn encoder_declarations(families: &[&FamilyDesc]) -> String {
    let mut out = format!("// {HEADER}\n\n");
    for f in families {
        out.push_str(f.js.encoder_head);
    }
    out.push('\n');
    for f in families {
        out.push_str(&(f.js.encoder_declarations)());
    }
    out.push_str(ENCODER_MEMORY);
    out
}

/// The encoder entry's `memoryStats`, which no family owns.
const ENCODER_MEMORY: &str = "
/**
 * The encoder module's own memory: its linear memory in bytes, and the blocks of its per-call
 * arena held between calls (0: a call gives back every block it took, so the next one starts
 * the arena over).
 */
export declare function memoryStats(): { readonly memoryBytes: number; readonly arenaBlocks: number };
";

/// `js/encoder-contract.js`: what the JS encoder entry knows of each family, generated so no JS
/// copy can drift — its name, current version and targets, the places of its current wire value
/// where a command may hold binary data (JSON pointers, `*` for any index or key, per kind;
/// wire-only fields left out), and the family's own
/// producer facts (`JsFace::producer_tables`); then the words of the encoder module's tape
/// (`tape::WORDS`).
pub fn encoder_contract_js(families: &[&FamilyDesc]) -> String {
    use serde_json::{json, Map, Value};
    let mut all = Map::new();
    for f in families {
        let mut binary = Map::new();
        // A wire-only field (the deliver's `payload` mirror) is never part of a command.
        let places = binary_places(current_wire(f));
        let command_places = places.into_iter().filter(|(_, path)| {
            let first = path.split('/').nth(1).unwrap_or("");
            !f.wire_only.contains(&first)
        });
        for (kind, path) in command_places {
            if let Value::Array(list) = binary.entry(kind).or_insert_with(|| json!([])) {
                list.push(json!(path));
            }
        }
        let mut entry = json!({
            "family": f.name(),
            "current": f.registry.current,
            "targets": f.targets.iter().map(|t| crate::family::target_json(t)).collect::<Vec<_>>(),
            "binary": binary,
        });
        if let (Value::Object(m), Value::Object(extra)) = (&mut entry, (f.js.producer_tables)()) {
            m.extend(extra);
        }
        all.insert(f.name().into(), entry);
    }
    let mut out = format!("// {HEADER}\n");
    let _ = writeln!(
        out,
        "export const FAMILIES = {};",
        serde_json::to_string_pretty(&Value::Object(all)).unwrap_or_default()
    );
    out.push_str("// The words of the tape a command and an answer cross the encoder module's boundary as.\n");
    for (name, word) in crate::tape::WORDS {
        let _ = writeln!(out, "export const T_{name} = {word};");
    }
    out
}

/// `js/module.d.ts` or `js/turn-control-module.d.ts`: a precompiled-module entry's declarations,
/// the inline entry's (`from`, e.g. `./hookwire.cjs`) plus `init`.
pub fn module_declarations(from: &str, wasm: &str) -> String {
    format!(
        "// {HEADER}

export * from \"{from}\";

/**
 * Start the decoder on `module`: this package's `{wasm}` as a precompiled
 * `WebAssembly.Module` (what workerd, edge runtimes and bundlers give for an imported `.wasm`), or
 * its bytes where the runtime compiles wasm from bytes. Synchronous. Until it has succeeded,
 * `decode` throws a HookwireStartError; so does `init` when the decoder cannot start on `module`.
 */
export declare function init(module: WebAssembly.Module | ArrayBuffer | ArrayBufferView): void;
"
    )
}
