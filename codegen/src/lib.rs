#![doc = include_str!("../README.md")]
//!
//! # Modules
//!
//! The pipeline is `load → ir → emit`: [`load`] reads the JSON Schema (draft-07 or 2020-12)
//! and applies the errata and member order, [`ir`] turns it into a model of Rust types
//! (names, fields, constants, for each union the procedure that picks its variant, what each
//! type is for in the protocol, every doc text), and [`emit`] renders that model with
//! `syn`/`quote`/`prettyplease`. [`Builder`] drives it for both the CLI and `build.rs`.

#![deny(missing_docs)]
// The README shows a whole `build.rs`, `fn main` included.
#![allow(clippy::needless_doctest_main)]

pub mod builder;
pub mod conversions;
pub mod diff;
pub mod emit;
pub mod error;
pub mod fetch;
pub mod ir;
pub mod layout;
pub mod load;
pub mod manifest;
pub mod options;
pub mod registry;
pub mod source;
#[cfg(feature = "tools")]
pub mod tools;

pub use builder::{Builder, Generated};
pub use error::{Error, Result};
pub use options::Options;
#[cfg(feature = "tools")]
pub use tools::{GeneratedTools, ToolsBuilder, ToolsOptions};
