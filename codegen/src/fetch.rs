//! Filling the schema cache: `schema/<revision>/schema.json` from the URL pinned in the
//! [manifest](crate::manifest), from a base URL, or from a folder.
//!
//! Every file is checked against the manifest's SHA-256 before it is written; a file that
//! does not match is an [`Error::HashMismatch`] and nothing is written. A cached file that
//! already matches is left alone without contacting the source, so fetching is idempotent.
//! Files are written to a temporary file in the same folder and renamed into place, so a
//! reader never sees half a file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::manifest::{Manifest, ManifestDialect, PinnedFile, RevisionEntry, Status, sha256_hex};

/// The largest schema file accepted from a server (the official ones are under 200 KiB).
pub const MAX_SCHEMA_BYTES: u64 = 32 * 1024 * 1024;

/// Where `fetch` reads a revision's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchSource {
    /// The URL the manifest pins for the revision.
    Manifest,
    /// `<dir>/<revision>/schema.json`.
    Dir(PathBuf),
    /// `<base>/<revision>/schema.json`, over http or https.
    BaseUrl(String),
}

impl FetchSource {
    /// Parses the value of `--from`: an `http://` or `https://` URL is a base URL, anything
    /// else without a `scheme://` is a folder.
    pub fn parse(from: &str) -> Result<Self> {
        let lower = from.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            Ok(FetchSource::BaseUrl(from.trim_end_matches('/').to_owned()))
        } else if let Some((scheme, _)) = from.split_once("://")
            && !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            Err(Error::Config(format!(
                "--from {from:?}: unsupported URL scheme {scheme:?} (use http://, https:// or a folder)"
            )))
        } else if from.is_empty() {
            Err(Error::Config("--from: empty value".into()))
        } else {
            Ok(FetchSource::Dir(PathBuf::from(from)))
        }
    }

    /// The URL or path `revision` is read from.
    pub fn location(&self, manifest: &Manifest, revision: &str) -> Result<String> {
        Ok(match self {
            FetchSource::Manifest => manifest.entry(revision)?.url.clone(),
            FetchSource::Dir(d) => relative_file(d, revision).display().to_string(),
            FetchSource::BaseUrl(base) => format!("{base}/{revision}/{SCHEMA_JSON}"),
        })
    }
}

/// What [`fetch`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The cached file already had the pinned hash; the source was not read.
    UpToDate,
    /// The file was read from the source, verified and written.
    Written,
}

/// The result of fetching one revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The revision.
    pub revision: String,
    /// The cache file.
    pub path: PathBuf,
    /// The URL or path read (or that would have been read, when up to date).
    pub origin: String,
    /// Whether it was written.
    pub outcome: Outcome,
    /// Size of the file.
    pub bytes: usize,
    /// Its SHA-256.
    pub sha256: String,
    /// The revision's `schema.ts`, fetched the same way into the same folder, when the
    /// manifest pins one (the generator reads member order from it).
    pub ts: Option<Box<Fetched>>,
}

/// `<cache_dir>/<revision>/schema.json`.
pub fn cache_path(cache_dir: &Path, revision: &str) -> PathBuf {
    relative_file(cache_dir, revision)
}

fn relative_file(dir: &Path, revision: &str) -> PathBuf {
    dir.join(revision).join(SCHEMA_JSON)
}

/// The name of a revision's JSON schema file.
pub const SCHEMA_JSON: &str = "schema.json";
/// The name of a revision's TypeScript source file.
pub const SCHEMA_TS: &str = "schema.ts";

/// Makes `<cache_dir>/<revision>/schema.json` (and `schema.ts`, when the manifest pins one)
/// hold the official files of `revision`, read from `from` and verified against the
/// manifest's SHA-256.
pub fn fetch(
    manifest: &Manifest,
    revision: &str,
    from: &FetchSource,
    cache_dir: &Path,
) -> Result<Fetched> {
    let entry = manifest.entry(revision)?;
    let json_origin = from.location(manifest, revision)?;
    let mut json = fetch_file(
        revision,
        SCHEMA_JSON,
        &json_origin,
        &entry.sha256,
        from,
        cache_dir,
    )?;
    if let Some(ts) = &entry.ts {
        let origin = match from {
            FetchSource::Manifest => ts.url.clone(),
            other => sibling(&other.location(manifest, revision)?, SCHEMA_TS),
        };
        json.ts = Some(Box::new(fetch_file(
            revision, SCHEMA_TS, &origin, &ts.sha256, from, cache_dir,
        )?));
    }
    Ok(json)
}

/// `…/schema.json` → `…/schema.ts` (a path or a URL).
fn sibling(location: &str, file: &str) -> String {
    match location.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{file}"),
        None => file.to_owned(),
    }
}

