//! Generated files that CI checks but never writes: the JS contract module and the TypeScript
//! declarations of `pkg/`. `HOOKWIRE_BLESS=1 cargo test` rewrites them.

mod common;

use hookwire::family::FamilyDesc;
use hookwire::jsgen::{
    contract_js, decoder_declarations, encoder_contract_js, encoder_declarations, has_literal_output,
    module_declarations, outputs_js, produces, MAX_OPTIONAL_FIELDS,
};
use hookwire::session_inbox::FAMILY as SESSION_INBOX;
use hookwire::turn_control::FAMILY as TURN_CONTROL;

fn typescript_declarations() -> String {
    decoder_declarations(&SESSION_INBOX)
}

fn compare(rel: &str, generated: &str) {
    let path = common::root().join(rel);
    if hookwire::artifacts::blessing() {
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{rel} is stale: regenerate it with HOOKWIRE_BLESS=1 cargo test"
    );
}

#[test]
fn js_contract_is_current() {
    compare("js/contract.js", &contract_js(&SESSION_INBOX));
}

#[test]
fn typescript_declarations_are_current() {
    compare("js/hookwire.d.ts", &typescript_declarations());
}

#[test]
fn declarations_name_every_kind_and_code() {
    let ts = typescript_declarations();
    for kind in [
        "\"deliver\"",
        "\"session-timeout\"",
        "\"clear\"",
        "\"compact\"",
        "\"reset\"",
        "\"cancel\"",
    ] {
        assert!(ts.contains(&format!("readonly kind: {kind};")), "{kind}");
    }
    // The decoded values (`export type SessionInbox<Kind> = {…}`) hold no wire-only field.
    for name in ["Deliver", "SessionTimeout", "Clear", "Compact", "Reset", "Cancel"] {
        let head = format!("export type SessionInbox{name} = {{");
        let start = ts.find(&head).unwrap_or_else(|| panic!("no {head}"));
        let body = ts[start..].split("};").next().unwrap_or("");
        assert!(
            !body.contains("readonly version")
                && !body.contains("readonly payload?:")
                && !body.contains("readonly payload:"),
            "wire-only fields are not decoded: {body}"
        );
    }
    assert!(!ts.contains(": any") && !ts.contains("<any>"));
    for code in hookwire::ErrorCode::ALL {
        assert!(ts.contains(code.as_str()));
    }
}

#[test]
fn encoder_declarations_are_current() {
    compare("js/encoder.d.ts", &encoder_declarations(hookwire::FAMILIES));
    compare("js/encoder-contract.js", &encoder_contract_js(hookwire::FAMILIES));
}

#[test]
fn literal_outputs_are_current_where_a_family_has_them() {
    // Turn control's turn-result and turn-delivery-request keep two and three fields, at most one
    // of them optional; no kind of the session inbox qualifies (its deliver keeps six optional
    // fields, 64 subsets; its cancel three; its reset one field).
    let outputs = outputs_js(&TURN_CONTROL).expect("turn control has literal outputs");
    compare("js/turn-control-outputs.js", &outputs);
    assert!(outputs_js(&SESSION_INBOX).is_none());
    let with_literals = |f: &FamilyDesc| -> Vec<&str> {
        f.kinds
            .iter()
            .filter(|k| has_literal_output(k))
            .map(|k| f.symbols[usize::from(k.kind.0)])
            .collect()
    };
    assert_eq!(with_literals(&TURN_CONTROL), ["turn-result", "turn-delivery-request"]);
    assert!(with_literals(&SESSION_INBOX).is_empty());
    // A kind of one field gains nothing from a literal; one with more optional fields than
    // MAX_OPTIONAL_FIELDS would need too many.
    let deliver = &SESSION_INBOX.kinds[0];
    assert!(deliver.fields.iter().filter(|x| !x.required).count() > MAX_OPTIONAL_FIELDS);
    // One literal per kind that has them and subset of its optional fields, each naming its
    // kind; `null` for every other kind.
    let literal_count: usize = TURN_CONTROL
        .kinds
        .iter()
        .filter(|k| has_literal_output(k))
        .map(|k| 1 << k.fields.iter().filter(|x| !x.required).count())
        .sum();
    assert_eq!(outputs.matches("{ kind: ").count(), literal_count);
    let nulls = TURN_CONTROL.kinds.iter().filter(|k| !has_literal_output(k)).count();
    assert_eq!(outputs.matches("  null,").count(), nulls);
}

