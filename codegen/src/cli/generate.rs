//! `mcp-typed-codegen generate`.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcp_typed_codegen::layout::{self, RevisionCode};
use mcp_typed_codegen::registry::Registry;
use mcp_typed_codegen::source;

use super::{GenerateArgs, Result, builder_for, print, workspace};

pub fn run(args: GenerateArgs) -> Result<ExitCode> {
    let root = workspace()?;
    // Without --out, every file of mcp-typed-types' src folder; with it, modules for a user's
    // crate. Both call the runtime as `::mcp_typed_runtime`: the same text.
    let in_project = args.out.is_none();
    let registry = Registry::for_workspace(&root)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| root.join("generated").join("src"));
    // Without --out the target is this repository's mcp-typed-types crate; anywhere else (an
    // installed binary run in a user's folder) that folder must not be created from nothing.
    if in_project && !out.is_dir() {
        return Err(mcp_typed_codegen::Error::Config(format!(
            "no --out, and {} is not mcp-typed-types' src folder (it does not exist): outside the mcp-typed repository pass --out DIR, e.g. `mcp-typed-codegen generate --revision 2025-11-25 --out src/mcp`",
            out.display()
        ))
        .into());
    }
    if in_project && !args.revisions.is_empty() {
        return Err(mcp_typed_codegen::Error::Config(format!(
            "--revision {}: the checked-in modules are generated together (ProtocolVersion, aliases, conversions); drop --revision, or pass --out DIR for your own crate",
            args.revisions.join(", ")
        ))
        .into());
    }
    let revisions: Vec<String> = if args.revisions.is_empty() {
        registry.names().map(str::to_owned).collect()
    } else {
        args.revisions.clone()
    };
    // Revisions are independent: generate them on parallel threads (most of the time is
    // formatting, syn + prettyplease, single-threaded per file), then write and report them
    // in order. (`Generated` holds a `TokenStream`, which stays on its thread.)
    let results: Vec<(mcp_typed_codegen::Result<Done>, Duration)> = std::thread::scope(|scope| {
        let jobs: Vec<_> = revisions
            .iter()
            .map(|rev| {
                let builder = builder_for(rev, &args.options, args.schema_dir.as_ref(), &root);
                scope.spawn(move || {
                    let started = Instant::now();
                    let done = builder.generate().map(|g| Done {
                        code: g.code().to_owned(),
                        types: g.type_count(),
                        declaration_order: g.declaration_order(),
                        errata: g.errata_applied().to_vec(),
                        model: g.model().clone(),
                    });
                    (done, started.elapsed())
                })
            })
            .collect();
        jobs.into_iter()
            .map(|job| {
                job.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut done = Vec::new();
    for (rev, (generated, elapsed)) in revisions.iter().zip(results) {
        let generated = generated?;
        report!(
            "{rev}: {} types, {} lines, generated in {:.0} ms; members in {}",
            generated.types,
            generated.code.lines().count(),
            elapsed.as_secs_f64() * 1000.0,
            if generated.declaration_order {
                "declaration order (schema.ts)"
            } else {
                "schema.json order (no schema.ts beside it)"
            },
        );
        for a in &generated.errata {
            report!(
                "{rev}: erratum {} applied ({}) at {}",
                a.id,
                a.summary,
                a.pointers.join(", ")
            );
        }
        done.push((rev.as_str(), generated));
    }
    // Without --out, also `ProtocolVersion`, in the rules crate (the derive and mcp-typed
    // both read the revision list from there).
    let mut rules_file: Option<(std::path::PathBuf, String)> = None;
    let files: Vec<(String, String)> = if in_project {
        let inputs: Vec<RevisionCode<'_>> = done
            .iter()
            .map(|(rev, d)| RevisionCode {
                revision: rev,
                code: &d.code,
                model: &d.model,
            })
            .collect();
        let laid_out = layout::files(&registry, &inputs)?;
        for (alias, target) in &laid_out.aliases {
            report!("{alias}: the same code as {target}: its module is an alias of {target}'s");
        }
        let path = root.join(layout::RULES_REVISIONS);
        if !path.parent().is_some_and(std::path::Path::is_dir) {
            return Err(mcp_typed_codegen::Error::Config(format!(
                "{} has no folder: the project's rules crate (mcp-typed-rules) is missing",
                path.display()
            ))
            .into());
        }
        rules_file = Some((path, laid_out.rules_revisions));
        laid_out.files
    } else {
        done.into_iter()
            .map(|(rev, d)| (format!("{}.rs", source::module_name(rev)), d.code))
            .collect()
    };
    // Files this generator wrote before that it no longer produces (a revision that became
    // an alias): only in the project's own folder, and only files marked as generated.
    let stale_files = if in_project {
        leftovers(&out, &files)?
    } else {
        Vec::new()
    };
    // Every file to write, with its full path.
    let files: Vec<(std::path::PathBuf, String)> = files
        .into_iter()
        .map(|(name, code)| (out.join(name), code))
        .chain(rules_file)
        .collect();
    if args.check {
        let mut stale: Vec<String> = Vec::new();
        for (path, code) in &files {
            let old = std::fs::read_to_string(path).unwrap_or_default();
            if old != *code {
                report!("{}", drift(path, &old, code));
                stale.push(path.display().to_string());
            }
        }
        stale.extend(stale_files.iter().map(|p| p.display().to_string()));
        if stale.is_empty() {
            report!(
                "generated code is up to date ({} revisions)",
                revisions.len()
            );
            return Ok(ExitCode::SUCCESS);
        }
        report!("generated code differs from the schemas; run `mcp-typed-codegen generate`:");
        print(|out| stale.iter().try_for_each(|s| writeln!(out, "{s}")))?;
        return Ok(ExitCode::FAILURE);
    }
    for (path, code) in &files {
        let wrote = mcp_typed_codegen::builder::write_if_changed(path, code)?;
        report!(
            "{}{}",
            path.display(),
            if wrote { "" } else { " (unchanged)" }
        );
    }
    for path in stale_files {
        std::fs::remove_file(&path).map_err(|source| mcp_typed_codegen::Error::Io {
            path: path.clone(),
            source,
        })?;
        report!("{}: removed (no longer generated)", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// How many lines of a drifted file's diff `--check` shows.
const DIFF_LINES: usize = 60;

/// The start of the unified diff from the file on disk to what would be generated, so that
/// a drift check (CI, the bootstrap test) says what changed, not only where.
fn drift(path: &std::path::Path, old: &str, new: &str) -> String {
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(
            &format!("{shown} (checked in)"),
            &format!("{shown} (generated)"),
        )
        .to_string();
    let total = diff.lines().count();
    let mut text: String = diff
        .lines()
        .take(DIFF_LINES)
        .map(|l| format!("{l}\n"))
        .collect();
    if total > DIFF_LINES {
        text.push_str(&format!("… {} more diff lines\n", total - DIFF_LINES));
    }
    text
}

/// The `.rs` files of `dir` that carry this generator's mark but are not among `files`.
fn leftovers(
    dir: &std::path::Path,
    files: &[(String, String)],
) -> mcp_typed_codegen::Result<Vec<std::path::PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(mcp_typed_codegen::Error::Io {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    let mut stale = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".rs") || files.iter().any(|(f, _)| *f == name) {
            continue;
        }
        if std::fs::read_to_string(&path).is_ok_and(|t| t.starts_with(layout::GENERATED_MARK)) {
            stale.push(path);
        }
    }
    stale.sort();
    Ok(stale)
}

/// What the command keeps of one revision's [`Generated`](mcp_typed_codegen::Generated).
struct Done {
    code: String,
    types: usize,
    declaration_order: bool,
    errata: Vec<mcp_typed_codegen::load::errata::Applied>,
    model: mcp_typed_codegen::ir::Module,
}
