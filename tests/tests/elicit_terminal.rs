//! The terminal client `tests/examples/elicit-client.rs`, used the way a person uses it: in a
//! `tmux` pane, keys sent with `send-keys`, the screen read with `capture-pane`; what the
//! server received is read from the client's `--log` (every JSON-RPC line it wrote) and from
//! the server's own reply on the screen.
//!
//! - server-everything's `trigger-elicitation-request` (every field kind): the required field
//!   left empty, a bad email, a bad date, an out-of-range and a fractional integer and a
//!   multi-select over its limit are each refused with the validator's message and asked
//!   again; defaults are pre-filled; an answer is changed at the review; the reply holds
//!   exactly what was chosen, in the form's order. Then decline and cancel (Esc).
//! - server-everything's `trigger-url-elicitation`: the URL shown whole, its host highlighted
//!   and written out, warnings for a suspicious URL; a loopback listener sees no connection
//!   before consent and exactly one after; the -32042 error path read and declined.
//! - the project's booking server: a tool's arguments asked as a form, then its form.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A tmux server of its own (`-L`), one session, killed on drop.
struct Pane {
    socket: String,
}

impl Pane {
    /// Runs `command` in a 120×50 pane; the pane stays after the command exits.
    fn start(name: &str, command: &[&str]) -> Pane {
        let socket = format!("mcp-typed-{name}-{}", std::process::id());
        let pane = Pane { socket };
        let line = command
            .iter()
            .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join(" ");
        let status = pane
            .tmux()
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "120",
                "-y",
                "50",
            ])
            .arg(format!("{line}; echo '[exited]'; sleep 600"))
            .status()
            .expect("run tmux (install tmux)");
        assert!(status.success(), "tmux new-session failed");
        pane
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.args(["-L", &self.socket]);
        cmd
    }

    /// Keys by tmux name (`Enter`, `Down`, `Space`, `BSpace`, `Escape`).
    fn keys(&self, keys: &[&str]) {
        let status = self.tmux().arg("send-keys").args(keys).status().unwrap();
        assert!(status.success());
        // A prompt redraws between keys; typing faster than that is not what a person does.
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Text typed literally.
    fn type_text(&self, text: &str) {
        let status = self
            .tmux()
            .args(["send-keys", "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
        std::thread::sleep(Duration::from_millis(150));
    }

    fn erase(&self, count: usize) {
        self.keys(&vec!["BSpace"; count]);
    }

    /// The whole screen and its scrollback, as text (`escapes`: with its colours).
    fn capture(&self, escapes: bool) -> String {
        let mut cmd = self.tmux();
        cmd.args(["capture-pane", "-p", "-J", "-S", "-"]);
        if escapes {
            cmd.arg("-e");
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    }

    fn screen(&self) -> String {
        self.capture(false)
    }

    /// Waits until the screen (or its scrollback) shows `text`, and returns it; fails after
    /// 30 s or when the client has exited.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            if start.elapsed() > Duration::from_secs(30) || screen.contains("[exited]") {
                panic!("the screen does not show {text:?}:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The text shown since the screen last showed `after` (its last occurrence).
    fn since(&self, after: &str) -> String {
        let screen = self.screen();
        let at = screen
            .rfind(after)
            .unwrap_or_else(|| panic!("no {after:?} on screen:\n{screen}"));
        screen[at..].to_owned()
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

fn client() -> PathBuf {
    mcp_tests::example_binary("mcp-tests", "elicit-client", &[])
}

fn server_everything() -> PathBuf {
    mcp_tests::peers::peers()
        .package_file("@modelcontextprotocol/server-everything", "dist/index.js")
}

fn log_file(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The `ElicitResult`s the client sent, in order.
fn replies(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| serde_json::from_str::<Value>(l).expect("the client writes JSON"))
        .filter(|m| m.pointer("/result/action").is_some())
        .map(|m| m["result"].clone())
        .collect()
}

/// Starts the client on server-everything, picks `tool` from the menu.
fn everything(name: &str, log: &Path, extra: &[&str]) -> Pane {
    let (client, server) = (client(), server_everything());
    let mut command = vec![client.to_str().unwrap(), "--log", log.to_str().unwrap()];
    command.extend_from_slice(extra);
    command.extend(["--", "node", server.to_str().unwrap(), "stdio"]);
    let pane = Pane::start(name, &command);
    pane.wait_for("Connected to Everything Reference Server");
    pane.wait_for("Call a tool");
    pane
}

fn pick_tool(pane: &Pane, tool: &str) {
    pane.wait_for("? Call a tool");
    pane.type_text(tool);
    pane.wait_for(&format!("> {tool} —"));
    pane.keys(&["Enter"]);
}

#[test]
fn answers_server_everything_form_with_every_field_kind() {
    let log = log_file("elicit-terminal-form");
    let pane = everything("form", &log, &[]);
    pick_tool(&pane, "trigger-elicitation-request");

    // Which server asks, and what; fill in, decline or cancel.
    let screen = pane.wait_for("? Answer?");
    assert!(
        screen.contains(
            "Everything Reference Server asks: Please provide inputs for the following fields:"
        ),
        "{screen}"
    );
    assert!(
        screen.contains("Decline") && screen.contains("Cancel"),
        "{screen}"
    );
    pane.keys(&["Enter"]);

    // A required text field: empty is refused.
    let screen = pane.wait_for("? String:");
    assert!(
        screen.contains("[Your full, legal name · Esc cancels]"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    pane.wait_for("# required: type a value");
    pane.type_text("Ada Lovelace");
    pane.keys(&["Enter"]);

    // An optional boolean without default: Yes / No / no answer, cursor on no answer.
    let screen = pane.wait_for("? Boolean (optional):");
    assert!(screen.contains("> (no answer)"), "{screen}");
    pane.keys(&["Up", "Up", "Enter"]);

    // A text default is pre-filled and kept.
    pane.wait_for("? String with default (optional): It was a dark and stormy night.");
    pane.keys(&["Enter"]);

    // format: email.
    let screen = pane.wait_for("? String with email format (optional):");
    assert!(screen.contains("format: email"), "{screen}");
    pane.type_text("ada@");
    pane.keys(&["Enter"]);
    pane.wait_for("# not a valid email");
    pane.erase(4);
    pane.type_text("ada@example.com");
    pane.keys(&["Enter"]);

    // An optional uri left empty.
    pane.wait_for("? String with uri format (optional):");
    pane.keys(&["Enter"]);

    // format: date.
    pane.wait_for("? String with date format (optional):");
    pane.type_text("10/12/1815");
    pane.keys(&["Enter"]);
    pane.wait_for("# not a valid date");
    pane.erase(10);
    pane.type_text("1815-12-10");
    pane.keys(&["Enter"]);

    // An integer 1..=100, default 42 pre-filled: out of range, then a fraction, refused.
    let screen = pane.wait_for("? Integer (optional): 42");
    assert!(screen.contains("an integer from 1 to 100"), "{screen}");
    pane.erase(2);
    pane.type_text("150");
    pane.keys(&["Enter"]);
    pane.wait_for("# 150 is out of range (1..=100)");
    pane.erase(3);
    pane.type_text("7.5");
    pane.keys(&["Enter"]);
    pane.wait_for(r#"# field `integer`: "7.5" is not an integer"#);
    pane.erase(3);
    pane.type_text("7");
    pane.keys(&["Enter"]);

    // A number, default kept.
    pane.wait_for("? Number in range 1-1000 (optional): 3.14");
    pane.keys(&["Enter"]);

    // Untitled single select, cursor on the default (Monica): pick Rachel.
    let screen = pane.wait_for("? Untitled Single Select Enum (optional):");
    assert!(screen.contains("> Monica"), "{screen}");
    pane.keys(&["Down", "Enter"]);

    // Multi-select 1..=3, default Guitar ticked: four are refused, three accepted.
    let screen = pane.wait_for("? Untitled Multiple Select Enum (optional):");
    assert!(screen.contains("> [x] Guitar"), "{screen}");
    pane.keys(&["Down", "Space", "Down", "Space", "Down", "Space", "Enter"]);
    pane.wait_for("# 4 selected, at most 3 allowed");
    pane.keys(&["Space", "Enter"]);

    // Titled single select: options shown by title.
    let screen = pane.wait_for("? Titled Single Select Enum (optional):");
    assert!(
        screen.contains("> Superman") && screen.contains("Wonder Woman"),
        "{screen}"
    );
    pane.keys(&["Down", "Down", "Enter"]);

    // Titled multi-select.
    let screen = pane.wait_for("? Titled Multiple Select Enum (optional):");
    assert!(screen.contains("> [x] Tuna"), "{screen}");
    pane.keys(&["Down", "Space", "Enter"]);

    // 2025-06-18's enumNames.
    let screen = pane.wait_for("? Legacy Titled Single Select Enum (optional):");
    assert!(
        screen.contains("> Cats") && screen.contains("Dogs"),
        "{screen}"
    );
    pane.keys(&["Down", "Enter"]);

    // The review shows the whole answer by label; change one answer there.
    pane.wait_for("? Send this answer?");
    let review = pane.since("Your answer:");
    for line in [
        "String: Ada Lovelace",
        "Boolean: Yes",
        "String with uri format: —",
        "Integer: 7",
        "Untitled Multiple Select Enum: Guitar, Piano, Violin",
        "Titled Single Select Enum: Wonder Woman",
        "Titled Multiple Select Enum: Tuna, Salmon",
        "Legacy Titled Single Select Enum: Dogs",
    ] {
        assert!(
            review.contains(line),
            "no {line:?} in the review:\n{review}"
        );
    }
    pane.keys(&["Down", "Enter"]);
    pane.wait_for("? Which one?");
    pane.type_text("Number in range");
    pane.keys(&["Enter"]);
    pane.wait_for("? Number in range 1-1000 (optional): 3.14");
    pane.erase(4);
    pane.type_text("2.5");
    pane.keys(&["Enter"]);
    pane.wait_for("Number in range 1-1000: 2.5");
    pane.wait_for("? Send this answer?");
    pane.keys(&["Enter"]);

    // The server got it: its own reply on screen, and the line the client wrote.
    let screen = pane.wait_for("User provided the requested information!");
    assert!(screen.contains("- Name: Ada Lovelace"), "{screen}");
    assert!(screen.contains("- Favorite Number: 2.5"), "{screen}");
    let sent = replies(&log);
    let want = json!({"action": "accept", "content": {
        "name": "Ada Lovelace",
        "check": true,
        "firstLine": "It was a dark and stormy night.",
        "email": "ada@example.com",
        "birthdate": "1815-12-10",
        "integer": 7,
        "number": 2.5,
        "untitledSingleSelectEnum": "Rachel",
        "untitledMultipleSelectEnum": ["Guitar", "Piano", "Violin"],
        "titledSingleSelectEnum": "hero-3",
        "titledMultipleSelectEnum": ["fish-1", "fish-2"],
        "legacyTitledEnum": "pet-2",
    }});
    assert_eq!(sent, [want.clone()]);
    // In the form's order, whatever order it was filled in.
    let keys: Vec<&String> = sent[0]["content"].as_object().unwrap().keys().collect();
    let want_keys: Vec<&String> = want["content"].as_object().unwrap().keys().collect();
    assert_eq!(keys, want_keys);
    std::fs::write(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("elicit-client-screen.txt"),
        pane.screen(),
    )
    .unwrap();

    // Decline, explicitly.
    pick_tool(&pane, "trigger-elicitation-request");
    pane.wait_for("? Answer?");
    pane.keys(&["Down", "Enter"]);
    pane.wait_for("User declined to provide the requested information.");

    // Esc on a field cancels the whole form.
    pick_tool(&pane, "trigger-elicitation-request");
    pane.wait_for("? Answer?");
    pane.keys(&["Enter"]);
    pane.wait_for("? String:");
    pane.keys(&["Escape"]);
    pane.wait_for("? Call a tool");
    let sent = replies(&log);
    assert_eq!(
        sent[1..],
        [json!({"action": "decline"}), json!({"action": "cancel"})]
    );
}

/// A loopback HTTP listener that counts connections and records request lines.
struct Listener {
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<String>>>,
}

fn listener() -> Listener {
    let socket = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = socket.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let (count, seen) = (connections.clone(), requests.clone());
    std::thread::spawn(move || {
        for stream in socket.incoming() {
            let Ok(mut stream) = stream else { continue };
            count.fetch_add(1, Ordering::SeqCst);
            let mut buffer = [0u8; 4096];
            let n = stream.read(&mut buffer).unwrap_or(0);
            let head = String::from_utf8_lossy(&buffer[..n]);
            seen.lock()
                .unwrap()
                .push(head.lines().next().unwrap_or_default().to_owned());
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        }
    });
    Listener {
        port,
        connections,
        requests,
    }
}

/// Calls `trigger-url-elicitation` with `url` (request path unless `error_path`).
fn trigger_url(pane: &Pane, url: &str, error_path: bool) {
    pick_tool(pane, "trigger-url-elicitation");
    // The tool's arguments, asked as a form.
    pane.wait_for("? url:");
    pane.type_text(url);
    pane.keys(&["Enter"]);
    pane.wait_for("? message (optional): Please open the link");
    pane.keys(&["Enter"]);
    pane.wait_for("? elicitationId (optional):");
    pane.keys(&["Enter"]);
    pane.wait_for("? errorPath (optional):");
    // Default false: cursor on No.
    if error_path {
        pane.keys(&["Up", "Enter"]);
    } else {
        pane.keys(&["Enter"]);
    }
    pane.wait_for("? Call the tool?");
    pane.keys(&["Enter"]);
}

/// The `--browser` the URL test gives the client: a script that fetches the URL once.
fn browser() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fetch-once.sh");
    let script = "#!/bin/sh\nexec python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()' \"$1\"\n";
    std::fs::write(&path, script).unwrap();
    let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    assert!(status.success());
    path
}

#[test]
fn url_elicitation_needs_consent_and_shows_the_host() {
    let site = listener();
    let log = log_file("elicit-terminal-url");
    let browser = browser();
    let pane = everything("url", &log, &["--browser", browser.to_str().unwrap()]);

    let url = format!("http://127.0.0.1:{}/consent?session=1", site.port);
    trigger_url(&pane, &url, false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    assert!(
        shown.contains("asks you to open a URL: Please open the link to complete this action."),
        "{shown}"
    );
    assert!(shown.contains(&format!("URL:  {url}")), "{shown}");
    assert!(shown.contains("Host: 127.0.0.1"), "{shown}");
    assert!(shown.contains("Nothing has been opened."), "{shown}");
    // Plain http on loopback is not warned about.
    assert!(!shown.contains("Warning:"), "{shown}");
    // The host is highlighted (bold, underlined) inside the URL.
    let colored = pane.capture(true);
    let line = colored
        .lines()
        .rfind(|l| l.contains("URL:"))
        .expect("the URL line");
    let before = &line[..line.find("127.0.0.1").expect("the host")];
    let styles: Vec<&str> = before
        .rsplit("http://")
        .next()
        .unwrap()
        .split("\x1b[")
        .collect();
    assert!(
        styles
            .iter()
            .any(|s| s.starts_with("1;4m") || s.starts_with("4m")),
        "the host is not underlined: {line:?}"
    );
    // Nothing is fetched while the user reads.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(site.connections.load(Ordering::SeqCst), 0);

    pane.keys(&["Enter"]);
    pane.wait_for("User completed the URL elicitation flow.");
    assert_eq!(site.connections.load(Ordering::SeqCst), 1);
    assert_eq!(
        *site.requests.lock().unwrap(),
        ["GET /consent?session=1 HTTP/1.1"]
    );

    // A suspicious URL: every applicable warning, then declined; nothing opened.
    trigger_url(&pane, "http://user:secret@xn--80ak6aa92e.com/login", false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    for text in [
        "Host: аррӏе.com (written xn--80ak6aa92e.com)",
        "Warning: not encrypted (http, not https)",
        "Warning: the domain is encoded (Punycode); it reads as аррӏе.com",
        "Warning: the URL contains a user name or password",
    ] {
        assert!(shown.contains(text), "no {text:?}:\n{shown}");
    }
    pane.keys(&["Down", "Enter"]);
    pane.wait_for("User declined to open the URL");

    // An IP address that is not loopback.
    trigger_url(&pane, "https://10.1.2.3/pay", false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    assert!(
        shown.contains("Warning: the host is an IP address, not a domain name"),
        "{shown}"
    );
    pane.keys(&["Down", "Down", "Enter"]);
    pane.wait_for("User cancelled the URL elicitation");

    // The error path: -32042 names the URL; declined, so no retry is offered.
    trigger_url(&pane, &url, true);
    let screen = pane.wait_for("? Open it in your browser?");
    assert!(
        screen.contains("This request requires browser-based authorization."),
        "{screen}"
    );
    let shown = pane.since("asks you to open a URL");
    assert!(shown.contains("Host: modelcontextprotocol.io"), "{shown}");
    pane.keys(&["Down", "Enter"]);
    pane.wait_for("? Call a tool");
    assert!(!pane.since("asks you to open a URL").contains("Retry"));
    assert_eq!(site.connections.load(Ordering::SeqCst), 1);
    assert_eq!(
        replies(&log),
        [
            json!({"action": "accept"}),
            json!({"action": "decline"}),
            json!({"action": "cancel"}),
        ]
    );
}

#[test]
fn books_a_table_on_the_booking_server() {
    let log = log_file("elicit-terminal-booking");
    let (client, server) = (
        client(),
        mcp_tests::example_binary("mcp-tests", "booking-server", &[]),
    );
    let pane = Pane::start(
        "booking",
        &[
            client.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
            "--",
            server.to_str().unwrap(),
        ],
    );
    pane.wait_for("Connected to");
    pick_tool(&pane, "book_table");
    pane.wait_for("? date:");
    pane.type_text("2026-12-24");
    pane.keys(&["Enter"]);
    pane.wait_for("? Call the tool?");
    pane.keys(&["Enter"]);

    pane.wait_for("asks: 2026-12-24 is full.");
    pane.wait_for("? Answer?");
    pane.keys(&["Enter"]);
    // The derived form's doc comments are its descriptions, under each prompt.
    let screen = pane.wait_for("? checkAlternative:");
    assert!(
        screen.contains("[Book another date instead? · Esc cancels]"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("? alternativeDate:");
    assert!(
        screen.contains("[The date to book instead · format: date · Esc cancels]"),
        "{screen}"
    );
    pane.type_text("Dec 27");
    pane.keys(&["Enter"]);
    pane.wait_for("# not a valid date");
    pane.erase(6);
    pane.type_text("2026-12-27");
    pane.keys(&["Enter"]);
    pane.wait_for("? Send this answer?");
    pane.keys(&["Enter"]);
    pane.wait_for("Booked a table for 2026-12-27.");
    assert_eq!(
        replies(&log),
        [
            json!({"action": "accept", "content": {"checkAlternative": true, "alternativeDate": "2026-12-27"}})
        ]
    );
}
