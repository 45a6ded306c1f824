//! The `hookwire` command line, run as a process exactly as documented.

#[path = "../../../tests/common/mod.rs"]
mod common;

use hookwire::session_inbox::WIRE_VERSION;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn hookwire(args: &[&str], stdin: &[u8]) -> Output {
    common::hookwire(args, stdin)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn lines(o: &Output) -> Vec<Value> {
    stdout(o).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn decode_one_value_prints_canonical_json() {
    let o = hookwire(&["decode"], br#"{ "payload": {"b":1,"a":2}, "kind": "send" }"#);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"kind\":\"deliver\",\"payloads\":[{\"a\":2,\"b\":1}]}\n");
}

#[test]
fn decode_failure_exits_1_with_the_code() {
    let newer = format!(r#"{{"kind":"clear","version":{}}}"#, WIRE_VERSION + 1);
    let o = hookwire(&["decode"], newer.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error[NEWER_VERSION]: ") && err.contains("newer deployment"),
        "{err}"
    );
    let o = hookwire(&["decode"], b"{not json");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error[INVALID_JSON]: "));
}

#[test]
fn decode_reads_a_file_argument() {
    let o = hookwire(&["decode", "fixtures/session-inbox/v0/raw-send-minimal.json"], b"");
    // The fixture file wraps the input; decoding the wrapper itself is an unknown kind.
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error[UNKNOWN_KIND]"));
    let o = hookwire(&["decode", "no/such/file.json"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn lines_modes_read_the_file_given_and_stdin_otherwise() {
    let dir = std::env::temp_dir().join(format!("hookwire-lines-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let decode = dir.join("decode.ndjson");
    std::fs::write(&decode, "{\"kind\":\"clear\"}\n{\"kind\":\"nope\",\"version\":1}\n").unwrap();
    let encode = dir.join("encode.ndjson");
    std::fs::write(
        &encode,
        "{\"command\":{\"kind\":\"clear\"},\"target\":{\"version\":1}}\n",
    )
    .unwrap();
    // The file is read, not stdin (which holds another line here).
    let o = hookwire(
        &["decode", "--lines", decode.to_str().unwrap()],
        b"{\"kind\":\"compact\"}\n",
    );
    assert_eq!(o.status.code(), Some(0));
    let out = lines(&o);
    assert_eq!(out.len(), 2, "{}", stdout(&o));
    assert_eq!(out[0], json!({"ok": {"kind": "clear"}}));
    assert_eq!(out[1]["error"]["code"], "UNKNOWN_KIND");
    let o = hookwire(&["encode", "--lines", encode.to_str().unwrap()], b"");
    assert_eq!(lines(&o), vec![json!({"ok": {"kind": "clear", "version": 1}})]);
    // `-` is stdin; a file that cannot be read is a usage error, with its name.
    let o = hookwire(&["decode", "--lines", "-"], b"{\"kind\":\"compact\"}\n");
    assert_eq!(lines(&o), vec![json!({"ok": {"kind": "compact"}})]);
    let missing = dir.join("missing.ndjson");
    let o = hookwire(&["decode", "--lines", missing.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.ndjson"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decode_lines_answers_every_line_once_and_in_order() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"kind\":\"clear\"}\n");
    input.extend_from_slice(b"not json\n");
    input.extend_from_slice(b"\n");
    // A version newer than this build's, whichever that is.
    let newer = hookwire::session_inbox::WIRE_VERSION + 1;
    input.extend_from_slice(format!("{{\"kind\":\"deliver\",\"version\":{newer},\"payloads\":[]}}\r\n").as_bytes());
    input.extend_from_slice(b"\"\xff\xfe\"\n");
    input.extend_from_slice(b"{\"kind\":\"send\",\"payload\":{\"m\":1}}");
    let o = hookwire(&["decode", "--lines"], &input);
    assert_eq!(o.status.code(), Some(0));
    let out = lines(&o);
    assert_eq!(out.len(), 6, "{}", stdout(&o));
    assert_eq!(out[0], json!({"ok": {"kind": "clear"}}));
    assert_eq!(out[1]["error"]["code"], "INVALID_JSON");
    assert_eq!(out[2]["error"]["code"], "INVALID_JSON");
    assert_eq!(out[3]["error"]["code"], "NEWER_VERSION");
    assert_eq!(out[3]["error"]["version"], newer);
    assert!(out[3]["error"]["message"].as_str().unwrap().contains("newer"));
    assert_eq!(out[4]["error"]["code"], "INVALID_JSON");
    assert_eq!(out[5], json!({"ok": {"kind": "deliver", "payloads": [{"m": 1}]}}));
}

#[test]
fn encode_for_each_target() {
    let cmd = br#"{"kind":"send","payload":{"message":"hi"},"requestId":"r"}"#;
    let o = hookwire(&["encode", "--target", "v1"], cmd);
    assert_eq!(stdout(&o), "{\"kind\":\"deliver\",\"payload\":{\"message\":\"hi\"},\"payloads\":[{\"message\":\"hi\"}],\"requestId\":\"r\",\"version\":1}\n");
    let o = hookwire(&["encode", "--target", "v0-send"], cmd);
    assert_eq!(
        stdout(&o),
        "{\"kind\":\"send\",\"payload\":{\"message\":\"hi\"},\"requestId\":\"r\"}\n"
    );
    let o = hookwire(&["encode", "--target", "v0-deliver"], cmd);
    assert_eq!(
        stdout(&o),
        "{\"kind\":\"deliver\",\"payloads\":[{\"message\":\"hi\"}],\"requestId\":\"r\"}\n"
    );
    let o = hookwire(&["encode", "--target", &format!("v{WIRE_VERSION}")], cmd);
    assert!(
        stdout(&o).ends_with(&format!("\"version\":{WIRE_VERSION}}}\n")),
        "{}",
        stdout(&o)
    );
    let o = hookwire(&["encode", "--target", &format!("v{}", WIRE_VERSION + 1)], cmd);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error[UNSUPPORTED_TARGET]"));
    let o = hookwire(
        &["encode", "--target", "v1"],
        br#"{"kind":"deliver","payloads":[],"x":1}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/x"));
}

#[test]
fn encode_lines_with_targets_and_errors() {
    let input = [
        r#"{"command":{"kind":"clear"},"target":{"version":1}}"#,
        r#"{"command":{"kind":"clear"},"target":{"version":0,"variant":"send"}}"#,
        r#"{"command":{"kind":"clear"},"target":{"version":0,"variant":"fax"}}"#,
        r#"{"command":{"kind":"deliver","payloads":[{"message":1}]},"target":{"version":1}}"#,
        r#"{"target":{"version":1}}"#,
        r#"[1]"#,
        r#"{"command":{"kind":"reset","reason":"r"}}"#,
    ]
    .join("\n");
    let o = hookwire(&["encode", "--lines"], input.as_bytes());
    let out = lines(&o);
    assert_eq!(out.len(), 7);
    assert_eq!(out[0], json!({"ok": {"kind": "clear", "version": 1}}));
    assert_eq!(out[1], json!({"ok": {"kind": "clear"}}));
    assert_eq!(out[2]["error"]["code"], "UNSUPPORTED_TARGET");
    assert_eq!(out[3]["error"]["code"], "INVALID");
    assert_eq!(out[3]["error"]["path"], "/payloads/0/message");
    assert!(out[3]["error"]["expected"].as_str().unwrap().contains("UserContent"));
    assert_eq!(out[4]["error"]["code"], "INVALID_REQUEST");
    assert_eq!(out[4]["error"]["path"], "/command");
    assert_eq!(out[5]["error"]["code"], "INVALID_REQUEST");
    assert_eq!(
        out[5]["error"]["path"], "",
        "a line that is not an object: the whole request"
    );
    assert_eq!(
        out[6],
        json!({"ok": {"kind": "reset", "reason": "r", "version": WIRE_VERSION}}),
        "the target defaults to the current version"
    );
}

#[test]
fn a_line_past_max_line_bytes_is_too_large_and_the_stream_goes_on() {
    let exactly = format!(r#"{{"kind":"reset","reason":"{}"}}"#, "r".repeat(20));
    let max = exactly.len().to_string();
    let longer = format!(r#"{{"kind":"reset","reason":"{}"}}"#, "r".repeat(21));
    let input = format!("{exactly}\n{longer}\n{exactly}\r\n{{\"kind\":\"clear\"}}");
    for command in [
        &["decode", "--lines", "--max-line-bytes", &max][..],
        &["decode", "--lines", &format!("--max-line-bytes={max}")],
    ] {
        let o = hookwire(command, input.as_bytes());
        assert_eq!(o.status.code(), Some(0));
        let out = lines(&o);
        assert_eq!(out.len(), 4, "one answer per line");
        assert_eq!(
            out[0]["ok"]["reason"],
            "r".repeat(20),
            "a line of exactly the limit is read"
        );
        assert_eq!(out[1]["error"]["code"], "TOO_LARGE");
        assert_eq!(
            out[2]["ok"]["kind"], "reset",
            "a CRLF ending does not count against the limit"
        );
        assert_eq!(
            out[3],
            json!({"ok": {"kind": "clear"}}),
            "the last line without a newline"
        );
    }
    let o = hookwire(
        &["encode", "--lines", "--max-line-bytes", "10"],
        b"{\"command\":{\"kind\":\"clear\"}}\n",
    );
    assert_eq!(lines(&o)[0]["error"]["code"], "TOO_LARGE");
    let o = hookwire(
        &["negotiate", "--lines", "--max-line-bytes", "10"],
        b"{\"command\":{\"kind\":\"clear\"}}\n",
    );
    assert_eq!(lines(&o)[0]["error"]["code"], "TOO_LARGE");
}

#[test]
fn malformed_negotiate_requests_name_the_place_that_is_wrong() {
    let requests = [
        (r#"[1]"#, ""),
        (r#"{"destination":{"token":"t"}}"#, "/command"),
        (r#"{"command":{"kind":"clear"}}"#, "/destination"),
        (
            r#"{"command":{"kind":"clear"},"destination":{"token":5}}"#,
            "/destination",
        ),
        (
            r#"{"command":{"kind":"clear"},"destination":{"token":"t"},"hooks":{}}"#,
            "/hooks",
        ),
        (
            r#"{"command":{"kind":"clear"},"destination":{"token":"t"},"stableInboxToken":3}"#,
            "/stableInboxToken",
        ),
        (
            r#"{"command":{"kind":"clear"},"destination":{"token":"t"},"stableInboxToken":"no-run-id"}"#,
            "/stableInboxToken",
        ),
    ];
    let input: Vec<&str> = requests.iter().map(|(r, _)| *r).collect();
    let o = hookwire(&["negotiate", "--lines"], input.join("\n").as_bytes());
    let out = lines(&o);
    assert_eq!(out.len(), requests.len());
    for ((request, path), answer) in requests.iter().zip(&out) {
        assert_eq!(answer["error"]["code"], "INVALID_REQUEST", "{request}");
        assert_eq!(answer["error"]["path"], *path, "{request}");
    }
    let o = hookwire(&["--family", "turn-control", "negotiate", "--lines"], b"[1]\n{}\n");
    let out = lines(&o);
    assert_eq!(out[0]["error"]["path"], "");
    assert_eq!(out[1]["error"]["path"], "/capabilities");
}

fn nested(depth: usize) -> String {
    format!(
        "{{\"kind\":\"deliver\",\"payloads\":[{{\"task\":{}1{}}}]}}",
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[test]
fn deep_payloads_decode_and_absurd_depth_is_a_clear_error() {
    let o = hookwire(&["decode"], nested(50_000).as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with("{\"kind\":\"deliver\",\"payloads\":[{\"task\":[[[["));
    let o = hookwire(
        &["decode", "--lines"],
        format!("{}\n{{\"kind\":\"clear\"}}\n", nested(150_000)).as_bytes(),
    );
    let out = lines(&o);
    assert_eq!(out[0]["error"]["code"], "TOO_DEEP");
    assert_eq!(out[1], json!({"ok": {"kind": "clear"}}));
}

#[test]
fn a_version_written_1_0_is_the_integer_1() {
    let o = hookwire(&["decode"], br#"{"kind":"reset","version":1.0,"reason":"r"}"#);
    assert_eq!(stdout(&o), "{\"kind\":\"reset\",\"reason\":\"r\"}\n");
    let o = hookwire(&["encode"], br#"{"kind":"deliver","payloads":[{}],"deliveryMetadata":[{"channelKind":"a","channelName":"b","deliveryId":"c","payloadIndex":0.0}]}"#);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("\"payloadIndex\":0}"));
}

#[test]
fn duplicate_keys_last_wins() {
    let o = hookwire(&["decode"], br#"{"kind":"explode","kind":"clear"}"#);
    assert_eq!(stdout(&o), "{\"kind\":\"clear\"}\n");
}

#[test]
fn schema_check_and_removable() {
    let o = hookwire(&["schema"], b"");
    let printed: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let frozen: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join(format!("artifacts/session-inbox/v{WIRE_VERSION}/schema.json")))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(printed, frozen);
    let o = hookwire(&["schema", "--version", "1"], b"");
    let printed: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(printed["$id"], "urn:hookwire:session-inbox:v1");
    let newer = (WIRE_VERSION + 1).to_string();
    assert_eq!(hookwire(&["schema", "--version", &newer], b"").status.code(), Some(2));
    let o = hookwire(&["check"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let o = hookwire(&["removable"], b"");
    let text = stdout(&o);
    for what in ["v0 down-encoders", "markerless classification", "mirror"] {
        assert!(text.contains(what), "{text}");
    }
    assert!(text.matches("when:").count() >= 3);
}

#[test]
fn a_closed_stdout_ends_the_stream_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(["decode", "--lines"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    let line = b"{\"kind\":\"clear\"}\n".repeat(20_000);
    let _ = input.write_all(&line);
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.code().is_some(), "killed by a signal");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// Run `hookwire args` with stdout on `stdout` (a file or a pipe end).
fn with_stdout(args: &[&str], stdin: &[u8], stdout: std::process::Stdio) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_stops_quietly_and_a_full_disk_exits_2() {
    // A reader that goes away at once (`hookwire demo | true`): exit 0, no panic.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .arg("demo")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    if std::path::Path::new("/dev/full").exists() {
        for (args, input) in [
            (&["decode"][..], &b"{\"kind\":\"clear\"}"[..]),
            (
                &["decode", "--lines"][..],
                &b"{\"kind\":\"clear\"}\n{\"kind\":\"reset\"}\n"[..],
            ),
            (&["demo"][..], &b""[..]),
        ] {
            let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
            let o = with_stdout(args, input, full.into());
            assert_eq!(
                o.status.code(),
                Some(2),
                "{args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write"), "{args:?}");
        }
    }
}

#[test]
fn the_command_line_behaves_as_a_careful_user_expects() {
    let cmd = br#"{"kind":"send","payload":{"m":1}}"#;
    // `--flag=value` is the same as `--flag value`.
    let o = hookwire(&["encode", "--target=v0-send"], cmd);
    assert_eq!(stdout(&o), "{\"kind\":\"send\",\"payload\":{\"m\":1}}\n");
    // A misspelt flag is refused with a suggestion, never read as a file name.
    let o = hookwire(&["encode", "--tagret", "v1"], cmd);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--target"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Help never waits for input and never runs the command; --version prints the version.
    for args in [
        &["decode", "--help"][..],
        &["check", "--help"][..],
        &["lock", "--help"][..],
        &["--help"][..],
    ] {
        let o = hookwire(args, b"");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(stdout(&o).contains("Usage: hookwire"), "{args:?}");
    }
    let o = hookwire(&["--version"], b"");
    assert!(stdout(&o).starts_with("hookwire "), "{}", stdout(&o));
    // `-` is stdin.
    let o = hookwire(&["decode", "-"], br#"{"kind":"clear"}"#);
    assert_eq!(stdout(&o), "{\"kind\":\"clear\"}\n");
    // A file that does not exist, with a non-UTF-8 name: an I/O error (exit 2), not a panic.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"/nonexistent/\xff\xfe.json");
        let o = Command::new(env!("CARGO_BIN_EXE_hookwire"))
            .arg("decode")
            .arg(name)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    }
    // Shell completions.
    let o = hookwire(&["completions", "bash"], b"");
    assert!(stdout(&o).contains("hookwire"));
    // An unknown family names the known ones.
    let o = hookwire(&["--family", "nope", "decode"], b"{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("turn-control"));
}

#[test]
fn turn_control_through_the_command_line() {
    // The last line declares a version newer than this build's, whichever that is.
    let newer = hookwire::turn_control::WIRE_VERSION + 1;
    let input = format!(
        "{{\"kind\":\"turn-result\",\"action\":{{\"kind\":\"reply\",\"x\":[1]}}}}\n{{\"kind\":\"turn-result\",\"version\":1}}\n{{\"kind\":\"turn-error\",\"version\":{newer},\"error\":1}}\n"
    );
    let o = hookwire(&["--family", "turn-control", "decode", "--lines"], input.as_bytes());
    let out = lines(&o);
    assert_eq!(
        out[0],
        json!({"ok": {"kind": "turn-result", "action": {"kind": "reply", "x": [1]}}})
    );
    assert_eq!(
        (out[1]["error"]["code"].as_str(), out[1]["error"]["path"].as_str()),
        (Some("INVALID"), Some("/action"))
    );
    assert_eq!(out[2]["error"]["code"], "NEWER_VERSION");
    let o = hookwire(
        &["--family", "turn-control", "encode", "--target", "v0"],
        br#"{"kind":"turn-delivery-accepted","requestId":"r"}"#,
    );
    assert_eq!(
        stdout(&o),
        "{\"kind\":\"turn-delivery-accepted\",\"requestId\":\"r\"}\n"
    );
    // A driver newer than this build is answered this build's current version.
    let current = hookwire::turn_control::WIRE_VERSION;
    let o = hookwire(
        &["--family", "turn-control", "negotiate", "--lines"],
        format!(
            "{{\"capabilities\":{{\"turnControlWireVersion\":{}}}}}\n{{\"capabilities\":null}}\n",
            current + 2
        )
        .as_bytes(),
    );
    assert_eq!(
        lines(&o),
        vec![
            json!({"ok": {"target": {"version": current}}}),
            json!({"ok": {"target": {"version": 0}}})
        ]
    );
    let beyond = (current + 1).to_string();
    let o = hookwire(
        &[
            "--family",
            "turn-control",
            "negotiate",
            "--lines",
            "--write-at-most",
            &beyond,
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "a write ceiling beyond the current version is a configuration error"
    );
    let o = hookwire(&["--family", "turn-control", "schema"], b"");
    let schema: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(schema["$id"], format!("urn:hookwire:turn-control:v{current}"));
}

#[test]
fn diff_classifies_the_history() {
    let o = hookwire(
        &["diff", "--from-version", "1", "--to-version", "2", "--format", "json"],
        b"",
    );
    let changes: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rules: Vec<(&str, &str)> = changes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["rule"].as_str().unwrap(), c["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rules,
        vec![
            ("FIELD_OPTIONAL_TO_REQUIRED", "/payload"),
            ("FIELD_ADDED_OPTIONAL", "/caller/activityObserver")
        ]
    );
    let o = hookwire(
        &["diff", "--from-version", "4", "--to-version", "5", "--format", "json"],
        b"",
    );
    assert_eq!(stdout(&o), "[]\n");
    let o = hookwire(
        &["diff", "--from-version", "5", "--to-version", "6", "--format", "github"],
        b"",
    );
    assert!(
        stdout(&o).starts_with("::error file=src/families/session_inbox/v6.rs,line="),
        "{}",
        stdout(&o)
    );
    let o = hookwire(&["diff", "--from-version", "1", "--to-version", "9"], b"");
    assert_eq!(o.status.code(), Some(2));
}

/// `schema --answers` is the JSON Schema of every `--lines` answer (contract §13: the codes are
/// stable in it): every answer of every mode and family validates against it, refusals of the
/// value and of the transport alike, and something that is not an answer does not.
#[test]
fn every_answer_validates_against_the_answer_schema() {
    let o = hookwire(&["schema", "--answers"], b"");
    assert_eq!(o.status.code(), Some(0));
    let schema: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let codes = schema
        .pointer("/oneOf/1/properties/error/properties/code/enum")
        .unwrap()
        .as_array()
        .unwrap();
    for code in hookwire::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .chain(hookwire::Transport::ALL.iter().map(|t| t.as_str()))
    {
        assert!(codes.contains(&Value::from(code)), "{code} is not in the schema");
    }
    let input = [
        r#"{"kind":"clear","version":6}"#,
        r#"{"kind":"send","payload":{"message":"hi"}}"#,
        r#"{"kind":"clear","version":"1"}"#,
        r#"{"kind":"deliver","version":9}"#,
        r#"{"kind":"deliver","version":6,"payloads":["x"]}"#,
        r#"{"kind":"turn-result","action":{"kind":"reply"}}"#,
        r#"{"kind":"turn-delivery-accepted","version":1,"requestId":1}"#,
        r#"{"command":{"kind":"clear"},"target":{"version":3}}"#,
        r#"{"command":{"kind":"clear"},"target":{"version":99}}"#,
        r#"{"command":{"kind":"deliver","payloads":[]}}"#,
        r#"{"command":{"kind":"turn-error","error":1},"target":{"version":0}}"#,
        r#"{"capabilities":{"turnControlWireVersion":3}}"#,
        r#"{"capabilities":{"turnControlWireVersion":"3"}}"#,
        r#"{"command":{"kind":"clear"},"destination":{"token":"t"},"hooks":[{"token":"t","runId":"r","metadata":{"sessionInboxWireVersion":2}}]}"#,
        r#"{"command":{"kind":"clear"}}"#,
        r#"{"no":"command"}"#,
        "not json",
        "[1,2",
        &"[".repeat(200_000),
    ]
    .join("\n");
    let mut answers = 0;
    for family in ["session-inbox", "turn-control"] {
        for mode in ["decode", "encode", "negotiate"] {
            let o = hookwire(&["--family", family, mode, "--lines"], input.as_bytes());
            for line in lines(&o) {
                let errors: Vec<String> = validator.iter_errors(&line).map(|e| e.to_string()).collect();
                assert!(
                    errors.is_empty(),
                    "{family} {mode}: {line} does not validate: {errors:?}"
                );
                answers += 1;
            }
        }
    }
    assert_eq!(answers, 6 * 19, "one answer per line");
    for not_an_answer in [
        serde_json::json!({"ok": 1, "error": {"code": "INVALID", "message": "m"}}),
        serde_json::json!({"error": {"code": "NO_SUCH_CODE", "message": "m"}}),
        serde_json::json!({"error": {"code": "INVALID"}}),
        serde_json::json!({}),
    ] {
        assert!(!validator.is_valid(&not_an_answer), "{not_an_answer} validated");
    }
}

/// A producer that waits for each answer before it writes the next line gets it: every `--lines`
/// mode answers a line as soon as no more input is buffered, though a second thread reads and
/// parses the lines. (A mode that held its answer would leave this test waiting, so the waiting
/// is bounded and reported.)
#[test]
fn lines_modes_answer_each_line_before_the_next_arrives() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["decode", "--lines"],
            r#"{"kind":"clear"}"#,
            r#"{"ok":{"kind":"clear"}}"#,
        ),
        (
            &["encode", "--lines"],
            r#"{"command":{"kind":"clear"},"target":{"version":1}}"#,
            r#"{"ok":{"kind":"clear","version":1}}"#,
        ),
        (&["decode", "--lines"], "not json", r#"{"error":{"code":"INVALID_JSON""#),
    ];
    for (args, line, answer) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hookwire"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let reader = std::thread::spawn(move || loop {
            let mut answer = String::new();
            if output.read_line(&mut answer).unwrap() == 0 {
                break;
            }
            tx.send(answer).unwrap();
        });
        for round in 0..3 {
            writeln!(input, "{line}").unwrap();
            input.flush().unwrap();
            let got = rx
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("{args:?}: no answer to line {round} while the producer waits"));
            assert!(got.starts_with(answer), "{args:?}: {got}");
        }
        drop(input);
        reader.join().unwrap();
        assert!(child.wait().unwrap().success());
    }
    // A file that cannot be read as lines (a directory): an I/O error, exit 2, no answer.
    let o = hookwire(&["decode", "--lines", "/"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /"));
}
