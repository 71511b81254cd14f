//! Command-line interface.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_codegen::{Builder, Options, Result, source};

mod diff;
mod fetch;
mod generate;

/// Generate Rust types for the Model Context Protocol from the official schema.json files.
#[derive(Debug, Parser)]
#[command(name = "mcp-codegen", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Regenerate the checked-in modules of `generated/` (all revisions unless --revision).
    Generate(GenerateArgs),
    /// Fill the schema/<revision>/schema.json cache, verifying each file's SHA-256.
    #[command(after_long_help = fetch::LONG_HELP)]
    Fetch(fetch::FetchArgs),
    /// Report the definitions and fields added, removed and changed from revision R1 to R2.
    #[command(after_long_help = diff::LONG_HELP)]
    Diff(diff::DiffArgs),
}

/// Arguments of `generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Revision to generate (repeatable; default: every revision).
    #[arg(long = "revision", value_name = "R")]
    pub revisions: Vec<String>,
    /// Folder holding `<revision>/schema.json`, searched first (default: $MCP_SCHEMA_DIR).
    #[arg(long, value_name = "DIR")]
    pub schema_dir: Option<PathBuf>,
    /// Folder to write `<module>.rs` files into (default: `<workspace>/generated/src`).
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
    }
}

/// The project folder: found from the current directory.
pub fn workspace() -> Result<PathBuf> {
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
