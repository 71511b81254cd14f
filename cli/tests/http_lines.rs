//! `mcp_typed_cli::http` against a scripted HTTP server on loopback: what each request
//! carries (session, revision, method headers), how each kind of answer becomes lines (an
//! event stream with a priming event and multi-line data, a JSON batch, 202, an error status),
//! the server's own stream, resuming a stream with `Last-Event-ID`, and the DELETE at the end.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_typed_cli::http::{self, HttpError};

/// One request the server got.
#[derive(Debug, Clone)]
struct Got {
    method: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Got {
    fn header(&self, name: &str) -> Option<&str> {
        let found = self
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        found.map(|(_, v)| v.as_str())
    }
}

type Script = Box<dyn Fn(&Got) -> String + Send + Sync>;

/// Serves every request with `script`'s raw HTTP answer (then closes the connection); the
/// endpoint and what came.
fn serve(script: Script) -> (String, Arc<Mutex<Vec<Got>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let (log, script) = (Arc::clone(&got), Arc::new(script));
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let (log, script) = (Arc::clone(&log), Arc::clone(&script));
            std::thread::spawn(move || answer(stream, &log, &script));
        }
    });
    (url, got)
}

fn answer(mut stream: TcpStream, log: &Mutex<Vec<Got>>, script: &Script) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let method = line.split(' ').next().unwrap().to_owned();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        match line.trim_end().split_once(": ") {
            Some((name, value)) => headers.push((name.to_owned(), value.to_owned())),
            None => break,
        }
    }
    let length = (headers.iter())
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let got = Got {
        method,
        headers,
        body: String::from_utf8(body).unwrap(),
    };
    log.lock().unwrap().push(got.clone());
    let _ = stream.write_all(script(&got).as_bytes());
}

fn reply(status: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut text = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    text
}

const SSE: (&str, &str) = ("Content-Type", "text/event-stream");
const JSON: (&str, &str) = ("Content-Type", "application/json");

fn lines(reader: &mut impl BufRead, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            line
        })
        .collect()
}

#[test]
fn a_session_over_http() {
    let (url, got) = serve(Box::new(|got: &Got| {
        let body = got.body.as_str();
        match got.method.as_str() {
            // The server's own stream: none.
            "GET" => reply("405 Method Not Allowed", &[], ""),
            "DELETE" => reply("200 OK", &[], ""),
            _ if body.contains(r#""initialize""#) => reply(
                "200 OK",
                &[SSE, ("Mcp-Session-Id", "s-1")],
                // A priming event (an id, no data), then the result over three data lines.
                "id: p\ndata: \n\nevent: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\ndata:  \"result\":{\"protocolVersion\":\"2025-06-18\",\ndata:  \"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n\n",
            ),
            _ if body.contains("notifications/") => reply("202 Accepted", &[], ""),
            _ if body.contains(r#""tools/list""#) => reply(
                "200 OK",
                &[JSON],
                "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1}},\n {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}]",
            ),
            _ => reply("404 Not Found", &[JSON], r#"{"error":"no such session"}"#),
        }
    }));
    let (mut from, mut to) = http::connect(
        &url,
        &[("X-Token".into(), "t".into())],
        Duration::from_secs(10),
    )
    .unwrap();
    writeln!(
        to,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{}}}}"#
    )
    .unwrap();
    assert_eq!(
        lines(&mut from, 1),
        [
            "{\"jsonrpc\":\"2.0\",\"id\":1,  \"result\":{\"protocolVersion\":\"2025-06-18\",  \"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n"
        ]
    );
    // Written in two pieces: one message.
    to.write_all(br#"{"jsonrpc":"2.0","method":"notif"#)
        .unwrap();
    to.write_all(b"ications/initialized\"}\n").unwrap();
    writeln!(to, r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#).unwrap();
    assert_eq!(
        lines(&mut from, 2),
        [
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}\n",
        ]
    );
    writeln!(to, r#"{{"jsonrpc":"2.0","id":3,"method":"ping"}}"#).unwrap();
    let mut line = String::new();
    let e = from.read_line(&mut line).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"POST {url}: HTTP 404 Not Found: {{"error":"no such session"}}"#)
    );
    assert!(matches!(
        e.get_ref().and_then(|e| e.downcast_ref::<HttpError>()),
        Some(HttpError::Status { .. })
    ));
    drop(to);
    // Every answer read: the end.
    assert_eq!(from.read_line(&mut line).unwrap(), 0);

    let got = got.lock().unwrap();
    let seen: Vec<String> = (got.iter())
        .map(|g| {
            let header = |name| g.header(name).unwrap_or("-").to_owned();
            format!(
                "{} session={} version={} token={} accept={}",
                g.method,
                header("mcp-session-id"),
                header("mcp-protocol-version"),
                header("x-token"),
                header("accept"),
            )
        })
        .collect();
    let both = "application/json, text/event-stream";
    assert_eq!(
        seen,
        [
            format!("POST session=- version=- token=t accept={both}"),
            // The server's stream is asked for before `notifications/initialized`.
            "GET session=s-1 version=2025-06-18 token=t accept=text/event-stream".to_owned(),
            format!("POST session=s-1 version=2025-06-18 token=t accept={both}"),
            format!("POST session=s-1 version=2025-06-18 token=t accept={both}"),
            format!("POST session=s-1 version=2025-06-18 token=t accept={both}"),
            "DELETE session=s-1 version=2025-06-18 token=t accept=*/*".to_owned(),
        ]
    );
    assert_eq!(
        got[2].body,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    );
}

