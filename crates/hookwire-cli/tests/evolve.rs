//! The maintainer workflows of a contract change (`src/contract/evolve.rs`), end to end through the CLI:
//! `new-version` then `ship` in a scratch copy of the repository, built and tested there;
//! `check --against` on a scratch git repository; `manifest --compare`; and the committed
//! deployment manifest (`artifacts/manifest.json`, rewritten by `HOOKWIRE_BLESS=1 cargo test`).

#[path = "../../../tests/common/mod.rs"]
mod common;

use common::root;
use hookwire::artifacts::{blessing, sha256};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What a scratch copy of the repository holds: everything `cargo test` reads, not `target/`.
const TREE: &[&str] = &[
    "src",
    "tests",
    "crates",
    "fixtures",
    "artifacts",
    "js",
    "docs",
    "bench",
    "fuzz/regressions",
    "Cargo.toml",
    "Cargo.lock",
    "README.md",
    "ARCHITECTURE.md",
    "rustfmt.toml",
    "size-budget.toml",
    ".gitignore",
];

/// Set in the scratch tree's own `cargo test`, so the flow does not start itself again there.
const NESTED: &str = "HOOKWIRE_EVOLVE_NESTED";

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "hookwire-evolve-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).unwrap();
        for e in fs::read_dir(from).unwrap().flatten() {
            copy(&e.path(), &to.join(e.file_name()));
        }
    } else {
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(from, to).unwrap();
    }
}

/// A scratch copy of `parts` of the repository, committed to a fresh git repository.
fn repository(name: &str, parts: &[&str]) -> PathBuf {
    let dir = scratch(name);
    for part in parts {
        if root().join(part).exists() {
            copy(&root().join(part), &dir.join(part));
        }
    }
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    dir
}

fn git(dir: &Path, args: &[&str]) -> String {
    let o = common::git_output(dir, args).expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn run(bin: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("hookwire runs")
}

fn hookwire(dir: &Path, args: &[&str]) -> Output {
    run(Path::new(env!("CARGO_BIN_EXE_hookwire")), dir, args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output, what: &str) -> String {
    assert_eq!(o.status.code(), Some(0), "{what}:\n{}{}", stdout(o), stderr(o));
    stdout(o)
}

/// `cargo test` in the scratch tree, into its own target directory under ours (the dependencies
/// stay built between runs), skipping the tests pinned to version 6.
fn cargo_test(dir: &Path, bless: bool, filter: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["test", "--offline", "--quiet", "--no-fail-fast"])
        .args(filter)
        .arg("--")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", root().join("target/evolve"))
        .env(NESTED, "1")
        .env_remove("HOOKWIRE_BLESS");
    if bless {
        cmd.env("HOOKWIRE_BLESS", "1");
    }
    cmd.output().expect("cargo runs")
}

fn cargo_ok(o: &Output, what: &str) {
    let out = format!("{}{}", stdout(o), stderr(o));
    let failed: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("FAILED") || l.contains("panicked") || l.starts_with("error"))
        .collect();
    assert_eq!(o.status.code(), Some(0), "{what}:\n{}\n---\n{out}", failed.join("\n"));
}

