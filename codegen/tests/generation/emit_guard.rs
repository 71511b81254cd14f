//! The emitter only renders the model: what a type is for is the IR's to say
//! (`ir::roles`), so `src/emit` tests no name suffix (`ends_with("Request")`) and names no
//! schema definition (`"CallToolResult"`). Doc comments may mention definitions: they are
//! not looked up.

use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenTree};

/// String literals of `src/emit` that look like a definition name and are allowed, with why.
/// Empty: keep it so.
const ALLOWED: &[(&str, &str)] = &[];

/// The words a suffix test would look for.
const ROLE_WORDS: &[&str] = &["Request", "Notification", "Result", "Params", "Error"];

fn emit_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/emit");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.len() > 3, "{}: no sources found", dir.display());
    files
}

/// The string literals of Rust source, as the compiler's tokenizer (proc-macro2) reads them;
/// doc comments (`#[doc = "…"]` once tokenized) and plain comments are not code.
fn string_literals(source: &str) -> Vec<String> {
    fn walk(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
        let mut tokens = tokens.into_iter().peekable();
        while let Some(token) = tokens.next() {
            match token {
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    // An attribute: skipped whole when it is a doc comment.
                    if let Some(TokenTree::Group(g)) = tokens.peek()
                        && g.delimiter() == Delimiter::Bracket
                        && matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc")
                    {
                        tokens.next();
                    }
                }
                TokenTree::Group(g) => walk(g.stream(), out),
                TokenTree::Literal(l) => {
                    if let Ok(syn::Lit::Str(s)) = syn::parse_str::<syn::Lit>(&l.to_string()) {
                        out.push(s.value());
                    }
                }
                _ => {}
            }
        }
    }
    let tokens: proc_macro2::TokenStream = source.parse().expect("emit sources tokenize");
    let mut out = Vec::new();
    walk(tokens, &mut out);
    out
}

/// `[A-Z][a-z]+[A-Z][A-Za-z]*`: a literal that is a CamelCase name of two words or more.
fn looks_like_definition(s: &str) -> bool {
    let mut chars = s.chars();
    let first = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    let lower: String = chars.clone().take_while(char::is_ascii_lowercase).collect();
    let rest: String = chars.skip(lower.len()).collect();
    first
        && !lower.is_empty()
        && rest.starts_with(|c: char| c.is_ascii_uppercase())
        && rest.chars().all(|c| c.is_ascii_alphabetic())
}

#[test]
fn the_scanner_finds_what_it_looks_for() {
    let src = "/// \"InDoc\"\nfn f() { let a = \"CallToolResult\"; // \"InComment\"\nlet q = '\"'; g(\"tools/call\", \"A\\\"B\", r#\"Raw\"#); }";
    assert_eq!(
        string_literals(src),
        ["CallToolResult", "tools/call", "A\"B", "Raw"]
    );
    assert!(looks_like_definition("CallToolResult"));
    assert!(looks_like_definition("JsonRpcMessage"));
    assert!(!looks_like_definition("JSONRPCMessage") && !looks_like_definition("Result"));
    assert!(!looks_like_definition("tools/call") && !looks_like_definition("Call tool"));
}

#[test]
fn emit_names_no_definition_and_tests_no_suffix() {
    let mut found = Vec::new();
    for file in emit_files() {
        let source = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for word in ROLE_WORDS {
            for call in ["ends_with", "strip_suffix", "starts_with", "strip_prefix"] {
                let needle = format!("{call}(\"{word}\")");
                for (i, line) in source.lines().enumerate() {
                    if line.contains(&needle) && !line.trim_start().starts_with("//") {
                        found.push(format!("{name}:{}: suffix test {needle}", i + 1));
                    }
                }
            }
        }
        for literal in string_literals(&source) {
            if looks_like_definition(&literal) && !ALLOWED.iter().any(|(a, _)| *a == literal) {
                found.push(format!("{name}: names the definition {literal:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the emitter decides what the IR should (ir::roles, ir::naming, ir::docs):\n{}",
        found.join("\n")
    );
}