fn fetch_file(
    revision: &str,
    file: &str,
    origin: &str,
    sha256: &str,
    from: &FetchSource,
    cache_dir: &Path,
) -> Result<Fetched> {
    let path = cache_dir.join(revision).join(file);
    let done = |outcome, bytes| Fetched {
        revision: revision.to_owned(),
        path: path.clone(),
        origin: origin.to_owned(),
        outcome,
        bytes,
        sha256: sha256.to_owned(),
        ts: None,
    };
    if let Ok(existing) = fs::read(&path)
        && sha256_hex(&existing) == sha256
    {
        return Ok(done(Outcome::UpToDate, existing.len()));
    }
    let bytes = read(from, origin)?;
    let pinned = PinnedFile {
        url: origin.to_owned(),
        sha256: sha256.to_owned(),
    };
    pinned.verify(revision, &bytes, origin)?;
    write_atomic(&path, &bytes)?;
    Ok(done(Outcome::Written, bytes.len()))
}

/// Adds `revision`, which `manifest` does not list yet, to it and to the cache: reads the file
/// from `from` (by default the spec repository at the manifest's commit), and records its
/// pinned upstream URL, SHA-256 and dialect, and those of its `schema.ts` when the source has
/// one beside it. A dated revision is `final`, any other `draft`. The caller writes the
/// manifest ([`Manifest::to_text`]).
pub fn add(
    manifest: &mut Manifest,
    revision: &str,
    from: &FetchSource,
    cache_dir: &Path,
) -> Result<Fetched> {
    if manifest.revisions.contains_key(revision) {
        return Err(Error::Config(format!(
            "the manifest already lists revision {revision:?}; fetch it with --revision"
        )));
    }
    let url = upstream_url(manifest, revision);
    let origin = match from {
        FetchSource::Manifest => url.clone(),
        other => other.location(manifest, revision)?,
    };
    let bytes = read(from, &origin)?;
    let dialect = dialect_of(&bytes, &origin)?;
    let status = if revision.starts_with(|c: char| c.is_ascii_digit()) {
        Status::Final
    } else {
        Status::Draft
    };
    let sha256 = sha256_hex(&bytes);
    // The TypeScript source is optional: without it, members keep schema.json's order.
    let ts_origin = sibling(&origin, SCHEMA_TS);
    let ts_bytes = match from {
        FetchSource::Dir(_) if !Path::new(&ts_origin).is_file() => None,
        _ => Some(read(from, &ts_origin)?),
    };
    let ts = ts_bytes.as_ref().map(|b| PinnedFile {
        url: sibling(&url, SCHEMA_TS),
        sha256: sha256_hex(b),
    });
    manifest.insert(
        revision,
        RevisionEntry {
            url,
            sha256: sha256.clone(),
            dialect,
            status,
            protocol_version: None,
            ts: ts.clone(),
        },
    )?;
    let path = cache_path(cache_dir, revision);
    write_atomic(&path, &bytes)?;
    let ts = match (ts, ts_bytes) {
        (Some(pinned), Some(b)) => {
            let ts_path = cache_dir.join(revision).join(SCHEMA_TS);
            write_atomic(&ts_path, &b)?;
            Some(Box::new(Fetched {
                revision: revision.to_owned(),
                path: ts_path,
                origin: ts_origin,
                outcome: Outcome::Written,
                bytes: b.len(),
                sha256: pinned.sha256,
                ts: None,
            }))
        }
        _ => None,
    };
    Ok(Fetched {
        revision: revision.to_owned(),
        path,
        origin,
        outcome: Outcome::Written,
        bytes: bytes.len(),
        sha256,
        ts,
    })
}

/// Where the spec repository keeps `revision`'s `schema.json` at the manifest's commit.
fn upstream_url(manifest: &Manifest, revision: &str) -> String {
    let repo = manifest.spec_repository.trim_end_matches('/');
    let commit = &manifest.spec_commit;
    match repo.strip_prefix("https://github.com/") {
        Some(path) => format!(
            "https://raw.githubusercontent.com/{path}/{commit}/schema/{revision}/schema.json"
        ),
        None => format!("{repo}/raw/{commit}/schema/{revision}/schema.json"),
    }
}

/// The JSON Schema dialect a schema file declares in `$schema`.
fn dialect_of(bytes: &[u8], origin: &str) -> Result<ManifestDialect> {
    let doc: serde_json::Value = serde_json::from_slice(bytes).map_err(|source| Error::Json {
        origin: origin.to_owned(),
        source,
    })?;
    let declared = doc.get("$schema").and_then(|s| s.as_str()).unwrap_or("");
    if declared.contains("draft-07") {
        Ok(ManifestDialect::Draft07)
    } else if declared.contains("2020-12") {
        Ok(ManifestDialect::Draft202012)
    } else {
        Err(Error::Config(format!(
            "{origin}: `$schema` is {declared:?}; the generator reads draft-07 and 2020-12 schemas"
        )))
    }
}

