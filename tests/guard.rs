//! The registry guard ("rule 40"): clean on the real tree, and each rule shown failing on a
//! copy of the tree broken on purpose.

mod common;

use hookwire::artifacts::compare_or_bless;
use hookwire::family::{Registry, VersionEntry};
use hookwire::guard::{check, Rule};
use hookwire::session_inbox::REGISTRY;
use std::fs;
use std::path::{Path, PathBuf};

/// A private copy of the parts of the tree the guard reads.
fn tree() -> PathBuf {
    common::scratch_tree(
        "hookwire-guard",
        &["src/families/session_inbox", "artifacts", "fixtures"],
    )
}

fn rules(root: &Path, reg: &Registry) -> Vec<Rule> {
    check(root, reg).into_iter().map(|v| v.rule).collect()
}

#[test]
fn the_real_tree_is_clean() {
    let violations = check(&common::root(), &REGISTRY);
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn registry_must_be_contiguous_from_one() {
    let reg = Registry {
        versions: &[
            VersionEntry {
                version: 1,
                shipped: true,
            },
            VersionEntry {
                version: 3,
                shipped: false,
            },
        ],
        current: 3,
        ..REGISTRY
    };
    assert!(rules(&tree(), &reg).contains(&Rule::Contiguous));
}

#[test]
fn highest_entry_must_be_current() {
    let reg = Registry { current: 2, ..REGISTRY };
    assert!(rules(&tree(), &reg).contains(&Rule::HighestIsCurrent));
}

#[test]
fn an_unregistered_version_module_fails() {
    let root = tree();
    fs::write(
        root.join(format!(
            "src/families/session_inbox/v{}.rs",
            hookwire::session_inbox::WIRE_VERSION + 1
        )),
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
    )
    .unwrap();
    assert!(rules(&root, &REGISTRY).contains(&Rule::ModulesMatch));
}

#[test]
fn a_registered_version_without_module_fails() {
    let root = tree();
    fs::remove_file(root.join("src/families/session_inbox/v1.rs")).unwrap();
    assert!(rules(&root, &REGISTRY).contains(&Rule::ModulesMatch));
}

#[test]
fn migrations_must_be_the_one_step_chain() {
    let root = tree();
    fs::write(root.join("src/families/session_inbox/v1_to_v3.rs"), "").unwrap();
    assert!(rules(&root, &REGISTRY).contains(&Rule::MigrationsMatch));
    let reg = Registry {
        steps: &[(0, 2)],
        ..REGISTRY
    };
    assert!(rules(&tree(), &reg).contains(&Rule::MigrationsMatch));
}

#[test]
fn a_step_without_its_down_half_fails() {
    let root = tree();
    let path = root.join("src/families/session_inbox/v5_to_v6.rs");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("pub fn down(", "pub fn lower(")).unwrap();
    assert!(rules(&root, &REGISTRY).contains(&Rule::BothHalves));
    let root = tree();
    let path = root.join("src/families/session_inbox/v0.rs");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("the `down` half of step 0 ↔ 1", "the conversions")).unwrap();
    assert!(
        rules(&root, &REGISTRY).contains(&Rule::BothHalves),
        "the historic step's down half is v0.rs"
    );
}

#[test]
fn a_down_half_importing_the_family_fails() {
    let root = tree();
    let path = root.join("src/families/session_inbox/v3_to_v4.rs");
    let text = fs::read_to_string(&path).unwrap();
    let broken = text.replacen(
        "pub fn down(",
        "pub fn down_policy() -> u32 { crate::session_inbox::WIRE_VERSION }\n#[cfg(feature = \"std\")]\npub fn down(",
        1,
    );
    fs::write(&path, broken).unwrap();
    assert!(rules(&root, &REGISTRY).contains(&Rule::MigrationPurity));
}

#[test]
fn a_version_module_without_tests_fails() {
    let root = tree();
    let path = root.join("src/families/session_inbox/v0.rs");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.split("#[cfg(test)]").next().unwrap()).unwrap();
    assert!(rules(&root, &REGISTRY).contains(&Rule::ColocatedTests));
}

#[test]
fn a_migration_importing_policy_fails() {
    for import in [
        "use crate::session_inbox::v1::build;",
        "use crate::decode::decode;",
        "use serde_json::Value;",
        "use super::target;",
    ] {
        let root = tree();
        let path = root.join("src/families/session_inbox/v0_to_v1.rs");
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, format!("{import}\n{text}")).unwrap();
        let found = rules(&root, &REGISTRY);
        assert!(found.contains(&Rule::MigrationPurity), "{import}: {found:?}");
        assert!(found.contains(&Rule::Frozen), "a shipped migration is hash-locked");
    }
}

