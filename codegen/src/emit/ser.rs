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
        let k = plain(&c.json_name);
        match &c.value {
            ConstValue::Str(v) => {
                let v = plain(v);
                quote! { __m.serialize_entry(#k, #v)?; }
            }
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
        let k = plain(&f.json_name);
        let i = ident(&f.rust_name);
        if f.required {
            quote! { __m.serialize_entry(#k, &self.#i)?; }
        } else {
            quote! { __rt::serialize_some(&mut __m, #k, &self.#i)?; }
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
            fn serialize<S: __rt::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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

/// A member name or string constant as the generated code writes it: `&__rt::Plain("k")`
/// when the string needs no JSON escape (every name and constant of the MCP schemas; the
/// runtime's writer then copies it without scanning it), else the string.
fn plain(s: &str) -> TokenStream {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        quote!(&__rt::Plain(#s))
    } else {
        quote!(#s)
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
            fn serialize<S: __rt::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    #( #arms )*
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

    /// Names and constants that need no escape are written through `Plain` (copied unscanned
    /// by the runtime's writer); one that needs an escape stays a string, escaped when written.
    #[test]
    fn only_strings_without_escapes_are_plain() {
        assert_eq!(
            plain("inputSchema").to_string(),
            r#"& __rt :: Plain ("inputSchema")"#
        );
        assert_eq!(
            plain("notifications/é").to_string(),
            r#"& __rt :: Plain ("notifications/é")"#
        );
        for needs_escape in ["a\"b", "a\\b", "tab\t", "\u{1f}"] {
            assert!(
                !plain(needs_escape).to_string().contains("Plain"),
                "{needs_escape:?}"
            );
        }
    }
}
