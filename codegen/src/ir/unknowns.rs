//! What each type's `Unknowns` walk visits, decided once for the module: the members and
//! variants whose values can hold something to report (undeclared members, catch-all
//! variants), and what happens to the members a struct keeps beyond the declared ones.

use super::{Extra, Module, TypeKind, TypeRef};

/// The walk of one type.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Walk {
    /// The fields (indexes into [`Struct::fields`](super::Struct::fields)) walked into.
    pub fields: Vec<usize>,
    /// What the walk does with a struct's kept undeclared members.
    pub extra: ExtraWalk,
    /// The union variants (indexes into [`Union::variants`](super::Union::variants)) walked
    /// into; a catch-all variant is reported whole, as its plan says.
    pub variants: Vec<usize>,
    /// For a union, what `Unknowns::chosen` answers for each variant (same order).
    pub chosen: Vec<Chosen>,
}

/// What a union's `Unknowns::chosen` names for one variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chosen {
    /// The generated type the variant holds (an alias followed to its target).
    Type(String),
    /// The variant holds a union: that union's own choice.
    Inner,
    /// The variant's own name: it holds no generated type (the catch-all's open object, a
    /// number, a list).
    Variant,
}

/// What a struct's walk does with the members it keeps beyond the declared ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ExtraWalk {
    /// Nothing: none are kept, the schema expects them, or their type holds nothing to
    /// report.
    #[default]
    Skip,
    /// Each is reported: the schema does not declare them.
    Report,
    /// Each is walked into (`additionalProperties: {schema}` of a type with something to
    /// report).
    Walk,
}

/// The member whose content is free-form by the specification ("reserved for metadata",
/// vendor keys welcome) even where a revision lists some of its keys: nothing in it is
/// unknown.
const FREE_FORM: &str = "_meta";

/// Gives every type its [`Walk`].
pub fn assign(module: &mut Module) {
    let walks: Vec<Walk> = module
        .types
        .iter()
        .map(|t| match &t.kind {
            TypeKind::Struct(s) => Walk {
                fields: s
                    .fields
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.json_name != FREE_FORM && walks(module, &f.ty))
                    .map(|(i, _)| i)
                    .collect(),
                extra: match &s.extra {
                    Extra::Any if s.extra_declared => ExtraWalk::Skip,
                    Extra::Any => ExtraWalk::Report,
                    Extra::Typed(t) if walks(module, t) => ExtraWalk::Walk,
                    Extra::Typed(_) | Extra::Deny => ExtraWalk::Skip,
                },
                ..Walk::default()
            },
            TypeKind::Union(u) => Walk {
                variants: u
                    .variants
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| walks(module, &v.ty))
                    .map(|(i, _)| i)
                    .collect(),
                chosen: u.variants.iter().map(|v| chosen(module, &v.ty)).collect(),
                ..Walk::default()
            },
            TypeKind::Alias(_) | TypeKind::StringEnum(_) => Walk::default(),
        })
        .collect();
    for (t, walk) in module.types.iter_mut().zip(walks) {
        t.walk = walk;
    }
}

/// What a union variant holding `ty` is named by.
fn chosen(module: &Module, ty: &TypeRef) -> Chosen {
    match module.resolve(ty) {
        TypeRef::Named(n) => match module.get(n).map(|t| &t.kind) {
            Some(TypeKind::Union(_)) => Chosen::Inner,
            _ => Chosen::Type(n.clone()),
        },
        _ => Chosen::Variant,
    }
}

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
