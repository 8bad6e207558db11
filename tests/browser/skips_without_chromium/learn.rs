//! Learn: the address, the steps, the jumps, the code line, compare, the phone.

use serde_json::{json, Value};

use crate::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn learn_opens_at_the_address_steps_jumps_and_shows_the_code_line() {
    page_or_skip!(page, client);
    open_learn(&page, "n=8&algo=iterative&step=25", "Step 25 of 1,963").await;
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
    wait_for_text(client, "learn-step-label", "Step 26 of 1,963").await;
    assert!(address(client)
        .await
        .ends_with("/?mode=learn&n=8&algo=iterative&step=26"));

    // Space after clicking Step plays (the button gave the focus back), Space again pauses.
    press(client, SPACE).await;
    wait_for_playing(client, true, "Space after Step plays").await;
    press(client, SPACE).await;
    wait_for_playing(client, false, "Space again pauses").await;

    // The jumps.
    click(client, "learn-start").await;
    click(client, "learn-next-place").await;
    wait_for_text(client, "learn-step-label", "Step 2 of").await;
    assert_eq!(code_line(client).await, "queens[k] \u{2190} j");
    click(client, "learn-next-back").await;
    wait_for_part(client, "learn-explain", "Every square of row").await;
    assert_eq!(code_line(client).await, "k \u{2190} k \u{2212} 1");
    click(client, "learn-next-solution").await;
    wait_for_text(client, "learn-step-label", "Step 1,963 of 1,963").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "A queen on every row and none attacks another: a solution! Tick \u{201c}Every solution\u{201d} (or press Next solution) to go on to the next one."
    );
    click(client, "learn-back").await;
    wait_for_text(client, "learn-step-label", "Step 1,962 of 1,963").await;

    // Arrow keys after choosing in a select step the search; they leave the select alone.
    choose(client, "learn-algo", "wirth").await;
    wait_for_text(client, "learn-code-title", "Wirth").await;
    wait_for_text(client, "learn-step-label", "Step 0 of").await;
    press(client, &ARROW_RIGHT.repeat(3)).await;
    wait_for_text(client, "learn-step-label", "Step 3 of").await;
    let algo = value_of(client, "document.getElementById('learn-algo').value").await;
    assert_eq!(algo, json!("wirth"));
    assert_eq!(code_line(client).await, "for j \u{2190} 0 to N \u{2212} 1:");

    // The line run at a known step of every algorithm (4x4: see `queens trace 4`).
    let known = [
        (
            "backtrack",
            17,
            "if getUntried(col) = N: | setAllPositionsUntried(col) | col \u{2190} col \u{2212} 1 | if col < 0: return \"no solution\"",
        ),
        ("backtrack", 18, "setPosition(col, \u{2212}1)"),
        (
            "backtrack",
            1,
            "row \u{2190} getUntried(col) | setPositionTried(col)",
        ),
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
        open_learn(
            &page,
            &format!("n=4&algo={algo}&step={step}"),
            &format!("Step {step} of"),
        )
        .await;
        assert_eq!(code_line(client).await, line, "{algo} at step {step}");
    }
    // The first-untried array from step 0: every row untried.
    open_learn(&page, "n=4&algo=backtrack", "Step 0 of").await;
    wait_for_part(client, "learn-arrays", "untried[col]").await;
    let untried = js(
        client,
        "return [...document.querySelector('#learn-arrays table').rows[2].querySelectorAll('td')].map((td) => td.textContent).join(' ');",
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
    assert_eq!(
        boards_drawn(client).await,
        0,
        "no other board instead of the 20x20 one"
    );
    // A size is digits: anything else in the address is said to be no size, never read as
    // another board (`1e1` was 10) nor replaced by the default without a word.
    for (asked, said) in [
        ("abc", "n must be a whole number from 1 to 12, not \"abc\"."),
        ("0", "n must be a whole number from 1 to 12, not \"0\"."),
        ("1e1", "n must be a whole number from 1 to 12, not \"1e1\"."),
        (
            "99999999999999999999",
            "N = 99999999999999999999 is above the Learn limit of 12.",
        ),
    ] {
        open(&page, &format!("/?mode=learn&n={asked}")).await;
        wait_for_text(client, "learn-explain", said).await;
        assert_eq!(boards_drawn(client).await, 0, "n={asked}");
    }
    finish(&page, "in Learn").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_shows_two_boards_with_the_textbook_counts() {
    page_or_skip!(page, client);
    open_learn(&page, "n=8&algo=iterative&compare=wirth", "Step 0 of 1,963").await;
    click(client, "learn-end").await;
    wait_for_text(client, "learn-step-label", "Step 1,963 of 1,963").await;
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
    finish(&page, "in Compare").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_board_and_the_explanation_share_the_screen() {
    page_or_skip!(page, client);
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    open_learn(&page, "n=8&algo=backtrack&step=4", "Step 4 of").await;
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
    finish(&page, "on a phone").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_words_one_step_a_second_thousands_and_no_untried_row_left() {
    page_or_skip!(page, client);
    // Step 74 of 8x8 takes the queen off (7, 4), the column's last row: no untried row is left.
    open_learn(&page, "n=8&algo=backtrack&step=74", "Step 74 of 1,963").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "Back in column 4: take its queen off row 7, column 4 (setPosition(4, \u{2212}1)) and try \
         its next untried row: there is none (untried[4] = 8), so the search backs up from column 4 \
         next."
    );
    click(client, "learn-step").await;
    wait_for_part(
        client,
        "learn-explain",
        "Every row of column 4 has been tried",
    )
    .await;
    // A row-wise search's last square of a row.
    // (`queens trace 4 --algo iterative`: step 40 removes (1, 3), step 41 backs up from row 1.)
    open_learn(&page, "n=4&algo=iterative&step=40", "Step 40 of").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "Take the queen off row 1, column 3: it was the last square of row 1, so the search backs \
         up from that row next."
    );
    open_learn(&page, "n=4&algo=iterative&step=18", "Step 18 of").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "Take the queen off row 1, column 2 and look further along its row."
    );
    // The slowest speed is one step a second.
    js(
        client,
        "const s = document.getElementById('learn-speed'); s.value = '0'; s.dispatchEvent(new Event('input')); return true;",
    )
    .await;
    assert_eq!(text(client, "learn-speed-out").await, "1 step/s");
    let spoken = value_of(
        client,
        "document.getElementById('learn-speed').getAttribute('aria-valuetext')",
    )
    .await;
    assert_eq!(spoken, json!("1 step a second"));
    finish(&page, "with the small words").await;
}

