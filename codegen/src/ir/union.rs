//! How a JSON value is assigned to a union variant.
//!
//! JSON Schema's `anyOf` says "any member that validates"; generated code must pick one
//! member deterministically and without trial decoding. The plan, computed from the members'
//! IR, is:
//!
//! 1. **By JSON kind.** A string, number, boolean, array or null goes to the one member that
//!    accepts that kind (integers prefer an `integer` member over a `number` one).
//! 2. **Objects by tag.** When the object members declare one property with a fixed value
//!    (`const` or a string `enum`) that splits them into groups — `method` for requests,
//!    `type` for content blocks, `mode` for elicitation params — the value read from the
//!    input picks the group. A value the revision does not list is kept whole, never an
//!    error: an unknown `method` decodes to the `Custom` variant (JSON-RPC allows custom
//!    methods), any other unknown tag (`type`, `mode`…: a shape from a newer revision) to
//!    the `Unknown` variant. Both hold the raw object and re-encode it unchanged. A *known*
//!    tag with malformed content is still an error naming the field.
//! 3. **Objects by shape.** Members that no tag separates are told apart by which properties
//!    are present ([`Merged`]): a member qualifies when all its required properties are there
//!    with the right constants and JSON kinds; the qualifying member with the most required
//!    properties wins, then the one declaring the most of the present properties, then schema
//!    order. `{"method", "id"}` is a request, `{"method"}` a notification, `{"content"}` a
//!    `CallToolResult`, `{}` the plain `Result`.

use std::collections::{BTreeMap, BTreeSet};

use super::{ConstValue, Extra, Field, Module, Struct, TypeKind, TypeRef, Variant, naming};
use crate::error::{Error, Result};

/// A JSON value kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `null`
    Null,
    /// `true`/`false`
    Boolean,
    /// a number without fraction
    Integer,
    /// a number with fraction (integers also fit a `number` member)
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl Kind {
    /// Every kind, in the order unions are planned.
    pub const ALL: [Kind; 7] = [
        Kind::Null,
        Kind::Boolean,
        Kind::Integer,
        Kind::Number,
        Kind::String,
        Kind::Array,
        Kind::Object,
    ];
}

/// Tags whose unknown values are legitimate extensions rather than newer revisions' shapes:
/// their catch-all variant is called `Custom` instead of `Unknown`.
pub const OPEN_TAGS: &[&str] = &["method"];

/// The name of the catch-all variant of a union tagged by `tag`.
pub fn catch_all_name(tag: &str) -> &'static str {
    if OPEN_TAGS.contains(&tag) {
        "Custom"
    } else {
        "Unknown"
    }
}

/// The decision procedure of a union. (`Default`, no member taking anything, only stands in
/// while the module is lowered: [`plan_all`] gives every union its plan before [`lower`]
/// returns.)
///
/// [`lower`]: super::lower()
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// Variant taking each non-object kind.
    pub scalars: BTreeMap<Kind, usize>,
    /// When several members accept arrays (2025-03-26 batches): the members, told apart by
    /// the shape of the first element.
    pub arrays: Vec<usize>,
    /// How objects are assigned.
    pub object: ObjectPlan,
}

/// How objects are assigned to variants.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ObjectPlan {
    /// No member accepts objects.
    #[default]
    None,
    /// One member does.
    Single(usize),
    /// A tag property picks the group.
    Tagged(Tagged),
    /// Present properties pick the member.
    Merged(Merged),
}

/// Dispatch on a tag property.
#[derive(Debug, Clone, PartialEq)]
pub struct Tagged {
    /// The tag's JSON name.
    pub tag: String,
    /// Tag value → group, in schema order.
    pub arms: Vec<(String, Group)>,
    /// The group for objects without the tag.
    pub absent: Option<Group>,
    /// The catch-all variant (`Custom` or `Unknown`, see [`catch_all_name`]) that keeps an
    /// object with a tag value no member has.
    pub unknown: usize,
}

/// The members a tag value selects.
#[derive(Debug, Clone, PartialEq)]
pub enum Group {
    /// Exactly one member.
    Single(usize),
    /// Several, told apart by shape.
    Merged(Merged),
}

