//! The doc text of every type and member: the schema's description turned into rustdoc
//! that passes `RUSTDOCFLAGS=-D warnings` and runs no doctest ([`sanitize`]), or, where the
//! schema has none, one written from where the node sits or what it holds.

use crate::ir::{Field, Module, TypeDef, TypeRef};
use crate::load::unescape_pointer;

/// Gives every type and field its final doc text (see the module docs). Runs once, after
/// lowering: the fallbacks read the schema's descriptions, not each other.
pub fn assign(module: &mut Module) {
    let types: Vec<String> = module.types.iter().map(type_text).collect();
    let fields: Vec<Vec<String>> = module
        .types
        .iter()
        .map(|t| match &t.kind {
            super::TypeKind::Struct(s) => s.fields.iter().map(|f| field_text(module, f)).collect(),
            _ => Vec::new(),
        })
        .collect();
    let types: Vec<String> = types.iter().map(|t| sanitize(t, module)).collect();
    let fields: Vec<Vec<String>> = fields
        .iter()
        .map(|fs| fs.iter().map(|f| sanitize(f, module)).collect())
        .collect();
    for ((t, doc), field_docs) in module.types.iter_mut().zip(types).zip(fields) {
        t.doc = Some(doc);
        if let super::TypeKind::Struct(s) = &mut t.kind {
            for (f, doc) in s.fields.iter_mut().zip(field_docs) {
                f.doc = Some(doc);
            }
        }
    }
}

/// A type's description, or where it sits.
fn type_text(t: &TypeDef) -> String {
    match &t.doc {
        Some(d) => d.clone(),
        None => fallback_type_doc(t),
    }
}

/// A field's description, or what it holds; and for a member that may also be `null`, how
/// the field reads it.
fn field_text(module: &Module, f: &Field) -> String {
    let mut text = match &f.doc {
        Some(d) => d.clone(),
        None => fallback_field_doc(module, f),
    };
    if f.null_is_absent {
        text.push_str(&format!(
            "\n\n`None` when the member is absent or `null`; `None` is written as absent \
             (`{}` is optional in this revision).",
            f.json_name
        ));
    }
    text
}

/// A doc for a type the schema does not describe: where it sits (`The \`params\` of
/// {@link CallToolRequest}.`), or, for a definition, that it is one.
fn fallback_type_doc(t: &TypeDef) -> String {
    let mut steps = t.pointer.split('/').skip(2);
    let Some(def) = steps.next() else {
        return format!("The `{}` type.", t.name);
    };
    let def = unescape_pointer(def);
    let mut path: Vec<String> = Vec::new();
    let mut steps = steps.peekable();
    while let Some(step) = steps.next() {
        match step {
            "properties" => {
                if let Some(p) = steps.next() {
                    path.push(unescape_pointer(p));
                }
            }
            "items" => path.push("[]".into()),
            "additionalProperties" => path.push("{}".into()),
            _ => {
                // `anyOf/0`…: one shape of the member.
                steps.next_if(|s| s.chars().all(|c| c.is_ascii_digit()));
            }
        }
    }
    if path.is_empty() {
        return format!("The schema's `{def}` definition.");
    }
    let member = path.join(".").replace(".[]", "[]").replace(".{}", "{}");
    format!("The `{member}` member of {{@link {def}}}.")
}

/// A doc for a member the schema does not describe: the summary of the type it holds
/// (`params: CallToolRequestParams` → "Parameters for a `tools/call` request."), else what
/// it is on the wire.
fn fallback_field_doc(module: &Module, f: &Field) -> String {
    let mut ty = &f.ty;
    while let TypeRef::Array(inner) | TypeRef::Nullable(inner) | TypeRef::Map(inner) = ty {
        ty = inner;
    }
    let summary = match ty {
        TypeRef::Named(n) => module
            .get(n)
            .and_then(|t| t.doc.as_deref())
            .map(first_sentence),
        _ => None,
    };
    match summary {
        Some(s) if matches!(f.ty, TypeRef::Array(_)) => format!("`{}`: {s}", f.json_name),
        Some(s) => s,
        None => format!("The `{}` member.", f.json_name),
    }
}

