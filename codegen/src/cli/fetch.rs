//! `mcp-typed-codegen fetch`.

use std::path::PathBuf;
use std::process::ExitCode;

use mcp_typed_codegen::Error;
use mcp_typed_codegen::fetch::{self, FetchSource, Outcome};
use mcp_typed_codegen::manifest::Manifest;

use super::{Result, workspace};

/// Details of `fetch`, shown by `--help`.
pub const LONG_HELP: &str = "\
Sources (--from):
  (none)    the upstream URL pinned in schema/manifest.json (https)
  DIR       copies DIR/<revision>/schema.json
  URL       downloads URL/<revision>/schema.json (http:// or https://; URL is a base)

Adding a revision (--add R): reads R's file from --from, or else from the spec repository at the
manifest's pinned commit, and records it in schema/manifest.json (URL pinned to that commit,
SHA-256, dialect from `$schema`, `final` when R is a date, else `draft`), in date order. Then run
`mcp-typed-codegen generate` and add R's feature line to generated/Cargo.toml.

Every file is checked against the SHA-256 in the manifest before it is written; on a mismatch
nothing is written and the error names the revision and both hashes. A cached file that already
has the pinned hash is left alone and the source is not read, so running fetch again is cheap.

Output (stderr), one line per revision:
  <revision>: wrote <path> (<bytes> bytes, sha256 <hash>) from <url or path>
  <revision>: <path> is up to date (sha256 <hash>)
  error: <message>
Exit status: 0 when every revision is in the cache, 2 when any failed (the others are still
fetched).";

/// Arguments of `fetch`.
#[derive(Debug, clap::Args)]
pub struct FetchArgs {
    /// Revision to fetch (repeatable; default: every revision in the manifest).
    #[arg(long = "revision", value_name = "R", conflicts_with = "add")]
    pub revisions: Vec<String>,
    /// A revision the manifest does not list yet: fetch it and add it to
    /// `schema/manifest.json`.
    #[arg(long, value_name = "R")]
    pub add: Option<String>,
    /// Read from `DIR/<revision>/schema.json` or `URL/<revision>/schema.json` instead of the
    /// manifest's upstream URL.
    #[arg(long, value_name = "DIR|URL")]
    pub from: Option<String>,
    /// Cache folder to fill with `<revision>/schema.json` (default: `<workspace>/schema`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Manifest giving each revision's URL and SHA-256 (default:
    /// `<workspace>/schema/manifest.json`, else the one built into mcp-typed-codegen).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
}

pub fn run(args: FetchArgs) -> Result<ExitCode> {
    let root = workspace()?;
    let manifest_path = args
        .manifest
        .clone()
        .unwrap_or_else(|| Manifest::path_in(&root));
    // Outside the project, the manifest built into this binary pins the files.
    let manifest = if args.manifest.is_none() && !manifest_path.is_file() {
        Manifest::builtin()?
    } else {
        Manifest::load(&manifest_path)?
    };
    let from = match &args.from {
        Some(f) => FetchSource::parse(f)?,
        None => FetchSource::Manifest,
    };
    let out = args.out.clone().unwrap_or_else(|| root.join("schema"));
    if let Some(rev) = &args.add {
        if !manifest_path.is_file() {
            return Err(Error::Config(format!(
                "--add {rev}: no manifest at {} to add it to (run it in the project, or pass --manifest)",
                manifest_path.display()
            ))
            .into());
        }
        let mut manifest = manifest;
        let f = fetch::add(&mut manifest, rev, &from, &out)?;
        std::fs::write(&manifest_path, manifest.to_text()).map_err(|source| Error::Io {
            path: manifest_path.clone(),
            source,
        })?;
        for f in std::iter::once(&f).chain(f.ts.as_deref()) {
            report!(
                "{rev}: wrote {} ({} bytes, sha256 {}) from {}",
                f.path.display(),
                f.bytes,
                f.sha256,
                f.origin
            );
        }
        if f.ts.is_none() {
            report!(
                "{rev}: no schema.ts beside it: the generated members keep schema.json's order"
            );
        }
        let module = mcp_typed_codegen::source::module_name(rev);
        report!(
            "{rev}: added to {}; next: `mcp-typed-codegen generate`, then add `{module} = []` under [features] in generated/Cargo.toml and `{module} = [\"mcp-typed-types/{module}\"]` in mcp-typed/Cargo.toml",
            manifest_path.display(),
        );
        return Ok(ExitCode::SUCCESS);
    }
    let revisions: Vec<String> = if args.revisions.is_empty() {
        manifest.revisions.keys().cloned().collect()
    } else {
        // Check every name first, so that a typo fetches nothing.
        for r in &args.revisions {
            manifest.entry(r)?;
        }
        args.revisions.clone()
    };
    let mut failed = 0;
    for rev in &revisions {
        match fetch::fetch(&manifest, rev, &from, &out) {
            Ok(f) => {
                for f in std::iter::once(&f).chain(f.ts.as_deref()) {
                    match f.outcome {
                        Outcome::Written => report!(
                            "{rev}: wrote {} ({} bytes, sha256 {}) from {}",
                            f.path.display(),
                            f.bytes,
                            f.sha256,
                            f.origin
                        ),
                        Outcome::UpToDate => report!(
                            "{rev}: {} is up to date (sha256 {})",
                            f.path.display(),
                            f.sha256
                        ),
                    }
                }
            }
            Err(e) => {
                report!("error: {}", with_revision(rev, &e));
                failed += 1;
            }
        }
    }
    if failed > 0 {
        report!("{failed} of {} revisions failed", revisions.len());
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// The error message, prefixed with the revision unless it already names it.
fn with_revision(rev: &str, e: &Error) -> String {
    let msg = e.to_string();
    if msg.contains(rev) {
        msg
    } else {
        format!("{rev}: {msg}")
    }
}
