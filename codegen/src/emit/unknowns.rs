//! `impl Unknowns` for every struct, union and string enum: the walk that reports what a
//! decoded value holds beyond its revision (undeclared members, catch-all variants), over the
//! members and variants the IR chose ([`Walk`](crate::ir::unknowns::Walk)), and for a union
//! what `Unknowns::chosen` names.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Cx, ident};
use crate::ir::union::{OPEN_TAGS, ObjectPlan};
use crate::ir::unknowns::{Chosen, ExtraWalk};
use crate::ir::{Struct, Union};

pub(super) fn for_struct(cx: &Cx, s: &Struct) -> TokenStream {
    let name = cx.name();
    let walk = &cx.ty.walk;
    let fields = walk.fields.iter().map(|&i| {
        let f = &s.fields[i];
        let field = ident(&f.rust_name);
        let k = &f.json_name;
        quote! { __rt::member_unknowns(#k, &self.#field, at, out); }
    });
    let x = ident(&s.extra_name);
    let extra = match walk.extra {
        ExtraWalk::Skip => TokenStream::new(),
        ExtraWalk::Report => quote! { __rt::unknown_value_members(&self.#x, at, out); },
        ExtraWalk::Walk => quote! { __rt::Unknowns::collect_unknowns(&self.#x, at, out); },
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
                _ if cx.ty.walk.variants.contains(&i) => {
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
    let chosen = u.variants.iter().zip(&cx.ty.walk.chosen).map(|(v, c)| {
        let vn = ident(&v.rust_name);
        match c {
            Chosen::Inner => quote! { #name::#vn(v) => __rt::Unknowns::chosen(v), },
            Chosen::Type(t) => quote! { #name::#vn(_) => Some(#t), },
            Chosen::Variant => {
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
