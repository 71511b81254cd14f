//! `mcp-typed check`: holds MCP traffic to the revision its two sides negotiated, from
//! captured files or live, as a transparent stdio proxy in front of a server.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use mcp_typed::ProtocolVersion;
use mcp_typed::check::{Checker, Direction, Report, Verdict, split_values, unwrap_line};

use crate::output::{Error, Result, print};

mod http;

pub const LONG_HELP: &str = "\
Captured traffic:
  mcp-typed check session.jsonl            # {\"dir\":\"c2s\"|\"s2c\",\"msg\":{…}} per line
  mcp-typed check --dir s2c replies.json   # plain messages, one per line or pretty
Live, in front of a Streamable HTTP server (point the client at the address printed):
  mcp-typed check --url http://127.0.0.1:3000/mcp --listen 127.0.0.1:3001
Live, in front of a stdio server (the client starts this instead of the server; every byte
passes through unchanged, the reports go to stderr or --report FILE):
  mcp-typed check --report mcp.log -- npx -y @modelcontextprotocol/server-everything

Each message is checked against the revision the two sides negotiated (`initialize`, or the
`_meta` of a 2026-07-28 request), or against --revision. Per message: `ok`, `ok` with notes
(errata applied, members from another revision), or `error` naming the JSON Pointer and what
the revision wants; protocol findings too (a response to an unknown id, a request the
declared capabilities do not allow, a method of the wrong direction, a form asking for a
secret, a URL elicitation over plain http, bytes that are not UTF-8). A summary follows.
Exit status: 1 when any message is an error, 2 when a file cannot be read; in proxy mode, otherwise the server's.";

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Captured traffic: JSON Lines of `{"dir","msg"}`, or plain messages (one per line,
    /// pretty-printed, or one after another); `-` reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Check every message against this revision instead of the one the traffic negotiates.
    #[arg(long, value_name = "R")]
    pub revision: Option<String>,
    /// Who sent the plain messages of the files: `c2s` (client to server) or `s2c`.
    #[arg(long, value_name = "DIR", value_parser = parse_direction)]
    pub dir: Option<Direction>,
    /// One JSON object per message, then the summary, instead of text lines.
    #[arg(long)]
    pub json: bool,
    /// Where the reports go in proxy mode (default: stderr; stdout carries the protocol).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Proxy mode for a Streamable HTTP server: the server's URL (the proxy listens on
    /// --listen and forwards every request there).
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    pub url: Option<String>,
    /// Where the HTTP proxy listens (loopback only; port 0 picks a free one, printed on stderr).
    #[arg(
        long,
        value_name = "ADDR",
        default_value = "127.0.0.1:0",
        requires = "url"
    )]
    pub listen: String,
    /// The longest line read, in bytes (a suffix K, M or G counts binary units: 64M is
    /// 64 MiB). A longer line is passed on as it comes (proxy) but not kept: reported as a
    /// `size_limit` error, not checked.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_line: u64,
    /// Proxy mode: the server's command line.
    #[arg(last = true, value_name = "SERVER")]
    pub server: Vec<String>,
}

fn parse_direction(s: &str) -> std::result::Result<Direction, String> {
    match s {
        "c2s" => Ok(Direction::ClientToServer),
        "s2c" => Ok(Direction::ServerToClient),
        _ => Err(format!("`{s}`: expected c2s (client to server) or s2c")),
    }
}

