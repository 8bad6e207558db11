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

/// Runs `script` in the page and returns its value.
async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("the script '{script}' runs: {e}"))
}

/// The text of the element `id`.
async fn text(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|_| panic!("#{id} is on the page"))
        .text()
        .await
        .expect("its text")
}

async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|_| panic!("#{id} is on the page"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("#{id} is clicked: {e}"));
}

/// Presses `keys` (WebDriver key codes) on whatever element has the focus, as a user would.
async fn press(client: &Client, keys: &str) {
    client
        .active_element()
        .await
        .expect("an element has the focus")
        .send_keys(keys)
        .await
        .expect("the keys are pressed");
}

/// Waits until `script` returns true, or fails after a while saying `what`.
async fn wait_until(client: &Client, script: &str, what: &str) {
    let start = Instant::now();
    loop {
        if js(client, script).await == json!(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the text of `id` contains `part`.
async fn wait_for_part(client: &Client, id: &str, part: &str) {
    let start = Instant::now();
    loop {
        let shown = text(client, id).await;
        if shown.contains(part) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "#{id} says '{shown}', without '{part}'"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens `path` of the page's server and waits until the page is ready.
async fn open(page: &Page, path: &str) {
    let base = page.client.current_url().await.expect("the address");
    let url = base.join(path).expect("a relative address");
    page.client
        .goto(url.as_str())
        .await
        .expect("the page loads");
    page.client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page finishes loading");
}

/// The line of the code panel being run.
async fn code_line(client: &Client) -> String {
    let line = js(
        client,
        "const li = document.querySelector('#learn-code li.current'); return li ? li.textContent.trim() : '';",
    )
    .await;
    line.as_str().expect("a string").to_string()
}

async fn address(client: &Client) -> String {
    client.current_url().await.expect("the address").to_string()
}

const ARROW_RIGHT: &str = "\u{E014}";
const ARROW_DOWN: &str = "\u{E015}";
const SPACE: &str = " ";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn learn_opens_at_the_address_steps_jumps_and_shows_the_code_line() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    open(&page, "/?mode=learn&n=8&algo=iterative&step=25").await;
    wait_for_text(client, "learn-step-label", "Step 25 of 1963").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "Try the square at row 4, column 1."
    );
    assert_eq!(
        code_line(client).await,
        "for j \u{2190} start to N \u{2212} 1:"
    );
    // Coordinates: a number for each row and each column.
    let numbers = js(
        client,
        "return document.querySelectorAll('#board .coord').length;",
    )
    .await;
    assert_eq!(numbers, json!(16));

    // Step, then the address keeps the step.
    click(client, "learn-step").await;
    wait_for_text(client, "learn-step-label", "Step 26 of 1963").await;
    assert!(address(client)
        .await
        .ends_with("/?mode=learn&n=8&algo=iterative&step=26"));

    // Space after clicking Step plays (the button gave the focus back), Space again pauses.
    press(client, SPACE).await;
    wait_until(
        client,
        "return document.getElementById('learn-play').getAttribute('aria-pressed') === 'true';",
        "Space after Step plays",
    )
    .await;
    press(client, SPACE).await;
    wait_until(
        client,
        "return document.getElementById('learn-play').getAttribute('aria-pressed') === 'false';",
        "Space again pauses",
    )
    .await;

    // The jumps.
    click(client, "learn-start").await;
    click(client, "learn-next-place").await;
    wait_for_text(client, "learn-step-label", "Step 2 of").await;
    assert_eq!(code_line(client).await, "queens[k] \u{2190} j");
    click(client, "learn-next-back").await;
    wait_for_part(client, "learn-explain", "Every square of row").await;
    assert_eq!(code_line(client).await, "k \u{2190} k \u{2212} 1");
    click(client, "learn-next-solution").await;
    wait_for_text(client, "learn-step-label", "Step 1963 of 1963").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "A queen on every row and none attacks another: a solution!"
    );
    click(client, "learn-back").await;
    wait_for_text(client, "learn-step-label", "Step 1962 of 1963").await;

    // Arrow keys after choosing in a select step the search; they leave the select alone.
    client
        .find(Locator::Css("#learn-algo option[value='wirth']"))
        .await
        .expect("the wirth option")
        .click()
        .await
        .expect("wirth is chosen");
    wait_for_text(client, "learn-code-title", "Wirth").await;
    wait_for_text(client, "learn-step-label", "Step 0 of").await;
    press(client, &ARROW_RIGHT.repeat(3)).await;
    wait_for_text(client, "learn-step-label", "Step 3 of").await;
    let algo = js(
        client,
        "return document.getElementById('learn-algo').value;",
    )
    .await;
    assert_eq!(algo, json!("wirth"));
    assert_eq!(code_line(client).await, "for j \u{2190} 0 to N \u{2212} 1:");

    // The line run at a known step of every algorithm (4x4: see `queens trace 4`).
    let known = [
        ("backtrack", 17, "setAllPositionsUntried(col)"),
        ("backtrack", 1, "setPositionTried(col)"),
        ("iterative", 4, "return false"),
        ("recursive", 2, "x[k] \u{2190} i"),
        ("recursive", 17, "return"),
        (
            "wirth",
            4,
            "if a[j] and b[i+j] and c[i\u{2212}j+N\u{2212}1]:",
        ),
        ("bfs", 2, "board \u{2190} dequeue()"),
        ("bfs", 4, "enqueue(board + queen at (k, j))"),
        ("bitboard", 5, "return"),
        ("bitboard", 2, "queen[k] \u{2190} log2(bit)"),
    ];
    for (algo, step, line) in known {
        open(&page, &format!("/?mode=learn&n=4&algo={algo}&step={step}")).await;
        wait_for_text(client, "learn-step-label", &format!("Step {step} of")).await;
        assert_eq!(code_line(client).await, line, "{algo} at step {step}");
    }
    // The first-untried array from step 0: every row untried.
    open(&page, "/?mode=learn&n=4&algo=backtrack").await;
    wait_for_text(client, "learn-step-label", "Step 0 of").await;
    wait_for_part(client, "learn-arrays", "untried[column]").await;
    let untried = js(
        client,
        "return [...document.querySelectorAll('#learn-arrays table')[1].querySelectorAll('td')].map((td) => td.textContent).join(' ');",
    )
    .await;
    assert_eq!(untried, json!("0 0 0 0"));

    // Honest ends: no solution for 2x2, and a board beyond the limit says so.
    open(&page, "/?mode=learn&n=2&algo=iterative&step=end").await;
    wait_for_part(
        client,
        "learn-explain",
        "the 2\u{d7}2 board has no solution",
    )
    .await;
    open(&page, "/?mode=learn&n=20").await;
    wait_for_text(
        client,
        "learn-explain",
        "N = 20 is above the Learn limit of 12.",
    )
    .await;
    let boards = js(
        client,
        "return document.querySelectorAll('#board svg').length;",
    )
    .await;
    assert_eq!(boards, json!(0), "no other board instead of the 20x20 one");
    assert_no_console_errors(client, page.driver_port, "in Learn").await;
    client.clone().close().await.expect("the browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_shows_two_boards_with_the_textbook_counts() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    open(&page, "/?mode=learn&n=8&algo=iterative&compare=wirth").await;
    wait_for_text(client, "learn-step-label", "Step 0 of 1963").await;
    click(client, "learn-end").await;
    wait_for_text(client, "learn-step-label", "Step 1963 of 1963").await;
    let counts = text(client, "learn-counts").await;
    assert_eq!(
        counts,
        "iterative: 876 tries, 763 conflicts, 113 placements, 105 backtracks"
    );
    let other = text(client, "learn-counts2").await;
    assert_eq!(
        other,
        "wirth: 876 tries, 763 conflicts, 113 placements, 105 backtracks"
    );
    let queens = js(
        client,
        "return [document.querySelectorAll('#board svg .queen').length, document.querySelectorAll('#board2 svg .queen').length];",
    )
    .await;
    assert_eq!(queens, json!([8, 8]), "two boards, each with its solution");
    // The bitmask search gets there with fewer tries and no conflicts at all.
    open(
        &page,
        "/?mode=learn&n=8&algo=recursive&compare=bitboard&step=end",
    )
    .await;
    wait_for_part(client, "learn-counts", "876 tries").await;
    wait_for_part(client, "learn-counts2", "0 conflicts").await;
    assert!(address(client).await.contains("compare=bitboard"));
    assert_no_console_errors(client, page.driver_port, "in Compare").await;
    client.clone().close().await.expect("the browser closes");
}

/// One of the board's eight symmetries: (n, row, col) to the image's (row, col).
type Symmetry = fn(usize, usize, usize) -> (usize, usize);

/// The representative of a board's class: the smallest of its eight images.
fn representative(queens: &[usize]) -> Vec<usize> {
    let n = queens.len();
    let maps: [Symmetry; 8] = [
        |_, r, c| (r, c),
        |n, r, c| (r, n - 1 - c),
        |n, r, c| (n - 1 - r, c),
        |n, r, c| (n - 1 - r, n - 1 - c),
        |_, r, c| (c, r),
        |n, r, c| (c, n - 1 - r),
        |n, r, c| (n - 1 - c, r),
        |n, r, c| (n - 1 - c, n - 1 - r),
    ];
    maps.iter()
        .map(|map| {
            let mut image = vec![0; n];
            for (r, &c) in queens.iter().enumerate() {
                let (r2, c2) = map(n, r, c);
                image[r2] = c2;
            }
            image
        })
        .min()
        .expect("eight images")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_goes_to_a_number_keeps_the_class_and_shows_its_work() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    wait_for_text(client, "label", "Solution 1 of 92").await;

    // Go to solution 50.
    client
        .find(Locator::Id("goto"))
        .await
        .expect("the field")
        .send_keys("50\u{E007}")
        .await
        .expect("50 and Enter are typed");
    wait_for_text(client, "label", "Solution 50 of 92").await;
    let fiftieth = board(client).await;

    // The unique box shows that board's class, and back shows the representative among all.
    click(client, "unique").await;
    wait_for_text(client, "label", "Distinct solution").await;
    let class = representative(&fiftieth);
    wait_for_board(client, &class).await;
    click(client, "unique").await;
    wait_for_text(client, "label", "Solution").await;
    wait_for_board(client, &class).await;

    // Eleven presses move eleven solutions, however fast they come.
    let at: u64 = text(client, "label").await["Solution ".len()..]
        .split(' ')
        .next()
        .expect("a number")
        .parse()
        .expect("the solution's number");
    press(client, &ARROW_DOWN.repeat(11)).await;
    wait_for_text(client, "label", &format!("Solution {} of 92", at + 11)).await;

    // A slow board: the working state shows, the buttons wait, no press is lost.
    client
        .find(Locator::Css("#size option[value='30']"))
        .await
        .expect("the 30x30 option")
        .click()
        .await
        .expect("30x30 is chosen");
    wait_for_text(client, "label", "Solution 1 ").await;
    wait_until(
        client,
        "return document.body.dataset.working !== 'true';",
        "the first 30x30 board comes",
    )
    .await;
    press(client, &ARROW_DOWN.repeat(3)).await;
    wait_until(
        client,
        "return !document.getElementById('browse-working').hidden && document.getElementById('next').disabled;",
        "a slow step shows Working and disables the buttons",
    )
    .await;
    wait_for_text(client, "label", "Solution 4 ").await;
    wait_until(
        client,
        "return document.getElementById('browse-working').hidden;",
        "the working state ends",
    )
    .await;

    // 16x16: the total is counted in the background, then Last shows the last solution (the
    // mirror image of the first).
    open(&page, "/?n=16&i=1").await;
    wait_for_part(client, "counts", "has 14772512 solutions").await;
    wait_for_text(client, "label", "Solution 1 of 14772512").await;
    let first = board(client).await;
    click(client, "last").await;
    wait_for_text(client, "label", "Solution 14772512 of 14772512").await;
    let mirrored: Vec<usize> = first.iter().map(|c| 15 - c).collect();
    wait_for_board(client, &mirrored).await;
    assert_no_console_errors(client, page.driver_port, "in Browse").await;
    client.clone().close().await.expect("the browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_keeps_a_seed_above_two_to_the_53_and_says_what_went_wrong() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    open(&page, "/?mode=solve&n=8&algo=min-conflicts").await;
    wait_for_part(client, "solve-label", "found by min-conflicts").await;
    wait_for_text(
        client,
        "solve-limit",
        "min-conflicts takes boards up to 10,000",
    )
    .await;
    // The server's answer for this seed, read as text (a JavaScript number would round it).
    let seed = "1796110905563346914";
    let answer = js(
        client,
        &format!("return fetch('/api/solve?n=8&algo=min-conflicts&seed={seed}').then((r) => r.json()).then((b) => b.queens);"),
    )
    .await;
    let expected: Vec<usize> = serde_json::from_value(answer).expect("columns");
    client
        .find(Locator::Id("solve-seed"))
        .await
        .expect("the seed field")
        .send_keys(&format!("{seed}\u{E007}"))
        .await
        .expect("the seed and Enter are typed");
    wait_for_part(client, "solve-label", &format!("(seed {seed}:")).await;
    wait_for_board(client, &expected).await;
    assert!(address(client).await.ends_with(&format!("seed={seed}")));

    // A seed drawn by the server, typed back, gives the same board again.
    js(
        client,
        "document.getElementById('solve-seed').value = ''; return true;",
    )
    .await;
    click(client, "solve-submit").await;
    wait_until(
        client,
        &format!("return /seed \\d+/.test(document.getElementById('solve-label').textContent) && !document.getElementById('solve-label').textContent.includes('{seed}');"),
        "a new seed is drawn",
    )
    .await;
    let label = text(client, "solve-label").await;
    let drawn = label
        .split("seed ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .expect("the seed in the label")
        .to_string();
    let first = board(client).await;
    client
        .find(Locator::Id("solve-seed"))
        .await
        .expect("the seed field")
        .send_keys(&format!("{drawn}\u{E007}"))
        .await
        .expect("the seed is typed");
    wait_for_part(client, "solve-label", &format!("(seed {drawn}:")).await;
    wait_for_board(client, &first).await;

    // An error in words, and no stale board.
    client
        .find(Locator::Css("#solve-algo option[value='bitboard']"))
        .await
        .expect("the bitboard option")
        .click()
        .await
        .expect("bitboard is chosen");
    wait_for_text(
        client,
        "solve-limit",
        "bitboard takes boards up to 32\u{d7}32",
    )
    .await;
    let field = client.find(Locator::Id("solve-n")).await.expect("N");
    field.clear().await.expect("N is cleared");
    field.send_keys("40\u{E007}").await.expect("40 is typed");
    wait_for_part(client, "solve-label", "40\u{d7}40 is too large").await;
    let boards = js(
        client,
        "return document.querySelectorAll('#board svg').length;",
    )
    .await;
    assert_eq!(boards, json!(0), "the stale board is cleared");
    assert_no_console_errors(client, page.driver_port, "in Solve").await;
    client.clone().close().await.expect("the browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_board_and_the_explanation_share_the_screen() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    open(&page, "/?mode=learn&n=8&algo=backtrack&step=4").await;
    wait_for_text(client, "learn-step-label", "Step 4 of").await;
    let boxes = js(
        client,
        "const b = document.querySelector('#board svg').getBoundingClientRect();
         const e = document.getElementById('learn-explain').getBoundingClientRect();
         return { width: innerWidth, height: innerHeight, board: [b.left, b.top, b.right, b.bottom],
                  explain: [e.left, e.top, e.right, e.bottom], text: e.height };",
    )
    .await;
    let num = |v: &Value| v.as_f64().expect("a number");
    let (width, height) = (num(&boxes["width"]), num(&boxes["height"]));
    let b: Vec<f64> = boxes["board"]
        .as_array()
        .expect("a box")
        .iter()
        .map(num)
        .collect();
    let e: Vec<f64> = boxes["explain"]
        .as_array()
        .expect("a box")
        .iter()
        .map(num)
        .collect();
    assert!(width <= 400.0, "a phone's width: {boxes}");
    assert!(
        b[0] >= 0.0 && b[2] <= width && b[1] >= 0.0,
        "the board fits across: {boxes}"
    );
    assert!(
        b[2] - b[0] >= 300.0,
        "the board is large enough to read: {boxes}"
    );
    assert!(
        e[1] >= b[3],
        "the explanation comes under the board: {boxes}"
    );
    assert!(
        e[3] <= height && num(&boxes["text"]) > 10.0,
        "the explanation is on screen: {boxes}"
    );
    assert_no_console_errors(client, page.driver_port, "on a phone").await;
    client.clone().close().await.expect("the browser closes");
}

/// The page's SVG download is the drawing of `queens solve N --format svg`, character for
/// character: crowns with coordinates (8), crowns scaled down (30), dots (200).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_svg_download_is_the_command_line_drawing() {
    let Some(page) = open_page().await else {
        return;
    };
    let client = &page.client;
    for n in ["8", "30", "200"] {
        let run = |format: &str| {
            let out = Command::new(assert_cmd::cargo::cargo_bin("queens"))
                .args(["solve", n, "--format", format])
                .output()
                .expect("queens runs");
            String::from_utf8(out.stdout).expect("UTF-8")
        };
        let positions = run("positions");
        let queens: Vec<usize> = positions
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let script = format!(
            "return import('/js/board.js').then((m) => m.svgText({n}, {}));",
            json!(queens)
        );
        let drawn = js(client, &script).await;
        assert_eq!(drawn.as_str(), Some(run("svg").as_str()), "N = {n}");
    }
}
