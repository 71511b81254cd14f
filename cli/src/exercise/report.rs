//! The report: a matrix (revision × capability: offered / exercised / problems), what was
//! called, and every finding with its message, JSON Pointer and rule; or all of it as JSON.

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use serde::Serialize;

use super::drive::{CAPABILITIES, Level, Run, Status};

/// The progress line on stderr, when stderr is a terminal.
pub struct Progress {
    on: bool,
}

// One line, whichever thread writes it.
impl Progress {
    fn write(&self, text: &str) {
        let mut err = io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{text}");
        let _ = err.flush();
    }
}

impl Progress {
    pub fn new(wanted: bool) -> Progress {
        Progress {
            on: wanted && io::stderr().is_terminal(),
        }
    }

    pub fn say(&self, what: &str) {
        if self.on {
            let line: String = what.chars().take(100).collect();
            self.write(&line);
        }
    }

    pub fn done(&self) {
        if self.on {
            self.write("");
        }
    }
}

#[derive(Serialize)]
pub struct Report {
    /// The server's name and version, as it said.
    server: Option<String>,
    #[serde(serialize_with = "millis")]
    elapsed: Duration,
    /// Messages the command sent, every revision together.
    sent: usize,
    errors: usize,
    revisions: Vec<Run>,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u128(d.as_millis())
}

impl Report {
    pub fn new(revisions: Vec<Run>, elapsed: Duration) -> Report {
        Report {
            server: revisions.iter().find_map(|r| r.server.clone()),
            elapsed,
            sent: revisions.iter().map(|r| r.sent).sum(),
            errors: revisions.iter().map(Run::errors).sum(),
            revisions,
        }
    }

    /// Revisions the server accepted.
    pub fn accepted(&self) -> usize {
        let tested = self.revisions.iter();
        tested
            .filter(|r| !matches!(r.status, Status::NotServed(_)))
            .count()
    }

    pub fn errors(&self) -> usize {
        self.errors
    }

    pub fn write_json(&self, out: &mut impl Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        writeln!(out)
    }

    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let server = self.server.as_deref().unwrap_or("the server");
        writeln!(
            out,
            "{server}: {} of {} revisions tested in {:.1} s, {} messages sent, {}",
            self.accepted(),
            self.revisions.len(),
            self.elapsed.as_secs_f64(),
            self.sent,
            count(self.errors, "error"),
        )?;
        writeln!(out)?;
        // The matrix: exercised (problems) per capability; `-` where not offered.
        write!(out, "{:<11}", "revision")?;
        for capability in CAPABILITIES {
            write!(out, " {capability:>11}")?;
        }
        writeln!(out)?;
        for run in &self.revisions {
            write!(out, "{:<11}", run.revision.as_str())?;
            match &run.status {
                Status::NotServed(_) => {
                    writeln!(out, " not served")?;
                    continue;
                }
                Status::Failed(_) | Status::Tested => {}
            }
            for capability in CAPABILITIES {
                let cell = &run.matrix[capability];
                let text = match (cell.offered, cell.problems) {
                    (false, 0) if cell.exercised == 0 => "-".to_owned(),
                    (_, 0) => cell.exercised.to_string(),
                    (_, n) => format!("{} ✗{n}", cell.exercised),
                };
                write!(out, " {text:>11}")?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "(requests sent or answered per capability; ✗ errors in its messages; - not offered)"
        )?;
        // The plan of the newest revision (a server may offer more tools to a newer client).
        if let Some(run) = self.revisions.iter().rev().find(|r| !r.tools.is_empty()) {
            writeln!(out)?;
            let (called, skipped): (Vec<_>, Vec<_>) =
                run.tools.iter().partition(|(_, plan)| plan.calls());
            let names = |tools: &[(&String, _)]| {
                let names: Vec<&str> = tools.iter().map(|(n, _)| n.as_str()).collect();
                names.join(", ")
            };
            if !called.is_empty() {
                writeln!(out, "tools called: {}", names(&called))?;
            }
            for (name, plan) in &skipped {
                writeln!(out, "tool not called: {name} ({})", plan.because())?;
            }
        }
        for run in &self.revisions {
            let errors = run.findings.iter().filter(|f| f.level == Level::Error);
            let notes = run.findings.len() - errors.clone().count();
            match &run.status {
                Status::NotServed(why) => {
                    writeln!(out, "\n{}: not served: {why}", run.revision)?;
                    continue;
                }
                Status::Failed(why) => writeln!(out, "\n{}: broke off: {why}", run.revision)?,
                Status::Tested => writeln!(
                    out,
                    "\n{}: {}, {}, {} sent, {} received, {:.1} s",
                    run.revision,
                    count(errors.count(), "error"),
                    count(notes, "note"),
                    run.sent,
                    run.received,
                    run.elapsed.as_secs_f64()
                )?,
            }
            for finding in &run.findings {
                let level = match finding.level {
                    Level::Error => "error",
                    Level::Note => "note ",
                };
                let at = if finding.pointer.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", finding.pointer)
                };
                // The checker's messages start with their pointer, shown already.
                let message = (finding.message.strip_prefix(&finding.pointer))
                    .and_then(|m| m.strip_prefix(": "))
                    .filter(|_| !finding.pointer.is_empty())
                    .unwrap_or(&finding.message);
                writeln!(
                    out,
                    "  {level} [{}] {}{at}: {message} ({})",
                    finding.capability, finding.what, finding.rule
                )?;
            }
        }
        Ok(())
    }
}

/// `1 error`, `2 errors`.
fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}
