//! The maintainer workflows of a contract change (`#[doc(hidden)]`: the CLI's maintainer group):
//! scaffold the next version of a family (`new-version`), ship it (`ship`), check a change
//! against the revision it branched from (`check --against`), and the deployment manifest
//! (`manifest`, `manifest --compare`).
//!
//! Source edits are text edits at anchors that must each be found exactly once. Every edit is
//! computed in memory, the result is read back (the registry parsed again, rustfmt run over each
//! Rust file when it is installed), and files are written only when all of it succeeded: a
//! missing anchor changes nothing. The family's registration is read from its source, not from
//! this build, so a stale binary scaffolds from what the tree says.
//! This module must never import a family.

use crate::artifacts::{self, sha256};
use crate::conformance;
use crate::family::{FamilyDesc, Registry, VersionEntry};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

/// The deployment manifest, a generated and checked file (`HOOKWIRE_BLESS=1 cargo test`).
pub const MANIFEST: &str = "artifacts/manifest.json";

/// Files generated from the sources (by `HOOKWIRE_BLESS=1 cargo test`): a change that adds a
/// version regenerates them, so they belong to it.
pub const GENERATED: &[&str] = &[
    "js/contract.js",
    "js/hookwire.d.ts",
    "js/encoder.d.ts",
    "js/encoder-contract.js",
    "js/turn-control-contract.js",
    "js/turn-control.d.ts",
    MANIFEST,
];

/// The contract's prose: a version's change is described there in the same change.
const CONTRACT_TEXT: &str = "docs/contract.md";

// ---------------------------------------------------------------------------------------------
// Reading a family's registration from its source

/// What a family's `mod.rs` registers, read from the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registered {
    /// `WIRE_VERSION`.
    pub current: u32,
    /// `REGISTRY.versions`, in order.
    pub versions: Vec<VersionEntry>,
    /// `REGISTRY.steps`, in order.
    pub steps: Vec<(u32, u32)>,
}

fn mod_rel(reg: &Registry) -> String {
    format!("{}/mod.rs", reg.module_dir)
}

/// The registration in `<module_dir>/mod.rs` under `root`.
pub fn registered(root: &Path, reg: &Registry) -> Result<Registered, String> {
    let rel = mod_rel(reg);
    let text = fs::read_to_string(root.join(&rel)).map_err(|e| format!("cannot read {rel}: {e}"))?;
    parse_registered(&text, &rel)
}

fn parse_registered(text: &str, file: &str) -> Result<Registered, String> {
    let at = unique(text, "WIRE_VERSION: u32 = ", file)? + "WIRE_VERSION: u32 = ".len();
    let current = leading_number(&text[at..])
        .ok_or_else(|| format!("{file}: `WIRE_VERSION: u32 = ` is not followed by a number"))?;
    let (open, close) = block(text, "versions: &[", file)?;
    let body = &text[open + 1..close];
    let versions_at: Vec<usize> = body.match_indices("version:").map(|(i, _)| i).collect();
    let shipped_at: Vec<usize> = body.match_indices("shipped:").map(|(i, _)| i).collect();
    if versions_at.len() != shipped_at.len() || versions_at.is_empty() {
        return Err(format!(
            "{file}: cannot read REGISTRY.versions (expected `VersionEntry {{ version: N, shipped: BOOL }}` entries)"
        ));
    }
    let mut versions = Vec::new();
    for (v, s) in versions_at.iter().zip(&shipped_at) {
        let version = leading_number(body[v + "version:".len()..].trim_start())
            .ok_or_else(|| format!("{file}: a REGISTRY.versions entry has no numeric `version`"))?;
        let rest = body[s + "shipped:".len()..].trim_start();
        let shipped = if rest.starts_with("true") {
            true
        } else if rest.starts_with("false") {
            false
        } else {
            return Err(format!(
                "{file}: version {version}'s `shipped` is neither true nor false"
            ));
        };
        versions.push(VersionEntry { version, shipped });
    }
    let (open, close) = block(text, "steps: &[", file)?;
    let mut steps = Vec::new();
    for pair in text[open + 1..close].split(')') {
        let Some((_, inner)) = pair.split_once('(') else {
            continue;
        };
        let (a, b) = inner
            .split_once(',')
            .ok_or_else(|| format!("{file}: cannot read the step `({inner})` in REGISTRY.steps"))?;
        match (a.trim().parse(), b.trim().parse()) {
            (Ok(a), Ok(b)) => steps.push((a, b)),
            _ => return Err(format!("{file}: cannot read the step `({inner})` in REGISTRY.steps")),
        }
    }
    let registered = Registered {
        current,
        versions,
        steps,
    };
    let expected: Vec<u32> = (1..=current).collect();
    let listed: Vec<u32> = registered.versions.iter().map(|e| e.version).collect();
    if listed != expected {
        return Err(format!(
            "{file}: REGISTRY.versions lists {listed:?}, not 1 … {current} (WIRE_VERSION); `hookwire check` says more"
        ));
    }
    Ok(registered)
}