/// Members told apart by the properties present.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// Struct members, in schema order.
    pub members: Vec<usize>,
    /// Every property any member declares, in first-seen order.
    pub slots: Vec<Slot>,
    /// A member that takes any object (a map), used when no struct member fits.
    pub fallback: Option<usize>,
    /// Index of this group among the union's merged groups (names the builder).
    pub id: usize,
    /// The group can be decoded in one pass into slots of its own, then built as the
    /// member scored best (falling back to scoring first when that does not decide): every
    /// slot is a constant of one value in every member declaring it, or a field of one type
    /// (boxed alike) in every member declaring it, so that a value decoding into its slot
    /// is one each declaring member takes; every member keeps or refuses unknown members
    /// (none types them); the slots' Rust names are distinct; and the group has at most
    /// [`ONE_PASS_MEMBERS`] members. One slot may be a field its members type differently
    /// ([`Merged::deferred`]).
    pub one_pass: bool,
    /// In a group decoded in one pass, the slot (an index in `slots`) its members type
    /// differently (an elicitation form's `items`): kept where it is by the pass and decoded
    /// by the member picked, as its type says. At most one, every member declaring it as a
    /// field (not a constant).
    pub deferred: Option<usize>,
    /// Another union whose objects are exactly this group (the same member types in the same
    /// order, nothing else: `MultiSelectEnumSchema` for `PrimitiveSchemaDefinition`'s
    /// `"array"` group, `EmbeddedResourceResource` for `ReadResourceResultContentsItem`'s):
    /// this group is decoded by that union's, and its variants mapped to this union's.
    /// Set by [`plan_all`] once every plan is made; `None` for the union it names.
    pub shared: Option<String>,
}

/// A property buffered by a merged builder.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// JSON name.
    pub json_name: String,
    /// Decoded as this type when every member that declares it agrees; otherwise kept as
    /// raw JSON until the member is chosen.
    pub typed: Option<TypeRef>,
}

/// Flattens nested unions, names every union's variants (the only place they are named)
/// and computes every union's plan.
pub fn plan_all(module: &mut Module) -> Result<()> {
    let union_names: Vec<String> = module
        .types
        .iter()
        .filter(|t| matches!(t.kind, TypeKind::Union(_)))
        .map(|t| t.name.clone())
        .collect();
    for name in &union_names {
        let flat = flatten(module, name)?;
        let idx = module.by_name[name];
        if let TypeKind::Union(u) = &mut module.types[idx].kind {
            u.variants = flat;
        }
    }
    for name in &union_names {
        let idx = module.by_name[name];
        let (variants, pointer) = match &module.types[idx].kind {
            TypeKind::Union(u) => (u.variants.clone(), module.types[idx].pointer.clone()),
            _ => continue,
        };
        let (plan, catch_all) = plan(module, &variants, &pointer)?;
        if let TypeKind::Union(u) = &mut module.types[idx].kind {
            if let Some(base) = catch_all {
                u.variants.push(Variant {
                    rust_name: naming::catch_all_name(&u.variants, base),
                    ty: TypeRef::Object,
                });
            }
            u.plan = plan;
        }
    }
    share_groups(module, &union_names);
    Ok(())
}

/// Points each merged group at the first union (in the module's order) that is that group
/// alone ([`Merged::shared`]), so that its decoder is generated once: the same member types
/// make the same slots and checks, so the two decoders would be the same but for the
/// union they return.
fn share_groups(module: &mut Module, union_names: &[String]) {
    let members_of = |variants: &[Variant], m: &Merged| -> Vec<TypeRef> {
        m.members.iter().map(|&i| variants[i].ty.clone()).collect()
    };
    let mut alone: BTreeMap<Vec<TypeRef>, String> = BTreeMap::new();
    for name in union_names {
        if let TypeKind::Union(u) = &module.types[module.by_name[name]].kind
            && let ObjectPlan::Merged(m) = &u.plan.object
            && m.fallback.is_none()
            && m.members.len() == u.variants.len()
        {
            alone
                .entry(members_of(&u.variants, m))
                .or_insert_with(|| name.clone());
        }
    }
    for name in union_names {
        let idx = module.by_name[name];
        let TypeKind::Union(u) = &mut module.types[idx].kind else {
            continue;
        };
        let variants = u.variants.clone();
        let mut groups: Vec<&mut Merged> = Vec::new();
        match &mut u.plan.object {
            ObjectPlan::Merged(m) => groups.push(m),
            ObjectPlan::Tagged(t) => {
                for g in t.arms.iter_mut().map(|(_, g)| g).chain(t.absent.as_mut()) {
                    if let Group::Merged(m) = g {
                        groups.push(m);
                    }
                }
            }
            ObjectPlan::None | ObjectPlan::Single(_) => {}
        }
        for m in groups {
            if m.fallback.is_none()
                && let Some(other) = alone.get(&members_of(&variants, m))
                && other != name
            {
                m.shared = Some(other.clone());
            }
        }
    }
}

