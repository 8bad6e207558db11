//! The board viewer in a real browser: starts `queens serve` on a free loopback port, drives
//! Debian's headless Chromium through chromedriver (WebDriver, with fantoccini), presses
//! ArrowDown and reads the queens off the SVG board.
//!
//! Without a browser the test fails when `CI` is set (`.ci/run` installs one) and is skipped with
//! a notice otherwise. `QUEENS_CHROMIUM` and `QUEENS_CHROMEDRIVER` override the paths.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pressing_arrow_down_shows_the_second_solution_of_eight() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let (_server, url) = start_server();
    let (_driver, port) = start_driver(&driver);
    let profile = tempfile::tempdir().expect("a fresh browser profile");
    let client = connect(&chromium, port, profile.path()).await;

    client.goto(&url).await.expect("the page loads");
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page finishes loading");
    wait_for_board(&client, &[0, 4, 7, 5, 2, 6, 1, 3]).await;

    let body = client
        .find(Locator::Css("body"))
        .await
        .expect("a body element");
    body.send_keys("\u{E015}") // WebDriver's code for ArrowDown
        .await
        .expect("ArrowDown is pressed");
    wait_for_board(&client, &[0, 5, 7, 2, 6, 3, 1, 4]).await;

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
    client.close().await.expect("the browser closes");
}
