//! `mcp-typed-codegen diff`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_typed_codegen::diff::{self, SchemaDiff};
use mcp_typed_codegen::load::{Dialect, SchemaDoc};
use mcp_typed_codegen::{Error, source};

use super::{print, workspace};

/// The output format, shown by `--help`.
pub const LONG_HELP: &str = "\
Each of R1 and R2 is a revision (found like `generate` finds it: $MCP_SCHEMA_DIR, then the
schema/ cache, then ../shared/mcp-spec) or the path of a schema.json.

Output (stdout): one line per change, sorted by definition name, then by field:
  + definition NAME                     a definition only R2 has
  - definition NAME                     a definition only R1 has
  ~ SUBJECT: CHANGE                     a change in a definition both have
SUBJECT is `definition NAME` (the definition itself) or `NAME.FIELD`, where FIELD is a property
(`CallToolResult.content`), a property of an inline object (`ElicitRequest.params.message`) or
the items of an inline array (`NAME.rows[].id`). CHANGE is one of:
  added (required), type T              a field only R2 has (or: added (optional), ...)
  removed (was required)                a field only R1 has (or: removed (was optional))
  type T1 → T2                          its type changed
  optional → required                   (or: required → optional)
  const V1 → V2                         `(none)` when absent
  enum added V, ...; removed V, ...
  variants added T, ...; removed T, ... members of a union (anyOf/oneOf)
  KEYWORD V1 → V2                       any other keyword: format, minimum, default, ...
  schema S1 → S2                        any other change (normalized JSON, cut to 120 chars)
Types are written TypeScript-style: string, integer, ContentBlock (a definition, by name),
ContentBlock[], string | integer, { [key: string]: unknown }, object (an inline object, whose
fields are compared one by one), unknown. Values are compact JSON.

Not changes: descriptions, titles, $comment and examples; the order of `required`, `enum` and
union members; the dialect (draft-07 `definitions` vs 2020-12 `$defs`, so `#/definitions/X`
and `#/$defs/X` are the same reference).

A summary goes to stderr: `R1 (dialect) → R2 (dialect): N definitions added, N removed,
N changed (N changes)`. With --json, stdout is one JSON object instead:
  {\"from\": R1, \"to\": R2, \"summary\": {\"definitions_added\": N, ...},
   \"changes\": [{\"definition\": NAME, \"field\": FIELD (absent for the definition),
                \"change\": \"definition_added\" | \"definition_removed\" | \"field_added\" |
                \"field_removed\" | \"type\" | \"required\" | \"const\" | \"enum\" | \"variants\" |
                \"keyword\" | \"schema\", ...the fields of that change}]}
Exit status: 0 whether or not the schemas differ; 2 on error (unknown revision, missing or
invalid file); 141 (128 + SIGPIPE) when stdout is closed before the output is written, as by
`| head`, with nothing on stderr.";

/// Arguments of `diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The old revision, or a path to a schema.json.
    #[arg(value_name = "R1")]
    pub from: String,
    /// The new revision, or a path to a schema.json.
    #[arg(value_name = "R2")]
    pub to: String,
    /// Print the structured diff as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: DiffArgs) -> super::Result<ExitCode> {
    let root = workspace()?;
    let old = load(&args.from, &root)?;
    let new = load(&args.to, &root)?;
    let d: SchemaDiff = diff::diff(&old, &new);
    let summary = d.summary();
    if args.json {
        let value = serde_json::json!({
            "from": args.from,
            "to": args.to,
            "summary": summary,
            "changes": d.changes,
        });
        let text =
            serde_json::to_string_pretty(&value).map_err(|e| Error::Config(e.to_string()))?;
        print(|out| writeln!(out, "{text}"))?;
    } else {
        print(|out| write!(out, "{d}"))?;
        // What the generated conversions refuse: methods with no counterpart.
        if let (Ok(ma), Ok(mb)) = (
            mcp_typed_codegen::ir::lower(&old),
            mcp_typed_codegen::ir::lower(&new),
        ) {
            let notes =
                mcp_typed_codegen::conversions::structural_notes(&args.from, &ma, &args.to, &mb);
            if notes.len() > 1 {
                print(|out| {
                    writeln!(out, "\nStructural changes (the conversions refuse these):")?;
                    notes[1..]
                        .iter()
                        .try_for_each(|n| writeln!(out, "  {}", n.trim()))
                })?;
            }
        }
    }
    report!(
        "{} ({}) → {} ({}): {summary}",
        args.from,
        dialect(&old),
        args.to,
        dialect(&new)
    );
    Ok(ExitCode::SUCCESS)
}

/// Loads a revision through the resolver, or a file.
fn load(what: &str, root: &Path) -> mcp_typed_codegen::Result<SchemaDoc> {
    let registry = mcp_typed_codegen::registry::Registry::for_workspace(root)?;
    let path = if registry.get(what).is_ok() {
        source::resolve(what, None, root)?
    } else {
        let p = PathBuf::from(what);
        if !p.is_file() {
            return Err(Error::Config(format!(
                "{what:?} is neither a revision ({}) nor a schema file",
                registry.names().collect::<Vec<_>>().join(", ")
            )));
        }
        p
    };
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Io {
        path: path.clone(),
        source,
    })?;
    SchemaDoc::from_str(&text, &path.display().to_string())
}

fn dialect(doc: &SchemaDoc) -> &'static str {
    match doc.dialect() {
        Dialect::Draft07 => "draft-07",
        Dialect::Draft202012 => "2020-12",
    }
}
