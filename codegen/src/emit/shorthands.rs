//! The few shorthands a server writes in every tool handler, on the types the IR found for
//! the `tools/call` request ([`ToolCall`](crate::ir::roles::ToolCall)), where they have the
//! regular shape for them:
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
use crate::ir::Struct;
use crate::ir::roles::{ArgumentsAs, ToolResult};

pub(super) fn for_struct(cx: &Cx, s: &Struct) -> TokenStream {
    let tool_call = &cx.module.protocol.tool_call;
    match (&tool_call.arguments_as, &tool_call.result) {
        (Some(a), _) if a.params == cx.id => arguments_as(cx, a),
        (_, Some(r)) if r.ty == cx.id => results(cx, s, r),
        _ => TokenStream::new(),
    }
}

fn arguments_as(cx: &Cx, a: &ArgumentsAs) -> TokenStream {
    let ty = cx.name();
    let (n, a) = (ident(&a.name), ident(&a.arguments));
    quote! {
        impl #ty {
            /// The tool's `arguments` decoded as `T` (absent arguments read as `{}`); the
            /// error names the tool and the path of the argument at fault
            /// (`tool "book": arguments at date: invalid type…`).
            pub fn arguments_as<T: __rt::serde::de::DeserializeOwned>(&self) -> Result<T, __rt::ArgumentsError> {
                __rt::arguments_as(&self.#n, self.#a.as_ref())
            }
        }
    }
}

fn results(cx: &Cx, s: &Struct, r: &ToolResult) -> TokenStream {
    let ty = cx.name();
    let (c, e) = (ident(&r.content), ident(&r.is_error));
    let text_block = ident(&cx.module.def(r.text_block).name);
    let fields = match &r.complete {
        Some(result_type) => {
            let rt = ident(result_type);
            quote! { #rt: "complete".to_owned(), #c: vec![#text_block::new(text).into()] }
        }
        None => quote! { #c: vec![#text_block::new(text).into()] },
    };
    let set_rest = s.fields.iter().filter(|f| !f.required).map(|f| {
        let i = ident(&f.rust_name);
        if f.rust_name == r.is_error {
            quote! { #i: None, }
        } else {
            quote! { #i: Default::default(), }
        }
    });
    let x = ident(&s.extra_name);
    let complete_doc = if r.complete.is_some() {
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
    let union = ident(&cx.module.def(r.content_union).name);
    let (variant, text) = (ident(&r.text_variant), ident(&r.text));
    quote! {
        impl #ty {
            /// The text of each text block of `content`, in order: what a client shows, or a
            /// model reads.
            pub fn texts(&self) -> impl Iterator<Item = &str> {
                self.#c.iter().filter_map(|block| match block {
                    #union::#variant(t) => Some(t.#text.as_str()),
                    _ => None,
                })
            }
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