/// Wirth's table of a, b and c: the caption, then each row as [name, its values, the cells
/// marked as read ("3") or read and false ("4!")], and the conflict test in words.
const WIRTH_TABLE: &str = "const t = [...document.querySelectorAll('#learn-arrays table')].find((t) => t.caption.textContent.startsWith('a[j]'));
  const rows = [...t.querySelectorAll('tr')];
  return { caption: t.caption.textContent, indexes: rows[0].querySelectorAll('th').length - 1,
           rows: rows.slice(1).map((tr) => [tr.querySelector('th').textContent,
             [...tr.querySelectorAll('td')].map((td) => td.textContent).join(' '),
             [...tr.querySelectorAll('td')].flatMap((td, i) => td.classList.contains('read-false') ? [i + '!'] : td.classList.contains('read') ? [String(i)] : [])]),
           check: document.getElementById('learn-check').textContent };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wirth_marks_the_entries_of_a_b_and_c_that_its_test_reads() {
    page_or_skip!(page, client);
    // `queens trace 6 --algo wirth`: queens on (0, 0) and (1, 2); step 12 is the conflict of
    // (2, 1) on the ↙ diagonal 3 of (1, 2), step 16 that of (2, 3) on the ↘ diagonal
    // c[2 − 3 + 5] = c[4] of (1, 2), and step 18 places (2, 4).
    let a = "F T F T T T";
    let b = "F T T F T T T T T T T";
    let c = "T T T T F F T T T T T";
    let cases = [
        // The test reads a[1] (true), then b[3] (false) and stops: c is not read.
        (
            12,
            json!([["a", a, ["1"]], ["b", b, ["3!"]], ["c", c, []]]),
            "At i = 2, j = 1 the test reads a[1] = T, b[3] = F and stops at the first F.",
        ),
        // a[3] and b[5] true, c[4] false.
        (
            16,
            json!([["a", a, ["3"]], ["b", b, ["5"]], ["c", c, ["4!"]]]),
            "At i = 2, j = 3 the test reads a[3] = T, b[5] = T, c[4] = F and stops at the first F.",
        ),
        // The try shows no read: the test runs at the step after it.
        (
            17,
            json!([["a", a, []], ["b", b, []], ["c", c, []]]),
            "",
        ),
        // A placement: a[4], b[6], c[2 − 4 + 5] = c[3] were read true and are now false.
        (
            18,
            json!([
                ["a", "F T F T F T", ["4"]],
                ["b", "F T T F T T F T T T T", ["6"]],
                ["c", "T T T F F F T T T T T", ["3"]]
            ]),
            "At i = 2, j = 4 the test reads a[4] = T, b[6] = T, c[3] = T: all true, so x[i] \u{2190} j and the three become F.",
        ),
    ];
    for (step, rows, check) in cases {
        open_learn(
            &page,
            &format!("n=6&algo=wirth&step={step}"),
            &format!("Step {step} of"),
        )
        .await;
        let table = js(client, WIRTH_TABLE).await;
        assert_eq!(
            table["caption"],
            json!("a[j]: column j free; b[i+j]: diagonal \u{2199} free; c[i\u{2212}j+N\u{2212}1]: diagonal \u{2198} free"),
            "step {step}: {table}"
        );
        assert_eq!(
            table["indexes"],
            json!(11),
            "step {step}: 2N − 1 indexes: {table}"
        );
        assert_eq!(table["rows"], rows, "step {step}: {table}");
        assert_eq!(table["check"], json!(check), "step {step}: {table}");
    }
    finish(&page, "with Wirth's arrays").await;
}

