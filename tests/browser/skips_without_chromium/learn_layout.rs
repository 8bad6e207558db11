//! Learn on a laptop, with the keyboard, and in comparison: everything a step says on one
//! screen at 1280x800 and 1366x768 for every algorithm; keys that do what the focused control
//! expects; two searches each with its own running lines; the code and the state agreeing at
//! every step; and colours that meet WCAG AA contrast.
//!
//! `QUEENS_SCREENSHOTS=DIR` saves a PNG of each laptop layout checked, to look at.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use crate::*;

/// Saves a screenshot as DIR/`name`.png when `QUEENS_SCREENSHOTS` names a folder.
async fn screenshot(page: &Page, name: &str) {
    if let Some(dir) = std::env::var_os("QUEENS_SCREENSHOTS") {
        let png = page.client.screenshot().await.expect("a screenshot");
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.png")), png)
            .expect("the screenshot is saved");
    }
}

/// The boxes of what must be on screen, as the page measures them: [left, top, right, bottom]
/// of each, with the window's size and how far the page is scrolled.
const BOXES: &str = "
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (css) => [...document.querySelectorAll(css)].map(box);
  const shown = (css) => [...document.querySelectorAll(css)].filter((el) => el.textContent.trim() && el.offsetParent).map(box);
  // A code line is clipped sideways when its text is wider than what its panel shows (a
  // sideways scroll bar counts as clipped: the line is not read whole).
  const clipped = [...document.querySelectorAll('.code-panel')].filter((p) => p.offsetParent)
    .flatMap((p) => [...p.querySelectorAll('li')].filter((li) => li.scrollWidth > li.clientWidth + 1
      || li.getBoundingClientRect().right > p.getBoundingClientRect().right + 1
      || p.scrollWidth > p.clientWidth + 1).map((li) => li.textContent));
  return {
    width: innerWidth, height: innerHeight, scrolled: scrollY, clipped,
    // The arrays in full: none of their holders scrolls sideways.
    arrays_cut: [...document.querySelectorAll('.arrays')].filter((a) => a.offsetParent && a.scrollWidth > a.clientWidth + 1).map((a) => a.id),
    parts: {
      vars: shown('#learn-vars'),
      check: shown('#learn-check'),
      arrays2: all('#learn-search2:not([hidden]) #learn-arrays2 table'),
      vars2: shown('#learn-vars2'),
      check2: shown('#learn-check2'),
      board: all('#board svg'),
      step: all('#learn-step-label'),
      explanation: all('#learn-explain'),
      running: all('#learn-code li.current'),
      arrays: all('#learn-arrays table'),
      step_button: all('#learn-step'),
      back_button: all('#learn-back'),
      play_bar: all('.learn-bar button:not(.keys-button)'),
    },
  };";

