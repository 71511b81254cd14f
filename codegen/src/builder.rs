//! The [`Builder`]: one entry point for the CLI and for `build.rs`.

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;
use sha2::{Digest, Sha256};

use crate::emit::{self, EmitOptions};
use crate::error::{Error, Result};
use crate::load::errata::{Applied, Errata};
use crate::load::ts::Order;
use crate::load::{SchemaDoc, Step, Steps};
use crate::options::Options;
use crate::{ir, source};

/// Configures and runs code generation.
///
/// ```no_run
/// // build.rs
/// # #[allow(clippy::needless_doctest_main)]
/// fn main() {
///     mcp_typed_codegen::Builder::new()
///         .schema_path("schema/2025-11-25/schema.json")
///         .module_name("mcp")
///         .generate()
///         .expect("generate MCP types")
///         .write_to_out_dir("mcp.rs")
///         .expect("write MCP types");
/// }
/// ```
/// and in the crate: `include!(concat!(env!("OUT_DIR"), "/mcp.rs"));` then use `mcp::Tool`.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    source: Option<Source>,
    schema_dir: Option<PathBuf>,
    workspace: Option<PathBuf>,
    output: Option<PathBuf>,
    options: Options,
}

#[derive(Debug, Clone)]
enum Source {
    Path(PathBuf),
    Json(String),
    Revision(String),
}

impl Builder {
    /// A builder with default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder with these options (as parsed by the CLI).
    pub fn with_options(options: Options) -> Self {
        Builder {
            options,
            ..Self::default()
        }
    }

    /// Reads the schema from this file.
    pub fn schema_path(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.source = Some(Source::Path(path.into()));
        self
    }

    /// Uses this schema text.
    pub fn schema_json(&mut self, json: impl Into<String>) -> &mut Self {
        self.source = Some(Source::Json(json.into()));
        self
    }

    /// Finds the official schema of this revision (see [`crate::source`] for the
    /// search order).
    pub fn revision(&mut self, revision: impl Into<String>) -> &mut Self {
        self.source = Some(Source::Revision(revision.into()));
        self
    }

