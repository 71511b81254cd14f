//! `impl Unknowns` for every struct, union and string enum: the walk that reports what a
//! decoded value holds beyond its revision (undeclared members, catch-all variants).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Cx, ident};
use crate::ir::union::{OPEN_TAGS, ObjectPlan};
use crate::ir::{Extra, Module, Struct, TypeKind, TypeRef, Union};

/// Whether a value of `ty` can hold anything to report (a struct or union somewhere inside).
fn walks(module: &Module, ty: &TypeRef) -> bool {
    walks_in(module, ty, &mut Vec::new())
}

/// [`walks`], remembering the aliases passed: an alias that reaches itself through arrays or
/// maps only (`JSONObject` = a map of `JSONObject`) holds nothing to report.
fn walks_in<'m>(module: &'m Module, ty: &'m TypeRef, aliases: &mut Vec<&'m str>) -> bool {
    if let TypeRef::Named(n) = ty {
        if aliases.contains(&n.as_str()) {
            return false;
        }
        aliases.push(n);
    }
    match module.resolve(ty) {
        TypeRef::Named(n) => matches!(
            module.get(n).map(|t| &t.kind),
            Some(TypeKind::Struct(_) | TypeKind::Union(_))
        ),
        TypeRef::Array(t) | TypeRef::Map(t) | TypeRef::Nullable(t) => walks_in(module, t, aliases),
        _ => false,
    }
}

pub(super) fn for_struct(cx: &Cx, s: &Struct) -> TokenStream {
    let name = cx.name();
    // `_meta` is free-form by the specification ("reserved for metadata", vendor keys
    // welcome) even where a revision lists some of its keys: nothing in it is unknown.
    let fields = s
        .fields
        .iter()
        .filter(|f| f.json_name != "_meta" && walks(cx.module, &f.ty))
        .map(|f| {
            let field = ident(&f.rust_name);
            let k = &f.json_name;
            quote! {
                at.push(#k);
                __rt::Unknowns::collect_unknowns(&self.#field, at, out);
                at.pop();
            }
        });
    let x = ident(&s.extra_name);
    let extra = match &s.extra {
        Extra::Any if s.extra_declared => TokenStream::new(),
        Extra::Any => quote! { __rt::unknown_value_members(&self.#x, at, out); },
        Extra::Typed(t) if walks(cx.module, t) => {
            quote! { __rt::Unknowns::collect_unknowns(&self.#x, at, out); }
        }
        Extra::Typed(_) | Extra::Deny => TokenStream::new(),
    };
    let body: Vec<TokenStream> = fields.chain([extra]).collect();
    let params = if body.iter().all(TokenStream::is_empty) {
        quote!(_: &mut __rt::JsonPath, _: &mut Vec<__rt::Unknown>)
    } else {
        quote!(at: &mut __rt::JsonPath, out: &mut Vec<__rt::Unknown>)
    };
    quote! {
        impl __rt::Unknowns for #name {
            fn collect_unknowns(&self, #params) {
                #( #body )*
            }
        }
    }
}

pub(super) fn for_union(cx: &Cx, u: &Union) -> TokenStream {
    let name = cx.name();
    let union_name = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    let catch_all = match &u.plan.object {
        ObjectPlan::Tagged(t) => Some((t.unknown, t.tag.as_str())),
        _ => None,
    };
    let mut any = false;
    let arms: Vec<TokenStream> = u
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let vn = ident(&v.rust_name);
            match catch_all {
                Some((c, tag)) if c == i => {
                    any = true;
                    let method = OPEN_TAGS.contains(&tag);
                    quote! {
                        #name::#vn(v) => out.push(__rt::Unknown::tagged(at, #union_name, #tag, v, #method)),
                    }
                }
                _ if walks(cx.module, &v.ty) => {
                    any = true;
                    quote! { #name::#vn(v) => __rt::Unknowns::collect_unknowns(v, at, out), }
                }
                _ => quote! { #name::#vn(_) => {} },
            }
        })
        .collect();
    let collect = if any {
        quote! {
            fn collect_unknowns(&self, at: &mut __rt::JsonPath, out: &mut Vec<__rt::Unknown>) {
                match self {
                    #( #arms )*
                }
            }
        }
    } else {
        quote! {
            fn collect_unknowns(&self, _: &mut __rt::JsonPath, _: &mut Vec<__rt::Unknown>) {}
        }
    };
    let chosen = u.variants.iter().map(|v| {
        let vn = ident(&v.rust_name);
        match cx.module.resolve(&v.ty) {
            TypeRef::Named(n) => match cx.module.get(n).map(|t| &t.kind) {
                Some(TypeKind::Union(_)) => quote! { #name::#vn(v) => __rt::Unknowns::chosen(v), },
                _ => quote! { #name::#vn(_) => Some(#n), },
            },
            _ => {
                let label = &v.rust_name;
                quote! { #name::#vn(_) => Some(#label), }
            }
        }
    });
    quote! {
        impl __rt::Unknowns for #name {
            #collect
            fn chosen(&self) -> Option<&'static str> {
                match self {
                    #( #chosen )*
                }
            }
        }
    }
}

/// For string enums: nothing to report.
pub(super) fn empty(cx: &Cx) -> TokenStream {
    let name = cx.name();
    quote! {
        impl __rt::Unknowns for #name {
            fn collect_unknowns(&self, _: &mut __rt::JsonPath, _: &mut Vec<__rt::Unknown>) {}
        }
    }
}
