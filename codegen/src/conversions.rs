//! Conversions between the generated modules of adjacent revisions (`conversions.rs` of
//! `mcp-typed`), from the same models the modules are generated from.
//!
//! For every definition two adjacent revisions share (structs, unions and string enums; type
//! aliases share their target's conversions):
//!
//! - **upgrade**: `From<older::T> for newer::T` where the model proves every older value is a
//!   newer one (the same shape, or only optional members added: the newer revision's extra
//!   members stay absent, members it dropped are kept among the unknown members);
//!   `TryFrom` otherwise (it fails naming the JSON path where the newer revision requires what
//!   the value lacks);
//! - **downgrade**: `TryFrom<newer::T> for older::T`, exact: it fails, naming the JSON path,
//!   where anything would be dropped or has no meaning in the older revision.
//!   `mcp_typed::convert::downgrade` drops and lists instead.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::{Extra, Module, TypeDef, TypeKind, TypeRef};
use crate::source;

/// Whether every JSON value `old` (of module `om`) decodes as `new` (of module `nm`) with
/// nothing lost. Conservative: `false` when in doubt.
fn accepts(
    nm: &Module,
    new: &TypeRef,
    om: &Module,
    old: &TypeRef,
    seen: &mut BTreeSet<(String, String)>,
) -> bool {
    // Names are remembered before aliases are followed too: an alias can reach itself through
    // arrays or maps (`JSONObject` = a map of `JSONObject`).
    if let (TypeRef::Named(n), TypeRef::Named(o)) = (new, old)
        && !seen.insert((format!("alias:{n}"), o.clone()))
    {
        return true; // assumed while being proved
    }
    let (new, old) = (nm.resolve(new), om.resolve(old));
    match (new, old) {
        (TypeRef::Named(n), TypeRef::Named(o)) => {
            if !seen.insert((n.clone(), o.clone())) {
                return true; // assumed while being proved (recursive types)
            }
            let (Some(nd), Some(od)) = (nm.get(n), om.get(o)) else {
                return false;
            };
            accepts_def(nm, nd, om, od, seen)
        }
        (TypeRef::Array(n), TypeRef::Array(o))
        | (TypeRef::Map(n), TypeRef::Map(o))
        | (TypeRef::Nullable(n), TypeRef::Nullable(o)) => accepts(nm, n, om, o, seen),
        (TypeRef::Nullable(n), o) => accepts(nm, n, om, o, seen),
        (TypeRef::Number, TypeRef::Integer { .. }) => true,
        (TypeRef::Integer { unsigned: false }, TypeRef::Integer { .. }) => false,
        (TypeRef::Any, _) => true,
        (n, o) => n == o,
    }
}

fn accepts_def(
    nm: &Module,
    nd: &TypeDef,
    om: &Module,
    od: &TypeDef,
    seen: &mut BTreeSet<(String, String)>,
) -> bool {
    match (&nd.kind, &od.kind) {
        (TypeKind::StringEnum(n), TypeKind::StringEnum(o)) => {
            o.iter().all(|ov| n.iter().any(|nv| nv.value == ov.value))
        }
        (TypeKind::Struct(n), TypeKind::Struct(o)) => {
            let consts_same = n.consts.len() == o.consts.len()
                && n.consts
                    .iter()
                    .all(|c| o.const_field(&c.json_name) == Some(c));
            let required_kept = n
                .fields
                .iter()
                .filter(|f| f.required)
                .all(|f| o.field(&f.json_name).is_some_and(|of| of.required));
            let fields_fit = o.fields.iter().all(|of| match n.field(&of.json_name) {
                Some(nf) => {
                    nf.optional_const == of.optional_const && accepts(nm, &nf.ty, om, &of.ty, seen)
                }
                // Kept among the newer type's unknown members.
                None => matches!(n.extra, Extra::Any),
            });
            let extra_fits = match (&n.extra, &o.extra) {
                (Extra::Any, _) => true,
                (Extra::Deny, Extra::Deny) => true,
                (Extra::Typed(nt), Extra::Typed(ot)) => accepts(nm, nt, om, ot, seen),
                _ => false,
            };
            consts_same && required_kept && fields_fit && extra_fits
        }
        (TypeKind::Union(n), TypeKind::Union(o)) => {
            // Only unions whose members correspond one to one, in order, by schema name:
            // their decision procedures then agree.
            n.variants.len() == o.variants.len()
                && n.variants.iter().zip(&o.variants).all(|(nv, ov)| {
                    let names = |m: &Module, t: &TypeRef| match t {
                        TypeRef::Named(x) => m.get(x).and_then(|d| d.schema_name.clone()),
                        _ => None,
                    };
                    names(nm, &nv.ty) == names(om, &ov.ty) && accepts(nm, &nv.ty, om, &ov.ty, seen)
                })
        }
        _ => false,
    }
}