/// The bytes at `origin`, a path or a URL of `from`.
fn read(from: &FetchSource, origin: &str) -> Result<Vec<u8>> {
    match from {
        FetchSource::Dir(_) => fs::read(origin).map_err(|source| Error::Io {
            path: origin.into(),
            source,
        }),
        FetchSource::Manifest | FetchSource::BaseUrl(_) => http_get(origin),
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| Error::Io { path: p, source }
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io(dir))?;
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(bytes).map_err(io(&tmp))?;
        f.sync_all().map_err(io(&tmp))?;
        drop(f);
        fs::rename(&tmp, path).map_err(io(path))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// GETs `url` and returns the body of a 2xx answer.
#[cfg(feature = "http")]
pub fn http_get(url: &str) -> Result<Vec<u8>> {
    use std::time::Duration;

    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .timeout_connect(Some(Duration::from_secs(30)))
        .user_agent(concat!("mcp-typed-codegen/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut response = agent
        .get(url)
        .call()
        .map_err(|e| Error::Fetch(format!("{url}: {e}")))?;
    let status = response.status();
    if !status.is_success() {
        return Err(Error::Fetch(format!("{url}: HTTP {status}")));
    }
    response
        .body_mut()
        .with_config()
        .limit(MAX_SCHEMA_BYTES)
        .read_to_vec()
        .map_err(|e| Error::Fetch(format!("{url}: reading the body: {e}")))
}

/// Without the `http` feature, URLs cannot be fetched.
#[cfg(not(feature = "http"))]
pub fn http_get(url: &str) -> Result<Vec<u8>> {
    Err(Error::Fetch(format!(
        "{url}: this mcp-typed-codegen was built without its `http` feature; use `--from DIR`"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(sha: &str) -> Manifest {
        Manifest::from_str(
            &format!(
                r#"{{"spec_repository":"r","spec_commit":"c","revisions":{{"r1":{{"url":"http://127.0.0.1:9/r1/schema.json","sha256":"{sha}","dialect":"2020-12","status":"final"}}}}}}"#
            ),
            "m",
        )
        .unwrap()
    }

    #[test]
    fn parses_from() {
        assert_eq!(
            FetchSource::parse("http://127.0.0.1:8080/x/").unwrap(),
            FetchSource::BaseUrl("http://127.0.0.1:8080/x".into())
        );
        assert_eq!(
            FetchSource::parse("HTTPS://h").unwrap(),
            FetchSource::BaseUrl("HTTPS://h".into())
        );
        assert_eq!(
            FetchSource::parse("some/dir").unwrap(),
            FetchSource::Dir("some/dir".into())
        );
        let e = FetchSource::parse("ftp://h/x").unwrap_err().to_string();
        assert!(e.contains("unsupported URL scheme \"ftp\""), "{e}");
        assert!(FetchSource::parse("").is_err());
    }

    #[test]
    fn add_records_the_pinned_url_hash_and_dialect_and_fills_the_cache() {
        let src = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let body = br#"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{}}"#;
        fs::create_dir_all(src.path().join("2099-01-01")).unwrap();
        fs::write(src.path().join("2099-01-01/schema.json"), body).unwrap();
        let mut m = Manifest::builtin().unwrap();
        let from = FetchSource::Dir(src.path().to_path_buf());
        fs::write(
            src.path().join("2099-01-01/schema.ts"),
            b"export interface A {}",
        )
        .unwrap();
        let got = add(&mut m, "2099-01-01", &from, out.path()).unwrap();
        assert_eq!(got.outcome, Outcome::Written);
        // The TypeScript beside it is pinned and cached too.
        let ts = got.ts.expect("schema.ts fetched");
        assert_eq!(fs::read(&ts.path).unwrap(), b"export interface A {}");
        assert_eq!(ts.path, out.path().join("2099-01-01/schema.ts"));
        assert_eq!(
            fs::read(out.path().join("2099-01-01/schema.json")).unwrap(),
            body
        );
        let e = m.entry("2099-01-01").unwrap();
        assert_eq!(e.sha256, sha256_hex(body));
        assert_eq!(e.dialect, ManifestDialect::Draft202012);
        assert_eq!(e.status, Status::Final);
        let pinned = e.ts.as_ref().unwrap();
        assert_eq!(pinned.sha256, sha256_hex(b"export interface A {}"));
        assert!(
            pinned.url.ends_with("/schema/2099-01-01/schema.ts"),
            "{}",
            pinned.url
        );
        assert_eq!(
            e.url,
            format!(
                "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/{}/schema/2099-01-01/schema.json",
                m.spec_commit
            )
        );
        // Dated revisions stay before the draft.
        let names: Vec<&String> = m.revisions.keys().collect();
        assert_eq!(names[names.len() - 2..], ["2099-01-01", "draft"]);
        // Twice is an error; so is a file of another dialect.
        let e = add(&mut m, "2099-01-01", &from, out.path()).unwrap_err();
        assert!(e.to_string().contains("already lists"), "{e}");
        fs::create_dir_all(src.path().join("old")).unwrap();
        fs::write(
            src.path().join("old/schema.json"),
            br#"{"$schema":"http://json-schema.org/draft-04/schema#"}"#,
        )
        .unwrap();
        let e = add(&mut m, "old", &from, out.path())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("draft-04") && e.contains("old/schema.json"),
            "{e}"
        );
        assert!(!m.revisions.contains_key("old"));
    }

    #[test]
    fn copies_verifies_and_is_idempotent() {
        let src = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        fs::create_dir_all(src.path().join("r1")).unwrap();
        fs::write(src.path().join("r1/schema.json"), b"{}").unwrap();
        let m = manifest(&sha256_hex(b"{}"));
        let from = FetchSource::Dir(src.path().to_path_buf());
        let got = fetch(&m, "r1", &from, out.path()).unwrap();
        assert_eq!(got.outcome, Outcome::Written);
        assert_eq!(fs::read(out.path().join("r1/schema.json")).unwrap(), b"{}");
        let again = fetch(&m, "r1", &from, out.path()).unwrap();
        assert_eq!(again.outcome, Outcome::UpToDate);
        // A corrupted cache file is replaced.
        fs::write(out.path().join("r1/schema.json"), b"{ }").unwrap();
        assert_eq!(
            fetch(&m, "r1", &from, out.path()).unwrap().outcome,
            Outcome::Written
        );
        assert_eq!(fs::read(out.path().join("r1/schema.json")).unwrap(), b"{}");
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(out.path().join("r1"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["schema.json"]);
    }

    #[test]
    fn the_pinned_schema_ts_is_fetched_and_verified_beside_the_json() {
        let src = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        fs::create_dir_all(src.path().join("r1")).unwrap();
        fs::write(src.path().join("r1/schema.json"), b"{}").unwrap();
        fs::write(src.path().join("r1/schema.ts"), b"export {}").unwrap();
        let mut m = manifest(&sha256_hex(b"{}"));
        m.revisions["r1"].ts = Some(PinnedFile {
            url: "http://127.0.0.1:9/r1/schema.ts".into(),
            sha256: sha256_hex(b"export {}"),
        });
        let from = FetchSource::Dir(src.path().to_path_buf());
        let got = fetch(&m, "r1", &from, out.path()).unwrap();
        let ts = got.ts.unwrap();
        assert_eq!(ts.outcome, Outcome::Written);
        assert_eq!(
            fs::read(out.path().join("r1/schema.ts")).unwrap(),
            b"export {}"
        );
        let again = fetch(&m, "r1", &from, out.path()).unwrap();
        assert_eq!(again.ts.unwrap().outcome, Outcome::UpToDate);
        // A .ts that is not the pinned one is refused, and not written.
        fs::write(src.path().join("r1/schema.ts"), b"export { changed }").unwrap();
        fs::remove_file(out.path().join("r1/schema.ts")).unwrap();
        let e = fetch(&m, "r1", &from, out.path()).unwrap_err();
        assert!(matches!(e, Error::HashMismatch { .. }), "{e}");
        assert!(!out.path().join("r1/schema.ts").exists());
    }

    #[test]
    fn mismatch_writes_nothing() {
        let src = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        fs::create_dir_all(src.path().join("r1")).unwrap();
        fs::write(src.path().join("r1/schema.json"), b"{}").unwrap();
        let m = manifest(&"0".repeat(64));
        let from = FetchSource::Dir(src.path().to_path_buf());
        let e = fetch(&m, "r1", &from, out.path()).unwrap_err();
        assert!(
            matches!(&e, Error::HashMismatch { revision, expected, actual, .. }
                if revision == "r1" && *expected == "0".repeat(64) && *actual == sha256_hex(b"{}")),
            "{e}"
        );
        assert!(!out.path().join("r1").exists());
    }

    #[test]
    fn missing_source_file_and_unknown_revision() {
        let out = tempfile::tempdir().unwrap();
        let m = manifest(&"0".repeat(64));
        let from = FetchSource::Dir(out.path().join("nowhere"));
        let e = fetch(&m, "r1", &from, out.path()).unwrap_err().to_string();
        assert!(e.contains("nowhere/r1/schema.json"), "{e}");
        let e = fetch(&m, "r2", &from, out.path()).unwrap_err().to_string();
        assert!(e.contains("unknown revision \"r2\""), "{e}");
    }
}
