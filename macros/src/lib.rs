#![doc = include_str!("../README.md")]
//!
//! # How it works
//!
//! The pipeline: `attr` reads the attributes, `ast` the input, `check` enforces every rule
//! (collecting all errors in a `ctxt::Ctxt`), `expand` writes the code — or, when there were
//! errors, the errors plus a stand-in impl.

#![deny(missing_docs)]

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod formats;
mod symbol;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `mcp_typed::elicit::Elicit` for a struct with named fields (a form), or
/// `mcp_typed::elicit::ElicitEnum` for an enum of unit variants (the options of a select).
///
/// See the `mcp_typed::elicit` module for the attributes.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let cont = ast::Container::from_ast(&cx, input);
    check::check(&cx, &cont);
    match cx.check() {
        Ok(()) => expand::expand(&cont),
        Err(errors) => {
            let mut out = errors.to_compile_error();
            out.extend(expand::stand_in(&cont));
            out
        }
    }
}
