//! `ClientMessage` and `ServerMessage`: every message one side sends, decoded in one pass into
//! its typed request or notification (results stay raw until the caller names the request),
//! and built with `request`, `notification`, `response` and `error`.
//!
//! Also `MethodSet` for the request and notification unions (and for a single request or
//! notification type where a revision has only one), which the runtime's message decoder
//! uses to pick the builder from the `method` value.

use proc_macro2::TokenStream;
use quote::quote;

use super::ident;
use crate::ir::roles::{MessageSet, Messages, SetKind, Side};
use crate::ir::union::{Group, ObjectPlan};
use crate::ir::{ConstValue, Module, Struct, TypeDef, TypeId, TypeKind, TypeRef};

/// A request or notification set with its type.
struct Set<'m> {
    ty: &'m TypeDef,
    set: &'m MessageSet,
}

fn set<'m>(module: &'m Module, set: &'m MessageSet) -> Set<'m> {
    Set {
        ty: module.def(set.ty),
        set,
    }
}

/// `impl MethodSet` for a request or notification set.
fn method_set(set: &Set, pulls: &mut TokenStream) -> TokenStream {
    let name = ident(&set.ty.name);
    let envelope = set.set.envelope;
    match &set.ty.kind {
        TypeKind::Union(u) => {
            let ObjectPlan::Tagged(t) = &u.plan.object else {
                return TokenStream::new();
            };
            if t.tag != "method" {
                return TokenStream::new();
            }
            let catch_all = ident(&u.variants[t.unknown].rust_name);
            // `method()`: every known variant has one method (a method shared by several
            // shapes would be a merged group; none is, but then the arm names each member).
            let mut method_arms = Vec::new();
            for (m, g) in &t.arms {
                let members: Vec<usize> = match g {
                    Group::Single(i) => vec![*i],
                    Group::Merged(merged) => merged.members.clone(),
                };
                for i in members {
                    let v = ident(&u.variants[i].rust_name);
                    method_arms.push(quote! { #name::#v(_) => #m, });
                }
            }
            let method_doc = format!(
                " The `method` of this {}: the one its type fixes, or, for a method this revision \
                 does not define, the one it came with (`\"\"` if none).",
                match set.set.kind {
                    SetKind::Notifications => "notification",
                    SetKind::Requests => "request",
                }
            );
            let method_fn = quote! {
                impl #name {
                    #[doc = #method_doc]
                    pub fn method(&self) -> &str {
                        match self {
                            #( #method_arms )*
                            #name::#catch_all(m) => m.get("method").and_then(__rt::Value::as_str).unwrap_or(""),
                        }
                    }
                }
            };
            // The decoder on the pull parser: the method picks the member's object decoder.
            let mut pull_arms = Vec::new();
            for (m, g) in &t.arms {
                let body = match g {
                    Group::Single(i) => {
                        let v = ident(&u.variants[*i].rust_name);
                        match &u.variants[*i].ty {
                            TypeRef::Named(s) => {
                                let s = ident(s);
                                quote! { <super::#s as pull::DecodeObject>::decode_object(p, start).map(super::#name::#v) }
                            }
                            _ => continue,
                        }
                    }
                    // A method shared by shapes told apart by members: the union decides.
                    Group::Merged(_) => {
                        quote! { pull::whole(p, start, <super::#name as pull::Decode>::decode) }
                    }
                };
                pull_arms.push(quote! { #m => Some(#body), });
            }
            let pull_impl = quote! {
                impl pull::Methods for super::#name {
                    const ENVELOPE: bool = #envelope;
                    fn decode_method(p: &mut Parser<'_>, method: &str, start: Start) -> Option<pull::Result<Self>> {
                        match method {
                            #( #pull_arms )*
                            _ => None,
                        }
                    }
                    fn custom(raw: __rt::Map<String, __rt::Value>) -> Option<Self> {
                        Some(super::#name::#catch_all(raw.into()))
                    }
                }
            };
            pulls.extend(pull_impl);
            method_fn
        }
        TypeKind::Struct(s) => {
            let Some(ConstValue::Str(method)) = s.const_field("method").map(|c| &c.value) else {
                return TokenStream::new();
            };
            pulls.extend(quote! {
                impl pull::Methods for super::#name {
                    const ENVELOPE: bool = #envelope;
                    fn decode_method(p: &mut Parser<'_>, method: &str, start: Start) -> Option<pull::Result<Self>> {
                        (method == #method).then(|| <super::#name as pull::DecodeObject>::decode_object(p, start))
                    }
                    fn custom(_: __rt::Map<String, __rt::Value>) -> Option<Self> {
                        None
                    }
                }
            });
            TokenStream::new()
        }
        _ => TokenStream::new(),
    }
}

/// Everything for the typed messages of a module — items, and the visitors that go in
/// `__de` — empty for schemas without the JSON-RPC definitions (a schema that is not MCP's).
pub(super) fn emit(module: &Module) -> (TokenStream, TokenStream) {
    let Some(m) = &module.protocol.messages else {
        return Default::default();
    };
    let error = module.def(m.error_response);
    let TypeKind::Struct(error_struct) = &error.kind else {
        return Default::default();
    };
    let mut out = TokenStream::new();
    let mut visitors = TokenStream::new();
    let id_ty = ident(&module.def(m.request_id).name);
    let result_response = ident(&m.result_response);
    out.extend(quote! {
        /// A successful response: its `id`, and its `result` as the raw JSON it came as, until
        /// [`result_as`](__rt::ResultResponse::result_as) decodes it as the result of the
        /// request it answers (`response.result_as::<CallToolRequest>()`).
        pub type #result_response = __rt::ResultResponse<#id_ty>;
    });
    out.extend(generic_result_froms(module, m));
    // Each set once, before the first message that uses it.
    let mut done: Vec<TypeId> = Vec::new();
    for side in &m.sides {
        let req = side.requests.as_ref().map(|r| set(module, r));
        let note = set(module, &side.notifications);
        for s in req.iter().chain([&note]) {
            if !done.contains(&s.set.ty) {
                done.push(s.set.ty);
                out.extend(method_set(s, &mut visitors));
            }
        }
        let result_ty = side.result.map(|r| module.def(r));
        let (item, visitor) = message(
            side,
            &result_response,
            req.as_ref(),
            &note,
            &id_ty,
            error,
            error_struct,
            result_ty,
        );
        out.extend(item);
        visitors.extend(visitor);
    }
    (out, visitors)
}

#[allow(clippy::too_many_arguments)]
fn message(
    side: &Side,
    result_response: &proc_macro2::Ident,
    req: Option<&Set>,
    note: &Set,
    id_ty: &proc_macro2::Ident,
    error: &TypeDef,
    error_struct: &Struct,
    result_ty: Option<&TypeDef>,
) -> (TokenStream, TokenStream) {
    let name = ident(&side.message);
    let note_ty = ident(&note.ty.name);
    let err_ty = ident(&error.name);
    let (sender, other) = (side.sender.name(), side.sender.other().name());
    let doc = format!(
        " A message the {sender} sends and the {other} reads: a request, a notification, or a \
         response to a request of the {other}'s.\n\n Decoded in one pass: the `method` picks \
         the typed request or notification (an unknown method is kept whole in the union's \
         `Custom` variant), a response's `result` stays raw until \
         [`ResultResponse::result_as`](__rt::ResultResponse::result_as) is told which request \
         it answers, or is decoded in the same pass when the caller says which results it \
         awaits (`from_json_awaiting`)."
    );
    let (req_variant, req_ty, req_ser, req_ctor, req_unknowns) = match req {
        Some(r) => {
            let t = ident(&r.ty.name);
            if r.set.envelope {
                let get_id = get_id_arms(r, &t, id_ty);
                (
                    quote! {
                        /// A request (it holds its `id`).
                        Request(#t),
                    },
                    quote!(#t),
                    quote! { #name::Request(r) => __rt::serde::Serialize::serialize(r, s), },
                    quote! {
                        /// A request; it holds its own `id` (`CallToolRequest::new(id, …)`).
                        pub fn request(request: impl Into<#t>) -> Self {
                            #name::Request(request.into())
                        }

                        /// The id of a request, to answer it. Every decoded request has one
                        /// (a custom request with an invalid `id` is refused like a typed
                        /// one); `None` only for a `Custom` map built by hand without it.
                        pub fn request_id(request: &#t) -> Option<#id_ty> {
                            match request { #get_id }
                        }
                    },
                    quote! { #name::Request(r) => __rt::Unknowns::collect_unknowns(r, at, out), },
                )
            } else {
                (
                    quote! {
                        /// A request and its `id` (this revision's request types leave the
                        /// JSON-RPC envelope to the message).
                        Request(#id_ty, #t),
                    },
                    quote!(#t),
                    quote! {
                        #name::Request(id, r) => {
                            let mut m = s.serialize_map(None)?;
                            m.serialize_entry(&__rt::Plain("jsonrpc"), &__rt::Plain("2.0"))?;
                            m.serialize_entry(&__rt::Plain("id"), id)?;
                            __rt::serialize_members(&mut m, r)?;
                            m.end()
                        }
                    },
                    quote! {
                        /// A request with id `id`.
                        pub fn request(id: impl Into<#id_ty>, request: impl Into<#t>) -> Self {
                            #name::Request(id.into(), request.into())
                        }
                    },
                    quote! { #name::Request(_, r) => __rt::Unknowns::collect_unknowns(r, at, out), },
                )
            }
        }
        None => (
            TokenStream::new(),
            quote!(__rt::NoRequest),
            TokenStream::new(),
            TokenStream::new(),
            TokenStream::new(),
        ),
    };
    let note_ser = if note.set.envelope {
        quote! { #name::Notification(n) => __rt::serde::Serialize::serialize(n, s), }
    } else {
        quote! {
            #name::Notification(n) => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry(&__rt::Plain("jsonrpc"), &__rt::Plain("2.0"))?;
                __rt::serialize_members(&mut m, n)?;
                m.end()
            }
        }
    };
    // `error(id, code, message)`: the id field is `Option<RequestId>` when required (null
    // when unknown), `Option<Option<RequestId>>` when it may also be absent.
    let error_ctor = error_constructor(&name, &err_ty, id_ty, error_struct);
    let reply_ty = ident(&side.reply);
    let from_json = error_struct.field("id").map(|id_field| {
        // What the reply to an unreadable request says of its id: as the error constructor
        // writes it in this revision.
        let without_id = if id_field.null_is_absent {
            "else without an `id` (the member is optional in this revision)"
        } else {
            "else with `\"id\": null` (JSON-RPC 2.0)"
        };
        let doc = format!(
            " Decodes one message; when it cannot be decoded, the error says why and \
             carries the error response to send back ([`DecodeError::into_reply`](__rt::DecodeError::into_reply)): \
             to the request's id if it has one (`INVALID_PARAMS`), {without_id} \
             (`PARSE_ERROR` for text that is not JSON, `INVALID_REQUEST`)."
        );
        quote! {
            #[doc = #doc]
            pub fn from_json(text: &str) -> Result<Self, __rt::DecodeError<#reply_ty>> {
                Self::from_json_awaiting(text, &())
            }

            /// [`from_json`](Self::from_json), with the results `awaiting` gives a type for
            /// (by request id: [`Awaiting`](__rt::Awaiting)) decoded in the same pass as the
            /// response; [`ResultResponse::into_result_as`](__rt::ResultResponse::into_result_as)
            /// then takes the value without reading the text again. A result that is not of the
            /// type awaited is kept as text only, as [`from_json`](Self::from_json) keeps it.
            pub fn from_json_awaiting(
                text: &str,
                awaiting: &dyn __rt::Awaits<#id_ty>,
            ) -> Result<Self, __rt::DecodeError<#reply_ty>> {
                __rt::pull::from_str_by(text, |p| Self::decode_awaiting(p, awaiting)).map_err(|e| {
                    let (id, code) = __rt::failed_message(text);
                    let id = id.and_then(|raw| __rt::serde_json::from_str::<#id_ty>(raw.get()).ok());
                    let message = e.to_string();
                    __rt::DecodeError::new(#reply_ty::error(id, code, message.clone()), message)
                })
            }
        }
    });
    let response_ctor = result_ty.map(|r| {
        let rt = ident(&r.name);
        quote! {
            /// A successful response to request `id`.
            pub fn response(id: impl Into<#id_ty>, result: impl Into<#rt>) -> Self {
                #name::Response(__rt::ResultResponse::new(id.into(), &result.into()))
            }
        }
    });
    // In `__de`, where the parent module's types are `super::X`.
    let sup = |t: &TokenStream| quote!(super::#t);
    let (req_ty_de, note_de, id_de, err_de) = (
        if req.is_some() {
            sup(&req_ty)
        } else {
            req_ty.clone()
        },
        sup(&quote!(#note_ty)),
        sup(&quote!(#id_ty)),
        sup(&quote!(#err_ty)),
    );
    let pull_request = match req {
        Some(r) if r.set.envelope => {
            quote! { Ok(__rt::MessageParts::Request(_, r)) => Ok(super::#name::Request(r)), }
        }
        Some(_) => quote! {
            Ok(__rt::MessageParts::Request(Some(id), r)) => Ok(super::#name::Request(id, r)),
            Ok(__rt::MessageParts::Request(None, _)) => Err(p.error("missing member `id`")),
        },
        None => quote! { Ok(__rt::MessageParts::Request(_, r)) => match r {}, },
    };
    let visitor = quote! {
        impl pull::Decode for super::#name {
            fn decode(p: &mut Parser<'_>) -> pull::Result<Self> {
                Self::decode_awaiting(p, &())
            }
        }

        impl super::#name {
            pub(super) fn decode_awaiting(
                p: &mut Parser<'_>,
                awaits: &dyn __rt::Awaits<#id_de>,
            ) -> pull::Result<Self> {
                // The result matched as it is (not unwrapped with `?` first): the parts move
                // once, into the message.
                match pull::message::<#req_ty_de, #note_de, #id_de, #err_de>(p, awaits) {
                    #pull_request
                    Ok(__rt::MessageParts::Notification(n)) => Ok(super::#name::Notification(n)),
                    Ok(__rt::MessageParts::Response(r)) => Ok(super::#name::Response(r)),
                    Ok(__rt::MessageParts::Error(e)) => Ok(super::#name::Error(e)),
                    Err(e) => Err(e),
                }
            }
        }
    };
    let item = quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum #name {
            #req_variant
            /// A notification.
            Notification(#note_ty),
            /// A successful response, its result not yet decoded.
            Response(#result_response),
            /// An error response.
            Error(#err_ty),
        }

        impl #name {
            #req_ctor

            /// A notification.
            pub fn notification(notification: impl Into<#note_ty>) -> Self {
                #name::Notification(notification.into())
            }

            #response_ctor

            #error_ctor

            #from_json
        }

        impl __rt::serde::Serialize for #name {
            fn serialize<S: __rt::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                #[allow(unused_imports)]
                use __rt::serde::ser::SerializeMap as _;
                match self {
                    #req_ser
                    #note_ser
                    #name::Response(r) => __rt::serde::Serialize::serialize(r, s),
                    #name::Error(e) => __rt::serde::Serialize::serialize(e, s),
                }
            }
        }

        __rt::deserialize_by_pull!(#name);

        impl __rt::Unknowns for #name {
            fn collect_unknowns(&self, at: &mut __rt::JsonPath, out: &mut Vec<__rt::Unknown>) {
                match self {
                    #req_unknowns
                    #name::Notification(n) => __rt::Unknowns::collect_unknowns(n, at, out),
                    #name::Response(r) => __rt::Unknowns::collect_unknowns(r, at, out),
                    #name::Error(e) => __rt::Unknowns::collect_unknowns(e, at, out),
                }
            }
        }
    };
    (item, visitor)
}

/// Match arms that read the id of a request union's members.
fn get_id_arms(r: &Set, union: &proc_macro2::Ident, id_ty: &proc_macro2::Ident) -> TokenStream {
    let TypeKind::Union(u) = &r.ty.kind else {
        return quote! { r => Some(r.id.clone()), };
    };
    let arms = u.variants.iter().map(|v| {
        let vn = ident(&v.rust_name);
        match &v.ty {
            TypeRef::Object => quote! {
                #union::#vn(m) => m.get("id").and_then(|v| <#id_ty as __rt::serde::Deserialize>::deserialize(v).ok()),
            },
            _ => quote! { #union::#vn(r) => Some(r.id.clone()), },
        }
    });
    quote! { #( #arms )* }
}

fn error_constructor(
    name: &proc_macro2::Ident,
    err_ty: &proc_macro2::Ident,
    id_ty: &proc_macro2::Ident,
    s: &Struct,
) -> TokenStream {
    let (Some(id_field), Some(error_field)) = (s.field("id"), s.field("error")) else {
        return TokenStream::new();
    };
    let TypeRef::Named(inner) = &error_field.ty else {
        return TokenStream::new();
    };
    let inner = ident(inner);
    let id_name = ident(&id_field.rust_name);
    let error_name = ident(&error_field.rust_name);
    let nullable = matches!(id_field.ty, TypeRef::Nullable(_));
    // The field is `id`, like the argument: written in shorthand when it takes it as is.
    let id_init = match (nullable, id_field.required) {
        (true, true) | (false, false) => quote!(#id_name),
        (true, false) if id_field.null_is_absent => quote!(#id_name),
        (true, false) => quote!(#id_name: Some(id)),
        (false, true) => return TokenStream::new(),
    };
    let x = ident(&s.extra_name);
    let doc = if id_field.null_is_absent {
        " An error response to request `id`, or without an `id` when the request's id could \
         not be read (`None`; the member is optional in this revision). `code` is one of this \
         module's error-code constants (`INVALID_PARAMS`…) or an application's own."
    } else {
        " An error response to request `id`, or with `\"id\": null` when the request's id \
         could not be read (`None`; JSON-RPC 2.0). `code` is one of this module's error-code \
         constants (`INVALID_PARAMS`…) or an application's own."
    };
    quote! {
        #[doc = #doc]
        pub fn error(id: Option<#id_ty>, code: i64, message: impl Into<String>) -> Self {
            #name::Error(#err_ty {
                #error_name: #inner::new(code, message),
                #id_init,
                #x: Default::default(),
            })
        }
    }
}

/// `From` each typed result (the struct members of `ServerResult` and `ClientResult`) into the
/// generic `Result` the JSON-RPC envelope (`JSONRPCResultResponse.result`) holds.
fn generic_result_froms(module: &Module, m: &Messages) -> TokenStream {
    let Some(generic) = m.generic_result else {
        return TokenStream::new();
    };
    let g = ident(&module.def(generic).name);
    let froms = m.typed_results.iter().map(|&id| {
        let n = &module.def(id).name;
        let t = ident(n);
        let doc = format!(" A `{n}` as the generic result a response envelope holds.");
        quote! {
            #[doc = #doc]
            impl From<#t> for #g {
                fn from(result: #t) -> Self {
                    __rt::retype(&result)
                }
            }
        }
    });
    quote! { #( #froms )* }
}
