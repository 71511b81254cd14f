//! The decoder on the runtime's pull parser (`__rt::pull`): per type, only what differs
//! between types — for objects a constant layout of the keys and of where each member goes in
//! the type itself (`pull::Layout`, made by `layout!`: the type is decoded in place); a value
//! table for string enums; the plan's dispatch for unions (a group decoded in one pass has a
//! slots struct of its own, `pull::Table` and `slot!`, and builds the variant it picks). The
//! loops (object, array, open JSON), the readers, each member type's decoder and the errors are
//! the runtime's, written once.
//!
//! Everything here goes in the hidden `__de` module, where the parent module's types are
//! `super::X`: an `impl Decode` per type, `impl InPlace` for object types (which makes them
//! `DecodeObject`: a union that read the tag continues the member's object from there),
//! `impl Methods` for the request and notification sets, and one function per union group
//! told apart by shape.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Cx, ident};
use crate::ir::union::{Group, Kind, Merged, ObjectPlan, Tagged, deferred_field, kinds};
use crate::ir::{ConstValue, Extra, Field, Module, Struct, TypeKind, TypeRef, Union};

/// `Decode` (and `DecodeObject`) for the type of `cx`.
pub(super) fn for_type(cx: &Cx) -> TokenStream {
    match &cx.ty.kind {
        TypeKind::Struct(s) => for_struct(cx, s),
        TypeKind::StringEnum(values) => {
            let name = cx.name();
            let strs = values.iter().map(|v| v.value.as_str());
            let expecting = expecting_object(cx).replace(" object", "");
            quote! {
                impl pull::Decode for super::#name {
                    fn decode(p: &mut Parser<'_>) -> pull::Result<Self> {
                        Ok(Self::ALL[pull::one_of(p, &[#( #strs ),*], #expecting)?])
                    }
                }
            }
        }
        TypeKind::Union(u) => for_union(cx, u),
        TypeKind::Alias(_) => TokenStream::new(),
    }
}

/// "a Tool object": the schema's name where there is one.
fn expecting_object(cx: &Cx) -> String {
    format!(
        "a {} object",
        cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name)
    )
}

/// An object type's layout (`pull::InPlace`: each field's kind, name and key, the constant
/// members, where the others go), which the runtime decodes in place. `layout!` checks at
/// compile time that the fields named are all of the type's, which makes the layout sound.
fn for_struct(cx: &Cx, s: &Struct) -> TokenStream {
    let name = cx.name();
    let expecting = expecting_object(cx);
    assert!(
        s.fields.len() + s.consts.len() <= 64,
        "{}: more than 64 declared members (the key table's masks are u64)",
        cx.ty.name
    );
    let slots = s.fields.iter().map(|f| {
        let n = ident(&f.rust_name);
        let k = &f.json_name;
        let kind = match (f.required, f.null_is_absent, f.boxed) {
            // An object type of this module: decoded where the field lies.
            (true, _, false) if cx.module.as_struct(&f.ty).is_some() => quote!(object),
            (true, _, false) => quote!(required),
            (true, _, true) => quote!(required_boxed),
            (false, true, false) => quote!(nullable),
            (false, false, false) => quote!(optional),
            (false, false, true) => quote!(optional_boxed),
            (false, true, true) => unreachable!(
                "{}.{}: a boxed member read as absent when null",
                cx.ty.name, f.rust_name
            ),
        };
        quote! { #kind(#n, #k) }
    });
    let consts = s.consts.iter().map(|c| {
        let k = &c.json_name;
        match &c.value {
            ConstValue::Str(v) => quote! { str(#k, #v) },
            ConstValue::Int(v) => quote! { int(#k, #v) },
        }
    });
    let x = ident(&s.extra_name);
    let rest = match &s.extra {
        Extra::Any => quote!(keep(#x)),
        Extra::Typed(_) => quote!(typed(#x)),
        Extra::Deny => quote!(deny()),
    };
    quote! {
        impl pull::InPlace for super::#name {
            const LAYOUT: pull::Layout<Self> = __rt::layout!(
                super::#name,
                #expecting,
                [#( #slots ),*],
                [#( #consts ),*],
                #rest,
            );
        }

    }
}

/// A struct's field `f` from its slot `slot` in the slots struct `s` (a group decoded in one
/// pass).
fn field_init(f: &Field, slot: &proc_macro2::Ident) -> TokenStream {
    let field = ident(&f.rust_name);
    let k = &f.json_name;
    if f.required {
        quote! { #field: pull::required(s.#slot, #k)?, }
    } else if f.null_is_absent {
        quote! { #field: s.#slot.flatten(), }
    } else {
        quote! { #field: s.#slot, }
    }
}

/// The name of the struct a variant's type resolves to, when it is one.
fn struct_name<'m>(module: &'m Module, ty: &'m TypeRef) -> Option<&'m str> {
    module.as_struct(ty)?;
    match module.resolve(ty) {
        TypeRef::Named(n) => Some(n),
        _ => None,
    }
}

/// The runtime's name of a JSON kind.
fn rt_kind(k: Kind) -> TokenStream {
    match k {
        Kind::Null => quote!(pull::Kind::Null),
        Kind::Boolean => quote!(pull::Kind::Bool),
        Kind::Integer | Kind::Number => quote!(pull::Kind::Number),
        Kind::String => quote!(pull::Kind::String),
        Kind::Array => quote!(pull::Kind::Array),
        Kind::Object => quote!(pull::Kind::Object),
    }
}

fn for_union(cx: &Cx, u: &Union) -> TokenStream {
    let name = cx.name();
    let plan = &u.plan;
    let union_name = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    let expecting = {
        let mut kinds: Vec<String> = plan
            .scalars
            .keys()
            .map(|k| format!("{k:?}").to_lowercase())
            .collect();
        if !matches!(plan.object, ObjectPlan::None) {
            kinds.push("object".to_owned());
        }
        format!("a {union_name} ({})", kinds.join(" or "))
    };
    let variant = |i: usize| {
        let v = ident(&u.variants[i].rust_name);
        quote!(super::#name::#v)
    };
    let decode_as = |i: usize, p: TokenStream| {
        let t = de_type(&u.variants[i].ty);
        let v = variant(i);
        quote! { <#t as pull::Decode>::decode(#p).map(#v) }
    };
    let mut arms = Vec::new();
    let mut helpers = TokenStream::new();
    for (kind, &i) in &plan.scalars {
        match kind {
            // Numbers: one arm for both kinds (below).
            Kind::Integer | Kind::Number => {}
            k => {
                let k = rt_kind(*k);
                let d = decode_as(i, quote!(p));
                arms.push(quote! { #k => #d, });
            }
        }
    }
    match (
        plan.scalars.get(&Kind::Integer),
        plan.scalars.get(&Kind::Number),
    ) {
        (Some(&i), Some(&j)) if i != j => {
            // An integer goes to the integer member, any other number to the number one
            // (as serde_json tells them apart: `1.0` is not an integer).
            let int = decode_as(i, quote!(p));
            let num = decode_as(j, quote!(p));
            arms.push(quote! {
                pull::Kind::Number => {
                    if pull::number(&mut p.at(p.mark()))?.is_f64() { #num } else { #int }
                }
            });
        }
        (Some(&i), _) | (None, Some(&i)) => {
            let d = decode_as(i, quote!(p));
            arms.push(quote! { pull::Kind::Number => #d, });
        }
        (None, None) => {}
    }
    if !plan.arrays.is_empty() {
        // Several array members: the first element's shape picks (an empty array goes to
        // the first member).
        let uses = Uses::default();
        let fits_each: Vec<TokenStream> = plan
            .arrays
            .iter()
            .map(|&i| {
                let item = match cx.module.resolve(&u.variants[i].ty) {
                    TypeRef::Array(item) => (**item).clone(),
                    other => other.clone(),
                };
                fits(cx.module, &item, None, &uses)
            })
            .collect();
        let imports = uses.imports(&[]);
        let picks = plan.arrays.iter().enumerate().map(|(k, &i)| {
            let d = decode_as(i, quote!(p));
            let k = proc_macro2::Literal::usize_unsuffixed(k);
            quote! { Some(#k) => #d, }
        });
        let msg = format!("no array member of {} fits these elements", cx.ty.name);
        arms.push(quote! {
            pull::Kind::Array => {
                use pull::{#imports};
                match pull::array_member(p, &[#( #fits_each ),*])? {
                    #( #picks )*
                    _ => Err(p.error(#msg)),
                }
            }
        });
    }
    match &plan.object {
        ObjectPlan::None => {}
        ObjectPlan::Single(i) => {
            let d = decode_as(*i, quote!(p));
            arms.push(quote! { pull::Kind::Object => #d, });
        }
        ObjectPlan::Tagged(t) => {
            let body = tagged(cx, u, t, &mut helpers);
            arms.push(quote! { pull::Kind::Object => #body, });
        }
        ObjectPlan::Merged(m) => {
            let f = merged(cx, u, m, &mut helpers);
            arms.push(quote! { pull::Kind::Object => #f(p, Start::Value), });
        }
    }
    quote! {
        impl pull::Decode for super::#name {
            fn decode(p: &mut Parser<'_>) -> pull::Result<Self> {
                match p.peek()? {
                    #( #arms )*
                    found => Err(p.wrong(#expecting, found)),
                }
            }
        }
        #helpers
    }
}

/// The decoding of a group a tag value selects, given `p` and `start` (after the tag, or on
/// the object's `{`).
fn group(cx: &Cx, u: &Union, g: &Group, helpers: &mut TokenStream) -> TokenStream {
    let name = cx.name();
    match g {
        Group::Single(i) => {
            let v = ident(&u.variants[*i].rust_name);
            match struct_name(cx.module, &u.variants[*i].ty) {
                Some(s) => {
                    let s = ident(s);
                    quote! {
                        <super::#s as pull::DecodeObject>::decode_object(p, start).map(super::#name::#v)
                    }
                }
                None => {
                    let t = de_type(&u.variants[*i].ty);
                    quote! {
                        pull::whole(p, start, |p| <#t as pull::Decode>::decode(p)).map(super::#name::#v)
                    }
                }
            }
        }
        Group::Merged(m) => {
            let f = merged(cx, u, m, helpers);
            quote! { #f(p, start) }
        }
    }
}

fn tagged(cx: &Cx, u: &Union, t: &Tagged, helpers: &mut TokenStream) -> TokenStream {
    let name = cx.name();
    let tag = &t.tag;
    let union_name = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    let values: Vec<&str> = t.arms.iter().map(|(v, _)| v.as_str()).collect();
    // Arms that select the same group share it.
    let mut seen: Vec<(&Group, Vec<usize>)> = Vec::new();
    for (k, (_, g)) in t.arms.iter().enumerate() {
        match seen.iter_mut().find(|(x, _)| *x == g) {
            Some((_, ks)) => ks.push(k),
            None => seen.push((g, vec![k])),
        }
    }
    let mut arms = Vec::new();
    for (g, ks) in &seen {
        let d = group(cx, u, g, helpers);
        let ks = ks
            .iter()
            .map(|&k| proc_macro2::Literal::usize_unsuffixed(k));
        arms.push(quote! { #( pull::Tag::Known(#ks) )|* => #d, });
    }
    let catch_all = ident(&u.variants[t.unknown].rust_name);
    arms.push(quote! {
        pull::Tag::Unknown => pull::kept_whole(p).map(|m| super::#name::#catch_all(m.into())),
    });
    arms.push(match &t.absent {
        Some(g) => {
            let d = group(cx, u, g, helpers);
            quote! { pull::Tag::Absent => #d, }
        }
        None => {
            let msg = format!(
                "missing member `{tag}` in a {union_name} object (one of `{}`)",
                values.join("`, `")
            );
            quote! { pull::Tag::Absent => Err(p.error(#msg)), }
        }
    });
    let expecting = format!("a {union_name} object");
    // With a variant for tagless objects, those are decoded in one pass on a guess.
    let tagged = if t.absent.is_some() {
        quote!(tagged_or_absent)
    } else {
        quote!(tagged)
    };
    quote! {
        pull::#tagged(p, #tag, &[#( #values ),*], #expecting, &mut |p, tag, start| {
            match tag {
                #( #arms )*
                #[allow(unreachable_patterns)]
                pull::Tag::Known(_) => Err(p.error(#expecting)),
            }
        })
    }
}

/// A function (added to `helpers`) decoding, from `start` (its `{`, or after a tag), an
/// object of the members told apart by shape: a table of what each member requires (`pull::Merged`, a `static`)
/// scores them in one pass over the object, and the member chosen is decoded from the
/// object's start. A group the IR says decodes in one pass (`Merged::one_pass`) is first
/// decoded into slots of its own (`one_pass_table`) and the member scored best built from
/// them (a slot its members type differently, `Merged::deferred`, decoded as the member picked
/// types it); the scoring runs only when that does not decide.
/// Returns the function's path.
fn merged(cx: &Cx, u: &Union, m: &Merged, helpers: &mut TokenStream) -> TokenStream {
    let module = cx.module;
    let name = cx.name();
    let f = format_ident!("{}__merged{}", cx.ty.name, m.id);
    if let Some(other) = &m.shared {
        helpers.extend(shared_group(cx, u, m, other, &f));
        return quote!(#f);
    }
    assert!(
        m.slots.len() <= 64,
        "{}: more than 64 members told apart by (the scoring table's masks are u64)",
        cx.ty.name
    );
    let uses = Uses::default();
    let slot_names = m.slots.iter().map(|s| s.json_name.as_str());
    let mut variants = Vec::new();
    let mut picks = Vec::new();
    let mut builds = Vec::new();
    let member_structs: Vec<&Struct> = m
        .members
        .iter()
        .filter_map(|&i| module.as_struct(&u.variants[i].ty))
        .collect();
    let slot_fields = slot_fields(&member_structs);
    let mut described = Vec::new();
    for &i in &m.members {
        let (Some(sname), Some(st)) = (
            struct_name(module, &u.variants[i].ty),
            module.as_struct(&u.variants[i].ty),
        ) else {
            continue;
        };
        described.push(format!(
            "{} (with {})",
            u.variants[i].rust_name,
            st.required().collect::<Vec<_>>().join(", ")
        ));
        let mut checks = Vec::new();
        for (j, s) in m.slots.iter().enumerate() {
            let k = &s.json_name;
            let j = proc_macro2::Literal::usize_unsuffixed(j);
            if let Some(c) = st.const_field(k) {
                let c = rt_const(&c.value, &uses);
                checks.push(quote!(Const(#j, #c)));
            } else if let Some(fd) = st.field(k) {
                let fits = match &s.typed {
                    // A slot every declaring member types alike: its JSON kind decides.
                    Some(t) => {
                        uses.fits.set(true);
                        let ks = kind_set(&kinds(module, t), &uses);
                        quote!(Kinds(#ks))
                    }
                    None => fits(module, &fd.ty, fd.optional_const.as_deref(), &uses),
                };
                let required = fd.required;
                checks.push(quote!(Field(#j, #required, #fits)));
            } else if matches!(st.extra, Extra::Deny) {
                checks.push(quote!(Refused(#j)));
            }
        }
        let closed = matches!(st.extra, Extra::Deny);
        variants.push(quote! {
            Variant::new(&[#( #checks ),*], #closed)
        });
        let s = ident(sname);
        let v = ident(&u.variants[i].rust_name);
        // Its index in the table's variants.
        let lit = proc_macro2::Literal::usize_unsuffixed(variants.len() - 1);
        picks.push(quote! {
            #lit => <super::#s as pull::DecodeObject>::decode_object(&mut p.at(mark), Start::Value).map(super::#name::#v),
        });
        if m.one_pass {
            let k = variants.len() - 1;
            let deferred = m.deferred.map(|j| m.slots[j].json_name.as_str());
            let inits = st.fields.iter().map(|f| {
                let slot = &slot_fields[f.json_name.as_str()].rust_name;
                if deferred == Some(f.json_name.as_str()) {
                    field_init(f, &ident(&deferred_field(slot, k)))
                } else {
                    field_init(f, &ident(slot))
                }
            });
            let extra = match st.extra {
                Extra::Any if st.extra_name == "extra" => quote! { extra, },
                Extra::Any => {
                    let x = ident(&st.extra_name);
                    quote! { #x: extra, }
                }
                _ => TokenStream::new(),
            };
            builds.push(quote! {
                #lit => Ok(super::#name::#v(super::#s { #( #inits )* #extra })),
            });
        }
    }
    let union_name = cx.ty.schema_name.as_deref().unwrap_or(&cx.ty.name);
    // Constants every member requires with the same value (`jsonrpc`): a wrong value is
    // reported as such, not as "no member matches".
    let common = m.slots.iter().enumerate().filter_map(|(j, s)| {
        let first = member_structs.first()?.const_field(&s.json_name)?;
        if m.fallback.is_some()
            || !member_structs
                .iter()
                .all(|st| st.const_field(&s.json_name) == Some(first))
        {
            return None;
        }
        let c = rt_const(&first.value, &uses);
        let j = proc_macro2::Literal::usize_unsuffixed(j);
        Some(quote!((#j, #c)))
    });
    let common: Vec<TokenStream> = common.collect();
    let msg = format!(
        "no member of {union_name} matches this object; expected one of: {}",
        described.join("; ")
    );
    // No member fits completely: the closest one's decoder names what is wrong (every
    // missing member, or the value of the wrong kind); none at all: the fallback, or an error.
    let none = match m.fallback {
        Some(i) => {
            let v = ident(&u.variants[i].rust_name);
            let t = de_type(&u.variants[i].ty);
            quote! { <#t as pull::Decode>::decode(&mut p.at(mark)).map(super::#name::#v) }
        }
        None => quote! { Err(p.error(#msg)) },
    };
    let count = proc_macro2::Literal::usize_unsuffixed(variants.len());
    uses.checks.set(!variants.is_empty());
    let imports = uses.imports(&["Merged", "Variant"]);
    let one_pass = if m.one_pass {
        let expecting = format!("a {union_name} object");
        let table = one_pass_table(cx, m, &member_structs, &slot_fields, &expecting);
        let call = if m.deferred.is_some() {
            quote!(UNION.one_pass_deferred(p, &TABLE, &DEFERRED, start, &mut extra, &mut s))
        } else {
            quote!(UNION.one_pass(p, &TABLE, start, &mut extra, &mut s))
        };
        quote! {
            #table
            if let Some(k) = #call {
                return match k {
                    #( #builds )*
                    _ => Err(p.error(#msg)),
                };
            }
        }
    } else {
        TokenStream::new()
    };
    helpers.extend(quote! {
        #[allow(non_snake_case)]
        fn #f(p: &mut Parser<'_>, start: Start) -> pull::Result<super::#name> {
            use pull::{#imports};
            static UNION: Merged = Merged {
                slots: &[#( #slot_names ),*],
                variants: &[#( #variants ),*],
                common: &[#( #common ),*],
            };
            #one_pass
            let mut scores: [pull::Score; #count] = [None; #count];
            let mark = UNION.score(p, start, &mut scores)?;
            let member = |k: usize| match k {
                #( #picks )*
                _ => Err(p.error(#msg)),
            };
            match pull::best_member(&scores, &member) {
                Some(decoded) => decoded,
                None => #none,
            }
        }
    });
    quote!(#f)
}

/// The function of a group that union `other` is alone (`Merged::shared`): that union's
/// group decodes the object, and each of its variants becomes this union's variant of the
/// same member type.
fn shared_group(
    cx: &Cx,
    u: &Union,
    m: &Merged,
    other: &str,
    f: &proc_macro2::Ident,
) -> TokenStream {
    let name = cx.name();
    let alone = || -> Option<(&Union, &Merged)> {
        let TypeKind::Union(ou) = &cx.module.types[cx.module.by_name[other]].kind else {
            return None;
        };
        match &ou.plan.object {
            ObjectPlan::Merged(om) => Some((ou, om)),
            _ => None,
        }
    };
    let Some((ou, om)) = alone() else {
        unreachable!(
            "{}: shares the group of {other}, which is not one group",
            cx.ty.name
        )
    };
    let of = format_ident!("{}__merged{}", other, om.id);
    let oname = ident(other);
    let arms = m.members.iter().zip(&om.members).map(|(&i, &j)| {
        let v = ident(&u.variants[i].rust_name);
        let ov = ident(&ou.variants[j].rust_name);
        quote!(super::#oname::#ov(v) => super::#name::#v(v),)
    });
    let doc = format!(" The members of `{other}`, decoded by its group's function.");
    quote! {
        #[doc = #doc]
        #[allow(non_snake_case)]
        fn #f(p: &mut Parser<'_>, start: Start) -> pull::Result<super::#name> {
            #of(p, start).map(|u| match u {
                #( #arms )*
            })
        }
    }
}

/// The slots struct, the table and the empty slots of a group decoded in one pass
/// (`Merged::one_pass`): a field per slot that is a member's field (named as the first member
/// declaring it names it), the slots in the scoring table's order, a slot's constant checked
/// as the members declare it, nothing required (the scoring says which member is complete).
/// A deferred slot (`Merged::deferred`) keeps a `pull::Marked`, and each member declaring it
/// has a field of its type for it, which `DEFERRED` decodes for the member picked.
fn one_pass_table(
    cx: &Cx,
    m: &Merged,
    structs: &[&Struct],
    slot_fields: &BTreeMap<&str, &Field>,
    expecting: &str,
) -> TokenStream {
    let (mut fields, mut entries, mut nones) = (Vec::new(), Vec::new(), Vec::new());
    let mut consts = 0u64;
    let mut deferred = TokenStream::new();
    for (j, slot) in m.slots.iter().enumerate() {
        let k = &slot.json_name;
        if let Some(c) = structs.iter().find_map(|s| s.const_field(k)) {
            consts |= 1 << j;
            entries.push(match &c.value {
                ConstValue::Str(v) => quote! { pull::Slot::str(#v), },
                ConstValue::Int(v) => quote! { pull::Slot::int(#v), },
            });
            continue;
        }
        if m.deferred == Some(j) {
            let name = &slot_fields[k.as_str()].rust_name;
            let n = ident(name);
            fields.push(quote! { #n: Option<pull::Marked>, });
            entries.push(quote! { __rt::slot!(Slots, #n), });
            nones.push(quote! { #n: None, });
            let mut arms = Vec::new();
            for (v, st) in structs.iter().enumerate() {
                let Some(f) = st.field(k) else { continue };
                let nv = ident(&deferred_field(name, v));
                let t = de_type(&f.ty);
                let v = proc_macro2::Literal::usize_unsuffixed(v);
                if f.boxed {
                    fields.push(quote! { #nv: Option<Box<#t>>, });
                    arms.push(quote! {
                        #v => s.#nv = Some(Box::new(<#t as pull::Decode>::decode(q)?)),
                    });
                } else {
                    fields.push(quote! { #nv: Option<#t>, });
                    arms.push(quote! { #v => s.#nv = Some(<#t as pull::Decode>::decode(q)?), });
                }
                nones.push(quote! { #nv: None, });
            }
            let j = proc_macro2::Literal::usize_unsuffixed(j);
            deferred = quote! {
                static DEFERRED: pull::Deferred<Slots> = pull::Deferred {
                    slot: #j,
                    marked: |s| s.#n,
                    decode: |s, k, q| {
                        match k {
                            #( #arms )*
                            _ => {}
                        }
                        Ok(())
                    },
                };
            };
            continue;
        }
        let (Some(f), Some(ty)) = (slot_fields.get(k.as_str()), &slot.typed) else {
            unreachable!(
                "{}: a one-pass slot is a constant, a typed field or the deferred one",
                cx.ty.name
            );
        };
        let n = ident(&f.rust_name);
        let t = de_type(ty);
        if f.boxed {
            fields.push(quote! { #n: Option<Box<#t>>, });
            entries.push(quote! { __rt::slot!(Slots, box #n), });
        } else {
            fields.push(quote! { #n: Option<#t>, });
            entries.push(quote! { __rt::slot!(Slots, #n), });
        }
        nones.push(quote! { #n: None, });
    }
    let keys = m.slots.iter().map(|s| s.json_name.as_str());
    quote! {
        struct Slots {
            #( #fields )*
        }
        static TABLE: pull::Table<Slots> = pull::Table {
            expecting: #expecting,
            keys: &[#( #keys ),*],
            required: 0,
            consts: #consts,
            slots: &[#( #entries )*],
        };
        #deferred
        let mut s = Slots { #( #nones )* };
        let mut extra = __rt::Extra::new();
    }
}

/// The fields that name the slots of a group decoded in one pass, by JSON name: each the
/// first member's declaring it.
fn slot_fields<'m>(structs: &[&'m Struct]) -> BTreeMap<&'m str, &'m Field> {
    let mut named = BTreeMap::new();
    for st in structs {
        for f in &st.fields {
            named.entry(f.json_name.as_str()).or_insert(f);
        }
    }
    named
}

/// A type as named from inside `__de`.
fn de_type(ty: &TypeRef) -> TokenStream {
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

/// The names of `__rt::pull` a scoring table uses, imported by its function (the table reads
/// as a list of checks: `Field(1, false, Kinds(K::STRING))`).
#[derive(Default)]
struct Uses {
    checks: std::cell::Cell<bool>,
    consts: std::cell::Cell<bool>,
    fits: std::cell::Cell<bool>,
    kinds: std::cell::Cell<bool>,
    shapes: std::cell::Cell<bool>,
}

impl Uses {
    /// The `use` list, with the `types` named in the function.
    fn imports(&self, types: &[&str]) -> TokenStream {
        let mut names: Vec<TokenStream> = Vec::new();
        if self.checks.get() {
            names.push(quote!(Check::*));
        }
        if self.consts.get() {
            names.push(quote!(Const::*));
        }
        if self.fits.get() {
            names.push(quote!(Fits::*));
        }
        if self.kinds.get() {
            names.push(quote!(KindSet as K));
        }
        for t in types {
            let t = format_ident!("{t}");
            names.push(quote!(#t));
        }
        if self.shapes.get() {
            names.push(quote!(Shape));
        }
        quote!(#( #names ),*)
    }
}

/// A constant as the runtime's `Const`.
fn rt_const(c: &ConstValue, uses: &Uses) -> TokenStream {
    uses.consts.set(true);
    match c {
        ConstValue::Str(s) => quote!(Str(#s)),
        ConstValue::Int(i) => quote!(Int(#i)),
    }
}

/// A set of JSON kinds as the runtime's `KindSet` (where a value read is of each kind it
/// is: an integer of `INTEGER` and `NUMBER`, so `NUMBER` alone stands for both).
fn kind_set(ks: &std::collections::BTreeSet<Kind>, uses: &Uses) -> TokenStream {
    uses.kinds.set(true);
    if ks.len() == Kind::ALL.len() {
        return quote!(K::ANY);
    }
    let ks: Vec<&Kind> = ks
        .iter()
        .filter(|k| !(**k == Kind::Integer && ks.contains(&Kind::Number)))
        .collect();
    match ks.as_slice() {
        [one] => {
            let k = format_ident!("{}", format!("{one:?}").to_uppercase());
            quote!(K::#k)
        }
        _ => {
            let ks = ks.iter().map(|k| {
                let k = format_ident!("{k:?}");
                quote!(__rt::Kind::#k)
            });
            quote!(K::of(&[#( #ks ),*]))
        }
    }
}

/// What fits a member of type `ty`: its JSON kinds, and for objects the required members and
/// constants one level down (of the struct, or of one of the union's struct members).
fn fits(module: &Module, ty: &TypeRef, optional_const: Option<&str>, uses: &Uses) -> TokenStream {
    uses.fits.set(true);
    if let Some(c) = optional_const {
        return quote!(Is(#c));
    }
    let ks = kinds(module, ty);
    let set = kind_set(&ks, uses);
    if ks.len() == Kind::ALL.len() {
        return quote!(Kinds(#set));
    }
    let inner = match module.resolve(ty) {
        TypeRef::Nullable(t) => module.resolve(t),
        t => t,
    };
    let mut structs: Vec<&Struct> = Vec::new();
    if let TypeRef::Named(n) = inner
        && let Some(TypeKind::Union(un)) = module.get(n).map(|t| &t.kind)
    {
        structs.extend(un.variants.iter().filter_map(|v| module.as_struct(&v.ty)));
    }
    if let Some(st) = module.as_struct(inner) {
        structs.push(st);
    }
    // A struct that requires nothing fits any object: its kinds decide.
    let trivial = |st: &&Struct| st.consts.is_empty() && !st.fields.iter().any(|f| f.required);
    let shapes: Vec<TokenStream> = if structs.iter().any(trivial) {
        Vec::new()
    } else {
        structs.into_iter().map(|st| shape(st, uses)).collect()
    };
    if shapes.is_empty() {
        quote!(Kinds(#set))
    } else {
        quote!(Shaped(#set, &[#( #shapes ),*]))
    }
}

/// A struct's required members and constants, as the runtime's `Shape`.
fn shape(st: &Struct, uses: &Uses) -> TokenStream {
    uses.shapes.set(true);
    let required = st
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.json_name.as_str());
    let consts = st.consts.iter().map(|c| {
        let k = &c.json_name;
        let v = rt_const(&c.value, uses);
        quote!((#k, #v))
    });
    quote!(Shape { required: &[#( #required ),*], consts: &[#( #consts ),*] })
}
