//! Adding a revision is what README's "Adding a revision" says: `fetch --add`, `generate`,
//! a feature line in each crate with revision features. Proven on a copy of the project with a synthetic revision `2099-01-01`
//! (2026-07-28's schema plus one member), then a program that uses the new revision's types,
//! its `ProtocolVersion`, its elicitation marker, the conversions from 2026-07-28 and a form
//! whose field `#[derive(Elicit)]` adds in it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mcp_typed_codegen::source;

fn workspace() -> PathBuf {
    source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("inside the project")
}

/// Copies `from` into `to`, following symlinks (the crates' `CHANGELOG.md`), leaving out
/// build output.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_name() == "target" {
            continue;
        }
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_new_revision_is_fetch_add_generate_and_a_feature_line_per_crate() {
    let real = workspace();
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("project");

    // The project, as far as the types crate needs it.
    for dir in [
        "generated",
        "mcp-typed",
        "macros",
        "rules",
        "runtime",
        "schema",
    ] {
        copy_tree(&real.join(dir), &ws.join(dir));
    }
    for file in ["Cargo.lock", "CHANGELOG.md"] {
        std::fs::copy(real.join(file), ws.join(file)).unwrap();
    }
    let root_toml = std::fs::read_to_string(real.join("Cargo.toml")).unwrap();
    let members_line = root_toml
        .lines()
        .find(|l| l.starts_with("members = "))
        .unwrap();
    let root_toml = root_toml.replace(
        members_line,
        r#"members = ["generated", "mcp-typed", "macros", "rules", "runtime", "user"]"#,
    );
    std::fs::write(ws.join("Cargo.toml"), root_toml).unwrap();

    // The official schemas, and the synthetic revision's: 2026-07-28's with one more member.
    let spec = tmp.path().join("spec");
    std::fs::create_dir_all(&spec).unwrap();
    for rev in source::revisions() {
        let file = source::resolve(rev, None, &real).unwrap();
        std::fs::create_dir_all(spec.join(rev)).unwrap();
        std::fs::copy(&file, spec.join(rev).join("schema.json")).unwrap();
        let ts = file.with_file_name("schema.ts");
        std::fs::copy(&ts, spec.join(rev).join("schema.ts")).unwrap();
    }
    let incoming = tmp.path().join("incoming");
    let mut schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(spec.join("2026-07-28/schema.json")).unwrap(),
    )
    .unwrap();
    schema["$defs"]["Implementation"]["properties"]["vendorNote"] = serde_json::json!({
        "type": "string",
        "description": "A member only the synthetic revision has."
    });
    std::fs::create_dir_all(incoming.join("2099-01-01")).unwrap();
    std::fs::write(
        incoming.join("2099-01-01/schema.json"),
        serde_json::to_string_pretty(&schema).unwrap(),
    )
    .unwrap();
    let ts = std::fs::read_to_string(spec.join("2026-07-28/schema.ts")).unwrap();
    std::fs::write(incoming.join("2099-01-01/schema.ts"), ts).unwrap();

    let cli = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
            .args(args)
            .current_dir(&ws)
            .env("MCP_SCHEMA_DIR", &spec)
            .output()
            .unwrap()
    };

    // 1. fetch --add: the manifest gains the revision, in date order, before the draft.
    let o = cli(&[
        "fetch",
        "--add",
        "2099-01-01",
        "--from",
        incoming.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("add `v2099_01_01 = []` under [features] in generated/Cargo.toml and `v2099_01_01 = [\"mcp-typed-types/v2099_01_01\"]` in mcp-typed/Cargo.toml"),
        "{}",
        text(&o)
    );
    let manifest = std::fs::read_to_string(ws.join("schema/manifest.json")).unwrap();
    let new_at = manifest.find("\"2099-01-01\": {").unwrap();
    assert!(manifest.find("\"2026-07-28\": {").unwrap() < new_at);
    assert!(new_at < manifest.find("\"draft\": {").unwrap());

    // 2. generate: the new module, and everything that lists revisions.
    let o = cli(&["generate"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("draft: the same code as 2026-07-28"),
        "{}",
        text(&o)
    );
    let revisions = ws.join("generated/src");
    let module = std::fs::read_to_string(revisions.join("v2099_01_01.rs")).unwrap();
    assert!(module.starts_with("// @generated by mcp-typed-codegen"));
    // Its members in the order its schema.ts declares them, pinned by `fetch --add` too.
    assert!(module.contains("// Member order: as declared in its schema.ts"));
    assert!(manifest.contains("/schema/2099-01-01/schema.ts"));
    assert!(
        module.contains("    pub fn new(\n        name: impl Into<String>,\n        input_schema: impl Into<ToolInputSchema>,\n    ) -> Self {"),
        "Tool::new(name, input_schema), as declared"
    );
    assert!(module.contains("pub vendor_note: Option<String>"));
    // `ProtocolVersion`, in the rules crate the derive reads revisions from.
    let rules = std::fs::read_to_string(ws.join("rules/src/revisions.rs")).unwrap();
    assert!(rules.starts_with("// @generated by mcp-typed-codegen"));
    assert!(rules.contains("    V2099_01_01,\n"), "{rules}");
    let o = cli(&["generate", "--check"]);
    assert!(o.status.success(), "{}", text(&o));

    // 3. One feature line in each crate: the types, and mcp-typed that re-exports them.
    let add_feature = |crate_toml: &Path, after: &str, line: &str| {
        let toml = std::fs::read_to_string(crate_toml).unwrap();
        assert!(toml.contains(after), "{}: {after}", crate_toml.display());
        std::fs::write(
            crate_toml,
            toml.replacen(after, &format!("{after}{line}"), 1),
        )
        .unwrap();
    };
    add_feature(
        &ws.join("generated/Cargo.toml"),
        "v2026_07_28 = []\n",
        "v2099_01_01 = []\n",
    );
    add_feature(
        &ws.join("mcp-typed/Cargo.toml"),
        "v2026_07_28 = [\"mcp-typed-types/v2026_07_28\"]\n",
        "v2099_01_01 = [\"mcp-typed-types/v2099_01_01\"]\n",
    );

    // A program on the new revision.
    let user = ws.join("user");
    std::fs::create_dir_all(user.join("src")).unwrap();
    std::fs::write(
        user.join("Cargo.toml"),
        r#"[package]
name = "user"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = { path = "../mcp-typed", default-features = false, features = ["v2026_07_28", "v2099_01_01", "draft", "elicit"] }
serde_json = "1"
"#,
    )
    .unwrap();
    std::fs::write(
        user.join("src/main.rs"),
        r#"use mcp_typed::elicit::revision::Revision;
use mcp_typed::{Elicit, ProtocolVersion, v2026_07_28 as old, v2099_01_01 as new};

/// A form with a field from the new revision on: the derive knows the revision.
#[derive(Elicit)]
#[allow(dead_code)]
struct Feedback {
    #[elicit(since = "2099-01-01")]
    note: Option<String>,
}

fn main() {
    // The registry: a variant, its wire string and feature; the newest release is `latest`.
    let v: ProtocolVersion = "2099-01-01".parse().unwrap();
    assert_eq!(v, ProtocolVersion::V2099_01_01);
    assert_eq!((v.as_str(), v.feature()), ("2099-01-01", "v2099_01_01"));
    assert_eq!(ProtocolVersion::latest(), v);
    assert!(ProtocolVersion::ALL.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(ProtocolVersion::ALL.last(), Some(&ProtocolVersion::Draft));
    let _: mcp_typed::latest::Implementation = new::Implementation::new("a", "1");

    // The new revision's types, with the member only it has.
    let info = new::Implementation::new("srv", "1").with_vendor_note("synthetic");
    let json = serde_json::to_value(&info).unwrap();
    assert_eq!(json["vendorNote"], "synthetic");

    // Conversions from the previous revision were generated: up is lossless, down refuses
    // to drop the new member.
    let older = old::Implementation::new("srv", "1");
    let up: new::Implementation = older.into();
    assert_eq!(up.vendor_note, None);
    let e = old::Implementation::try_from(info).unwrap_err();
    assert_eq!(e.pointer, "/vendorNote");

    // Elicitation knows the revision.
    assert_eq!(<mcp_typed::elicit::revision::V2099_01_01 as Revision>::VERSION, v);
    let properties = |version| {
        let schema = Feedback::requested_schema().to_value(version).unwrap();
        schema["properties"].as_object().unwrap().len()
    };
    assert_eq!((properties(ProtocolVersion::V2026_07_28), properties(v)), (0, 1));

    // The draft is still 2026-07-28's types.
    let _: mcp_typed::draft::Implementation = old::Implementation::new("a", "1");
    println!("synthetic revision 2099-01-01 ok");
}
"#,
    )
    .unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let o = Command::new(cargo)
        .args(["run", "--quiet", "--offline", "-p", "user"])
        .current_dir(&ws)
        // Built beside the project's own output, so a second run is incremental.
        .env("CARGO_TARGET_DIR", real.join("target").join("new-revision"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("synthetic revision 2099-01-01 ok"),
        "{}",
        text(&o)
    );
}

/// A revision whose definitions are named otherwise than today's: 2025-11-25's schema with
/// `CallToolRequest` called `CallToolReq`, its params `ToolCallArgs` and `TextContent`
/// `TextBlock` (every `$ref` to them updated). What a type is for — a request, its method,
/// params and result, the tool call, the text block — comes from the schema's structure (the
/// unions a type is a member of, its `method` and `type` constants), so the messages, the
/// `RequestMethod` impl and the tool shorthands are generated as for the official names.
#[test]
fn a_renamed_request_still_gets_its_messages_and_request_method() {
    let real = workspace();
    let file = source::resolve("2025-11-25", None, &real).unwrap();
    let mut text = std::fs::read_to_string(file).unwrap();
    for (old, new) in [
        ("CallToolRequestParams", "ToolCallArgs"),
        ("CallToolRequest", "CallToolReq"),
        ("TextContent", "TextBlock"),
    ] {
        text = text
            .replace(&format!("\"{old}\": {{"), &format!("\"{new}\": {{"))
            .replace(&format!("\"#/$defs/{old}\""), &format!("\"#/$defs/{new}\""));
    }
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    for (gone, there) in [
        ("CallToolRequest", "CallToolReq"),
        ("CallToolRequestParams", "ToolCallArgs"),
        ("TextContent", "TextBlock"),
    ] {
        assert!(
            !defs.contains_key(gone) && defs.contains_key(there),
            "{there}"
        );
    }
    let code = mcp_typed_codegen::Builder::new()
        .schema_json(text)
        .generate()
        .unwrap()
        .code()
        .to_owned();
    // Compared without whitespace: the layout is prettyplease's business.
    let flat: String = code.split_whitespace().collect();
    let has = |needle: &str| {
        let needle: String = needle.split_whitespace().collect();
        assert!(
            flat.contains(&needle),
            "no {needle:?} in the generated code"
        );
    };
    // The request: its method, params and result at the type level.
    has("impl __rt::RequestMethod for CallToolReq {
         const METHOD: &'static str = \"tools/call\";
         type Params = ToolCallArgs;
         type Result = CallToolResult;");
    // In the registry of methods and results.
    let methods = code
        .split("pub const REQUEST_METHODS: &[&str] = &[")
        .nth(1)
        .and_then(|rest| rest.split("];").next())
        .expect("REQUEST_METHODS");
    assert!(methods.contains("\"tools/call\""), "{methods}");
    has("\"tools/call\" => Some(visitor.visit::<CallToolResult>(\"CallToolResult\")),");
    // In the client's message: its request union picks it by method.
    has("ClientRequest::CallToolReq(_) => \"tools/call\",");
    has("<super::CallToolReq as pull::DecodeObject>::decode_object(");
    has(".map(super::ClientRequest::CallToolReq)");
    // The tool shorthands, on the renamed params and the renamed text block.
    has("impl ToolCallArgs { /// The tool's `arguments` decoded as `T`");
    has("content: vec![TextBlock::new(text).into()],");
    has("ContentBlock::TextBlock(t) => Some(t.text.as_str()),");
}