/// Members of union `name` with nested unions replaced by their members, each named by
/// [`naming::union_variant_names`].
fn flatten(module: &Module, name: &str) -> Result<Vec<Variant>> {
    let mut leaves: Vec<TypeRef> = Vec::new();
    let mut seen = BTreeSet::new();
    collect_leaves(
        module,
        &TypeRef::Named(name.to_owned()),
        &mut leaves,
        &mut seen,
        true,
    );
    let names = naming::union_variant_names(module, name, &leaves);
    Ok(leaves
        .into_iter()
        .zip(names)
        .map(|(ty, rust_name)| Variant { rust_name, ty })
        .collect())
}

fn collect_leaves(
    module: &Module,
    ty: &TypeRef,
    out: &mut Vec<TypeRef>,
    seen: &mut BTreeSet<String>,
    root: bool,
) {
    if let TypeRef::Named(n) = ty
        && let Some(TypeKind::Union(u)) = module.get(n).map(|t| &t.kind)
    {
        // Only plain unions are flattened into their parent; the root is always expanded.
        if seen.insert(n.clone()) {
            for v in &u.variants {
                collect_leaves(module, &v.ty, out, seen, false);
            }
            return;
        }
        if !root {
            out.push(ty.clone());
        }
        return;
    }
    if !out.contains(ty) {
        out.push(ty.clone());
    }
}

/// The JSON kinds a type accepts.
pub fn kinds(module: &Module, ty: &TypeRef) -> BTreeSet<Kind> {
    let mut out = BTreeSet::new();
    kinds_into(module, ty, &mut out, &mut BTreeSet::new());
    out
}

fn kinds_into<'m>(
    module: &'m Module,
    ty: &'m TypeRef,
    out: &mut BTreeSet<Kind>,
    seen: &mut BTreeSet<&'m str>,
) {
    match ty {
        TypeRef::String => {
            out.insert(Kind::String);
        }
        TypeRef::Integer { .. } => {
            out.insert(Kind::Integer);
        }
        TypeRef::Number => {
            out.extend([Kind::Integer, Kind::Number]);
        }
        TypeRef::Boolean => {
            out.insert(Kind::Boolean);
        }
        TypeRef::Any => {
            out.extend(Kind::ALL);
        }
        TypeRef::Object | TypeRef::Map(_) => {
            out.insert(Kind::Object);
        }
        TypeRef::Array(_) => {
            out.insert(Kind::Array);
        }
        TypeRef::Nullable(inner) => {
            out.insert(Kind::Null);
            kinds_into(module, inner, out, seen);
        }
        TypeRef::Named(n) if !seen.insert(n.as_str()) => {}
        TypeRef::Named(n) => match module.get(n).map(|t| &t.kind) {
            Some(TypeKind::Struct(_)) => {
                out.insert(Kind::Object);
            }
            Some(TypeKind::StringEnum(_)) => {
                out.insert(Kind::String);
            }
            Some(TypeKind::Alias(t)) => kinds_into(module, t, out, seen),
            Some(TypeKind::Union(u)) => {
                for v in &u.variants {
                    kinds_into(module, &v.ty, out, seen);
                }
            }
            None => {}
        },
    }
}

