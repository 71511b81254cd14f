//! Which tools may be called: side effects only with consent.

use mcp_typed::v2025_11_25 as mcp;
use serde::Serialize;

use super::TestArgs;

/// What the command does with one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "plan", rename_all = "snake_case")]
pub enum Plan {
    /// Call it: why it may be.
    Call { because: &'static str },
    /// Leave it: why not.
    Skip { because: &'static str },
}

impl Plan {
    pub fn calls(&self) -> bool {
        matches!(self, Plan::Call { .. })
    }

    pub fn because(&self) -> &'static str {
        match self {
            Plan::Call { because } | Plan::Skip { because } => because,
        }
    }
}

/// A tool is called when named with `--tool`, when `--call-all` allows every tool, or when it
/// says it only reads (`readOnlyHint: true`) and does not say it destroys (`destructiveHint`).
/// The hints are the server's word, not a guarantee; that is why the default stops there.
pub fn tool(tool: &mcp::Tool, args: &TestArgs) -> Plan {
    if args.tools.contains(&tool.name) {
        return Plan::Call {
            because: "named with --tool",
        };
    }
    if args.call_all {
        return Plan::Call {
            because: "--call-all",
        };
    }
    let hints = tool.annotations.as_ref();
    let read_only = hints.and_then(|a| a.read_only_hint) == Some(true);
    let destructive = hints.and_then(|a| a.destructive_hint) == Some(true);
    match (read_only, destructive) {
        (true, false) => Plan::Call {
            because: "annotated readOnlyHint",
        },
        (true, true) => Plan::Skip {
            because: "annotated readOnlyHint but also destructiveHint",
        },
        (false, _) => Plan::Skip {
            because: "not annotated readOnlyHint (name it with --tool, or --call-all)",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TestArgs,
    }

    fn args(extra: &[&str]) -> TestArgs {
        let mut argv = vec!["test"];
        argv.extend(extra);
        argv.extend(["--", "server"]);
        Cli::parse_from(argv).args
    }

    fn with_hints(read_only: Option<bool>, destructive: Option<bool>) -> mcp::Tool {
        let mut hints = mcp::ToolAnnotations::new();
        hints.read_only_hint = read_only;
        hints.destructive_hint = destructive;
        mcp::Tool::new("t", mcp::ToolInputSchema::new()).with_annotations(hints)
    }

    #[test]
    fn only_read_only_tools_are_called_by_default() {
        let plain = mcp::Tool::new("t", mcp::ToolInputSchema::new());
        assert!(!tool(&plain, &args(&[])).calls());
        assert!(tool(&with_hints(Some(true), None), &args(&[])).calls());
        assert!(tool(&with_hints(Some(true), Some(false)), &args(&[])).calls());
        assert!(!tool(&with_hints(Some(true), Some(true)), &args(&[])).calls());
        assert!(!tool(&with_hints(Some(false), None), &args(&[])).calls());
        assert!(!tool(&with_hints(None, Some(false)), &args(&[])).calls());
    }

    #[test]
    fn consent_is_by_name_or_for_all() {
        let plain = mcp::Tool::new("t", mcp::ToolInputSchema::new());
        assert!(tool(&plain, &args(&["--tool", "t"])).calls());
        assert!(!tool(&plain, &args(&["--tool", "other"])).calls());
        assert!(tool(&with_hints(Some(true), Some(true)), &args(&["--call-all"])).calls());
    }
}