    /// Searches this folder first for `<revision>/schema.json`.
    pub fn schema_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.schema_dir = Some(dir.into());
        self
    }

    /// The project folder whose `schema/` cache and `../shared/mcp-spec` are searched
    /// (default: found from the current directory).
    pub fn workspace(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.workspace = Some(dir.into());
        self
    }

    /// Wraps the output in `pub mod name { … }`.
    pub fn module_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.options.module_name = Some(name.into());
        self
    }

    /// Adds a derive to every generated type.
    pub fn derive(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.derives.push(path.into());
        self
    }

    /// Sets the path of the runtime the code calls (default `::mcp_typed_runtime`: the crate
    /// `mcp-typed-runtime`, which the crate including the code depends on).
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.runtime_path = path.into();
        self
    }

    /// Applies the project's errata (`schema/errata.json`, built in; the default) or reads
    /// the official schema to the letter (`false`, the CLI's `--no-errata`).
    pub fn errata(&mut self, apply: bool) -> &mut Self {
        self.options.no_errata = !apply;
        self
    }

    /// Holds the member `Definition.property` behind a `Box` (the CLI's `--boxed`; added to
    /// the default, the capabilities of `initialize`: see [`Options::boxed`]).
    pub fn boxed(&mut self, member: impl Into<String>) -> &mut Self {
        self.options.boxed.push(member.into());
        self
    }

    /// Where [`Generated::write`] writes.
    pub fn output(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.output = Some(path.into());
        self
    }

    /// The options as set.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The model of the types [`generate`](Self::generate) would emit (errata and `--fixed`
    /// values applied), for tools and tests that work from the generator's view of a schema.
    pub fn model(&self) -> Result<ir::Module> {
        let (text, origin, path) = self.read_source()?;
        let order = declaration_order(path.as_deref())?;
        self.lower(&text, &origin, &order)
    }

    /// Schema text → model: the loader's steps (errata, member order), recorded in
    /// [`Module::applied`](ir::Module::applied), then lowering.
    fn lower(&self, text: &str, origin: &str, order: &MemberOrder) -> Result<ir::Module> {
        let errata = (!self.options.no_errata).then(Errata::builtin);
        let steps = Steps {
            errata: errata.as_ref(),
            order: match order {
                MemberOrder::Declared { order, sha256, .. } => Some((order, sha256.as_str())),
                MemberOrder::Schema => None,
            },
        };
        let doc = SchemaDoc::load(text, origin, steps)?;
        let fixed = self.options.fixed_values().map_err(Error::Config)?;
        let boxed = self.options.boxed_members().map_err(Error::Config)?;
        let mut module =
            ir::lower_with(&doc, &fixed).map_err(|e| in_errata(e, doc.errata_applied()))?;
        ir::box_members(&mut module, &boxed).map_err(Error::Config)?;
        Ok(module)
    }

    /// Generates code. Pure: reads the schema, writes nothing.
    pub fn generate(&self) -> Result<Generated> {
        let (text, origin, path) = self.read_source()?;
        let order = declaration_order(path.as_deref())?;
        let module = self.lower(&text, &origin, &order)?;
        let opts = self.emit_options()?;
        let mut tokens = emit::emit(&module, &opts);
        if let Some(name) = &self.options.module_name {
            let name: syn::Ident = syn::parse_str(name)
                .map_err(|e| Error::Config(format!("module name {name:?}: {e}")))?;
            let doc = format!(" The MCP types generated from {origin}.");
            tokens = quote! {
                #[doc = #doc]
                #[allow(clippy::all)]
                pub mod #name { #tokens }
            };
        }
        let body = emit::format(tokens.clone())
            .map_err(|e| Error::Config(format!("generated code does not parse: {e}")))?;
        let digest = Sha256::digest(text.as_bytes());
        let hash: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        // The header says what the loader changed, as the model records it.
        let mut errata: Vec<Applied> = Vec::new();
        let mut order_line = String::new();
        for step in &module.applied {
            match step {
                Step::Erratum(a) => errata.push(a.clone()),
                Step::DeclarationOrder { sha256, .. } => {
                    order_line = format!(
                        "// Member order: as declared in its schema.ts (sha256 {sha256}).\n"
                    );
                }
            }
        }
        let errata_line = if errata.is_empty() {
            String::new()
        } else {
            let ids: Vec<&str> = errata.iter().map(|a| a.id.as_str()).collect();
            format!(
                "// Errata applied (schema/errata.json): {}.\n",
                ids.join(", ")
            )
        };
        let code = format!(
            "// @generated by mcp-typed-codegen {} from {origin} (sha256 {hash}).\n{order_line}{errata_line}// Do not edit by hand: regenerate with `mcp-typed-codegen generate`.\n\n{body}",
            env!("CARGO_PKG_VERSION"),
        );
        let mut files_read: Vec<PathBuf> = path.into_iter().collect();
        if let MemberOrder::Declared { path, .. } = &order {
            files_read.push(path.clone());
        }
        Ok(Generated {
            tokens,
            code,
            declaration_order: matches!(order, MemberOrder::Declared { .. }),
            files_read,
            output: self.output.clone(),
            types: module.types.len(),
            errata,
            module,
        })
    }

    fn emit_options(&self) -> Result<EmitOptions> {
        let runtime: syn::Path = syn::parse_str(&self.options.runtime_path).map_err(|e| {
            Error::Config(format!("runtime path {:?}: {e}", self.options.runtime_path))
        })?;
        let derives = self
            .options
            .derives
            .iter()
            .map(|d| syn::parse_str(d).map_err(|e| Error::Config(format!("derive {d:?}: {e}"))))
            .collect::<Result<_>>()?;
        Ok(EmitOptions { runtime, derives })
    }

    /// Schema text, a name for it that does not depend on the machine, and the file read.
    fn read_source(&self) -> Result<(String, String, Option<PathBuf>)> {
        let path = match &self.source {
            None => {
                return Err(Error::Config(
                    "no schema: call schema_path, schema_json or revision".into(),
                ));
            }
            Some(Source::Json(text)) => return Ok((text.clone(), "<inline schema>".into(), None)),
            Some(Source::Path(p)) => p.clone(),
            Some(Source::Revision(r)) => {
                let workspace = match &self.workspace {
                    Some(w) => w.clone(),
                    None => source::current_workspace()?,
                };
                let p = source::resolve(r, self.schema_dir.as_deref(), &workspace)?;
                let text = read(&p)?;
                return Ok((text, format!("the MCP schema of revision {r}"), Some(p)));
            }
        };
        let text = read(&path)?;
        let origin = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Ok((text, origin, Some(path)))
    }
}

/// Where the members of objects get their order.
enum MemberOrder {
    /// From the `schema.ts` beside the `schema.json`.
    Declared {
        order: Order,
        path: PathBuf,
        sha256: String,
    },
    /// `schema.json`'s own (alphabetical in the official files): no `schema.ts` beside it.
    Schema,
}