/// Computes the plan of a union with `variants`; also gives the base name of the catch-all
/// variant to append, if any (its index is then `variants.len()`).
fn plan(
    module: &Module,
    variants: &[Variant],
    pointer: &str,
) -> Result<(Plan, Option<&'static str>)> {
    let mut scalars = BTreeMap::new();
    let mut objects = Vec::new();
    let mut arrays = Vec::new();
    for kind in Kind::ALL {
        let takers: Vec<usize> = variants
            .iter()
            .enumerate()
            .filter(|(_, v)| kinds(module, &v.ty).contains(&kind))
            .map(|(i, _)| i)
            .collect();
        if kind == Kind::Object {
            objects = takers;
            continue;
        }
        let array_members: Vec<usize> = takers
            .iter()
            .copied()
            .filter(|&i| matches!(module.resolve(&variants[i].ty), TypeRef::Array(_)))
            .collect();
        if kind == Kind::Array && array_members.len() > 1 && array_members.len() == takers.len() {
            arrays = array_members;
            continue;
        }
        // An exact member beats a wider one (`integer` over `number`, anything over `{}`).
        let exact: Vec<usize> = takers
            .iter()
            .copied()
            .filter(|&i| {
                let k = kinds(module, &variants[i].ty);
                // `{}` accepts every kind: it only takes what no exact member takes.
                k.len() < 7 && !(kind == Kind::Integer && k.contains(&Kind::Number))
            })
            .collect();
        let pick = match (exact.as_slice(), takers.as_slice()) {
            ([one], _) => Some(*one),
            ([], [one]) => Some(*one),
            ([], []) => None,
            ([], [first, ..]) if kind == Kind::Integer => Some(*first),
            _ => {
                let names: Vec<&str> = takers
                    .iter()
                    .map(|&i| variants[i].rust_name.as_str())
                    .collect();
                return Err(Error::schema(
                    pointer,
                    format!("ambiguous union: members {names:?} all accept a JSON {kind:?}"),
                ));
            }
        };
        if let Some(i) = pick {
            scalars.insert(kind, i);
        }
    }
    let (object, catch_all) = object_plan(module, variants, &objects, pointer)?;
    Ok((
        Plan {
            scalars,
            arrays,
            object,
        },
        catch_all,
    ))
}

fn object_plan(
    module: &Module,
    variants: &[Variant],
    takers: &[usize],
    pointer: &str,
) -> Result<(ObjectPlan, Option<&'static str>)> {
    let structs: Vec<usize> = takers
        .iter()
        .copied()
        .filter(|&i| module.as_struct(&variants[i].ty).is_some())
        .collect();
    let others: Vec<usize> = takers
        .iter()
        .copied()
        .filter(|i| !structs.contains(i))
        .collect();
    if others.len() > 1 {
        let names: Vec<&str> = others
            .iter()
            .map(|&i| variants[i].rust_name.as_str())
            .collect();
        return Err(Error::schema(
            pointer,
            format!("ambiguous union: members {names:?} all accept any object"),
        ));
    }
    let fallback = others.first().copied();
    match (structs.len(), fallback) {
        (0, None) => return Ok((ObjectPlan::None, None)),
        (0, Some(f)) => return Ok((ObjectPlan::Single(f), None)),
        (1, None) => return Ok((ObjectPlan::Single(structs[0]), None)),
        _ => {}
    }
    let mut merged_ids = 0usize;
    if fallback.is_none()
        && let Some(t) = find_tag(module, variants, &structs)
    {
        let catch_all = catch_all_name(&t.tag);
        let mut arms = Vec::new();
        for (value, members) in t.arms {
            arms.push((
                value,
                group(module, variants, &members, None, &mut merged_ids),
            ));
        }
        let absent = if t.absent.is_empty() {
            None
        } else {
            Some(group(module, variants, &t.absent, None, &mut merged_ids))
        };
        return Ok((
            ObjectPlan::Tagged(Tagged {
                tag: t.tag,
                arms,
                absent,
                unknown: variants.len(),
            }),
            Some(catch_all),
        ));
    }
    Ok((
        ObjectPlan::Merged(merged(
            module,
            variants,
            &structs,
            fallback,
            &mut merged_ids,
        )),
        None,
    ))
}

fn group(
    module: &Module,
    variants: &[Variant],
    members: &[usize],
    fallback: Option<usize>,
    ids: &mut usize,
) -> Group {
    if members.len() == 1 && fallback.is_none() {
        Group::Single(members[0])
    } else {
        Group::Merged(merged(module, variants, members, fallback, ids))
    }
}

fn merged(
    module: &Module,
    variants: &[Variant],
    members: &[usize],
    fallback: Option<usize>,
    ids: &mut usize,
) -> Merged {
    let mut slots: Vec<Slot> = Vec::new();
    let mut decls: BTreeMap<String, Vec<Option<TypeRef>>> = BTreeMap::new();
    for &m in members {
        let Some(s) = module.as_struct(&variants[m].ty) else {
            continue;
        };
        for c in &s.consts {
            if !slots.iter().any(|x| x.json_name == c.json_name) {
                slots.push(Slot {
                    json_name: c.json_name.clone(),
                    typed: None,
                });
            }
            decls.entry(c.json_name.clone()).or_default().push(None);
        }
        for f in &s.fields {
            if !slots.iter().any(|x| x.json_name == f.json_name) {
                slots.push(Slot {
                    json_name: f.json_name.clone(),
                    typed: None,
                });
            }
            decls
                .entry(f.json_name.clone())
                .or_default()
                .push(Some(f.ty.clone()));
        }
    }
    for slot in &mut slots {
        let d = &decls[&slot.json_name];
        if let Some(Some(first)) = d.first()
            && d.iter().all(|x| x.as_ref() == Some(first))
        {
            slot.typed = Some(first.clone());
        }
    }
    let id = *ids;
    *ids += 1;
    let plan = one_pass(module, variants, members, &slots);
    Merged {
        members: members.to_vec(),
        slots,
        fallback,
        id,
        one_pass: plan.is_some(),
        deferred: plan.flatten(),
        shared: None,
    }
}

