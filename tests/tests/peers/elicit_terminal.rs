//! The terminal client `tests/examples/elicit-client.rs`, used the way a person uses it: in a
//! `tmux` pane, keys sent with `send-keys`, the screen read with `capture-pane`; what the
//! server received is read from the client's `--log` (every JSON-RPC line it wrote) and from
//! the server's own reply on the screen.
//!
//! - server-everything's `trigger-elicitation-request` (every field kind): the form's fields
//!   listed (title, required, what to type) before the choice to fill it in; "field k of n";
//!   the required field left empty, a bad email, a bad date, an out-of-range and a fractional
//!   integer and a multi-select over its limit are each refused in words (the field's title,
//!   what is wrong, an example) and asked again with the value kept; Ctrl-U clears a
//!   pre-filled value in one key; Esc asks before discarding; defaults are pre-filled; an
//!   answer is changed at the review; the reply holds exactly what was chosen, in the form's
//!   order; each outcome ends with one ✔/✘ line. Then decline, and Esc → discard (cancel).
//! - server-everything's `trigger-url-elicitation`: the URL shown whole, its host highlighted,
//!   warnings marked `! WARNING:` in colour; Decline is the default (Enter declines); a
//!   loopback listener sees no connection before consent and exactly one after; the -32042
//!   error path read and declined. A server of the test's own (a few lines of Node) asks to
//!   open `https://evil.example\@example.com/login`: the host highlighted is `evil.example`,
//!   the one a browser opens; a browser that fails to open sends no reply.
//! - without colours (`NO_COLOR`) and without `--log`: the warnings keep their marker, the
//!   screen has no colour at all, and a tool's raw JSON is left out.
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