/// Reads the `schema.ts` beside a `schema.json`, if there is one.
fn declaration_order(schema_json: Option<&Path>) -> Result<MemberOrder> {
    let Some(ts) = schema_json.map(|p| p.with_file_name("schema.ts")) else {
        return Ok(MemberOrder::Schema);
    };
    if !ts.is_file() {
        return Ok(MemberOrder::Schema);
    }
    let text = read(&ts)?;
    let order = Order::parse(&text, &ts.display().to_string())?;
    let sha256 = crate::manifest::sha256_hex(text.as_bytes());
    Ok(MemberOrder::Declared {
        order,
        path: ts,
        sha256,
    })
}

/// A schema error inside a value an erratum put in place names the erratum's pointer, which
/// the document has, and says where below it the error is.
fn in_errata<'a>(e: Error, errata: impl Iterator<Item = &'a Applied>) -> Error {
    let Error::Schema { pointer, message } = e else {
        return e;
    };
    for a in errata {
        for p in &a.pointers {
            if let Some(rest) = pointer.strip_prefix(p.as_str())
                && (rest.is_empty() || rest.starts_with('/'))
            {
                return Error::schema(
                    p.clone(),
                    format!(
                        "{message} (at {rest:?} inside the value erratum {} puts here)",
                        a.id
                    ),
                );
            }
        }
    }
    Error::Schema { pointer, message }
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The result of [`Builder::generate`].
#[derive(Debug, Clone)]
pub struct Generated {
    tokens: TokenStream,
    code: String,
    files_read: Vec<PathBuf>,
    declaration_order: bool,
    output: Option<PathBuf>,
    types: usize,
    errata: Vec<Applied>,
    module: ir::Module,
}

impl Generated {
    /// The unformatted tokens.
    pub fn tokens(&self) -> &TokenStream {
        &self.tokens
    }

    /// The formatted source, with its `@generated` header.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Whether members are in the order the schema's `schema.ts` declares them (`true`), or
    /// in `schema.json`'s order because no `schema.ts` was found beside it.
    pub fn declaration_order(&self) -> bool {
        self.declaration_order
    }

    /// How many Rust types were generated.
    pub fn type_count(&self) -> usize {
        self.types
    }

    /// The model the code was generated from.
    pub fn model(&self) -> &ir::Module {
        &self.module
    }

    /// The errata applied to the schema, in list order (empty with
    /// [`Builder::errata(false)`](Builder::errata)).
    pub fn errata_applied(&self) -> &[Applied] {
        &self.errata
    }

    /// The files read to produce this code.
    pub fn files_read(&self) -> &[PathBuf] {
        &self.files_read
    }

    /// Writes to `path` unless it already holds exactly this code. Returns whether it wrote.
    pub fn write_to(&self, path: impl AsRef<Path>) -> Result<bool> {
        write_if_changed(path.as_ref(), &self.code)
    }

    /// Writes to the builder's [`output`](Builder::output).
    pub fn write(&self) -> Result<bool> {
        let path = self
            .output
            .as_ref()
            .ok_or_else(|| Error::Config("no output path set".into()))?;
        self.write_to(path)
    }

    /// For `build.rs`: writes `$OUT_DIR/file_name` and prints `cargo:rerun-if-changed` for
    /// every file read. Returns the path written.
    pub fn write_to_out_dir(&self, file_name: &str) -> Result<PathBuf> {
        write_to_out_dir(file_name, &self.code, &self.files_read)
    }
}

/// For `build.rs`: writes `code` to `$OUT_DIR/file_name` (unless it holds exactly that) and
/// prints `cargo:rerun-if-changed` for every file in `read`. Returns the path written.
pub(crate) fn write_to_out_dir(file_name: &str, code: &str, read: &[PathBuf]) -> Result<PathBuf> {
    let out = std::env::var_os("OUT_DIR")
        .ok_or_else(|| Error::Config("OUT_DIR is not set: call this from build.rs".into()))?;
    let path = PathBuf::from(out).join(file_name);
    write_if_changed(&path, code)?;
    for f in read {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    Ok(path)
}

/// Writes `code` to `path` (creating its folder) unless the file already holds exactly
/// `code`. Returns whether it wrote.
pub fn write_if_changed(path: &Path, code: &str) -> Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == code.as_bytes()) {
        return Ok(false);
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(path, code).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(true)
}
