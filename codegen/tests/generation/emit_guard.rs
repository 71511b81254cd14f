//! The emitter only renders the model: what a type is for is the IR's to say
//! (`ir::roles`), so `src/emit` tests no name suffix (`ends_with("Request")`) and names no
//! schema definition (`"CallToolResult"`). Doc comments may mention definitions: they are
//! not looked up.

use std::path::{Path, PathBuf};

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

/// The string literals of Rust source (outside comments), with their line numbers.
fn string_literals(source: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = source.chars().peekable();
    let mut line = 1;
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            // A char literal (`'"'`, `'\''`); a lifetime has no closing quote.
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                let len = if rest.starts_with('\\') {
                    3
                } else if rest.chars().nth(1) == Some('\'') {
                    2
                } else {
                    0
                };
                for _ in 0..len {
                    chars.next();
                }
            }
            '"' => {
                let (start, mut text) = (line, String::new());
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(n) = chars.next() {
                                line += usize::from(n == '\n');
                                text.push('\\');
                                text.push(n);
                            }
                        }
                        '"' => break,
                        c => {
                            line += usize::from(c == '\n');
                            text.push(c);
                        }
                    }
                }
                out.push((start, text));
            }
            _ => {}
        }
    }
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
    let src = "let a = \"CallToolResult\"; // \"InComment\"\nlet q = '\"'; f(\"tools/call\", \"A\\\"B\");";
    let found: Vec<(usize, String)> = string_literals(src);
    assert_eq!(
        found,
        [
            (1, "CallToolResult".to_owned()),
            (2, "tools/call".to_owned()),
            (2, "A\\\"B".to_owned())
        ]
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
        for (line, literal) in string_literals(&source) {
            if looks_like_definition(&literal) && !ALLOWED.iter().any(|(a, _)| *a == literal) {
                found.push(format!("{name}:{line}: names the definition {literal:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the emitter decides what the IR should (ir::roles, ir::naming, ir::docs):\n{}",
        found.join("\n")
    );
}
