//! What every command shares: diagnostics on stderr, output on stdout, errors and exit status.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `eprintln!` that does not panic when stderr is closed: a diagnostic nobody can read is no
/// reason to fail. (In scope in the command modules, declared after this one.)
macro_rules! report {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// The exit status when stdout is closed before the output is written (`| head`): 128 +
/// SIGPIPE, what a shell reports for a producer killed by the signal, so that pipelines under
/// `set -o pipefail` treat this program like any other.
const EXIT_BROKEN_PIPE: u8 = 141;

/// Why a command stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The generator refused the tool list or the options (`tools`).
    #[error(transparent)]
    Codegen(#[from] mcp_typed_codegen::Error),
    /// The server could not be asked for its tools (`tools --server`, `--url`).
    #[error(transparent)]
    Server(#[from] mcp_typed_cli::tools_client::Error),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// An option's value is not one the command takes.
    #[error("{0}")]
    Usage(String),
    /// Waiting for the server (`check -- SERVER…`) failed.
    #[error("waiting for the server: {0}")]
    Wait(#[source] io::Error),
    /// Writing the output to stdout failed; when its reader went away, that is not worth a
    /// message ([`exit`]).
    #[error("writing to stdout: {0}")]
    Stdout(#[source] io::Error),
}

/// The result of a command.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Writes a command's output to stdout, through one lock, and flushes it; an I/O error is
/// returned as [`Error::Stdout`] (never a panic, unlike `println!`).
pub fn print(write: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<()>) -> Result<()> {
    let mut out = io::stdout().lock();
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(Error::Stdout)
}

/// The process's exit status for a command's result: its own on success, 141 when stdout was
/// closed by its reader (quietly), else 2 after the error on stderr.
pub fn exit(result: Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(Error::Stdout(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::from(EXIT_BROKEN_PIPE)
        }
        Err(e) => {
            report!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// A `--header` value, `NAME: VALUE` (clap's value parser for `tools` and `test`).
pub fn header(text: &str) -> std::result::Result<(String, String), String> {
    match text.split_once(':') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(format!("{text:?}: expected `NAME: VALUE`")),
    }
}
