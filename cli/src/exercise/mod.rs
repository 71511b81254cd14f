//! `mcp-typed test`: drives a server through everything it declares, once per revision it
//! accepts, and holds every message both ways to that revision with the traffic checker.
//!
//! One module per stage: [`plan`] decides which tools may be called (read-only ones unless
//! told otherwise), [`drive`] runs one revision's session and gathers what went wrong,
//! [`report`] prints the matrix and the findings.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcp_typed::ProtocolVersion;

use crate::output::{Result, print};

mod drive;
mod plan;
mod report;

pub const LONG_HELP: &str = "\
Examples:
  mcp-typed test -- npx -y @modelcontextprotocol/server-everything
  mcp-typed test --url http://127.0.0.1:3001/mcp --header 'Authorization: Bearer …'
  mcp-typed test --revision 2025-11-25 --tool add --json -- python server.py
  mcp-typed test --dry-run -- ./my-server

Each revision (2024-11-05 … 2026-07-28, or those given with --revision) is offered in a session
of its own (`initialize`, or `server/discover` for 2026-07-28); for each one the server
accepts, the command lists every tool, prompt, resource and resource template (every page),
gets each prompt, reads each resource (and one template, subscribing where declared), pings,
sets the log level and asks for completions where declared, and calls tools: with arguments
generated from each input schema, then once with arguments the schema refuses (which must
come back as -32602 or a result with isError), checking structuredContent against the
outputSchema. The server's requests meanwhile are answered: forms with valid answers, a
decline and a cancel in turn; URLs declined (never opened); one root; a canned sampling reply.
One call is cancelled. Every message both ways is checked against the session's revision.

Only tools annotated readOnlyHint (and not destructiveHint) are called, unless named with
--tool or allowed with --call-all; --dry-run prints the plan and calls nothing.
Exit status: 1 when anything is wrong, 2 when the server cannot be started.";

/// Arguments of `test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Only this revision (repeatable; default: every revision, each offered in turn).
    #[arg(long = "revision", value_name = "R")]
    pub revisions: Vec<ProtocolVersion>,
    /// Call this tool even though it is not annotated read-only (repeatable).
    #[arg(long = "tool", value_name = "NAME")]
    pub tools: Vec<String>,
    /// Call every tool, read-only or not.
    #[arg(long)]
    pub call_all: bool,
    /// List what the server declares and print which tools would be called; call none.
    #[arg(long)]
    pub dry_run: bool,
    /// The most pages of one list read: a server still giving a next cursor after them is
    /// reported (a list that never ends).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_pages: usize,
    /// How many revisions are tested at once, each with a server process of its own (1: one
    /// after the other, for a server that cannot run twice).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub jobs: usize,
    /// The report as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for each answer.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub timeout: f64,
    /// Test the server at URL over Streamable HTTP instead (a session of its own per revision).
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    pub url: Option<String>,
    /// With --url: a header sent with every request, `NAME: VALUE` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url", value_parser = crate::output::header)]
    pub headers: Vec<(String, String)>,
    /// The server's command line (stdio).
    #[arg(last = true, value_name = "SERVER", required_unless_present = "url")]
    pub server: Vec<String>,
}

/// Every revision a session can be offered in, oldest first.
const REVISIONS: [ProtocolVersion; 5] = [
    ProtocolVersion::V2024_11_05,
    ProtocolVersion::V2025_03_26,
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2026_07_28,
];

pub fn run(args: TestArgs) -> Result<ExitCode> {
    let revisions = if args.revisions.is_empty() {
        REVISIONS.to_vec()
    } else {
        args.revisions.clone()
    };
    let started = Instant::now();
    let progress = report::Progress::new(!args.json);
    // Each revision is a session of its own (a server process of its own): `--jobs` of them
    // at once.
    let queue = std::sync::Mutex::new(revisions.iter().copied().enumerate());
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.clamp(1, revisions.len().max(1)) {
            scope.spawn(|| {
                while let Some((at, version)) = queue.lock().map(|mut q| q.next()).ok().flatten() {
                    progress.say(&format!("{version}: connecting"));
                    let run = drive::revision(&args, version, &progress);
                    done.lock().expect("no panic while held").push((at, run));
                }
            });
        }
    });
    progress.done();
    let mut runs = done.into_inner().expect("no panic while held");
    runs.sort_by_key(|(at, _)| *at);
    let runs = runs.into_iter().map(|(_, run)| run).collect();
    let report = report::Report::new(runs, started.elapsed());
    print(|out| {
        if args.json {
            report.write_json(out)
        } else {
            report.write_text(out)
        }
    })?;
    if report.accepted() == 0 {
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::from(u8::from(report.errors() > 0)))
}

fn timeout(args: &TestArgs) -> Duration {
    Duration::from_secs_f64(args.timeout.max(0.001))
}
