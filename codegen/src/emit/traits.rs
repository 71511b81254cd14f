//! `RequestMethod` / `NotificationMethod` impls: each request type linked to its method,
//! params and result at the type level.

use proc_macro2::TokenStream;
use quote::quote;

use super::{ident, type_tokens};
use crate::ir::roles::{Notification, Params, Request, Role};
use crate::ir::{Module, TypeRef};

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
    let request_methods = requests.iter().map(|(m, _)| *m);
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

/// The requests (method, result type) and notifications (method) of a revision, in schema
/// order: what `emit` implements the traits for.
fn methods(module: &Module) -> (Vec<(&str, &TypeRef)>, Vec<&str>) {
    let (mut requests, mut notifications) = (Vec::new(), Vec::new());
    for t in &module.types {
        match &t.role {
            Role::Request(Request {
                method,
                result: Some(result),
                ..
            }) => requests.push((method.as_str(), result)),
            Role::Notification(n) => notifications.push(n.method.as_str()),
            _ => {}
        }
    }
    (requests, notifications)
}

/// The `params` type and how to reach it.
fn params(p: Option<&Params>) -> (TokenStream, TokenStream) {
    match p {
        Some(p) => {
            let ty = type_tokens(&p.ty);
            let i = ident(&p.field);
            if p.optional {
                (quote!(Option<#ty>), quote!(&self.#i))
            } else {
                (ty, quote!(&self.#i))
            }
        }
        None => (quote!(()), quote!(&())),
    }
}

/// Impls for every request (with a result) and notification of the model.
pub(super) fn emit(module: &Module) -> TokenStream {
    let mut out = TokenStream::new();
    for t in &module.types {
        let name = ident(&t.name);
        match &t.role {
            Role::Request(Request {
                method,
                params: p,
                result: Some(result),
                ..
            }) => {
                let (params_ty, params_expr) = params(p.as_ref());
                let result = type_tokens(result);
                out.extend(quote! {
                    impl __rt::RequestMethod for #name {
                        const METHOD: &'static str = #method;
                        type Params = #params_ty;
                        type Result = #result;
                        fn params(&self) -> &Self::Params { #params_expr }
                        #[inline(never)]
                        fn result_from_json(text: &str) -> Result<#result, __rt::serde_json::Error> {
                            __rt::pull::from_str(text).map_err(__rt::pull::Error::into_serde)
                        }
                        fn result_type() -> Option<__rt::ResultType> {
                            Some(__rt::ResultType::of::<Self>())
                        }
                        #[inline(never)]
                        fn result_from_raw(raw: __rt::RawJson) -> Result<#result, __rt::serde_json::Error> {
                            raw.into_typed().map_err(__rt::pull::Error::into_serde)
                        }
                    }
                });
            }
            Role::Notification(Notification {
                method, params: p, ..
            }) => {
                let (params_ty, params_expr) = params(p.as_ref());
                out.extend(quote! {
                    impl __rt::NotificationMethod for #name {
                        const METHOD: &'static str = #method;
                        type Params = #params_ty;
                        fn params(&self) -> &Self::Params { #params_expr }
                    }
                });
            }
            _ => {}
        }
    }
    out
}
