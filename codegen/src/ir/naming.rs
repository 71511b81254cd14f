//! Rust names for schema names: types, fields, variants.

use heck::{ToSnakeCase, ToUpperCamelCase};

use super::TypeRef;

/// Acronyms the schema spells in capitals, with their Rust spelling. Longest first, so that
/// `JSONRPC` wins over `JSON`.
const ACRONYMS: &[(&str, &str)] = &[
    ("JSONRPC", "JsonRpc"),
    ("JSON", "Json"),
    ("URL", "Url"),
    ("URI", "Uri"),
    ("HTTP", "Http"),
    ("MCP", "Mcp"),
    ("ID", "Id"),
];

/// Names a glob import of a generated module must not shadow: the std prelude's types,
/// traits and variants.
pub const PRELUDE: &[&str] = &[
    "Box",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "Err",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "Into",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
    "AsMut",
    "AsRef",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "FromIterator",
    "Hash",
    "Debug",
    // Not the prelude, but names generated code uses unqualified.
    "Map",
    "Number",
    "Value",
    "IndexMap",
];

/// Rust keywords that need a raw identifier when used as a field name.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
];

/// Identifiers that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// UpperCamelCase name of a schema definition: `JSONRPCMessage` → `JsonRpcMessage`,
/// `ElicitRequestURLParams` → `ElicitRequestUrlParams`. A name the prelude has gets the
/// `Mcp` prefix (`Result` → `McpResult`).
pub fn type_name(schema_name: &str) -> String {
    let name = camel(schema_name);
    if PRELUDE.contains(&name.as_str()) {
        format!("Mcp{name}")
    } else {
        name
    }
}

/// UpperCamelCase of any text (property names, enum values), acronyms fixed.
pub fn camel(text: &str) -> String {
    let mut fixed = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for (acronym, spelled) in ACRONYMS {
            if let Some(after) = rest.strip_prefix(acronym) {
                // Only a whole word: the acronym must not run into more capitals that start
                // a different word in lower case (`IDs` is fine, `IDentity` is not ours).
                let next = after.chars().next();
                if next.is_none_or(|c| !c.is_ascii_lowercase() || after.starts_with('s')) {
                    // Keep word boundaries for heck: a separator before a following capital.
                    fixed.push('_');
                    fixed.push_str(spelled);
                    fixed.push('_');
                    rest = after;
                    continue 'outer;
                }
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        fixed.push(c);
        rest = &rest[c.len_utf8()..];
    }
    let name = fixed
        // Identifiers are kept ASCII: `²` is alphanumeric but not an identifier character.
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            // Words produced from acronyms are already spelled; others go through heck.
            if ACRONYMS.iter().any(|(_, s)| *s == w) {
                w.to_owned()
            } else {
                w.to_upper_camel_case()
            }
        })
        .collect::<String>();
    if name.is_empty() {
        "Value".to_owned()
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else {
        name
    }
}

/// snake_case field name for a JSON property: `_meta` → `meta`, `io.modelcontextprotocol/
/// clientInfo` → `client_info`, `type` → `r#type`.
pub fn field_name(json_name: &str) -> String {
    let base = json_name.rsplit('/').next().unwrap_or(json_name);
    let mut name = base
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .to_snake_case();
    if name.is_empty() {
        name = "field".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("f_{name}");
    }
    raw_if_keyword(&name)
}

