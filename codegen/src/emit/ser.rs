//! `Serialize` impls.
//!
//! Objects write their constants first (`jsonrpc`, `method`, `type`…), then optional
//! constants (`mode`), then fields in schema order, then the kept unknown members. Putting
//! the discriminators first lets every decoder, ours included, pick a union variant without
//! buffering.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Cx, ident};
use crate::ir::{ConstValue, Extra, Field, Struct, Union};

pub(super) fn struct_serialize(cx: &Cx, s: &Struct) -> TokenStream {
    let name = cx.name();
    let consts = s.consts.iter().map(|c| {
        let k = &c.json_name;
        match &c.value {
            ConstValue::Str(v) => quote! { __m.serialize_entry(#k, #v)?; },
            ConstValue::Int(v) => quote! { __m.serialize_entry(#k, &#v)?; },
        }
    });
    let ordered: Vec<&Field> = s
        .fields
        .iter()
        .filter(|f| f.optional_const.is_some())
        .chain(s.fields.iter().filter(|f| f.optional_const.is_none()))
        .collect();
    let fields = ordered.iter().map(|f| {
        let k = &f.json_name;
        let i = ident(&f.rust_name);
        if f.required {
            quote! { __m.serialize_entry(#k, &self.#i)?; }
        } else {
            quote! { if let Some(v) = &self.#i { __m.serialize_entry(#k, v)?; } }
        }
    });
    let x = ident(&s.extra_name);
    let extra = match &s.extra {
        Extra::Any => quote! { __rt::serialize_extra_value(&mut __m, &self.#x)?; },
        Extra::Typed(_) => quote! { __rt::serialize_extra(&mut __m, &self.#x)?; },
        Extra::Deny => TokenStream::new(),
    };
    quote! {
        impl __rt::serde::Serialize for #name {
            fn serialize<S: __rt::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use __rt::serde::ser::SerializeMap as _;
                let mut __m = s.serialize_map(None)?;
                #( #consts )*
                #( #fields )*
                #extra
                __m.end()
            }
        }
    }
}

pub(super) fn union_serialize(cx: &Cx, u: &Union) -> TokenStream {
    let name = cx.name();
    let arms = u.variants.iter().map(|v| {
        let vn = ident(&v.rust_name);
        quote! { #name::#vn(v) => __rt::serde::Serialize::serialize(v, s), }
    });
    quote! {
        impl __rt::serde::Serialize for #name {
            fn serialize<S: __rt::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    #( #arms )*
                }
            }
        }
    }
}