/// A 2026-07-28 request names its revision in `_meta`: the header follows, with the method's;
/// an event stream that ends before its response is resumed from the last event id; the
/// server's own stream (when it has one) gives lines too; no session, no DELETE.
#[test]
fn a_2026_request_and_a_resumed_stream() {
    let (url, got) = serve(Box::new(|got: &Got| match got.method.as_str() {
        "GET" => reply(
            "200 OK",
            &[SSE],
            "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n",
        ),
        _ => reply(
            "200 OK",
            &[SSE],
            "retry: 10\n\nid: e1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n",
        ),
    }));
    let (mut from, mut to) = http::connect(&url, &[], Duration::from_secs(10)).unwrap();
    let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#;
    writeln!(
        to,
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{meta}}}}}"#
    )
    .unwrap();
    let read = lines(&mut from, 2);
    assert!(read[0].contains("notifications/progress"), "{read:?}");
    assert_eq!(
        read[1],
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n"
    );
    drop(to);
    let mut line = String::new();
    assert_eq!(from.read_line(&mut line).unwrap(), 0);
    let got = got.lock().unwrap();
    let post = &got[0];
    assert_eq!(post.header("mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(post.header("mcp-method"), Some("tools/list"));
    let get = &got[1];
    assert_eq!(
        (get.method.as_str(), get.header("last-event-id")),
        ("GET", Some("e1"))
    );
    assert_eq!(got.len(), 2, "{got:?}");
}

#[test]
fn what_is_not_a_url_or_not_an_answer() {
    let e = http::connect("localhost:3000/mcp", &[], Duration::from_secs(1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#""localhost:3000/mcp" is not an http:// or https:// URL"#
    );

    let (url, _) = serve(Box::new(|_: &Got| {
        reply(
            "200 OK",
            &[("Content-Type", "text/html")],
            "<h1>Sign in</h1>",
        )
    }));
    let (mut from, mut to) = http::connect(&url, &[], Duration::from_secs(10)).unwrap();
    writeln!(to, r#"{{"jsonrpc":"2.0","id":1,"method":"ping"}}"#).unwrap();
    let e = from.read_line(&mut String::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("POST {url}: the answer (text/html) is not JSON-RPC: <h1>Sign in</h1>")
    );
}