#[test]
fn shipped_artifacts_are_frozen() {
    let root = tree();
    let schema = root.join("artifacts/session-inbox/v1/schema.json");
    let text = fs::read_to_string(&schema).unwrap();
    fs::write(&schema, text.replace("\"string\"", "\"number\"")).unwrap();
    let violations = check(&root, &REGISTRY);
    let frozen: Vec<_> = violations.iter().filter(|v| v.rule == Rule::Frozen).collect();
    assert_eq!(frozen.len(), 1, "{violations:#?}");
    assert!(frozen[0].message.contains("new version") && frozen[0].message.contains("one-step migration"));

    let root = tree();
    fs::remove_file(root.join("fixtures/session-inbox/v0/raw-send-minimal.json")).unwrap();
    assert!(
        rules(&root, &REGISTRY).contains(&Rule::Frozen),
        "a deleted fixture of a shipped version"
    );

    let root = tree();
    fs::write(root.join("fixtures/session-inbox/v0/new-case.json"), "{}").unwrap();
    assert!(
        rules(&root, &REGISTRY).contains(&Rule::Frozen),
        "a new file of a shipped version must be locked"
    );
}

#[test]
fn blessing_a_shipped_version_fails_but_an_unshipped_one_writes() {
    let root = tree();
    let rel = "artifacts/session-inbox/v1/schema.json";
    let err = compare_or_bless(&root, &REGISTRY, 1, rel, "{}", true).unwrap_err();
    assert!(err.contains("refusing") && err.contains("one-step migration"), "{err}");

    let reg = Registry {
        versions: &[VersionEntry {
            version: 1,
            shipped: false,
        }],
        ..REGISTRY
    };
    compare_or_bless(&root, &reg, 1, rel, "{}", true).unwrap();
    assert_eq!(fs::read_to_string(root.join(rel)).unwrap(), "{}");
    let err = compare_or_bless(&root, &reg, 1, rel, "{\"a\":1}", false).unwrap_err();
    assert!(err.contains("HOOKWIRE_BLESS=1"), "{err}");
}

#[test]
fn the_decoders_steps_match_the_registry() {
    let steps = hookwire::session_inbox::steps::<hookwire::json::JsonHost>();
    let declared: Vec<(u32, u32)> = steps.iter().map(|s| (s.from, s.to)).collect();
    assert_eq!(declared, REGISTRY.steps);
}

#[test]
fn a_changed_shipped_shape_fails_with_every_change_classified() {
    let root = tree();
    let path = root.join("artifacts/session-inbox/v6/schema.json");
    let mut schema: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    // The frozen v6 cancel without `tasks`: as if the code had added it to a shipped version.
    schema["$defs"]["SessionInboxCancelV6"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("tasks");
    fs::write(&path, serde_json::to_string_pretty(&schema).unwrap() + "\n").unwrap();
    let failures = hookwire::conformance::check_schemas(&hookwire::session_inbox::FAMILY, &root, false);
    assert_eq!(failures.len(), 1, "{failures:#?}");
    let message = &failures[0];
    assert!(message.contains("FIELD_ADDED_OPTIONAL cancel /tasks"), "{message}");
    assert!(
        message.contains("forward incompatible, backward compatible"),
        "{message}"
    );
    assert!(message.contains("new version"), "{message}");
}

/// A shipped step module may move to another folder with its bytes unchanged: `hookwire lock`
/// records the move (`<hash>  <new>  <- <old>`) and the old path may then be gone. A move that
/// changes the bytes stays a breaking change.
#[test]
fn a_moved_shipped_step_is_accepted_only_with_its_bytes_and_recorded() {
    let moved = "src/families/session_inbox/v1_to_v2.rs";
    let unrecorded = |root: &Path| {
        let lock = fs::read_to_string(root.join(hookwire::artifacts::LOCK)).unwrap();
        let kept: String = lock
            .lines()
            .filter(|l| !l.ends_with(moved) && !l.contains(&format!("{moved}  <- ")))
            .map(|l| format!("{l}\n"))
            .collect();
        fs::write(root.join(hookwire::artifacts::LOCK), kept).unwrap();
    };
    let root = tree();
    unrecorded(&root);
    let lock = fs::read_to_string(root.join("artifacts/LOCK")).unwrap();
    assert!(
        lock.contains("  src/session_inbox/v1_to_v2.rs\n"),
        "the old path stays locked"
    );
    let violations = check(&root, &REGISTRY);
    assert!(
        violations.iter().any(|v| v.rule == Rule::Frozen
            && v.message
                .contains("src/session_inbox/v1_to_v2.rs is locked but missing")),
        "{violations:#?}"
    );
    let added = hookwire::artifacts::extend_lock(&root, &REGISTRY).unwrap();
    assert_eq!(added, [moved]);
    let lock = fs::read_to_string(root.join("artifacts/LOCK")).unwrap();
    assert!(
        lock.contains(&format!("  {moved}  <- src/session_inbox/v1_to_v2.rs\n")),
        "{lock}"
    );
    assert!(check(&root, &REGISTRY).is_empty());

    // The same move with other bytes: recorded as a new file, and the old path is still missing.
    let root = tree();
    unrecorded(&root);
    let text = fs::read_to_string(root.join(moved)).unwrap();
    fs::write(root.join(moved), format!("{text}// edited\n")).unwrap();
    hookwire::artifacts::extend_lock(&root, &REGISTRY).unwrap();
    let lock = fs::read_to_string(root.join("artifacts/LOCK")).unwrap();
    assert!(!lock.contains("  <- src/session_inbox/v1_to_v2.rs"));
    assert!(rules(&root, &REGISTRY).contains(&Rule::Frozen));
}
