//! Rust names for schema names: types, fields, variants.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

use super::{Module, TypeRef};

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

/// UpperCamelCase of any text (property names, enum values), acronyms fixed. Always an
/// identifier: empty text gives `Value`, a leading digit a `V` prefix, and `self` (which would
/// be the keyword `Self`) gives `SelfValue`.
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
    } else if name == "Self" {
        // The one keyword in UpperCamelCase, and no identifier may be it, raw or not.
        "SelfValue".to_owned()
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

/// The name of the successful-response type the generator adds beside the schema's
/// (`ResultResponse`: a response whose `result` is not decoded yet).
pub const RESULT_RESPONSE: &str = "ResultResponse";

/// The name of the message type the generator adds for what a client sends.
pub const CLIENT_MESSAGE: &str = "ClientMessage";

/// The name of the message type the generator adds for what a server sends.
pub const SERVER_MESSAGE: &str = "ServerMessage";

/// The name of the associated constant holding a property's fixed value: `method` →
/// `METHOD`, `type` → `TYPE`.
pub fn const_name(json_name: &str) -> String {
    field_name(json_name)
        .trim_start_matches("r#")
        .to_shouty_snake_case()
}

/// The name of the module constant for the error code of definition `owner`: the definition's
/// name without its trailing `Error` words, in capitals (`URLElicitationRequiredError` →
/// `URL_ELICITATION_REQUIRED`); empty when nothing is left.
pub fn error_code_name(owner: &str) -> String {
    let mut stem = owner;
    while let Some(s) = stem.strip_suffix("Error") {
        stem = s;
    }
    stem.to_shouty_snake_case()
}

/// The words of a name but its last, which says what kind of thing it is
/// (`CallToolRequest` → `[Call, Tool]`, `CallToolReq` → `[Call, Tool]`): how a request and
/// its result are paired, as the schema has no other link between them.
pub fn stem(name: &str) -> Vec<&str> {
    let mut words = words(name);
    words.pop();
    words
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

/// The variant names of a union whose members are `members` (nested unions already
/// flattened into it), decided here and nowhere else. A named member gets
/// [`variant_name`] (from its schema name and the union's name only, so that it keeps its
/// name in every revision); a plain member is named for its kind (`String`, `Integer`,
/// [`variant_base_name`]). Members whose names would collide keep their whole type names;
/// any collision left is numbered ([`dedupe`]).
pub fn union_variant_names(module: &Module, union: &str, members: &[TypeRef]) -> Vec<String> {
    // Named members lend their schema name (`Result`, not `McpResult`), so that a prefix
    // added against the prelude does not end up as a variant name.
    let whole: Vec<&str> = members
        .iter()
        .map(|t| match t {
            TypeRef::Named(n) => n.as_str(),
            _ => "",
        })
        .collect();
    let mut chosen: Vec<String> = members
        .iter()
        .zip(&whole)
        .map(|(t, w)| match t {
            TypeRef::Named(n) => {
                let schema = module
                    .get(n)
                    .and_then(|d| d.schema_name.as_deref())
                    .map(camel)
                    .unwrap_or_else(|| n.clone());
                variant_name(union, &schema, w)
            }
            other => variant_base_name(other),
        })
        .collect();
    let colliding: Vec<usize> = (0..chosen.len())
        .filter(|&i| (0..chosen.len()).any(|j| j != i && chosen[j] == chosen[i]))
        .collect();
    for i in colliding {
        if !whole[i].is_empty() {
            chosen[i] = whole[i].to_owned();
        }
    }
    dedupe(chosen)
}

/// The name of the catch-all variant added to a union (`Custom`, `Other`), numbered if a
/// member already has it.
pub fn catch_all_name(variants: &[super::Variant], base: &str) -> String {
    dedupe(
        variants
            .iter()
            .map(|v| v.rust_name.clone())
            .chain([base.to_owned()]),
    )
    .pop()
    .unwrap_or_else(|| base.to_owned())
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
        assert_eq!(camel("self"), "SelfValue");
        assert_eq!(type_name("Self"), "SelfValue");
        assert_eq!(camel("myself"), "Myself");
        assert_eq!(camel("self_test"), "SelfTest");
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
}
