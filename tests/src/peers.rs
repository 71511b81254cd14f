//! The real MCP peers the interop tests drive: installed once per test process by
//! `tests/peers/install.sh` (pinned in `tests/peers/versions.env`) into a cache folder,
//! `$MCP_PEERS_CACHE` or `target/peers`, never globally.
//!
//! A machine without `node`/`python3` fails the test with the script's message saying what to
//! install; nothing is skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where the pinned peers are installed.
#[derive(Debug)]
pub struct Peers {
    /// The cache folder (`venv/`, `node/`).
    pub cache: PathBuf,
}

/// Installs the pinned peers on first use (a no-op when the cache already holds them) and
/// returns where they are. Panics with the install script's own message on failure.
pub fn peers() -> &'static Peers {
    static PEERS: OnceLock<Peers> = OnceLock::new();
    PEERS.get_or_init(|| {
        let script = scripts().join("install.sh");
        let out = Command::new("bash")
            .arg(&script)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e} (install bash)", script.display()));
        assert!(
            out.status.success(),
            "installing the real MCP peers failed ({}):\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let cache = String::from_utf8(out.stdout).expect("install.sh prints a path");
        Peers {
            cache: PathBuf::from(cache.trim()),
        }
    })
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

    /// A file of an installed npm package, e.g.
    /// `package_file("@modelcontextprotocol/server-everything", "dist/index.js")`.
    pub fn package_file(&self, package: &str, file: impl AsRef<Path>) -> PathBuf {
        self.node_modules().join(package).join(file)
    }
}
