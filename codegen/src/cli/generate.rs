//! `mcp-typed-codegen generate`.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcp_typed_codegen::source;

use super::{GenerateArgs, Result, builder_for, print, workspace};

/// The runtime path used for the modules checked into `mcp-typed`.
const IN_CRATE_RUNTIME: &str = "crate::runtime";

pub fn run(mut args: GenerateArgs) -> Result<ExitCode> {
    let root = workspace()?;
    // Without --out, the modules checked into mcp-typed (which reach its runtime as
    // `crate::runtime`); with it, modules for a user's crate, which depends on mcp-typed.
    let in_project = args.out.is_none();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| root.join("generated").join("src"));
    let revisions: Vec<String> = if args.revisions.is_empty() {
        source::REVISIONS.iter().map(|r| r.to_string()).collect()
    } else {
        args.revisions.clone()
    };
    if in_project && args.options.runtime_path == mcp_typed_codegen::Options::DEFAULT_RUNTIME {
        args.options.runtime_path = IN_CRATE_RUNTIME.to_owned();
    }
    let mut stale = Vec::new();
    let mut models = Vec::new();
    // Revisions are independent: generate them on parallel threads (most of the time is
    // formatting, syn + prettyplease, single-threaded per file), then write and report them
    // in order as before. (`Generated` holds a `TokenStream`, which stays on its thread.)
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
    for (rev, (generated, elapsed)) in revisions.iter().zip(results) {
        let generated = generated?;
        let path = out.join(format!("{}.rs", source::module_name(rev)));
        let lines = generated.code.lines().count();
        if args.check {
            let current = std::fs::read_to_string(&path).unwrap_or_default();
            if current != generated.code {
                stale.push(path.display().to_string());
            }
        } else {
            let wrote = mcp_typed_codegen::builder::write_if_changed(&path, &generated.code)?;
            report!(
                "{rev}: {} ({} types, {lines} lines, generated in {:.0} ms){}",
                path.display(),
                generated.types,
                elapsed.as_secs_f64() * 1000.0,
                if wrote { "" } else { ", unchanged" }
            );
        }
        for a in &generated.errata {
            report!(
                "{rev}: erratum {} applied ({}) at {}",
                a.id,
                a.summary,
                a.pointers.join(", ")
            );
        }
        models.push((rev.clone(), generated.model));
    }
    // The conversions between adjacent revisions, for mcp-typed when it gets every revision.
    if in_project && revisions.len() == source::REVISIONS.len() {
        let pairs: Vec<(&str, &mcp_typed_codegen::ir::Module)> =
            models.iter().map(|(r, m)| (r.as_str(), m)).collect();
        let code = mcp_typed_codegen::conversions::code(&pairs)?;
        let path = out.join("conversions.rs");
        if args.check {
            if std::fs::read_to_string(&path).unwrap_or_default() != code {
                stale.push(path.display().to_string());
            }
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(code.as_str()) {
            std::fs::write(&path, &code).map_err(|source| mcp_typed_codegen::Error::Io {
                path: path.clone(),
                source,
            })?;
            report!("conversions: {}", path.display());
        }
    }
    if args.check {
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
    Ok(ExitCode::SUCCESS)
}

/// What the command keeps of one revision's [`Generated`](mcp_typed_codegen::Generated).
struct Done {
    code: String,
    types: usize,
    errata: Vec<mcp_typed_codegen::load::errata::Applied>,
    model: mcp_typed_codegen::ir::Module,
}
