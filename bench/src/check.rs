//! The traffic checker's cost per message: what `mcp-typed check -- SERVER…` (the live
//! proxy, `cli/src/check.rs`) adds to each message it passes on.
//!
//! The proxy forwards a chunk's bytes first, then checks each complete line in the pump
//! thread, so the time a line takes there is what the next message on that pump can wait.
//! Every capture in `tests/fixtures/real-traffic/*.jsonl` (each a session) is replayed in
//! order, through a fresh state per session, exactly as the proxy sees it: the `{"dir","msg"}`
//! wrapper is taken off by [`unwrap_line`] beforehand, and the message text with its
//! direction is what is measured. Each message is timed on its own ([`Work`]):
//!
//! * [`Work::Value`]: `serde_json::from_str::<Value>` of the message, the anchor (what any
//!   proxy that reads the messages at least does);
//! * [`Work::Check`]: `Checker::check(Some(dir), text)` (and dropping its report);
//! * [`Work::ProxyJson`] / [`Work::ProxyText`]: the proxy's whole per-line work — the line
//!   copied out of the read buffer, queued under the lock, then under the lock again checked
//!   and its report written as a line (`--json`, or the default text) to a sink
//!   ([`std::io::sink`]; the proxy writes to stderr or `--report FILE`). This copies the
//!   private `pump`/`Shared::drain`/`Sink::write` of `cli/src/check.rs`; keep them
//!   alike. Not included: reading and forwarding the bytes, which the proxy does before the
//!   check and any proxy does.

use std::collections::VecDeque;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use mcp_typed::check::{Checker, Direction, Report, Verdict, unwrap_line};

use crate::corpus::real_traffic_dir;

/// One captured session: its messages in wire order, with who sent each.
#[derive(Debug, Clone)]
pub struct Session {
    /// The capture's file name.
    pub file: String,
    /// Direction and exact text of each message.
    pub messages: Vec<(Option<Direction>, String)>,
}

/// Every `*.jsonl` capture in `tests/fixtures/real-traffic`, in name order.
pub fn sessions() -> anyhow::Result<Vec<Session>> {
    let dir = real_traffic_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    anyhow::ensure!(!files.is_empty(), "no *.jsonl capture in {}", dir.display());
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
            let messages = text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(n, line)| {
                    let (dir, message) = unwrap_line(line)
                        .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
                    Ok((dir, message.to_owned()))
                })
                .collect::<anyhow::Result<_>>()?;
            Ok(Session {
                file: path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                messages,
            })
        })
        .collect()
}

/// What is done to each message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// `serde_json::from_str::<serde_json::Value>`: the anchor.
    Value,
    /// `Checker::check`.
    Check,
    /// The proxy's per-line work with `--json` reports.
    ProxyJson,
    /// The proxy's per-line work with text reports (its default).
    ProxyText,
}

impl Work {
    /// All of them, in table order.
    pub const ALL: [Work; 4] = [Work::Value, Work::Check, Work::ProxyJson, Work::ProxyText];

    /// Its name on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Work::Value => "serde_json::Value",
            Work::Check => "Checker::check",
            Work::ProxyJson => "proxy-line-json",
            Work::ProxyText => "proxy-line-text",
        }
    }

    /// The work called `name`.
    pub fn by_name(name: &str) -> anyhow::Result<Work> {
        Work::ALL
            .into_iter()
            .find(|w| w.name() == name)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "unknown work `{name}` ({})",
                    Work::ALL.map(Work::name).join(", ")
                )
            })
    }
}

/// What the proxy's two pumps share (as `cli/src/check.rs`'s `Shared`).
struct Shared {
    checker: Checker,
    sink: Sink,
    queue: VecDeque<(Direction, String)>,
}

impl Shared {
    fn drain(&mut self) {
        while let Some((dir, line)) = self.queue.pop_front() {
            let report = self.checker.check(Some(dir), &line);
            self.sink.write(Some(dir), &report);
        }
    }
}

/// Where the proxy writes its reports (as `cli/src/check.rs`'s `Sink`, proxy mode:
/// no file name or line number).
struct Sink {
    out: Box<dyn Write + Send>,
    json: bool,
    errors: usize,
}