fn parse_size(s: &str) -> std::result::Result<u64, String> {
    let (digits, unit) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&s[..i], c.to_ascii_uppercase()),
        _ => (s, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        _ => {
            return Err(format!(
                "`{s}`: a number of bytes, with K, M or G after it or not"
            ));
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}`: a number of bytes, with K, M or G after it or not"))?;
    match n.checked_mul(1 << shift) {
        Some(0) | None => Err(format!("`{s}`: from 1 byte to 2^64 - 1")),
        Some(n) => Ok(n),
    }
}

fn label(dir: Option<Direction>) -> &'static str {
    match dir {
        Some(Direction::ClientToServer) => "c2s",
        Some(Direction::ServerToClient) => "s2c",
        None => "?",
    }
}

/// Runs `check`.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let checker = match &args.revision {
        Some(r) => match r.parse::<ProtocolVersion>() {
            Ok(version) => Checker::with_revision(version),
            Err(e) => {
                report!("error: --revision {r}: {e}");
                return Ok(ExitCode::from(2));
            }
        },
        None => Checker::new(),
    };
    if !args.server.is_empty() || args.url.is_some() {
        return proxy(&args, checker);
    }
    if args.files.is_empty() {
        report!("error: give FILE… to check captured traffic, or -- SERVER… to proxy a server");
        return Ok(ExitCode::from(2));
    }
    files(&args, checker)
}

/// Where reports are written, one line (text or JSON) each.
struct Sink {
    out: Box<dyn Write + Send>,
    json: bool,
    errors: usize,
}

impl Sink {
    fn write(&mut self, file: Option<&str>, line: usize, dir: Option<Direction>, report: &Report) {
        if report.verdict == Verdict::Error {
            self.errors += 1;
        }
        let at = match file {
            Some(file) => format!("{file}:{line}: "),
            None => String::new(),
        };
        let text = if self.json {
            let mut value = serde_json::to_value(report).expect("reports encode");
            if let Some(object) = value.as_object_mut() {
                object.insert("dir".into(), label(dir).into());
                if let Some(file) = file {
                    object.insert("file".into(), file.into());
                    object.insert("line".into(), line.into());
                }
            }
            value.to_string()
        } else {
            format!("{at}{} {report}", label(dir))
        };
        // A report nobody can read is no reason to stop the traffic.
        let _ = writeln!(self.out, "{text}").and_then(|()| self.out.flush());
    }

    fn summary(&mut self, checker: &Checker) {
        let summary = checker.summary();
        let text = if self.json {
            serde_json::json!({ "summary": summary }).to_string()
        } else {
            summary.to_string()
        };
        let _ = writeln!(self.out, "{text}").and_then(|()| self.out.flush());
    }
}

fn files(args: &CheckArgs, mut checker: Checker) -> Result<ExitCode> {
    let mut sink = Sink {
        out: Box::new(io::stdout()),
        json: args.json,
        errors: 0,
    };
    for path in &args.files {
        let name = path.display().to_string();
        let bytes = if name == "-" {
            let mut bytes = Vec::new();
            io::stdin().read_to_end(&mut bytes).map(|_| bytes)
        } else {
            std::fs::read(path)
        };
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(e) => {
                report!("error: {name}: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        // Text that is UTF-8 throughout is read value by value, whatever its layout; else
        // line by line, each stretch of UTF-8 lines value by value and each line that is not
        // UTF-8 on its own (its bad bytes named, the rest checked).
        let mut stretch = (0, 1);
        let mut number = 0;
        let mut start = 0;
        for line in bytes.split_inclusive(|b| *b == b'\n') {
            number += 1;
            // Its length without the newline, as the proxy counts.
            let length = line.strip_suffix(b"\n").unwrap_or(line).len() as u64;
            let long = length > args.max_line;
            if long || std::str::from_utf8(line).is_err() {
                let text = std::str::from_utf8(&bytes[stretch.0..start]).expect("UTF-8 lines");
                check_text(&mut checker, &mut sink, args.dir, &name, text, stretch.1);
                let (dir, report) = if long {
                    (args.dir, checker.oversized(length, args.max_line))
                } else {
                    checker.check_line_bytes(line.trim_ascii(), args.dir)
                };
                sink.write(Some(&name), number, dir, &report);
                stretch = (start + line.len(), number + 1);
            }
            start += line.len();
        }
        let text = std::str::from_utf8(&bytes[stretch.0..]).expect("UTF-8 lines");
        check_text(&mut checker, &mut sink, args.dir, &name, text, stretch.1);
    }
    sink.summary(&checker);
    print(|_| Ok(()))?;
    Ok(ExitCode::from(u8::from(sink.errors > 0)))
}

/// Checks the values of `text`, which starts on line `first` of the file `name`.
fn check_text(
    checker: &mut Checker,
    sink: &mut Sink,
    default: Option<Direction>,
    name: &str,
    text: &str,
    first: usize,
) {
    for (line, value) in split_values(text) {
        let line = line + first - 1;
        let read = value.and_then(unwrap_line);
        let report = match read {
            Ok((dir, message)) => {
                let dir = dir.or(default);
                let report = checker.check(dir, message);
                sink.write(Some(name), line, dir, &report);
                continue;
            }
            Err(e) => checker.unreadable(e),
        };
        sink.write(Some(name), line, default, &report);
    }
}

/// The stdio proxy: starts the server, passes every byte both ways as it comes, and checks
/// each complete line on the way.
fn proxy(args: &CheckArgs, checker: Checker) -> Result<ExitCode> {
    let out: Box<dyn Write + Send> = match &args.report {
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(BufWriter::new(file)),
            Err(e) => {
                report!("error: --report {}: {e}", path.display());
                return Ok(ExitCode::from(2));
            }
        },
        None => Box::new(io::stderr()),
    };
    let sink = Sink {
        out,
        json: args.json,
        errors: 0,
    };
    // Lines are checked on a thread of their own, in the order they were read: neither
    // direction waits for a check to pass its bytes on. Up to twice --max-line waits there
    // (a pump that would queue more waits instead).
    let shared = Arc::new(Queue::new(args.max_line.saturating_mul(2)));
    let checking = {
        let queue = shared.clone();
        std::thread::spawn(move || queue.check_all(checker, sink))
    };
    if let Some(url) = &args.url {
        if let Err(e) = http::serve(url, &args.listen, shared) {
            report!("error: --listen {}: {e}", args.listen);
            return Ok(ExitCode::from(2));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (program, rest) = args.server.split_first().expect("a server command");
    let mut command = Command::new(program);
    command
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    // Its own process group: a signal to the proxy reaches the server (and what it started)
    // through the proxy, which can then wait for it and report.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut server = match command.spawn() {
        Ok(server) => server,
        Err(e) => {
            report!("error: cannot start {program}: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let to_server = server.stdin.take().expect("piped");
    let from_server = server.stdout.take().expect("piped");
    let up = {
        let shared = shared.clone();
        let limit = args.max_line;
        std::thread::spawn(move || {
            pump(
                io::stdin(),
                to_server,
                Direction::ClientToServer,
                limit,
                &shared,
            )
        })
    };
    let down = {
        let shared = shared.clone();
        let limit = args.max_line;
        std::thread::spawn(move || {
            pump(
                from_server,
                io::stdout(),
                Direction::ServerToClient,
                limit,
                &shared,
            )
        })
    };
    // A client that ends the session with a signal (the TypeScript SDK sends SIGTERM): the
    // server's process group gets it, then SIGKILL if it has not ended after STOP_TIMEOUT;
    // the proxy reports every message read so far once the server is gone.
    let stopping = Stopping::watch(server.id());
    // The server's output ends when it exits; the client may still hold our stdin open.
    let _ = down.join();
    let status = server.wait().map_err(Error::Wait)?;
    let signal = stopping.server_ended();
    if signal.is_none() {
        // What the client wrote before the server ended is read and reported, unless the
        // client keeps its end open: then up to UP_GRACE.
        let deadline = std::time::Instant::now() + UP_GRACE;
        while !up.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
    if up.is_finished() {
        let _ = up.join();
    }
    shared.close();
    let (checker, mut sink) = checking.join().expect("the checking thread ends");
    sink.summary(&checker);
    if sink.errors > 0 {
        return Ok(ExitCode::from(1));
    }
    if let Some(signal) = signal {
        return Ok(ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)));
    }
    Ok(ExitCode::from(
        status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)),
    ))
}

/// How long a server has to end after the signal the proxy passed on, before SIGKILL.
const STOP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// How long the client's last bytes are waited for once the server has ended by itself.
const UP_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// The signals that end the proxy, passed on to the server's process group.
struct Stopping {
    /// The first signal received (0: none).
    signal: Arc<std::sync::atomic::AtomicI32>,
    /// Tells the SIGKILL timer that the server has ended.
    ended: std::sync::mpsc::Sender<()>,
}

impl Stopping {
    /// Watches SIGTERM, SIGINT and SIGHUP for the server of process group `group`.
    fn watch(group: u32) -> Stopping {
        let signal = Arc::new(std::sync::atomic::AtomicI32::new(0));
        let (ended, ended_rx) = std::sync::mpsc::channel::<()>();
        #[cfg(unix)]
        {
            use rustix::process::{Pid, Signal, kill_process_group};
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let pid = i32::try_from(group).ok().and_then(Pid::from_raw);
            if let (Some(pid), Ok(mut signals)) = (
                pid,
                signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]),
            ) {
                let first = signal.clone();
                let mut ended_rx = Some(ended_rx);
                std::thread::spawn(move || {
                    for received in signals.forever() {
                        let _ = first.compare_exchange(
                            0,
                            received,
                            std::sync::atomic::Ordering::SeqCst,
                            std::sync::atomic::Ordering::SeqCst,
                        );
                        if let Some(sig) = Signal::from_named_raw(received) {
                            let _ = kill_process_group(pid, sig);
                        }
                        if let Some(ended_rx) = ended_rx.take() {
                            std::thread::spawn(move || {
                                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                                    ended_rx.recv_timeout(STOP_TIMEOUT)
                                {
                                    let _ = kill_process_group(pid, Signal::KILL);
                                }
                            });
                        }
                    }
                });
            }
        }
        #[cfg(not(unix))]
        drop((group, ended_rx));
        Stopping { signal, ended }
    }

    /// The server has ended: the signal that ended the proxy, if one did.
    fn server_ended(&self) -> Option<i32> {
        let _ = self.ended.send(());
        match self.signal.load(std::sync::atomic::Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }
}

/// The lines read but not yet checked, in the order they arrived, from both pumps (and the
/// HTTP proxy's exchanges), to the one thread that checks them.
pub(super) struct Queue {
    state: Mutex<Queued>,
    /// A line was queued, or the queue closed.
    ready: Condvar,
    /// A line was taken.
    room: Condvar,
    /// The bytes that may wait (one line is always taken, whatever its size).
    budget: u64,
}

#[derive(Default)]
struct Queued {
    lines: VecDeque<(Direction, Line)>,
    bytes: u64,
    closed: bool,
}

impl Queue {
    fn new(budget: u64) -> Queue {
        Queue {
            state: Mutex::new(Queued::default()),
            ready: Condvar::new(),
            room: Condvar::new(),
            budget,
        }
    }

    /// The longest line (or HTTP body) read: --max-line (the budget is twice it).
    fn max_line(&self) -> u64 {
        self.budget / 2
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queued> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a line; waits while more than the budget is queued already.
    pub(super) fn push(&self, dir: Direction, line: Line) {
        let size = match &line {
            Line::Read(bytes) => bytes.len() as u64,
            Line::TooLong { .. } => 0,
        };
        let mut state = self.lock();
        while state.bytes > 0 && state.bytes.saturating_add(size) > self.budget && !state.closed {
            state = self
                .room
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.bytes += size;
        state.lines.push_back((dir, line));
        self.ready.notify_one();
    }

    /// No more lines: the checking thread ends once it has checked those queued.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
        self.room.notify_all();
    }

    /// Checks every line queued, oldest first, until the queue is closed and empty; gives
    /// back the checker and the sink for the summary.
    fn check_all(&self, mut checker: Checker, mut sink: Sink) -> (Checker, Sink) {
        yield_to_the_pumps();
        loop {
            let (dir, line) = {
                let mut state = self.lock();
                loop {
                    if let Some(next) = state.lines.pop_front() {
                        if let Line::Read(bytes) = &next.1 {
                            state.bytes -= bytes.len() as u64;
                        }
                        self.room.notify_all();
                        break next;
                    }
                    if state.closed {
                        return (checker, sink);
                    }
                    state = self
                        .ready
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            let report = match line {
                Line::Read(bytes) => checker.check_bytes(Some(dir), &bytes),
                Line::TooLong { length, limit } => checker.oversized(length, limit),
            };
            sink.write(None, 0, Some(dir), &report);
        }
    }
}

/// Lowers the calling thread's priority as far as it goes (nice 19): the thread that checks
/// runs whenever a core is free, and a pump that wakes with bytes to pass on takes the core at
/// once instead of waiting for the check of a long line to use up its time slice (on 2 cores,
/// the difference between a 3.5 ms and a sub-millisecond stall, BENCHMARKS.md section 7).
/// Linux only (a thread's nice value is its own there); elsewhere nothing changes.
fn yield_to_the_pumps() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
    }
}

/// A line read, or the length of one too long to keep.
pub(super) enum Line {
    Read(Vec<u8>),
    TooLong { length: u64, limit: u64 },
}

/// Copies `from` to `to` as bytes arrive (nothing waits for a line to end) and checks each
/// complete line. A line is queued before its bytes are passed on, so a response is never
/// checked before the request it answers, whichever pump sees it first. A line longer than
/// `limit` bytes is passed on as it comes but not kept (reported as too long).
fn pump(
    mut from: impl Read,
    mut to: impl Write,
    dir: Direction,
    limit: u64,
    queue: &Queue,
) -> io::Result<()> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut line = Vec::new();
    // The length of the line being read, once it is too long to keep.
    let mut dropped: Option<u64> = None;
    let mut complete = Vec::new();
    let end_line = |line: &mut Vec<u8>, dropped: &mut Option<u64>, complete: &mut Vec<Line>| {
        match dropped.take() {
            Some(length) => complete.push(Line::TooLong { length, limit }),
            None => {
                let text = line.trim_ascii();
                if !text.is_empty() {
                    complete.push(Line::Read(text.to_vec()));
                }
            }
        }
        line.clear();
    };
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for piece in buffer[..n].split_inclusive(|b| *b == b'\n') {
            let ends = piece.ends_with(b"\n");
            let body = if ends {
                &piece[..piece.len() - 1]
            } else {
                piece
            };
            match &mut dropped {
                Some(length) => *length += body.len() as u64,
                None if (line.len() + body.len()) as u64 > limit => {
                    dropped = Some((line.len() + body.len()) as u64);
                    line = Vec::new();
                }
                None => line.extend_from_slice(body),
            }
            if ends {
                end_line(&mut line, &mut dropped, &mut complete);
            }
        }
        for item in complete.drain(..) {
            queue.push(dir, item);
        }
        to.write_all(&buffer[..n])?;
        to.flush()?;
    }
    end_line(&mut line, &mut dropped, &mut complete);
    for item in complete.drain(..) {
        queue.push(dir, item);
    }
    Ok(())
}
