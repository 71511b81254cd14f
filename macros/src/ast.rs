//! The input, read into what the derive needs: fields with their attributes, wire names and
//! the shape of their types as far as the syntax shows it.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{DeriveInput, GenericArgument, Ident, PathArguments, Type};

use crate::attr::{ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub attrs: ContainerAttrs,
    pub data: Data<'a>,
    pub input: &'a DeriveInput,
}

pub enum Data<'a> {
    /// A struct with named fields: a form.
    Form(Vec<Field<'a>>),
    /// An enum: the options of a select.
    Select(Vec<Variant<'a>>),
    /// Anything else (tuple/unit struct, union); rejected by the checks.
    Unsupported,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    /// The name on the wire.
    pub name: String,
    pub attrs: FieldAttrs,
    /// The declared type.
    pub ty: &'a Type,
    /// `Some` when the declared type is `Option<inner>`.
    pub option: Option<&'a Type>,
    /// The type inside `Option`, or the declared type.
    pub inner: &'a Type,
    /// What the syntax of `inner` shows.
    pub shape: Shape<'a>,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    /// The value on the wire.
    pub name: String,
    pub attrs: VariantAttrs,
    pub fields: &'a syn::Fields,
}

/// An integer type the derive knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntType {
    pub name: &'static str,
    pub min: i128,
    pub max: i128,
}

/// A typed format (with the `chrono`/`url` features of mcp-typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypedFormat {
    /// `NaiveDate` → `date`.
    Date,
    /// `DateTime<..>` → `date-time`.
    DateTime,
    /// `Url` → `uri`.
    Uri,
}

impl TypedFormat {
    pub fn format(self) -> &'static str {
        match self {
            TypedFormat::Date => "date",
            TypedFormat::DateTime => "date-time",
            TypedFormat::Uri => "uri",
        }
    }
}

/// A collection that makes a multi-select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    Vec,
    BTreeSet,
    HashSet,
}

impl Collection {
    pub fn name(self) -> &'static str {
        match self {
            Collection::Vec => "Vec",
            Collection::BTreeSet => "BTreeSet",
            Collection::HashSet => "HashSet",
        }
    }
}

/// What the syntax of a field's type shows.
pub enum Shape<'a> {
    String,
    Bool,
    Int(IntType),
    Float(&'static str),
    Typed(TypedFormat),
    /// `Vec`/`BTreeSet`/`HashSet` of `item`.
    Collection(Collection, &'a Type, Shape2),
    /// Another path type (an enum, or an alias): the trait `FormField` decides.
    Opaque,
    /// Known not to be supported; the message says why and what is.
    Rejected(String),
}

/// The shape of a collection's item (only what matters for a multi-select).
pub enum Shape2 {
    /// A path type that may be an enum deriving `Elicit`.
    Opaque,
    /// Known not to be an enum: the item type, described.
    NotEnum(String),
}

const INTS: &[IntType] = &[
    IntType {
        name: "i8",
        min: i8::MIN as i128,
        max: i8::MAX as i128,
    },
    IntType {
        name: "i16",
        min: i16::MIN as i128,
        max: i16::MAX as i128,
    },
    IntType {
        name: "i32",
        min: i32::MIN as i128,
        max: i32::MAX as i128,
    },
    IntType {
        name: "i64",
        min: i64::MIN as i128,
        max: i64::MAX as i128,
    },
    IntType {
        name: "isize",
        min: i64::MIN as i128,
        max: i64::MAX as i128,
    },
    IntType {
        name: "u8",
        min: 0,
        max: u8::MAX as i128,
    },
    IntType {
        name: "u16",
        min: 0,
        max: u16::MAX as i128,
    },
    IntType {
        name: "u32",
        min: 0,
        max: u32::MAX as i128,
    },
    IntType {
        name: "u64",
        min: 0,
        max: u64::MAX as i128,
    },
    IntType {
        name: "usize",
        min: 0,
        max: u64::MAX as i128,
    },
];

const SUPPORTED: &str = "supported field types: String, bool, i8..i64, u8..u64, isize, usize, f32, f64, a fieldless enum deriving `Elicit`, a Vec/BTreeSet/HashSet of such an enum, and Option of any of these";

/// The last segment of a path type with its generic arguments, if the type is a plain path.
fn last_segment(ty: &Type) -> Option<(&Ident, Vec<&Type>, bool)> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last()?;
            let args = match &seg.arguments {
                PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|a| match a {
                        GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let has_args = !matches!(seg.arguments, PathArguments::None);
            Some((&seg.ident, args, has_args))
        }
        Type::Group(g) => last_segment(&g.elem),
        Type::Paren(p) => last_segment(&p.elem),
        _ => None,
    }
}

/// `Some(inner)` when `ty` is `Option<inner>`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    match last_segment(ty)? {
        (ident, args, _) if ident == "Option" && args.len() == 1 => Some(args[0]),
        _ => None,
    }
}

/// Why a non-path type is not supported.
fn non_path(ty: &Type) -> Option<String> {
    let why = match ty {
        Type::Path(_) | Type::Group(_) | Type::Paren(_) => return None,
        Type::Reference(_) => "references are not supported: use an owned type such as `String`",
        Type::Tuple(t) if t.elems.is_empty() => {
            "`()` is not supported: a form field holds one primitive value"
        }
        Type::Tuple(_) => {
            "tuples are not supported: the spec allows only flat forms of primitive values; use one field per value"
        }
        Type::Array(_) | Type::Slice(_) => {
            "arrays and slices are not supported: a multi-select is a Vec/BTreeSet/HashSet of a fieldless enum deriving `Elicit`"
        }
        Type::Ptr(_) => "raw pointers are not supported",
        Type::BareFn(_) => "function pointers are not supported",
        Type::TraitObject(_) | Type::ImplTrait(_) => {
            "trait objects and `impl Trait` are not supported"
        }
        _ => "this type is not supported",
    };
    Some(format!("{why}; {SUPPORTED}"))
}

