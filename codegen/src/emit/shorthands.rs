//! The few shorthands a server writes in every tool handler, where a revision's types have
//! the regular shape for them:
//! - `CallToolRequestParams::arguments_as::<T>()` when the params have `name: String` and
//!   raw-object `arguments`: the arguments decoded as the tool's own type, errors naming
//!   the argument's path;
//! - `CallToolResult::text(…)` and `CallToolResult::error(…)` when the result's required
//!   members are `content` (and, from 2026-07-28, `resultType`, set to `"complete"`, the
//!   value the schema names for a result that is the answer), and `CallToolResult::texts()`
//!   reading its text blocks back.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Cx, ident};
use crate::ir::{Struct, TypeRef};

pub(super) fn for_struct(cx: &Cx, s: &Struct) -> TokenStream {
    match cx.ty.name.as_str() {
        "CallToolRequestParams" => arguments_as(cx, s),
        "CallToolResult" => results(cx, s),
        _ => TokenStream::new(),
    }
}

fn arguments_as(cx: &Cx, s: &Struct) -> TokenStream {
    let (Some(name), Some(args)) = (s.field("name"), s.field("arguments")) else {
        return TokenStream::new();
    };
    if !(name.required
        && name.ty == TypeRef::String
        && !args.required
        && args.ty == TypeRef::Object)
    {
        return TokenStream::new();
    }
    let ty = cx.name();
    let (n, a) = (ident(&name.rust_name), ident(&args.rust_name));
    quote! {
        impl #ty {
            /// The tool's `arguments` decoded as `T` (absent arguments read as `{}`); the
            /// error names the tool and the path of the argument at fault
            /// (`tool "book": arguments at date: invalid type…`).
            pub fn arguments_as<T: __rt::serde::de::DeserializeOwned>(&self) -> ::core::result::Result<T, __rt::ArgumentsError> {
                __rt::arguments_as(&self.#n, self.#a.as_ref())
            }
        }
    }
}

fn results(cx: &Cx, s: &Struct) -> TokenStream {
    let required: Vec<&str> = s
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.json_name.as_str())
        .collect();
    let Some(content) = s.field("content") else {
        return TokenStream::new();
    };
    let Some(is_error) = s.field("isError") else {
        return TokenStream::new();
    };
    if is_error.ty != TypeRef::Boolean || !matches!(content.ty, TypeRef::Array(_)) {
        return TokenStream::new();
    }
    let complete = match required.as_slice() {
        ["content"] => false,
        ["resultType", "content"] | ["content", "resultType"] => {
            s.field("resultType").map(|f| &f.ty) == Some(&TypeRef::String)
        }
        _ => return TokenStream::new(),
    };
    if !cx.module.by_name.contains_key("TextContent") {
        return TokenStream::new();
    }
    let ty = cx.name();
    let (c, e) = (ident(&content.rust_name), ident(&is_error.rust_name));
    let fields = if complete {
        let rt = ident(&s.field("resultType").expect("checked").rust_name);
        quote! { #rt: "complete".to_owned(), #c: vec![TextContent::new(text).into()] }
    } else {
        quote! { #c: vec![TextContent::new(text).into()] }
    };
    let set_rest = s.fields.iter().filter(|f| !f.required).map(|f| {
        let i = ident(&f.rust_name);
        if f.json_name == "isError" {
            quote! { #i: None, }
        } else {
            quote! { #i: Default::default(), }
        }
    });
    let x = ident(&s.extra_name);
    let complete_doc = if complete {
        " `resultType` is `\"complete\"`."
    } else {
        ""
    };
    let text_doc = format!(" A result with one text block.{complete_doc}");
    let error_doc = format!(
        " A failed tool call: `isError: true` and one text block saying what went wrong, for \
         the model to read (errors of the call itself, such as an unknown tool, are JSON-RPC \
         errors instead).{complete_doc}"
    );
    let texts = text_variant(cx, &content.ty).map(|(union, variant)| {
        let (union, variant) = (ident(union), ident(variant));
        quote! {
            /// The text of each text block of `content`, in order: what a client shows, or a
            /// model reads.
            pub fn texts(&self) -> impl Iterator<Item = &str> {
                self.#c.iter().filter_map(|block| match block {
                    #union::#variant(t) => Some(t.text.as_str()),
                    _ => None,
                })
            }
        }
    });
    quote! {
        impl #ty {
            #texts
            #[doc = #text_doc]
            pub fn text(text: impl Into<String>) -> Self {
                #ty { #fields, #( #set_rest )* #x: Default::default() }
            }
            #[doc = #error_doc]
            pub fn error(text: impl Into<String>) -> Self {
                let mut result = Self::text(text);
                result.#e = Some(true);
                result
            }
        }
    }
}

/// The union of a content array's items and its variant holding a `TextContent`, as the IR
/// named them.
fn text_variant<'m>(cx: &Cx<'m>, content: &TypeRef) -> Option<(&'m str, &'m str)> {
    let TypeRef::Array(item) = content else {
        return None;
    };
    let TypeRef::Named(union) = cx.module.resolve(item) else {
        return None;
    };
    let def = cx.module.get(union)?;
    let crate::ir::TypeKind::Union(u) = &def.kind else {
        return None;
    };
    let text = TypeRef::Named("TextContent".to_owned());
    let v = u.variants.iter().find(|v| v.ty == text)?;
    let has_text = cx.module.as_struct(&text)?.field("text")?.ty == TypeRef::String;
    has_text.then_some((def.name.as_str(), v.rust_name.as_str()))
}