/// The whole change, as a maintainer makes it: scaffold version 7 (and turn control's version 2
/// in the same change), bless, build and test the
/// tree, see that nothing changed yet, ship it, check it (alone and against the revision it
/// branched from), ship again (nothing to ship), and scaffold version 8 on top.
/// About 1.5 minutes with the dependencies built in `target/evolve`, 3 without.
#[test]
fn new_version_then_ship_in_a_scratch_copy() {
    if std::env::var_os(NESTED).is_some() {
        return;
    }
    let start = Instant::now();
    let dir = repository("flow", TREE);
    // A tree whose current version has not shipped yet (a change adding it) ships it first.
    ok(&hookwire(&dir, &["ship", "--root", "."]), "ship what has not shipped");
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "--allow-empty", "-m", "everything shipped"]);
    let base = git(&dir, &["rev-parse", "HEAD"]);
    let (n, m) = (
        hookwire::session_inbox::WIRE_VERSION,
        hookwire::session_inbox::WIRE_VERSION + 1,
    );

    let said = ok(&hookwire(&dir, &["new-version", "--root", "."]), "new-version");
    assert!(
        said.contains(&format!("session-inbox: version {m} scaffolded from version {n}")),
        "{said}"
    );
    assert!(said.contains("HOOKWIRE_BLESS=1 cargo test"), "{said}");
    for rel in [
        format!("src/families/session_inbox/v{m}.rs"),
        format!("src/families/session_inbox/v{n}_to_v{m}.rs"),
        format!("fixtures/session-inbox/v{m}/clear.json"),
    ] {
        assert!(dir.join(&rel).exists(), "{rel}");
    }
    // Turn control's next version in the same change: the scaffold is the same for every family,
    // and the suite below runs over both.
    let (tn, tm) = (
        hookwire::turn_control::WIRE_VERSION,
        hookwire::turn_control::WIRE_VERSION + 1,
    );
    let said = ok(
        &hookwire(&dir, &["--family", "turn-control", "new-version", "--root", "."]),
        "turn-control new-version",
    );
    assert!(
        said.contains(&format!("turn-control: version {tm} scaffolded from version {tn}")),
        "{said}"
    );
    let fmt = Command::new(env!("CARGO"))
        .args(["fmt", "--check"])
        .current_dir(&dir)
        .output()
        .unwrap();
    cargo_ok(&fmt, "cargo fmt --check on the scaffolded tree");
    let again = hookwire(&dir, &["new-version", "--root", "."]);
    assert_eq!(again.status.code(), Some(1), "an unshipped version is changed in place");
    assert!(
        stderr(&again).contains(&format!("version {m} has not shipped")),
        "{}",
        stderr(&again)
    );

    // Bless (the frozen schema, the new target's encoder outputs, the generated files: the
    // tests that write them; the others in the same run may still read the old files, so its
    // verdict is the next run's), then the whole suite on the scaffolded tree.
    cargo_test(
        &dir,
        true,
        &["--test", "fixtures", "--test", "generated", "--test", "evolve"],
    );
    for rel in [
        format!("artifacts/session-inbox/v{m}/schema.json"),
        format!("artifacts/session-inbox/v{m}/encode/control-cancel-plain.v{m}.json"),
    ] {
        assert!(dir.join(&rel).exists(), "blessing wrote no {rel}");
    }
    let built = Instant::now();
    cargo_ok(&cargo_test(&dir, false, &[]), "cargo test in the scaffolded tree");
    eprintln!(
        "scaffolded tree: blessed in {:?}, tested in {:?}",
        built - start,
        built.elapsed()
    );

    let scratch_bin = root().join("target/evolve/debug/hookwire");
    let from = n.to_string();
    let to = m.to_string();
    let diff = ok(
        &run(
            &scratch_bin,
            &dir,
            &["diff", "--from-version", &from, "--to-version", &to],
        ),
        "diff",
    );
    assert_eq!(diff.trim(), format!("v{n} → v{m}:\nno change"));

    let shipped = ok(&run(&scratch_bin, &dir, &["ship", "--root", "."]), "ship");
    assert!(
        shipped.contains(&format!("session-inbox: shipped version {m}")),
        "{shipped}"
    );
    assert!(
        shipped.contains(&format!("locked artifacts/session-inbox/v{m}/schema.json")),
        "{shipped}"
    );
    assert!(
        shipped.contains(&format!("locked src/families/session_inbox/v{n}_to_v{m}.rs")),
        "{shipped}"
    );
    assert!(
        shipped.contains(&format!("turn-control: shipped version {tm}")),
        "{shipped}"
    );
    let registry = fs::read_to_string(dir.join("src/families/session_inbox/mod.rs")).unwrap();
    assert!(
        registry.contains(&format!("version: {m},\n            shipped: true,")),
        "{registry}"
    );
    let checked = ok(&run(&scratch_bin, &dir, &["check", "--root", "."]), "check after ship");
    assert!(
        checked.contains("session-inbox: registry, version modules"),
        "{checked}"
    );
    ok(
        &run(&scratch_bin, &dir, &["check", "--root", ".", "--against", &base]),
        "check --against the revision the change branched from",
    );
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("artifacts/manifest.json")).unwrap()).unwrap();
    let v = &manifest["families"][0]["versions"][n as usize];
    assert_eq!(
        (v["version"].as_u64(), v["shipped"].as_bool()),
        (Some(u64::from(m)), Some(true))
    );
    assert_eq!(
        v["schemaSha256"].as_str(),
        Some(sha256(&fs::read(dir.join(format!("artifacts/session-inbox/v{m}/schema.json"))).unwrap()).as_str())
    );
    let twice = ok(&run(&scratch_bin, &dir, &["ship", "--root", "."]), "second ship");
    assert!(
        twice.contains(&format!(
            "session-inbox: nothing to ship: versions 1 … {m} have all shipped"
        )),
        "{twice}"
    );

    // Version 8 on top, from the tree's own build: it builds and says "no change".
    let next = ok(
        &run(&scratch_bin, &dir, &["new-version", "--root", "."]),
        "second new-version",
    );
    assert!(
        next.contains(&format!("version {} scaffolded from version {m}", m + 1)),
        "{next}"
    );
    let build = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", root().join("target/evolve"))
        .output()
        .unwrap();
    cargo_ok(&build, "cargo build with version 8");
    let later = (m + 1).to_string();
    let diff = ok(
        &run(
            &scratch_bin,
            &dir,
            &["diff", "--from-version", &to, "--to-version", &later],
        ),
        "diff 7 → 8",
    );
    assert!(diff.ends_with("no change\n"), "{diff}");
    eprintln!("the whole flow: {:?}", start.elapsed());
    let _ = fs::remove_dir_all(&dir);
}