/// Whether every value of type `old_name` (in `old`) is, as JSON, a value of `new_name` (in
/// `new`) with nothing lost: then the upgrade is a `From`. Conservative.
pub fn lossless(new: &Module, new_name: &str, old: &Module, old_name: &str) -> bool {
    accepts(
        new,
        &TypeRef::Named(new_name.to_owned()),
        old,
        &TypeRef::Named(old_name.to_owned()),
        &mut BTreeSet::new(),
    )
}

/// The conversions between each pair of adjacent revisions in `models` (`(revision, model)`,
/// oldest first; the released revisions with modules of their own), as the items of `mcp-typed`' `conversions` module.
pub fn emit(models: &[(&str, &Module)]) -> TokenStream {
    let mut out = TokenStream::new();
    for pair in models.windows(2) {
        let [(ra, ma), (rb, mb)] = pair else { continue };
        let (fa, fb) = (source::module_name(ra), source::module_name(rb));
        let (a, b) = (format_ident!("{fa}"), format_ident!("{fb}"));
        let mut impls = TokenStream::new();
        for od in &ma.types {
            let Some(def) = &od.schema_name else { continue };
            let Some(nd) = mb
                .types
                .iter()
                .find(|t| t.schema_name.as_ref() == Some(def))
            else {
                continue;
            };
            if matches!(od.kind, TypeKind::Alias(_)) || matches!(nd.kind, TypeKind::Alias(_)) {
                continue;
            }
            let (ot, nt) = (format_ident!("{}", od.name), format_ident!("{}", nd.name));
            let lossless = lossless(mb, &nd.name, ma, &od.name);
            let up = if lossless {
                let doc = format!(
                    " `{def}` of {ra} as {rb}'s: every {ra} value is one of {rb}, nothing is lost."
                );
                quote! {
                    #[doc = #doc]
                    impl From<#a::#ot> for #b::#nt {
                        fn from(value: #a::#ot) -> Self {
                            convert::upgrade(&value).expect("the model proves every older value a newer one")
                        }
                    }
                }
            } else {
                let doc = format!(
                    " `{def}` of {ra} as {rb}'s; fails, naming the JSON path, where {rb} requires what the value lacks."
                );
                quote! {
                    #[doc = #doc]
                    impl TryFrom<#a::#ot> for #b::#nt {
                        type Error = convert::ConversionError;
                        fn try_from(value: #a::#ot) -> Result<Self, convert::ConversionError> {
                            convert::upgrade(&value)
                        }
                    }
                }
            };
            let doc = format!(
                " `{def}` of {rb} as {ra}'s, exactly: fails, naming the JSON path, where anything would be dropped or means nothing in {ra} (`mcp_typed::convert::downgrade` drops and lists instead)."
            );
            impls.extend(quote! {
                #up
                #[doc = #doc]
                impl TryFrom<#b::#nt> for #a::#ot {
                    type Error = convert::ConversionError;
                    fn try_from(value: #b::#nt) -> Result<Self, convert::ConversionError> {
                        convert::downgrade_exact(&value)
                    }
                }
            });
        }
        // The typed messages of each direction, when both revisions have them.
        let has_messages = |m: &Module| m.by_schema("RequestId").is_some();
        if has_messages(ma) && has_messages(mb) {
            for side in ["ClientMessage", "ServerMessage"] {
                let t = format_ident!("{side}");
                let up = format!(
                    " A {ra} `{side}` as {rb}'s; fails, naming the JSON path, where {rb} has no counterpart (a method it dropped) or requires what the message lacks."
                );
                let down = format!(
                    " A {rb} `{side}` as {ra}'s, exactly (`mcp_typed::convert::downgrade` drops and lists instead)."
                );
                impls.extend(quote! {
                    #[doc = #up]
                    impl TryFrom<#a::#t> for #b::#t {
                        type Error = convert::ConversionError;
                        fn try_from(value: #a::#t) -> Result<Self, convert::ConversionError> {
                            convert::upgrade(&value)
                        }
                    }
                    #[doc = #down]
                    impl TryFrom<#b::#t> for #a::#t {
                        type Error = convert::ConversionError;
                        fn try_from(value: #b::#t) -> Result<Self, convert::ConversionError> {
                            convert::downgrade_exact(&value)
                        }
                    }
                });
            }
        }
        let (fa_s, fb_s) = (fa.as_str(), fb.as_str());
        let m = format_ident!("{fa}__{fb}");
        let notes = structural_notes(ra, ma, rb, mb);
        out.extend(quote! {
            #( #[doc = #notes] )*
            #[cfg(all(feature = #fa_s, feature = #fb_s))]
            #[allow(non_snake_case)]
            mod #m {
                use crate::{#a, #b, convert};
                #impls
            }
        });
    }
    out
}

