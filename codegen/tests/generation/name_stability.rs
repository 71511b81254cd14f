//! Code written against one revision compiles against the next where the schema did not
//! change: every definition, every inline type at the same place and every union member
//! present in two adjacent revisions keeps its Rust name.

use std::collections::BTreeMap;
use std::path::Path;

use mcp_typed_codegen::ir::{Module, TypeKind, TypeRef};
use mcp_typed_codegen::{Builder, source};

fn model(rev: &str) -> Module {
    let root = source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    Builder::new()
        .revision(rev)
        .workspace(root)
        .model()
        .unwrap()
}

/// Rust name by where the type comes from: its schema name, or for an inline type its
/// pointer below the definitions (the same in both dialects).
fn names(m: &Module) -> BTreeMap<String, String> {
    m.types
        .iter()
        .map(|t| {
            let key = match &t.schema_name {
                Some(s) => s.clone(),
                None => t.pointer.splitn(3, '/').nth(2).unwrap_or("").to_owned(),
            };
            (key, t.name.clone())
        })
        .collect()
}

/// `(union, member type) → variant name` for every union member that is a named type.
fn variants(m: &Module) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for t in &m.types {
        if let TypeKind::Union(u) = &t.kind {
            for v in &u.variants {
                if let TypeRef::Named(n) = &v.ty {
                    out.insert((t.name.clone(), n.clone()), v.rust_name.clone());
                }
            }
        }
    }
    out
}

/// Renames that are allowed: none. (An entry would read `("2025-06-18", "2025-11-25",
/// "Old", "New")` with the reason next to it.)
const ALLOWED: &[(&str, &str, &str, &str)] = &[];

#[test]
fn names_are_stable_between_adjacent_revisions() {
    let revisions = source::revisions();
    let models: Vec<Module> = revisions.iter().map(|r| model(r)).collect();
    let mut problems = Vec::new();
    let mut compared = (0, 0);
    for (i, pair) in models.windows(2).enumerate() {
        let (a, b) = (revisions[i], revisions[i + 1]);
        let (na, nb) = (names(&pair[0]), names(&pair[1]));
        for (key, old) in &na {
            if let Some(new) = nb.get(key) {
                compared.0 += 1;
                if old != new && !ALLOWED.contains(&(a, b, old.as_str(), new.as_str())) {
                    problems.push(format!("{a} → {b}: {key} is {old}, then {new}"));
                }
            }
        }
        let (va, vb) = (variants(&pair[0]), variants(&pair[1]));
        for ((union, member), old) in &va {
            if let Some(new) = vb.get(&(union.clone(), member.clone())) {
                compared.1 += 1;
                if old != new && !ALLOWED.contains(&(a, b, old.as_str(), new.as_str())) {
                    problems.push(format!(
                        "{a} → {b}: {union}'s member {member} is {union}::{old}, then {union}::{new}"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The comparison covered something: every revision shares most of its types with the next.
    assert!(compared.0 > 500 && compared.1 > 200, "{compared:?}");
    println!(
        "compared {} type names and {} variant names",
        compared.0, compared.1
    );
}

/// Every inline type is held by a field, an item, a map value or a variant: none is left
/// over when its union is flattened into its parent (the 2025-06-18 to 2026-07-28 modules
/// had `ElicitResultContentValueStringOrNumberOrBoolean`, which nothing held).
#[test]
fn every_inline_type_is_used() {
    fn refs<'a>(ty: &'a TypeRef, out: &mut Vec<&'a str>) {
        match ty {
            TypeRef::Named(n) => out.push(n),
            TypeRef::Array(t) | TypeRef::Map(t) | TypeRef::Nullable(t) => refs(t, out),
            _ => {}
        }
    }
    for rev in source::revisions() {
        let m = model(rev);
        let mut used = Vec::new();
        for t in &m.types {
            match &t.kind {
                TypeKind::Alias(a) => refs(a, &mut used),
                TypeKind::Struct(s) => {
                    for f in &s.fields {
                        refs(&f.ty, &mut used);
                    }
                    if let mcp_typed_codegen::ir::Extra::Typed(x) = &s.extra {
                        refs(x, &mut used);
                    }
                }
                TypeKind::Union(u) => u.variants.iter().for_each(|v| refs(&v.ty, &mut used)),
                TypeKind::StringEnum(_) => {}
            }
        }
        let unused: Vec<&str> = m
            .types
            .iter()
            .filter(|t| t.schema_name.is_none() && !used.contains(&t.name.as_str()))
            .map(|t| t.name.as_str())
            .collect();
        assert!(
            unused.is_empty(),
            "{rev}: inline types nothing holds: {unused:?}"
        );
    }
}
