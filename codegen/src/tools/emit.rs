//! Tool list → one Rust module: per tool, typify's types for its `inputSchema` and
//! `outputSchema` in a module of its own, and the helpers that build the `tools/call` request
//! and read the result's `structuredContent`.

use std::cell::Cell;
use std::collections::{BTreeMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Map, Value};
use typify::{TypeSpace, TypeSpaceSettings};

use super::load::ToolDef;
use super::{ToolBinding, Warning};

/// The first MCP revision whose `CallToolResult` has `structuredContent`, which the helpers
/// read.
const FIRST_REVISION: &str = "2025-06-18";

/// The MCP revisions the helpers can use: those of the [registry](crate::registry) from the
/// first with `structuredContent` on.
pub fn revisions() -> Vec<&'static str> {
    crate::registry::Registry::builtin()
        .since(FIRST_REVISION)
        .map(|r| r.name.as_str())
        .collect()
}

/// What [`emit`] needs besides the tools.
pub struct EmitConfig<'a> {
    /// The revision whose `CallToolRequestParams`/`CallToolResult` the helpers use.
    pub revision: &'a str,
    /// The path of the mcp-typed crate (`::mcp_typed`).
    pub mcp_typed: syn::Path,
}

/// The emitted items, a summary of each tool, and the warnings about fallbacks.
pub struct Emitted {
    pub tokens: TokenStream,
    pub tools: Vec<ToolBinding>,
    pub warnings: Vec<Warning>,
    pub crates: Vec<&'static str>,
}

