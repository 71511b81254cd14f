//! Command-line interface.

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_typed_codegen::{Builder, Options, source};

/// `eprintln!` that does not panic when stderr is closed (`mcp-typed-codegen diff R1 R2 2>&1 | head`):
/// a diagnostic nobody can read is no reason to fail. (In scope in the subcommand modules,
/// declared below; `cli::report!` elsewhere.)
macro_rules! report {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use report;

mod diff;
mod fetch;
mod generate;
#[cfg(feature = "tools")]
mod tools;

/// The exit status when stdout is closed before the output is written (`| head`): 128 +
/// SIGPIPE, what a shell reports for a producer killed by the signal, so that pipelines under
/// `set -o pipefail` treat this program like any other, and a cut-off `generate --check` never
/// looks successful.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Why a command stopped.
#[derive(Debug)]
pub enum Error {
    /// The generator failed (unknown revision, missing or invalid file, ...).
    Codegen(mcp_typed_codegen::Error),
    /// Writing the output to stdout failed. [`Error::is_broken_pipe`] tells whether the reader
    /// went away, which is not worth a message.
    Stdout(io::Error),
}

impl Error {
    /// Whether stdout was closed by its reader.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Stdout(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Codegen(e) => e.fmt(f),
            Error::Stdout(e) => write!(f, "writing to stdout: {e}"),
        }
    }
}

impl From<mcp_typed_codegen::Error> for Error {
    fn from(e: mcp_typed_codegen::Error) -> Self {
        Error::Codegen(e)
    }
}

/// The result of a command.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Writes a command's output to stdout, through one lock, and flushes it; an I/O error is
/// returned as [`Error::Stdout`] (never a panic, unlike `println!`).
pub fn print(write: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<()>) -> Result<()> {
    let mut out = io::stdout().lock();
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(Error::Stdout)
}

/// Generate Rust types for the Model Context Protocol from the official schema.json files.
#[derive(Debug, Parser)]
#[command(name = "mcp-typed-codegen", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Regenerate `generated/src/` (crate mcp-typed-types: every revision of
    /// schema/manifest.json, with the conversions) and `rules/src/revisions.rs` (ProtocolVersion), or, with --out DIR,
    /// write `<module>.rs` files for your own crate.
    #[command(after_long_help = GENERATE_HELP)]
    Generate(GenerateArgs),
    /// Fill the schema/<revision>/schema.json cache, verifying each file's SHA-256.
    #[command(after_long_help = fetch::LONG_HELP)]
    Fetch(fetch::FetchArgs),
    /// Report the definitions and fields added, removed and changed from revision R1 to R2.
    #[command(after_long_help = diff::LONG_HELP)]
    Diff(diff::DiffArgs),
    /// Typed Rust bindings for a server's tools, from a saved tools/list answer (--from FILE;
    /// to ask a running server: `mcp-typed tools --server`, crate mcp-typed-cli).
    #[cfg(feature = "tools")]
    #[command(after_long_help = tools::LONG_HELP)]
    Tools(tools::ToolsArgs),
}

const GENERATE_HELP: &str = "\
Outside this project (after `cargo install mcp-typed-codegen`):
  mcp-typed-codegen fetch --revision 2025-11-25           # into ./schema/2025-11-25/schema.json,
                                                    # verified against the built-in manifest
  mcp-typed-codegen generate --revision 2025-11-25 --out src/mcp
  # then in your crate, which depends on mcp-typed-runtime:  #[path = \"mcp/v2025_11_25.rs\"] mod mcp;

The code calls the crate mcp-typed-runtime as ::mcp_typed_runtime (change it with
--runtime-path): the module is the one checked into mcp-typed-types, byte for byte. Schemas are
looked up in --schema-dir, $MCP_SCHEMA_DIR, ./schema (the fetch cache) and ../shared/mcp-spec.";

/// Arguments of `generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Revision to generate (repeatable, with --out; default: every revision).
    #[arg(long = "revision", value_name = "R")]
    pub revisions: Vec<String>,
    /// Folder holding `<revision>/schema.json`, searched first (default: $MCP_SCHEMA_DIR).
    #[arg(long, value_name = "DIR")]
    pub schema_dir: Option<PathBuf>,
    /// Folder to write `<module>.rs` files into (default, inside the mcp-typed repository
    /// only: its `generated/src`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write nothing; exit with status 1 and list the files that differ.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub options: Options,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Fetch(args) => fetch::run(args),
        Command::Diff(args) => diff::run(args),
        #[cfg(feature = "tools")]
        Command::Tools(args) => tools::run(args),
    }
}

/// The project folder: found from the current directory.
pub fn workspace() -> mcp_typed_codegen::Result<PathBuf> {
    source::current_workspace()
}

/// A builder for one revision with the shared options.
pub fn builder_for(
    revision: &str,
    args_options: &Options,
    schema_dir: Option<&PathBuf>,
    workspace: &PathBuf,
) -> Builder {
    let mut b = Builder::with_options(args_options.clone());
    b.revision(revision).workspace(workspace);
    if let Some(d) = schema_dir {
        b.schema_dir(d);
    }
    b
}