impl Sink {
    fn write(&mut self, dir: Option<Direction>, report: &Report) {
        if report.verdict == Verdict::Error {
            self.errors += 1;
        }
        let label = dir.map_or("?", Direction::as_str);
        let text = if self.json {
            let mut value = serde_json::to_value(report).expect("reports encode");
            if let Some(object) = value.as_object_mut() {
                object.insert("dir".into(), label.into());
            }
            value.to_string()
        } else {
            format!("{label} {report}")
        };
        let _ = writeln!(self.out, "{text}").and_then(|()| self.out.flush());
    }
}

/// One session's state for one [`Work`].
pub struct State(Inner);

// Four per session: their size does not matter, and the checker is used in place.
#[allow(clippy::large_enum_variant)]
enum Inner {
    Value,
    Check(Checker),
    /// Shared by the two pumps in the proxy, hence the lock.
    Proxy(Arc<Mutex<Shared>>),
}

impl State {
    /// A fresh state, at the start of a session.
    pub fn new(work: Work) -> State {
        let proxy = |json| {
            Inner::Proxy(Arc::new(Mutex::new(Shared {
                checker: Checker::new(),
                sink: Sink {
                    out: Box::new(io::sink()),
                    json,
                    errors: 0,
                },
                queue: VecDeque::new(),
            })))
        };
        State(match work {
            Work::Value => Inner::Value,
            Work::Check => Inner::Check(Checker::new()),
            Work::ProxyJson => proxy(true),
            Work::ProxyText => proxy(false),
        })
    }

    /// Does the work for one message (everything it builds is dropped before returning);
    /// returns a number that depends on the result.
    pub fn message(&mut self, dir: Option<Direction>, text: &str) -> usize {
        match &mut self.0 {
            Inner::Value => serde_json::from_str::<serde_json::Value>(text)
                .map_or(0, |v| usize::from(v.is_object())),
            Inner::Check(checker) => {
                let report = checker.check(dir, text);
                report.verdict as usize + report.problems.len()
            }
            Inner::Proxy(shared) => {
                let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
                // The pump: the complete line copied out of the read buffer and queued…
                let line = String::from_utf8_lossy(text.as_bytes()).trim().to_owned();
                let dir = dir.unwrap_or(Direction::ClientToServer);
                lock().queue.push_back((dir, line));
                // …then, after the bytes are forwarded, checked and reported.
                let mut shared = lock();
                shared.drain();
                shared.sink.errors
            }
        }
    }
}

/// One message's work: `measure.sh` has callgrind count from its start to the following
/// [`message_done`], each message separately (`--zero-before=*measured_message*
/// --dump-before=*message_done*`; `--dump-after` does not fire here).
#[inline(never)]
pub fn measured_message(state: &mut State, dir: Option<Direction>, text: &str) -> usize {
    black_box(state.message(dir, black_box(text)))
}

/// Called after each [`measured_message`]: where callgrind writes the message's count.
#[inline(never)]
pub fn message_done() {
    black_box(());
}

/// Replays every session once with `work` (a fresh state per session); returns a sum
/// depending on the results.
pub fn replay(sessions: &[Session], work: Work) -> usize {
    let mut sum = 0;
    for session in sessions {
        let mut state = State::new(work);
        for (dir, text) in &session.messages {
            sum += measured_message(&mut state, *dir, text);
            message_done();
        }
    }
    sum
}

/// The wall-clock time of every message with every [`Work`]: `[work][message][round]`
/// (messages numbered across sessions in order). The works run side by side: each session is
/// replayed once per round, each message done by every work in turn (their order rotating
/// from round to round), each with its own state. One more round first warms up (lazily
/// built tables, caches) and is not kept.
pub fn wall_clock(sessions: &[Session], rounds: usize) -> Vec<Vec<Vec<Duration>>> {
    let count: usize = sessions.iter().map(|s| s.messages.len()).sum();
    let mut times = vec![vec![Vec::with_capacity(rounds); count]; Work::ALL.len()];
    for round in 0..=rounds {
        let mut i = 0;
        for session in sessions {
            let mut states = Work::ALL.map(State::new);
            for (dir, text) in &session.messages {
                for k in 0..Work::ALL.len() {
                    let w = (k + round) % Work::ALL.len();
                    let start = Instant::now();
                    black_box(states[w].message(*dir, black_box(text)));
                    let took = start.elapsed();
                    if round > 0 {
                        times[w][i].push(took);
                    }
                }
                i += 1;
            }
        }
    }
    times
}

/// The value below which a fraction `q` of the sorted `values` lie (nearest rank).
pub fn percentile<T: Copy>(sorted: &[T], q: f64) -> T {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
