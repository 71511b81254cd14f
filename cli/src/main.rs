//! `mcp-typed`: checks MCP traffic, tests a server, and writes typed bindings for a live
//! server's tools. One module per command; this file only parses the command line and
//! dispatches.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
mod output;
mod check;
mod exercise;
mod tools;

/// Check MCP traffic against the revision its two sides negotiated, and write typed Rust
/// bindings for a running server's tools.
#[derive(Debug, Parser)]
#[command(name = "mcp-typed", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check MCP traffic against the revision its two sides negotiated: captured files
    /// (FILE…), or live as a transparent proxy in front of a server (-- SERVER…, or --url).
    #[command(after_long_help = check::LONG_HELP)]
    Check(check::CheckArgs),
    /// Typed Rust bindings for a server's tools, asked of the server over stdio
    /// (--server -- CMD ARGS…) or Streamable HTTP (--url URL), or read from a saved
    /// tools/list answer (--from FILE).
    #[command(after_long_help = tools::LONG_HELP)]
    Tools(tools::ToolsArgs),
    /// Drive a server through everything it declares, at every revision it accepts, and
    /// check every message both ways (stdio: -- SERVER ARGS…).
    #[command(after_long_help = exercise::LONG_HELP)]
    Test(exercise::TestArgs),
}

fn main() -> ExitCode {
    output::exit(match Cli::parse().command {
        Command::Check(args) => check::run(args),
        Command::Tools(args) => tools::run(args),
        Command::Test(args) => exercise::run(args),
    })
}
