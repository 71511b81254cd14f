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
    let (requests, notifications) = methods(module);
    let request_methods = requests.iter().map(|(m, _)| m.as_str());
    let notification_methods = notifications.iter();
    let result_arms: Vec<TokenStream> = requests
        .iter()
        .map(|(method, result)| {
            let ty = type_tokens(result);
            let name = match result {
                TypeRef::Named(n) => n.clone(),
                other => type_tokens(other).to_string().replace(' ', ""),
            };
            quote! { #method => Some(visitor.visit::<#ty>(#name)), }
        })
        .collect();
    let result_body = if result_arms.is_empty() {
        quote! { let _ = (method, visitor); None }
    } else {
        quote! { match method { #( #result_arms )* _ => None, } }
    };
    quote! {
        /// The request methods of this revision (both directions), in schema order.
        pub const REQUEST_METHODS: &[&str] = &[#( #request_methods ),*];

        /// The notification methods of this revision (both directions), in schema order.
        pub const NOTIFICATION_METHODS: &[&str] = &[#( #notification_methods ),*];

        /// Calls `visitor` with the result type of request `method` (`"tools/call"` →
        /// `CallToolResult`); `None` when the revision has no such request.
        pub fn with_result_of<V: __rt::DefinitionVisitor>(method: &str, visitor: V) -> Option<V::Output> {
            #result_body
        }

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

/// The requests (method, result type) and notifications (method) of a revision: every struct
/// with a fixed `method` whose schema name ends in `Request` (with a result) or
/// `Notification`, in schema order: what `emit` implements the traits for.
fn methods(module: &Module) -> (Vec<(String, TypeRef)>, Vec<String>) {
    let (mut requests, mut notifications) = (Vec::new(), Vec::new());
    for t in &module.types {
        let (Some(schema_name), TypeKind::Struct(s)) = (&t.schema_name, &t.kind) else {
            continue;
        };
        let Some(ConstValue::Str(method)) = s.const_field("method").map(|c| &c.value) else {
            continue;
        };
        if let Some(base) = schema_name.strip_suffix("Request") {
            if let Some(result) = result_type(module, base) {
                requests.push((method.clone(), result));
            }
        } else if schema_name.ends_with("Notification") {
            notifications.push(method.clone());
        }
    }
    (requests, notifications)
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
                    #[inline(never)]
                    fn result_from_json(text: &str) -> ::core::result::Result<#result, __rt::serde_json::Error> {
                        __rt::pull::from_str(text).map_err(__rt::pull::Error::into_serde)
                    }
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
