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
  mcp-typed-codegen tools --from tools.json --out src/tools.rs
  mcp-typed-codegen tools --from tools.json --out src/tools.rs --check   # exit 1 when out of date

To ask a running server for its tools (stdio or Streamable HTTP) and save the list, use the
`mcp-typed` command (`cargo install mcp-typed-cli`):
  mcp-typed tools --server --save tools.json --out src/tools.rs -- npx -y @modelcontextprotocol/server-everything

The module needs mcp-typed (with the --revision's feature), serde (derive) and serde_json,
plus regress/chrono/uuid when a schema uses `pattern` or the date-time/uuid formats (the
header lists them). A schema typify cannot take is warned about and becomes a serde_json
newtype for that tool.";

/// Arguments of `tools`.
#[derive(Debug, clap::Args)]
pub struct ToolsArgs {
    /// A saved tools/list answer: `{\"tools\": [...]}`, a JSON-RPC response holding one, or an
    /// array of tools.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The file to write (default: stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write nothing; exit with status 1 when --out differs from what would be generated.
    #[arg(long, requires = "out")]
    pub check: bool,
    #[command(flatten)]
    pub options: ToolsOptions,
}

pub fn run(args: ToolsArgs) -> Result<ExitCode> {
    let path = &args.from;
    let text = std::fs::read_to_string(path).map_err(|source| mcp_typed_codegen::Error::Io {
        path: path.clone(),
        source,
    })?;
    let origin = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let started = Instant::now();
    let defs = load::parse_tool_list(&text, &origin)?;
    let generated = tools::generate(&defs, &args.options, &origin, &text)?;
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
