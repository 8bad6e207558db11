//! The board viewer in a real browser: starts `queens serve` on a free loopback port, drives
//! Debian's headless Chromium through chromedriver (WebDriver, with fantoccini), presses
//! ArrowDown and reads the queens off the SVG board; checks that the page's modules load, fill
//! the selects from `/api/config`, and that no view logs an error to the browser's console.
//!
//! Without a browser the test fails when `CI` is set (`.ci/run` installs one) and is skipped with
//! a notice otherwise. `QUEENS_CHROMIUM` and `QUEENS_CHROMEDRIVER` override the paths.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn tool(env: &str, default: &str) -> PathBuf {
    std::env::var_os(env).map_or_else(|| PathBuf::from(default), PathBuf::from)
}

/// The browser and its driver, or `None` (after a notice) when they are missing outside CI.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = tool("QUEENS_CHROMIUM", "/usr/bin/chromium");
    let driver = tool("QUEENS_CHROMEDRIVER", "/usr/bin/chromedriver");
    let missing: Vec<&Path> = [&chromium, &driver]
        .into_iter()
        .filter(|p| !p.exists())
        .map(|p| p.as_path())
        .collect();
    if missing.is_empty() {
        return Some((chromium, driver));
    }
    let message = format!(
        "the browser test needs {} (Debian packages chromium and chromium-driver)",
        missing
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message}, and CI is set: install them (.ci/run does)");
    }
    eprintln!("SKIPPED: {message}; install them to run this test");
    None
}

/// Starts `queens serve --port 0` and returns it with the page's address, read from the line
/// the server prints on standard error.
fn start_server() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queens serve starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let server = Killed(child);
    let mut line = String::new();
    BufReader::new(stderr)
        .read_line(&mut line)
        .expect("queens serve prints its address");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in '{line}'"))
        .to_string();
    (server, url)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn start_driver(driver: &Path) -> (Killed, u16) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Killed(child);
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, port)
}

async fn connect(chromium: &Path, port: u16, profile: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1200,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    // Keep the console's messages (and failed loads) for `browser_log`.
    capabilities.insert("goog:loggingPrefs".to_string(), json!({ "browser": "ALL" }));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session with headless Chromium")
}

/// The queens on the board, as columns by row, read from the SVG's `data-row`/`data-col`.
async fn board(client: &Client) -> Vec<usize> {
    let mut queens = Vec::new();
    for g in client
        .find_all(Locator::Css("#board svg .queen"))
        .await
        .expect("queens on the board")
    {
        let get = |name: &'static str| {
            let g = g.clone();
            async move {
                g.attr(name)
                    .await
                    .expect("an attribute")
                    .unwrap_or_else(|| panic!("a queen without {name}"))
                    .parse::<usize>()
                    .expect("a number")
            }
        };
        queens.push((get("data-row").await, get("data-col").await));
    }
    queens.sort_unstable();
    let rows: Vec<usize> = queens.iter().map(|&(r, _)| r).collect();
    assert_eq!(
        rows,
        (0..queens.len()).collect::<Vec<_>>(),
        "one queen per row"
    );
    queens.into_iter().map(|(_, c)| c).collect()
}

