//! Big inputs cost in proportion to their size: decoding, encoding, typing a raw result, the
//! unknown-member walk, conversions and elicitation content checks, on strings and arrays of
//! `n` and `16 n` elements.
//!
//! Measured without wall clocks, so that a loaded machine cannot fail the test:
//! - allocations (count and bytes), counted per thread by the global allocator below: exact
//!   and repeatable. Linear work allocates about 16 times as much for 16 times the input
//!   (up to 2× more where a buffer doubles past a power of two); quadratic work, 256 times.
//!   The bound is 40 times.
//! - CPU time of the test's own thread (`CLOCK_THREAD_CPUTIME_ID`: time on a CPU, not time
//!   waiting for one, so other processes do not count), best of three: the bound is 64 times, four times what linear
//!   work needs and a quarter of what quadratic work takes; it catches quadratic work that
//!   allocates nothing (comparisons, scans).
//!
//! Also: schemas nested beyond the parser's recursion limit and long `$ref` chains are errors
//! of the generator, not stack overflows.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcp_typed::elicit::Elicit;
use mcp_typed::{Unknowns, v2025_06_18, v2025_11_25};
use serde_json::{Value, json};

struct Counting;

thread_local! {
    /// Allocations and bytes allocated by this thread.
    static ALLOCATED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

fn count(bytes: usize) {
    let _ = ALLOCATED.try_with(|c| {
        let (n, b) = c.get();
        c.set((n + 1, b + bytes as u64));
    });
}

// SAFETY: every call is forwarded to `System` unchanged; the counting touches only a
// const-initialized thread-local `Cell`, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What one run of an operation cost.
#[derive(Debug, Clone, Copy)]
struct Cost {
    allocations: u64,
    bytes: u64,
    cpu_ns: u64,
}

/// Nanoseconds this thread has spent on a CPU (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// The cost of `op(input)`, best of three (allocations are the same every time).
fn cost<I>(input: &I, op: &dyn Fn(&I)) -> Cost {
    let mut best: Option<Cost> = None;
    for _ in 0..3 {
        let cpu = thread_cpu_ns();
        let (n0, b0) = ALLOCATED.with(Cell::get);
        op(input);
        let (n1, b1) = ALLOCATED.with(Cell::get);
        let c = Cost {
            allocations: n1 - n0,
            bytes: b1 - b0,
            cpu_ns: thread_cpu_ns() - cpu,
        };
        best = Some(match best {
            Some(b) if b.cpu_ns <= c.cpu_ns => b,
            _ => c,
        });
    }
    best.unwrap()
}

/// Runs `op` on inputs of size `n` and `16 n` (`make` builds them) and checks that the cost
/// grows linearly.
fn assert_linear<I>(what: &str, n: usize, make: impl Fn(usize) -> I, op: impl Fn(&I)) {
    let (small, big) = (make(n), make(16 * n));
    op(&small); // warm up: lazily built statics, page faults of the first run
    let (s, b) = (cost(&small, &op), cost(&big, &op));
    let ratio = |x: u64, y: u64| y as f64 / x.max(1) as f64;
    let (allocations, bytes, cpu) = (
        ratio(s.allocations, b.allocations),
        ratio(s.bytes, b.bytes),
        ratio(s.cpu_ns, b.cpu_ns),
    );
    println!(
        "{what}: n={n}: {s:?}; 16n: {b:?}; ratios: allocations {allocations:.1}, bytes {bytes:.1}, cpu {cpu:.1}"
    );
    assert!(
        allocations <= 40.0 && bytes <= 40.0,
        "{what}: allocations grow faster than the input: {s:?} for n={n}, {b:?} for 16n"
    );
    assert!(
        cpu <= 64.0,
        "{what}: CPU time grows faster than the input: {s:?} for n={n}, {b:?} for 16n"
    );
}

/// A string of `n` characters mixing ASCII, escapes and multi-byte characters.
fn text(n: usize) -> String {
    "ab\"\\\n é😀".chars().cycle().take(n).collect()
}

#[test]
fn huge_strings_cost_linear_time_and_memory() {
    assert_linear(
        "a tools/call argument string: decode, encode",
        20_000,
        |n| {
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "x", "arguments": {"s": text(n)}}})
            .to_string()
        },
        |t| {
            let m: v2025_11_25::ClientMessage = serde_json::from_str(t).unwrap();
            assert!(m.unknowns().is_empty());
            serde_json::to_string(&m).unwrap();
        },
    );
    assert_linear(
        "a text content block: type the raw result, convert",
        20_000,
        |n| {
            json!({"jsonrpc": "2.0", "id": 1,
                   "result": {"content": [{"type": "text", "text": text(n)}]}})
            .to_string()
        },
        |t| {
            let m: v2025_11_25::ServerMessage = serde_json::from_str(t).unwrap();
            let v2025_11_25::ServerMessage::Response(r) = m else {
                panic!()
            };
            let result = r.result_as::<v2025_11_25::CallToolRequest>().unwrap();
            mcp_typed::convert::downgrade::<v2025_06_18::CallToolResult>(&result).unwrap();
        },
    );
    assert_linear(
        "an elicitation string field: length in code points, pattern",
        20_000,
        |n| {
            let mut content = serde_json::Map::new();
            content.insert("name".into(), json!("A".repeat(n)));
            content.insert("day".into(), json!("2024-02-29"));
            content.insert("extras".into(), json!(["meal"]));
            content
        },
        |c| {
            let e = mcp_tests::fuzz::Booking::from_content(c).unwrap_err();
            assert!(e.concerns("name"), "{e}");
        },
    );
}

