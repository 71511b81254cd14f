//! `check --url URL`: a loopback Streamable HTTP proxy in front of an MCP server. Each HTTP
//! request the client makes is forwarded to the server as it is (method, headers, body), and
//! the answer comes back as it arrives: a JSON body whole, an event stream event by event,
//! never held back. The messages in request bodies, JSON answers and stream events are checked
//! on the way, in one session (one client at a time).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

use mcp_typed::check::Direction;

use super::{Line, Queue};

/// Headers that belong to one hop, not to the request: never forwarded.
const HOP: [&str; 7] = [
    "host",
    "connection",
    "content-length",
    "transfer-encoding",
    "keep-alive",
    // The proxy reads what it forwards: no compressed bodies.
    "accept-encoding",
    "upgrade",
];

/// Serves on `listen` until the process ends, forwarding to `url`.
pub fn serve(url: &str, listen: &str, shared: Arc<Queue>) -> io::Result<()> {
    let listener = TcpListener::bind(listen)?;
    let address = listener.local_addr()?;
    if !address.ip().is_loopback() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("--listen {address}: the proxy serves on loopback addresses only"),
        ));
    }
    // Where clients connect: on stderr whatever --report says, so that a script can read it.
    let _ = writeln!(
        io::stderr(),
        "check: listening on http://{address}/mcp, forwarding to {url}"
    );
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .user_agent(concat!("mcp-typed-check/", env!("CARGO_PKG_VERSION")))
        .build();
    let agent = ureq::Agent::new_with_config(config);
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let (agent, url, shared) = (agent.clone(), url.to_owned(), shared.clone());
        std::thread::spawn(move || {
            let _ = exchange(stream, &agent, &url, &shared);
        });
    }
    Ok(())
}

fn check(queue: &Queue, dir: Direction, body: &[u8]) {
    let body = body.trim_ascii();
    // A JSON-RPC batch (2025-03-26) is checked message by message.
    match serde_json::from_slice::<Vec<Box<serde_json::value::RawValue>>>(body) {
        Ok(batch) if body.starts_with(b"[") => {
            for message in batch {
                queue.push(dir, Line::Read(message.get().as_bytes().to_vec()));
            }
        }
        _ => queue.push(dir, Line::Read(body.to_vec())),
    }
}

/// One HTTP request: read it, check it, forward it, stream the answer back (checking it).
/// One request per connection (`Connection: close`).
fn exchange(client: TcpStream, agent: &ureq::Agent, url: &str, shared: &Queue) -> io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut out = client;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(_path)) = (parts.next(), parts.next()) else {
        return Ok(());
    };
    let method = method.to_owned();
    let mut headers = Vec::new();
    let mut length = 0usize;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_owned());
            if name == "content-length" {
                length = value.parse().unwrap_or(0);
            }
            if !HOP.contains(&name.as_str()) {
                headers.push((name, value));
            }
        }
    }
    // The client says how long the body is: never more than --max-line is read or kept.
    let max_line = shared.max_line();
    if length as u64 > max_line {
        let text = format!(
            "check: a request body of {length} bytes is longer than --max-line ({max_line} bytes)"
        );
        write!(
            out,
            "HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
            text.len()
        )?;
        return out.flush();
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    if !body.is_empty() {
        check(shared, Direction::ClientToServer, &body);
    }

    let mut request = ureq::http::Request::builder()
        .method(method.as_str())
        .uri(url);
    for (name, value) in &headers {
        request = request.header(name, value);
    }
    let request = request.body(body).map_err(io::Error::other)?;
    let response = match agent.run(request) {
        Ok(response) => response,
        Err(e) => {
            let text = format!("check: the server at {url} cannot be reached: {e}");
            write!(
                out,
                "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            )?;
            return out.flush();
        }
    };
    let status = response.status();
    write!(
        out,
        "HTTP/1.1 {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    )?;
    let mut stream = false;
    for (name, value) in response.headers() {
        let name = name.as_str();
        if HOP.contains(&name) {
            continue;
        }
        let value = value.to_str().unwrap_or_default();
        stream |= name == "content-type" && value.starts_with("text/event-stream");
        write!(out, "{name}: {value}\r\n")?;
    }
    write!(
        out,
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    out.flush()?;
    let mut body = response.into_body().into_reader();
    let mut events = Events::default();
    let mut whole = Vec::new();
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let n = match body.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // Passed on first, as it came.
        write!(out, "{n:x}\r\n")?;
        out.write_all(&buffer[..n])?;
        write!(out, "\r\n")?;
        out.flush()?;
        if stream {
            for data in events.feed(&buffer[..n]) {
                check(shared, Direction::ServerToClient, &data);
            }
        } else {
            whole.extend_from_slice(&buffer[..n]);
        }
    }
    write!(out, "0\r\n\r\n")?;
    out.flush()?;
    if !stream && status.is_success() && !whole.trim_ascii().is_empty() {
        check(shared, Direction::ServerToClient, &whole);
    }
    Ok(())
}

/// Server-sent events read from a byte stream: the `data` of each complete event, as bytes
/// (the checker names bytes that are not UTF-8).
#[derive(Default)]
struct Events {
    line: Vec<u8>,
    data: Vec<u8>,
}

impl Events {
    fn feed(&mut self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut done = Vec::new();
        for piece in bytes.split_inclusive(|b| *b == b'\n') {
            self.line.extend_from_slice(piece);
            if !piece.ends_with(b"\n") {
                continue;
            }
            let mut line = std::mem::take(&mut self.line);
            while line.last().is_some_and(|b| matches!(b, b'\r' | b'\n')) {
                line.pop();
            }
            if line.is_empty() {
                if !self.data.is_empty() {
                    done.push(std::mem::take(&mut self.data));
                }
            } else if let Some(rest) = line.strip_prefix(b"data:") {
                if !self.data.is_empty() {
                    self.data.push(b'\n');
                }
                self.data
                    .extend_from_slice(rest.strip_prefix(b" ").unwrap_or(rest));
            }
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::Events;

    #[test]
    fn events_are_read_across_chunks() {
        let mut events = Events::default();
        assert!(events.feed(b"event: message\r\nda").is_empty());
        assert!(events.feed(b"ta: {\"a\":").is_empty());
        assert_eq!(
            events.feed(b"1}\r\n\r\nid: 2\n: comment\n\ndata: x\xff\n\n"),
            [&b"{\"a\":1}"[..], b"x\xff"]
        );
    }
}
