//! Writes `$OUT_DIR/constructed.rs` for `tests/tests/messages/constructors.rs`: for every
//! struct of every revision, an expression that builds it with `Type::new(…)` alone (nested
//! required members built the same way, optional ones absent), read off the generator's own
//! model of the schema. The test then checks what each constructor encodes.
//!
//! Also writes `$OUT_DIR/tool_bindings.rs` for `tests/tests/tools/tool_bindings.rs`: the typed
//! bindings `mcp_typed_codegen::ToolsBuilder` generates for every tool list captured in
//! `tests/fixtures/tool-lists/` (one module per server), and per server a table that
//! round-trips a tool's arguments through its generated type.

use std::fmt::Write as _;
use std::path::Path;

use mcp_typed_codegen::ir::{Module, TypeKind, TypeRef};

fn main() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut out = String::from("&[\n");
    for &revision in mcp_typed_codegen::source::revisions() {
        let path = mcp_typed_codegen::source::resolve(revision, None, workspace)
            .unwrap_or_else(|e| panic!("{e}"));
        println!("cargo:rerun-if-changed={}", path.display());
        let module = mcp_typed_codegen::Builder::new()
            .schema_path(&path)
            .model()
            .unwrap_or_else(|e| panic!("{e}"));
        let m = format!(
            "mcp_typed::{}",
            mcp_typed_codegen::source::module_name(revision)
        );
        for t in &module.types {
            let TypeKind::Struct(_) = &t.kind else {
                continue;
            };
            // Every struct can be built from constructors alone: a required member that
            // cannot would be a constructor no one can call.
            let expr = build(&module, &m, &TypeRef::Named(t.name.clone()), 0)
                .unwrap_or_else(|| panic!("{revision} {}: not buildable with new()", t.name));
            let def = match &t.schema_name {
                Some(d) => format!("Some({d:?})"),
                None => "None".to_owned(),
            };
            writeln!(
                out,
                "    Constructed {{ revision: {revision:?}, rust_name: {:?}, definition: {def}, json: || serde_json::to_value({expr}).unwrap(), decodes: |v| serde_json::from_value::<{m}::{}>(v.clone()).map(|t| serde_json::to_value(t).unwrap()).map_err(|e| e.to_string()) }},",
                t.name, t.name
            )
            .unwrap();
        }
    }
    out.push(']');
    println!("cargo:rerun-if-changed=../schema/errata.json");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("constructed.rs");
    std::fs::write(dest, out).unwrap();
    tool_bindings(workspace);
}

/// The captured servers, by fixture file stem.
const TOOL_LISTS: [&str; 8] = [
    "server-everything",
    "python-sdk",
    "server-filesystem",
    "server-memory",
    "server-github",
    "server-sequential-thinking",
    "python-pydantic",
    // Written by hand: schemas typify cannot take, 2020-12 `$defs`, names that collide.
    "odd-schemas",
];

/// `pub mod <server> { bindings… }` per captured tool list, with
/// `pub const ARGS: &[(&str, RoundTrip)]`: per tool, JSON → its arguments type → JSON.
fn tool_bindings(workspace: &Path) {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut all = String::new();
    for server in TOOL_LISTS {
        let path = workspace
            .join("tests/fixtures/tool-lists")
            .join(format!("{server}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let module = server.replace('-', "_");
        let generated = mcp_typed_codegen::ToolsBuilder::new()
            .tool_list_path(&path)
            .module_name(&module)
            .generate()
            .unwrap_or_else(|e| panic!("{e}"));
        // odd-schemas warns by design, and a real server's loosened member is expected
        // (server-github's `sort`): tool_bindings.rs checks those; anything else is news.
        if server != "odd-schemas" {
            for w in generated
                .warnings()
                .iter()
                .filter(|w| w.loosened_to.is_none())
            {
                println!("cargo:warning={w}");
            }
        }
        let file = format!("tools_{module}.rs");
        generated.write_to(out_dir.join(&file)).unwrap();
        writeln!(all, "include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));").unwrap();
        writeln!(all, "pub mod {module}_args {{\n    use super::RoundTrip;\n    pub const ARGS: &[(&str, RoundTrip)] = &[").unwrap();
        for t in generated.tools() {
            writeln!(
                all,
                "        ({:?}, |v| super::round_trip::<super::{module}::{}::{}>(v)),",
                t.name, t.module, t.args_type
            )
            .unwrap();
        }
        writeln!(all, "    ];\n}}").unwrap();
    }
    // The helpers of the other revisions with structuredContent, compiled too.
    for revision in ["2025-06-18", "2026-07-28", "draft"] {
        let module = format!(
            "server_everything_{}",
            mcp_typed_codegen::source::module_name(revision)
        );
        let file = format!("tools_{module}.rs");
        mcp_typed_codegen::ToolsBuilder::new()
            .tool_list_path(workspace.join("tests/fixtures/tool-lists/server-everything.json"))
            .revision(revision)
            .module_name(&module)
            .generate()
            .unwrap_or_else(|e| panic!("{e}"))
            .write_to(out_dir.join(&file))
            .unwrap();
        writeln!(all, "include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));").unwrap();
    }
    std::fs::write(out_dir.join("tool_bindings.rs"), all).unwrap();
}

/// An expression of type `ty` made from constructors; `None` past a nesting limit.
fn build(module: &Module, m: &str, ty: &TypeRef, depth: usize) -> Option<String> {
    if depth > 8 {
        return None;
    }
    Some(match ty {
        TypeRef::String => "\"s\"".to_owned(),
        TypeRef::Integer { .. } => "0".to_owned(),
        TypeRef::Number => "1".to_owned(),
        TypeRef::Boolean => "false".to_owned(),
        TypeRef::Any => "serde_json::Value::Null".to_owned(),
        TypeRef::Object => "serde_json::Map::new()".to_owned(),
        TypeRef::Array(_) => "vec![]".to_owned(),
        TypeRef::Map(_) => "Default::default()".to_owned(),
        TypeRef::Nullable(_) => "None".to_owned(),
        TypeRef::Named(n) => {
            let def = module.get(n)?;
            match &def.kind {
                TypeKind::Alias(target) => build(module, m, target, depth + 1)?,
                TypeKind::StringEnum(_) => format!("{m}::{n}::ALL[0]"),
                TypeKind::Struct(s) => {
                    let args: Option<Vec<String>> = s
                        .fields
                        .iter()
                        .filter(|f| f.required)
                        .map(|f| build(module, m, &f.ty, depth + 1))
                        .collect();
                    format!("{m}::{n}::new({})", args?.join(", "))
                }
                TypeKind::Union(u) => {
                    // The first member that is not a catch-all, built the same way.
                    let v = u.variants.iter().find(|v| v.ty != TypeRef::Object)?;
                    let inner = build(module, m, &v.ty, depth + 1)?;
                    let inner = match &v.ty {
                        TypeRef::String => "\"s\".to_owned()".to_owned(),
                        TypeRef::Number => "serde_json::Number::from(1)".to_owned(),
                        _ => inner,
                    };
                    format!("{m}::{n}::{}({inner})", v.rust_name)
                }
            }
        }
    })
}
