//! Smoke test of the traffic checker benchmark: every real-traffic session loads with its
//! directions, each work replays it, and the table has a row per work with ordered
//! percentiles.

use mcp_bench::check::{Work, replay, sessions};

#[test]
fn every_session_replays_and_the_table_is_complete() {
    let sessions = sessions().expect("the captured traffic is readable");
    assert!(sessions.len() >= 20, "{} sessions", sessions.len());
    let messages: usize = sessions.iter().map(|s| s.messages.len()).sum();
    assert!(messages > 1900, "{messages} messages");
    assert!(
        sessions
            .iter()
            .all(|s| s.messages.iter().all(|(dir, _)| dir.is_some())),
        "every captured line says which side sent it"
    );
    for work in Work::ALL {
        assert_eq!(Work::by_name(work.name()).unwrap(), work);
        replay(&sessions, work);
    }
    let table = mcp_bench::report::check(1).expect("the table");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 2 * Work::ALL.len(), "{table}");
    for row in rows {
        assert_eq!(row[3], messages.to_string(), "{table}");
        let us: Vec<f64> = row[6..10].iter().map(|v| v.parse().unwrap()).collect();
        assert!(us.windows(2).all(|w| w[0] <= w[1]), "{table}");
    }
}
