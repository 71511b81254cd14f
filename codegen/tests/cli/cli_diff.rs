//! `mcp-typed-codegen diff` and the library's `diff::diff`, on the official schemas found through
//! the project's resolver. Each expected change was checked by reading the two schema files;
//! the tests read them too, to show why.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use mcp_typed_codegen::diff::{self, ChangeKind, SchemaDiff};
use mcp_typed_codegen::load::SchemaDoc;
use mcp_typed_codegen::source;
use serde_json::{Value, json};

fn workspace() -> PathBuf {
    source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the workspace holds schema/manifest.json")
}

fn official(revision: &str) -> PathBuf {
    source::resolve(revision, None, &workspace()).unwrap()
}

fn raw(revision: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(official(revision)).unwrap()).unwrap()
}

fn doc(revision: &str) -> SchemaDoc {
    SchemaDoc::from_value(raw(revision)).unwrap()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
        .arg("diff")
        .args(args)
        .current_dir(workspace())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A definition of a raw schema, whatever the dialect.
fn def<'a>(schema: &'a Value, name: &str) -> &'a Value {
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .unwrap();
    &defs[name]
}

#[test]
fn from_2025_06_18_to_2025_11_25() {
    let (old, new) = (raw("2025-06-18"), raw("2025-11-25"));
    let o = run(&["2025-06-18", "2025-11-25"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let has = |l: &str| assert!(lines.contains(&l), "missing {l:?} in\n{out}");

    // A new definition.
    assert!(def(&old, "ElicitRequestURLParams").is_null());
    assert!(def(&new, "ElicitRequestURLParams").is_object());
    has("+ definition ElicitRequestURLParams");

    // The inline params object became a reference to a new definition.
    assert_eq!(
        def(&old, "ElicitRequest")["properties"]["params"]["type"],
        "object"
    );
    assert_eq!(
        def(&new, "ElicitRequest")["properties"]["params"]["$ref"],
        "#/$defs/ElicitRequestParams"
    );
    has("~ ElicitRequest.params: type object → ElicitRequestParams");

    // A required field that is a constant was added to every request.
    assert!(def(&old, "ElicitRequest")["properties"]["jsonrpc"].is_null());
    assert_eq!(
        def(&new, "ElicitRequest")["properties"]["jsonrpc"],
        json!({"const": "2.0", "type": "string"})
    );
    assert!(
        def(&new, "ElicitRequest")["required"]
            .as_array()
            .unwrap()
            .contains(&json!("jsonrpc"))
    );
    has(r#"~ ElicitRequest.jsonrpc: added (required), type string, const "2.0""#);

    // The map values of ElicitResult.content gained string arrays.
    assert_eq!(
        def(&old, "ElicitResult")["properties"]["content"]["additionalProperties"],
        json!({"type": ["string", "integer", "boolean"]})
    );
    has(
        "~ ElicitResult.content: type { [key: string]: string | integer | boolean } → { [key: string]: string[] | string | integer | boolean }",
    );

    // Union members added, named by definition.
    has(
        "~ CreateMessageResult.content: variants added ToolUseContent, ToolResultContent, SamplingMessageContentBlock[]",
    );
    // An optional field added.
    assert!(
        !def(&old, "Implementation")["required"]
            .as_array()
            .unwrap()
            .contains(&json!("icons"))
    );
    has("~ Implementation.icons: added (optional), type Icon[]");
    // A removed definition.
    has("- definition JSONRPCError");

    // The container was renamed (definitions → $defs) and every reference with it; that is
    // no change: CallToolResult differs only in `$ref` spelling and descriptions.
    assert!(old.get("definitions").is_some() && new.get("$defs").is_some());
    assert_ne!(def(&old, "CallToolResult"), def(&new, "CallToolResult"));
    assert!(!out.contains("CallToolResult."), "{out}");
    assert!(
        !out.contains("definitions") && !out.contains("$defs"),
        "{out}"
    );

    // Lines are sorted by definition name.
    let names: Vec<&str> = lines
        .iter()
        .map(|l| {
            let subject = l[2..].split(':').next().unwrap();
            let subject = subject.strip_prefix("definition ").unwrap_or(subject);
            subject.split(['.', '[']).next().unwrap()
        })
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);

    assert!(
        stderr(&o).starts_with("2025-06-18 (draft-07) → 2025-11-25 (2020-12): 55 definitions added, 1 removed, 53 changed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_issue_example_from_2025_11_25_to_2026_07_28() {
    let d = diff::diff(&doc("2025-11-25"), &doc("2026-07-28"));
    let text = d.to_string();
    assert!(def(&raw("2025-11-25"), "DiscoverRequest").is_null());
    assert!(text.contains("\n+ definition DiscoverRequest\n"), "{text}");
    let change = d
        .for_definition("CallToolResult")
        .find(|c| c.field.as_deref() == Some("resultType"))
        .unwrap();
    assert!(matches!(
        &change.kind,
        ChangeKind::FieldAdded { required: true, ty, .. } if ty == "string"
    ));
    assert_eq!(
        change.to_string(),
        "~ CallToolResult.resultType: added (required), type string"
    );
    // Required ↔ optional, checked against the files.
    let (old, new) = (raw("2025-11-25"), raw("2026-07-28"));
    let req = |s: &Value, d: &str, f: &str| {
        def(s, d)["required"]
            .as_array()
            .is_some_and(|r| r.contains(&json!(f)))
    };
    assert!(!req(&old, "CancelledNotificationParams", "requestId"));
    assert!(req(&new, "CancelledNotificationParams", "requestId"));
    assert!(
        text.contains("~ CancelledNotificationParams.requestId: optional → required\n"),
        "{text}"
    );
}

#[test]
fn a_revision_against_itself_is_empty() {
    for rev in source::revisions() {
        let o = run(&[rev, rev]);
        assert!(o.status.success(), "{rev}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{rev}");
        assert!(stderr(&o).contains("(0 changes)"), "{}", stderr(&o));
        assert!(diff::diff(&doc(rev), &doc(rev)).is_empty(), "{rev}");
    }
    // The same file under two names.
    assert!(run(&["2026-07-28", "draft"]).stdout.is_empty());
}

/// The same schema in the other dialect: no change at all.
#[test]
fn dialect_is_not_a_change() {
    fn to_2020_12(v: &mut Value) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get_mut("$ref") {
                    *r = r.replace("#/definitions/", "#/$defs/");
                }
                m.values_mut().for_each(to_2020_12);
            }
            Value::Array(a) => a.iter_mut().for_each(to_2020_12),
            _ => {}
        }
    }
    for rev in ["2024-11-05", "2025-06-18"] {
        let mut v = raw(rev);
        let defs = v.as_object_mut().unwrap().remove("definitions").unwrap();
        v["$defs"] = defs;
        v["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        to_2020_12(&mut v);
        let converted = SchemaDoc::from_value(v).unwrap();
        let d = diff::diff(&doc(rev), &converted);
        assert!(d.is_empty(), "{rev}:\n{d}");
    }
}

#[test]
fn every_pair_of_neighbours_is_consistent() {
    for pair in source::revisions().windows(2) {
        let (a, b) = (doc(pair[0]), doc(pair[1]));
        let forward = diff::diff(&a, &b);
        let back = diff::diff(&b, &a);
        let (f, r) = (forward.summary(), back.summary());
        assert_eq!(f.definitions_added, r.definitions_removed, "{pair:?}");
        assert_eq!(f.definitions_removed, r.definitions_added, "{pair:?}");
        assert_eq!(f.definitions_changed, r.definitions_changed, "{pair:?}");
        let added = a
            .definitions()
            .keys()
            .filter(|k| !b.definitions().contains_key(*k));
        assert_eq!(added.count(), f.definitions_removed, "{pair:?}");
    }
}

#[test]
fn json_output_is_the_structured_diff() {
    let o = run(&["--json", "2025-06-18", "2025-11-25"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let d: SchemaDiff = diff::diff(&doc("2025-06-18"), &doc("2025-11-25"));
    assert_eq!(v["from"], "2025-06-18");
    assert_eq!(v["to"], "2025-11-25");
    assert_eq!(v["changes"], serde_json::to_value(&d.changes).unwrap());
    assert_eq!(v["summary"]["changes"], d.changes.len());
    assert!(
        v["changes"].as_array().unwrap().contains(
            &json!({"definition": "ElicitRequestURLParams", "change": "definition_added"})
        )
    );
    assert_eq!(
        run(&["2025-06-18", "2025-11-25"]).stdout,
        d.to_string().into_bytes()
    );
}

#[test]
fn files_can_be_compared_too() {
    let path = official("2025-03-26");
    let o = run(&[path.to_str().unwrap(), "2025-03-26"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn errors_exit_2() {
    let o = run(&["2025-06-18", "1999-01-01"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("\"1999-01-01\" is neither a revision (2024-11-05"),
        "{}",
        stderr(&o)
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"$defs\": 1}").unwrap();
    let o = run(&[bad.to_str().unwrap(), "draft"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("#/$defs: must be an object"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&bad, "not json").unwrap();
    let o = run(&["draft", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.json: invalid JSON"),
        "{}",
        stderr(&o)
    );
    assert_eq!(run(&["draft"]).status.code(), Some(2));
}

#[test]
fn help_documents_the_format() {
    let o = Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
        .args(["diff", "--help"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    for s in [
        "+ definition NAME",
        "~ SUBJECT: CHANGE",
        "optional → required",
        "--json",
        "Exit status: 0",
    ] {
        assert!(help.contains(s), "{s}\n{help}");
    }
}

/// The status of a command whose stdout was closed before it wrote (128 + SIGPIPE).
const BROKEN_PIPE: i32 = 141;

/// Runs `mcp-typed-codegen ARGS` with stdout a pipe whose reader is gone before the program starts,
/// so that its first write fails (deterministically, unlike `| head`).
fn run_with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
        .args(args)
        .current_dir(workspace())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_ends_quietly_in_every_subcommand() {
    let out = tempfile::tempdir().unwrap();
    let out = out.path().to_str().unwrap();
    for args in [
        &["diff", "2025-06-18", "2025-11-25"][..],
        &["diff", "--json", "2024-11-05", "draft"],
        // A stale file to list: a cut-off check must not look successful.
        &[
            "generate",
            "--check",
            "--revision",
            "2025-06-18",
            "--out",
            out,
        ],
    ] {
        let o = run_with_closed_stdout(args);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert!(
            !err.lines().any(|l| l.starts_with("error:")),
            "{args:?}: {err}"
        );
        assert_eq!(o.status.code(), Some(BROKEN_PIPE), "{args:?}: {err}");
        if args[0] == "diff" {
            // Stopped at the first write: not even the summary that follows the output.
            assert_eq!(err, "", "{args:?}");
        }
    }
}

#[test]
fn head_1_reads_one_line_and_the_rest_is_dropped_quietly() {
    // `mcp-typed-codegen diff 2025-06-18 2025-11-25 | head -1`, with the program's stderr kept apart.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
        .args(["diff", "2025-06-18", "2025-11-25"])
        .current_dir(workspace())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped: the pipe is closed.
    assert!(
        first.starts_with("~ ") || first.starts_with("+ "),
        "{first:?}"
    );
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
    match o.status.code() {
        // Cut off while writing.
        Some(BROKEN_PIPE) => assert_eq!(err, ""),
        // Or everything fit in the pipe before it was closed.
        Some(0) => assert!(err.contains("2025-06-18 (draft-07) → 2025-11-25"), "{err}"),
        other => panic!("exit status {other:?}: {err}"),
    }
}

#[test]
fn structural_changes_the_conversions_refuse_are_named() {
    let o = run(&["2025-11-25", "2026-07-28"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let section = out
        .split("Structural changes (the conversions refuse these):")
        .nth(1)
        .unwrap_or_else(|| panic!("no structural section:\n{out}"));
    for needle in [
        "ClientRequest methods 2026-07-28 does not define",
        "`initialize`",
        "`tasks/get`",
        "ServerRequest methods",
        "`elicitation/create`",
    ] {
        assert!(section.contains(needle), "{needle} not in\n{section}");
    }
    // Neighbours that only add: no such section.
    let o = run(&["2025-03-26", "2025-06-18"]);
    assert!(!stdout(&o).contains("Structural changes"), "{}", stdout(&o));
}