/// The methods of `ma` (revision `ra`) that `mb` (`rb`) does not define, by union: what no
/// member mapping can bridge, refused by the conversions. One line each, after a heading line.
pub fn structural_notes(ra: &str, ma: &Module, rb: &str, mb: &Module) -> Vec<String> {
    let methods = |m: &Module, union: &str| -> Option<Vec<String>> {
        let t = m.by_schema(union)?;
        match &t.kind {
            TypeKind::Union(u) => match &u.plan.object {
                crate::ir::union::ObjectPlan::Tagged(tagged) => {
                    Some(tagged.arms.iter().map(|(v, _)| v.clone()).collect())
                }
                _ => None,
            },
            TypeKind::Struct(s) => match s.const_field("method").map(|c| &c.value) {
                Some(crate::ir::ConstValue::Str(v)) => Some(vec![v.clone()]),
                _ => None,
            },
            _ => None,
        }
    };
    let mut notes = vec![format!(" Conversions between {ra} and {rb}.")];
    for union in [
        "ClientRequest",
        "ServerRequest",
        "ClientNotification",
        "ServerNotification",
    ] {
        let Some(old) = methods(ma, union) else {
            continue;
        };
        let new = methods(mb, union).unwrap_or_default();
        let gone: Vec<String> = old
            .iter()
            .filter(|m| !new.contains(m))
            .map(|m| format!("`{m}`"))
            .collect();
        if !gone.is_empty() {
            notes.push(format!(
                " {union} methods {rb} does not define, refused with what to do instead: {}.",
                gone.join(", ")
            ));
        }
    }
    notes
}

/// [`emit`], formatted, with the `@generated` header.
pub fn code(models: &[(&str, &Module)]) -> crate::Result<String> {
    let body = crate::emit::format(emit(models))
        .map_err(|e| crate::Error::Config(format!("generated conversions do not parse: {e}")))?;
    let revisions: Vec<&str> = models.iter().map(|(r, _)| *r).collect();
    Ok(format!(
        "// @generated by mcp-typed-codegen {} from the models of {}.\n// Do not edit by hand: regenerate with `mcp-typed-codegen generate`.\n\n{body}",
        env!("CARGO_PKG_VERSION"),
        revisions.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::SchemaDoc;

    fn module(defs: serde_json::Value) -> Module {
        crate::ir::lower(&SchemaDoc::from_value(serde_json::json!({"$defs": defs})).unwrap())
            .unwrap()
    }

    #[test]
    fn lossless_only_where_every_older_value_is_a_newer_one() {
        let old = module(serde_json::json!({
            "T": {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer"}}, "required": ["a"]},
            "E": {"type": "string", "enum": ["x", "y"]}
        }));
        let added_optional = module(serde_json::json!({
            "T": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "n": {"type": "number"}}, "required": ["a"]},
            "E": {"type": "string", "enum": ["x", "y", "z"]}
        }));
        let added_required = module(serde_json::json!({
            "T": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b"]},
            "E": {"type": "string", "enum": ["x"]}
        }));
        let closed = module(serde_json::json!({
            "T": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}
        }));
        assert!(lossless(&added_optional, "T", &old, "T"));
        assert!(lossless(&added_optional, "E", &old, "E"));
        assert!(
            !lossless(&added_required, "T", &old, "T"),
            "a newly required member"
        );
        assert!(
            !lossless(&added_required, "E", &old, "E"),
            "a value the newer enum lacks"
        );
        assert!(!lossless(&closed, "T", &old, "T"), "`n` has nowhere to go");
        // integer → number widens; number → integer does not.
        assert!(!lossless(&old, "T", &added_optional, "T"));
        // An alias reaching itself through a map terminates.
        let recursive = module(serde_json::json!({
            "J": {"additionalProperties": {"$ref": "#/$defs/J"}, "type": "object"}
        }));
        assert!(lossless(&recursive, "J", &recursive, "J"));
    }
}
