//! `mcp-typed-codegen tools`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use mcp_typed_codegen::ToolsOptions;
use mcp_typed_codegen::tools::{self, load};

use super::{Result, print};

pub const LONG_HELP: &str = "\
Examples:
  mcp-typed-codegen tools --server --save tools.json --out src/tools.rs -- npx -y @modelcontextprotocol/server-everything
  mcp-typed-codegen tools --from tools.json --out src/tools.rs
  mcp-typed-codegen tools --from tools.json --out src/tools.rs --check   # exit 1 when out of date

The module needs mcp-typed (with the --revision's feature), serde (derive) and serde_json,
plus regress/chrono/uuid when a schema uses `pattern` or the date-time/uuid formats (the
header lists them). A schema typify cannot take is warned about and becomes a serde_json
newtype for that tool.";

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
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    pub headers: Vec<String>,
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

pub fn run(args: ToolsArgs) -> Result<ExitCode> {
    let (text, origin) = match &args.from {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|source| mcp_typed_codegen::Error::Io {
                    path: path.clone(),
                    source,
                })?;
            let origin = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            (text, origin)
        }
        None => server_list(&args)?,
    };
    let started = Instant::now();
    let defs = load::parse_tool_list(&text, &origin)?;
    let generated = tools::generate(&defs, &args.options, &origin, &text)?;
    let took = started.elapsed();
    for w in generated.warnings() {
        report!("warning: {w}");
    }
    let tools = generated.tools();
    let typed = tools.iter().filter(|t| t.fully_typed()).count();
    let partly = tools
        .iter()
        .filter(|t| t.typed() && !t.loosened.is_empty())
        .count();
    let members: usize = tools.iter().map(|t| t.loosened.len()).sum();
    let whole = tools.iter().filter(|t| !t.typed()).count();
    let summary = format!(
        "{} tools: {typed} fully typed, {partly} typed but for {members} loosened member(s), {whole} with a serde_json fallback; generated in {:.0} ms",
        defs.len(),
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
                    "{} differs from the tool list; run `mcp-typed-codegen tools` without --check",
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

#[cfg(feature = "tools-server")]
fn server_list(args: &ToolsArgs) -> Result<(String, String)> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(mcp_typed_codegen::Error::Config(format!(
            "--timeout {}: expected a positive number of seconds",
            args.timeout
        ))
        .into());
    }
    let started = Instant::now();
    let timeout = std::time::Duration::from_secs_f64(args.timeout);
    let listed = match &args.url {
        Some(url) => http_list(url, &args.headers, timeout)?,
        None => tools::client::list_tools(&args.command, timeout)?,
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
            std::fs::write(save, &text).map_err(|source| mcp_typed_codegen::Error::Io {
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

#[cfg(all(feature = "tools-server", feature = "http"))]
fn http_list(
    url: &str,
    headers: &[String],
    timeout: std::time::Duration,
) -> Result<tools::client::ServerTools> {
    let headers = headers
        .iter()
        .map(|h| match h.split_once(':') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
            _ => Err(mcp_typed_codegen::Error::Config(format!(
                "--header {h:?}: expected `NAME: VALUE`"
            ))),
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(tools::client::list_tools_http(url, &headers, timeout)?)
}

#[cfg(all(feature = "tools-server", not(feature = "http")))]
fn http_list(_: &str, _: &[String], _: std::time::Duration) -> Result<tools::client::ServerTools> {
    Err(mcp_typed_codegen::Error::Config(
        "--url needs mcp-typed-codegen built with the `http` feature (on by default)".into(),
    )
    .into())
}

#[cfg(not(feature = "tools-server"))]
fn server_list(_: &ToolsArgs) -> Result<(String, String)> {
    Err(mcp_typed_codegen::Error::Config(
        "--server needs mcp-typed-codegen built with the `tools-server` feature (`cargo install mcp-typed-codegen --features tools-server`, or `cargo run -p mcp-typed-codegen --features tools-server -- tools …`); or use --from FILE".into(),
    )
    .into())
}