#[test]
fn huge_arrays_cost_linear_time_and_memory() {
    assert_linear(
        "a tools/call argument array: decode, encode",
        2_000,
        |n| {
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "x", "arguments": {"a": (0..n).collect::<Vec<_>>()}}})
            .to_string()
        },
        |t| {
            let m: v2025_11_25::ClientMessage = serde_json::from_str(t).unwrap();
            serde_json::to_string(&m).unwrap();
        },
    );
    // Every tool holds a member the revision does not define (walked and reported), and
    // `icons`, which 2025-06-18 does not have (dropped, one pointer per tool).
    assert_linear(
        "tools: type the raw result, walk unknowns, downgrade dropping members",
        300,
        |n| {
            let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "x-extra": 1,
                              "icons": [{"src": "https://a.example/i.png"}]});
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": vec![tool; n]}}).to_string()
        },
        |t| {
            let m: v2025_11_25::ServerMessage = serde_json::from_str(t).unwrap();
            let v2025_11_25::ServerMessage::Response(r) = m else {
                panic!()
            };
            let result = r.result_as::<v2025_11_25::ListToolsRequest>().unwrap();
            assert_eq!(result.unknowns().len(), result.tools.len());
            let down =
                mcp_typed::convert::downgrade::<v2025_06_18::ListToolsResult>(&result).unwrap();
            assert_eq!(down.dropped.len(), result.tools.len());
            assert_eq!(down.value.tools.len(), result.tools.len());
        },
    );
    assert_linear(
        "an elicitation multi-select: items, duplicates, count",
        2_000,
        |n| {
            let mut content = serde_json::Map::new();
            content.insert("name".into(), json!("Ada"));
            content.insert("day".into(), json!("2024-02-29"));
            let extras: Vec<Value> = (0..n)
                .map(|i| json!(["meal", "wifi", "tea"][i % 3]))
                .collect();
            content.insert("extras".into(), Value::Array(extras));
            content
        },
        |c| {
            let e = mcp_tests::fuzz::Booking::from_content(c).unwrap_err();
            assert!(e.concerns("extras"), "{e}");
        },
    );
}

/// Schema text nested far beyond serde_json's recursion limit is a JSON error; a chain of
/// 20 000 definitions each an alias of the next (no nesting in the text at all) is read
/// without exhausting the stack.
#[test]
fn deep_schemas_are_errors_not_stack_overflows() {
    let deep = format!(
        r#"{{"definitions":{{"A":{}{{"type":"string"}}{}}}}}"#,
        r#"{"type":"array","items":"#.repeat(100_000),
        "}".repeat(100_000)
    );
    match mcp_typed_codegen::Builder::new()
        .schema_json(deep)
        .generate()
    {
        Err(mcp_typed_codegen::Error::Json { source, .. }) => {
            assert!(source.to_string().contains("recursion limit"), "{source}")
        }
        other => panic!("{:?}", other.map(|g| g.type_count())),
    }
    let n = 20_000;
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("D{i}"),
            json!({"$ref": format!("#/definitions/D{}", i + 1)}),
        );
    }
    defs.insert(
        format!("D{n}"),
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
    );
    let doc = json!({"definitions": defs}).to_string();
    // Run on a thread with a small stack, as a caller's worker thread may have: recursion
    // proportional to the chain would overflow it.
    let outcome = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            mcp_typed_codegen::Builder::new()
                .schema_json(doc)
                .model()
                .map(|m| m.types.len())
                .map_err(|e| e.to_string())
        })
        .unwrap()
        .join()
        .expect("the generator does not panic");
    assert_eq!(outcome, Ok(n + 1), "one type per definition");
}