/// The most members a group decoded in one pass has. The pass builds each member from the
/// group's slots, so its code grows with the members and their fields, while what it saves
/// (the scoring pass over an object) does not. The groups of the forms and of the resource
/// contents have two to four members; `ServerResult`'s (any result, 10 to 14 members, which
/// the intended path never decodes: a result is typed by the request it answers) would add
/// 290 generated lines a revision (BENCHMARKS.md section 9, compile time).
pub const ONE_PASS_MEMBERS: usize = 8;

/// Whether a merged group can be decoded in one pass (see [`Merged::one_pass`]): `None`
/// when not, else the slot its members type differently, if one is.
fn one_pass(
    module: &Module,
    variants: &[Variant],
    members: &[usize],
    slots: &[Slot],
) -> Option<Option<usize>> {
    if members.len() > ONE_PASS_MEMBERS {
        return None;
    }
    let structs: Vec<&Struct> = members
        .iter()
        .filter_map(|&m| module.as_struct(&variants[m].ty))
        .collect();
    if structs.len() != members.len() || structs.iter().any(|s| matches!(s.extra, Extra::Typed(_)))
    {
        return None;
    }
    let mut names = BTreeSet::new();
    let mut deferred = None;
    for (j, slot) in slots.iter().enumerate() {
        let k = slot.json_name.as_str();
        let consts: Vec<&ConstValue> = structs
            .iter()
            .filter_map(|s| s.const_field(k).map(|c| &c.value))
            .collect();
        let fields: Vec<&Field> = structs.iter().filter_map(|s| s.field(k)).collect();
        let fits = match (consts.first(), fields.first()) {
            (Some(c), None) => consts.iter().all(|x| x == c),
            (None, Some(f)) if slot.typed.is_some() => {
                fields.iter().all(|x| x.boxed == f.boxed) && names.insert(f.rust_name.clone())
            }
            // Typed differently: kept as a mark, and a field per member declaring it.
            (None, Some(f)) if deferred.is_none() => {
                deferred = Some(j);
                names.insert(f.rust_name.clone())
                    && (0..structs.len()).all(|m| names.insert(deferred_field(&f.rust_name, m)))
            }
            _ => false,
        };
        if !fits {
            return None;
        }
    }
    // A deferred slot only where it alone tells the members apart (they declare the same
    // slots: the forms' `"array"` fields, whose scoring read `items` twice). Elsewhere
    // (`ClientResult`, the responses of `JsonRpcMessage`: off the intended path, where a
    // result is typed by its request) the pass would add code and save little.
    let declared_by_all = |slot: &Slot| {
        structs
            .iter()
            .all(|s| s.field(&slot.json_name).is_some() || s.const_field(&slot.json_name).is_some())
    };
    if deferred.is_some() && !slots.iter().all(declared_by_all) {
        return None;
    }
    Some(deferred)
}

/// The name of the field holding a deferred slot (`rust_name`: its slot's) as member `m` of
/// the group (its index in `members`) decodes it.
pub fn deferred_field(rust_name: &str, m: usize) -> String {
    format!("{rust_name}_{m}")
}

struct TagChoice {
    tag: String,
    arms: Vec<(String, Vec<usize>)>,
    absent: Vec<usize>,
}