/// Generates the bindings of `tools`.
pub fn emit(tools: &[ToolDef], config: &EmitConfig<'_>, origin: &str) -> Emitted {
    let names = rust_names(tools);
    let mut items = Vec::new();
    let mut bindings = Vec::new();
    let mut warnings = Vec::new();
    let mut crates: Vec<&'static str> = vec!["serde", "serde_json"];
    let mut reexports = Vec::new();
    let mut shared_error = None;
    for (tool, (base, module)) in tools.iter().zip(&names) {
        let args_name = format!("{base}Args");
        let output_name = format!("{base}Output");
        let pointer = |key: &str| format!("{origin}#{}/{key}", tool.pointer);

        // The schemas typify will see; a schema that cannot be prepared falls back.
        let mut input = match prepare(&tool.input_schema, &args_name, &doc_for(tool, "arguments")) {
            Ok(s) if is_object_schema(&s) => Some(s),
            Ok(_) => {
                warnings.push(Warning::new(
                    tool,
                    pointer("inputSchema"),
                    "not an object schema (MCP requires `\"type\": \"object\"`)",
                ));
                None
            }
            Err(e) => {
                warnings.push(Warning::new(tool, pointer("inputSchema"), e));
                None
            }
        };
        let mut output = match &tool.output_schema {
            None => None,
            Some(schema) => match prepare(schema, &output_name, &doc_for(tool, "output")) {
                Ok(s) => Some(s),
                Err(e) => {
                    warnings.push(Warning::new(tool, pointer("outputSchema"), e));
                    None
                }
            },
        };
        if let (Some(i), Some(o)) = (&input, &mut output) {
            separate_definitions(i, o);
        }
        // Each schema alone first, so that a failure is blamed on the right one, then both in
        // one type space (they share its `error` module).
        // A schema typify refuses is loosened where the fault is (one member), so the rest of
        // the tool stays typed; only a fault at its root costs the whole schema.
        for (slot, key) in [(&mut input, "inputSchema"), (&mut output, "outputSchema")] {
            if let Some(schema) = slot.as_ref()
                && let Err(e) = typify(Some(schema), None)
            {
                match localize(schema) {
                    Some((fixed, loosened)) => {
                        for l in loosened {
                            warnings.push(Warning::member(
                                tool,
                                format!("{}{}", pointer(key), l.pointer),
                                l.error,
                                l.as_type,
                            ));
                        }
                        *slot = Some(fixed);
                    }
                    None => {
                        warnings.push(Warning::new(tool, pointer(key), e));
                        *slot = None;
                    }
                }
            }
        }
        let types = match typify(input.as_ref(), output.as_ref()) {
            Ok(t) => t,
            Err(e) => {
                warnings.push(Warning::new(tool, pointer("outputSchema"), e));
                output = None;
                typify(input.as_ref(), None).unwrap_or_default()
            }
        };
        let has_output = tool.output_schema.is_some();
        let loosened: Vec<String> = warnings
            .iter()
            .filter(|w| w.tool == tool.name && w.loosened_to.is_some())
            .map(|w| w.pointer.clone())
            .collect();
        let binding = ToolBinding {
            loosened,
            name: tool.name.clone(),
            module: module.clone(),
            args_type: args_name.clone(),
            output_type: has_output.then(|| output_name.clone()),
            typed_args: input.is_some(),
            typed_output: output.is_some(),
        };

        let args_ident = format_ident!("{args_name}");
        let output_ident = format_ident!("{output_name}");
        for krate in types.crates {
            if !crates.contains(&krate) {
                crates.push(krate);
            }
        }
        let mut body = types.tokens;
        // Written once beside the tool modules, and brought in where typify's code names it.
        if let Some(m) = types.error_module
            && body.to_string().contains("self :: error ::")
        {
            shared_error.get_or_insert(m);
            body.extend(quote! { use super::conversion_error as error; });
        }
        if input.is_none() {
            let doc = fallback_doc(tool, "inputSchema", "arguments", "a JSON object");
            body.extend(quote! {
                #[doc = #doc]
                #[derive(Clone, Debug, Default, PartialEq, ::serde::Deserialize, ::serde::Serialize)]
                #[serde(transparent)]
                pub struct #args_ident(pub ::serde_json::Map<::std::string::String, ::serde_json::Value>);
            });
        }
        if has_output && output.is_none() {
            let doc = fallback_doc(tool, "outputSchema", "structured output", "any JSON value");
            body.extend(quote! {
                #[doc = #doc]
                #[derive(Clone, Debug, PartialEq, ::serde::Deserialize, ::serde::Serialize)]
                #[serde(transparent)]
                pub struct #output_ident(pub ::serde_json::Value);
            });
        }
        body.extend(helpers(
            tool,
            config,
            &args_ident,
            has_output.then_some(&output_ident),
        ));

        let module_ident = format_ident!("{module}");
        let module_doc = module_doc(tool);
        let module_doc = module_doc.lines().map(|l| format!(" {l}"));
        let name = &tool.name;
        items.push(quote! {
            #(#[doc = #module_doc])*
            // A program uses the tools it calls, and of those the helpers it needs: what is
            // left unused is expected, not a warning.
            #[allow(dead_code)]
            pub mod #module_ident {
                /// The tool's name, as the server lists it.
                pub const NAME: &str = #name;
                #body
            }
        });
        // A binary that uses some of the tools must not warn about the others.
        reexports.push(if has_output {
            quote! {
                #[allow(unused_imports)]
                pub use #module_ident::{#args_ident, #output_ident};
            }
        } else {
            quote! {
                #[allow(unused_imports)]
                pub use #module_ident::#args_ident;
            }
        });
        bindings.push(binding);
    }
    let names = tools.iter().map(|t| &t.name);
    let shared_error = shared_error.map(|m| {
        let mut m: syn::ItemMod = syn::parse2(m).expect("typify's error module parsed before");
        m.ident = format_ident!("conversion_error");
        quote! { #m }
    });
    let tokens = quote! {
        /// The names of the tools these bindings cover, in the server's order.
        #[allow(dead_code)]
        pub const TOOLS: &[&str] = &[#(#names),*];
        #(#reexports)*
        #(#items)*
        #shared_error
    };
    Emitted {
        tokens,
        tools: bindings,
        warnings,
        crates,
    }
}

/// A member of a schema typify refused, and what it became.
#[derive(Debug, Clone, PartialEq)]
struct Loosened {
    /// JSON Pointer from the schema's root (`/properties/sort`).
    pointer: String,
    /// typify's message for the schema with that member as it was.
    error: String,
    /// `String` or `serde_json::Value`.
    as_type: &'static str,
}

/// Finds the smallest members whose loosening makes typify take `schema`: each property
/// alone first (descending into object and array members to blame the innermost one), then
/// as many as it takes, in order. `None` when the root itself is at fault.
fn localize(schema: &Value) -> Option<(Value, Vec<Loosened>)> {
    let ok = |s: &Value| typify(Some(s), None).is_ok();
    let mut current = schema.clone();
    let mut loosened = Vec::new();
    // Bounded: each round loosens one more member, and a schema has finitely many.
    for _ in 0..64 {
        let Err(error) = typify(Some(&current), None) else {
            return (!loosened.is_empty()).then_some((current, loosened));
        };
        let members = member_pointers(&current, "", 0);
        // The innermost member whose loosening alone fixes it; else the first whose loosening
        // changes the error (progress towards a schema typify takes); else give up.
        let fixing = members.iter().rev().find(|p| ok(&loosen_at(&current, p).0));
        let chosen = match fixing {
            Some(p) => p.clone(),
            None => members
                .iter()
                .find(|p| {
                    typify(Some(&loosen_at(&current, p).0), None).err() != Some(error.clone())
                })?
                .clone(),
        };
        let error = error.trim_start_matches("typify: ").to_owned();
        let (mut next, as_type) = loosen_at(&current, &chosen);
        // Say so where a user reads it: the member's doc.
        if let Some(Value::Object(member)) = next.pointer_mut(&chosen) {
            let note = format!("Not typed ({as_type}): {error}.");
            let doc = match member.get("description").and_then(Value::as_str) {
                Some(d) => format!("{d}\n\n{note}"),
                None => note,
            };
            member.insert("description".into(), Value::String(doc));
        }
        loosened.push(Loosened {
            pointer: chosen,
            error,
            as_type,
        });
        current = next;
    }
    None
}

/// The pointers of every member below `schema`'s `properties` and `items`, outer ones first
/// (definitions are reached through the members that use them).
fn member_pointers(schema: &Value, at: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    if depth > 16 {
        return out;
    }
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (k, v) in props {
            let p = format!("{at}/properties/{}", crate::load::escape_pointer(k));
            out.push(p.clone());
            out.extend(member_pointers(v, &p, depth + 1));
        }
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        let p = format!("{at}/items");
        out.push(p.clone());
        out.extend(member_pointers(items, &p, depth + 1));
    }
    out
}

