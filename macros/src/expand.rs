//! The generated code: a `static` [`FormSchema`] per struct and the `Elicit` impl reading
//! content through it; an `ElicitEnum` impl per enum. On invalid input, the errors plus a
//! stand-in impl, so that uses of the type do not add errors of their own.

use proc_macro2::{Group, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;

use crate::ast::{Container, Data, Field, Shape, Variant};
use crate::attr::{DefaultLit, NumLit, Spanned};

fn krate(cont: &Container) -> TokenStream {
    match &cont.attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::mcp_typed),
    }
}

fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt<T>(value: &Option<Spanned<T>>, f: impl Fn(&T) -> TokenStream) -> TokenStream {
    match value {
        Some(v) => {
            let inner = f(&v.value);
            quote!(::core::option::Option::Some(#inner))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn num(n: &NumLit) -> TokenStream {
    match *n {
        NumLit::Int(i) => quote!(__p::Num::Int(#i)),
        NumLit::Float(f) => {
            // As bits: a literal such as 3.14 in generated code would trip lints
            // (clippy::approx_constant) in the user's crate.
            let bits = f.to_bits();
            quote!(__p::Num::Float(::core::primitive::f64::from_bits(#bits)))
        }
    }
}

fn default_value(d: &DefaultLit) -> TokenStream {
    match d {
        DefaultLit::Str(s) => quote!(__p::DefaultValue::Str(#s)),
        DefaultLit::Bool(b) => quote!(__p::DefaultValue::Bool(#b)),
        DefaultLit::Num(n) => {
            let n = num(n);
            quote!(__p::DefaultValue::Num(#n))
        }
        DefaultLit::List(items) => quote!(__p::DefaultValue::Strs(&[#(#items),*])),
    }
}

/// Expands valid input.
pub fn expand(cont: &Container) -> TokenStream {
    match &cont.data {
        Data::Form(fields) => expand_form(cont, fields),
        Data::Select(variants) => expand_select(cont, variants),
        Data::Unsupported => stand_in(cont),
    }
}

/// The impl emitted with the errors when the input is invalid: it compiles whatever the
/// input, so the only errors the user sees are the derive's.
pub fn stand_in(cont: &Container) -> TokenStream {
    let krate = krate(cont);
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.input.generics.split_for_impl();
    match &cont.input.data {
        syn::Data::Enum(_) => quote! {
            impl #impl_generics #krate::elicit::ElicitEnum for #ident #ty_generics #where_clause {
                const OPTIONS: &'static [#krate::elicit::EnumOption] = &[];
                fn from_value(_: &str) -> ::core::option::Option<Self> {
                    ::core::option::Option::None
                }
                fn value(&self) -> &'static str {
                    ""
                }
            }
        },
        _ => quote! {
            impl #impl_generics #krate::elicit::Elicit for #ident #ty_generics #where_clause {
                fn requested_schema() -> &'static #krate::elicit::FormSchema {
                    static FORM: #krate::elicit::FormSchema = #krate::elicit::FormSchema {
                        title: ::core::option::Option::None,
                        description: ::core::option::Option::None,
                        fields: &[],
                    };
                    &FORM
                }
                fn from_content(
                    _: &#krate::elicit::__private::serde_json::Map<
                        ::std::string::String,
                        #krate::elicit::__private::serde_json::Value,
                    >,
                ) -> ::core::result::Result<Self, #krate::elicit::ContentError> {
                    ::core::result::Result::Err(
                        #krate::elicit::__private::Errors::default()
                            .incomplete(<Self as #krate::elicit::Elicit>::requested_schema()),
                    )
                }
            }
        },
    }
}

fn expand_select(cont: &Container, variants: &[Variant]) -> TokenStream {
    let krate = krate(cont);
    let ident = cont.ident;
    let options = variants.iter().map(|v| {
        let value = &v.name;
        let title = opt_str(v.attrs.title.as_ref().map(|t| t.value.as_str()));
        quote!(__p::EnumOption { value: #value, title: #title })
    });
    let from = variants.iter().map(|v| {
        let (value, variant) = (&v.name, v.ident);
        quote!(#value => ::core::option::Option::Some(Self::#variant))
    });
    let to = variants.iter().map(|v| {
        let (value, variant) = (&v.name, v.ident);
        quote!(Self::#variant => #value)
    });
    quote! {
        const _: () = {
            use #krate::elicit::__private as __p;

            #[automatically_derived]
            impl __p::ElicitEnum for #ident {
                const OPTIONS: &'static [__p::EnumOption] = &[#(#options),*];

                fn from_value(value: &str) -> ::core::option::Option<Self> {
                    match value {
                        #(#from,)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn value(&self) -> &'static str {
                    match *self {
                        #(#to,)*
                    }
                }
            }
        };
    }
}

/// `const __readerN: Reader = required::<T>();` (or `optional`): the one place that needs
/// `T: FormField`, spanned on the type so that an unsupported type is reported once, on the
/// field.
fn reader(field: &Field, name: &Ident) -> TokenStream {
    let inner = field.inner;
    let make = if field.option.is_some() {
        quote!(optional)
    } else {
        quote!(required)
    };
    quote_spanned!(inner.span()=> const #name: __p::Reader = __p::#make::<#inner>();)
}

fn field_schema(field: &Field, reader: &Ident) -> TokenStream {
    let a = &field.attrs;
    let name = &field.name;
    let title = opt_str(a.title.as_ref().map(|t| t.value.as_str()));
    let description = opt_str(
        a.description
            .as_ref()
            .map(|d| d.value.as_str())
            .or(a.doc.as_deref()),
    );
    let required = field.option.is_none() && a.default.is_none();
    let count = |v: &u64| quote!(#v);
    let min_length = opt(&a.min_length, count);
    let max_length = opt(&a.max_length, count);
    let min_items = opt(&a.min_items, count);
    let max_items = opt(&a.max_items, count);
    let pattern = opt(&a.pattern, |p| quote!(__p::Pattern::new(#p)));
    let format = opt(&a.format, |f| match f.as_str() {
        "email" => quote!(__p::Format::Email),
        "uri" => quote!(__p::Format::Uri),
        "date" => quote!(__p::Format::Date),
        _ => quote!(__p::Format::DateTime),
    });
    let minimum = opt(&a.minimum, num);
    let maximum = opt(&a.maximum, num);
    let default = opt(&a.default, default_value);
    let legacy = a.legacy_enum_names.is_some();
    let since = opt(&a.since, |r| {
        let name = r.as_str();
        quote!(__p::revision(#name))
    });
    quote! {
        __p::FieldSchema {
            name: #name,
            title: #title,
            description: #description,
            required: #required,
            ty: #reader.ty,
            constraints: __p::Constraints {
                min_length: #min_length,
                max_length: #max_length,
                pattern: #pattern,
                format: #format,
                minimum: #minimum,
                maximum: #maximum,
                min_items: #min_items,
                max_items: #max_items,
                default: #default,
                legacy_enum_names: #legacy,
                since: #since,
            },
        }
    }
}

/// With `#[elicit(min_revision = "..")]`: a constant check that the field can be expressed in
/// every revision from it on (from its `since` on), through its type. The derive has checked
/// what it can see (a `Vec` of an enum); this catches what it cannot (an alias), and keeps
/// the derive's list of what each revision can express honest.
fn min_revision_check(cont: &Container, field: &Field, reader: &Ident) -> TokenStream {
    let Some(min) = &cont.attrs.min_revision else {
        return TokenStream::new();
    };
    let message = crate::check::multi_select_message(field, min.value);
    let min = min.value.as_str();
    let since = opt(&field.attrs.since, |r| {
        let name = r.as_str();
        quote!(__p::revision(#name))
    });
    require(
        field.inner.span(),
        quote!(__p::serves(#reader.ty, #since, __p::revision(#min))),
        message,
    )
}

/// `tokens` with every span set to `span`, so that errors about them point there.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                TokenTree::Group(group)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// A check in a constant, spanned (the field's type included) on the attribute it is about.
fn at(span: Span, check: TokenStream) -> TokenStream {
    respan(quote!(const _: () = #check;), span)
}

/// `require(ok, message)` in a constant, spanned on the attribute.
fn require(span: Span, ok: TokenStream, message: String) -> TokenStream {
    at(span, quote!(__p::require(#ok, #message)))
}

/// Checks for what the derive cannot see: the attributes of a field whose type is a path it
/// cannot classify become trait bounds (with messages naming the attribute) and constant
/// checks of the values.
fn opaque_checks(field: &Field) -> TokenStream {
    let a = &field.attrs;
    let t = field.inner;
    let ident = field.ident;
    let mut out = TokenStream::new();
    match &field.shape {
        Shape::Opaque => {
            for v in [&a.format, &a.pattern].into_iter().flatten() {
                out.extend(at(v.span, quote!(__p::text::<#t>())));
            }
            for v in [&a.min_length, &a.max_length].into_iter().flatten() {
                out.extend(at(v.span, quote!(__p::text::<#t>())));
            }
            for v in [&a.min_items, &a.max_items].into_iter().flatten() {
                out.extend(at(v.span, quote!(__p::items::<#t>())));
            }
            if let Some(v) = &a.legacy_enum_names {
                out.extend(at(v.span, quote!(__p::select::<#t>())));
            }
            for (bound, key) in [(&a.minimum, "minimum"), (&a.maximum, "maximum")] {
                let Some(v) = bound else { continue };
                let message = format!(
                    "`{key} = {}` of field `{ident}` does not fit the field's type (outside the integer type's range, or a fraction for an integer type)",
                    v.value
                );
                let fits = match v.value {
                    NumLit::Int(i) => quote!(__p::int_fits::<#t>(#i)),
                    NumLit::Float(f) => {
                        let bits = f.to_bits();
                        quote!(__p::float_fits::<#t>(::core::primitive::f64::from_bits(#bits)))
                    }
                };
                out.extend(require(v.span, fits, message));
            }
            if let Some(d) = &a.default {
                out.extend(default_check(field, d));
            }
        }
        Shape::Collection(..) => {
            if let Some(d) = &a.default {
                out.extend(default_check(field, d));
            }
        }
        _ => {}
    }
    out
}

fn default_check(field: &Field, d: &Spanned<DefaultLit>) -> TokenStream {
    let t = field.inner;
    let ident = field.ident;
    match &d.value {
        DefaultLit::Str(s) => {
            let message = format!(
                "`default = {s:?}` of field `{ident}` is not one of the values of its enum (the values are the variant names after `rename`/`rename_all`)"
            );
            require(d.span, quote!(__p::str_default_fits::<#t>(#s)), message)
        }
        DefaultLit::Bool(_) => at(d.span, quote!(__p::bool_default::<#t>())),
        DefaultLit::Num(n) => {
            let message = format!(
                "`default = {n}` of field `{ident}` does not fit the field's type (outside the integer type's range, or a fraction for an integer type)"
            );
            let fits = match *n {
                NumLit::Int(i) => quote!(__p::int_fits::<#t>(#i)),
                NumLit::Float(f) => {
                    let bits = f.to_bits();
                    quote!(__p::float_fits::<#t>(::core::primitive::f64::from_bits(#bits)))
                }
            };
            require(d.span, fits, message)
        }
        DefaultLit::List(items) => {
            let message = format!(
                "`default` of field `{ident}` selects a value that is not one of its enum's values (the values are the variant names after `rename`/`rename_all`)"
            );
            require(
                d.span,
                quote!(__p::list_default_fits::<#t>(&[#(#items),*])),
                message,
            )
        }
    }
}

fn expand_form(cont: &Container, fields: &[Field]) -> TokenStream {
    let krate = krate(cont);
    let ident = cont.ident;
    let n = fields.len();
    let reader_names: Vec<_> = (0..n).map(|i| format_ident!("__reader{}", i)).collect();
    let readers = fields.iter().zip(&reader_names).map(|(f, r)| reader(f, r));
    let schemas = fields
        .iter()
        .zip(&reader_names)
        .map(|(f, r)| field_schema(f, r));
    let checks = fields.iter().map(opaque_checks);
    let revision_checks = fields
        .iter()
        .zip(&reader_names)
        .map(|(f, r)| min_revision_check(cont, f, r));
    let title = opt_str(cont.attrs.title.as_ref().map(|t| t.value.as_str()));
    let description = opt_str(
        cont.attrs
            .description
            .as_ref()
            .map(|d| d.value.as_str())
            .or(cont.attrs.doc.as_deref()),
    );
    let specs: Vec<_> = (0..n).map(|i| format_ident!("__field{}", i)).collect();
    let values: Vec<_> = (0..n).map(|i| format_ident!("__value{}", i)).collect();
    // The slots are `Option<declared type>`; no trait is needed to declare them, so an
    // unsupported type is reported once, by its reader.
    let slots = fields.iter().zip(&values).map(|(field, value)| {
        let ty = field.ty;
        quote_spanned!(ty.span()=>
            let mut #value: ::core::option::Option<#ty> = ::core::option::Option::None;
        )
    });
    // One pass over the content's entries: each key is matched against the field names (a
    // `match` on strings, no hashing) and its value kept for the field; a key that is no
    // field's is recorded as unknown in the same pass.
    let found: Vec<_> = (0..n).map(|i| format_ident!("__found{}", i)).collect();
    let names = fields.iter().map(|f| f.name.as_str());
    let reads = specs
        .iter()
        .zip(&found)
        .zip(&values)
        .zip(&reader_names)
        .map(|(((spec, found), value), reader)| {
            quote!((#reader.read)(&mut __errors, #spec, #found, &mut #value);)
        });
    let indices = 0..n;
    let idents = fields.iter().map(|f| f.ident);
    quote! {
        const _: () = {
            use #krate::elicit::__private as __p;

            #(#readers)*
            static __FIELDS: [__p::FieldSchema; #n] = [#(#schemas),*];
            static __FORM: __p::FormSchema = __p::FormSchema {
                title: #title,
                description: #description,
                fields: &__FIELDS,
            };

            #(#checks)*
            #(#revision_checks)*

            #[automatically_derived]
            impl #krate::elicit::Elicit for #ident {
                fn requested_schema() -> &'static __p::FormSchema {
                    &__FORM
                }

                fn from_content(
                    __content: &__p::serde_json::Map<::std::string::String, __p::serde_json::Value>,
                ) -> ::core::result::Result<Self, __p::ContentError> {
                    #[allow(unused_mut)]
                    let mut __errors = __p::Errors::new();
                    #[allow(unused_mut)]
                    let mut __found: [::core::option::Option<&__p::serde_json::Value>; #n] =
                        [::core::option::Option::None; #n];
                    for (__key, __value) in __content {
                        match __key.as_str() {
                            #(#names => __found[#indices] = ::core::option::Option::Some(__value),)*
                            _ => __errors.unknown_key(__key),
                        }
                    }
                    let [#(#found),*] = __found;
                    let [#(#specs),*] = &__FIELDS;
                    #(#slots)*
                    #(#reads)*
                    match (#(#values,)*) {
                        (#(::core::option::Option::Some(#values),)*) => {
                            __errors.finish(&__FORM)?;
                            ::core::result::Result::Ok(Self { #(#idents: #values),* })
                        }
                        #[allow(unreachable_patterns)]
                        _ => ::core::result::Result::Err(__errors.incomplete(&__FORM)),
                    }
                }
            }
        };
    }
}
