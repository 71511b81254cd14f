//! Code-generation options, declared once: each is a field here with its doc, its CLI flag
//! (clap reads these attributes) and its [`Builder`](crate::Builder) setter.

use clap::Args;

/// Options that shape the generated code.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct Options {
    /// Path of the runtime the generated code calls: the crate `mcp-typed-runtime`, for
    /// mcp-typed's checked-in modules and a user's alike (`::mcp_typed::runtime`, its old
    /// default, still works in a crate that depends on mcp-typed).
    #[arg(long, value_name = "PATH", default_value = Options::DEFAULT_RUNTIME)]
    pub runtime_path: String,

    /// An extra derive for every generated type, e.g. `schemars::JsonSchema` (repeatable).
    #[arg(long = "derive", value_name = "PATH")]
    pub derives: Vec<String>,

    /// Wrap the output in `pub mod NAME { … }`; needed when the file is pulled in with
    /// `include!`, which accepts no inner attributes.
    #[arg(long, value_name = "NAME")]
    pub module_name: Option<String>,

    /// Treat a property as a constant that the schema fixes only in prose:
    /// `Definition.property=value` (repeatable). The default fixes
    /// `InputRequiredResult.resultType=input_required`, which the schema describes but types
    /// as a plain string; without it, a complete result that lacks a field would be taken
    /// for an input-required one. Definitions a revision does not have are ignored.
    #[arg(long = "fixed", value_name = "DEF.PROP=VALUE", default_values_t = Options::default_fixed())]
    pub fixed: Vec<String>,

    /// Hold a member behind a `Box`: `Definition.property` (repeatable), like prost-build's
    /// `boxed`. The default boxes the capabilities of `initialize` (`InitializeRequestParams`
    /// and `InitializeResult`): without it the message enums are as large as the first message
    /// of a session (2025-11-25's `ClientMessage`: 616 bytes, 256 with them boxed), and every
    /// message is moved at that size. A required member becomes `Box<T>` (its constructor
    /// still takes `impl Into<T>`), an optional one `Option<Box<T>>`. Definitions a revision
    /// does not have are ignored; a property a definition does not have is an error.
    #[arg(long = "boxed", value_name = "DEF.PROP", default_values_t = Options::default_boxed())]
    pub boxed: Vec<String>,

    /// Read the official schema to the letter: do not apply the project's errata
    /// (`schema/errata.json`, built in), the documented deviations that let the types decode
    /// what real peers send (decimal elicitation answers, `"id": null` error responses…).
    #[arg(long)]
    pub no_errata: bool,
}

impl Options {
    /// The default runtime path.
    pub const DEFAULT_RUNTIME: &'static str = "::mcp_typed_runtime";

    /// The default [`fixed`](Self::fixed) values.
    pub fn default_fixed() -> Vec<String> {
        vec!["InputRequiredResult.resultType=input_required".to_owned()]
    }

    /// The default [`boxed`](Self::boxed) members.
    pub fn default_boxed() -> Vec<String> {
        vec![
            "InitializeRequestParams.capabilities".to_owned(),
            "InitializeResult.capabilities".to_owned(),
        ]
    }

    /// Parses [`boxed`](Self::boxed): `(definition, property)`.
    pub fn boxed_members(&self) -> Result<Vec<(String, String)>, String> {
        self.boxed
            .iter()
            .map(|b| {
                let (def, prop) = b
                    .split_once('.')
                    .filter(|(d, p)| !d.is_empty() && !p.is_empty())
                    .ok_or_else(|| format!("--boxed {b:?}: expected DEFINITION.PROPERTY"))?;
                Ok((def.to_owned(), prop.to_owned()))
            })
            .collect()
    }

    /// Parses [`fixed`](Self::fixed): `(definition, property, value)`.
    pub fn fixed_values(&self) -> Result<Vec<(String, String, String)>, String> {
        self.fixed
            .iter()
            .map(|f| {
                let (path, value) = f
                    .split_once('=')
                    .ok_or_else(|| format!("--fixed {f:?}: expected DEFINITION.PROPERTY=VALUE"))?;
                let (def, prop) = path
                    .split_once('.')
                    .ok_or_else(|| format!("--fixed {f:?}: expected DEFINITION.PROPERTY=VALUE"))?;
                Ok((def.to_owned(), prop.to_owned(), value.to_owned()))
            })
            .collect()
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime_path: Self::DEFAULT_RUNTIME.to_owned(),
            derives: Vec::new(),
            module_name: None,
            fixed: Self::default_fixed(),
            boxed: Self::default_boxed(),
            no_errata: false,
        }
    }
}