/// Reads what the syntax of `ty` (not an `Option`) shows.
pub fn shape(ty: &Type) -> Shape<'_> {
    if let Some(why) = non_path(ty) {
        return Shape::Rejected(why);
    }
    let Some((ident, args, has_args)) = last_segment(ty) else {
        return Shape::Opaque;
    };
    let name = ident.to_string();
    if !has_args {
        if let Some(int) = INTS.iter().find(|i| i.name == name) {
            return Shape::Int(*int);
        }
        match name.as_str() {
            "String" => return Shape::String,
            "bool" => return Shape::Bool,
            "f32" => return Shape::Float("f32"),
            "f64" => return Shape::Float("f64"),
            "NaiveDate" => return Shape::Typed(TypedFormat::Date),
            "Url" => return Shape::Typed(TypedFormat::Uri),
            "i128" | "u128" => {
                return Shape::Rejected(format!(
                    "`{name}` is not supported: JSON integers in MCP hold at most 64 bits; use i64 or u64"
                ));
            }
            "str" => {
                return Shape::Rejected(format!(
                    "`str` is not supported: use `String`; {SUPPORTED}"
                ));
            }
            _ => return Shape::Opaque,
        }
    }
    match name.as_str() {
        "DateTime" => Shape::Typed(TypedFormat::DateTime),
        "Option" => Shape::Rejected(
            "`Option<Option<_>>` is not supported: a field is either present or absent; use a single `Option`".to_owned(),
        ),
        "HashMap" | "BTreeMap" | "IndexMap" | "Map" => Shape::Rejected(format!(
            "maps are not supported: the spec allows only flat forms of primitive values; {SUPPORTED}"
        )),
        "Vec" | "BTreeSet" | "HashSet" if !args.is_empty() => {
            let collection = match name.as_str() {
                "Vec" => Collection::Vec,
                "BTreeSet" => Collection::BTreeSet,
                _ => Collection::HashSet,
            };
            let item = args[0];
            let item_shape = match shape(item) {
                Shape::Opaque => Shape2::Opaque,
                Shape::String => Shape2::NotEnum("a String".to_owned()),
                Shape::Bool => Shape2::NotEnum("a bool".to_owned()),
                Shape::Int(i) => Shape2::NotEnum(format!("an integer ({})", i.name)),
                Shape::Float(f) => Shape2::NotEnum(format!("a number ({f})")),
                Shape::Typed(t) => Shape2::NotEnum(format!("a {} string", t.format())),
                Shape::Collection(..) => Shape2::NotEnum("a collection".to_owned()),
                Shape::Rejected(_) => Shape2::NotEnum("not a fieldless enum".to_owned()),
            };
            Shape::Collection(collection, item, item_shape)
        }
        "Box" | "Rc" | "Arc" | "Cow" => Shape::Rejected(format!(
            "`{name}<..>` is not supported: use the value type directly; {SUPPORTED}"
        )),
        _ => Shape::Opaque,
    }
}

/// The identifier as written, without `r#`.
pub fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Container<'a> {
        let is_enum = matches!(input.data, syn::Data::Enum(_));
        let attrs = ContainerAttrs::from_ast(cx, &input.attrs, is_enum);
        let rule = attrs.rename_rule();
        let data = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => Data::Form(
                    named
                        .named
                        .iter()
                        .filter_map(|f| {
                            let ident = f.ident.as_ref()?;
                            let attrs = FieldAttrs::from_ast(cx, &f.attrs);
                            let name = match (&attrs.rename, &attrs.serde_rename, rule) {
                                (Some(r), _, _) => r.value.clone(),
                                (None, Some(r), _) => r.clone(),
                                (None, None, Some(rule)) => rule.apply_to_field(&unraw(ident)),
                                (None, None, None) => unraw(ident),
                            };
                            let option = option_inner(&f.ty);
                            let inner = option.unwrap_or(&f.ty);
                            Some(Field {
                                ident,
                                name,
                                attrs,
                                ty: &f.ty,
                                option,
                                inner,
                                shape: shape(inner),
                            })
                        })
                        .collect(),
                ),
                _ => Data::Unsupported,
            },
            syn::Data::Enum(e) => Data::Select(
                e.variants
                    .iter()
                    .map(|v| {
                        let attrs = VariantAttrs::from_ast(cx, &v.attrs);
                        let name = match (&attrs.rename, &attrs.serde_rename, rule) {
                            (Some(r), _, _) => r.value.clone(),
                            (None, Some(r), _) => r.clone(),
                            (None, None, Some(rule)) => rule.apply_to_variant(&unraw(&v.ident)),
                            (None, None, None) => unraw(&v.ident),
                        };
                        Variant {
                            ident: &v.ident,
                            name,
                            attrs,
                            fields: &v.fields,
                        }
                    })
                    .collect(),
            ),
            syn::Data::Union(_) => Data::Unsupported,
        };
        Container {
            ident: &input.ident,
            attrs,
            data,
            input,
        }
    }

    /// The span of `struct Name` / `enum Name` / `union Name`.
    pub fn keyword_span(&self) -> Span {
        match &self.input.data {
            syn::Data::Struct(s) => s.struct_token.span(),
            syn::Data::Enum(e) => e.enum_token.span(),
            syn::Data::Union(u) => u.union_token.span(),
        }
    }
}
