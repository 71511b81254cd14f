//! `mcp-typed-codegen`: regenerate, check, compare and fetch MCP schema types.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        // The reader has all it wanted (`mcp-typed-codegen diff R1 R2 | head`): stop quietly.
        Err(e) if e.is_broken_pipe() => ExitCode::from(cli::EXIT_BROKEN_PIPE),
        Err(e) => {
            cli::report!("error: {e}");
            ExitCode::from(2)
        }
    }
}
