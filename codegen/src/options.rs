//! Code-generation options, declared once: each is a field here with its doc, its CLI flag
//! (clap reads these attributes) and its [`Builder`](crate::Builder) setter.

use clap::Args;

/// Options that shape the generated code.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct Options {
    /// Path of the runtime module the generated code calls (`::mcp_types::runtime` for a
    /// crate that depends on mcp-types; `crate::runtime` inside mcp-types).
    #[arg(long, value_name = "PATH", default_value = Options::DEFAULT_RUNTIME)]
    pub runtime_path: String,

    /// An extra derive for every generated type, e.g. `schemars::JsonSchema` (repeatable).
    #[arg(long = "derive", value_name = "PATH")]
    pub derives: Vec<String>,

    /// Wrap the output in `pub mod NAME { … }`; needed when the file is pulled in with
    /// `include!`, which accepts no inner attributes.
    #[arg(long, value_name = "NAME")]
    pub module_name: Option<String>,
}

impl Options {
    /// The default runtime path.
    pub const DEFAULT_RUNTIME: &'static str = "::mcp_types::runtime";
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime_path: Self::DEFAULT_RUNTIME.to_owned(),
            derives: Vec::new(),
            module_name: None,
        }
    }
}