/// A missing anchor changes nothing: `new-version` computes every edit before it writes one.
#[test]
fn new_version_changes_nothing_when_an_anchor_is_missing() {
    let dir = scratch("anchor");
    for part in ["src", "fixtures", "artifacts", "rustfmt.toml"] {
        copy(&root().join(part), &dir.join(part));
    }
    let module = dir.join("src/families/session_inbox/mod.rs");
    let text = fs::read_to_string(&module).unwrap();
    fs::write(&module, text.replace("targets: &[", "targets:&[")).unwrap();
    let before: Vec<(PathBuf, Vec<u8>)> = walk(&dir);
    let o = hookwire(&dir, &["new-version", "--root", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    if hookwire::session_inbox::REGISTRY.versions.iter().all(|e| e.shipped) {
        assert_eq!(
            stderr(&o),
            "hookwire: new-version: src/families/session_inbox/mod.rs: anchor `targets: &[` not found\n"
        );
    }
    assert!(walk(&dir) == before, "new-version changed files although it failed");
    let _ = fs::remove_dir_all(&dir);
}

fn walk(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), fs::read(e.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// `check --against`: what a change may do to what is locked, and what a version-adding change
/// may touch.
#[test]
fn check_against_a_revision() {
    let dir = repository("against", &["src", "fixtures", "artifacts", ".gitignore"]);
    let check = || hookwire(&dir, &["check", "--root", ".", "--against", "HEAD"]);
    let clean = check();
    assert!(ok(&clean, "a clean tree").contains("against HEAD: locked files unchanged"));

    // A revision that names no commit is refused by `check` and `diff` alike, never read as a
    // revision with no files (where `diff` would find every version new and pass).
    for command in ["check", "diff"] {
        let o = hookwire(&dir, &[command, "--root", ".", "--against", "no-such-rev"]);
        assert_eq!(o.status.code(), Some(2), "{command}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stderr(&o).contains("no-such-rev is not a commit of the git repository"),
            "{command}: {}",
            stderr(&o)
        );
    }
    assert!(ok(
        &hookwire(&dir, &["diff", "--root", ".", "--against", "HEAD"]),
        "diff against HEAD"
    )
    .contains("no change"));

    // A shipped fixture edited.
    let fixture = "fixtures/session-inbox/v1/clear.json";
    let bytes = fs::read(dir.join(fixture)).unwrap();
    fs::write(dir.join(fixture), [&bytes[..], b" "].concat()).unwrap();
    let o = check();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("error[Against]: {fixture}: locked at HEAD and changed since")),
        "{}",
        stderr(&o)
    );
    fs::write(dir.join(fixture), &bytes).unwrap();

    // A line appended to the lock: the lock only grew.
    let lock = fs::read_to_string(dir.join("artifacts/LOCK")).unwrap();
    fs::write(dir.join("notes.txt"), "notes\n").unwrap();
    fs::write(
        dir.join("artifacts/LOCK"),
        format!("{lock}{}  notes.txt\n", sha256(b"notes\n")),
    )
    .unwrap();
    ok(&check(), "a line added to the lock");

    // A line removed from the lock (the header nothing else reads, then a real one).
    let mut lines: Vec<&str> = lock.lines().collect();
    let header = lines.remove(0);
    fs::write(dir.join("artifacts/LOCK"), lines.join("\n") + "\n").unwrap();
    let o = check();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains(&format!(
            "error[Against]: artifacts/LOCK: a line of HEAD was removed or rewritten (lines are only ever added): {header}"
        )),
        "{said}"
    );
    let gone = lines.pop().unwrap();
    fs::write(dir.join("artifacts/LOCK"), lines.join("\n") + "\n").unwrap();
    let said = stderr(&check());
    assert!(
        said.contains(&format!("rewritten (lines are only ever added): {gone}")),
        "{said}"
    );
    fs::write(dir.join("artifacts/LOCK"), &lock).unwrap();
    fs::remove_file(dir.join("notes.txt")).unwrap();

    // A version's schema deleted.
    let current = hookwire::session_inbox::WIRE_VERSION;
    let schema = &format!("artifacts/session-inbox/v{current}/schema.json");
    let bytes = fs::read(dir.join(schema)).unwrap();
    fs::remove_file(dir.join(schema)).unwrap();
    let o = check();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!(
            "error[Against]: session-inbox: version {current} exists at HEAD ({schema}) and is gone here"
        )),
        "{}",
        stderr(&o)
    );
    fs::write(dir.join(schema), &bytes).unwrap();
    ok(&check(), "restored");

    // A change that adds a version and also touches the machinery.
    let next = current + 1;
    fs::write(dir.join(format!("src/families/session_inbox/v{next}.rs")), "//! next\n").unwrap();
    fs::create_dir_all(dir.join(format!("fixtures/session-inbox/v{next}"))).unwrap();
    fs::write(dir.join(format!("fixtures/session-inbox/v{next}/clear.json")), "{}\n").unwrap();
    let diff_rs = fs::read_to_string(dir.join("src/contract/diff.rs")).unwrap();
    fs::write(dir.join("src/contract/diff.rs"), format!("{diff_rs}// more\n")).unwrap();
    let said = stderr(&check());
    assert!(
        said.contains(&format!(
            "error[Against]: src/contract/diff.rs: a change that adds session-inbox version {next} touches only"
        )),
        "{said}"
    );
    assert_eq!(
        said.matches("a change that adds").count(),
        1,
        "only src/contract/diff.rs: {said}"
    );
    let _ = fs::remove_dir_all(&dir);
}

