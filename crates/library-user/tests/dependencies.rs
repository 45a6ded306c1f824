//! What a user of the library builds with the default features: the dependency graph of this
//! crate (which depends on hookwire by path and nothing more) holds neither clap nor any crate
//! only the CLI or the wasm modules need, and hookwire's library target is an rlib alone.

use std::process::Command;

fn cargo(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        o.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("cargo prints UTF-8")
}

#[test]
fn a_library_user_builds_neither_clap_nor_a_cdylib() {
    // The graph of a build of this package alone (features resolved as `cargo build -p` does).
    let tree = cargo(&[
        "tree",
        "-p",
        "library-user",
        "-e",
        "normal,build,features",
        "--prefix",
        "none",
    ]);
    let crates: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    for absent in [
        "clap",
        "clap_complete",
        "sha2",
        "wasm-bindgen",
        "js-sys",
        "hookwire-cli",
        "hookwire-wasm",
    ] {
        assert!(!crates.contains(&absent), "a library user builds {absent}:\n{tree}");
    }
    let features: Vec<&str> = tree.lines().filter(|l| l.starts_with("hookwire feature")).collect();
    assert!(!features.is_empty(), "{tree}");
    for f in &features {
        assert!(
            *f == r#"hookwire feature "default""# || *f == r#"hookwire feature "std""#,
            "a library user gets {f}"
        );
    }
    for parser in [
        r#"serde_json feature "unbounded_depth""#,
        r#"serde_json feature "float_roundtrip""#,
    ] {
        assert!(!tree.contains(parser), "a library user gets {parser}:\n{tree}");
    }

    // hookwire's library target is an rlib, and nothing it builds for this user is a cdylib.
    let metadata = cargo(&["metadata", "--format-version", "1", "--no-deps"]);
    let meta: serde_json::Value = serde_json::from_str(&metadata).unwrap();
    let hookwire = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "hookwire")
        .expect("hookwire is in the workspace");
    let kinds: Vec<&serde_json::Value> = hookwire["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            t["kind"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k == "lib" || k == "rlib" || k == "cdylib")
        })
        .map(|t| &t["crate_types"])
        .collect();
    assert_eq!(kinds, [&serde_json::json!(["rlib"])], "hookwire's library target");
}