/// The first sentence of a description (up to a `.` that ends a sentence, or its first
/// paragraph).
fn first_sentence(text: &str) -> String {
    let para = text.split("\n\n").next().unwrap_or(text);
    let flat = para.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.find(". ") {
        Some(i) => flat[..=i].to_owned(),
        None => flat,
    }
}

/// Turns a schema description into doc-comment text.
///
/// - `{@link Name}` becomes an intra-doc link to the generated type when there is one
///   (`` [`Name`] ``), otherwise inline code;
/// - bare URLs become autolinks (`<https://…>`);
/// - `[`, `]`, `<`, `>` outside inline code are escaped, so no text is read as a broken link
///   or an unclosed HTML tag;
/// - indentation is capped below four spaces and fences are marked `text`, so no text
///   becomes a doctest.
pub fn sanitize(text: &str, module: &Module) -> String {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            out.push(if in_fence {
                "```".to_owned()
            } else {
                "```text".to_owned()
            });
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push(line.to_owned());
            continue;
        }
        let indent = (line.len() - trimmed.len()).min(3);
        out.push(format!("{}{}", " ".repeat(indent), inline(trimmed, module)));
    }
    if in_fence {
        out.push("```".to_owned());
    }
    out.join("\n")
}

/// Processes one line outside fences.
fn inline(line: &str, module: &Module) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`') {
            // Inline code is copied as is, up to the closing backtick.
            match after.find('`') {
                Some(end) => {
                    out.push('`');
                    out.push_str(&after[..=end]);
                    rest = &after[end + 1..];
                }
                None => {
                    out.push_str("\\`");
                    rest = after;
                }
            }
            continue;
        }
        if let Some(after) = rest.strip_prefix("{@link")
            && let Some(end) = after.find('}')
        {
            out.push_str(&link(after[..end].trim(), module));
            rest = &after[end + 1..];
            continue;
        }
        if rest.starts_with("https://") || rest.starts_with("http://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '`' | ')' | ']'))
                .unwrap_or(rest.len());
            let mut url = &rest[..end];
            // Sentence punctuation after a URL is not part of it.
            while url.ends_with(['.', ',', ';', ':']) {
                url = &url[..url.len() - 1];
            }
            out.push('<');
            out.push_str(url);
            out.push('>');
            rest = &rest[url.len()..];
            continue;
        }
        if let Some((text, target, len)) = markdown_link(rest) {
            // `[General fields](/specification/…)`: the site's own links are relative.
            let url = if target.starts_with('/') {
                format!("{SPEC_SITE}{target}")
            } else {
                target.to_owned()
            };
            out.push('[');
            out.push_str(&inline(text, module));
            out.push_str("](");
            out.push_str(&url);
            out.push(')');
            rest = &rest[len..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '[' | ']' | '<' | '>' | '*' | '_' | '\\' | '|' | '#' if needs_escape(c, &out) => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Where the specification's relative links (`/specification/2025-11-25/basic#meta`) point.
pub const SPEC_SITE: &str = "https://modelcontextprotocol.io";

/// A Markdown link `[text](target)` at the start of `s`, whose target is a site path
/// (`/…`) or an http(s) URL: its text, target and length.
fn markdown_link(s: &str) -> Option<(&str, &str, usize)> {
    let inner = s.strip_prefix('[')?;
    let close = inner.find(']')?;
    let text = &inner[..close];
    if text.is_empty() || text.contains(['[', '\n']) {
        return None;
    }
    let after = inner[close + 1..].strip_prefix('(')?;
    let end = after.find(')')?;
    let target = &after[..end];
    let ok = (target.starts_with('/')
        || target.starts_with("https://")
        || target.starts_with("http://"))
        && !target.contains(char::is_whitespace);
    ok.then_some((text, target, 1 + close + 2 + end + 1))
}

fn needs_escape(c: char, before: &str) -> bool {
    match c {
        '[' | ']' | '<' | '>' | '\\' => true,
        // A leading `#` would start a heading.
        '#' => before.trim().is_empty(),
        // Emphasis markers are left alone: the schema uses them as Markdown.
        _ => false,
    }
}

/// `{@link Target}` or `{@link Target | text}`.
fn link(content: &str, module: &Module) -> String {
    let (target, text) = match content.split_once(['|', ' ']) {
        Some((t, x)) => (t.trim(), x.trim()),
        None => (content, ""),
    };
    // The schema's renderer sometimes glues the text to the target
    // (`CallToolRequesttools/call`): take the longest prefix that names a type.
    let mut best: Option<(&str, &str)> = None;
    for (i, _) in target.char_indices().skip(1).chain([(target.len(), ' ')]) {
        let head = &target[..i];
        if let Some(name) = rust_name(head, module) {
            best = Some((name, &target[i..]));
        }
    }
    match best {
        Some((name, tail)) => {
            let tail = format!("{tail} {text}").replace('`', "");
            let tail = tail.trim();
            if tail.is_empty() {
                format!("[`{name}`]")
            } else if tail.starts_with('.') {
                // A member path: `Tool.outputSchema`.
                format!("[`{name}`]`{tail}`")
            } else {
                format!("[`{name}`] (`{tail}`)")
            }
        }
        None => {
            let all = format!("{target} {text}");
            format!("`{}`", all.trim().replace('`', ""))
        }
    }
}

fn rust_name<'m>(schema_name: &str, module: &'m Module) -> Option<&'m str> {
    module
        .by_schema(schema_name)
        .map(|t| t.name.as_str())
        .or_else(|| module.get(schema_name).map(|t| t.name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::TypeKind;

    fn module() -> Module {
        let t = TypeDef {
            name: "CallToolRequest".into(),
            schema_name: Some("CallToolRequest".into()),
            pointer: "#/$defs/CallToolRequest".into(),
            doc: None,
            kind: TypeKind::Alias(TypeRef::Any),
            role: Default::default(),
            walk: Default::default(),
        };
        Module::new(vec![t])
    }

    #[test]
    fn links_urls_brackets_and_indentation() {
        let m = module();
        assert_eq!(
            sanitize("See {@link CallToolRequest}.", &m),
            "See [`CallToolRequest`]."
        );
        assert_eq!(
            sanitize(
                "The result of a {@link CallToolRequesttools/call} request.",
                &m
            ),
            "The result of a [`CallToolRequest`] (`tools/call`) request."
        );
        assert_eq!(sanitize("{@link Nope}", &m), "`Nope`");
        assert_eq!(
            sanitize("{@link CallToolRequest.params}", &m),
            "[`CallToolRequest`]`.params`"
        );
        assert_eq!(
            sanitize("{@link CallToolRequest`_meta` rules}", &m),
            "[`CallToolRequest`] (`_meta rules`)"
        );
        assert_eq!(
            sanitize("Docs at https://example.com/x. Done", &m),
            "Docs at <https://example.com/x>. Done"
        );
        assert_eq!(
            sanitize("a [b] <c> `[\"x\"]`", &m),
            "a \\[b\\] \\<c\\> `[\"x\"]`"
        );
        assert_eq!(sanitize("x\n\n      indented", &m), "x\n\n   indented");
        assert_eq!(sanitize("```\nlet x;\n```", &m), "```text\nlet x;\n```");
        assert_eq!(sanitize("# not a heading", &m), "\\# not a heading");
        assert_eq!(
            sanitize(
                "See [General fields: `_meta`](/specification/2025-11-25/basic/index#meta) for notes.",
                &m
            ),
            "See [General fields: `_meta`](https://modelcontextprotocol.io/specification/2025-11-25/basic/index#meta) for notes."
        );
        assert_eq!(
            sanitize(
                "[RFC](https://example.com/r) and [not a link] (x) and [x](relative)",
                &m
            ),
            "[RFC](https://example.com/r) and \\[not a link\\] (x) and \\[x\\](relative)"
        );
    }
}
