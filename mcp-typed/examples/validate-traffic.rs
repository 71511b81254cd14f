//! Checks recorded MCP traffic against the generated types of one protocol revision: a thin
//! command line over [`mcp_typed::check`].
//!
//! ```text
//! cargo run -p mcp-typed --all-features --example validate-traffic -- \
//!     --revision 2025-11-25 session.jsonl
//! cargo run -p mcp-typed --all-features --example validate-traffic -- \
//!     --revision draft --definition CallToolResult results.jsonl
//! ```
//!
//! Input: JSON values, one JSON-RPC message each, or `{"dir":"c2s"|"s2c","msg":{…}}` to say
//! which side sent it (`c2s`: client to server): JSON Lines, one pretty-printed document, or
//! values one after another. Blank lines are skipped; a line that is not JSON is reported and
//! reading goes on at the next line.
//!
//! Output: one line per message, in input order (`mcp_typed::check::Report`'s `Display`),
//! then `N passed, M failed`:
//! - `ok <what>`: decoded into the revision's types, and encoding it again gives back the same
//!   JSON. `<what>` is the typed variant: `request CallToolRequest (tools/call)`,
//!   `notification Custom (vendor/x)`, `response to tools/call (CallToolResult)`,
//!   `error -32602 to tools/call`. Notes may follow: what the message holds that the
//!   revision does not define, kept whole (`note: /result/content/1: unknown
//!   CallToolResultContentItem `type` "audio" (not in 2024-11-05)`, see `mcp_typed::Unknowns`),
//!   and the errata of `schema/errata.json` that were needed to accept it (`note: erratum
//!   elicit-content-numbers: /result/content/n`).
//! - `lossy <paths>`: decoded, but the re-encoded JSON differs at these JSON Pointer paths
//!   (`/params/progress: 50 -> 50.0`); numbers compare by value, integer-vs-float is a change.
//! - `error <reason>`: not valid JSON, not a valid message of this revision (the type, what it
//!   wants, the JSON Pointer and the revision: ``ClientRequest: missing field `name` at
//!   /params (2025-11-25)``), or a protocol problem: a response to no earlier request
//!   (`response: /id: …`), a request the receiver's capabilities (learned from `initialize`)
//!   do not allow, a form-mode elicitation asking for a password, a URL-mode one over plain
//!   http. For a request, the reason starts with its id and method and the JSON-RPC error a
//!   receiver answers (`request id 4 (tools/call), answer -32602: …`).
//!
//! Lossy and error lines count as failed; the exit status is 1 when any line failed (2 for a
//! usage error or an unreadable file). `--json` prints each report, then the summary, as one
//! JSON object per line instead.
//!
//! Typing goes beyond the JSON-RPC envelope: requests decode through `ClientRequest` (`c2s`)
//! or `ServerRequest` (`s2c`; in revisions without one, `InputRequest`), notifications
//! through `ClientNotification` / `ServerNotification`, both sides tried when the direction
//! is not given; with a direction, a method that only the other side sends is an error
//! (`wrong direction: CreateMessageRequest is a ServerRequest, not a ClientRequest (sent c2s)`).
//! A result decodes as the result type of the latest request with the same `id` sent earlier
//! in the file from the other side (`RequestMethod::Result`); `(untyped)` for a method the
//! revision does not define.
//!
//! With `--definition NAME` every line is decoded as that schema definition's type instead
//! (`with_definition`), and printed as `ok NAME` (`ok ContentBlock (ImageContent)` for a union).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mcp_typed::ProtocolVersion;
use mcp_typed::check::{self, Checker};

#[derive(Parser, Debug)]
#[command(
    about = "Decode each line of a JSON Lines MCP traffic file with the generated types of one \
             revision, re-encode it, and report ok / lossy / error per line."
)]
struct Args {
    /// Protocol revision: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 or draft.
    #[arg(long, value_parser = parse_revision)]
    revision: ProtocolVersion,
    /// Decode every line as this schema definition (e.g. `CallToolResult`) instead of as a
    /// JSON-RPC message.
    #[arg(long, value_name = "NAME")]
    definition: Option<String>,
    /// Print each report and the summary as JSON, one object per line.
    #[arg(long)]
    json: bool,
    /// The JSON Lines file; `-` reads standard input.
    file: PathBuf,
}

fn parse_revision(s: &str) -> Result<ProtocolVersion, String> {
    if s.eq_ignore_ascii_case("draft") {
        return Ok(ProtocolVersion::Draft);
    }
    s.parse::<ProtocolVersion>().map_err(|e| {
        let known: Vec<&str> = ProtocolVersion::ALL
            .iter()
            .map(|v| match v {
                ProtocolVersion::Draft => "draft",
                v => v.as_str(),
            })
            .collect();
        format!("{e}; expected one of {}", known.join(", "))
    })
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(name) = &args.definition {
        let definitions = check::definitions(args.revision);
        if !definitions.contains(&name.as_str()) {
            eprintln!(
                "validate-traffic: revision {} has no schema definition `{name}` (it has: {})",
                args.revision,
                definitions.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let text = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text).map(|_| text)
    } else {
        std::fs::read_to_string(&args.file)
    };
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            eprintln!("validate-traffic: {}: {e}", args.file.display());
            return ExitCode::from(2);
        }
    };

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut checker = Checker::with_revision(args.revision);
    for (_, value) in check::split_values(&text) {
        let report = match value {
            Err(e) => checker.unreadable(e),
            Ok(line) => match (&args.definition, check::unwrap_line(line)) {
                (_, Err(e)) => checker.unreadable(e),
                (Some(name), Ok((_, message))) => checker.check_definition(name, message),
                (None, Ok((dir, message))) => checker.check(dir, message),
            },
        };
        let written = if args.json {
            serde_json::to_writer(&mut out, &report)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out))
        } else {
            writeln!(out, "{report}")
        };
        // A closed pipe (`| head`) ends the run quietly.
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
    let summary = checker.summary();
    let written = if args.json {
        serde_json::to_writer(&mut out, &summary)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        writeln!(out, "{summary}")
    };
    if written.and_then(|()| out.flush()).is_err() {
        return ExitCode::FAILURE;
    }
    if summary.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revision_names() {
        assert_eq!(parse_revision("draft"), Ok(ProtocolVersion::Draft));
        assert_eq!(
            parse_revision("2025-11-25"),
            Ok(ProtocolVersion::V2025_11_25)
        );
        let e = parse_revision("2025-01-01").unwrap_err();
        assert!(e.contains("2024-11-05") && e.contains("draft"), "{e}");
    }
}