/// Starts the client on server-everything: `env` (`NAME=value`) before the client, `extra`
/// client options; `--log` when `log` is given.
fn everything(name: &str, log: Option<&Path>, env: &[&str], extra: &[&str]) -> Pane {
    let (client, server) = (client(), server_everything());
    let mut command = vec!["env"];
    command.extend_from_slice(env);
    command.push(client.to_str().unwrap());
    if let Some(log) = log {
        command.extend(["--log", log.to_str().unwrap()]);
    }
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

/// The last line of the screen that starts with `prefix`.
fn last_line(pane: &Pane, prefix: &str) -> String {
    let screen = pane.screen();
    screen
        .lines()
        .rfind(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with {prefix:?}:\n{screen}"))
        .to_owned()
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs tmux, node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn answers_server_everything_form_with_every_field_kind() {
    let log = log_file("elicit-terminal-form");
    let pane = everything("form", Some(&log), &[], &[]);
    pick_tool(&pane, "trigger-elicitation-request");

    // Which server asks and what; the fields, before the choice to fill in, decline or cancel.
    let screen = pane.wait_for("? Answer?");
    let asks = "Everything Reference Server asks: Please provide inputs for the following fields:";
    for line in [
        asks,
        "  The form has 13 fields, 1 required:",
        "   1. String (required) — text",
        "   2. Boolean — yes or no",
        "   4. String with email format — an email address, e.g. ada@example.com",
        "   6. String with date format — a date as year-month-day, e.g. 2026-03-14",
        "   7. Integer — a whole number between 1 and 100, e.g. 42",
        "  10. Untitled Multiple Select Enum — between 1 and 3 of: Guitar, Piano, Violin, Drums, Bass",
        "  13. Legacy Titled Single Select Enum — one of: Cats, Dogs, Birds, Fish, Reptiles",
    ] {
        assert!(
            screen.contains(&format!("{line}\n")),
            "no {line:?}:\n{screen}"
        );
    }
    assert!(
        screen.find(asks).unwrap() < screen.rfind("? Answer?").unwrap()
            && screen.rfind("13. Legacy").unwrap() < screen.rfind("? Answer?").unwrap(),
        "{screen}"
    );
    let menu = pane.since("? Answer?");
    assert!(menu.contains("> Fill in the form"), "{menu}");
    assert!(
        menu.contains("Decline") && menu.contains("Cancel"),
        "{menu}"
    );
    pane.keys(&["Enter"]);

    // A required text field, with where it is in the form: empty is refused, by its title.
    let screen = pane.wait_for("? String:");
    assert!(
        screen.contains("[field 1 of 13 · Your full, legal name · Ctrl-U clears · Esc to cancel]"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    pane.wait_for("# String: required; type a value.");
    pane.type_text("Ada Lovelace");
    pane.keys(&["Enter"]);

    // An optional boolean without default: Yes / No / no answer, cursor on no answer.
    let screen = pane.wait_for("? Boolean (optional):");
    assert!(screen.contains("> (no answer)"), "{screen}");
    assert!(screen.contains("[field 2 of 13 ·"), "{screen}");
    pane.keys(&["Up", "Up", "Enter"]);

    // A text default is pre-filled and kept.
    pane.wait_for("? String with default (optional): It was a dark and stormy night.");
    pane.keys(&["Enter"]);

    // format: email, with an example; refused in words, the value kept to edit.
    let screen = pane.wait_for("? String with email format (optional):");
    assert!(
        screen.contains("an email address, e.g. ada@example.com · Ctrl-U clears"),
        "{screen}"
    );
    pane.type_text("ada@");
    pane.keys(&["Enter"]);
    pane.wait_for(
        "# String with email format: not a valid email address; type an email address, \
         e.g. ada@example.com.",
    );
    assert_eq!(
        last_line(&pane, "? String with email"),
        "? String with email format (optional): ada@"
    );
    pane.keys(&["C-u"]);
    pane.type_text("ada@example.com");
    pane.keys(&["Enter"]);

    // An optional uri left empty.
    pane.wait_for("? String with uri format (optional):");
    pane.keys(&["Enter"]);

    // format: date.
    pane.wait_for("? String with date format (optional):");
    pane.type_text("10/12/1815");
    pane.keys(&["Enter"]);
    pane.wait_for(
        "# String with date format: not a valid date; type a date as year-month-day, \
         e.g. 2026-03-14.",
    );
    pane.keys(&["C-u"]);
    pane.type_text("1815-12-10");
    pane.keys(&["Enter"]);

    // An integer 1..=100, default 42 pre-filled: one key (Ctrl-U) clears it; out of range,
    // then a fraction, refused in words.
    let screen = pane.wait_for("? Integer (optional): 42");
    assert!(
        screen.contains("[field 7 of 13 · Your favorite integer"),
        "{screen}"
    );
    assert!(
        screen.contains("a whole number between 1 and 100, e.g. 42 · Ctrl-U clears"),
        "{screen}"
    );
    pane.keys(&["C-u"]);
    assert_eq!(
        last_line(&pane, "? Integer").trim_end(),
        "? Integer (optional):"
    );
    pane.type_text("150");
    pane.keys(&["Enter"]);
    pane.wait_for("# Integer: 150 is too large; type a whole number between 1 and 100.");
    assert!(!pane.screen().contains("1..=100"));
    pane.keys(&["C-u"]);
    pane.type_text("7.5");
    pane.keys(&["Enter"]);
    pane.wait_for(
        "# Integer: “7.5” is not a whole number; type a whole number between 1 and 100, \
         e.g. 42.",
    );
    assert!(!pane.screen().contains("`integer`"));

    // Esc asks before discarding the form; going back asks the field again.
    pane.keys(&["Escape"]);
    let screen = pane.wait_for("? Discard this form? The server will be told you cancelled.");
    assert!(screen.contains("> No, back to the form"), "{screen}");
    pane.keys(&["Enter"]);
    pane.wait_for("? Integer (optional): 42");
    pane.keys(&["C-u"]);
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
    assert!(screen.contains("[field 10 of 13 ·"), "{screen}");
    pane.keys(&["Down", "Space", "Down", "Space", "Down", "Space", "Enter"]);
    pane.wait_for("# Untitled Multiple Select Enum: 4 chosen; choose at most 3.");
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
    assert!(screen.contains("[field 13 of 13 ·"), "{screen}");
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

    // One line says what happened; the server got it: its own reply on screen (with its raw
    // JSON, since --log is on), and the line the client wrote.
    let screen = pane.wait_for("✔ trigger-elicitation-request finished.");
    let sent = pane.since("> Send this answer? Send");
    assert!(
        sent.starts_with(
            "> Send this answer? Send\n✔ Sent your answer to Everything Reference Server.\n"
        ),
        "{sent}"
    );
    assert_eq!(
        sent.matches('✔').count() + sent.matches('✘').count(),
        2,
        "{sent}"
    );
    assert!(
        screen.contains("User provided the requested information!"),
        "{screen}"
    );
    assert!(screen.contains("- Name: Ada Lovelace"), "{screen}");
    assert!(screen.contains("- Favorite Number: 2.5"), "{screen}");
    assert!(screen.contains("Raw result: {"), "{screen}");
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
    pane.wait_for("✘ Declined: Everything Reference Server was told you will not answer.");

    // Esc on a field, then "discard": the form is cancelled.
    pick_tool(&pane, "trigger-elicitation-request");
    pane.wait_for("? Answer?");
    pane.keys(&["Enter"]);
    pane.wait_for("? String:");
    pane.keys(&["Escape"]);
    pane.wait_for("? Discard this form?");
    pane.keys(&["Down", "Enter"]);
    pane.wait_for("✘ Cancelled: Everything Reference Server was told you dismissed the form.");
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

/// The URL prompt as shown: Decline first and under the cursor, Enter declines.
fn assert_decline_is_the_default(shown: &str) {
    let lines: Vec<&str> = shown.lines().map(str::trim_end).collect();
    let at = lines
        .iter()
        .rposition(|l| *l == "? Open it in your browser?")
        .unwrap_or_else(|| panic!("no question:\n{shown}"));
    assert_eq!(
        lines[at + 1..at + 4],
        ["> Decline", "  Open", "  Cancel"],
        "{shown}"
    );
    assert!(lines[at + 4].starts_with("[Enter declines"), "{shown}");
}

/// The escapes (colours) of the screen line that contains `text`, before `text`.
fn styles_before(pane: &Pane, line_has: &str, text: &str) -> String {
    let colored = pane.capture(true);
    let line = colored
        .lines()
        .rfind(|l| l.contains(line_has))
        .unwrap_or_else(|| panic!("no line with {line_has:?}:\n{colored}"));
    let at = line.find(text).expect("the text on its line");
    line[..at].to_owned()
}

/// The styles (SGR parameters, `1;4`, `33`) in force at `text` on the last screen line that
/// contains `line_has`: those set since the last reset before it.
fn styled_at(pane: &Pane, line_has: &str, text: &str) -> Vec<String> {
    let before = styles_before(pane, line_has, text);
    let since_reset = before.rsplit("\x1b[0m").next().unwrap_or(&before);
    since_reset
        .split("\x1b[")
        .skip(1)
        .map(|s| s.split('m').next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs tmux, node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn url_elicitation_needs_consent_and_shows_the_host() {
    let site = listener();
    let log = log_file("elicit-terminal-url");
    let browser = browser();
    let pane = everything(
        "url",
        Some(&log),
        &[],
        &["--browser", browser.to_str().unwrap()],
    );

    let url = format!("http://127.0.0.1:{}/consent?session=1", site.port);
    trigger_url(&pane, &url, false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    assert!(
        shown.contains("asks you to open a URL: Please open the link to complete this action."),
        "{shown}"
    );
    assert!(shown.contains(&format!("URL:  {url}\n")), "{shown}");
    assert!(!shown.contains("As written"), "{shown}");
    assert!(shown.contains("Host: 127.0.0.1\n"), "{shown}");
    assert!(shown.contains("Nothing has been opened."), "{shown}");
    // Plain http on loopback is not warned about.
    assert!(!shown.contains("WARNING"), "{shown}");
    assert_decline_is_the_default(&shown);
    // The host is highlighted (bold, underlined) inside the URL.
    let styles = styled_at(&pane, "URL:", "127.0.0.1");
    assert!(
        styles.iter().any(|s| s.split(';').any(|p| p == "4")),
        "the host is not underlined: {styles:?}"
    );
    // Nothing is fetched while the user reads.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(site.connections.load(Ordering::SeqCst), 0);

    pane.keys(&["Down", "Enter"]);
    pane.wait_for("User completed the URL elicitation flow.");
    pane.wait_for(&format!(
        "✔ Opened {url} in your browser; Everything Reference Server was told you agreed."
    ));
    assert_eq!(site.connections.load(Ordering::SeqCst), 1);
    assert_eq!(
        *site.requests.lock().unwrap(),
        ["GET /consent?session=1 HTTP/1.1"]
    );

    // A suspicious URL: a warning for each thing wrong, marked and in colour; Enter declines.
    trigger_url(&pane, "http://user:secret@xn--80ak6aa92e.com/login", false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    assert!(
        shown.contains("Host: xn--80ak6aa92e.com (reads as аррӏе.com)\n"),
        "{shown}"
    );
    let warnings = shown
        .lines()
        .filter(|l| l.starts_with("  ! WARNING: "))
        .count();
    // Not https, an international domain, credentials.
    assert!(warnings >= 3, "{warnings} warnings:\n{shown}");
    let styles = styled_at(&pane, "! WARNING:", "! WARNING:");
    assert!(
        styles.iter().any(|s| s.split(';').any(|p| p == "31")),
        "the warning is not red: {styles:?}"
    );
    assert_decline_is_the_default(&shown);
    pane.keys(&["Enter"]);
    pane.wait_for("User declined to open the URL");
    pane.wait_for(
        "✘ Declined: nothing was opened; Everything Reference Server was told you declined.",
    );

    // An IP address that is not loopback; Esc cancels.
    trigger_url(&pane, "https://10.1.2.3/pay", false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    assert!(shown.contains("  ! WARNING: "), "{shown}");
    assert_decline_is_the_default(&shown);
    pane.keys(&["Escape"]);
    pane.wait_for("User cancelled the URL elicitation");
    pane.wait_for(
        "✘ Cancelled: nothing was opened; Everything Reference Server was told you dismissed it.",
    );

    // The error path: -32042 names the URL; declined, so no retry is offered, and one line
    // says the tool did not run.
    trigger_url(&pane, &url, true);
    let screen = pane.wait_for("? Open it in your browser?");
    assert!(
        screen.contains("This request requires browser-based authorization."),
        "{screen}"
    );
    let shown = pane.since("asks you to open a URL");
    assert!(shown.contains("Host: modelcontextprotocol.io"), "{shown}");
    assert_decline_is_the_default(&shown);
    pane.keys(&["Enter"]);
    pane.wait_for("? Call a tool");
    let after = pane.since("> Open it in your browser? Decline");
    assert!(!after.contains("Retry"), "{after}");
    assert!(
        after.starts_with(
            "> Open it in your browser? Decline\n✘ trigger-url-elicitation did not run: it \
             needs its URL opened, and you declined; nothing was opened.\n? Call a tool"
        ),
        "{after}"
    );
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

/// A server of the test's own: its one tool, `sign-in`, sends a URL-mode request for the URL
/// given as its argument, then reports the action the client answered.
fn deceptive_server() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deceptive-server.js");
    let script = r#"const url = process.argv[2];
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
let call = null;
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25",
      capabilities: { tools: {} }, serverInfo: { name: "Deceptive", version: "1.0.0" } } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [
      { name: "sign-in", description: "Asks you to sign in", inputSchema: { type: "object" } }] } });
  } else if (m.method === "tools/call") {
    call = m.id;
    send({ jsonrpc: "2.0", id: "open-1", method: "elicitation/create", params: {
      mode: "url", elicitationId: "sign-in-1", url, message: "Sign in to continue" } });
  } else if (m.id === "open-1" && call !== null) {
    const action = m.result ? m.result.action : "an error";
    send({ jsonrpc: "2.0", id: call, result: { content: [
      { type: "text", text: `The client answered ${action}.` }] } });
    call = null;
  }
});
"#;
    std::fs::write(&path, script).unwrap();
    path
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs tmux and node: feature `interop` (.ci/run turns it on)"
)]
fn url_with_a_backslash_shows_the_host_the_browser_opens() {
    let log = log_file("elicit-terminal-backslash");
    let server = deceptive_server();
    // One backslash: `\` in JSON text.
    let written: String =
        serde_json::from_str(r#""https://evil.example\\@example.com/login""#).unwrap();
    assert_eq!(written, "https://evil.example\\@example.com/login");
    let client = client();
    let pane = Pane::start(
        "backslash",
        &[
            client.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
            // A browser that fails: nothing is replied, the question is asked again.
            "--browser",
            "false",
            "--",
            "node",
            server.to_str().unwrap(),
            &written,
        ],
    );
    pick_tool(&pane, "sign-in");
    let screen = pane.wait_for("? Open it in your browser?");
    assert!(
        screen.contains("Deceptive asks you to open a URL: Sign in to continue"),
        "{screen}"
    );
    let shown = pane.since("asks you to open a URL");
    // The URL as the browser gets it, its host the one it opens, highlighted; the URL as
    // written; a warning.
    assert!(
        shown.contains("URL:  https://evil.example/@example.com/login\n"),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("As written by the server: {written}\n")),
        "{shown}"
    );
    assert!(shown.contains("Host: evil.example\n"), "{shown}");
    assert!(shown.contains("  ! WARNING: "), "{shown}");
    let styles = styled_at(&pane, "URL:", "evil.example");
    assert!(
        styles.iter().any(|s| s.split(';').any(|p| p == "4")),
        "evil.example is not highlighted: {styles:?}"
    );
    assert!(
        !styles_before(&pane, "URL:", "example.com/login").ends_with('m'),
        "example.com is highlighted"
    );
    assert_decline_is_the_default(&shown);

    // Open, and the browser fails: said so, nothing sent, asked again with Decline under
    // the cursor.
    pane.keys(&["Down", "Enter"]);
    pane.wait_for("! WARNING: Could not open it: false exited with");
    pane.wait_for("nothing was sent; choose again.");
    assert_eq!(replies(&log), Vec::<Value>::new());
    let again = pane.since("choose again.");
    assert!(again.contains("> Decline"), "{again}");
    pane.keys(&["Enter"]);
    pane.wait_for("✘ Declined: nothing was opened; Deceptive was told you declined.");
    pane.wait_for("The client answered decline.");
    pane.wait_for("✔ sign-in finished.");
    assert_eq!(replies(&log), [json!({"action": "decline"})]);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs tmux, node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn without_colour_or_log_warnings_keep_their_marker_and_raw_json_is_left_out() {
    let pane = everything("nocolor", None, &["NO_COLOR=1"], &["--browser", "false"]);
    trigger_url(&pane, "http://user:secret@xn--80ak6aa92e.com/login", false);
    pane.wait_for("? Open it in your browser?");
    let shown = pane.since("asks you to open a URL");
    let warnings = shown
        .lines()
        .filter(|l| l.starts_with("  ! WARNING: "))
        .count();
    assert!(warnings >= 3, "{warnings} warnings:\n{shown}");
    assert_decline_is_the_default(&shown);
    // No colour anywhere on the screen: not the client's, not the prompts'.
    let colored = pane.capture(true);
    assert!(!colored.contains('\x1b'), "{colored:?}");
    pane.keys(&["Enter"]);
    pane.wait_for("User declined to open the URL");
    let screen = pane.wait_for(
        "✔ trigger-url-elicitation finished (1 block(s) of raw JSON left out; --log shows them).",
    );
    assert!(!screen.contains("Raw result"), "{screen}");

    // Structured content in words, not JSON.
    pick_tool(&pane, "get-structured-content");
    pane.wait_for("? location:");
    pane.keys(&["Enter"]);
    pane.wait_for("? Call the tool?");
    pane.keys(&["Enter"]);
    pane.wait_for("✔ get-structured-content finished");
    let result = pane.since("> Call the tool? Call");
    assert!(result.contains("\n  temperature: "), "{result}");
    assert!(result.contains("\n  conditions: "), "{result}");
    assert!(!result.contains('{'), "{result}");
    assert!(!pane.capture(true).contains('\x1b'));
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs tmux: feature `interop` (.ci/run turns it on)"
)]
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
    let screen = pane.wait_for("? date:");
    assert!(
        screen.contains("a date as year-month-day, e.g. 2026-03-14 · Ctrl-U clears"),
        "{screen}"
    );
    pane.type_text("2026-12-24");
    pane.keys(&["Enter"]);
    pane.wait_for("? Call the tool?");
    pane.keys(&["Enter"]);

    pane.wait_for("asks: 2026-12-24 is full.");
    let screen = pane.wait_for("? Answer?");
    assert!(
        screen.contains("  The form has 2 fields, 2 required:"),
        "{screen}"
    );
    assert!(
        screen
            .contains("2. alternativeDate (required) — a date as year-month-day, e.g. 2026-03-14"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    // The derived form's doc comments are its descriptions, under each prompt.
    let screen = pane.wait_for("? checkAlternative:");
    assert!(
        screen.contains("[field 1 of 2 · Book another date instead? · Esc to cancel]"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("? alternativeDate:");
    assert!(
        screen.contains(
            "[field 2 of 2 · The date to book instead · a date as year-month-day, \
             e.g. 2026-03-14 · Ctrl-U clears · Esc to cancel]"
        ),
        "{screen}"
    );
    pane.type_text("Dec 27");
    pane.keys(&["Enter"]);
    pane.wait_for(
        "# alternativeDate: not a valid date; type a date as year-month-day, e.g. 2026-03-14.",
    );
    pane.keys(&["C-u"]);
    pane.type_text("2026-12-27");
    pane.keys(&["Enter"]);
    pane.wait_for("? Send this answer?");
    pane.keys(&["Enter"]);
    pane.wait_for("✔ Sent your answer to");
    pane.wait_for("Booked a table for 2026-12-27.");
    pane.wait_for("✔ book_table finished.");
    assert_eq!(
        replies(&log),
        [
            json!({"action": "accept", "content": {"checkAlternative": true, "alternativeDate": "2026-12-27"}})
        ]
    );
}