/// The identifier as Rust source: `r#type` for keywords.
pub fn raw_if_keyword(name: &str) -> String {
    if NOT_RAW.contains(&name) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// Names from `candidates` made unique in order: the second `x` becomes `x2`, and so on.
pub fn dedupe(candidates: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in candidates {
        let mut name = c.clone();
        let mut n = 2;
        while out.contains(&name) {
            name = format!("{c}{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

/// Splits an UpperCamelCase name into words: `ListToolsRequest` → `[List, Tools, Request]`.
pub fn words(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in name.char_indices().skip(1) {
        if c.is_ascii_uppercase() {
            out.push(&name[start..i]);
            start = i;
        }
    }
    out.push(&name[start..]);
    out
}

/// Variant names for union members: each member's name with the longest word suffix common
/// to all of them removed (`InitializeRequest`, `PingRequest` → `Initialize`, `Ping`). A
/// member whose name would be emptied (`Result` among `…Result`s) keeps its name from
/// `whole` (`McpResult`); when names would collide, nothing is removed.
pub fn variant_names_with(names: &[String], whole: &[String]) -> Vec<String> {
    let stripped = variant_names(names);
    if stripped == names {
        // Nothing was removed: maybe because one name would be emptied. Retry without it.
        let keep: Vec<usize> = (0..names.len())
            .filter(|&i| words(&names[i]).len() > 1)
            .collect();
        if keep.len() >= 2 && keep.len() + 1 == names.len() {
            let sub: Vec<String> = keep.iter().map(|&i| names[i].clone()).collect();
            let sub_stripped = variant_names(&sub);
            let lone = (0..names.len()).find(|i| !keep.contains(i)).unwrap_or(0);
            // Only when the lone name is exactly the common suffix (`Result`).
            let common = &sub[0][sub_stripped[0].len()..];
            if sub_stripped != sub && names[lone] == common {
                let mut out: Vec<String> = Vec::with_capacity(names.len());
                let mut it = sub_stripped.into_iter();
                for (i, name) in names.iter().enumerate() {
                    if i == lone {
                        out.push(whole.get(i).cloned().unwrap_or_else(|| name.clone()));
                    } else {
                        out.push(it.next().unwrap_or_default());
                    }
                }
                return dedupe(out);
            }
        }
        // A schema name that is a prelude name (`Result`) becomes the type's Rust name
        // (`McpResult`); kind names (`String`) have no type name and stay.
        return dedupe(
            names
                .iter()
                .zip(
                    whole
                        .iter()
                        .map(String::as_str)
                        .chain(std::iter::repeat("")),
                )
                .map(|(n, w)| {
                    if PRELUDE.contains(&n.as_str()) && !w.is_empty() {
                        w.to_owned()
                    } else {
                        n.clone()
                    }
                }),
        );
    }
    stripped
}

/// Trailing words that say what kind of thing a union member is, and which its variant name
/// leaves out: `TextContent` → `Text`, `InitializeRequest` → `Initialize`,
/// `TextResourceContents` → `Text`. Longest first.
const ROLE_SUFFIXES: &[&[&str]] = &[
    &["Resource", "Contents"],
    &["Request"],
    &["Notification"],
    &["Result"],
    &["Response"],
    &["Content"],
    &["Schema"],
    &["Reference"],
    &["Params"],
];

/// The variant name of a union member, from the member's own name and the union's name
/// only, so that a member keeps its name in every union of every revision that has it,
/// whatever its siblings are. The words the member's name shares at its start with the
/// union's name go (`JsonRpcMessage`'s `JsonRpcRequest` → `Request`, `ElicitRequestParams`'s
/// `ElicitRequestUrlParams` → `UrlParams`), then one role suffix (`ROLE_SUFFIXES`:
/// `UrlParams` → `Url`, `TextContent` → `Text`); neither step may leave nothing. A member
/// whose name loses nothing is named as its Rust type (`Result` → `McpResult`).
pub fn variant_name(union: &str, member: &str, member_type: &str) -> String {
    let u = words(union);
    let m = words(member);
    let shared = u.iter().zip(&m).take_while(|(a, b)| a == b).count();
    let mut rest: &[&str] = if shared < m.len() { &m[shared..] } else { &m };
    for suffix in ROLE_SUFFIXES {
        if rest.len() > suffix.len() && rest.ends_with(suffix) {
            rest = &rest[..rest.len() - suffix.len()];
            break;
        }
    }
    if rest.len() == m.len() && !member_type.is_empty() {
        // Nothing taken away: the member's own Rust name (`Result` is `McpResult`).
        member_type.to_owned()
    } else {
        rest.concat()
    }
}

/// The name a member lends its union variant.
pub fn variant_base_name(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(n) => n.clone(),
        TypeRef::String => "String".into(),
        TypeRef::Integer { .. } => "Integer".into(),
        TypeRef::Number => "Number".into(),
        TypeRef::Boolean => "Boolean".into(),
        TypeRef::Any => "Value".into(),
        TypeRef::Object => "Object".into(),
        TypeRef::Array(_) => "Array".into(),
        TypeRef::Map(_) => "Map".into(),
        TypeRef::Nullable(inner) => variant_base_name(inner),
    }
}

/// [`variant_names_with`] where the names are already Rust names.
pub fn variant_names(names: &[String]) -> Vec<String> {
    if names.len() < 2 {
        return dedupe(names.iter().cloned());
    }
    let split: Vec<Vec<&str>> = names.iter().map(|n| words(n)).collect();
    let mut common = 0;
    'grow: loop {
        let next = common + 1;
        let mut word: Option<&str> = None;
        for w in &split {
            if w.len() <= next {
                break 'grow;
            }
            let candidate = w[w.len() - next];
            match word {
                None => word = Some(candidate),
                Some(x) if x == candidate => {}
                Some(_) => break 'grow,
            }
        }
        common = next;
    }
    let stripped: Vec<String> = split
        .iter()
        .map(|w| w[..w.len() - common].concat())
        .collect();
    let unique = {
        let mut s = stripped.clone();
        s.sort();
        s.dedup();
        s.len() == stripped.len()
    };
    if common > 0 && unique && stripped.iter().all(|s| !s.is_empty()) {
        stripped
    } else {
        dedupe(names.iter().cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_depend_on_the_member_and_the_union_only() {
        let v = |u, m, t| variant_name(u, m, t);
        assert_eq!(v("ContentBlock", "TextContent", "TextContent"), "Text");
        assert_eq!(
            v("SamplingMessageContent", "TextContent", "TextContent"),
            "Text"
        );
        assert_eq!(
            v("ContentBlock", "ResourceLink", "ResourceLink"),
            "ResourceLink"
        );
        assert_eq!(
            v("ContentBlock", "EmbeddedResource", "EmbeddedResource"),
            "EmbeddedResource"
        );
        assert_eq!(
            v("ClientRequest", "InitializeRequest", "InitializeRequest"),
            "Initialize"
        );
        assert_eq!(v("ServerResult", "Result", "McpResult"), "McpResult");
        assert_eq!(
            v("JsonRpcMessage", "JsonRpcRequest", "JsonRpcRequest"),
            "Request"
        );
        assert_eq!(
            v(
                "JsonRpcMessage",
                "JsonRpcResultResponse",
                "JsonRpcResultResponse"
            ),
            "Result"
        );
        assert_eq!(
            v(
                "JsonRpcResponse",
                "JsonRpcErrorResponse",
                "JsonRpcErrorResponse"
            ),
            "Error"
        );
        assert_eq!(
            v(
                "ElicitRequestParams",
                "ElicitRequestUrlParams",
                "ElicitRequestUrlParams"
            ),
            "Url"
        );
        assert_eq!(
            v(
                "EmbeddedResourceResource",
                "TextResourceContents",
                "TextResourceContents"
            ),
            "Text"
        );
        assert_eq!(
            v(
                "EnumSchema",
                "UntitledSingleSelectEnumSchema",
                "UntitledSingleSelectEnumSchema"
            ),
            v(
                "PrimitiveSchemaDefinition",
                "UntitledSingleSelectEnumSchema",
                "UntitledSingleSelectEnumSchema"
            ),
        );
        assert_eq!(
            v("PrimitiveSchemaDefinition", "StringSchema", "StringSchema"),
            "String"
        );
        assert_eq!(
            v(
                "CallToolResultResponseResult",
                "CallToolResult",
                "CallToolResult"
            ),
            "CallTool"
        );
        assert_eq!(v("JsonValue", "JsonObject", "JsonObject"), "Object");
    }

    #[test]
    fn type_names_fix_acronyms_and_avoid_the_prelude() {
        assert_eq!(type_name("JSONRPCMessage"), "JsonRpcMessage");
        assert_eq!(type_name("JSONRPCErrorResponse"), "JsonRpcErrorResponse");
        assert_eq!(
            type_name("ElicitRequestURLParams"),
            "ElicitRequestUrlParams"
        );
        assert_eq!(
            type_name("URLElicitationRequiredError"),
            "UrlElicitationRequiredError"
        );
        assert_eq!(type_name("JSONValue"), "JsonValue");
        assert_eq!(type_name("Result"), "McpResult");
        assert_eq!(type_name("Tool"), "Tool");
        assert_eq!(type_name("ToolUseContent"), "ToolUseContent");
        assert_eq!(camel("tool_result"), "ToolResult");
        assert_eq!(camel("date-time"), "DateTime");
        assert_eq!(camel("2.0"), "V20");
        assert_eq!(camel("x²y"), "XY");
        assert_eq!(camel("²"), "Value");
        assert_eq!(field_name("ü²"), "field");
    }

    #[test]
    fn field_names_are_snake_case_and_keywords_are_raw() {
        assert_eq!(field_name("_meta"), "meta");
        assert_eq!(field_name("mimeType"), "mime_type");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("ref"), "r#ref");
        assert_eq!(field_name("$schema"), "schema");
        assert_eq!(
            field_name("io.modelcontextprotocol/clientInfo"),
            "client_info"
        );
        assert_eq!(field_name("ttlMs"), "ttl_ms");
    }

    #[test]
    fn variant_names_strip_common_suffix() {
        let v = |xs: &[&str]| variant_names(&xs.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            v(&["InitializeRequest", "PingRequest"]),
            ["Initialize", "Ping"]
        );
        assert_eq!(
            v(&[
                "StringSchema",
                "NumberSchema",
                "TitledMultiSelectEnumSchema"
            ]),
            ["String", "Number", "TitledMultiSelectEnum"]
        );
        // `McpResult` minus `Result` would be `Mcp`: still unique and non-empty, fine; but a
        // bare `Result` member would be emptied, so nothing is stripped.
        assert_eq!(v(&["Request", "PingRequest"]), ["Request", "PingRequest"]);
        assert_eq!(
            v(&["TextContent", "ResourceLink"]),
            ["TextContent", "ResourceLink"]
        );
        assert_eq!(v(&["A", "A"]), ["A", "A2"]);
        let w = |xs: &[&str], ws: &[&str]| {
            variant_names_with(
                &xs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                &ws.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            w(
                &["Result", "InitializeResult", "CallToolResult"],
                &["McpResult", "InitializeResult", "CallToolResult"]
            ),
            ["McpResult", "Initialize", "CallTool"]
        );
        assert_eq!(
            w(&["Result", "Ping"], &["McpResult", "Ping"]),
            ["McpResult", "Ping"]
        );
        assert_eq!(
            w(&["Array", "String", "Integer"], &["", "", ""]),
            ["Array", "String", "Integer"]
        );
    }
}
