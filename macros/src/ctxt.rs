//! Collects every error found in the input, so that a user sees all of them at once.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The errors found so far. Must be consumed with [`Ctxt::check`].
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Option<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt::default()
    }

    /// Records an error spanned on `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at `span`.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records a parse error.
    pub fn syn_error(&self, error: syn::Error) {
        let mut errors = self.errors.borrow_mut();
        match errors.as_mut() {
            Some(all) => all.combine(error),
            None => *errors = Some(error),
        }
    }

    /// All errors, combined; `Ok` when there were none.
    pub fn check(self) -> syn::Result<()> {
        match self.errors.into_inner() {
            Some(errors) => Err(errors),
            None => Ok(()),
        }
    }
}