/// The property whose fixed values split the struct members into the most groups.
fn find_tag(module: &Module, variants: &[Variant], members: &[usize]) -> Option<TagChoice> {
    let mut candidates: BTreeSet<String> = BTreeSet::new();
    for &m in members {
        let s = module.as_struct(&variants[m].ty)?;
        candidates.extend(s.consts.iter().map(|c| c.json_name.clone()));
        candidates.extend(
            s.fields
                .iter()
                .filter(|f| fixed_values(module, f).is_some())
                .map(|f| f.json_name.clone()),
        );
    }
    let mut best: Option<(TagChoice, (usize, usize))> = None;
    for tag in candidates {
        let mut arms: Vec<(String, Vec<usize>)> = Vec::new();
        let mut absent = Vec::new();
        let mut usable = true;
        for &m in members {
            let s = module.as_struct(&variants[m].ty)?;
            let (values, optional) = if let Some(c) = s.const_field(&tag) {
                match &c.value {
                    super::ConstValue::Str(v) => (vec![v.clone()], false),
                    super::ConstValue::Int(_) => {
                        usable = false;
                        break;
                    }
                }
            } else if let Some(f) = s.field(&tag) {
                match fixed_values(module, f) {
                    Some(v) => (v, !f.required),
                    None => {
                        usable = false;
                        break;
                    }
                }
            } else {
                // A member that does not declare the property says nothing about it: the
                // property cannot tell it apart.
                usable = false;
                break;
            };
            for v in values {
                match arms.iter_mut().find(|(x, _)| *x == v) {
                    Some((_, ms)) => {
                        if !ms.contains(&m) {
                            ms.push(m)
                        }
                    }
                    None => arms.push((v, vec![m])),
                }
            }
            if optional {
                absent.push(m);
            }
        }
        if !usable {
            continue;
        }
        let mut groups: Vec<Vec<usize>> = arms.iter().map(|(_, g)| g.clone()).collect();
        if !absent.is_empty() {
            groups.push(absent.clone());
        }
        groups.sort();
        groups.dedup();
        if groups.len() < 2 {
            continue;
        }
        let largest = groups.iter().map(Vec::len).max().unwrap_or(0);
        let quality = (usize::MAX - largest, groups.len());
        if best.as_ref().is_none_or(|(_, q)| quality > *q) {
            best = Some((TagChoice { tag, arms, absent }, quality));
        }
    }
    best.map(|(t, _)| t)
}