fn manifest_now() -> Value {
    let o = hookwire(&root(), &["manifest"]);
    serde_json::from_str(&ok(&o, "manifest")).unwrap()
}

/// The manifest shipped in the crate is what this build says (`HOOKWIRE_BLESS=1 cargo test`
/// rewrites it), and its hashes are those of the frozen files.
#[test]
fn the_committed_manifest_is_current() {
    let printed = ok(&hookwire(&root(), &["manifest"]), "manifest");
    let path = root().join("artifacts/manifest.json");
    if blessing() {
        fs::write(&path, &printed).unwrap();
    }
    let on_disk = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == printed,
        "artifacts/manifest.json is stale: regenerate it with HOOKWIRE_BLESS=1 cargo test"
    );
    let manifest: Value = serde_json::from_str(&printed).unwrap();
    for (f, m) in hookwire::FAMILIES.iter().zip(manifest["families"].as_array().unwrap()) {
        assert_eq!(m["name"], f.name());
        assert_eq!(m["current"], f.registry.current);
        assert_eq!(m["writeCeiling"], f.registry.current);
        for (e, v) in f.registry.versions.iter().zip(m["versions"].as_array().unwrap()) {
            assert_eq!(
                (v["version"].as_u64(), v["shipped"].as_bool()),
                (Some(u64::from(e.version)), Some(e.shipped))
            );
            let rel = format!("artifacts/{}/v{}/schema.json", f.name(), e.version);
            match e.shipped {
                true => assert_eq!(
                    v["schemaSha256"].as_str(),
                    Some(sha256(&fs::read(root().join(&rel)).unwrap()).as_str()),
                    "{rel}"
                ),
                false => assert!(v.get("schemaSha256").is_none()),
            }
        }
    }
}