#[test]
fn turn_control_js_is_current() {
    compare("js/turn-control-contract.js", &contract_js(&TURN_CONTROL));
    compare("js/turn-control.d.ts", &decoder_declarations(&TURN_CONTROL));
}

#[test]
fn module_declarations_are_current() {
    compare(
        "js/module.d.ts",
        &module_declarations("./hookwire.cjs", "hookwire_bg.wasm"),
    );
    compare(
        "js/turn-control-module.d.ts",
        &module_declarations("./turn-control.cjs", "turn-control_bg.wasm"),
    );
}

/// The `What::…` and `Detail::…` names a source file uses.
fn details_used(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for prefix in ["What::", "Detail::"] {
        for (at, _) in text.match_indices(prefix) {
            let name: String = text[at + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if name.starts_with(|c: char| c.is_ascii_uppercase()) && name != "ALL" {
                out.push(name);
            }
        }
    }
    out
}

/// A decoder entry's detail table leaves out (as "") only what its family never produces: every
/// detail its family's sources, the chain and the hosts name is kept.
#[test]
fn detail_tables_keep_what_each_family_produces() {
    let src = common::root().join("src");
    let families: [(&str, &FamilyDesc); 2] = [("session_inbox", &SESSION_INBOX), ("turn_control", &TURN_CONTROL)];
    for (dir, d) in families {
        let mut files: Vec<_> = std::fs::read_dir(src.join("families").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.extend(["chain.rs", "host.rs", "decode.rs"].map(|f| src.join("engine").join(f)));
        for file in files {
            for name in details_used(&file) {
                let what = hookwire::What::ALL
                    .iter()
                    .find(|w| format!("{w:?}") == name)
                    .unwrap_or_else(|| panic!("{name} in {} is not a detail", file.display()));
                // decode.rs names every check's expectation; a family keeps those its kinds check.
                if file.ends_with("decode.rs") {
                    continue;
                }
                assert!(
                    produces(d, *what),
                    "{dir}: {name} (used in {}) is left out",
                    file.display()
                );
            }
        }
        // The decoder entry reads DETAILS[7] (an unreadable value) itself.
        assert!(produces(d, hookwire::What::Unreadable));
    }
    // The tables are smaller than the full list, and keep their positions.
    let full = hookwire::What::ALL.len();
    for d in [&SESSION_INBOX, &TURN_CONTROL] {
        let js = contract_js(d);
        let table = js
            .split("export const DETAILS = [")
            .nth(1)
            .unwrap()
            .split("];")
            .next()
            .unwrap();
        assert_eq!(table.matches(",\n").count(), full, "one entry per detail");
        assert!(
            hookwire::What::ALL.iter().any(|w| !produces(d, *w)),
            "something is left out"
        );
    }
}

/// The decoder entries write a decode error's pointer (`/<key>/<index>`) without JSON pointer
/// escapes, and their Standard Schema reads it back by splitting at `/`: no key a decode names —
/// a field of a kind — may hold `/` or `~`.
#[test]
fn decode_pointers_need_no_escape() {
    for d in [&SESSION_INBOX, &TURN_CONTROL] {
        for kind in d.kinds {
            for field in kind.fields {
                let key = d.symbols[field.key.0 as usize];
                assert!(!key.contains(['/', '~']), "{key} would need an escape in a pointer");
            }
        }
    }
}

/// The JSON Schema of the answers (`hookwire schema --answers`), as the package ships it
/// (`pkg/schemas/answer.json`, copied from `artifacts/answer.json`).
#[test]
fn the_answer_schema_is_current() {
    let text = serde_json::to_string_pretty(&hookwire::answer::json_schema()).unwrap() + "\n";
    compare("artifacts/answer.json", &text);
}
