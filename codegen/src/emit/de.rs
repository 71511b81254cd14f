//! `Deserialize` impls and the decoding machinery in the `__de` module.
//!
//! In `__de`, the builder of struct `X` is called `X` too, and the helpers of union `U` are
//! `U` (its visitor), `U__Tag` (the builder a tag value selects) and `U__MergedN` (a buffer for
//! members told apart by shape). Types of the parent module are named `super::X`.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Cx, ident};
use crate::ir::union::{Group, Kind, Merged, ObjectPlan, Plan, Tagged, kinds};
use crate::ir::{ConstValue, Extra, Module, Struct, TypeRef, Union};

/// A type as named from inside `__de`.
pub(super) fn de_type(ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::Named(n) => {
            let i = ident(n);
            quote!(super::#i)
        }
        TypeRef::Array(t) => {
            let t = de_type(t);
            quote!(Vec<#t>)
        }
        TypeRef::Map(t) => {
            let t = de_type(t);
            quote!(__rt::IndexMap<String, #t>)
        }
        TypeRef::Nullable(t) => {
            let t = de_type(t);
            quote!(Option<#t>)
        }
        other => super::type_tokens(other),
    }
}

fn slot_name(rust_name: &str) -> proc_macro2::Ident {
    format_ident!("f_{}", rust_name.trim_start_matches("r#"))
}

/// The builder of a struct.
pub(super) fn struct_builder(cx: &Cx, s: &Struct) -> TokenStream {
    let name = cx.name();
    let slot_decls = s.fields.iter().map(|f| {
        let n = slot_name(&f.rust_name);
        let t = de_type(&f.ty);
        quote! { #n: Option<#t>, }
    });
    let const_decls = (0..s.consts.len()).map(|i| {
        let n = format_ident!("c_{i}");
        quote! { #n: bool, }
    });
    let extra_decl = match &s.extra {
        Extra::Any => quote! { extra: __rt::Map<String, __rt::Value>, },
        Extra::Typed(t) => {
            let t = de_type(t);
            quote! { extra: __rt::IndexMap<String, #t>, }
        }
        Extra::Deny => TokenStream::new(),
    };
    let const_arms = s.consts.iter().enumerate().map(|(i, c)| {
        let n = format_ident!("c_{i}");
        let k = &c.json_name;
        match &c.value {
            ConstValue::Str(v) => quote! { #k => __rt::const_str(&mut self.#n, #k, #v, value), },
            ConstValue::Int(v) => quote! { #k => __rt::const_int(&mut self.#n, #k, #v, value), },
        }
    });
    let field_arms = s.fields.iter().map(|f| {
        let n = slot_name(&f.rust_name);
        let k = &f.json_name;
        quote! { #k => __rt::set(&mut self.#n, #k, value), }
    });
    let unknown = match &s.extra {
        Extra::Any => quote! { _ => __rt::set_extra_value(&mut self.extra, key, value), },
        Extra::Typed(_) => quote! { _ => __rt::set_extra(&mut self.extra, key, value), },
        Extra::Deny => {
            let names: Vec<&str> = s.declared().collect();
            quote! { _ => __rt::deny_unknown(key, value, &[#( #names ),*]), }
        }
    };
    let mut presence = Vec::new();
    for (i, c) in s.consts.iter().enumerate() {
        let n = format_ident!("c_{i}");
        let k = &c.json_name;
        presence.push(quote! { (#k, !self.#n) });
    }
    for f in s.fields.iter().filter(|f| f.required) {
        let n = slot_name(&f.rust_name);
        let k = &f.json_name;
        presence.push(quote! { (#k, self.#n.is_none()) });
    }
    let const_checks = if presence.is_empty() {
        TokenStream::new()
    } else {
        quote! { __rt::check_required::<E>(&[#( #presence ),*])?; }
    };
    let inits = s.fields.iter().map(|f| {
        let field = ident(&f.rust_name);
        let n = slot_name(&f.rust_name);
        let k = &f.json_name;
        if f.required {
            quote! { #field: __rt::required(self.#n, #k)?, }
        } else if f.null_is_absent {
            quote! { #field: self.#n.flatten(), }
        } else {
            quote! { #field: self.#n, }
        }
    });
    let field_str = struct_field_str(cx, s);
    let extra_init = match &s.extra {
        Extra::Deny => TokenStream::new(),
        _ => {
            let x = ident(&s.extra_name);
            quote! { #x: self.extra, }
        }
    };
    quote! {
        #[derive(Default)]
        pub struct #name {
            #( #slot_decls )*
            #( #const_decls )*
            #extra_decl
        }

        impl<'de> __rt::ObjectBuilder<'de> for #name {
            type Output = super::#name;

            fn field<D: __rt::serde::Deserializer<'de>>(&mut self, key: __rt::Key<'de>, value: D) -> ::core::result::Result<(), D::Error> {
                match &*key {
                    #( #const_arms )*
                    #( #field_arms )*
                    #unknown
                }
            }

            #field_str

            fn finish<E: __rt::serde::de::Error>(self) -> ::core::result::Result<super::#name, E> {
                #const_checks
                Ok(super::#name {
                    #( #inits )*
                    #extra_init
                })
            }
        }
    }
}

/// The struct builders that are handed string members read already
/// (`ObjectBuilder::field_str`), and which members: the tag of a tagged union's member (or a
/// method set's `method`), every member of a struct a merged union buffers first. Only these
/// get a `field_str` of their own; the others are never handed one.
pub(crate) struct StringFed<'m> {
    by_struct: HashMap<&'m str, Fed<'m>>,
}

enum Fed<'m> {
    /// Only these members (tags).
    Keys(BTreeSet<&'m str>),
    /// Any member.
    All,
}

impl<'m> StringFed<'m> {
    pub(crate) fn index(module: &'m Module) -> Self {
        let mut by_struct: HashMap<&'m str, Fed<'m>> = HashMap::new();
        let all = |by_struct: &mut HashMap<&'m str, Fed<'m>>, u: &'m Union, m: &'m Merged| {
            for &i in &m.members {
                if let Some(n) = struct_name(module, &u.variants[i].ty) {
                    by_struct.insert(n, Fed::All);
                }
            }
        };
        for t in &module.types {
            let crate::ir::TypeKind::Union(u) = &t.kind else {
                continue;
            };
            match &u.plan.object {
                ObjectPlan::Merged(m) => all(&mut by_struct, u, m),
                ObjectPlan::Tagged(tagged) => {
                    for g in tagged.arms.iter().map(|(_, g)| g).chain(&tagged.absent) {
                        match g {
                            Group::Merged(m) => all(&mut by_struct, u, m),
                            Group::Single(i) => {
                                let Some(n) = struct_name(module, &u.variants[*i].ty) else {
                                    continue;
                                };
                                let fed = by_struct.entry(n).or_insert(Fed::Keys(BTreeSet::new()));
                                if let Fed::Keys(keys) = fed {
                                    keys.insert(&tagged.tag);
                                }
                            }
                        }
                    }
                }
                ObjectPlan::None | ObjectPlan::Single(_) => {}
            }
        }
        StringFed { by_struct }
    }

    /// Which members struct `name` is handed as strings read already; `None` when none.
    fn members(&self, name: &str) -> Option<&Fed<'m>> {
        self.by_struct.get(name)
    }
}

impl Fed<'_> {
    fn takes(&self, key: &str) -> bool {
        match self {
            Fed::All => true,
            Fed::Keys(keys) => keys.contains(key),
        }
    }
}

/// A string member given already read (`ObjectBuilder::field_str`), for a builder that is
/// handed one ([`StringFed`]): a string constant is compared and a `String` member stored
/// without a deserializer; anything else goes through the member's JSON text, so that `field`
/// is only ever compiled for `serde_json`'s text.
fn struct_field_str(cx: &Cx, s: &Struct) -> TokenStream {
    let Some(fed) = cx.string_fed.members(&cx.ty.name) else {
        return TokenStream::new();
    };
    let takes = |k: &str| fed.takes(k);
    let via_text = quote!(__rt::feed_text(self, key, &__rt::string_text(value)));
    let mut arms = Vec::new();
    let mut other = Vec::new();
    for (i, c) in s.consts.iter().enumerate() {
        let n = format_ident!("c_{i}");
        let k = &c.json_name;
        match &c.value {
            ConstValue::Str(v) if takes(k) => {
                arms.push(quote! { #k => __rt::const_str_value(&mut self.#n, #k, #v, value), })
            }
            _ => other.push(k),
        }
    }
    for f in &s.fields {
        let k = &f.json_name;
        if takes(k) && matches!(cx.module.resolve(&f.ty), TypeRef::String) {
            let n = slot_name(&f.rust_name);
            arms.push(quote! { #k => __rt::set_str(&mut self.#n, #k, value), });
        } else {
            other.push(k);
        }
    }
    let rest = match &s.extra {
        Extra::Any if matches!(fed, Fed::All) => {
            let declared = if other.is_empty() {
                TokenStream::new()
            } else {
                quote! { #( #other )|* => #via_text, }
            };
            quote! {
                #declared
                _ => __rt::set_extra_str(&mut self.extra, key, value),
            }
        }
        _ => quote! { _ => #via_text, },
    };
    quote! {
        fn field_str<E: __rt::serde::de::Error>(&mut self, key: __rt::Key<'de>, value: &str) -> ::core::result::Result<(), E> {
            match &*key {
                #( #arms )*
                #rest
            }
        }
    }
}

/// `impl Deserialize` of a union (in the parent module).
pub(super) fn union_deserialize(cx: &Cx, u: &Union) -> TokenStream {
    let name = cx.name();
    let plan = &u.plan;
    let only_objects = plan.scalars.is_empty() && plan.arrays.is_empty();
    let entry = if only_objects {
        quote!(deserialize_map)
    } else {
        quote!(deserialize_any)
    };
    quote! {
        impl<'de> __rt::serde::Deserialize<'de> for #name {
            fn deserialize<D: __rt::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                d.#entry(__de::#name)
            }
        }
    }
}

/// The visitor, tag builder and merged builders of a union (in `__de`).
pub(super) fn union_machinery(cx: &Cx, u: &Union) -> TokenStream {
    let name = cx.name();
    let plan = &u.plan;
    let expecting = expecting(cx, plan);
    let mut out = TokenStream::new();
    let variant = |i: usize| {
        let v = ident(&u.variants[i].rust_name);
        quote!(super::#name::#v)
    };
    let mut methods = TokenStream::new();
    for (kind, &i) in &plan.scalars {
        let t = de_type(&u.variants[i].ty);
        let v = variant(i);
        let de = |value: TokenStream| {
            quote! {
                <#t as __rt::serde::Deserialize<'de>>::deserialize(
                    __rt::serde::de::IntoDeserializer::<'de, E>::into_deserializer(#value)
                ).map(#v)
            }
        };
        methods.extend(match kind {
            Kind::Null => {
                let body = de(quote!(()));
                quote! {
                    fn visit_unit<E: __rt::serde::de::Error>(self) -> ::core::result::Result<Self::Value, E> { #body }
                    fn visit_none<E: __rt::serde::de::Error>(self) -> ::core::result::Result<Self::Value, E> { #body }
                }
            }
            Kind::Boolean => {
                let body = de(quote!(v));
                quote! { fn visit_bool<E: __rt::serde::de::Error>(self, v: bool) -> ::core::result::Result<Self::Value, E> { #body } }
            }
            Kind::Integer => {
                let body = de(quote!(v));
                quote! {
                    fn visit_i64<E: __rt::serde::de::Error>(self, v: i64) -> ::core::result::Result<Self::Value, E> { #body }
                    fn visit_u64<E: __rt::serde::de::Error>(self, v: u64) -> ::core::result::Result<Self::Value, E> { #body }
                }
            }
            Kind::Number => {
                let body = de(quote!(v));
                quote! { fn visit_f64<E: __rt::serde::de::Error>(self, v: f64) -> ::core::result::Result<Self::Value, E> { #body } }
            }
            Kind::String => {
                let body = de(quote!(v));
                quote! { fn visit_str<E: __rt::serde::de::Error>(self, v: &str) -> ::core::result::Result<Self::Value, E> { #body } }
            }
            Kind::Array => quote! {
                fn visit_seq<A: __rt::serde::de::SeqAccess<'de>>(self, seq: A) -> ::core::result::Result<Self::Value, A::Error> {
                    <#t as __rt::serde::Deserialize<'de>>::deserialize(
                        __rt::serde::de::value::SeqAccessDeserializer::new(seq)
                    ).map(#v)
                }
            },
            Kind::Object => TokenStream::new(),
        });
    }
    if !plan.arrays.is_empty() {
        // Several array members: buffer the elements, then pick the member whose item type
        // fits the first element (an empty array goes to the first member).
        let picks = plan.arrays.iter().map(|&i| {
            let v = variant(i);
            let t = de_type(&u.variants[i].ty);
            let item = match cx.module.resolve(&u.variants[i].ty) {
                TypeRef::Array(item) => (**item).clone(),
                other => other.clone(),
            };
            let check = shape_check(cx.module, &item, None);
            quote! {
                if items.first().is_none_or(|v| #check) {
                    return __rt::from_value::<#t, A::Error>(__rt::Value::Array(items)).map(#v);
                }
            }
        });
        let msg = format!("no array member of {} fits these elements", cx.ty.name);
        methods.extend(quote! {
            fn visit_seq<A: __rt::serde::de::SeqAccess<'de>>(self, seq: A) -> ::core::result::Result<Self::Value, A::Error> {
                let items = <Vec<__rt::Value> as __rt::serde::Deserialize<'de>>::deserialize(
                    __rt::serde::de::value::SeqAccessDeserializer::new(seq)
                )?;
                #( #picks )*
                Err(<A::Error as __rt::serde::de::Error>::custom(#msg))
            }
        });
    }
    let map_body = match &plan.object {
        ObjectPlan::None => None,
        ObjectPlan::Single(i) => Some(single_object(cx.module, u, *i, &variant(*i))),
        ObjectPlan::Tagged(t) => {
            out.extend(tagged(cx, u, t));
            Some(quote! { __rt::visit_tagged::<super::#name, A>(map) })
        }
        ObjectPlan::Merged(m) => {
            out.extend(merged(cx, u, m));
            let b = format_ident!("{}__Merged{}", cx.ty.name, m.id);
            Some(quote! { __rt::drain_map(#b::default(), map) })
        }
    };
    if let Some(body) = map_body {
        methods.extend(quote! {
            fn visit_map<A: __rt::serde::de::MapAccess<'de>>(self, map: A) -> ::core::result::Result<Self::Value, A::Error> {
                #body
            }
        });
    }
    out.extend(quote! {
        pub struct #name;

        impl<'de> __rt::serde::de::Visitor<'de> for #name {
            type Value = super::#name;

            fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(#expecting)
            }

            #methods
        }
    });
    out
}

fn expecting(cx: &Cx, plan: &Plan) -> String {
    let what = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    let mut kinds: Vec<String> = plan
        .scalars
        .keys()
        .map(|k| format!("{k:?}").to_lowercase())
        .collect();
    if !matches!(plan.object, ObjectPlan::None) {
        kinds.push("object".to_owned());
    }
    format!("a {what} ({})", kinds.join(" or "))
}

/// `visit_map` body for a union with one object member.
fn single_object(module: &Module, u: &Union, i: usize, variant: &TokenStream) -> TokenStream {
    let ty = &u.variants[i].ty;
    match (module.as_struct(ty), module.resolve(ty)) {
        (Some(_), TypeRef::Named(n)) => {
            let b = ident(n);
            quote! { __rt::drain_map(#b::default(), map).map(#variant) }
        }
        _ => {
            let t = de_type(ty);
            quote! {
                <#t as __rt::serde::Deserialize<'de>>::deserialize(
                    __rt::serde::de::value::MapAccessDeserializer::new(map)
                ).map(#variant)
            }
        }
    }
}

/// The struct type name a member resolves to (for its builder).
fn struct_name<'m>(module: &'m Module, ty: &'m TypeRef) -> Option<&'m str> {
    module.as_struct(ty)?;
    match module.resolve(ty) {
        TypeRef::Named(n) => Some(n),
        _ => None,
    }
}

fn tagged(cx: &Cx, u: &Union, t: &Tagged) -> TokenStream {
    let module = cx.module;
    let name = cx.name();
    let tag_builder = format_ident!("{}__Tag", cx.ty.name);
    let mut out = TokenStream::new();
    // Distinct groups, in order of first appearance.
    let mut groups: Vec<&Group> = Vec::new();
    for g in t.arms.iter().map(|(_, g)| g).chain(t.absent.iter()) {
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    let gid = |g: &Group| groups.iter().position(|x| *x == g).unwrap_or(0);
    let mut arms = Vec::new();
    let mut field_arms = Vec::new();
    let mut str_arms = Vec::new();
    let mut finish_arms = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let arm = format_ident!("G{k}");
        match g {
            Group::Single(i) => {
                let Some(sn) = struct_name(module, &u.variants[*i].ty) else {
                    continue;
                };
                let b = ident(sn);
                let v = ident(&u.variants[*i].rust_name);
                arms.push(quote! { #arm(#b), });
                finish_arms.push(quote! { #tag_builder::#arm(b) => __rt::ObjectBuilder::<'de>::finish(b).map(super::#name::#v), });
            }
            Group::Merged(m) => {
                out.extend(merged(cx, u, m));
                let b = format_ident!("{}__Merged{}", cx.ty.name, m.id);
                arms.push(quote! { #arm(#b), });
                finish_arms.push(
                    quote! { #tag_builder::#arm(b) => __rt::ObjectBuilder::<'de>::finish(b), },
                );
            }
        }
        field_arms.push(
            quote! { #tag_builder::#arm(b) => __rt::ObjectBuilder::<'de>::field(b, key, value), },
        );
        str_arms.push(quote! { #tag_builder::#arm(b) => b.field_str(key, value), });
    }
    // The catch-all: a tag value no member has keeps the object whole.
    let catch_all = ident(&u.variants[t.unknown].rust_name);
    arms.push(quote! { CatchAll(__rt::MapBuilder), });
    field_arms.push(
        quote! { #tag_builder::CatchAll(b) => __rt::ObjectBuilder::<'de>::field(b, key, value), },
    );
    str_arms.push(quote! { #tag_builder::CatchAll(b) => b.field_str(key, value), });
    finish_arms.push(quote! { #tag_builder::CatchAll(b) => __rt::ObjectBuilder::<'de>::finish(b).map(super::#name::#catch_all), });
    let value_arms = t.arms.iter().map(|(value, g)| {
        let arm = format_ident!("G{}", gid(g));
        quote! { Some(#value) => Ok(#tag_builder::#arm(Default::default())), }
    });
    let tag = &t.tag;
    let union_name = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    let values: Vec<&str> = t.arms.iter().map(|(v, _)| v.as_str()).collect();
    let unknown_arm = quote! { Some(_) => Ok(#tag_builder::CatchAll(Default::default())), };
    let absent_arm = match &t.absent {
        Some(g) => {
            let arm = format_ident!("G{}", gid(g));
            quote! { None => Ok(#tag_builder::#arm(Default::default())), }
        }
        None => {
            quote! { None => Err(__rt::missing_tag(#union_name, #tag, &[#( #values ),*])), }
        }
    };
    let expecting = format!("a {union_name} object");
    out.extend(quote! {
        pub enum #tag_builder {
            #( #arms )*
        }

        impl<'de> __rt::ObjectBuilder<'de> for #tag_builder {
            type Output = super::#name;

            fn field<D: __rt::serde::Deserializer<'de>>(&mut self, key: __rt::Key<'de>, value: D) -> ::core::result::Result<(), D::Error> {
                match self {
                    #( #field_arms )*
                }
            }

            fn field_str<E: __rt::serde::de::Error>(&mut self, key: __rt::Key<'de>, value: &str) -> ::core::result::Result<(), E> {
                match self {
                    #( #str_arms )*
                }
            }

            fn finish<E: __rt::serde::de::Error>(self) -> ::core::result::Result<super::#name, E> {
                match self {
                    #( #finish_arms )*
                }
            }
        }

        impl<'de> __rt::TaggedUnion<'de> for super::#name {
            type Builder = #tag_builder;
            const TAG: &'static str = #tag;
            const EXPECTING: &'static str = #expecting;

            fn builder_for(tag: Option<&str>) -> ::core::result::Result<#tag_builder, String> {
                match tag {
                    #( #value_arms )*
                    #unknown_arm
                    #absent_arm
                }
            }
        }
    });
    out
}

/// A merged builder: buffers the members' properties, then picks the member by shape.
fn merged(cx: &Cx, u: &Union, m: &Merged) -> TokenStream {
    let module = cx.module;
    let name = cx.name();
    let b = format_ident!("{}__Merged{}", cx.ty.name, m.id);
    let slot = |j: usize| format_ident!("s{j}");
    let decls = m.slots.iter().enumerate().map(|(j, s)| {
        let n = slot(j);
        let t = match &s.typed {
            Some(t) => {
                let t = de_type(t);
                quote!(__rt::Slot<#t>)
            }
            None => quote!(__rt::Value),
        };
        quote! { #n: Option<#t>, }
    });
    let arms = m.slots.iter().enumerate().map(|(j, s)| {
        let n = slot(j);
        let k = &s.json_name;
        match &s.typed {
            Some(t) => {
                let kinds = kinds(module, t).into_iter().map(|k| {
                    let k = format_ident!("{k:?}");
                    quote!(__rt::Kind::#k)
                });
                quote! { #k => __rt::set_kinded(&mut self.#n, #k, &[#( #kinds ),*], value), }
            }
            None => quote! { #k => __rt::set(&mut self.#n, #k, value), },
        }
    });
    let mut score_fns = Vec::new();
    let mut build_fns = Vec::new();
    let mut scores = Vec::new();
    let mut picks = Vec::new();
    let mut described = Vec::new();
    for (pos, &i) in m.members.iter().enumerate() {
        let Some(sname) = struct_name(module, &u.variants[i].ty) else {
            continue;
        };
        let Some(st) = module.as_struct(&u.variants[i].ty) else {
            continue;
        };
        let score_fn = format_ident!("score{pos}");
        let build_fn = format_ident!("build{pos}");
        described.push(format!(
            "{} (with {})",
            u.variants[i].rust_name,
            st.required().collect::<Vec<_>>().join(", ")
        ));
        let mut checks = Vec::new();
        let mut moves = Vec::new();
        for (j, s) in m.slots.iter().enumerate() {
            let n = slot(j);
            let k = &s.json_name;
            if let Some(c) = st.const_field(k) {
                let eq = const_eq(quote!(v), &c.value);
                checks.push(quote! {
                    match &self.#n {
                        Some(v) if #eq => { consts += 1; required += 1; declared += 1; }
                        Some(_) => return None,
                        None => complete = false,
                    }
                });
                moves.push(quote! {
                    if let Some(v) = self.#n {
                        __rt::feed_value::<_, E>(&mut b, __rt::Key(::std::borrow::Cow::Borrowed(#k)), v)?;
                    }
                });
            } else if let Some(f) = st.field(k) {
                let req = f.required;
                let count_req = if req {
                    quote!(required += 1;)
                } else {
                    TokenStream::new()
                };
                let absent = if req {
                    quote!(complete = false;)
                } else {
                    TokenStream::new()
                };
                if s.typed.is_some() {
                    checks.push(quote! {
                        match &self.#n {
                            Some(__rt::Slot::Typed(_)) => { declared += 1; #count_req }
                            // Another JSON kind than this member declares.
                            Some(__rt::Slot::Raw(_)) => return None,
                            None => { #absent }
                        }
                    });
                    let fname = slot_name(&f.rust_name);
                    moves.push(quote! {
                        match self.#n {
                            Some(__rt::Slot::Typed(t)) => b.#fname = Some(t),
                            Some(__rt::Slot::Raw(v)) => {
                                __rt::feed_value::<_, E>(&mut b, __rt::Key(::std::borrow::Cow::Borrowed(#k)), v)?;
                            }
                            None => {}
                        }
                    });
                } else {
                    let shape = shape_check(module, &f.ty, f.optional_const.as_deref());
                    checks.push(quote! {
                        match &self.#n {
                            Some(v) => { if !(#shape) { return None; } declared += 1; #count_req }
                            None => { #absent }
                        }
                    });
                    moves.push(quote! {
                        if let Some(v) = self.#n {
                            __rt::feed_value::<_, E>(&mut b, __rt::Key(::std::borrow::Cow::Borrowed(#k)), v)?;
                        }
                    });
                }
            } else {
                if matches!(st.extra, Extra::Deny) {
                    checks.push(quote! { if self.#n.is_some() { return None; } });
                }
                let value = if s.typed.is_some() {
                    quote!(__rt::slot_value::<_, E>(v)?)
                } else {
                    quote!(v)
                };
                moves.push(quote! {
                    if let Some(v) = self.#n {
                        __rt::feed_value::<_, E>(&mut b, __rt::Key(::std::borrow::Cow::Borrowed(#k)), #value)?;
                    }
                });
            }
        }
        if matches!(st.extra, Extra::Deny) {
            checks.push(quote! { if !self.rest.is_empty() { return None; } });
        }
        let builder = ident(sname);
        let v = ident(&u.variants[i].rust_name);
        score_fns.push(quote! {
            /// `None` when the object cannot be this member (a constant or a JSON kind
            /// differs); else whether every required property is present, how many
            /// constants matched, how many required properties are present, and how many
            /// present properties the member declares.
            #[allow(unused_mut, unused_variables)]
            fn #score_fn(&self) -> Option<(bool, u32, u32, u32)> {
                let mut complete = true;
                let mut consts = 0u32;
                let mut required = 0u32;
                let mut declared = 0u32;
                #( #checks )*
                Some((complete, consts, required, declared))
            }
        });
        build_fns.push(quote! {
            fn #build_fn<E: __rt::serde::de::Error>(self) -> ::core::result::Result<super::#name, E> {
                let mut b = #builder::default();
                #( #moves )*
                for (k, v) in self.rest {
                    __rt::feed_value::<_, E>(&mut b, __rt::Key(::std::borrow::Cow::Owned(k)), v)?;
                }
                __rt::ObjectBuilder::<'static>::finish(b).map(super::#name::#v)
            }
        });
        scores.push(quote!(self.#score_fn()));
        let vname = sname;
        picks.push(quote! {
            Some((#pos, true)) => self.#build_fn::<E>(),
            // The closest member lacks required properties: its builder names them all.
            Some((#pos, false)) => self.#build_fn::<E>().map_err(|e| E::custom(format_args!("{} (closest: {})", e, #vname))),
        });
    }
    let union_name = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    // Constants every member requires with the same value (`jsonrpc`): a wrong value is
    // reported as such, not as "no member matches".
    let member_structs: Vec<&crate::ir::Struct> = m
        .members
        .iter()
        .filter_map(|&i| module.as_struct(&u.variants[i].ty))
        .collect();
    let common_consts = m.slots.iter().enumerate().filter_map(|(j, s)| {
        let first = member_structs.first()?.const_field(&s.json_name)?;
        if m.fallback.is_some()
            || !member_structs.iter().all(|st| st.const_field(&s.json_name) == Some(first))
        {
            return None;
        }
        let n = slot(j);
        let k = &s.json_name;
        let eq = const_eq(quote!(v), &first.value);
        let expected = match &first.value {
            ConstValue::Str(v) => format!("{v:?}"),
            ConstValue::Int(i) => i.to_string(),
        };
        Some(quote! {
            if let Some(v) = &self.#n {
                if !(#eq) {
                    return Err(E::custom(format_args!("invalid value for `{}`: expected {}, found {}", #k, #expected, v)));
                }
            }
        })
    });
    let common_consts = quote! { #( #common_consts )* };
    let none = match m.fallback {
        Some(i) => {
            let v = ident(&u.variants[i].rust_name);
            let t = de_type(&u.variants[i].ty);
            let collect = m.slots.iter().enumerate().map(|(j, s)| {
                let n = slot(j);
                let k = &s.json_name;
                if s.typed.is_some() {
                    quote! { if let Some(v) = self.#n { all.insert(#k.to_owned(), __rt::slot_value::<_, E>(v)?); } }
                } else {
                    quote! { if let Some(v) = self.#n { all.insert(#k.to_owned(), v); } }
                }
            });
            quote! {
                _ => {
                    let mut all = __rt::Map::new();
                    #( #collect )*
                    all.extend(self.rest);
                    __rt::from_value::<#t, E>(__rt::Value::Object(all)).map(super::#name::#v)
                }
            }
        }
        None => {
            let msg = format!(
                "no member of {union_name} matches this object; expected one of: {}",
                described.join("; ")
            );
            quote! { _ => Err(E::custom(#msg)), }
        }
    };
    quote! {
        #[derive(Default)]
        pub struct #b {
            #( #decls )*
            rest: __rt::Map<String, __rt::Value>,
        }

        impl #b {
            #( #score_fns )*
            #( #build_fns )*
        }

        impl<'de> __rt::ObjectBuilder<'de> for #b {
            type Output = super::#name;

            fn field<D: __rt::serde::Deserializer<'de>>(&mut self, key: __rt::Key<'de>, value: D) -> ::core::result::Result<(), D::Error> {
                match &*key {
                    #( #arms )*
                    _ => __rt::set_extra_value(&mut self.rest, key, value),
                }
            }

            fn field_str<E: __rt::serde::de::Error>(&mut self, key: __rt::Key<'de>, value: &str) -> ::core::result::Result<(), E> {
                __rt::feed_text(self, key, &__rt::string_text(value))
            }

            fn finish<E: __rt::serde::de::Error>(self) -> ::core::result::Result<super::#name, E> {
                #common_consts
                let mut best: Option<(usize, (bool, u32, u32, u32))> = None;
                for (i, score) in [#( #scores ),*].into_iter().enumerate() {
                    if let Some(s) = score {
                        if best.is_none_or(|(_, b)| s > b) {
                            best = Some((i, s));
                        }
                    }
                }
                match best.map(|(i, s)| (i, s.0)) {
                    #( #picks )*
                    #none
                }
            }
        }
    }
}

pub(super) fn const_eq(v: TokenStream, c: &ConstValue) -> TokenStream {
    match c {
        ConstValue::Str(s) => quote!(#v.as_str() == Some(#s)),
        ConstValue::Int(i) => quote!(#v.as_i64() == Some(#i)),
    }
}

/// A boolean expression over `v: &Value` that is false when the value cannot be of `ty`:
/// its JSON kind, and for objects the required keys and constants one level down.
pub(super) fn shape_check(
    module: &Module,
    ty: &TypeRef,
    optional_const: Option<&str>,
) -> TokenStream {
    if let Some(c) = optional_const {
        return quote!(v.as_str() == Some(#c));
    }
    let ks = kinds(module, ty);
    if ks.len() == 7 {
        return quote!(true);
    }
    let kind_checks = ks.iter().map(|k| {
        let k = format_ident!("{k:?}");
        quote!(__rt::is_kind(v, __rt::Kind::#k))
    });
    let mut nested = Vec::new();
    let inner = match module.resolve(ty) {
        TypeRef::Nullable(t) => module.resolve(t),
        t => t,
    };
    if let TypeRef::Named(n) = inner
        && let Some(crate::ir::TypeKind::Union(un)) = module.get(n).map(|t| &t.kind)
    {
        let members: Vec<TokenStream> = un
            .variants
            .iter()
            .filter(|v| module.as_struct(&v.ty).is_some())
            .map(|v| struct_shape(module, &v.ty))
            .collect();
        if !members.is_empty() {
            nested.push(quote!((#( #members )||*)));
        }
    }
    if module.as_struct(inner).is_some() {
        nested.push(struct_shape(module, inner));
    }
    if nested.is_empty() {
        quote!(#( #kind_checks )||*)
    } else {
        quote!((#( #kind_checks )||*) && (!v.is_object() || (#( #nested )&&*)))
    }
}

/// Required keys and constants of a struct, checked one level down on `v`.
fn struct_shape(module: &Module, ty: &TypeRef) -> TokenStream {
    let mut nested = Vec::new();
    if let Some(st) = module.as_struct(ty) {
        let req: Vec<&str> = st
            .fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.json_name.as_str())
            .collect();
        if !req.is_empty() {
            nested.push(quote!(__rt::has_keys(Some(v), &[#( #req ),*])));
        }
        for c in &st.consts {
            let k = &c.json_name;
            let eq = const_eq(quote!(x), &c.value);
            nested.push(quote!(v.get(#k).is_some_and(|x| #eq)));
        }
    }
    if nested.is_empty() {
        quote!(true)
    } else {
        quote!((#( #nested )&&*))
    }
}
