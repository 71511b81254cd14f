//! Runs the old and the current decoder over every corpus message (`oracle::corpus`), every
//! revision and kind, prints what they agree on and every difference with its class, and
//! writes the old decoder's verdicts as `tests/fixtures/decoder-oracle/verdicts.jsonl`
//! (`--write`; see `record-verdicts.sh`). Exits 1 when a difference is of no known class
//! (and then writes nothing).
//!
//! `--show`: prints every difference in full (known ones too).

use std::collections::BTreeMap;
use std::io::Write;

use mcp_fuzz_oracle::oracle::{self, Kind, New, REVISIONS};
use mcp_fuzz_oracle::{KNOWN_DIFFERENCES, Old, compare, differences};

/// `--mutations`: the differences on the mutations of every captured message, by signature
/// (what differs, the type, the two errors' first words), with a count and an example each.
fn explore_mutations() {
    let mut seen = std::collections::HashSet::new();
    let mut inputs = Vec::new();
    for input in oracle::corpus() {
        if !input.name.contains("traffic") {
            continue;
        }
        let Ok(text) = std::str::from_utf8(&input.data) else {
            continue;
        };
        for m in mcp_fuzz_oracle::mutations::mutations(text) {
            if seen.insert(m.clone()) {
                inputs.push(m.into_bytes());
            }
        }
    }
    println!("{} mutated messages", inputs.len());
    signatures(&inputs);
}

/// `--files FILE…`: each file one input (crash inputs of the fuzz target), by signature.
fn explore_files(files: &[String]) {
    let inputs: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    println!("{} files", inputs.len());
    signatures(&inputs);
}

/// The differences on `inputs` by signature, with a count and an example each.
fn signatures(inputs: &[Vec<u8>]) {
    let mut by: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for m in inputs {
        for d in differences(m) {
            let class = d.known(m).map_or("UNKNOWN", |k| k.name);
            let words = |o: &Option<oracle::Outcome>| match o {
                Some(oracle::Outcome::Refused { message, .. }) => message
                    .split(['`', ':', '"'])
                    .next()
                    .unwrap_or("")
                    .to_owned(),
                Some(oracle::Outcome::Accepted { .. }) => "accepted".into(),
                None => "none".into(),
            };
            let ty = match &d.kind {
                Kind::Result(_) => "result".to_owned(),
                k => k.to_string(),
            };
            let sig = format!(
                "[{class}] {:?} {ty}: old {:?} / new {:?}",
                d.what,
                words(&d.old),
                words(&d.new)
            );
            let e = by
                .entry(sig)
                .or_insert((0, format!("{:?}\n  {d}", String::from_utf8_lossy(m))));
            e.0 += 1;
        }
    }
    for (sig, (n, example)) in &by {
        println!(
            "{n:>7}  {sig}\n         e.g. {}",
            example.chars().take(1500).collect::<String>()
        );
    }
}

/// `--probe FILE`: every line of FILE as an input of the fuzz target; prints every
/// difference, known or not (for minimising a finding by hand).
fn probe(path: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().filter(|l| !l.is_empty()) {
        // `D:Definition <json>`: the JSON as that definition in every revision.
        if let Some((def, json)) = line.strip_prefix("D:").and_then(|l| l.split_once(' ')) {
            println!("### {def} {json}");
            for rev in REVISIONS {
                let kind = Kind::Definition(def.to_owned());
                let old = oracle::outcome::<Old>(rev, &kind, json.as_bytes());
                let new = oracle::outcome::<New>(rev, &kind, json.as_bytes());
                let show = |o: &Option<oracle::Outcome>| match o {
                    Some(oracle::Outcome::Accepted { json, .. }) => format!("ok {json}"),
                    Some(oracle::Outcome::Refused {
                        pointer, message, ..
                    }) => {
                        format!("err {pointer:?} {message}")
                    }
                    None => "none".into(),
                };
                println!("  {rev}\n    old {}\n    new {}", show(&old), show(&new));
            }
            continue;
        }
        let found = differences(line.as_bytes());
        println!("### {line}\n    {} difference(s)", found.len());
        for d in found {
            let class = d.known(line.as_bytes()).map_or("UNKNOWN", |k| k.name);
            println!("  [{class}] {d}");
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|a| a == "--write");
    let show = args.iter().any(|a| a == "--show");
    if args.first().is_some_and(|a| a == "--files") {
        explore_files(&args[1..]);
        return;
    }
    if args.iter().any(|a| a == "--mutations") {
        explore_mutations();
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--probe") {
        probe(&args[i + 1]);
        return;
    }
    let corpus = oracle::corpus();
    let (mut records, mut accepted, mut refused) = (0usize, 0usize, 0usize);
    let mut by_class: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unknown = Vec::new();
    let mut lines = Vec::new();
    let mut sources: BTreeMap<String, usize> = BTreeMap::new();
    for input in &corpus {
        let source = input
            .name
            .rsplit_once('/')
            .map_or(input.name.as_str(), |(dir, _)| dir)
            .to_owned();
        *sources.entry(source).or_default() += 1;
        let old = oracle::outcomes::<Old>(input);
        let new = oracle::outcomes::<New>(input);
        let mut classes: BTreeMap<(usize, Kind), String> = BTreeMap::new();
        let mut keys: Vec<&(usize, Kind)> = old.keys().chain(new.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let (o, n) = (old.get(key).cloned(), new.get(key).cloned());
            records += 1;
            match &o {
                Some(o) if o.is_accepted() => accepted += 1,
                _ => refused += 1,
            }
            let Some(d) = compare(REVISIONS[key.0], &key.1, o, n) else {
                continue;
            };
            match d.known(&input.data) {
                Some(k) => {
                    *by_class.entry(k.name).or_default() += 1;
                    classes.insert(key.clone(), k.name.to_owned());
                    if show {
                        println!("{} [{}]\n  {d}", input.name, k.name);
                    }
                }
                None => unknown.push(format!("{}\n  {d}", input.name)),
            }
        }
        let (old, new) = (oracle::tokens(input, &old), oracle::tokens(input, &new));
        lines.push(
            oracle::line_of(input, &old, &new, |i, kind| {
                classes.get(&(i, kind.clone())).cloned()
            })
            .write(),
        );
    }
    println!("inputs by source:");
    for (s, n) in &sources {
        println!("  {n:>6}  {s}");
    }
    println!(
        "{} inputs, {records} records (input x revision x kind): the old decoder accepts {accepted}, refuses {refused}",
        corpus.len()
    );
    for k in KNOWN_DIFFERENCES {
        println!(
            "known difference {}: {}",
            k.name,
            by_class.get(k.name).copied().unwrap_or(0)
        );
    }
    println!("unknown differences: {}", unknown.len());
    for u in &unknown {
        println!("{u}");
    }
    if !unknown.is_empty() {
        std::process::exit(1);
    }
    if write {
        let path = mcp_fuzz_oracle::workspace().join(oracle::FIXTURE);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut f = std::fs::File::create(&path).unwrap();
        for l in &lines {
            writeln!(f, "{l}").unwrap();
        }
        println!("wrote {} ({} lines)", path.display(), lines.len());
    }
}
