//! The wall-clock method of every side-by-side table: `n` passes timed in interleaved rounds,
//! each repeated within a round until it spans a minimum time, the median kept. Depends on
//! `std` alone, so that `bench/value-default` (which must not link `mcp-bench`) compiles this
//! same file (`#[path]`) and its rows are timed exactly as `mcp-bench messages` times its own.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median time of one pass, and how many passes were timed.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Median time of one pass.
    pub median: Duration,
    /// Passes timed in all.
    pub passes: usize,
}

/// Times passes `0..n` (`pass(i)` runs pass `i` once): `rounds` rounds, each running every
/// pass in turn, repeated so that one timing spans at least `min_pass`.
pub fn interleaved<T>(
    n: usize,
    rounds: usize,
    min_pass: Duration,
    mut pass: impl FnMut(usize) -> T,
) -> Vec<Timing> {
    // Repetitions per round, from the time of one pass of each.
    let reps: Vec<u32> = (0..n)
        .map(|i| {
            let start = Instant::now();
            black_box(pass(i));
            let once = start.elapsed().max(Duration::from_micros(1));
            (min_pass.as_secs_f64() / once.as_secs_f64())
                .ceil()
                .max(1.0) as u32
        })
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); n];
    for _ in 0..rounds {
        for (i, t) in times.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..reps[i] {
                black_box(pass(i));
            }
            t.push(start.elapsed() / reps[i]);
        }
    }
    times
        .into_iter()
        .zip(reps)
        .map(|(mut t, reps)| {
            t.sort();
            Timing {
                median: t[t.len() / 2],
                passes: rounds * reps as usize,
            }
        })
        .collect()
}

/// The time of one run of `item(i)` for each of `n` items, each run `reps` times in a row
/// (after `reps / 4` runs untimed: its code and data warm), `rounds` rounds over all items,
/// the fastest round kept per item (the one least disturbed). For the profile of a corpus by
/// message: what each message costs once its code is hot, which the passes of [`interleaved`]
/// do not isolate.
pub fn per_item<T>(
    n: usize,
    reps: usize,
    rounds: usize,
    mut item: impl FnMut(usize) -> T,
) -> Vec<Duration> {
    let reps = reps.max(1);
    let mut best = vec![Duration::MAX; n];
    for _ in 0..rounds.max(1) {
        for (i, b) in best.iter_mut().enumerate() {
            for _ in 0..reps / 4 {
                black_box(item(i));
            }
            let start = Instant::now();
            for _ in 0..reps {
                black_box(item(i));
            }
            *b = (*b).min(start.elapsed() / reps as u32);
        }
    }
    best
}
