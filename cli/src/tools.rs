//! `mcp-typed tools`: asks a server for its tools (stdio or Streamable HTTP, with
//! [`mcp_typed_cli::tools_client`]) or reads a saved list, and writes the bindings with the
//! generator's [`ToolsBuilder`].

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcp_typed_cli::tools_client::{self, ServerTools};
use mcp_typed_codegen::{ToolsBuilder, ToolsOptions};

use crate::output::{Error, Result, print};

pub const LONG_HELP: &str = "\
Examples:
  mcp-typed tools --server --save tools.json --out src/tools.rs -- npx -y @modelcontextprotocol/server-everything
  mcp-typed tools --url https://mcp.example.com/mcp --header 'Authorization: Bearer …' --save tools.json --out src/tools.rs
  mcp-typed tools --from tools.json --out src/tools.rs --check   # exit 1 when out of date

--server initializes at the newest revision both sides speak (up to 2025-11-25), pages through
tools/list and stops the server; --url does the same over Streamable HTTP, and asks a
2026-07-28 server with server/discover. The module needs mcp-typed (with the --revision's
feature), serde (derive) and serde_json, plus regress/chrono/uuid when a schema uses `pattern`
or the date-time/uuid formats (the header lists them). A schema typify cannot take is warned
about and becomes a serde_json newtype for that tool. From a saved list, `mcp-typed-codegen
tools --from` and `mcp_typed_codegen::ToolsBuilder` (build.rs) write the same module.";

/// Arguments of `tools`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("live").args(["server", "url"])))]
pub struct ToolsArgs {
    /// A saved tools/list answer: `{\"tools\": [...]}`, a JSON-RPC response holding one, or an
    /// array of tools.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["server", "url"],
        required_unless_present_any = ["server", "url"]
    )]
    pub from: Option<PathBuf>,
    /// Start the server given after `--` and ask it (stdio).
    #[arg(long, requires = "command")]
    pub server: bool,
    /// Ask the server at URL over Streamable HTTP (loopback or remote).
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    pub url: Option<String>,
    /// With --url: a header sent with every request, `NAME: VALUE` (repeatable), e.g.
    /// `--header 'Authorization: Bearer …'`.
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url", value_parser = crate::output::header)]
    pub headers: Vec<(String, String)>,
    /// With --server or --url: also write the tool list received to FILE (for --from and
    /// build.rs).
    #[arg(long, value_name = "FILE", requires = "live")]
    pub save: Option<PathBuf>,
    /// With --server or --url: seconds to wait for each answer.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub timeout: f64,
    /// The file to write (default: stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write nothing; exit with status 1 when --out differs from what would be generated.
    #[arg(long, requires = "out")]
    pub check: bool,
    #[command(flatten)]
    pub options: ToolsOptions,
    /// The server command and its arguments (after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Runs `tools`.
pub fn run(args: ToolsArgs) -> Result<ExitCode> {
    let mut builder = ToolsBuilder::with_options(args.options.clone());
    match &args.from {
        Some(path) => builder.tool_list_path(path),
        None => {
            let (text, origin) = server_list(&args)?;
            builder.tool_list_json(text, origin)
        }
    };
    let started = Instant::now();
    let generated = builder.generate()?;
    let took = started.elapsed();
    for w in generated.warnings() {
        report!("warning: {w}");
    }
    let summary = format!(
        "{}; generated in {:.0} ms",
        generated.summary(),
        took.as_secs_f64() * 1000.0
    );
    match &args.out {
        None => {
            report!("{summary}");
            print(|out| out.write_all(generated.code().as_bytes()))?;
        }
        Some(path) if args.check => {
            let current = std::fs::read_to_string(path).unwrap_or_default();
            if current != generated.code() {
                report!(
                    "{} differs from the tool list; run `mcp-typed tools` without --check",
                    path.display()
                );
                print(|out| writeln!(out, "{}", path.display()))?;
                return Ok(ExitCode::FAILURE);
            }
            report!("{} is up to date ({summary})", path.display());
        }
        Some(path) => {
            let wrote = generated.write_to(path)?;
            report!(
                "{}: {summary}{}",
                path.display(),
                if wrote { "" } else { ", unchanged" }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks the server of `--server` or `--url`; writes `--save`. The list's text, and what the
/// bindings' header says it came from.
fn server_list(args: &ToolsArgs) -> Result<(String, String)> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(Error::Usage(format!(
            "--timeout {}: expected a positive number of seconds",
            args.timeout
        )));
    }
    let started = Instant::now();
    let timeout = Duration::from_secs_f64(args.timeout);
    let listed = match &args.url {
        Some(url) => http_list(url, &args.headers, timeout)?,
        None => tools_client::list_tools(&args.command, timeout)?,
    };
    report!(
        "server {} {}: protocol {}, {} tools in {} page(s), {} messages, {:.0} ms",
        listed.server.0,
        listed.server.1,
        listed.protocol_version,
        listed.tools.len(),
        listed.pages,
        listed.messages,
        started.elapsed().as_secs_f64() * 1000.0
    );
    let text = listed.to_json();
    if let Some(save) = &args.save {
        if std::fs::read_to_string(save).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(save, &text).map_err(|source| Error::Io {
                path: save.clone(),
                source,
            })?;
        }
        report!("saved the tool list to {}", save.display());
    }
    let origin = match &args.save {
        Some(save) => save
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        None => format!("the tools/list of {} {}", listed.server.0, listed.server.1),
    };
    Ok((text, origin))
}

fn http_list(url: &str, headers: &[(String, String)], timeout: Duration) -> Result<ServerTools> {
    Ok(tools_client::list_tools_http(url, headers, timeout)?)
}