/// Resizes the window so that the page's own viewport is `width` x `height` (the window's
/// outer height includes the browser's frame, even headless; its width does not).
pub(crate) async fn set_viewport(client: &fantoccini::Client, width: u32, height: u32) {
    client
        .set_window_size(width, height)
        .await
        .expect("a window size");
    // A loaded machine's Chromium may report the frame before the resize is done: measure
    // again and correct, a few times, until the viewport is the one asked for.
    let mut inner = json!(null);
    for _ in 0..10 {
        let sizes = js(
            client,
            "return [outerWidth, outerHeight, innerWidth, innerHeight];",
        )
        .await;
        let sizes: Vec<i64> = serde_json::from_value(sizes).expect("four numbers");
        inner = json!([sizes[2], sizes[3]]);
        if inner == json!([width, height]) {
            return;
        }
        let outer = |size: i64, inner: i64, want: u32| (size - inner + i64::from(want)) as u32;
        client
            .set_window_size(
                outer(sizes[0], sizes[2], width),
                outer(sizes[1], sizes[3], height),
            )
            .await
            .expect("a window size");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(inner, json!([width, height]), "the viewport");
}

/// Fails unless every part named in `parts` has at least one box and every box lies inside
/// the window.
fn assert_on_screen(boxes: &Value, parts: &[&str], what: &str) {
    let num = |v: &Value| v.as_f64().expect("a number");
    let (width, height) = (num(&boxes["width"]), num(&boxes["height"]));
    assert_eq!(num(&boxes["scrolled"]), 0.0, "{what}: not scrolled");
    for part in parts {
        let list = boxes["parts"][part].as_array().expect("a list");
        assert!(!list.is_empty(), "{what}: no {part} on the page: {boxes}");
        for b in list {
            let b: Vec<f64> = b.as_array().expect("a box").iter().map(num).collect();
            assert!(
                b[0] >= -0.5 && b[1] >= -0.5 && b[2] <= width + 0.5 && b[3] <= height + 0.5,
                "{what}: the {part} at {b:?} is outside the {width}x{height} window"
            );
            assert!(b[3] > b[1], "{what}: the {part} has no height: {b:?}");
        }
    }
}

/// Opens Learn at `/?mode=learn&QUERY&step=STEP`, reads the boxes of its parts (a [`BOXES`])
/// and saves a screenshot named `shot`.
async fn boxes_at_step(page: &Page, query: &str, step: u32, shot: &str) -> Value {
    let label = format!("Step {step} of");
    open_learn(page, &format!("{query}&step={step}"), &label).await;
    let boxes = js(&page.client, BOXES).await;
    screenshot(page, shot).await;
    boxes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_laptop_every_algorithm_shows_its_step_code_and_arrays_on_one_screen() {
    page_or_skip!(page, client);
    // A step with a long explanation for each: a conflict (with its arithmetic; a queued board
    // for bfs, a try for bitboard) well into 8x8.
    let steps = [
        ("backtrack", 40),
        ("iterative", 40),
        ("recursive", 40),
        ("wirth", 40),
        ("bfs", 40),
        ("bitboard", 21),
    ];
    for (width, height) in [(1280, 800), (1366, 768)] {
        set_viewport(client, width, height).await;
        for (algo, step) in steps {
            let shot = format!("learn-{width}x{height}-{algo}");
            let boxes = boxes_at_step(&page, &format!("n=8&algo={algo}"), step, &shot).await;
            let mut parts = vec![
                "board",
                "step",
                "explanation",
                "running",
                "vars",
                "arrays",
                "step_button",
            ];
            if ["backtrack", "iterative", "recursive", "wirth"].contains(&algo) {
                parts.push("check");
            }
            assert_on_screen(&boxes, &parts, &format!("{algo} at {width}x{height}"));
            assert_eq!(
                boxes["clipped"],
                json!([]),
                "{algo} at {width}x{height}: code lines cut at the panel's side"
            );
        }
        // Compare: both searches' arrays, variables and arithmetic (a conflict of both).
        for (algo, other, step) in [("backtrack", "iterative", 40), ("wirth", "recursive", 40)] {
            let query = format!("n=8&algo={algo}&compare={other}");
            let shot = format!("learn-{width}x{height}-{algo}-{other}");
            let boxes = boxes_at_step(&page, &query, step, &shot).await;
            assert_on_screen(
                &boxes,
                &[
                    "board", "step", "running", "vars", "arrays", "check", "vars2", "arrays2",
                    "check2",
                ],
                &format!("{algo} beside {other} at {width}x{height}"),
            );
            assert_eq!(
                boxes["clipped"],
                json!([]),
                "{algo} beside {other} at {width}x{height}: code lines cut at the panel's side"
            );
            assert_eq!(
                boxes["arrays_cut"],
                json!([]),
                "{algo} beside {other} at {width}x{height}: arrays cut at the side"
            );
        }
        // The largest board Learn draws, with the longest listing.
        open_learn(&page, "n=12&algo=iterative&step=300", "Step 300 of").await;
        let boxes = js(client, BOXES).await;
        assert_on_screen(
            &boxes,
            &["board", "step", "explanation", "running", "arrays"],
            &format!("12x12 iterative at {width}x{height}"),
        );
    }
    // On a phone, the step's words and Step and Back are on the first screen with the board.
    set_viewport(client, 390, 844).await;
    open_learn(&page, "n=8&algo=backtrack&step=40", "Step 40 of").await;
    screenshot(&page, "learn-390x844-backtrack").await;
    let boxes = js(client, BOXES).await;
    assert_on_screen(
        &boxes,
        &[
            "board",
            "step",
            "explanation",
            "step_button",
            "back_button",
            "play_bar",
        ],
        "a phone",
    );
    // Scrolled down to the running lines, then to the arrays: each comes into view under the
    // board, which stays whole at the top of the screen.
    for target in [
        "#learn-code li.current",
        "#learn-arrays table",
        "#learn-check",
    ] {
        let seen = js(
            client,
            &format!(
                "const t = document.querySelector('{target}');
                 t.scrollIntoView({{ block: 'end' }});
                 const b = document.querySelector('#board svg').getBoundingClientRect();
                 const r = t.getBoundingClientRect();
                 const bar = document.querySelector('.learn-bar').getBoundingClientRect();
                 return {{ scrolled: scrollY, board: [b.top, b.bottom], target: [r.top, r.bottom],
                          bar: bar.top, height: innerHeight }};"
            ),
        )
        .await;
        let num = |v: &Value| v.as_f64().expect("a number");
        let (board_top, board_bottom) = (num(&seen["board"][0]), num(&seen["board"][1]));
        let (top, bottom) = (num(&seen["target"][0]), num(&seen["target"][1]));
        assert!(
            num(&seen["scrolled"]) > 0.0,
            "a phone, {target}: scrolled: {seen}"
        );
        assert!(
            board_top >= -0.5 && board_bottom <= num(&seen["height"]),
            "a phone, {target}: the board stays in view: {seen}"
        );
        assert!(
            top >= board_bottom - 0.5 && bottom <= num(&seen["bar"]) + 0.5,
            "a phone, {target}: in view between the board and the play bar: {seen}"
        );
    }
    screenshot(&page, "learn-390x844-backtrack-scrolled").await;
    assert_no_console_errors(client, page.driver_port, "on a laptop").await;
}

/// Focuses the element `id` from the page (as Tab would) and presses `keys` there.
async fn press_on(client: &fantoccini::Client, id: &str, keys: &str) {
    js(
        client,
        &format!("document.getElementById('{id}').focus(); return document.activeElement.id;"),
    )
    .await;
    press(client, keys).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_focused_control_keeps_its_keys_and_question_mark_lists_them() {
    page_or_skip!(page, client);
    open_learn(&page, "n=6&algo=backtrack", "Step 0 of").await;
    let playing = "document.getElementById('learn-play').getAttribute('aria-pressed')";

    // Space on a focused button presses that button, and does not play.
    press_on(client, "learn-step", SPACE).await;
    wait_for_text(client, "learn-step-label", "Step 1 of").await;
    assert_eq!(value_of(client, playing).await, json!("false"));
    assert_eq!(
        value_of(client, "document.activeElement.id").await,
        json!("learn-step"),
        "the button keeps the focus"
    );

    // Space on a checkbox ticks it.
    press_on(client, "learn-attacks", SPACE).await;
    wait_until(
        client,
        "return document.getElementById('learn-attacks').checked;",
        "Space ticks Shade attacks",
    )
    .await;
    assert_eq!(value_of(client, playing).await, json!("false"));
    assert_text_starts(client, "learn-step-label", "Step 1 of").await;

    // The arrows on the speed slider change the speed, not the step.
    press_on(client, "learn-speed", &ARROW_RIGHT.repeat(2)).await;
    wait_for_text(client, "learn-speed-out", "20 steps/s").await;
    assert_text_starts(client, "learn-step-label", "Step 1 of").await;

    // The arrows on a select change its value, and the select keeps the focus.
    press_on(client, "learn-algo", ARROW_DOWN).await;
    wait_until(
        client,
        "return document.getElementById('learn-algo').value === 'iterative';",
        "ArrowDown on the algorithm list chooses the next algorithm",
    )
    .await;
    wait_for_text(client, "learn-code-title", "Textbook loop").await;
    assert_eq!(
        value_of(client, "document.activeElement.id").await,
        json!("learn-algo")
    );

    // With no control focused, the arrows step and Space plays.
    js(client, "document.activeElement.blur(); return true;").await;
    wait_for_text(client, "learn-step-label", "Step 0 of").await;
    press(client, ARROW_RIGHT).await;
    wait_for_text(client, "learn-step-label", "Step 1 of").await;
    press(client, SPACE).await;
    wait_for_playing(client, true, "Space plays").await;
    press(client, SPACE).await;
    wait_for_playing(client, false, "Space pauses").await;

    // `?` shows the key list, with every shortcut; Escape closes it.
    press(client, "?").await;
    wait_until(
        client,
        "return document.getElementById('keys').open;",
        "? opens the keys",
    )
    .await;
    let keys = text(client, "keys").await;
    for key in ["?", "Space", "Home", "End", "\u{2190}", "\u{2192}", "Esc"] {
        assert!(keys.contains(key), "the key list names {key}: {keys}");
    }
    press(client, "\u{E00C}").await; // Escape
    wait_until(
        client,
        "return !document.getElementById('keys').open;",
        "Escape closes the keys",
    )
    .await;
    // Every shortcut of a button is in its title.
    let titles = js(
        client,
        "return [...document.querySelectorAll('#panel-learn [aria-keyshortcuts]')].map((b) => [b.getAttribute('aria-keyshortcuts'), b.title]);",
    )
    .await;
    let names = |key: &str| {
        match key {
            "ArrowLeft" => "Left",
            "ArrowRight" => "Right",
            "ArrowUp" => "Up",
            "ArrowDown" => "Down",
            other => other,
        }
        .to_string()
    };
    for pair in titles.as_array().expect("a list") {
        let shortcuts = pair[0].as_str().expect("the shortcuts");
        let title = pair[1].as_str().expect("a title");
        for key in shortcuts.split(' ') {
            assert!(
                title.contains(&names(key)),
                "the title '{title}' names {key}"
            );
        }
    }
    assert_no_console_errors(client, page.driver_port, "with the keys").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_runs_two_code_panels_and_says_where_the_searches_differ() {
    page_or_skip!(page, client);
    // backtrack and iterative: the same tries, transposed.
    open_learn(
        &page,
        "n=6&algo=backtrack&compare=iterative&step=10",
        "Step 10 of",
    )
    .await;
    wait_for_part(client, "learn-compare-note", "the same tries").await;
    let note = text(client, "learn-compare-note").await;
    assert!(note.contains("171 tries and 140 conflicts each"), "{note}");
    assert!(note.contains("mirrored in the main diagonal"), "{note}");
    let running = js(
        client,
        "return [document.querySelectorAll('#learn-code li.current').length, document.querySelectorAll('#learn-code2 li.current').length];",
    )
    .await;
    let counts: Vec<u64> = serde_json::from_value(running).expect("two counts");
    assert!(
        counts[0] >= 1 && counts[1] >= 1,
        "two running lines: {counts:?}"
    );
    assert_eq!(
        text(client, "learn-code-title2").await,
        "Textbook loop: search, findPosition, isValid"
    );
    wait_for_part(client, "learn-arrays2", "queens[k] = column of row k").await;
    assert_eq!(
        text(client, "learn-jump-who").await,
        "Jump in backtrack:",
        "the jumps say whose steps they follow"
    );
    let hidden = js(
        client,
        "return document.getElementById('learn-first-diff').hidden;",
    )
    .await;
    assert_eq!(hidden, json!(true), "no first difference to jump to");

    // iterative and wirth: the same steps on the same squares.
    open(&page, "/?mode=learn&n=6&algo=iterative&compare=wirth").await;
    wait_for_part(client, "learn-compare-note", "the same steps").await;

    // recursive and bitboard part early: the jump goes there and the step is marked.
    open(&page, "/?mode=learn&n=6&algo=recursive&compare=bitboard").await;
    wait_for_part(client, "learn-compare-note", "first differ at step").await;
    let note = text(client, "learn-compare-note").await;
    let at: usize = note
        .split("first differ at step ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or_else(|| panic!("a step number in '{note}'"));
    click(client, "learn-first-diff").await;
    wait_for_text(client, "learn-step-label", &format!("Step {at} of")).await;
    let marked = js(
        client,
        "return document.getElementById('learn-step-label').classList.contains('differs');",
    )
    .await;
    assert_eq!(marked, json!(true));
    // The steps before it agree, the step itself does not.
    let kinds = js(
        client,
        &format!(
            "return Promise.all(['recursive', 'bitboard'].map((a) => fetch(`/api/trace?n=6&algo=${{a}}&limit=100`).then((r) => r.json()))).then((t) => t.map((b) => b.events.slice(0, {at}).map((e) => [e.event, e.row, e.col])));"
        ),
    )
    .await;
    let both: Vec<Vec<Value>> = serde_json::from_value(kinds).expect("two traces");
    assert_eq!(both[0][..at - 1], both[1][..at - 1]);
    assert_ne!(both[0][at - 1], both[1][at - 1]);
    assert_no_console_errors(client, page.driver_port, "in Compare").await;
}

/// What each line of the COMP 333 loop writes, from its text (the test's own reading, not the
/// page's table): the arrays, or the loop variables.
fn writes(line: &str) -> &'static [&'static str] {
    match line {
        "col \u{2190} 0" | "col \u{2190} col \u{2212} 1" | "col \u{2190} col + 1" => &["col"],
        "row \u{2190} getUntried(col)" => &["row"],
        "setPositionTried(col)" | "setAllPositionsUntried(col)" => &["untried"],
        "setPosition(col, row)" | "setPosition(col, \u{2212}1)" => &["positions"],
        _ => &[],
    }
}

/// Steps through the whole trace in the page, collecting at each step the running lines, the
/// two arrays and the loop variables as shown.
const REPLAY: &str = "
  const cells = (i) => [...document.querySelector('#learn-arrays table').rows[i + 1].querySelectorAll('td')].map((td) => td.textContent).join(' ');
  const read = () => ({
    label: document.getElementById('learn-step-label').textContent,
    lines: [...document.querySelectorAll('#learn-code li.current')].map((li) => li.textContent.trim()),
    positions: cells(0), untried: cells(1),
    vars: document.getElementById('learn-vars').textContent,
  });
  const out = [read()];
  const step = document.getElementById('learn-step');
  while (!step.disabled) { step.click(); out.push(read()); }
  return out;";

/// Replays the whole backtrack trace of `n` and checks every step; returns the lines run.
async fn replay_backtrack(page: &Page, n: usize) -> (Vec<Value>, BTreeSet<String>) {
    let client = &page.client;
    open_learn(page, &format!("n={n}&algo=backtrack&all=1"), "Step 0 of").await;
    let steps = js(client, REPLAY).await;
    let steps = steps.as_array().expect("the steps").clone();
    let mut seen = BTreeSet::new();
    for pair in steps.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let lines: Vec<&str> = after["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| l.as_str().expect("a line"))
            .collect();
        assert!(!lines.is_empty(), "a running line at {}", after["label"]);
        seen.extend(lines.iter().map(|l| (*l).to_string()));
        let col = |v: &Value| {
            v["vars"]
                .as_str()
                .expect("vars")
                .split(',')
                .next()
                .map(str::to_string)
        };
        let row = |v: &Value| {
            v["vars"]
                .as_str()
                .expect("vars")
                .split(',')
                .nth(1)
                .map(str::to_string)
        };
        let mut changed = Vec::new();
        if before["positions"] != after["positions"] {
            changed.push("positions");
        }
        if before["untried"] != after["untried"] {
            changed.push("untried");
        }
        if col(before) != col(after) {
            changed.push("col");
        }
        // `row` is shown only in the pass that took it from getUntried: its going out of view
        // is no write.
        if row(after).is_some() && row(before) != row(after) {
            changed.push("row");
        }
        for what in changed {
            assert!(
                lines.iter().any(|l| writes(l).contains(&what)),
                "N = {n}, {}: {what} changed ({} to {}), but the running lines {lines:?} do not write it",
                after["label"],
                before[what].as_str().map_or_else(|| before["vars"].to_string(), str::to_string),
                after[what].as_str().map_or_else(|| after["vars"].to_string(), str::to_string),
            );
        }
    }
    (steps, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_every_step_the_running_lines_write_what_changed() {
    let page = page_or_skip!();
    let (steps, seen) = replay_backtrack(&page, 4).await;
    for line in [
        "setPosition(col, row)",
        "setPosition(col, \u{2212}1)",
        "col \u{2190} col + 1",
    ] {
        assert!(seen.contains(line), "{line} runs at some step: {seen:?}");
    }
    let last = steps.last().expect("a last step");
    assert_eq!(last["untried"], json!("0 0 0 0"));
    // N = 3 has no solution: its last step resets column 0 too.
    let (steps, _) = replay_backtrack(&page, 3).await;
    let last = steps.last().expect("a last step");
    assert_eq!(last["untried"], json!("0 0 0"));
    assert!(
        last["lines"]
            .as_array()
            .expect("lines")
            .contains(&json!("setAllPositionsUntried(col)")),
        "{last}"
    );
    assert!(
        last["vars"].as_str().expect("vars").starts_with("col = -1"),
        "{last}"
    );
    assert_no_console_errors(&page.client, page.driver_port, "replaying").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn learn_shows_the_seeds_arithmetic_and_goes_on_past_the_first_solution() {
    page_or_skip!(page, client);
    // 4x4, step 6: (1, 1) conflicts with (0, 0) on a diagonal.
    open_learn(&page, "n=4&algo=backtrack&step=6", "Step 6 of").await;
    assert_eq!(
        text(client, "learn-check").await,
        "hasConflictCumulative(1) at a = 0: diff = b \u{2212} a = 1 \u{2212} 0 = 1, pdiff = qp[b] \u{2212} qp[a] = 1 \u{2212} 0 = 1. pdiff = +diff: going from column a to column b the row moves as many squares as the column, so the queens share a diagonal (down to the right)."
    );
    assert_eq!(text(client, "learn-vars").await, "col = 1, row = 1");
    // The board's accessible name lists the queens column by column, as the array does.
    let name = js(
        client,
        "return document.querySelector('#board svg').getAttribute('aria-label');",
    )
    .await;
    assert!(
        name.as_str().expect("a name").ends_with(
            "Queens, column by column: column 0: row 0, column 1: none, column 2: none, column 3: none."
        ),
        "{name}"
    );
    // Its hover title lists them in the same order, as the panel's positions[col] does.
    let title = js(
        client,
        "return document.querySelector('#board svg > title').textContent;",
    )
    .await;
    assert_eq!(
        title,
        json!("4-queens search, step 6: rows by column 0 \u{2013} \u{2013} \u{2013}")
    );
    // At the first solution, Next solution goes on to the second one.
    open(&page, "/?mode=learn&n=4&algo=backtrack&step=end").await;
    wait_for_part(client, "learn-explain", "a solution!").await;
    click(client, "learn-next-solution").await;
    wait_until(
        client,
        "return document.getElementById('learn-all').checked;",
        "Next solution turns on the whole search",
    )
    .await;
    wait_for_part(client, "learn-counts", "2 solutions").await;
    wait_for_part(client, "learn-explain", "a solution!").await;
    assert!(address(client).await.contains("all=1"));
    let queens = board(client).await;
    assert_eq!(queens, [1, 3, 0, 2], "the second solution of 4x4, by row");
    click(client, "learn-next-solution").await;
    wait_for_part(client, "learn-explain", "the search ends, with 2 solutions").await;
    assert_no_console_errors(client, page.driver_port, "past the first solution").await;
}

/// The relative luminance of an sRGB colour and the contrast ratio of two, as WCAG 2 defines
/// them, computed by the page for every piece of text it shows against the colour behind it.
const CONTRAST: &str = "
  const parse = (c) => { const p = c.match(/[\\d.]+/g).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let base = { r: 255, g: 255, b: 255 };
    for (let i = layers.length - 1; i >= 0; i--) {
      const c = layers[i];
      base = { r: c.r * c.a + base.r * (1 - c.a), g: c.g * c.a + base.g * (1 - c.a), b: c.b * c.a + base.b * (1 - c.a) };
    }
    return base;
  };
  const low = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, [hidden], :disabled, dialog:not([open])')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const fg = parse(style.color);
    const bg = behind(el);
    const hi = Math.max(lum(fg), lum(bg));
    const lo = Math.min(lum(fg), lum(bg));
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked++;
    if (ratio < (large ? 3 : 4.5)) low.push([el.tagName, el.id, el.className, el.textContent.trim().slice(0, 40), style.color, Math.round(ratio * 100) / 100]);
  }
  return { checked, low };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_text_on_the_page_meets_wcag_aa_contrast() {
    page_or_skip!(page, client);
    for path in [
        "/?n=8",
        "/?mode=learn&n=6&algo=backtrack&compare=iterative&step=12",
        "/?mode=learn&n=6&algo=wirth&step=30",
        "/?mode=solve&n=8",
    ] {
        open(&page, path).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let result = js(client, CONTRAST).await;
        assert!(
            result["checked"].as_u64().expect("a count") > 10,
            "{path}: {result}"
        );
        assert_eq!(result["low"], json!([]), "{path}: text below AA contrast");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_640_by_400_the_play_bar_leaves_the_whole_board_and_the_words_in_view() {
    page_or_skip!(page, client);
    // A phone on its side, or a laptop zoomed to 200%: the play bar is fixed at the bottom.
    set_viewport(client, 640, 400).await;
    open_learn(&page, "n=8&algo=backtrack&step=38", "Step 38 of").await;
    // The board, at the top of the page, and then the step's words, scrolled to, each stand
    // whole above the play bar.
    let script = "if (arguments[0]) document.getElementById(arguments[0]).scrollIntoView({ block: 'nearest' });
      const b = document.querySelector(arguments[1]).getBoundingClientRect();
      const bar = document.querySelector('.learn-bar').getBoundingClientRect();
      return { part: [b.top, b.bottom, b.width], bar: bar.top, scrolled: scrollY };";
    for (scroll_to, part) in [("", "#board svg"), ("learn-explain", "#learn-explain")] {
        let seen = client
            .execute(script, vec![json!(scroll_to), json!(part)])
            .await
            .expect("the boxes");
        let num = |v: &Value| v.as_f64().expect("a number");
        let (top, bottom, width) = (
            num(&seen["part"][0]),
            num(&seen["part"][1]),
            num(&seen["part"][2]),
        );
        assert!(
            top >= -0.5 && bottom <= num(&seen["bar"]) + 0.5 && width >= 200.0,
            "{part} stands whole above the play bar: {seen}"
        );
    }
    finish(&page, "at 640x400").await;
}