/// Waits until the board shows `expected`, or fails after a while with what it shows.
async fn wait_for_board(client: &Client, expected: &[usize]) {
    let start = Instant::now();
    loop {
        let shown = board(client).await;
        if shown == expected {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the board shows {shown:?}, not {expected:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The messages the browser logged (console and failed loads) since the last call, from
/// chromedriver's log endpoint, which fantoccini has no call for: one HTTP/1.1 request on its
/// own connection (chromedriver refuses HTTP/1.0).
fn browser_log(driver_port: u16, session: &str) -> Vec<Value> {
    let body = r#"{"type":"browser"}"#;
    let mut stream = TcpStream::connect(("127.0.0.1", driver_port)).expect("chromedriver");
    write!(
        stream,
        "POST /session/{session}/se/log HTTP/1.1\r\nHost: 127.0.0.1:{driver_port}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n\
         {body}",
        body.len()
    )
    .expect("the log request is sent");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("a read timeout");
    // chromedriver may keep the connection open: read the head, then Content-Length bytes.
    let mut reader = BufReader::new(stream);
    let mut length = None;
    let mut status = String::new();
    reader.read_line(&mut status).expect("chromedriver answers");
    assert!(status.contains(" 200 "), "the browser log: {status}");
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a header");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut json = vec![0; length.expect("a Content-Length")];
    reader.read_exact(&mut json).expect("the log");
    let answer: Value = serde_json::from_slice(&json).expect("the log is JSON");
    answer["value"]
        .as_array()
        .unwrap_or_else(|| panic!("no log entries in {answer}"))
        .clone()
}

/// Fails on any error (level SEVERE) the browser logged since the last look, saying `when`.
async fn assert_no_console_errors(client: &Client, driver_port: u16, when: &str) {
    let session = client
        .session_id()
        .await
        .expect("the session id")
        .expect("a session");
    let errors: Vec<Value> = browser_log(driver_port, &session)
        .into_iter()
        .filter(|entry| entry["level"] == "SEVERE")
        .collect();
    assert!(errors.is_empty(), "console errors {when}: {errors:#?}");
}

/// Waits until the text of the element `id` starts with `prefix`.
async fn wait_for_text(client: &Client, id: &str, prefix: &str) {
    let start = Instant::now();
    loop {
        let text = client
            .find(Locator::Id(id))
            .await
            .expect("the element")
            .text()
            .await
            .expect("its text");
        if text.starts_with(prefix) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "#{id} says '{text}', not '{prefix}...'"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The values of the options of the select `id`.
async fn options(client: &Client, id: &str) -> Vec<String> {
    let script = "return [...document.getElementById(arguments[0]).options].map((o) => o.value);";
    let values = client
        .execute(script, vec![json!(id)])
        .await
        .expect("the options");
    serde_json::from_value(values).expect("strings")
}

/// A browser with the page loaded: the server, the driver and the browser stay up as
/// long as it lives.
struct Page {
    client: Client,
    driver_port: u16,
    _server: Killed,
    _driver: Killed,
    _profile: tempfile::TempDir,
}

/// Opens the page, or `None` when there is no browser (outside CI).
async fn open_page() -> Option<Page> {
    let (chromium, driver) = browser()?;
    let (server, url) = start_server();
    let (driver, driver_port) = start_driver(&driver);
    let profile = tempfile::tempdir().expect("a fresh browser profile");
    let client = connect(&chromium, driver_port, profile.path()).await;

    client.goto(&url).await.expect("the page loads");
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page finishes loading");
    Some(Page {
        client,
        driver_port,
        _server: server,
        _driver: driver,
        _profile: profile,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pressing_arrow_down_shows_the_second_solution_of_eight() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    wait_for_board(client, &[0, 4, 7, 5, 2, 6, 1, 3]).await;

    let body = client
        .find(Locator::Css("body"))
        .await
        .expect("a body element");
    body.send_keys("\u{E015}") // WebDriver's code for ArrowDown
        .await
        .expect("ArrowDown is pressed");
    wait_for_board(client, &[0, 5, 7, 2, 6, 3, 1, 4]).await;

    let label = client
        .find(Locator::Id("label"))
        .await
        .expect("the label")
        .text()
        .await
        .expect("its text");
    assert_eq!(label, "Solution 2 of 92");
    let address = client.current_url().await.expect("the address");
    assert!(
        address.as_str().ends_with("/?n=8&i=2"),
        "the address keeps the state: {address}"
    );
    client.clone().close().await.expect("the browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_loads_its_modules_and_config_without_console_errors() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    wait_for_board(client, &[0, 4, 7, 5, 2, 6, 1, 3]).await;
    assert_no_console_errors(client, page.driver_port, "on load").await;

    // The modules ran: the selects hold what the server's config lists.
    let config = client
        .execute("return fetch('/api/config').then((r) => r.json());", vec![])
        .await
        .expect("the config");
    let names = |list: &Value, key: Option<&str>| -> Vec<String> {
        let list = list.as_array().expect("a list");
        let name = |v: &Value| {
            key.map_or(v, |k| &v[k])
                .as_str()
                .expect("a name")
                .to_string()
        };
        list.iter().map(name).collect()
    };
    let traced = names(&config["learn"]["algorithms"], None);
    assert!(!traced.is_empty(), "{config}");
    assert_eq!(options(client, "learn-algo").await, traced);
    let mut solvers = vec![String::new()];
    solvers.extend(names(&config["solve"]["algorithms"], Some("name")));
    assert_eq!(options(client, "solve-algo").await, solvers);
    let sizes = |max: &Value| -> Vec<String> {
        (1..=max.as_u64().expect("a limit"))
            .map(|n| n.to_string())
            .collect()
    };
    assert_eq!(
        options(client, "size").await,
        sizes(&config["browse"]["max_n"])
    );
    assert_eq!(
        options(client, "learn-size").await,
        sizes(&config["learn"]["max_n"])
    );
    let max = client
        .find(Locator::Id("solve-n"))
        .await
        .expect("the size box")
        .attr("max")
        .await
        .expect("an attribute");
    assert_eq!(max, Some(config["solve"]["max_n"].to_string()));

    // Every view loads what it shows without an error.
    let tab = |name: &'static str| async move {
        client
            .find(Locator::Id(name))
            .await
            .expect("the tab")
            .click()
            .await
            .expect("the tab is clicked");
    };
    tab("tab-learn").await;
    wait_for_text(
        client,
        "learn-note",
        "The backtrack search of the 6\u{d7}6 board",
    )
    .await;
    tab("tab-solve").await;
    wait_for_text(client, "solve-label", "A solution of the 20\u{d7}20 board").await;
    tab("tab-browse").await;
    wait_for_text(client, "label", "Solution 1 of 92").await;
    assert_no_console_errors(client, page.driver_port, "in the three views").await;
    client.clone().close().await.expect("the browser closes");
}
