//! Stage 3: IR → Rust tokens → formatted source.
//!
//! Each type is emitted with hand-written-quality impls: a field-by-field serializer
//! (`ser.rs`), and a decoder on the runtime's shared pull decoder (`decode.rs`: a key table
//! and the code storing each member for objects, the plan's dispatch for unions) that the
//! type's serde `Deserialize` also goes through. The decoders live in a hidden `__de` module
//! after the types, so that a reader of a generated file finds the types first.

mod ctor;
mod decode;
mod messages;
mod ser;
mod shorthands;
mod traits;
mod unknowns;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ir::union::{self, ObjectPlan};
use crate::ir::{
    ConstValue, Extra, Field, Module, Struct, TypeDef, TypeId, TypeKind, TypeRef, Union,
};

/// What the emitter needs besides the model.
#[derive(Debug, Clone)]
pub struct EmitOptions {
    /// Path of the runtime the code calls (`::mcp_typed_runtime`, the crate
    /// `mcp-typed-runtime`).
    pub runtime: syn::Path,
    /// Extra derives for every generated type (`schemars::JsonSchema`…).
    pub derives: Vec<syn::Path>,
}

/// Emits the whole module's items (no enclosing `mod`).
pub fn emit(module: &Module, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let mut items = TokenStream::new();
    let mut builders = TokenStream::new();
    for (i, t) in module.types.iter().enumerate() {
        let cx = Cx {
            module,
            opts,
            id: TypeId(i),
            ty: t,
        };
        items.extend(cx.type_item());
        builders.extend(cx.builder_items());
    }
    items.extend(ctor::error_codes(module));
    items.extend(ctor::tool_schemas(module));
    let (message_items, message_visitors) = messages::emit(module);
    items.extend(message_items);
    builders.extend(message_visitors);
    items.extend(traits::emit(module));
    items.extend(traits::registry(module));
    quote! {
        use #rt as __rt;

        #items

        /// The decoders of the types above, on the runtime's shared decoder (`pull`): key
        /// tables, the code that stores each member, unions' dispatch. Not meant to be used
        /// directly: `from_json`, `serde_json::from_str` and `result_as` call them.
        #[doc(hidden)]
        #[allow(clippy::all, missing_docs, non_camel_case_types)]
        pub mod __de {
            use super::*;
            use __rt::pull::{self, Parser, Start};
            #builders
        }
    }
}

/// Formats emitted tokens.
pub fn format(tokens: TokenStream) -> Result<String, syn::Error> {
    let file: syn::File = syn::parse2(tokens)?;
    Ok(prettyplease::unparse(&file))
}

pub(crate) struct Cx<'a> {
    pub module: &'a Module,
    pub opts: &'a EmitOptions,
    pub id: TypeId,
    pub ty: &'a TypeDef,
}

/// An identifier from a generated name (raw identifiers kept). Names come from
/// [`naming`](crate::ir::naming), which only produces valid identifiers; anything else is
/// mapped to one rather than panicking.
pub(crate) fn ident(name: &str) -> Ident {
    let (raw, body) = match name.strip_prefix("r#") {
        Some(b) => (true, b),
        None => (false, name),
    };
    let mut clean: String = body
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() || clean.starts_with(|c: char| c.is_ascii_digit()) {
        clean.insert(0, '_');
    }
    if clean == "_" {
        clean = "_x".to_owned();
    }
    if raw && !["self", "Self", "super", "crate"].contains(&clean.as_str()) {
        Ident::new_raw(&clean, Span::call_site())
    } else {
        Ident::new(&clean, Span::call_site())
    }
}