/// `manifest --compare OLD.json`: each thing a deployment would break for runs pinned to the
/// old build is one line (exit 1); anything else is "compatible".
#[test]
fn manifest_compare_flags_what_a_deployment_would_break() {
    let dir = scratch("manifest");
    let now = manifest_now();
    let compare = |old: &Value| {
        let file = dir.join("old.json");
        fs::write(&file, old.to_string()).unwrap();
        hookwire(&root(), &["manifest", "--compare", file.to_str().unwrap()])
    };
    // A build with a version it writes but has not shipped (a tree mid-change, as `new-version`
    // leaves it) is flagged against any manifest, itself included: that is all it can be asked.
    let unshipped: Vec<String> = now["families"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| {
            let name = f["name"].as_str().unwrap().to_string();
            f["versions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|v| v["shipped"] == json!(false))
                .map(move |v| format!("{name} v{}", v["version"]))
        })
        .collect();
    if !unshipped.is_empty() {
        let o = compare(&now);
        assert_eq!(o.status.code(), Some(1), "{unshipped:?}: {}", stdout(&o));
        assert!(stderr(&o).contains("error[Unshipped]"), "{}", stderr(&o));
        let _ = fs::remove_dir_all(&dir);
        return;
    }
    assert_eq!(ok(&compare(&now), "the same build"), "compatible\n");
    let mut older = now.clone();
    let family = &mut older["families"][0];
    let current = family["current"].as_u64().unwrap();
    family["versions"].as_array_mut().unwrap().pop();
    family["current"] = json!(current - 1);
    family["writeCeiling"] = json!(current - 1);
    assert_eq!(ok(&compare(&older), "an older build"), "compatible\n");

    let lines = |o: &Output| -> Vec<String> {
        assert_eq!(o.status.code(), Some(1), "{}", stderr(o));
        stderr(o).lines().map(String::from).collect()
    };
    let mut removed = now.clone();
    removed["families"][0]["versions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"version": current + 1, "shipped": false}));
    assert_eq!(
        lines(&compare(&removed)),
        [format!(
            "error[VersionRemoved]: session-inbox: version {} is gone; runs pinned to the old deployment write it",
            current + 1
        )]
    );
    let mut changed = now.clone();
    changed["families"][1]["versions"][0]["schemaSha256"] = json!("0".repeat(64));
    let said = lines(&compare(&changed));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(
            "error[SchemaChanged]: turn-control: the shipped schema of version 1 changed (sha256 000000000000 → "
        ),
        "{said:?}"
    );
    let mut lowered = now.clone();
    lowered["families"][0]["current"] = json!(current + 1);
    assert_eq!(
        lines(&compare(&lowered)),
        [format!(
            "error[CurrentLowered]: session-inbox: the current version is lowered from {} to {current}; runs pinned to the old deployment write version {}",
            current + 1,
            current + 1
        )]
    );
    let mut fewer = now.clone();
    fewer["families"].as_array_mut().unwrap().remove(1);
    assert_eq!(ok(&compare(&fewer), "a family added"), "compatible\n");
    let mut more = now.clone();
    more["families"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "echo", "current": 1, "versions": []}));
    assert_eq!(
        lines(&compare(&more)),
        ["error[FamilyRemoved]: echo: the family is gone; runs pinned to the old deployment still write and read it"]
    );
    for not_one in [
        json!({"families": "no"}),
        json!({"hookwireManifest": null, "families": []}),
    ] {
        let o = compare(&not_one);
        assert_eq!(o.status.code(), Some(2), "{not_one}: {}", stderr(&o));
    }
    // A version the old deployment wrote before it shipped (one above its write ceiling is not
    // written: the `removed` case above).
    let mut early = now.clone();
    early["families"][0]["versions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"version": current + 1, "shipped": false}));
    early["families"][0]["current"] = json!(current + 1);
    early["families"][0]["writeCeiling"] = json!(current + 1);
    let said = lines(&compare(&early));
    assert!(
        said.contains(&format!(
            "error[Unshipped]: session-inbox: the old deployment writes version {}, which had not shipped: what it wrote cannot be held to this build's schema of it",
            current + 1
        )),
        "{said:?}"
    );
    // Numbers written as doubles are the same numbers.
    let mut doubles = now.clone();
    for v in doubles["families"][0]["versions"].as_array_mut().unwrap() {
        v["version"] = json!(v["version"].as_f64().unwrap());
    }
    doubles["families"][0]["current"] = json!(current as f64);
    assert_eq!(ok(&compare(&doubles), "versions written as 1.0"), "compatible\n");
    // A family missing what a manifest holds is an error, never read as "nothing there".
    for (key, value) in [
        ("versions", None),
        ("versions", Some(json!([{"version": "1"}]))),
        ("versions", Some(json!([{"version": 1, "schemaSha256": 5}]))),
        (
            "versions",
            Some(json!([{"version": 1, "schemaSha256": "ab", "shipped": false}])),
        ),
        ("versions", Some(json!([{"version": 1, "shipped": true}]))),
        ("writeCeiling", Some(json!(current + 1))),
        ("current", None),
        ("name", Some(json!(5))),
    ] {
        let mut broken = now.clone();
        match value {
            Some(v) => broken["families"][0][key] = v,
            None => {
                broken["families"][0].as_object_mut().unwrap().remove(key);
            }
        }
        let o = compare(&broken);
        assert_eq!(o.status.code(), Some(2), "{key}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stderr(&o).contains("the old manifest's family"),
            "{key}: {}",
            stderr(&o)
        );
    }
    let _ = fs::remove_dir_all(&dir);
}
