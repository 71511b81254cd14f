//! `mcp-typed-codegen fetch`, run as a program: from a folder, from a loopback HTTP server, and the
//! failures (hash mismatch, 404, unknown revision). The official files are found through the
//! project's resolver (`$MCP_SCHEMA_DIR`, `schema/`, `../shared/mcp-spec`); outputs go to
//! temporary folders.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mcp_typed_codegen::load::{Dialect, SchemaDoc};
use mcp_typed_codegen::manifest::{Manifest, sha256_hex};
use mcp_typed_codegen::source;

fn workspace() -> PathBuf {
    source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the workspace holds schema/manifest.json")
}

fn manifest() -> Manifest {
    Manifest::for_workspace(&workspace()).unwrap()
}

/// The official file of `revision`, found by the resolver.
fn official(revision: &str) -> PathBuf {
    source::resolve(revision, None, &workspace()).unwrap()
}

/// The folder holding `<revision>/schema.json` for `revision`.
fn official_dir(revision: &str) -> PathBuf {
    official(revision)
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .to_path_buf()
}

fn fetch(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"));
    cmd.arg("fetch").args(args).current_dir(workspace());
    // The loopback server must be reached directly.
    for v in [
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ] {
        cmd.env_remove(v);
    }
    cmd.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file under `dir`, relative.
fn files(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.push(p.strip_prefix(base).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}

/// A tiny HTTP/1.1 server on 127.0.0.1 answering GETs from a fixed table (404 otherwise).
/// It serves at most 64 connections and stops after 60 s or when dropped.
struct Server {
    base: String,
    hits: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(routes: HashMap<String, Vec<u8>>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let hits = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (h, s) = (hits.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut served = 0;
            while served < 64 && Instant::now() < deadline && !s.load(Ordering::SeqCst) {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                served += 1;
                h.fetch_add(1, Ordering::SeqCst);
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 16384 {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let line = String::from_utf8_lossy(&request);
                let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
                let (status, body) = match routes.get(&path) {
                    Some(b) => ("200 OK", b.clone()),
                    None => ("404 Not Found", b"not found".to_vec()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
                let _ = stream.flush();
            }
        });
        Server {
            base,
            hits,
            stop,
            thread: Some(thread),
        }
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Routes `/<prefix>/<revision>/schema.json` and `schema.ts` to the official files of every
/// revision.
fn official_routes(prefix: &str) -> HashMap<String, Vec<u8>> {
    source::revisions()
        .iter()
        .flat_map(|r| {
            let json = official(r);
            let ts = json.with_file_name("schema.ts");
            [
                (
                    format!("{prefix}/{r}/schema.json"),
                    std::fs::read(json).unwrap(),
                ),
                (
                    format!("{prefix}/{r}/schema.ts"),
                    std::fs::read(ts).unwrap(),
                ),
            ]
        })
        .collect()
}

#[test]
fn manifest_pins_the_official_files() {
    let m = manifest();
    for (rev, entry) in &m.revisions {
        let bytes = std::fs::read(official(rev)).unwrap();
        assert_eq!(sha256_hex(&bytes), entry.sha256, "{rev}");
        let doc = SchemaDoc::from_str(std::str::from_utf8(&bytes).unwrap(), rev).unwrap();
        assert_eq!(doc.dialect(), Dialect::from(entry.dialect), "{rev}");
        let ts = entry
            .ts
            .as_ref()
            .expect("every official revision pins its schema.ts");
        let ts_bytes = std::fs::read(official(rev).with_file_name("schema.ts")).unwrap();
        assert_eq!(sha256_hex(&ts_bytes), ts.sha256, "{rev}");
        assert_eq!(
            ts.url,
            entry.url.replace("/schema.json", "/schema.ts"),
            "{rev}"
        );
    }
}

#[test]
fn fetch_from_dir_copies_verified_files_and_is_idempotent() {
    let out = tempfile::tempdir().unwrap();
    let outs = out.path().to_str().unwrap();
    for rev in ["2024-11-05", "2025-06-18", "draft"] {
        let dir = official_dir(rev);
        let o = fetch(&[
            "--revision",
            rev,
            "--from",
            dir.to_str().unwrap(),
            "--out",
            outs,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with(&format!("{rev}: wrote ")), "{err}");
        assert!(err.contains(&manifest().revisions[rev].sha256), "{err}");
        assert_eq!(
            std::fs::read(out.path().join(rev).join("schema.json")).unwrap(),
            std::fs::read(official(rev)).unwrap()
        );
        // Again: nothing to do, and the source is not even read.
        let o = fetch(&[
            "--revision",
            rev,
            "--from",
            "/nonexistent/source",
            "--out",
            outs,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("is up to date"), "{}", stderr(&o));
    }
    assert_eq!(
        files(out.path()),
        [
            "2024-11-05/schema.json",
            "2024-11-05/schema.ts",
            "2025-06-18/schema.json",
            "2025-06-18/schema.ts",
            "draft/schema.json",
            "draft/schema.ts"
        ]
    );
}

#[test]
fn fetch_from_url_downloads_every_revision_over_loopback_http() {
    let server = Server::start(official_routes("/mirror"));
    let out = tempfile::tempdir().unwrap();
    let base = format!("{}/mirror/", server.base);
    let o = fetch(&["--from", &base, "--out", out.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // schema.json and schema.ts of each.
    assert_eq!(server.hits(), 2 * source::revisions().len());
    for rev in source::revisions() {
        assert_eq!(
            std::fs::read(out.path().join(rev).join("schema.json")).unwrap(),
            std::fs::read(official(rev)).unwrap(),
            "{rev}"
        );
        let url = format!("{}/mirror/{rev}/schema.json", server.base);
        assert!(stderr(&o).contains(&url), "{}", stderr(&o));
    }
    // Idempotent: a second run reads nothing from the server.
    let o = fetch(&["--from", &base, "--out", out.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(server.hits(), 2 * source::revisions().len());
    assert_eq!(
        stderr(&o).matches("is up to date").count(),
        2 * source::revisions().len()
    );
}

#[test]
fn default_source_is_the_manifest_url() {
    let rev = "2025-11-25";
    let server = Server::start(official_routes("/pinned"));
    let mut m = manifest();
    for (r, e) in m.revisions.iter_mut() {
        e.url = format!("{}/pinned/{r}/schema.json", server.base);
        if let Some(ts) = &mut e.ts {
            ts.url = format!("{}/pinned/{r}/schema.ts", server.base);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let manifest_path = dir.path().join("manifest.json");
    std::fs::write(&manifest_path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let out = dir.path().join("cache");
    let o = fetch(&[
        "--revision",
        rev,
        "--manifest",
        manifest_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(server.hits(), 2);
    assert_eq!(
        std::fs::read(out.join(rev).join("schema.json")).unwrap(),
        std::fs::read(official(rev)).unwrap()
    );
}

#[test]
fn hash_mismatch_over_http_names_revision_and_hashes_and_writes_nothing() {
    let rev = "2025-06-18";
    let mut bytes = std::fs::read(official(rev)).unwrap();
    bytes.extend_from_slice(b"\n");
    let actual = sha256_hex(&bytes);
    let server = Server::start(HashMap::from([(format!("/m/{rev}/schema.json"), bytes)]));
    let out = tempfile::tempdir().unwrap();
    let o = fetch(&[
        "--revision",
        rev,
        "--from",
        &format!("{}/m", server.base),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("SHA-256 mismatch for revision {rev}")),
        "{err}"
    );
    assert!(err.contains(&manifest().revisions[rev].sha256), "{err}");
    assert!(err.contains(&actual), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(files(out.path()), Vec::<String>::new());
}

#[test]
fn hash_mismatch_from_dir_leaves_the_cache_alone() {
    let rev = "2025-03-26";
    let src = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(src.path().join(rev)).unwrap();
    std::fs::write(src.path().join(rev).join("schema.json"), b"{}").unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(out.path().join(rev)).unwrap();
    std::fs::write(out.path().join(rev).join("schema.json"), b"stale").unwrap();
    let o = fetch(&[
        "--revision",
        rev,
        "--from",
        src.path().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(&sha256_hex(b"{}")), "{err}");
    assert!(err.contains(&manifest().revisions[rev].sha256), "{err}");
    assert_eq!(
        std::fs::read(out.path().join(rev).join("schema.json")).unwrap(),
        b"stale"
    );
    assert_eq!(files(out.path()), [format!("{rev}/schema.json")]);
}

#[test]
fn http_404_is_an_error_and_writes_nothing() {
    let server = Server::start(HashMap::new());
    let out = tempfile::tempdir().unwrap();
    let o = fetch(&[
        "--revision",
        "2025-06-18",
        "--revision",
        "draft",
        "--from",
        &format!("{}/missing", server.base),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{}/missing/2025-06-18/schema.json: HTTP 404 Not Found",
            server.base
        )),
        "{err}"
    );
    assert!(
        err.contains("/missing/draft/schema.json: HTTP 404"),
        "{err}"
    );
    assert!(err.contains("2 of 2 revisions failed"), "{err}");
    assert_eq!(server.hits(), 2);
    assert_eq!(files(out.path()), Vec::<String>::new());
}

#[test]
fn unknown_revision_fetches_nothing() {
    let out = tempfile::tempdir().unwrap();
    let o = fetch(&[
        "--revision",
        "2025-06-18",
        "--revision",
        "1999-01-01",
        "--from",
        official_dir("2025-06-18").to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("unknown revision \"1999-01-01\""), "{err}");
    assert!(err.contains("2024-11-05, 2025-03-26"), "{err}");
    assert_eq!(files(out.path()), Vec::<String>::new());
}

#[test]
fn bad_sources_are_reported() {
    let out = tempfile::tempdir().unwrap();
    let o = fetch(&[
        "--from",
        "ftp://example.invalid/x",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unsupported URL scheme \"ftp\""),
        "{}",
        stderr(&o)
    );
    let o = fetch(&[
        "--revision",
        "draft",
        "--from",
        out.path().join("empty").to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("empty/draft/schema.json"),
        "{}",
        stderr(&o)
    );
    // Nothing listens on this port: the connection is refused.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = fetch(&[
        "--revision",
        "draft",
        "--from",
        &format!("http://127.0.0.1:{port}"),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("fetch failed: http://127.0.0.1:"),
        "{}",
        stderr(&o)
    );
    assert_eq!(files(out.path()), Vec::<String>::new());
}

#[test]
fn help_documents_sources_and_output() {
    let o = Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
        .args(["fetch", "--help"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    for s in [
        "--from <DIR|URL>",
        "--revision <R>",
        "--out <DIR>",
        "SHA-256",
        "up to date",
    ] {
        assert!(help.contains(s), "{s}\n{help}");
    }
}

#[test]
fn outside_the_project_the_built_in_manifest_pins_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = |from: &Path| {
        Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
            .args(["fetch", "--revision", "2025-11-25", "--from"])
            .arg(from)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    // A source whose file is not the pinned one is refused, and nothing is written.
    let bad = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(bad.path().join("2025-11-25")).unwrap();
    std::fs::write(bad.path().join("2025-11-25/schema.json"), "{}").unwrap();
    let o = run(bad.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("SHA-256 mismatch"), "{}", stderr(&o));
    assert_eq!(files(dir.path()), Vec::<String>::new());
    // The official file is.
    let o = run(&official_dir("2025-11-25"));
    assert!(o.status.success(), "{}", stderr(&o));
    let written = dir.path().join("schema/2025-11-25/schema.json");
    assert_eq!(
        sha256_hex(&std::fs::read(&written).unwrap()),
        manifest().entry("2025-11-25").unwrap().sha256
    );
}
