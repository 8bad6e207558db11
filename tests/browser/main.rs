//! The board viewer in a real browser: starts `queens serve` on a free loopback port, drives
//! Debian's headless Chromium through chromedriver (WebDriver, with fantoccini), presses
//! ArrowDown and reads the queens off the SVG board; checks that the page's modules load, fill
//! the selects from `/api/config`, and that no view logs an error to the browser's console.
//!
//! Without a browser the tests fail when `CI` is set (`.ci/run` installs one) and are skipped
//! with a notice otherwise; they live in the module `skips_without_chromium`, so every test's
//! name says so. Each test ends the server, chromedriver and Chromium (their process groups)
//! whether it passes or fails. `QUEENS_CHROMIUM` and `QUEENS_CHROMEDRIVER` override the paths.
//! The tests, one file per part of the page, are under `skips_without_chromium/`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// A child process started in a process group of its own, and the whole group killed when the
/// test ends, however it ends (a pass, a failed assertion, a panic while opening the page):
/// chromedriver's group holds the Chromium it starts and every helper process Chromium forks,
/// so no browser outlives the test.
pub struct Killed(Child);

impl Killed {
    fn spawn(command: &mut Command, what: &str) -> Killed {
        use std::os::unix::process::CommandExt;
        let child = command
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("{what} starts: {e}"));
        Killed(child)
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        if let Ok(group) = libc::pid_t::try_from(self.0.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the child leads
            // (spawned with process_group(0)); it touches no memory of this process.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[path = "../support/serve.rs"]
mod serving;

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
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if ci {
        panic!("{message}, and CI is set: install them (.ci/run does)");
    }
    eprintln!("SKIPPED: {message}; install them to run this test (CI=true makes this a failure)");
    None
}

/// Starts `queens serve --port 0` and returns it with the page's address, read from the line
/// the server prints on standard error.
fn start_server() -> (Killed, String) {
    let mut server = Killed::spawn(
        serving::on_a_free_port(&mut Command::new(env!("CARGO_BIN_EXE_queens"))),
        "queens serve",
    );
    let url = serving::announced_url(&mut server.0);
    assert!(
        url.starts_with("http://127.0.0.1:"),
        "not on loopback: {url}"
    );
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
    let driver = Killed::spawn(
        Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        "chromedriver",
    );
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
    // A chromedriver that listens may still reset the first request while it starts (seen on
    // a loaded machine): a session that fails to open is asked for again, three times at most.
    let mut tries = 0;
    loop {
        let session = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        match session {
            Ok(client) => return client,
            Err(err) if tries < 2 => {
                tries += 1;
                eprintln!("a WebDriver session failed to open ({err}); asking again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(err) => panic!("a WebDriver session with headless Chromium: {err:?}"),
        }
    }
}

/// The queens on the board, as columns by row, read from the SVG's `data-row`/`data-col`.
pub async fn board(client: &Client) -> Vec<usize> {
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

/// Looks again and again with `look` until it says `Ok`, and returns what it found; fails after
/// `limit` with the last `Err`, which says what was seen instead.
pub async fn eventually<T>(limit: Duration, mut look: impl AsyncFnMut() -> Result<T, String>) -> T {
    let start = Instant::now();
    loop {
        match look().await {
            Ok(found) => return found,
            Err(seen) => assert!(start.elapsed() < limit, "{seen}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How long a page is given to show what a test waits for.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Waits until the board shows `expected`, or fails after a while with what it shows.
pub async fn wait_for_board(client: &Client, expected: &[usize]) {
    eventually(PATIENCE, async || {
        let shown = board(client).await;
        if shown == expected {
            Ok(())
        } else {
            Err(format!("the board shows {shown:?}, not {expected:?}"))
        }
    })
    .await;
}

/// The messages the browser logged (console and failed loads) since the last call, from
/// chromedriver's log endpoint, which fantoccini has no call for: one HTTP/1.1 request on its
/// own connection (chromedriver refuses HTTP/1.0).
pub fn browser_log(driver_port: u16, session: &str) -> Vec<Value> {
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
pub async fn assert_no_console_errors(client: &Client, driver_port: u16, when: &str) {
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

/// Waits until the text of the element `id` passes `shows`; fails after a while with the text
/// and what it `lacks`.
async fn wait_for_shown(client: &Client, id: &str, shows: impl Fn(&str) -> bool, lacks: &str) {
    eventually(PATIENCE, async || {
        let shown = text(client, id).await;
        if shows(&shown) {
            Ok(())
        } else {
            Err(format!("#{id} says '{shown}', {lacks}"))
        }
    })
    .await;
}

/// Waits until the text of the element `id` starts with `prefix`.
pub async fn wait_for_text(client: &Client, id: &str, prefix: &str) {
    let lacks = format!("not '{prefix}...'");
    wait_for_shown(client, id, |shown| shown.starts_with(prefix), &lacks).await;
}

/// The values of the options of the select `id`.
pub async fn options(client: &Client, id: &str) -> Vec<String> {
    let script = "return [...document.getElementById(arguments[0]).options].map((o) => o.value);";
    let values = client
        .execute(script, vec![json!(id)])
        .await
        .expect("the options");
    serde_json::from_value(values).expect("strings")
}

/// A browser with the page loaded: the server, the driver and the browser stay up as
/// long as it lives.
pub struct Page {
    pub client: Client,
    pub driver_port: u16,
    _server: Killed,
    _driver: Killed,
    _profile: tempfile::TempDir,
}

/// Opens the page, or `None` when there is no browser (outside CI).
pub async fn open_page() -> Option<Page> {
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

/// Runs `script` in the page and returns its value.
pub async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("the script '{script}' runs: {e}"))
}

/// The element `id`, which must be on the page.
async fn element(client: &Client, id: &str) -> fantoccini::elements::Element {
    client
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|_| panic!("#{id} is on the page"))
}

/// The text of the element `id`.
pub async fn text(client: &Client, id: &str) -> String {
    element(client, id).await.text().await.expect("its text")
}

/// The value of the JavaScript expression `script` on the page.
pub async fn value_of(client: &Client, script: &str) -> Value {
    js(client, &format!("return {script};")).await
}

/// Checks that the element `id` shows, now, a text that starts with `prefix`.
pub async fn assert_text_starts(client: &Client, id: &str, prefix: &str) {
    let shown = text(client, id).await;
    assert!(
        shown.starts_with(prefix),
        "#{id} shows {shown:?}, not {prefix:?}..."
    );
}

/// Clicks the element `id`.
pub async fn click(client: &Client, id: &str) {
    let clicked = element(client, id).await.click().await;
    clicked.unwrap_or_else(|e| panic!("#{id} is clicked: {e}"));
}

/// Presses `keys` (WebDriver key codes) on whatever element has the focus, as a user would.
pub async fn press(client: &Client, keys: &str) {
    client
        .active_element()
        .await
        .expect("an element has the focus")
        .send_keys(keys)
        .await
        .expect("the keys are pressed");
}

/// Waits until `script` returns true, or fails after a while saying `what`.
pub async fn wait_until(client: &Client, script: &str, what: &str) {
    eventually(PATIENCE, async || {
        if js(client, script).await == json!(true) {
            Ok(())
        } else {
            Err(what.to_string())
        }
    })
    .await;
}

/// Waits until the text of `id` contains `part`.
pub async fn wait_for_part(client: &Client, id: &str, part: &str) {
    let lacks = format!("without '{part}'");
    wait_for_shown(client, id, |shown| shown.contains(part), &lacks).await;
}

/// Waits until Learn's Play button is pressed (`true`: playing) or not, or fails saying `what`.
pub async fn wait_for_playing(client: &Client, playing: bool, what: &str) {
    let script = format!(
        "return document.getElementById('learn-play').getAttribute('aria-pressed') === '{playing}';"
    );
    wait_until(client, &script, what).await;
}

/// Types `keys` (WebDriver key codes: `\u{E007}` is Enter) into the field `id`.
pub async fn type_into(client: &Client, id: &str, keys: &str) {
    let typed = element(client, id).await.send_keys(keys).await;
    typed.unwrap_or_else(|e| panic!("{keys:?} is typed into #{id}: {e}"));
}

/// Clicks the element `css` selects, which must be on the page; `what` names it in a failure.
pub async fn click_css(client: &Client, css: &str, what: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|_| panic!("{what} is on the page"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{what} is clicked: {e}"));
}

/// Chooses the option `value` of the select `id`, as a click on it would.
pub async fn choose(client: &Client, id: &str, value: &str) {
    let option = format!("#{id} option[value='{value}']");
    click_css(client, &option, &format!("the option {value} of #{id}")).await;
}

/// How many boards are drawn in `#board`.
pub async fn boards_drawn(client: &Client) -> u64 {
    js(
        client,
        "return document.querySelectorAll('#board svg').length;",
    )
    .await
    .as_u64()
    .expect("a count")
}

/// Fails on any console error since the last look, saying `when`; then closes the browser.
pub async fn finish(page: &Page, when: &str) {
    assert_no_console_errors(&page.client, page.driver_port, when).await;
    page.client
        .clone()
        .close()
        .await
        .expect("the browser closes");
}

/// Opens `path` of the page's server and waits until the page is ready.
pub async fn open(page: &Page, path: &str) {
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

/// Opens Learn at `/?mode=learn&QUERY` and waits until its step label starts with `step`.
pub async fn open_learn(page: &Page, query: &str, step: &str) {
    open(page, &format!("/?mode=learn&{query}")).await;
    wait_for_text(&page.client, "learn-step-label", step).await;
}

/// The lines of the code panel the step runs, joined by ` | `.
pub async fn code_line(client: &Client) -> String {
    let line = js(
        client,
        "return [...document.querySelectorAll('#learn-code li.current')].map((li) => li.textContent.trim()).join(' | ');",
    )
    .await;
    line.as_str().expect("a string").to_string()
}

pub async fn address(client: &Client) -> String {
    client.current_url().await.expect("the address").to_string()
}

pub const ARROW_RIGHT: &str = "\u{E014}";
pub const ARROW_DOWN: &str = "\u{E015}";
pub const SPACE: &str = " ";

/// One of the board's eight symmetries: (n, row, col) to the image's (row, col).
pub type Symmetry = fn(usize, usize, usize) -> (usize, usize);

/// The representative of a board's class: the smallest of its eight images.
pub fn representative(queens: &[usize]) -> Vec<usize> {
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

/// The page [`open_page`] opened, or, when there is no browser (outside CI), a return from
/// the test that asks for it. With two names, binds the page and its client to them.
macro_rules! page_or_skip {
    () => {
        match open_page().await {
            Some(page) => page,
            None => return,
        }
    };
    // `page_or_skip!(page, client)`: the page, and its client under the second name.
    ($page:ident, $client:ident) => {
        let $page = page_or_skip!();
        let $client = &$page.client;
    };
}

/// Every test opens the page in headless Chromium. Without Chromium and chromedriver a test
/// fails when `CI` is set and otherwise passes after a SKIPPED notice on standard error: the
/// module's name puts that in every test's name, so `cargo test` shows it without --nocapture.
mod skips_without_chromium {
    mod browse_and_solve;
    mod claims;
    mod learn;
    mod learn_layout;
    mod page;
    mod quiz;
    mod tree;
}