/// The fixed string values a field may take (optional `const`, or a string enum type).
fn fixed_values(module: &Module, f: &super::Field) -> Option<Vec<String>> {
    if let Some(c) = &f.optional_const {
        return Some(vec![c.clone()]);
    }
    match module.resolve(&f.ty) {
        TypeRef::Named(n) => match &module.get(n)?.kind {
            TypeKind::StringEnum(values) => Some(values.iter().map(|v| v.value.clone()).collect()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::SchemaDoc;

    fn module(defs: serde_json::Value) -> Module {
        crate::ir::lower(&SchemaDoc::from_value(serde_json::json!({"$defs": defs})).unwrap())
            .unwrap()
    }

    fn plan_of<'m>(m: &'m Module, name: &str) -> &'m Plan {
        match &m.get(name).unwrap().kind {
            TypeKind::Union(u) => &u.plan,
            _ => panic!("{name} is not a union"),
        }
    }

    #[test]
    fn unknown_tags_are_kept_by_a_catch_all_variant() {
        let m = module(serde_json::json!({
            "A": {"type": "object", "properties": {"method": {"const": "a"}, "x": {"type": "string"}}, "required": ["method"]},
            "B": {"type": "object", "properties": {"method": {"const": "b"}}, "required": ["method"]},
            "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]},
            "T1": {"type": "object", "properties": {"type": {"const": "text"}}, "required": ["type"]},
            "T2": {"type": "object", "properties": {"type": {"const": "image"}}, "required": ["type"]},
            "C": {"anyOf": [{"$ref": "#/$defs/T1"}, {"$ref": "#/$defs/T2"}]}
        }));
        let ObjectPlan::Tagged(t) = &plan_of(&m, "U").object else {
            panic!()
        };
        assert_eq!(t.tag, "method");
        assert_eq!(t.unknown, 2);
        let ObjectPlan::Tagged(t) = &plan_of(&m, "C").object else {
            panic!()
        };
        assert_eq!(t.tag, "type");
        assert_eq!(t.unknown, 2);
        let TypeKind::Union(u) = &m.get("U").unwrap().kind else {
            panic!()
        };
        assert_eq!(u.variants[2].rust_name, "Custom");
        let TypeKind::Union(c) = &m.get("C").unwrap().kind else {
            panic!()
        };
        assert_eq!(c.variants[2].rust_name, "Unknown");
        assert_eq!(c.variants[2].ty, TypeRef::Object);
    }

    #[test]
    fn optional_tag_member_takes_untagged_objects() {
        let m = module(serde_json::json!({
            "Form": {"type": "object", "properties": {"mode": {"const": "form", "type": "string"}, "message": {"type": "string"}}, "required": ["message"]},
            "Url": {"type": "object", "properties": {"mode": {"const": "url", "type": "string"}, "url": {"type": "string"}}, "required": ["mode", "url"]},
            "P": {"anyOf": [{"$ref": "#/$defs/Form"}, {"$ref": "#/$defs/Url"}]}
        }));
        let ObjectPlan::Tagged(t) = &plan_of(&m, "P").object else {
            panic!()
        };
        assert_eq!(t.tag, "mode");
        assert_eq!(t.absent, Some(Group::Single(0)));
    }

    #[test]
    fn no_tag_means_shape_with_shared_typed_slots() {
        let m = module(serde_json::json!({
            "Req": {"type": "object", "properties": {"id": {"type": "string"}, "method": {"type": "string"}}, "required": ["id", "method"]},
            "Note": {"type": "object", "properties": {"method": {"type": "string"}}, "required": ["method"]},
            "Msg": {"anyOf": [{"$ref": "#/$defs/Req"}, {"$ref": "#/$defs/Note"}]}
        }));
        let ObjectPlan::Merged(mg) = &plan_of(&m, "Msg").object else {
            panic!()
        };
        assert_eq!(mg.members, [0, 1]);
        assert!(mg.slots.iter().all(|s| s.typed == Some(TypeRef::String)));
        assert!(mg.one_pass);
    }

    #[test]
    fn one_pass_only_where_every_slot_decodes_alike() {
        let one_pass = |defs: serde_json::Value| {
            let m = module(defs);
            match &plan_of(&m, "U").object {
                ObjectPlan::Merged(mg) => mg.one_pass,
                _ => panic!("U is not told apart by members"),
            }
        };
        let deferred = |defs: serde_json::Value| {
            let m = module(defs);
            match &plan_of(&m, "U").object {
                ObjectPlan::Merged(mg) => mg.one_pass.then_some(mg.deferred),
                _ => panic!("U is not told apart by members"),
            }
        };
        // The same slots, `items` an object of one shape or another (the forms' `"array"`
        // fields): one pass, `items` deferred to the member picked.
        let items = |b: serde_json::Value| {
            serde_json::json!({
                "IA": {"type": "object", "properties": {"enum": {"type": "array", "items": {"type": "string"}}}, "required": ["enum"]},
                "IB": {"type": "object", "properties": {"anyOf": {"type": "array", "items": {"type": "string"}}}, "required": ["anyOf"]},
                "A": {"type": "object", "properties": {"type": {"const": "array"}, "title": {"type": "string"}, "items": {"$ref": "#/$defs/IA"}}, "required": ["type", "items"]},
                "B": b,
                "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
            })
        };
        assert_eq!(
            deferred(items(
                serde_json::json!({"type": "object", "properties": {"type": {"const": "array"}, "title": {"type": "string"}, "items": {"$ref": "#/$defs/IB"}}, "required": ["type", "items"]})
            )),
            Some(Some(2))
        );
        // Two slots typed two ways; the members declaring other slots too: scored.
        assert_eq!(
            deferred(items(
                serde_json::json!({"type": "object", "properties": {"type": {"const": "array"}, "title": {"type": "integer"}, "items": {"$ref": "#/$defs/IB"}}, "required": ["type", "items"]})
            )),
            None
        );
        assert_eq!(
            deferred(items(
                serde_json::json!({"type": "object", "properties": {"type": {"const": "array"}, "title": {"type": "string"}, "items": {"$ref": "#/$defs/IB"}, "max": {"type": "integer"}}, "required": ["type", "items"]})
            )),
            None
        );
        // `v` is a string in one member, an integer in the other (and each has a member of
        // its own).
        assert!(!one_pass(serde_json::json!({
            "A": {"type": "object", "properties": {"a": {"type": "string"}, "v": {"type": "string"}}, "required": ["a"]},
            "B": {"type": "object", "properties": {"b": {"type": "string"}, "v": {"type": "integer"}}, "required": ["b"]},
            "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
        })));
        // `k` is a constant in one member, a field in the other.
        assert!(!one_pass(serde_json::json!({
            "A": {"type": "object", "properties": {"a": {"type": "string"}, "k": {"const": "x"}}, "required": ["a", "k"]},
            "B": {"type": "object", "properties": {"b": {"type": "string"}, "k": {"type": "string"}}, "required": ["b"]},
            "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
        })));
        // Unknown members typed by one member (`additionalProperties` with a schema).
        assert!(!one_pass(serde_json::json!({
            "A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": {"type": "integer"}},
            "B": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
            "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
        })));
        // More members than `ONE_PASS_MEMBERS` (each told apart by a member of its own).
        let many = |n: usize| {
            let mut defs = serde_json::Map::new();
            let mut refs = Vec::new();
            for i in 0..n {
                let (name, member) = (format!("M{i}"), format!("m{i}"));
                defs.insert(name.clone(), serde_json::json!({"type": "object", "properties": {member.clone(): {"type": "string"}, "v": {"type": "string"}}, "required": [member]}));
                refs.push(serde_json::json!({"$ref": format!("#/$defs/{name}")}));
            }
            defs.insert("U".to_owned(), serde_json::json!({"anyOf": refs}));
            one_pass(serde_json::Value::Object(defs))
        };
        assert!(many(ONE_PASS_MEMBERS));
        assert!(!many(ONE_PASS_MEMBERS + 1));
        // The same slots decoded alike, one of them closed.
        assert!(one_pass(serde_json::json!({
            "A": {"type": "object", "properties": {"a": {"type": "string"}, "v": {"type": "string"}}, "required": ["a"]},
            "B": {"type": "object", "properties": {"b": {"type": "string"}, "v": {"type": "string"}}, "required": ["b"], "additionalProperties": false},
            "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
        })));
    }

    #[test]
    fn a_group_another_union_is_alone_is_decoded_by_that_union() {
        // `Items` is the two contents alone; `Field` is them under a tag (`kind`), beside a
        // third member; `Two` is the same two members again; `Rev` has them in the other
        // order (its own decoder: the order breaks ties).
        let m = module(serde_json::json!({
            "Text": {"type": "object", "properties": {"kind": {"const": "c"}, "text": {"type": "string"}}, "required": ["kind", "text"]},
            "Blob": {"type": "object", "properties": {"kind": {"const": "c"}, "blob": {"type": "string"}}, "required": ["kind", "blob"]},
            "Link": {"type": "object", "properties": {"kind": {"const": "l"}, "uri": {"type": "string"}}, "required": ["kind", "uri"]},
            "Items": {"anyOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Blob"}]},
            "Field": {"anyOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Blob"}, {"$ref": "#/$defs/Link"}]},
            "Two": {"anyOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Blob"}]},
            "Rev": {"anyOf": [{"$ref": "#/$defs/Blob"}, {"$ref": "#/$defs/Text"}]}
        }));
        let merged = |name: &str| -> Merged {
            match &plan_of(&m, name).object {
                ObjectPlan::Merged(mg) => mg.clone(),
                ObjectPlan::Tagged(t) => match &t.arms[0] {
                    (tag, Group::Merged(mg)) if tag == "c" => mg.clone(),
                    arm => panic!("{name}: {arm:?}"),
                },
                plan => panic!("{name}: {plan:?}"),
            }
        };
        assert_eq!(merged("Items").shared, None);
        assert_eq!(merged("Field").shared.as_deref(), Some("Items"));
        assert_eq!(merged("Two").shared.as_deref(), Some("Items"));
        assert_eq!(merged("Rev").shared, None);
    }

    #[test]
    fn self_referencing_unions_terminate() {
        // Each member reaches the union again: kinds are collected once per type.
        // (It used to explore 2^32 paths.) The result is an error here: after flattening,
        // two members of `A` take integers.
        for defs in [
            serde_json::json!({
                "A": {"anyOf": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}]},
                "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]},
                "C": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "integer"}]}
            }),
            serde_json::json!({"P": {"anyOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/P"}]}}),
        ] {
            let doc = SchemaDoc::from_value(serde_json::json!({"$defs": defs})).unwrap();
            let _ = crate::ir::lower(&doc);
        }
    }

    #[test]
    fn kinds_pick_scalar_members() {
        let m = module(
            serde_json::json!({"Id": {"type": ["string", "integer"]}, "N": {"anyOf": [{"type": "number"}, {"type": "integer"}]}}),
        );
        let p = plan_of(&m, "Id");
        assert_eq!(p.scalars.get(&Kind::String), Some(&0));
        assert_eq!(p.scalars.get(&Kind::Integer), Some(&1));
        let p = plan_of(&m, "N");
        assert_eq!(p.scalars.get(&Kind::Integer), Some(&1));
        assert_eq!(p.scalars.get(&Kind::Number), Some(&0));
    }
}
