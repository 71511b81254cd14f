//! `RequestMethod` / `NotificationMethod` impls: each request type linked to its method,
//! params and result at the type level.

use proc_macro2::TokenStream;
use quote::quote;

use super::{ident, type_tokens};
use crate::ir::{ConstValue, Module, TypeKind, TypeRef};

/// The definition registry: `DEFINITIONS` and `with_definition`.
pub(super) fn registry(module: &Module) -> TokenStream {
    let defs: Vec<(&str, &str)> = module
        .types
        .iter()
        .filter_map(|t| t.schema_name.as_deref().map(|s| (s, t.name.as_str())))
        .collect();
    let names = defs.iter().map(|(s, _)| *s);
    let arms = defs.iter().map(|(s, r)| {
        let i = ident(r);
        quote! { #s => Some(visitor.visit::<#i>(#r)), }
    });
    quote! {
        /// The schema definitions of this revision, in schema order.
        pub const DEFINITIONS: &[&str] = &[#( #names ),*];

        /// Calls `visitor` with the type generated for the schema definition `name`
        /// (`"CallToolRequest"`); `None` when the revision has no such definition.
        pub fn with_definition<V: __rt::DefinitionVisitor>(name: &str, visitor: V) -> Option<V::Output> {
            match name {
                #( #arms )*
                _ => None,
            }
        }
    }
}

/// Impls for every struct with a fixed `method` whose schema name ends in `Request` or
/// `Notification`.
pub(super) fn emit(module: &Module) -> TokenStream {
    let mut out = TokenStream::new();
    for t in &module.types {
        let (Some(schema_name), TypeKind::Struct(s)) = (&t.schema_name, &t.kind) else {
            continue;
        };
        let Some(ConstValue::Str(method)) = s.const_field("method").map(|c| &c.value) else {
            continue;
        };
        let name = ident(&t.name);
        let (params_ty, params_expr) = match s.field("params") {
            Some(f) => {
                let ty = type_tokens(&f.ty);
                let i = ident(&f.rust_name);
                if !f.wraps_option() {
                    (ty, quote!(&self.#i))
                } else {
                    (quote!(Option<#ty>), quote!(&self.#i))
                }
            }
            None => (quote!(()), quote!(&())),
        };
        if let Some(base) = schema_name.strip_suffix("Request") {
            let Some(result) = result_type(module, base) else {
                continue;
            };
            let result = type_tokens(&result);
            out.extend(quote! {
                impl __rt::RequestMethod for #name {
                    const METHOD: &'static str = #method;
                    type Params = #params_ty;
                    type Result = #result;
                    fn params(&self) -> &Self::Params { #params_expr }
                }
            });
        } else if schema_name.ends_with("Notification") {
            out.extend(quote! {
                impl __rt::NotificationMethod for #name {
                    const METHOD: &'static str = #method;
                    type Params = #params_ty;
                    fn params(&self) -> &Self::Params { #params_expr }
                }
            });
        }
    }
    out
}

/// The result of request `{base}Request`: the `result` of `{base}ResultResponse` when the
/// schema declares one (it says exactly which results may come back), else `{base}Result`,
/// else the empty result.
pub(crate) fn result_type(module: &Module, base: &str) -> Option<TypeRef> {
    if let Some(resp) = module.by_schema(&format!("{base}ResultResponse"))
        && let TypeKind::Struct(s) = &resp.kind
        && let Some(f) = s.field("result")
    {
        return Some(f.ty.clone());
    }
    if let Some(r) = module.by_schema(&format!("{base}Result")) {
        return Some(TypeRef::Named(r.name.clone()));
    }
    ["EmptyResult", "Result"]
        .iter()
        .find_map(|n| module.by_schema(n))
        .map(|r| TypeRef::Named(r.name.clone()))
}
