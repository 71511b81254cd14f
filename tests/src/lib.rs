//! Shared helpers of the integration tests: where the official schema files and examples are.
//!
//! Official files are never copied into the project: they are read from `$MCP_SCHEMA_DIR`,
//! else the `schema/` cache, else `../shared/mcp-spec` beside the workspace.

use std::path::{Path, PathBuf};

pub mod arbitrary_json;
pub mod fuzz;
pub mod guests;
pub mod oracle;
pub mod peers;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The folders searched for `<revision>/…`, in order.
pub fn spec_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("MCP_SCHEMA_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(workspace().join("schema"));
    dirs.push(workspace().join("..").join("shared").join("mcp-spec"));
    dirs
}

/// The official `schema.json` of a revision; panics with instructions when it is missing.
pub fn schema_path(revision: &str) -> PathBuf {
    spec_dirs()
        .into_iter()
        .map(|d| d.join(revision).join("schema.json"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "no schema.json for {revision}: run `cargo run -p mcp-typed-codegen -- fetch --revision {revision}` or set MCP_SCHEMA_DIR"
            )
        })
}

/// The parsed official schema of a revision.
pub fn schema(revision: &str) -> serde_json::Value {
    let path = schema_path(revision);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The official examples of a revision: `(definition, file name, JSON)`, sorted.
pub fn spec_examples(revision: &str) -> Vec<(String, String, serde_json::Value)> {
    let dir = spec_dirs()
        .into_iter()
        .map(|d| d.join(revision).join("examples"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| {
            panic!("no examples folder for {revision} (looked beside the schema files)")
        });
    let mut out = Vec::new();
    let mut defs: Vec<_> = std::fs::read_dir(&dir)
        .expect("read examples")
        .flatten()
        .collect();
    defs.sort_by_key(|e| e.file_name());
    for def in defs {
        let mut files: Vec<_> = std::fs::read_dir(def.path())
            .expect("read examples")
            .flatten()
            .collect();
        files.sort_by_key(|e| e.file_name());
        for f in files {
            let text = std::fs::read_to_string(f.path()).expect("read example");
            let value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", f.path().display()));
            out.push((
                def.file_name().to_string_lossy().into_owned(),
                f.file_name().to_string_lossy().into_owned(),
                value,
            ));
        }
    }
    out
}

/// JSON equality with numbers compared by value (`1` == `1.0`).
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
        (Object(x), Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Builds an example of a workspace package (`cargo build -p PACKAGE --example NAME`, plus
/// `cargo_args` such as `--all-features`) and returns its executable, as a user would run it.
pub fn example_binary(package: &str, name: &str, cargo_args: &[&str]) -> PathBuf {
    built(package, "--example", name, cargo_args)
}

/// The `mcp-typed` binary (package `mcp-typed-cli`), built once per test process.
pub fn mcp_typed_binary() -> &'static Path {
    static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BINARY.get_or_init(|| bin_binary("mcp-typed-cli", "mcp-typed", &[]))
}

/// Builds a binary of a workspace package (`cargo build -p PACKAGE --bin NAME`, plus
/// `cargo_args` such as `--all-features`) and returns its executable.
pub fn bin_binary(package: &str, name: &str, cargo_args: &[&str]) -> PathBuf {
    built(package, "--bin", name, cargo_args)
}

fn built(package: &str, kind: &str, name: &str, cargo_args: &[&str]) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut args = vec!["build", "-p", package, kind, name];
    args.extend_from_slice(cargo_args);
    args.push("--message-format=json-render-diagnostics");
    let mut build = std::process::Command::new(cargo);
    // Without the variables cargo set for this test crate: build scripts that watch them
    // (ring's `rerun-if-env-changed=CARGO_PKG_NAME`…) would otherwise see them change and
    // rebuild half the dependency tree on every run.
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("CARGO_PKG_")
            || key.starts_with("CARGO_MANIFEST_")
            || matches!(
                &*key,
                "CARGO_CRATE_NAME"
                    | "CARGO_BIN_NAME"
                    | "CARGO_PRIMARY_PACKAGE"
                    | "CARGO_TARGET_TMPDIR"
                    | "CARGO_RUSTC_CURRENT_DIR"
                    | "OUT_DIR"
            )
        {
            build.env_remove(&*key);
        }
    }
    let out = build
        .current_dir(workspace())
        .args(&args)
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "building {name} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("cargo's messages are UTF-8")
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .and_then(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo reports the executable")
}

/// An example serving Streamable HTTP on a free loopback port (`--http 127.0.0.1:0`), read
/// from the `listening on URL` line the transport prints; its later stderr is kept; killed on
/// drop.
pub struct HttpExample {
    child: std::process::Child,
    /// `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl HttpExample {
    /// Builds the example `name` of `mcp-tests` and starts it.
    pub fn start(name: &str) -> HttpExample {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        let bin = example_binary("mcp-tests", name, &[]);
        let mut child = Command::new(bin)
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start the {name} example: {e}"));
        let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
        let mut first = String::new();
        stderr
            .read_line(&mut first)
            .expect("read the example's stderr");
        let Some(url) = first
            .trim()
            .strip_prefix("listening on ")
            .map(str::to_owned)
        else {
            let _ = child.kill();
            panic!("the {name} example did not start: {first:?}");
        };
        // Keep draining stderr (the transport reports undeliverable messages there).
        let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = std::sync::Arc::clone(&log);
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                let mut sink = sink.lock().unwrap();
                sink.push_str(&line);
                sink.push('\n');
            }
        });
        HttpExample { child, url, log }
    }

    /// What the example printed to stderr after starting.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for HttpExample {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
