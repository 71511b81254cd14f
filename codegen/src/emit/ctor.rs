//! Constructors: `Type::new(required…)` and `with_<field>(…)` for every struct, `From` and
//! `Display` for unions of plain values (`RequestId::from(7)`), the error-code constants
//! of the revision and `ToolSchema` for the tool schema types, as the IR found them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Cx, ident, type_tokens};
use crate::ir::{Extra, Module, Struct, TypeKind, TypeRef, Union};

/// How a constructor argument of type `ty` is taken: `impl Into<T>` where a conversion reads
/// naturally (`"hi"` for a `String`, a member for its union), the type itself where
/// `impl Into` would defeat inference (`vec![x.into()]` for a `Vec`).
fn arg_type(module: &Module, ty: &TypeRef) -> (TokenStream, bool) {
    let t = type_tokens(ty);
    let into = match module.resolve(ty) {
        TypeRef::String | TypeRef::Number | TypeRef::Object => true,
        TypeRef::Named(n) => matches!(
            module.get(n).map(|d| &d.kind),
            Some(TypeKind::Struct(_) | TypeKind::Union(_) | TypeKind::StringEnum(_))
        ),
        _ => false,
    };
    if into {
        (quote!(impl Into<#t>), true)
    } else {
        (t, false)
    }
}

pub(super) fn for_struct(cx: &Cx, s: &Struct) -> TokenStream {
    let name = cx.name();
    let what = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for f in &s.fields {
        let field = ident(&f.rust_name);
        if f.required {
            let (t, into) = arg_type(cx.module, &f.ty);
            params.push(quote!(#field: #t));
            inits.push(match (into, f.boxed) {
                (true, true) => quote!(#field: Box::new(#field.into())),
                (true, false) => quote!(#field: #field.into()),
                (false, true) => quote!(#field: Box::new(#field)),
                (false, false) => quote!(#field),
            });
        } else {
            inits.push(quote!(#field: None));
        }
    }
    if !matches!(s.extra, Extra::Deny) {
        let x = ident(&s.extra_name);
        inits.push(quote!(#x: Default::default()));
    }
    let required: Vec<String> = s
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| format!("`{}`", f.json_name))
        .collect();
    let new_doc = if required.is_empty() {
        format!(" A `{what}` with every optional member absent.")
    } else {
        format!(
            " A `{what}` with its required members ({}); optional members absent, constants written when encoding.",
            required.join(", ")
        )
    };
    let allow = (params.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let withs = s.fields.iter().filter(|f| !f.required).map(|f| {
        let field = ident(&f.rust_name);
        let method = format_ident!("with_{}", f.rust_name.trim_start_matches("r#"));
        // `null_is_absent`: the setter takes the value itself, as for any optional member.
        let held = match (&f.ty, f.null_is_absent) {
            (TypeRef::Nullable(inner), true) => &**inner,
            (ty, _) => ty,
        };
        let (t, into) = arg_type(cx.module, held);
        let value = if into {
            quote!(value.into())
        } else {
            quote!(value)
        };
        let value = if f.boxed {
            quote!(Box::new(#value))
        } else {
            value
        };
        let doc = format!(" Sets `{}`.", f.json_name);
        quote! {
            #[doc = #doc]
            #[must_use]
            pub fn #method(mut self, value: #t) -> Self {
                self.#field = Some(#value);
                self
            }
        }
    });
    quote! {
        impl #name {
            #[doc = #new_doc]
            #allow
            pub fn new(#( #params ),*) -> Self {
                #name { #( #inits ),* }
            }

            #( #withs )*
        }
    }
}

/// `From` each plain value a union takes (`String`, `&str`, `i64`, `bool`…), and `Display`
/// when every member is a plain value (`RequestId`, `ProgressToken`).
pub(super) fn for_union(cx: &Cx, u: &Union) -> TokenStream {
    let name = cx.name();
    let mut out = TokenStream::new();
    let plain = |ty: &TypeRef| {
        matches!(
            ty,
            TypeRef::String | TypeRef::Integer { .. } | TypeRef::Number | TypeRef::Boolean
        )
    };
    for v in &u.variants {
        if !plain(&v.ty) || u.variants.iter().filter(|w| w.ty == v.ty).count() > 1 {
            continue;
        }
        let vn = ident(&v.rust_name);
        let t = type_tokens(&v.ty);
        out.extend(quote! {
            impl From<#t> for #name {
                fn from(v: #t) -> Self { #name::#vn(v) }
            }
        });
        if v.ty == TypeRef::String {
            out.extend(quote! {
                impl From<&str> for #name {
                    fn from(v: &str) -> Self { #name::#vn(v.to_owned()) }
                }
            });
        }
    }
    if !u.variants.is_empty() && u.variants.iter().all(|v| plain(&v.ty)) {
        let arms = u.variants.iter().map(|v| {
            let vn = ident(&v.rust_name);
            quote! { #name::#vn(v) => ::core::fmt::Display::fmt(v, f), }
        });
        out.extend(quote! {
            /// The value as written in JSON, strings without quotes.
            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    match self {
                        #( #arms )*
                    }
                }
            }
        });
    }
    out
}

/// The error-code constants the IR named ([`codes`](crate::ir::codes)).
pub(super) fn error_codes(module: &Module) -> TokenStream {
    let codes = module.error_codes.iter().map(|c| {
        let (n, code, doc) = (ident(&c.name), c.code, format!(" {}", c.doc));
        quote! { #[doc = #doc] pub const #n: i64 = #code; }
    });
    quote! { #( #codes )* }
}

/// `ToolSchema` for the types of a tool's `inputSchema` and `outputSchema`.
pub(super) fn tool_schemas(module: &Module) -> TokenStream {
    let impls = module.protocol.tool_schemas.iter().map(|&id| {
        let t = ident(&module.def(id).name);
        quote! { impl __rt::ToolSchema for #t {} }
    });
    quote! { #( #impls )* }
}