fn leading_number(s: &str) -> Option<u32> {
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The position of `anchor` in `text`, which must hold it exactly once.
fn unique(text: &str, anchor: &str, file: &str) -> Result<usize, String> {
    let mut found = text.match_indices(anchor).map(|(i, _)| i);
    match (found.next(), found.next()) {
        (Some(i), None) => Ok(i),
        (None, _) => Err(format!("{file}: anchor `{anchor}` not found")),
        (Some(_), Some(_)) => Err(format!("{file}: anchor `{anchor}` is not unique")),
    }
}

/// The `[` that ends the unique `anchor` and its matching `]`.
fn block(text: &str, anchor: &str, file: &str) -> Result<(usize, usize), String> {
    let open = unique(text, anchor, file)? + anchor.len() - 1;
    let close = matching(text, open).ok_or_else(|| format!("{file}: the list after `{anchor}` is not closed"))?;
    Ok((open, close))
}

/// The bracket closing the one at `open` (`[`, `{` or `(`), skipping strings, characters and
/// line comments.
fn matching(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    let (o, c) = match b.get(open)? {
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        b'(' => (b'(', b')'),
        _ => return None,
    };
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            x if x == o => depth += 1,
            x if x == c => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Insert `item` as the last element of the list `[open, close]` of `text`.
fn append_item(text: &str, open: usize, close: usize, item: &str, multiline: bool) -> String {
    let body = &text[open + 1..close];
    let kept = body.trim_end();
    let at = open + 1 + kept.len();
    let sep = if kept.is_empty() || kept.ends_with(',') {
        ""
    } else {
        ","
    };
    let insert = if multiline {
        format!("{sep}\n{item},")
    } else if kept.is_empty() {
        item.to_string()
    } else {
        format!("{sep} {item}")
    };
    format!("{}{insert}{}", &text[..at], &text[at..])
}

/// The leading whitespace of the line holding byte `at`.
fn indent_at(text: &str, at: usize) -> String {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[start..].chars().take_while(|c| *c == ' ').collect()
}

/// A family name as a title: `session-inbox` → `Session inbox`.
fn title(name: &str) -> String {
    let spaced = name.replace(['-', '_'], " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// Replace `prefix` + `from` by `prefix` + `to` wherever the number ends there.
fn restamp_number_after(text: &str, prefix: &str, from: u32, to: u32) -> String {
    let needle = format!("{prefix}{from}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(&needle) {
        let end = i + needle.len();
        let next = rest[end..].chars().next();
        out.push_str(&rest[..i]);
        if next.is_some_and(|c| c.is_ascii_digit()) {
            out.push_str(&needle);
        } else {
            out.push_str(&format!("{prefix}{to}"));
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------------
// new-version

/// What `new-version` did.
#[derive(Debug, Default)]
pub struct Scaffold {
    /// The family.
    pub family: String,
    /// The version it was scaffolded from (the previous current one).
    pub from: u32,
    /// The new version.
    pub to: u32,
    /// Files created, relative to the root.
    pub created: Vec<String>,
    /// Files changed.
    pub changed: Vec<String>,
    /// Files renamed (a newer-version probe whose name carries the version).
    pub renamed: Vec<(String, String)>,
    /// Whether rustfmt formatted the Rust files (otherwise: run `cargo fmt`).
    pub formatted: bool,
}

/// Scaffold version N+1 of `desc` under `root` from version N: the shape module, an identity
/// step pair, the registration, the fixtures (restamped), and the fixtures that follow the newest
/// version moved up (newer-version probes, negotiations answering the newest version to newer
/// consumers). Nothing is written unless every edit succeeded. The frozen artifacts are then
/// written by `HOOKWIRE_BLESS=1 cargo test` (the command says so). Refused while a version of
/// the family is unshipped (change it in place, or ship it first).
pub fn new_version(desc: &FamilyDesc, root: &Path) -> Result<Scaffold, String> {
    let reg = desc.registry;
    let name = reg.name;
    let dir = reg.module_dir;
    let src = registered(root, reg)?;
    let (n, m) = (src.current, src.current + 1);
    if let Some(e) = src.versions.iter().find(|e| !e.shipped) {
        return Err(format!(
            "{name}: version {} has not shipped: change it in place (it is not frozen yet), or ship it first (`hookwire --family {name} ship`)",
            e.version
        ));
    }
    let shape_rel = format!("{dir}/v{m}.rs");
    let step_rel = format!("{dir}/v{n}_to_v{m}.rs");
    let fixtures_rel = format!("fixtures/{name}/v{m}");
    for rel in [&shape_rel, &step_rel, &fixtures_rel, &format!("artifacts/{name}/v{m}")] {
        if root.join(rel).exists() {
            return Err(format!("{name}: {rel} already exists; nothing changed"));
        }
    }
    let mod_rel = mod_rel(reg);
    let mod_text = read(root, &mod_rel)?;
    let prev_rel = format!("{dir}/v{n}.rs");
    let prev = read(root, &prev_rel)?;
    let family_mod = dir.rsplit('/').next().unwrap_or(dir);
    let symbols = read(root, &format!("{dir}/symbols.rs"))?;
    if !symbols.contains("SYMBOLS") {
        return Err(format!(
            "{dir}/symbols.rs has no `SYMBOLS` table (the step's tests use it)"
        ));
    }

    let new_mod = register_next(&mod_text, &mod_rel, &src, n, m)?;
    let shape = next_shape_module(&prev, &prev_rel, &title(name), n, m)?;
    let step = step_module(&title(name).to_lowercase(), family_mod, n, m);

    let formatted = rustfmt_available();
    let fmt = |text: String, rel: &str| -> Result<String, String> {
        if formatted {
            rustfmt(root, &text).map_err(|e| format!("{rel}: the edited source does not parse ({e}); nothing changed"))
        } else {
            Ok(text)
        }
    };
    let new_mod = fmt(new_mod, &mod_rel)?;
    let shape = fmt(shape, &shape_rel)?;
    let step = fmt(step, &step_rel)?;
    let check = parse_registered(&new_mod, &mod_rel)?;
    let mut want = src.clone();
    want.current = m;
    want.versions.push(VersionEntry {
        version: m,
        shipped: false,
    });
    want.steps.push((n, m));
    if check != want {
        return Err(format!(
            "{mod_rel}: the edited registry reads back as {check:?}, expected {want:?}; nothing changed"
        ));
    }

    let mut files: Vec<(String, String)> = vec![(shape_rel.clone(), shape), (step_rel.clone(), step)];
    files.extend(seed_fixtures(root, name, n, m)?);
    let mut probes = move_probes(root, desc, m)?;
    probes.extend(move_newest_answers(root, desc, n, m)?);

    // Everything is computed: write.
    let mut out = Scaffold {
        family: name.into(),
        from: n,
        to: m,
        formatted,
        ..Scaffold::default()
    };
    write(root, &mod_rel, &new_mod)?;
    out.changed.push(mod_rel);
    for (rel, text) in files {
        write(root, &rel, &text)?;
        out.created.push(rel);
    }
    for p in probes {
        write(root, &p.to, &p.text)?;
        if p.to == p.from {
            out.changed.push(p.to);
        } else {
            fs::remove_file(root.join(&p.from)).map_err(|e| format!("cannot remove {}: {e}", p.from))?;
            out.renamed.push((p.from, p.to));
        }
    }
    Ok(out)
}

fn read(root: &Path, rel: &str) -> Result<String, String> {
    fs::read_to_string(root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))
}

fn write(root: &Path, rel: &str, text: &str) -> Result<(), String> {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(&path, text).map_err(|e| format!("cannot write {rel}: {e}"))
}

/// The family's `mod.rs` with version `m` registered after `n`.
fn register_next(text: &str, file: &str, src: &Registered, n: u32, m: u32) -> Result<String, String> {
    // WIRE_VERSION
    let anchor = format!("WIRE_VERSION: u32 = {n};");
    let at = unique(text, &anchor, file)?;
    let mut t = format!("{}WIRE_VERSION: u32 = {m};{}", &text[..at], &text[at + anchor.len()..]);
    if t.contains(&format!("current: {n},")) {
        let at = unique(&t, &format!("current: {n},"), file)?;
        t = format!("{}current: {m},{}", &t[..at], &t[at + format!("current: {n},").len()..]);
    }

    // REGISTRY.versions: written out again, one entry per version, in rustfmt's layout.
    let (open, close) = block(&t, "versions: &[", file)?;
    let ty = t[open + 1..]
        .split('{')
        .next()
        .map(str::trim)
        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':'))
        .ok_or_else(|| format!("{file}: cannot read the entry type of REGISTRY.versions"))?
        .to_string();
    let mut entries = src.versions.clone();
    entries.push(VersionEntry {
        version: m,
        shipped: false,
    });
    let list = versions_list(&ty, &entries, &indent_at(&t, open));
    t = format!("{}{list}{}", &t[..open], &t[close + 1..]);

    // REGISTRY.steps
    match src.steps.last() {
        Some(&(_, to)) if to != n => {
            return Err(format!(
                "{file}: REGISTRY.steps ends at version {to}, not at the current version {n}"
            ))
        }
        _ => {}
    }
    let (open, close) = block(&t, "steps: &[", file)?;
    t = append_item(&t, open, close, &format!("({n}, {m})"), false);

    // Steps::ALL and its length (the `steps()` function returns the same array type).
    let k = src.steps.len();
    let old_len = format!("[Step<H>; {k}]");
    if !t.contains(&old_len) {
        return Err(format!(
            "{file}: anchor `{old_len}` (the length of Steps::ALL) not found"
        ));
    }
    t = t.replace(&old_len, &format!("[Step<H>; {}]", k + 1));
    let (open, close) = block(&t, &format!("const ALL: [Step<H>; {}] = [", k + 1), file)?;
    let ind = indent_at(&t, close);
    let item = format!(
        "{ind}    Step {{\n{ind}        from: {n},\n{ind}        to: {m},\n{ind}        up: v{n}_to_v{m}::up::<H>,\n{ind}    }}"
    );
    t = append_item(&t, open, close, &item, true);

    // PRODUCER
    let decl = unique(&t, "static PRODUCER: &[", file)? + "static PRODUCER: &[".len();
    let ty_end = t[decl..]
        .find(']')
        .ok_or_else(|| format!("{file}: cannot read PRODUCER's type"))?;
    let ty = t[decl..decl + ty_end].trim().to_string();
    let eq = t[decl..]
        .find("= &[")
        .ok_or_else(|| format!("{file}: anchor `= &[` after `static PRODUCER` not found"))?;
    let open = decl + eq + "= &".len();
    let close = matching(&t, open).ok_or_else(|| format!("{file}: PRODUCER's list is not closed"))?;
    let ind = indent_at(&t, close);
    let item = format!(
        "{ind}    {ty} {{\n{ind}        version: {m},\n{ind}        wire: &v{m}::WIRE,\n{ind}        schema_id: v{m}::SCHEMA_ID,\n{ind}        json_schema: v{m}::json_schema,\n{ind}        down: v{n}_to_v{m}::down,\n{ind}    }}"
    );
    t = append_item(&t, open, close, &item, true);

    // FAMILY.targets
    let (open, close) = block(&t, "targets: &[", file)?;
    if !t[open..close].contains(&format!("\"v{n}\"")) {
        return Err(format!("{file}: FAMILY.targets does not name \"v{n}\""));
    }
    t = append_item(&t, open, close, &format!("\"v{m}\""), false);

    // `pub mod` lines: the step after the previous step, the shape after the previous shape.
    // Anchors start with a newline (a whole line); the insert goes after that line.
    let after_line = |t: &str, anchor: &str, insert: &str| -> Result<String, String> {
        let at = unique(t, anchor, file)? + 1;
        let end = t[at..].find('\n').map_or(t.len(), |i| at + i + 1);
        Ok(format!("{}{insert}{}", &t[..end], &t[end..]))
    };
    t = match src.steps.last() {
        Some(&(a, _)) => after_line(
            &t,
            &format!("\npub mod v{a}_to_v{n};"),
            &format!("pub mod v{n}_to_v{m};\n"),
        )?,
        None => after_line(&t, "\npub mod symbols;", &format!("pub mod v{n}_to_v{m};\n"))?,
    };
    let shape_anchor = format!("\npub mod v{n};");
    let at = unique(&t, &shape_anchor, file)? + 1;
    let attrs: Vec<&str> = t[..at]
        .lines()
        .rev()
        .take_while(|l| l.trim_start().starts_with("#["))
        .collect();
    let attrs: String = attrs.iter().rev().map(|l| format!("{l}\n")).collect();
    t = after_line(&t, &shape_anchor, &format!("{attrs}pub mod v{m};\n"))?;
    Ok(t)
}

fn versions_list(ty: &str, entries: &[VersionEntry], indent: &str) -> String {
    let mut s = String::from("[\n");
    for e in entries {
        s.push_str(&format!(
            "{indent}    {ty} {{\n{indent}        version: {},\n{indent}        shipped: {},\n{indent}    }},\n",
            e.version, e.shipped
        ));
    }
    s.push_str(indent);
    s.push(']');
    s
}

/// Version `m`'s shape module from version `n`'s: the same shape under the new number, its
/// tests restamped.
fn next_shape_module(text: &str, file: &str, title: &str, n: u32, m: u32) -> Result<String, String> {
    let split = text.find("#[cfg(test)]").unwrap_or(text.len());
    let (code, tests) = text.split_at(split);
    let mut code = code.to_string();
    if let Some(start) = code.find("wire_version! {") {
        let open = start + "wire_version! ".len();
        let close = matching(&code, open).ok_or_else(|| format!("{file}: the `wire_version!` call is not closed"))?;
        let call = &code[open..=close];
        let anchor = format!("version: {n},");
        let at = open + unique(call, &anchor, file)?;
        code = format!("{}version: {m},{}", &code[..at], &code[at + anchor.len()..]);
    } else {
        let anchor = format!("const VERSION: u32 = {n};");
        let at = unique(&code, &anchor, file).map_err(|_| {
            format!("{file} declares its version neither with `wire_version!` nor with `pub const VERSION: u32 = {n};`: scaffold version {m} by hand")
        })?;
        code = format!("{}const VERSION: u32 = {m};{}", &code[..at], &code[at + anchor.len()..]);
        // Names, ids and item docs follow the version; the module doc is handled below.
        let doc = code
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.len() + 1)
            .sum::<usize>();
        let doc = doc.min(code.len());
        code = format!("{}{}", &code[..doc], restamp_names(&code[doc..], n, m));
    }
    // The module doc: its first paragraph says what this version is.
    let doc_end = code
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.len() + 1)
        .sum::<usize>();
    let doc = &code[..doc_end.min(code.len())];
    let first_end = doc.find("\n//!\n").map_or(doc.len(), |i| i + 1);
    let paragraph = format!(
        "//! {title} version {m}: version {n}'s shape, unchanged so far (scaffolded from `v{n}.rs` by\n//! `hookwire new-version`). Say here what version {m} changes, and where the contract says it.\n"
    );
    let code = format!("{paragraph}{}", &code[first_end..]);
    let mut tests = restamp_number_after(tests, "\"version\": ", n, m);
    tests = restamp_number_after(&tests, "\"version\":", n, m);
    tests = restamp_number_after(&tests, "samples(", n, m);
    Ok(format!("{code}{tests}"))
}

/// In a module written out by hand: `V<n>` in names and ids (`TurnControlResultV1`,
/// `TurnControl.V1.Result`), `:v<n>"` in the schema id, `VERSION_<n>` and "version <n>" in docs.
fn restamp_names(code: &str, n: u32, m: u32) -> String {
    let mut out = String::with_capacity(code.len());
    let b = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let num_end = |skip: usize| -> Option<usize> {
            let digits: String = rest[skip..].chars().take_while(char::is_ascii_digit).collect();
            (digits.parse::<u32>().ok() == Some(n)).then_some(skip + digits.len())
        };
        let prev_ok = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.');
        let hit = if rest.starts_with('V') && prev_ok && !rest.starts_with("VERSION") {
            num_end(1).map(|e| ("V", e))
        } else if rest.starts_with(":v") {
            num_end(2).filter(|e| rest[*e..].starts_with('"')).map(|e| (":v", e))
        } else if rest.starts_with("VERSION_") {
            num_end(8).map(|e| ("VERSION_", e))
        } else if rest.starts_with("version ") {
            num_end(8).map(|e| ("version ", e))
        } else {
            None
        };
        match hit {
            Some((prefix, end)) if !rest[end..].starts_with(|c: char| c.is_ascii_digit()) => {
                out.push_str(&format!("{prefix}{m}"));
                i += end;
            }
            _ => {
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// The identity step pair `n ↔ m`.
fn step_module(family: &str, family_mod: &str, n: u32, m: u32) -> String {
    format!(
        r#"//! Step {n} ↔ {m} of the {family}: version {m} is version {n}'s shape so far (scaffolded by
//! `hookwire new-version`; a pure version bump is a valid step).
//!
//! `up`: a pure version bump. `down`: sets `version` to {n}; nothing else changes. When version {m}
//! changes the shape, `up` rewrites what version {n} wrote and `down` refuses with `INCOMPATIBLE`
//! what version {n} cannot carry.
//! The `up` half may import only the host trait, the decode error and the family's symbols.

use crate::error::DecodeError;
use crate::host::Host;

/// Version {n} → {m}: the value is unchanged apart from its version.
pub fn up<H: Host>(_: &mut H, _: &H::Value) -> Result<Option<H::Value>, DecodeError> {{
    Ok(None)
}}

/// Version {m} → {n}, on a validated version {m} value.
#[cfg(feature = "std")]
pub fn down(value: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::error::EncodeError> {{
    value.insert("version".into(), {n}.into());
    Ok(())
}}

#[cfg(test)]
mod tests {{
    use super::{{down, up}};
    use crate::json::JsonHost;
    use crate::{family_mod}::symbols::SYMBOLS;
    use serde_json::json;

    #[test]
    fn up_is_a_pure_bump() {{
        let v = json!({{"kind": "k", "version": {n}}});
        assert_eq!(up(&mut JsonHost::new(SYMBOLS), &v).unwrap(), None);
    }}

    #[test]
    fn down_sets_the_version_and_nothing_else() {{
        let mut v = json!({{"kind": "k", "version": {m}, "x": [1]}});
        down(v.as_object_mut().unwrap()).unwrap();
        assert_eq!(v, json!({{"kind": "k", "version": {n}, "x": [1]}}));
    }}
}}
"#
    )
}

fn rustfmt_available() -> bool {
    Command::new("rustfmt")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Format Rust source with rustfmt (the root's `rustfmt.toml` applies); an error if it does not
/// parse.
fn rustfmt(root: &Path, text: &str) -> Result<String, String> {
    use std::io::Write;
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().next().unwrap_or("rustfmt failed").to_string());
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

/// `fixtures/<family>/v<m>/` from `v<n>/`: each input declaring `n` declares `m`, and so does an
/// expected error that named it. A case whose expectation `superseded.json` replaced takes the
/// superseding one.
fn seed_fixtures(root: &Path, family: &str, n: u32, m: u32) -> Result<Vec<(String, String)>, String> {
    let from = format!("fixtures/{family}/v{n}");
    let superseded: Value = fs::read_to_string(root.join(format!("fixtures/{family}/superseded.json")))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let mut out = Vec::new();
    for rel in files_under(root, &from)? {
        let text = read(root, &rel)?;
        let to = format!("fixtures/{family}/v{m}{}", &rel[from.len()..]);
        if !rel.ends_with(".json") {
            out.push((to, text));
            continue;
        }
        let stem = rel[from.len() + 1..].trim_end_matches(".json");
        let mut new = restamp_case(&text, n, m).map_err(|e| format!("{rel}: {e}"))?;
        if let Some((a, b)) = json_span(&new, &["description"]) {
            let d = restamp_number_after(&new[a..b], "version ", n, m);
            let d = restamp_number_after(&d, " v", n, m);
            let d = restamp_number_after(&d, "\"v", n, m);
            new.replace_range(a..b, &d);
        }
        if let Some(s) = superseded["cases"].get(format!("v{n}/{stem}")) {
            let mut case: Value = serde_json::from_str(&new).map_err(|e| format!("{rel}: {e}"))?;
            if let (Value::Object(c), Value::Object(s)) = (&mut case, s) {
                c.remove("expect");
                c.remove("error");
                for k in ["expect", "error"] {
                    if let Some(v) = s.get(k) {
                        c.insert(k.into(), v.clone());
                    }
                }
            }
            new = serde_json::to_string_pretty(&case).unwrap_or_default() + "\n";
        }
        out.push((to, new));
    }
    Ok(out)
}

fn files_under(root: &Path, rel: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut stack = vec![rel.to_string()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(root.join(&dir)).map_err(|e| format!("cannot read {dir}: {e}"))?;
        for e in entries.flatten() {
            let path = format!("{dir}/{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A decode case declaring `from` restamped to declare `to` (and its expected error's version
/// when it named the declared one). Text edits, so the file keeps its layout; checked by parsing.
fn restamp_case(text: &str, from: u32, to: u32) -> Result<String, String> {
    let before: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let declares = before["input"]["version"].as_f64() == Some(f64::from(from));
    let mut spans = Vec::new();
    if declares {
        for path in [["input", "version"], ["error", "version"]] {
            if let Some((a, b)) = json_span(text, &path) {
                if text[a..b].parse::<f64>().ok() == Some(f64::from(from)) {
                    spans.push((a, b));
                }
            }
        }
    }
    spans.sort_unstable();
    let mut out = text.to_string();
    for (a, b) in spans.iter().rev() {
        out.replace_range(a..b, &to.to_string());
    }
    let mut want = before.clone();
    if declares {
        want["input"]["version"] = json!(to);
        if want["error"]["version"].as_f64() == Some(f64::from(from)) {
            want["error"]["version"] = json!(to);
        }
    }
    let after: Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
    if after != want {
        return Err("the restamped case does not read back as expected".into());
    }
    Ok(out)
}

/// The byte range of the value at `path` (object keys and array indexes from the top) in a JSON
/// text.
fn json_span(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    struct Scan<'a> {
        b: &'a [u8],
        i: usize,
        found: Option<(usize, usize)>,
    }
    impl Scan<'_> {
        fn ws(&mut self) {
            while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
        }
        fn string(&mut self) -> Option<(usize, usize)> {
            let start = self.i + 1;
            self.i += 1;
            while *self.b.get(self.i)? != b'"' {
                self.i += if self.b[self.i] == b'\\' { 2 } else { 1 };
            }
            self.i += 1;
            Some((start, self.i - 1))
        }
        fn value(&mut self, path: &[&str]) -> Option<()> {
            self.ws();
            match *self.b.get(self.i)? {
                b'{' => {
                    self.i += 1;
                    loop {
                        self.ws();
                        if *self.b.get(self.i)? == b'}' {
                            self.i += 1;
                            return Some(());
                        }
                        let (a, z) = self.string()?;
                        self.ws();
                        if *self.b.get(self.i)? != b':' {
                            return None;
                        }
                        self.i += 1;
                        self.ws();
                        let start = self.i;
                        let hit = path.first().is_some_and(|k| k.as_bytes() == &self.b[a..z]);
                        self.value(if hit { &path[1..] } else { &[] })?;
                        if hit && path.len() == 1 {
                            self.found = Some((start, self.i));
                        }
                        self.ws();
                        if *self.b.get(self.i)? == b',' {
                            self.i += 1;
                        }
                    }
                }
                b'[' => {
                    self.i += 1;
                    for index in 0.. {
                        self.ws();
                        if *self.b.get(self.i)? == b']' {
                            self.i += 1;
                            break;
                        }
                        let start = self.i;
                        let hit = path.first().is_some_and(|k| *k == index.to_string());
                        self.value(if hit { &path[1..] } else { &[] })?;
                        if hit && path.len() == 1 {
                            self.found = Some((start, self.i));
                        }
                        self.ws();
                        if *self.b.get(self.i)? == b',' {
                            self.i += 1;
                        }
                    }
                    Some(())
                }
                b'"' => self.string().map(|_| ()),
                _ => {
                    while self.i < self.b.len() && !b",]} \t\r\n".contains(&self.b[self.i]) {
                        self.i += 1;
                    }
                    Some(())
                }
            }
        }
    }
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
        found: None,
    };
    s.value(path)?;
    s.found
}

/// A newer-version probe moved one version up.
struct Probe {
    from: String,
    to: String,
    text: String,
}

/// Whether a decode case is a newer-version probe (it expects `NEWER_VERSION`).
fn is_probe(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v["error"]["code"] == "NEWER_VERSION")
}

/// The decode cases outside the version folders that probe version `m` as "newer" (the
/// `NEWER_VERSION` cases): `m` is a version now, so they probe `m + 1`, and a name ending in
/// `-<m>` follows.
fn move_probes(root: &Path, desc: &FamilyDesc, m: u32) -> Result<Vec<Probe>, String> {
    let name = desc.name();
    let mut out = Vec::new();
    for dir in conformance::decode_dirs(root, name) {
        if dir
            .strip_prefix('v')
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        for rel in files_under(root, &format!("fixtures/{name}/{dir}"))? {
            let text = read(root, &rel)?;
            let Some((to, new)) = moved_probe(&rel, &text, m)? else {
                continue;
            };
            if to != rel && root.join(&to).exists() {
                return Err(format!("{rel}: cannot move the probe to {to}: it exists"));
            }
            out.push(Probe {
                from: rel,
                to,
                text: new,
            });
        }
    }
    Ok(out)
}

/// What `new-version` makes of the decode case `rel` (its text) when version `m` becomes a
/// version: `None` unless it probes `m` as newer; else its path and its text probing `m + 1` (a
/// name ending in `-<m>` follows the version, and so do its description's version numbers).
fn moved_probe(rel: &str, text: &str, m: u32) -> Result<Option<(String, String)>, String> {
    let Ok(case) = serde_json::from_str::<Value>(text) else {
        return Ok(None);
    };
    let at = |v: &Value| v.as_f64() == Some(f64::from(m));
    if !(is_probe(text) && at(&case["input"]["version"]) && at(&case["error"]["version"])) {
        return Ok(None);
    }
    let mut new = restamp_case(text, m, m + 1).map_err(|e| format!("{rel}: {e}"))?;
    if let Some((a, b)) = json_span(&new, &["description"]) {
        let d = restamp_number_after(&new[a..b], "version ", m, m + 1);
        let d = restamp_number_after(&d, "version ", m - 1, m);
        new.replace_range(a..b, &d);
    }
    let to = match rel.strip_suffix(&format!("-{m}.json")) {
        Some(stem) => format!("{stem}-{}.json", m + 1),
        None => rel.to_string(),
    };
    Ok(Some((to, new)))
}

/// Every number held under `key` in `v`, with its path (object keys and array indexes).
fn stamps(v: &Value, key: &str) -> Vec<(Vec<String>, f64)> {
    fn walk(v: &Value, key: &str, at: &mut Vec<String>, out: &mut Vec<(Vec<String>, f64)>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    at.push(k.clone());
                    match x.as_f64() {
                        Some(n) if k == key => out.push((at.clone(), n)),
                        _ => walk(x, key, at, out),
                    }
                    at.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    at.push(i.to_string());
                    walk(x, key, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, key, &mut Vec::new(), &mut out);
    out
}

/// Whether a negotiation case answers the producer's newest version `n` because every consumer
/// stamp (a number under the family's capability key) is newer, with no write ceiling: its answer
/// follows the newest version.
fn is_newest_answer(text: &str, key: &str, n: u32) -> bool {
    let Ok(case) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    let found = stamps(&case["request"], key);
    case.get("writeAtMost").is_none()
        && case["answer"]["ok"]["target"]["version"].as_f64() == Some(f64::from(n))
        && !found.is_empty()
        && found.iter().all(|(_, s)| *s > f64::from(n))
}

/// The negotiation cases answering the newest version `n` to newer consumers: they answer `m`
/// now, and a stamp of `m` (no longer newer) becomes `m + 1`.
fn move_newest_answers(root: &Path, desc: &FamilyDesc, n: u32, m: u32) -> Result<Vec<Probe>, String> {
    let dir = format!("fixtures/{}/negotiate", desc.name());
    if !root.join(&dir).is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for rel in files_under(root, &dir)? {
        let text = read(root, &rel)?;
        if !is_newest_answer(&text, desc.capability_key, n) {
            continue;
        }
        let case: Value = serde_json::from_str(&text).map_err(|e| format!("{rel}: {e}"))?;
        let mut edits: Vec<(usize, usize, u32)> = Vec::new();
        let mut want = case.clone();
        if let Some((a, b)) = json_span(&text, &["answer", "ok", "target", "version"]) {
            edits.push((a, b, m));
            want["answer"]["ok"]["target"]["version"] = json!(m);
        }
        for (path, s) in stamps(&case["request"], desc.capability_key) {
            if s == f64::from(m) {
                let mut full = vec!["request".to_string()];
                full.extend(path.iter().cloned());
                let keys: Vec<&str> = full.iter().map(String::as_str).collect();
                let (a, b) = json_span(&text, &keys).ok_or_else(|| format!("{rel}: cannot find {}", full.join("/")))?;
                edits.push((a, b, m + 1));
                let mut at = &mut want;
                for k in &full {
                    at = match at {
                        Value::Array(a) => &mut a[k.parse::<usize>().unwrap_or(0)],
                        other => &mut other[k.as_str()],
                    };
                }
                *at = json!(m + 1);
            }
        }
        edits.sort_unstable();
        let mut new = text.clone();
        for (a, b, v) in edits.iter().rev() {
            new.replace_range(a..b, &v.to_string());
        }
        if serde_json::from_str::<Value>(&new).ok().as_ref() != Some(&want) {
            return Err(format!("{rel}: the moved answer does not read back as expected"));
        }
        out.push(Probe {
            from: rel.clone(),
            to: rel,
            text: new,
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// ship

/// What `ship` did.
#[derive(Debug)]
pub struct Shipped {
    /// The family.
    pub family: String,
    /// The versions marked shipped.
    pub versions: Vec<u32>,
    /// The lock lines added (paths).
    pub locked: Vec<String>,
    /// Whether the manifest was rewritten.
    pub manifest: bool,
}

/// Ship `desc`'s newest unshipped version (and any older unshipped one: a build that ships
/// version N ships every version below it): `shipped: true` in its registry, lock lines for its
/// files, and the manifest. `Ok(None)` when everything has shipped. The family must pass its
/// checks first, and this build must have the version (`cargo run -- ship` rebuilds it).
pub fn ship(desc: &FamilyDesc, root: &Path) -> Result<Option<Shipped>, Vec<String>> {
    let reg = desc.registry;
    let name = reg.name;
    let one = |m: String| vec![m];
    let src = registered(root, reg).map_err(one)?;
    let unshipped: Vec<u32> = src.versions.iter().filter(|e| !e.shipped).map(|e| e.version).collect();
    let Some(&newest) = unshipped.last() else {
        return Ok(None);
    };
    if reg.current != src.current {
        return Err(one(format!(
            "{name}: this hookwire build has versions 1 … {} but the source registers 1 … {}: rebuild it first (`cargo run -- --family {name} ship` does)",
            reg.current, src.current
        )));
    }
    let failures = conformance::check_family(desc, root, false);
    if !failures.is_empty() {
        let mut lines: Vec<String> = failures.into_iter().map(|f| format!("{name}: {f}")).collect();
        lines.push(format!(
            "{name}: version {newest} does not ship while its checks fail (HOOKWIRE_BLESS=1 cargo test writes its artifacts)"
        ));
        return Err(lines);
    }
    let rel = mod_rel(reg);
    let text = read(root, &rel).map_err(one)?;
    let mut entries = src.versions.clone();
    entries.iter_mut().for_each(|e| e.shipped = true);
    let (open, close) = block(&text, "versions: &[", &rel).map_err(one)?;
    let ty = text[open + 1..]
        .split('{')
        .next()
        .unwrap_or("VersionEntry")
        .trim()
        .to_string();
    let list = versions_list(&ty, &entries, &indent_at(&text, open));
    let new = format!("{}{list}{}", &text[..open], &text[close + 1..]);
    let back = parse_registered(&new, &rel).map_err(one)?;
    if back.versions != entries || back.steps != src.steps || back.current != src.current {
        return Err(one(format!(
            "{rel}: the edited registry does not read back as expected; nothing changed"
        )));
    }
    write(root, &rel, &new).map_err(one)?;
    let versions: &'static [VersionEntry] = Box::leak(entries.into_boxed_slice());
    let shipped_reg = Registry { versions, ..*reg };
    let locked = artifacts::extend_lock(root, &shipped_reg).map_err(|e| one(format!("cannot extend the lock: {e}")))?;
    let manifest = root.join(MANIFEST).exists();
    if manifest {
        let value = manifest_of(
            &crate::FAMILIES
                .iter()
                .map(|f| (*f, source_versions(root, f)))
                .collect::<Vec<_>>(),
        );
        write(root, MANIFEST, &manifest_text(&value)).map_err(one)?;
    }
    Ok(Some(Shipped {
        family: name.into(),
        versions: unshipped,
        locked,
        manifest,
    }))
}

/// A family's versions as its source registers them, when that agrees with this build's count
/// (otherwise this build's).
fn source_versions(root: &Path, f: &FamilyDesc) -> Vec<VersionEntry> {
    match registered(root, f.registry) {
        Ok(s) if s.current == f.registry.current => s.versions,
        _ => f.registry.versions.to_vec(),
    }
}

// ---------------------------------------------------------------------------------------------
// manifest

/// The manifest of this build: per family its name, versions (shipped or not), current version,
/// write ceiling, and the SHA-256 of each shipped version's frozen schema.
pub fn manifest(families: &[&FamilyDesc]) -> Value {
    manifest_of(
        &families
            .iter()
            .map(|f| (*f, f.registry.versions.to_vec()))
            .collect::<Vec<_>>(),
    )
}

/// The bytes of version `p`'s frozen schema, as the build renders them (`hookwire check` and
/// the test suite keep the file equal to them).
pub fn schema_text(p: &crate::family::ProducerVersion) -> String {
    let mut text = serde_json::to_string_pretty(&(p.json_schema)()).unwrap_or_default();
    text.push('\n');
    text
}

fn manifest_of(entries: &[(&FamilyDesc, Vec<VersionEntry>)]) -> Value {
    let families: Vec<Value> = entries
        .iter()
        .map(|(f, versions)| {
            let versions: Vec<Value> = versions
                .iter()
                .map(|e| {
                    let mut v = json!({"version": e.version, "shipped": e.shipped});
                    if let Some(p) = f.version(e.version).filter(|_| e.shipped) {
                        v["schemaSha256"] = json!(sha256(schema_text(p).as_bytes()));
                    }
                    v
                })
                .collect();
            json!({
                "name": f.name(),
                "current": f.registry.current,
                "writeCeiling": f.registry.current,
                "unversioned": f.registry.initial,
                "versions": versions,
            })
        })
        .collect();
    json!({ "hookwireManifest": 1, "families": families })
}

/// The manifest as written: pretty JSON, keys sorted, a final newline.
pub fn manifest_text(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// A manifest's number that must be whole and not negative (`6`, or `6.0` as some writers put it).
fn whole(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 9_007_199_254_740_992.0)
            .map(|f| f as u64)
    })
}

/// One family of a manifest, as `compare_manifests` reads it.
struct ManifestFamily<'a> {
    name: &'a str,
    unversioned: Option<u64>,
    current: u64,
    /// The newest version the build writes (its current one where the manifest does not say).
    write_ceiling: u64,
    /// Each version and the sha256 of its frozen schema (none: unshipped).
    versions: Vec<(u64, Option<&'a str>)>,
}

/// Read a family of the `which` manifest; what it lacks or holds malformed is an error, never
/// taken for "nothing there" (which would compare as compatible).
fn manifest_family<'a>(f: &'a Value, which: &str) -> Result<ManifestFamily<'a>, String> {
    let named = f.get("name").map_or_else(|| "?".to_string(), Value::to_string);
    let bad = |what: &str| format!("the {which} manifest's family {named} has no {what}");
    let name = f
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("`name` string"))?;
    let current = f.get("current").and_then(whole).ok_or_else(|| bad("whole `current`"))?;
    let write_ceiling = match f.get("writeCeiling") {
        None | Some(Value::Null) => current,
        Some(c) => whole(c).ok_or_else(|| bad("whole `writeCeiling`"))?,
    };
    let unversioned = match f.get("unversioned") {
        None | Some(Value::Null) => None,
        Some(u) => Some(whole(u).ok_or_else(|| bad("whole `unversioned`"))?),
    };
    if write_ceiling > current {
        return Err(bad("`writeCeiling` at most its `current` version"));
    }
    let versions = f
        .get("versions")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("`versions` array"))?
        .iter()
        .map(|v| {
            let n = v.get("version").and_then(whole);
            let n = n.ok_or_else(|| bad("whole `version` in every entry of `versions`"))?;
            // A hash, if any, is a string, and a version says it shipped exactly when it has one.
            let hash = match v.get("schemaSha256") {
                None => None,
                Some(Value::String(h)) => Some(h.as_str()),
                Some(_) => return Err(bad(&format!("`schemaSha256` string at version {n}"))),
            };
            if v.get("shipped").is_some_and(|s| s.as_bool() != Some(hash.is_some())) {
                return Err(bad(&format!(
                    "`shipped` that agrees with its `schemaSha256` at version {n} (a shipped version has one, an unshipped one none)"
                )));
            }
            Ok((n, hash))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(ManifestFamily {
        name,
        unversioned,
        current,
        write_ceiling,
        versions,
    })
}

/// Every family of the `which` manifest `m`.
fn manifest_families<'a>(m: &'a Value, which: &str) -> Result<Vec<ManifestFamily<'a>>, String> {
    match (m.get("hookwireManifest").filter(|v| !v.is_null()), m.get("families")) {
        (Some(_), Some(Value::Array(f))) => f.iter().map(|f| manifest_family(f, which)).collect(),
        _ => Err(format!(
            "the {which} manifest is not a hookwire manifest (no `hookwireManifest`, `families`)"
        )),
    }
}

/// What deploying a build with manifest `new` would break for runs pinned to a build with
/// manifest `old`: `(rule, message)` per problem (none: compatible). A manifest that is not one,
/// or a family in it missing what a manifest holds, is an error.
pub fn compare_manifests(old: &Value, new: &Value) -> Result<Vec<(&'static str, String)>, String> {
    let (old_f, new_f) = (manifest_families(old, "old")?, manifest_families(new, "new")?);
    let mut out = Vec::new();
    // A version written before it shipped has no frozen schema to hold a later build to.
    let unshipped = |f: &ManifestFamily<'_>| -> Vec<u64> {
        let written = f.versions.iter().filter(|(v, h)| h.is_none() && *v <= f.write_ceiling);
        written.map(|(v, _)| *v).collect()
    };
    for n in &new_f {
        for v in unshipped(n) {
            out.push((
                "Unshipped",
                format!("{}: this build writes version {v}, which has not shipped (its schema is not frozen): ship it (`hookwire ship`) before it is deployed", n.name),
            ));
        }
    }
    for o in &old_f {
        let name = o.name;
        let Some(n) = new_f.iter().find(|n| n.name == name) else {
            out.push((
                "FamilyRemoved",
                format!("{name}: the family is gone; runs pinned to the old deployment still write and read it"),
            ));
            continue;
        };
        for v in unshipped(o) {
            out.push((
                "Unshipped",
                format!("{name}: the old deployment writes version {v}, which had not shipped: what it wrote cannot be held to this build's schema of it"),
            ));
        }
        if let Some(u) = o.unversioned.filter(|u| n.unversioned != Some(*u)) {
            out.push((
                "VersionRemoved",
                format!("{name}: unversioned values (version {u}) are no longer decoded"),
            ));
        }
        for &(v, h) in &o.versions {
            match n.versions.iter().find(|(nv, _)| *nv == v) {
                None => out.push((
                    "VersionRemoved",
                    format!("{name}: version {v} is gone; runs pinned to the old deployment write it"),
                )),
                Some(&(_, now)) => {
                    if let Some(h) = h.filter(|h| now != Some(*h)) {
                        out.push((
                            "SchemaChanged",
                            format!(
                                "{name}: the shipped schema of version {v} changed (sha256 {} → {}); a shipped version is frozen",
                                short(Some(h)),
                                short(now)
                            ),
                        ));
                    }
                }
            }
        }
        if n.current < o.current {
            out.push((
                "CurrentLowered",
                format!(
                    "{name}: the current version is lowered from {} to {}; runs pinned to the old deployment write version {}",
                    o.current, n.current, o.current
                ),
            ));
        }
    }
    Ok(out)
}

fn short(h: Option<&str>) -> String {
    h.map_or_else(|| "none (unshipped)".into(), |h| h.chars().take(12).collect())
}

// ---------------------------------------------------------------------------------------------
// check --against

fn git(root: &Path, args: &[&str]) -> Result<std::process::Output, String> {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))
}

fn git_lines(root: &Path, args: &[&str]) -> Result<Vec<String>, String> {
    let out = git(root, args)?;
    if !out.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// The text of `rel` at `rev`, if it exists there.
fn at_rev(root: &Path, rev: &str, rel: &str) -> Result<Option<Vec<u8>>, String> {
    let out = git(root, &["show", &format!("{rev}:./{rel}")])?;
    Ok(out.status.success().then_some(out.stdout))
}

/// The version numbers of `<module_dir>/v<N>.rs` among `paths`.
fn version_modules<'a>(paths: impl Iterator<Item = &'a str>, module_dir: &str) -> BTreeSet<u32> {
    paths
        .filter_map(|p| p.strip_prefix(module_dir)?.strip_prefix("/v")?.strip_suffix(".rs"))
        .filter_map(|d| d.parse().ok())
        .collect()
}

/// `Ok` when `rev` names a commit of the git repository at `root`; else why not (no repository,
/// no git, no such revision): what `check --against` and `diff --against` answer before reading
/// anything at `rev`, so that a mistyped revision is never read as one with no files.
pub fn verify_commit(root: &Path, rev: &str) -> Result<(), String> {
    if !root.is_dir() {
        return Err(format!("{} is not a directory", root.display()));
    }
    let verify = git(
        root,
        &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")],
    )?;
    if verify.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{rev} is not a commit of the git repository at {}",
            root.display()
        ))
    }
}

/// Check the tree at `root` against git revision `rev` (`check --against`): every file locked
/// at `rev` unchanged, the lock only grown, no version of `rev` gone, and a change that adds a
/// version touching only that version's files and its registration. One message per problem;
/// `Err` when git cannot answer (no repository, no such revision).
pub fn check_against(root: &Path, rev: &str, families: &[&FamilyDesc]) -> Result<Vec<String>, String> {
    verify_commit(root, rev)?;
    let mut problems = Vec::new();

    // The lock: lines only added, and every file locked at `rev` still what was locked.
    let then = at_rev(root, rev, artifacts::LOCK)?.unwrap_or_default();
    let then = String::from_utf8_lossy(&then).into_owned();
    let now = fs::read_to_string(root.join(artifacts::LOCK)).unwrap_or_default();
    let now_lines: BTreeSet<&str> = now.lines().collect();
    let moved = artifacts::moves(root);
    for line in then.lines().filter(|l| !l.trim().is_empty()) {
        if !now_lines.contains(line) {
            problems.push(format!(
                "{}: a line of {rev} was removed or rewritten (lines are only ever added): {line}",
                artifacts::LOCK
            ));
        }
        let Some((hash, path, _)) = artifacts::parse_lock_line(line) else {
            continue;
        };
        match fs::read(root.join(&path)) {
            Ok(bytes) if sha256(&bytes) == hash => {}
            Ok(_) => problems.push(format!("{path}: locked at {rev} and changed since")),
            // Moved with its bytes, and the move recorded (`hookwire lock`): the new path is
            // checked by its own line.
            Err(_)
                if moved
                    .get(&path)
                    .is_some_and(|(new, h)| *h == hash && artifacts::move_holds(root, &path, new, &hash)) => {}
            Err(_) => problems.push(format!("{path}: locked at {rev} and gone since")),
        }
    }

    // Versions: each frozen schema of `rev` is still here, and so is its version.
    let tree = git_lines(root, &["ls-tree", "-r", "--name-only", rev])?;
    let names: BTreeSet<&str> = families.iter().map(|f| f.name()).collect();
    let all = families.len() == crate::FAMILIES.len();
    for path in &tree {
        let Some(rest) = path.strip_prefix("artifacts/") else {
            continue;
        };
        let Some((family, v)) = rest
            .strip_suffix("/schema.json")
            .and_then(|r| r.split_once("/v"))
            .and_then(|(f, v)| Some((f, v.parse::<u32>().ok()?)))
        else {
            continue;
        };
        if !(names.contains(family) || all) {
            continue;
        }
        if !root.join(path).exists() {
            problems.push(format!(
                "{family}: version {v} exists at {rev} ({path}) and is gone here: a deployed run may still write it"
            ));
        }
        match crate::family(family) {
            None => problems.push(format!("{family}: the family exists at {rev} and is not in this build")),
            Some(f) if f.version(v).is_none() => problems.push(format!(
                "{family}: version {v} is registered at {rev} and not in this build"
            )),
            Some(_) => {}
        }
    }

    // A change that adds a version carries that version and nothing of the machinery.
    let tree_set: BTreeSet<&str> = tree.iter().map(String::as_str).collect();
    let mut added: Vec<(&FamilyDesc, u32)> = Vec::new();
    let mut newest: Vec<(&FamilyDesc, u32, u32)> = Vec::new();
    for f in families {
        let dir = f.registry.module_dir;
        let then = version_modules(tree.iter().map(String::as_str), dir);
        if then.is_empty() {
            continue; // a new family, not a new version
        }
        let mut now: Vec<String> = Vec::new();
        for e in fs::read_dir(root.join(dir)).into_iter().flatten().flatten() {
            now.push(format!("{dir}/{}", e.file_name().to_string_lossy()));
        }
        let now = version_modules(now.iter().map(String::as_str), dir);
        for v in now.difference(&then) {
            added.push((f, *v));
        }
        if let (Some(a), Some(b)) = (then.last(), now.last()) {
            newest.push((f, *a, *b));
        }
    }
    if added.is_empty() {
        return Ok(problems);
    }
    let mut changed = git_lines(root, &["diff", "--name-only", "--no-renames", "--relative", rev, "--"])?;
    changed.extend(git_lines(root, &["ls-files", "--others", "--exclude-standard"])?);
    changed.sort();
    changed.dedup();
    let mut what: Vec<String> = Vec::new();
    for f in families {
        let vs: Vec<String> = added
            .iter()
            .filter(|(g, _)| g.name() == f.name())
            .map(|(_, v)| v.to_string())
            .collect();
        match vs.len() {
            0 => {}
            1 => what.push(format!("{} version {}", f.name(), vs[0])),
            _ => what.push(format!("{} versions {}", f.name(), vs.join(", "))),
        }
    }
    for path in &changed {
        let p = path.as_str();
        let ok = GENERATED.contains(&p)
            || p == artifacts::LOCK
            || p == CONTRACT_TEXT
            || added.iter().any(|(f, v)| {
                let dir = f.registry.module_dir;
                p == format!("{dir}/v{v}.rs")
                    || (p.starts_with(&format!("{dir}/v")) && p.ends_with(&format!("_to_v{v}.rs")))
                    || p.starts_with(&format!("fixtures/{}/v{v}/", f.name()))
                    || p.starts_with(&format!("artifacts/{}/v{v}/", f.name()))
            })
            || added.iter().any(|(f, _)| {
                let dir = f.registry.module_dir;
                let fixtures = format!("fixtures/{}/", f.name());
                let (then, now) = newest
                    .iter()
                    .find(|(g, _, _)| g.name() == f.name())
                    .map_or((0, 0), |(_, a, b)| (*a, *b));
                p == format!("{dir}/mod.rs")
                    || p == format!("{dir}/declared.rs")
                    || (p.starts_with(&fixtures)
                        && fixture_change_belongs(root, rev, p, tree_set.contains(p), f.capability_key, (then, now)))
            });
        if !ok {
            problems.push(format!(
                "{p}: a change that adds {} touches only that version's files (its vN.rs, its step, fixtures/<family>/vN/, artifacts/<family>/vN/, new fixtures, the lock) and its registration (mod.rs, declared.rs); ship machinery changes separately",
                what.join(" and ")
            ));
        }
    }
    Ok(problems)
}

/// Whether a changed fixture of a family that gains a version belongs to that change: a new
/// file, or a case that follows the newest version moved up as `new-version` moves it (a probe
/// of the version past the newest as newer, restamped in place or moved to its next `-<n>` name
/// with exactly the text `new-version` writes; a negotiation answering the newest version to
/// newer consumers). `newest`: the family's newest version at the revision and now.
fn fixture_change_belongs(root: &Path, rev: &str, rel: &str, existed: bool, key: &str, newest: (u32, u32)) -> bool {
    if !existed {
        return true;
    }
    let then = at_rev(root, rev, rel).ok().flatten().unwrap_or_default();
    let then = String::from_utf8_lossy(&then);
    let now = fs::read(root.join(rel))
        .ok()
        .map(|n| String::from_utf8_lossy(&n).into_owned());
    // Moved up once per version added, as each `new-version` moves it: a probe of the version
    // past the newest probes the one past the new newest.
    let mut moved = Some((rel.to_string(), then.to_string()));
    for m in newest.0..newest.1 {
        moved = moved.and_then(|(path, text)| moved_probe(&path, &text, m + 1).ok().flatten());
    }
    let probe = match moved.filter(|_| newest.1 > newest.0) {
        Some((to, text)) if to == rel => now.as_deref() == Some(text.as_str()),
        Some((to, text)) => now.is_none() && fs::read(root.join(&to)).is_ok_and(|n| n == text.as_bytes()),
        None => false,
    };
    let answer =
        is_newest_answer(&then, key, newest.0) && now.as_deref().is_some_and(|n| is_newest_answer(n, key, newest.1));
    probe || answer
}

/// The next steps `new-version` prints.
pub fn next_steps(s: &Scaffold) -> Vec<String> {
    let (n, m, f) = (s.from, s.to, &s.family);
    let mut out = vec![
        format!("HOOKWIRE_BLESS=1 cargo test   # writes artifacts/{f}/v{m}/schema.json, the v{m} encoder outputs, the generated JS and artifacts/manifest.json"),
        format!("cargo run -- --family {f} diff --from-version {n} --to-version {m}   # no change, until you make one"),
        format!("then: the change in v{m}.rs, its step pair in v{n}_to_v{m}.rs, fixtures/{f}/v{m}/ and new encode cases, docs/contract.md; `hookwire ship` when it ships"),
    ];
    if !s.formatted {
        out.insert(0, "cargo fmt   # rustfmt was not found".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_that_writes_a_version_it_has_not_shipped_is_flagged() {
        let manifest = |versions: Value, current: u64, ceiling: u64| json!({"hookwireManifest": 1, "families": [{"name": "f", "current": current, "writeCeiling": ceiling, "versions": versions}]});
        let one = manifest(json!([{"version": 1, "schemaSha256": "a"}]), 1, 1);
        let two = manifest(
            json!([{"version": 1, "schemaSha256": "a"}, {"version": 2, "schemaSha256": "b"}]),
            2,
            2,
        );
        let early = |ceiling| {
            manifest(
                json!([{"version": 1, "schemaSha256": "a"}, {"version": 2, "shipped": false}]),
                2,
                ceiling,
            )
        };
        let rules = |old: &Value, new: &Value| -> Vec<&str> {
            compare_manifests(old, new)
                .unwrap()
                .into_iter()
                .map(|(r, _)| r)
                .collect()
        };
        assert!(rules(&one, &two).is_empty(), "version 2 shipped, then deployed");
        let found = compare_manifests(&one, &early(2)).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "Unshipped");
        assert!(found[0].1.contains("this build writes version 2"), "{}", found[0].1);
        // Held below its ceiling, the unshipped version is not written: nothing to flag.
        assert!(rules(&one, &early(1)).is_empty());
        // Deployed unshipped, then shipped: what the old deployment wrote was never frozen.
        assert_eq!(rules(&early(2), &two), ["Unshipped"]);
    }

    #[test]
    fn json_span_finds_top_level_paths_only() {
        let t = r#"{"description": "x", "input": {"kind": "k", "version": 6, "a": {"version": 6}}, "error": {"code": "C", "version": 6}}"#;
        let (a, b) = json_span(t, &["input", "version"]).unwrap();
        assert_eq!(&t[a..b], "6");
        assert!(t[..a].ends_with("\"version\": "));
        assert!(t[b..].starts_with(", \"a\""));
        let (a, _) = json_span(t, &["error", "version"]).unwrap();
        assert!(t[..a].ends_with("\"code\": \"C\", \"version\": "));
        assert_eq!(json_span(t, &["nope"]), None);
    }

    #[test]
    fn restamp_keeps_layout_and_nested_versions() {
        let t = "{\n  \"input\": {\n    \"version\": 6,\n    \"sink\": {\"version\": 6}\n  },\n  \"error\": {\"code\": \"X\", \"version\": 6}\n}\n";
        let out = restamp_case(t, 6, 7).unwrap();
        assert_eq!(
            out,
            t.replacen("\"version\": 6,", "\"version\": 7,", 1)
                .replace("\"X\", \"version\": 6", "\"X\", \"version\": 7")
        );
        let other = "{\"input\": {\"version\": 5}, \"error\": {\"version\": 6}}";
        assert_eq!(restamp_case(other, 6, 7).unwrap(), other);
    }

    #[test]
    fn numbers_are_restamped_only_where_they_end() {
        assert_eq!(
            restamp_number_after("samples(6) samples(66)", "samples(", 6, 7),
            "samples(7) samples(66)"
        );
        assert_eq!(
            restamp_names("\"TurnControl.V1.Result\" \"X V1\" :v1\" VERSION_1 version 1 V12", 1, 2),
            "\"TurnControl.V2.Result\" \"X V1\" :v2\" VERSION_2 version 2 V12"
        );
    }

    #[test]
    fn registry_edits_need_their_anchors() {
        let src = Registered {
            current: 1,
            versions: vec![VersionEntry {
                version: 1,
                shipped: true,
            }],
            steps: vec![(0, 1)],
        };
        let err = register_next("pub const WIRE_VERSION: u32 = 2;", "m.rs", &src, 1, 2).unwrap_err();
        assert!(err.contains("anchor `WIRE_VERSION: u32 = 1;` not found"), "{err}");
        let twice = "WIRE_VERSION: u32 = 1; versions: &[] versions: &[]";
        assert!(register_next(twice, "m.rs", &src, 1, 2)
            .unwrap_err()
            .contains("not unique"));
    }

    #[test]
    fn brackets_skip_strings_and_comments() {
        let t = r#"x: &["]", // ]
    "a"] tail"#;
        let open = t.find('[').unwrap();
        assert_eq!(&t[matching(t, open).unwrap()..], "] tail");
    }
}