/// What a trace's load leaves on the page: the status beside the step label and its role,
/// the step label, how many boards are drawn, whether Step waits, whether "Try again" shows,
/// whether a code listing shows and whether the board is marked busy (and the stage greyed).
const LOAD_STATE: &str = "const $ = (id) => document.getElementById(id);
  return { status: $('learn-load').textContent, role: $('learn-load').getAttribute('role'),
           label: $('learn-step-label').textContent, boards: document.querySelectorAll('#board svg').length,
           step_waits: $('learn-step').disabled, retry: !$('learn-retry').hidden,
           code: !$('learn-searches').hidden && $('learn-code').children.length > 0,
           busy: $('board-wrap').getAttribute('aria-busy') === 'true'
             && document.querySelector('.stage').classList.contains('learn-loading') };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_or_failed_trace_says_so_beside_the_step_and_try_again_retries() {
    page_or_skip!(page, client);
    open_learn(&page, "n=6&algo=backtrack&step=30", "Step 30 of 393").await;
    // Every trace fails to load, as when the server has stopped.
    js(
        client,
        "window.realFetch = window.fetch;
         window.fetch = (url, ...rest) => String(url).startsWith('/api/trace')
           ? Promise.reject(new TypeError('Failed to fetch')) : window.realFetch(url, ...rest);
         return true;",
    )
    .await;
    choose(client, "learn-size", "7").await;
    wait_for_text(
        client,
        "learn-load",
        "Could not load the 7 \u{d7} 7 trace: Failed to fetch.",
    )
    .await;
    // No stale board or step under the new size; the buttons wait; "Try again" is offered.
    let seen = js(client, LOAD_STATE).await;
    assert_eq!(seen["role"], json!("status"), "{seen}");
    assert_eq!(seen["label"], json!(""), "{seen}");
    assert_eq!(seen["boards"], json!(0), "{seen}");
    assert_eq!(seen["step_waits"], json!(true), "{seen}");
    assert_eq!(seen["retry"], json!(true), "{seen}");
    assert_eq!(seen["code"], json!(false), "{seen}");

    // A slow trace: the page says it is loading and greys the stage until it comes.
    js(
        client,
        "window.fetch = (url, ...rest) => new Promise((done) => setTimeout(done, 2000))
           .then(() => window.realFetch(url, ...rest));
         return true;",
    )
    .await;
    click(client, "learn-retry").await;
    wait_for_text(client, "learn-load", "Loading the 7 \u{d7} 7 trace").await;
    let seen = js(client, LOAD_STATE).await;
    assert_eq!(seen["busy"], json!(true), "{seen}");
    assert_eq!(seen["retry"], json!(false), "{seen}");
    wait_for_text(client, "learn-step-label", "Step 0 of").await;
    let seen = js(client, LOAD_STATE).await;
    assert_eq!(seen["status"], json!(""), "{seen}");
    assert_eq!(seen["busy"], json!(false), "{seen}");
    assert_eq!(seen["boards"], json!(1), "{seen}");
    assert_eq!(seen["code"], json!(true), "{seen}");
    finish(&page, "loading a trace").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bfs_taking_a_full_board_off_the_queue_says_k_is_n_and_a_solution() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo bfs`: step 49 takes the full board 1 3 0 2 off the queue; with
    // every solution, step 51 takes the other one.
    let cases = [
        (
            "n=4&algo=bfs&step=49",
            "Step 49 of",
            "k = 4, queue = 1 board",
        ),
        (
            "n=4&algo=bfs&all=1&step=51",
            "Step 51 of",
            "k = 4, queue = 0 boards",
        ),
    ];
    for (query, label, vars) in cases {
        open_learn(&page, query, label).await;
        assert_eq!(text(client, "learn-vars").await, vars, "{query}");
        assert_text_starts(
            client,
            "learn-explain",
            "Take the next board off the queue: every row is filled, so it is a solution",
        )
        .await;
        let queue = js(
            client,
            "return document.querySelector('#learn-arrays .queue').textContent;",
        )
        .await;
        let queue = queue.as_str().expect("text");
        assert!(
            queue.contains("the board taken out is full: a solution") && !queue.contains("row 4"),
            "{queue}"
        );
    }
    finish(&page, "with a full board off the queue").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bitboard_backs_up_when_no_free_square_is_left_in_the_row() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo bitboard`: step 12 takes the queen off (2, 1); with queens on
    // (0, 0) and (1, 3) no square of row 2 past column 1 is free, and step 13 backs up.
    open_learn(&page, "n=4&algo=bitboard&step=12", "Step 12 of").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "Take the queen off row 2, column 1: no free square of row 2 is left past it, so the \
         search backs up from that row next."
    );
    click(client, "learn-step").await;
    wait_for_text(client, "learn-explain", "Row 2 has no free square left.").await;
    // Step 6 takes the queen off (1, 2); (1, 3) is still free, and step 7 tries it.
    open_learn(&page, "n=4&algo=bitboard&step=6", "Step 6 of").await;
    assert_eq!(
        text(client, "learn-explain").await,
        "Take the queen off row 1, column 2 and look further along its row."
    );
    click(client, "learn-step").await;
    wait_for_text(client, "learn-explain", "Try the square at row 1, column 3").await;
    finish(&page, "with bitboard's free squares").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backtrack_conflict_marks_only_what_the_test_looked_at() {
    page_or_skip!(page, client);
    let tags = "return [...document.querySelectorAll('#board .tag')].map((g) => `${g.dataset.row},${g.dataset.col} ${g.textContent}`).sort();";
    // `queens trace 6`, step 20: (0, 3) against the queens of columns 0 to 2 (rows 0, 2, 4);
    // the test stops at the first, (0, 0), on its row: columns 1 and 2 are not looked at.
    open_learn(&page, "n=6&algo=backtrack&step=20", "Step 20 of").await;
    wait_for_part(client, "learn-explain", "stops at the first attacker").await;
    assert_eq!(
        js(client, tags).await,
        json!(["0,0 R!", "0,3 Q?", "3,0 D?"])
    );
    // The try before it marks every square the test may check, as the seed's figure does.
    click(client, "learn-back").await;
    wait_for_text(client, "learn-step-label", "Step 19 of").await;
    assert_eq!(
        js(client, tags).await,
        json!(["0,0 R!", "0,1 R?", "0,2 R?", "0,3 Q?", "1,2 D?", "2,1 D!", "3,0 D?"])
    );
    finish(&page, "with the conflict's figure").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_focused_board_takes_a_cursor_that_pins_a_square_without_a_mouse() {
    page_or_skip!(page, client);
    // `queens trace 6`, step 4: (0, 1) in conflict with the queen on (0, 0).
    open_learn(&page, "n=6&algo=backtrack&step=4", "Step 4 of").await;
    // The state's arrays are a named group.
    let role = value_of(
        client,
        "document.getElementById('learn-arrays').getAttribute('role')",
    )
    .await;
    assert_eq!(role, json!("group"));
    // Tab reaches the board; on it the arrows move a cursor instead of stepping.
    let tab_stop = value_of(client, "document.getElementById('board').tabIndex").await;
    assert_eq!(tab_stop, json!(0), "the board is a tab stop in Learn");
    js(
        client,
        "document.getElementById('board').focus(); return true;",
    )
    .await;
    wait_for_part(client, "learn-cursor", "Enter or Space").await;
    press(client, &format!("{ARROW_DOWN}{ARROW_DOWN}{ARROW_RIGHT}")).await;
    wait_for_text(client, "learn-cursor", "Cursor on row 2, column 1: empty.").await;
    assert_text_starts(client, "learn-step-label", "Step 4 of").await;
    let cursor = "const g = document.querySelector('#board .board-cursor'); return g && [g.dataset.row, g.dataset.col];";
    assert_eq!(js(client, cursor).await, json!(["2", "1"]));
    // Enter pins the square: what a queen there would attack is shaded; Space unpins it.
    let pinned = "return [...document.querySelectorAll('#board rect.square.pinned')].map((r) => [r.dataset.row, r.dataset.col]);";
    press(client, "\u{E007}").await;
    wait_for_part(client, "learn-cursor", "pinned").await;
    assert_eq!(js(client, pinned).await, json!([["2", "1"]]));
    let shaded = js(
        client,
        "return document.querySelectorAll('#board rect.square.attacked').length;",
    )
    .await;
    assert!(shaded.as_u64() > Some(0), "the attacks are shaded");
    press(client, SPACE).await;
    wait_for_part(client, "learn-cursor", "unpinned").await;
    assert_eq!(js(client, pinned).await, json!([]));
    press(client, "\u{E013}\u{E013}\u{E012}").await;
    wait_for_text(
        client,
        "learn-cursor",
        "Cursor on row 0, column 0: a queen.",
    )
    .await;
    // Esc leaves the board: the arrows step again.
    press(client, "\u{E00C}").await;
    let on_board = value_of(
        client,
        "document.activeElement === document.getElementById('board')",
    )
    .await;
    assert_eq!(on_board, json!(false));
    press(client, ARROW_RIGHT).await;
    wait_for_text(client, "learn-step-label", "Step 5 of").await;
    assert_eq!(
        js(client, cursor).await,
        json!(null),
        "no cursor off the board"
    );
    finish(&page, "pinning with the keyboard").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bfs_counts_the_boards_queued_alike_under_the_board_and_in_the_note() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo bfs` queues 17 boards: the empty board, then 16 with a queen more.
    open_learn(&page, "n=4&algo=bfs&step=end", "Step 50 of 50").await;
    assert_eq!(
        text(client, "learn-counts").await,
        "bfs: 16 tries, 0 conflicts, 17 boards queued, 0 backtracks"
    );
    wait_for_part(
        client,
        "learn-note",
        "17 boards queued (the empty board among them)",
    )
    .await;
    // The first step queues the empty board, and counts it.
    open_learn(&page, "n=4&algo=bfs&step=1", "Step 1 of 50").await;
    wait_for_part(client, "learn-counts", "1 board queued").await;
    finish(&page, "with the boards queued").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_traces_note_goes_on_in_lower_case_after_its_colon() {
    page_or_skip!(page, client);
    // Every solution of 9x9 takes 161,542 steps, more than the 100,000 the page loads.
    open_learn(&page, "n=9&algo=backtrack&all=1", "Step 0 of").await;
    wait_for_part(
        client,
        "learn-note",
        "the whole search takes 161,542 steps: the backtrack search of the 9\u{d7}9 board to its end",
    )
    .await;
    finish(&page, "with a cut trace").await;
}

/// The size the size box shows, and whether the code panel shows.
const SIZE_SHOWN: &str = "const s = document.getElementById('learn-size');
  return { shown: s.selectedOptions[0].textContent, code: !document.getElementById('learn-searches').hidden };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_size_above_the_limit_shows_in_the_size_box_and_any_size_chosen_loads() {
    page_or_skip!(page, client);
    let sizes: Vec<String> = (1..=12).map(|n| n.to_string()).collect();
    open(&page, "/?mode=learn&n=13").await;
    wait_for_text(
        client,
        "learn-explain",
        "N = 13 is above the Learn limit of 12.",
    )
    .await;
    assert_eq!(
        js(client, SIZE_SHOWN).await,
        json!({ "shown": "13 \u{d7} 13 (too large)", "code": false })
    );
    // Another algorithm changes nothing while the size is too large.
    choose(client, "learn-algo", "wirth").await;
    assert!(address(client).await.contains("n=13&algo=wirth"));
    assert_eq!(boards_drawn(client).await, 0);
    // 6x6, the size shown by default elsewhere, loads: the box no longer offers 13.
    choose(client, "learn-size", "6").await;
    wait_for_text(client, "learn-step-label", "Step 0 of").await;
    assert_eq!(
        js(client, SIZE_SHOWN).await,
        json!({ "shown": "6 \u{d7} 6", "code": true })
    );
    assert_eq!(options(client, "learn-size").await, sizes);
    // An n that is no size says so in the box too.
    open(&page, "/?mode=learn&n=abc").await;
    wait_for_part(client, "learn-explain", "not \"abc\"").await;
    assert_eq!(
        js(client, SIZE_SHOWN).await,
        json!({ "shown": "n=abc (not a size)", "code": false })
    );
    finish(&page, "with a size above the limit").await;
}