/// `#[doc = "…"]` attributes for a doc text the IR wrote.
pub(crate) fn doc_attrs(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = text.lines().map(|l| format!(" {l}"));
    quote! { #( #[doc = #lines] )* }
}

impl Cx<'_> {
    pub(crate) fn name(&self) -> Ident {
        ident(&self.ty.name)
    }

    /// The Rust type of a reference.
    pub(crate) fn ty_tokens(&self, ty: &TypeRef) -> TokenStream {
        type_tokens(ty)
    }

    fn derives(&self, extra: &[TokenStream]) -> TokenStream {
        let user = &self.opts.derives;
        quote! { #[derive(Debug, Clone, PartialEq #(, #extra)* #(, #user)*)] }
    }

    fn type_item(&self) -> TokenStream {
        let doc = doc_attrs(self.ty.doc.as_deref());
        let name = self.name();
        match &self.ty.kind {
            TypeKind::Alias(target) => {
                let t = self.ty_tokens(target);
                quote! { #doc pub type #name = #t; }
            }
            TypeKind::Struct(s) => {
                let item = self.struct_item(doc, s);
                let ctor = ctor::for_struct(self, s);
                let short = shorthands::for_struct(self, s);
                let walk = unknowns::for_struct(self, s);
                quote! { #item #ctor #short #walk }
            }
            TypeKind::StringEnum(values) => {
                let item = self.enum_item(doc, values);
                let walk = unknowns::empty(self);
                quote! { #item #walk }
            }
            TypeKind::Union(u) => {
                let item = self.union_item(doc, u);
                let ctor = ctor::for_union(self, u);
                let walk = unknowns::for_union(self, u);
                quote! { #item #ctor #walk }
            }
        }
    }

    fn builder_items(&self) -> TokenStream {
        decode::for_type(self)
    }

    fn struct_item(&self, doc: TokenStream, s: &Struct) -> TokenStream {
        let name = self.name();
        let fields = s.fields.iter().map(|f| self.field_decl(f));
        let extra_name = ident(&s.extra_name);
        let extra = match &s.extra {
            Extra::Any => quote! {
                /// Members the schema does not declare, kept as they came so that nothing is
                /// lost when the value is encoded again.
                pub #extra_name: __rt::Extra,
            },
            Extra::Typed(t) => {
                let t = self.ty_tokens(t);
                quote! {
                    /// Members beyond the declared ones (`additionalProperties`), in order.
                    pub #extra_name: __rt::IndexMap<String, #t>,
                }
            }
            Extra::Deny => TokenStream::new(),
        };
        let all_optional = s.fields.iter().all(|f| !f.required);
        let derive = if all_optional {
            self.derives(&[quote!(Default)])
        } else {
            self.derives(&[])
        };
        let consts = s.consts.iter().map(|c| {
            let cname = ident(&c.rust_name);
            let json = &c.json_name;
            let doc = format!(
                " The fixed value of `{json}`, checked when decoding and written when encoding."
            );
            match &c.value {
                ConstValue::Str(v) => {
                    quote! { #[doc = #doc] pub const #cname: &'static str = #v; }
                }
                ConstValue::Int(v) => {
                    quote! { #[doc = #doc] pub const #cname: i64 = #v; }
                }
            }
        });
        let consts: Vec<TokenStream> = consts.collect();
        let consts_impl = if consts.is_empty() {
            TokenStream::new()
        } else {
            quote! { impl #name { #( #consts )* } }
        };
        let ser = ser::struct_serialize(self, s);
        quote! {
            #doc
            #derive
            pub struct #name {
                #( #fields )*
                #extra
            }

            #consts_impl

            #ser

            __rt::deserialize_by_pull!(#name);
        }
    }

    fn field_decl(&self, f: &Field) -> TokenStream {
        let doc = doc_attrs(f.doc.as_deref());
        let name = ident(&f.rust_name);
        let ty = self.ty_tokens(&f.ty);
        let ty = match (f.boxed, f.wraps_option()) {
            (true, true) => quote!(Option<Box<#ty>>),
            (true, false) => quote!(Box<#ty>),
            (false, true) => quote!(Option<#ty>),
            (false, false) => ty,
        };
        quote! { #doc pub #name: #ty, }
    }

    fn enum_item(&self, doc: TokenStream, values: &[crate::ir::EnumValue]) -> TokenStream {
        let name = self.name();
        let variants: Vec<Ident> = values.iter().map(|v| ident(&v.rust_name)).collect();
        let strs: Vec<&str> = values.iter().map(|v| v.value.as_str()).collect();
        let docs = strs.iter().map(|s| format!(" `{s:?}`"));
        let user = &self.opts.derives;
        quote! {
            #doc
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord #(, #user)*)]
            pub enum #name {
                #( #[doc = #docs] #variants, )*
            }

            impl #name {
                /// Every value, in schema order.
                pub const ALL: &'static [#name] = &[#( #name::#variants ),*];

                /// The value on the wire.
                pub fn as_str(&self) -> &'static str {
                    match self {
                        #( #name::#variants => #strs, )*
                    }
                }
            }

            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl __rt::serde::Serialize for #name {
                fn serialize<S: __rt::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_str(self.as_str())
                }
            }

            __rt::deserialize_by_pull!(#name);
        }
    }

    fn union_item(&self, doc: TokenStream, u: &Union) -> TokenStream {
        let name = self.name();
        let catch_all = match &u.plan.object {
            ObjectPlan::Tagged(t) => Some((t.unknown, t.tag.as_str())),
            _ => None,
        };
        let variants = u.variants.iter().enumerate().map(|(i, v)| {
            let vn = ident(&v.rust_name);
            let t = self.ty_tokens(&v.ty);
            let vdoc = match &v.ty {
                _ if catch_all.is_some_and(|(c, _)| c == i) => {
                    let tag = catch_all.map_or("", |(_, t)| t);
                    if union::OPEN_TAGS.contains(&tag) {
                        format!(" A value with a `{tag}` this revision does not define, kept whole.")
                    } else {
                        format!(
                            " A value with a `{tag}` this revision does not define (a newer revision's shape), kept whole so that it re-encodes unchanged; `Unknowns::unknowns` reports it."
                        )
                    }
                }
                TypeRef::Named(n) => {
                    let article = if n.starts_with(['A', 'E', 'I', 'O', 'U']) {
                        "An"
                    } else {
                        "A"
                    };
                    format!(" {article} [`{n}`].")
                }
                _ => format!(" A JSON {}.", v.rust_name.to_lowercase()),
            };
            quote! { #[doc = #vdoc] #vn(#t), }
        });
        // `From` for each payload type that only one variant has.
        let froms = u
            .variants
            .iter()
            .filter(|v| {
                u.variants.iter().filter(|w| w.ty == v.ty).count() == 1
                    && matches!(v.ty, TypeRef::Named(_))
            })
            .map(|v| {
                let vn = ident(&v.rust_name);
                let t = self.ty_tokens(&v.ty);
                quote! {
                    impl From<#t> for #name {
                        fn from(v: #t) -> Self { #name::#vn(v) }
                    }
                }
            });
        let ser = ser::union_serialize(self, u);
        let de = quote! {
            __rt::deserialize_by_pull!(#name);
        };
        let user = &self.opts.derives;
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq #(, #user)*)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name {
                #( #variants )*
            }
            #( #froms )*
            #ser
            #de
        }
    }
}

/// The Rust type of a reference (names resolve in the generated module and in `__de`).
pub(crate) fn type_tokens(ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::Named(n) => {
            let i = ident(n);
            quote!(#i)
        }
        TypeRef::String => quote!(String),
        TypeRef::Integer { unsigned: false } => quote!(i64),
        TypeRef::Integer { unsigned: true } => quote!(u64),
        TypeRef::Number => quote!(__rt::Number),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Any => quote!(__rt::Value),
        TypeRef::Object => quote!(__rt::JsonObject),
        TypeRef::Array(t) => {
            let t = type_tokens(t);
            quote!(Vec<#t>)
        }
        TypeRef::Map(t) => {
            let t = type_tokens(t);
            quote!(__rt::IndexMap<String, #t>)
        }
        TypeRef::Nullable(t) => {
            let t = type_tokens(t);
            quote!(Option<#t>)
        }
    }
}