/// `schema` with the member at `pointer` loosened: a string member (an enum whose values
/// typify cannot name apart, a pattern it cannot compile…) to a plain string that still lists
/// its allowed values in its description; anything else to any JSON value.
fn loosen_at(schema: &Value, pointer: &str) -> (Value, &'static str) {
    let mut out = schema.clone();
    let Some(member) = out.pointer_mut(pointer) else {
        return (out, "serde_json::Value");
    };
    let old = member.take();
    let mut description = old
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if let Some(Value::Array(values)) = old.get("enum") {
        let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str(&format!("One of: {}.", list.join(", ")));
    }
    let is_string = old.get("type").and_then(Value::as_str) == Some("string")
        || old
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|v| !v.is_empty() && v.iter().all(Value::is_string));
    let mut new = Map::new();
    if is_string {
        new.insert("type".into(), Value::String("string".into()));
    }
    if !description.is_empty() {
        new.insert("description".into(), Value::String(description));
    }
    *member = Value::Object(new);
    (
        out,
        if is_string {
            "String"
        } else {
            "serde_json::Value"
        },
    )
}

fn settings() -> TypeSpaceSettings {
    let mut s = TypeSpaceSettings::default();
    s.with_struct_builder(false);
    s
}

/// Runs typify on the prepared schemas; its code, or why it could not take them.
fn typify(input: Option<&Value>, output: Option<&Value>) -> Result<Typified, String> {
    let roots = [input, output]
        .into_iter()
        .flatten()
        .map(|s| {
            serde_json::from_value::<schemars08::schema::RootSchema>(s.clone())
                .map_err(|e| format!("not a JSON Schema typify reads: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if roots.is_empty() {
        return Ok(Typified::default());
    }
    catch(move || {
        let mut space = TypeSpace::new(&settings());
        for root in roots {
            space
                .add_root_schema(root)
                .map_err(|e| format!("typify: {e}"))?;
        }
        let mut crates = Vec::new();
        for (uses, krate) in [
            (space.uses_regress(), "regress"),
            (space.uses_chrono(), "chrono"),
            (space.uses_uuid(), "uuid"),
        ] {
            if uses {
                crates.push(krate);
            }
        }
        let (tokens, error_module) = tidy(space.to_stream());
        Ok(Typified {
            tokens,
            error_module,
            crates,
        })
    })
    .and_then(|r| r)
}

/// Tidies typify's code for one tool: its `error` module (the same `ConversionError` for every
/// tool) is taken out, to be written once beside the tool modules; and its `defaults` module,
/// which holds every helper (`default_i64`…) whether a default uses it or not, gets
/// `#[allow(dead_code)]` so that the bindings are warning-free.
fn tidy(tokens: TokenStream) -> (TokenStream, Option<TokenStream>) {
    let Ok(mut file) = syn::parse2::<syn::File>(tokens.clone()) else {
        return (tokens, None);
    };
    let mut error = None;
    file.items.retain_mut(|item| match item {
        syn::Item::Mod(m) if m.ident == "error" => {
            error = Some(quote! { #m });
            false
        }
        syn::Item::Mod(m) if m.ident == "defaults" => {
            m.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
            true
        }
        _ => true,
    });
    (quote! { #file }, error)
}

/// typify's code for one tool, and the optional crates it names (`regress` for `pattern`,
/// `chrono` for `date`/`date-time` formats, `uuid` for `uuid`).
#[derive(Default)]
struct Typified {
    tokens: TokenStream,
    /// typify's `error` module, which its code reaches as `self::error`.
    error_module: Option<TokenStream>,
    crates: Vec<&'static str>,
}

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic into its message. typify panics (`todo!`, `unimplemented!`) on
/// some schemas it does not support; such a tool falls back rather than failing the run. The
/// message goes into the warning instead of being printed (and without its location, a path
/// on this machine, since the warning goes into the generated header); panics elsewhere, or
/// on other threads, still reach the hook that was installed before.
fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = CAPTURING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|c| c.set(was));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panicked".to_owned());
        format!(
            "typify cannot take this schema: {}",
            message.replace('\n', " ")
        )
    })
}

/// A copy of `schema` for typify: 2020-12 `$defs` moved to draft-07 `definitions` (typify
/// resolves `$ref`s by their last segment), `$schema`/`$id` dropped, the root titled with the
/// Rust name (typify names a root type by its title) and described for rustdoc.
fn prepare(schema: &Value, rust_name: &str, doc: &str) -> Result<Value, String> {
    let Value::Object(_) = schema else {
        return Err(format!("{schema} is not an object schema"));
    };
    let mut schema = definitions_moved(schema);
    let o = schema.as_object_mut().expect("checked above");
    let description = match o.get("description").and_then(Value::as_str) {
        Some(d) => format!("{doc}\n\n{d}"),
        None => doc.to_owned(),
    };
    o.insert("title".into(), Value::String(rust_name.to_owned()));
    o.insert("description".into(), Value::String(description));
    Ok(schema)
}

fn definitions_moved(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(o) = &mut schema {
        o.remove("$schema");
        o.remove("$id");
        if let Some(Value::Object(defs)) = o.remove("$defs") {
            let target = o
                .entry("definitions")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(t) = target {
                for (k, v) in defs {
                    t.entry(k).or_insert(v);
                }
            }
        }
    }
    schema
}

/// Whether a root schema describes a JSON object (`"type": "object"`, or no `type` with
/// `properties`), as `arguments` must be.
fn is_object_schema(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => schema.get("properties").is_some(),
    }
}

/// Renames the output schema's definitions that share a name with a different definition of
/// the input schema (`Item` → `ItemOutput`), rewriting its `$ref`s: both live in one type
/// space, where a name means one type.
fn separate_definitions(input: &Value, output: &mut Value) {
    let input_defs = input.get("definitions").and_then(Value::as_object);
    let Some(Value::Object(output_defs)) = output.get("definitions").cloned() else {
        return;
    };
    let mut renames = BTreeMap::new();
    for (k, v) in &output_defs {
        if input_defs.and_then(|d| d.get(k)).is_some_and(|d| d != v) {
            let mut new = format!("{k}Output");
            while output_defs.contains_key(&new) || input_defs.is_some_and(|d| d.contains_key(&new))
            {
                new.push('_');
            }
            renames.insert(k.clone(), new);
        }
    }
    if renames.is_empty() {
        return;
    }
    rewrite_refs(output, &renames);
    if let Some(Value::Object(defs)) = output.get_mut("definitions") {
        let old = std::mem::take(defs);
        *defs = old
            .into_iter()
            .map(|(k, v)| (renames.get(&k).cloned().unwrap_or(k), v))
            .collect();
    }
}

fn rewrite_refs(v: &mut Value, renames: &BTreeMap<String, String>) {
    match v {
        Value::Object(o) => {
            for (k, child) in o.iter_mut() {
                if k == "$ref"
                    && let Value::String(r) = child
                    && let Some((prefix, last)) = r.rsplit_once('/')
                    && let Some(new) = renames.get(last)
                {
                    *r = format!("{prefix}/{new}");
                } else {
                    rewrite_refs(child, renames);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|c| rewrite_refs(c, renames)),
        _ => {}
    }
}

/// Per tool, its Rust base name (`get-sum` → `GetSum`) and module (`get_sum`), unique across
/// the list: a name that two tools share gets `2`, `3`… in list order.
pub fn rust_names(tools: &[ToolDef]) -> Vec<(String, String)> {
    // `conversion_error` is the module of typify's shared error type.
    let mut taken: HashSet<String> = HashSet::from(["conversion_error".to_owned()]);
    tools
        .iter()
        .map(|t| {
            let ascii: String = t
                .name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let mut base = ascii.to_upper_camel_case();
            if base.is_empty() {
                base = "Tool".to_owned();
            } else if base.starts_with(|c: char| c.is_ascii_digit()) {
                base.insert_str(0, "Tool");
            }
            let mut unique = base.clone();
            let mut n = 1;
            while !taken.insert(unique.to_snake_case()) {
                n += 1;
                unique = format!("{base}{n}");
            }
            let mut module = unique.to_snake_case();
            if syn::parse_str::<syn::Ident>(&module).is_err() || module == "self" {
                // A keyword (`type`, `move`…).
                module.push_str("_tool");
            }
            (unique, module)
        })
        .collect()
}

fn doc_for(tool: &ToolDef, what: &str) -> String {
    format!("The {what} of tool `{}`.", tool.name)
}

fn module_doc(tool: &ToolDef) -> String {
    let mut doc = format!("Tool `{}`", tool.name);
    if let Some(t) = &tool.title {
        doc.push_str(&format!(": {t}"));
    }
    doc.push('.');
    if let Some(d) = &tool.description {
        doc.push_str("\n\n");
        doc.push_str(d);
    }
    doc
}

fn fallback_doc(tool: &ToolDef, key: &str, what: &str, holds: &str) -> String {
    format!(
        " The {what} of tool `{}`, untyped: its `{key}` is not one the generator can type \
         (`mcp-typed-codegen tools` warned why), so this holds {holds} as received.",
        tool.name
    )
}

/// `call`/`request` on the arguments type, `from_result` on the output type.
fn helpers(
    tool: &ToolDef,
    config: &EmitConfig<'_>,
    args: &syn::Ident,
    output: Option<&syn::Ident>,
) -> TokenStream {
    let root = &config.mcp_typed;
    let m = format_ident!("{}", crate::source::module_name(config.revision));
    let rev = config.revision;
    // 2026-07-28 and later: params carry a required `_meta`, and structuredContent is any
    // JSON value; before, an object.
    let newer = matches!(rev, "2026-07-28" | "draft");
    let call_doc = format!(
        " The `tools/call` params that call `{}` with these arguments (revision {rev}).",
        tool.name
    );
    let call = if newer {
        quote! {
            #[doc = #call_doc]
            pub fn call(&self, meta: impl ::std::convert::Into<#root::#m::RequestMetaObject>) -> #root::#m::CallToolRequestParams {
                let mut params = #root::#m::CallToolRequestParams::new(meta, NAME);
                params.arguments = ::std::option::Option::Some(::std::convert::Into::into(#root::tools::arguments(NAME, self)));
                params
            }
        }
    } else {
        quote! {
            #[doc = #call_doc]
            pub fn call(&self) -> #root::#m::CallToolRequestParams {
                let mut params = #root::#m::CallToolRequestParams::new(NAME);
                params.arguments = ::std::option::Option::Some(::std::convert::Into::into(#root::tools::arguments(NAME, self)));
                params
            }
        }
    };
    let request = match rev {
        "2025-06-18" => quote! {},
        _ if newer => quote! {
            /// The whole `tools/call` request, with id `id`.
            pub fn request(&self, id: impl ::std::convert::Into<#root::#m::RequestId>, meta: impl ::std::convert::Into<#root::#m::RequestMetaObject>) -> #root::#m::CallToolRequest {
                #root::#m::CallToolRequest::new(id, self.call(meta))
            }
        },
        _ => quote! {
            /// The whole `tools/call` request, with id `id`.
            pub fn request(&self, id: impl ::std::convert::Into<#root::#m::RequestId>) -> #root::#m::CallToolRequest {
                #root::#m::CallToolRequest::new(id, self.call())
            }
        },
    };
    let from_result = output.map(|output| {
        let content = if newer {
            quote! { result.structured_content.as_ref() }
        } else {
            quote! { result.structured_content.as_deref().cloned().map(::serde_json::Value::Object).as_ref() }
        };
        let doc = format!(
            " Reads the `structuredContent` of a result of `{}`. The error names the tool and, \
             when the content does not match, the JSON path of the first mismatch; a result \
             with `isError` is the tool's failure, with its text.",
            tool.name
        );
        quote! {
            impl #output {
                #[doc = #doc]
                pub fn from_result(result: &#root::#m::CallToolResult) -> ::std::result::Result<Self, #root::ToolOutputError> {
                    #root::tools::structured_output(
                        NAME,
                        result.is_error == ::std::option::Option::Some(true),
                        || result.texts().collect::<::std::vec::Vec<_>>().join("\n"),
                        #content,
                    )
                }
            }
        }
    });
    quote! {
        impl #args {
            #call
            #request
        }
        #from_result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(props: Value) -> Value {
        json!({"type": "object", "title": "Args", "properties": props})
    }

    #[test]
    fn an_enum_typify_cannot_name_apart_costs_only_its_member() {
        let s = schema(json!({
            "q": {"type": "string"},
            "sort": {"type": "string", "description": "Order", "enum": ["reactions", "reactions-+1", "reactions--1"]},
            "page": {"type": "integer"}
        }));
        assert!(typify(Some(&s), None).is_err(), "the case this handles");
        let (fixed, loosened) = localize(&s).unwrap();
        assert_eq!(loosened.len(), 1);
        assert_eq!(loosened[0].pointer, "/properties/sort");
        assert_eq!(loosened[0].as_type, "String");
        assert!(
            loosened[0].error.contains("reactions-+1"),
            "{:?}",
            loosened[0]
        );
        let sort = &fixed["properties"]["sort"];
        assert_eq!(sort["type"], "string");
        let doc = sort["description"].as_str().unwrap();
        assert!(
            doc.starts_with("Order\n\nOne of: \"reactions\", \"reactions-+1\", \"reactions--1\"."),
            "{doc}"
        );
        assert!(doc.contains("Not typed (String)"), "{doc}");
        // The rest is untouched, and typify takes the whole.
        assert_eq!(fixed["properties"]["page"], json!({"type": "integer"}));
        assert!(typify(Some(&fixed), None).is_ok());
    }

    #[test]
    fn the_innermost_member_at_fault_is_blamed() {
        let s = schema(json!({
            "filter": {"type": "object", "properties": {
                "kind": {"type": "string"},
                "place": {"$ref": "https://example.com/place.json"}
            }},
            "limit": {"type": "integer"}
        }));
        let (fixed, loosened) = localize(&s).unwrap();
        let pointers: Vec<&str> = loosened.iter().map(|l| l.pointer.as_str()).collect();
        assert_eq!(pointers, ["/properties/filter/properties/place"]);
        assert_eq!(loosened[0].as_type, "serde_json::Value");
        assert_eq!(
            fixed["properties"]["filter"]["properties"]["kind"],
            json!({"type": "string"})
        );
    }

    #[test]
    fn two_faults_are_both_loosened_and_a_sound_schema_needs_nothing() {
        let s = schema(json!({
            "a": {"$ref": "https://example.com/a.json"},
            "b": {"$ref": "#/definitions/missing"},
            "c": {"type": "boolean"}
        }));
        let (_, loosened) = localize(&s).unwrap();
        let mut pointers: Vec<&str> = loosened.iter().map(|l| l.pointer.as_str()).collect();
        pointers.sort();
        assert_eq!(pointers, ["/properties/a", "/properties/b"]);
        assert!(localize(&schema(json!({"c": {"type": "boolean"}}))).is_none());
    }
}
