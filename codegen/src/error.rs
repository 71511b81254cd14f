//! The generator's error type.

use std::path::PathBuf;

/// Everything that can go wrong while loading a schema or generating code.
///
/// Schema errors always name the JSON pointer of the offending schema node, e.g.
/// `#/$defs/Tool/properties/inputSchema: unsupported keyword 'patternProperties'`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The schema file is not JSON.
    #[error("{origin}: invalid JSON: {source}")]
    Json {
        /// Where the text came from (a file name, or `<inline schema>`).
        origin: String,
        /// The parser's error, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// The schema uses something the generator does not support, or is malformed.
    #[error("{pointer}: {message}")]
    Schema {
        /// JSON pointer of the schema node, as a URI fragment (`#/$defs/Tool/...`).
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// A `schema.ts` could not be read for member order.
    #[error("{origin}:{line}: {message}")]
    TypeScript {
        /// The file.
        origin: String,
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No schema file was found for a revision.
    #[error(
        "no schema.json for revision {revision}; looked in: {}. Run `mcp-typed-codegen fetch --revision {revision}` to download it into schema/{revision}/, or point $MCP_SCHEMA_DIR at a folder holding <revision>/schema.json",
        searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    MissingSchema {
        /// The revision asked for.
        revision: String,
        /// Every path tried, in order.
        searched: Vec<PathBuf>,
    },
    /// The builder was not given what it needs.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// Fetching a schema failed.
    #[error("fetch failed: {0}")]
    Fetch(String),
    /// A schema file's SHA-256 is not the one `schema/manifest.json` pins.
    #[error(
        "SHA-256 mismatch for revision {revision} ({origin}): expected {expected}, got {actual}; nothing was written"
    )]
    HashMismatch {
        /// The revision.
        revision: String,
        /// Where the bytes came from (a URL or a path).
        origin: String,
        /// The hash the manifest pins.
        expected: String,
        /// The hash of the bytes received.
        actual: String,
    },
}

impl Error {
    /// A schema error at `pointer`.
    pub fn schema(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Schema {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
