//! Members in the order the specification declares them (`schema.ts`), not `schema.json`'s
//! alphabetical order: struct fields, and so constructor arguments, docs and encoding.
//! The expected orders below were read off each revision's `schema.ts` by hand (inherited
//! members first: `interface Tool extends BaseMetadata, Icons` → `name, title, icons, …`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_typed_codegen::ir::{Module, TypeKind, TypeRef};
use mcp_typed_codegen::load::ts::Order;
use mcp_typed_codegen::{Builder, source};

fn workspace() -> PathBuf {
    source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("inside the project")
}

fn model(rev: &str) -> Module {
    Builder::new()
        .revision(rev)
        .workspace(workspace())
        .model()
        .unwrap()
}

/// The JSON names of a struct's stored fields, in order.
fn fields(m: &Module, name: &str) -> Vec<String> {
    match &m.get(name).unwrap_or_else(|| panic!("no {name}")).kind {
        TypeKind::Struct(s) => s.fields.iter().map(|f| f.json_name.clone()).collect(),
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

/// `(revision, [(type, fields in order)])`.
type Expected<'a> = &'a [(&'a str, &'a [(&'a str, &'a [&'a str])])];

#[test]
fn fields_follow_schema_ts_in_every_revision() {
    let expected: Expected = &[
        (
            "2024-11-05",
            &[
                ("Tool", &["name", "description", "inputSchema"]),
                ("TextResourceContents", &["uri", "mimeType", "text"]),
                (
                    "InitializeRequestParams",
                    &["protocolVersion", "capabilities", "clientInfo"],
                ),
                (
                    "Resource",
                    &[
                        "annotations",
                        "uri",
                        "name",
                        "description",
                        "mimeType",
                        "size",
                    ],
                ),
                ("PromptMessage", &["role", "content"]),
                (
                    "ProgressNotificationParams",
                    &["progressToken", "progress", "total"],
                ),
                ("JsonRpcError", &["id", "error"]),
            ],
        ),
        (
            "2025-03-26",
            &[
                (
                    "Tool",
                    &["name", "description", "inputSchema", "annotations"],
                ),
                ("TextResourceContents", &["uri", "mimeType", "text"]),
                (
                    "InitializeResult",
                    &[
                        "_meta",
                        "protocolVersion",
                        "capabilities",
                        "serverInfo",
                        "instructions",
                    ],
                ),
                (
                    "Resource",
                    &[
                        "uri",
                        "name",
                        "description",
                        "mimeType",
                        "annotations",
                        "size",
                    ],
                ),
                (
                    "CreateMessageResult",
                    &["_meta", "role", "content", "model", "stopReason"],
                ),
                (
                    "ProgressNotificationParams",
                    &["progressToken", "progress", "total", "message"],
                ),
            ],
        ),
        (
            "2025-06-18",
            &[
                (
                    "Tool",
                    &[
                        "name",
                        "title",
                        "description",
                        "inputSchema",
                        "outputSchema",
                        "annotations",
                        "_meta",
                    ],
                ),
                (
                    "TextResourceContents",
                    &["uri", "mimeType", "_meta", "text"],
                ),
                (
                    "Resource",
                    &[
                        "name",
                        "title",
                        "uri",
                        "description",
                        "mimeType",
                        "annotations",
                        "size",
                        "_meta",
                    ],
                ),
                ("Implementation", &["name", "title", "version"]),
                ("CallToolRequestParams", &["name", "arguments"]),
                ("PromptMessage", &["role", "content"]),
            ],
        ),
        (
            "2025-11-25",
            &[
                (
                    "Tool",
                    &[
                        "name",
                        "title",
                        "icons",
                        "description",
                        "inputSchema",
                        "execution",
                        "outputSchema",
                        "annotations",
                        "_meta",
                    ],
                ),
                (
                    "InitializeRequestParams",
                    &["_meta", "protocolVersion", "capabilities", "clientInfo"],
                ),
                ("CallToolRequest", &["id", "params"]),
                (
                    "CallToolRequestParams",
                    &["_meta", "task", "name", "arguments"],
                ),
                (
                    "ElicitRequestUrlParams",
                    &["_meta", "task", "message", "elicitationId", "url"],
                ),
                (
                    "Task",
                    &[
                        "taskId",
                        "status",
                        "statusMessage",
                        "createdAt",
                        "lastUpdatedAt",
                        "ttl",
                        "pollInterval",
                    ],
                ),
                (
                    "Implementation",
                    &[
                        "name",
                        "title",
                        "icons",
                        "version",
                        "description",
                        "websiteUrl",
                    ],
                ),
            ],
        ),
        (
            "2026-07-28",
            &[
                (
                    "Tool",
                    &[
                        "name",
                        "title",
                        "icons",
                        "description",
                        "inputSchema",
                        "outputSchema",
                        "annotations",
                        "_meta",
                    ],
                ),
                (
                    "CreateMessageResult",
                    &["role", "content", "_meta", "model", "stopReason"],
                ),
                (
                    "ListToolsResult",
                    &[
                        "_meta",
                        "resultType",
                        "nextCursor",
                        "ttlMs",
                        "cacheScope",
                        "tools",
                    ],
                ),
                (
                    "CallToolRequestParams",
                    &[
                        "_meta",
                        "inputResponses",
                        "requestState",
                        "name",
                        "arguments",
                    ],
                ),
                (
                    "TextResourceContents",
                    &["uri", "mimeType", "_meta", "text"],
                ),
                (
                    "ProgressNotificationParams",
                    &["_meta", "progressToken", "progress", "total", "message"],
                ),
            ],
        ),
    ];
    for (rev, defs) in expected {
        let m = model(rev);
        for (name, want) in *defs {
            assert_eq!(fields(&m, name), *want, "{rev} {name}");
        }
    }
}

/// A short name for an argument's type, to find constructors with two arguments of one type.
fn type_key(ty: &TypeRef) -> String {
    format!("{ty:?}")
}

/// Constructor arguments are the required fields in field order. For every struct whose
/// `schema.ts` declares its members, they come in declaration order; and the constructors
/// whose arguments could be swapped without a compile error (two of one type) are counted.
#[test]
fn constructor_arguments_are_in_declaration_order() {
    let mut same_typed: BTreeMap<&str, usize> = BTreeMap::new();
    for rev in source::revisions() {
        let json = source::resolve(rev, None, &workspace()).unwrap();
        let ts = json.with_file_name("schema.ts");
        let order = Order::parse(&std::fs::read_to_string(&ts).unwrap(), "schema.ts").unwrap();
        let m = model(rev);
        let mut checked = 0;
        for t in &m.types {
            let TypeKind::Struct(s) = &t.kind else {
                continue;
            };
            let args: Vec<&str> = s
                .fields
                .iter()
                .filter(|f| f.required)
                .map(|f| f.json_name.as_str())
                .collect();
            let mut types: Vec<String> = s
                .fields
                .iter()
                .filter(|f| f.required)
                .map(|f| type_key(&f.ty))
                .collect();
            types.sort();
            if types.windows(2).any(|w| w[0] == w[1]) {
                *same_typed.entry(rev).or_default() += 1;
            }
            let Some(declared) = order.members_at(&t.pointer) else {
                continue;
            };
            let positions: Vec<usize> = args
                .iter()
                .filter_map(|a| declared.iter().position(|d| d == a))
                .collect();
            assert!(
                positions.windows(2).all(|w| w[0] < w[1]),
                "{rev} {}::new({args:?}) is not in the order {declared:?} of {}",
                t.name,
                t.pointer
            );
            checked += 1;
        }
        assert!(
            checked > 50,
            "{rev}: only {checked} structs had a declaration order"
        );
    }
    println!("constructors with two or more arguments of one type: {same_typed:?}");
}
