//! Learn's quiz: the student says where the search tries next (`quiz=where`), by a click or by
//! the keyboard, and the page keeps the score, corrects a wrong answer and keeps the quiz in
//! the address; a compared search waits, hidden, while a question is open.

use serde_json::json;

use crate::*;

const ENTER: &str = "\u{E007}";
const ARROW_LEFT: &str = "\u{E012}";
const ARROW_UP: &str = "\u{E013}";

/// The tries of `queens trace 5` (backtrack, up to the first solution), in order.
const TRIES_5: [(usize, usize); 15] = [
    (0, 0),
    (0, 1),
    (1, 1),
    (2, 1),
    (0, 2),
    (1, 2),
    (2, 2),
    (3, 2),
    (4, 2),
    (0, 3),
    (1, 3),
    (0, 4),
    (1, 4),
    (2, 4),
    (3, 4),
];

/// Clicks square (r, c) of the main board.
async fn click_square(client: &fantoccini::Client, r: usize, c: usize) {
    let square = format!("#board rect.square[data-row='{r}'][data-col='{c}']");
    click_css(client, &square, &format!("the square ({r}, {c})")).await;
}

/// Moves the quiz's cursor to (r, c) with the arrow keys and answers with Enter.
async fn answer_with_keys(client: &fantoccini::Client, r: usize, c: usize) {
    let cursor = js(
        client,
        "const g = document.querySelector('#board .quiz-cursor'); return g ? [Number(g.dataset.row), Number(g.dataset.col)] : null;",
    )
    .await;
    let at = |i: usize| {
        usize::try_from(cursor[i].as_u64().expect("the cursor is on the board")).expect("small")
    };
    let (cr, cc) = (at(0), at(1));
    let mut keys = String::new();
    keys.push_str(&(if r > cr { ARROW_DOWN } else { ARROW_UP }).repeat(r.abs_diff(cr)));
    keys.push_str(&(if c > cc { ARROW_RIGHT } else { ARROW_LEFT }).repeat(c.abs_diff(cc)));
    keys.push_str(ENTER);
    press(client, &keys).await;
}

async fn wait_for_question(client: &fantoccini::Client, k: usize) {
    wait_for_text(client, "learn-quiz-prompt", &format!("Question {k}:")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_right_answers_then_a_wrong_one_score_10_of_11_with_the_correction() {
    page_or_skip!(page, client);
    open_learn(&page, "n=5&algo=backtrack&quiz=where", "Step 0 of 31").await;
    wait_for_question(client, 1).await;
    assert_text_starts(client, "learn-quiz-score", "Score: 0 of 0").await;
    let step_disabled = "document.getElementById('learn-step').disabled";
    assert_eq!(
        value_of(client, step_disabled).await,
        json!(true),
        "the search waits for the answer"
    );

    for (k, &(r, c)) in TRIES_5.iter().enumerate().take(10) {
        let k = k + 1;
        wait_for_question(client, k).await;
        // Odd questions by a click, even ones by the keyboard.
        if k % 2 == 1 {
            click_square(client, r, c).await;
        } else {
            answer_with_keys(client, r, c).await;
        }
        wait_for_text(
            client,
            "learn-quiz-score",
            &format!("Score: {k} of {k} \u{b7} streak {k}"),
        )
        .await;
        assert_text_starts(
            client,
            "learn-quiz-feedback",
            &format!("Right: the search tries row {r}, column {c}."),
        )
        .await;
        if k == 1 {
            // Play goes on and stops before the next try: question 2.
            press(client, SPACE).await;
            wait_for_question(client, 2).await;
            wait_for_playing(client, false, "the search stops at the question").await;
        } else if k % 2 == 1 {
            click(client, "learn-quiz-next").await;
        } else {
            press(client, ENTER).await;
        }
    }
    wait_for_question(client, 11).await;
    assert_text_starts(client, "learn-quiz-score", "Score: 10 of 10").await;

    // Question 11: (1, 3) is right; (4, 3) is not.
    click_square(client, 4, 3).await;
    wait_for_text(
        client,
        "learn-quiz-score",
        "Score: 10 of 11 \u{b7} streak 0",
    )
    .await;
    assert_eq!(
        text(client, "learn-quiz-feedback").await,
        "Not row 4, column 3: the search tries row 1, column 3. Why: setPosition(3, 0) puts the queen \
         on row 0, column 3; hasConflictCumulative checks columns 0 to 2 in order and stops at the \
         first attacker: the queen at row 0, column 0, on its row. So setPosition(3, \u{2212}1) takes \
         it off. Only row 0 is ruled out: next, row 1 of column 3. Try the first untried row of \
         column 3: row 1, column 3 (row \u{2190} getUntried(3) = 1; setPositionTried: untried[3] \
         becomes 2)."
    );
    // The board shows the right square being tried and the wrong choice crossed out.
    assert_text_starts(
        client,
        "learn-explain",
        "Try the first untried row of column 3: row 1, column 3",
    )
    .await;
    let marks = js(
        client,
        "const w = document.querySelector('#board .quiz-wrong'); return [document.querySelector('#board rect.square.tried[data-row=\"1\"][data-col=\"3\"]') !== null, w && [w.dataset.row, w.dataset.col]];",
    )
    .await;
    assert_eq!(marks, json!([true, ["4", "3"]]));
    // The address keeps the quiz, the score and the question to come.
    let url = address(client).await;
    assert!(
        url.contains("quiz=where&q=12&right=10&of=11&streak=0"),
        "{url}"
    );

    // A teacher's link to question 12 of N = 6 opens there, the score empty.
    open_learn(&page, "n=6&algo=backtrack&quiz=where&q=12", "Step ").await;
    wait_for_question(client, 12).await;
    assert_text_starts(client, "learn-quiz-score", "Score: 0 of 0").await;
    assert!(address(client).await.contains("quiz=where&q=12"));
    finish(&page, "in the quiz").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_algorithm_asks_where_it_tries_next() {
    page_or_skip!(page, client);
    // The first two tries of each search of 4x4 (`queens trace 4 --algo A`).
    let cases = [
        ("backtrack", (0, 1)),
        ("iterative", (1, 0)),
        ("recursive", (1, 0)),
        ("wirth", (1, 0)),
        ("bfs", (0, 1)),
        ("bitboard", (1, 2)),
    ];
    for (algo, (r, c)) in cases {
        open_learn(&page, &format!("n=4&algo={algo}&quiz=where"), "Step ").await;
        wait_for_question(client, 1).await;
        click_square(client, 0, 0).await;
        wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
        press(client, ENTER).await;
        wait_for_question(client, 2).await;
        answer_with_keys(client, r, c).await;
        wait_for_text(client, "learn-quiz-score", "Score: 2 of 2").await;
        assert_text_starts(client, "learn-quiz-feedback", "Right:").await;
    }
    // Switching the quiz on from the control starts at the next try.
    open_learn(&page, "n=8&algo=wirth&step=4", "Step 4 of").await;
    choose(client, "learn-quiz", "where").await;
    wait_for_question(client, 3).await;
    assert_text_starts(client, "learn-step-label", "Step 4 of").await;
    assert!(address(client).await.contains("quiz=where&q=3"));
    finish(&page, "in the quiz of every algorithm").await;
}

/// Presses `key` with no control focused, as a student at the keyboard would.
async fn press_on_page(client: &fantoccini::Client, key: &str) {
    js(client, "document.activeElement.blur(); return true;").await;
    press(client, key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_verdict_quiz_asks_place_conflict_with_whom_or_back_up() {
    page_or_skip!(page, client);
    // `queens trace 4`: 1 try (0, 0), 2 place; 3 try (0, 1), 4 conflict along the row with
    // (0, 0); 5 try (1, 1), 6 diagonal with (0, 0); 7 try (2, 1), 8 place; 9 try (0, 2), 10 row
    // with (0, 0); 11 try (1, 2), 12 diagonal with (2, 1); 13 try (2, 2), 14 diagonal with
    // (0, 0); 15 try (3, 2), 16 diagonal with (2, 1), 17 backtrack.
    super::learn_layout::set_viewport(client, 1280, 800).await;
    open_learn(&page, "n=4&algo=backtrack&quiz=verdict", "Step 1 of").await;
    // At 1280x800 the board, the question, its answers and the score share the screen.
    let boxes = js(
        client,
        "const r = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return [b.top, b.bottom, b.width]; };
         return { board: r('board'), quiz: r('learn-quiz-box'), back: r('learn-verdict-back'), height: innerHeight };",
    )
    .await;
    let num = |v: &serde_json::Value| v.as_f64().expect("a number");
    assert!(
        num(&boxes["quiz"][1]) <= num(&boxes["height"]),
        "the quiz is on screen: {boxes}"
    );
    assert!(
        num(&boxes["back"][1]) <= num(&boxes["height"]),
        "its answers too: {boxes}"
    );
    assert!(
        num(&boxes["board"][2]) >= 300.0,
        "the board stays large: {boxes}"
    );
    wait_for_text(
        client,
        "learn-quiz-prompt",
        "Question 1: the search tries row 0, column 0. What happens next?",
    )
    .await;
    assert_text_starts(client, "learn-verdict-line", "Conflict: their row").await;
    click(client, "learn-verdict-place").await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert_text_starts(
        client,
        "learn-quiz-feedback",
        "Right: setPosition(0, 0) puts the queen on row 0, column 0; no earlier queen attacks it",
    )
    .await;
    assert_text_starts(client, "learn-step-label", "Step 2 of").await;

    // Question 2: a conflict along the row; an empty square is no answer, the queen is.
    press_on_page(client, ENTER).await;
    wait_for_question(client, 2).await;
    press_on_page(client, "l").await;
    wait_for_part(
        client,
        "learn-quiz-prompt",
        "which queen attacks row 0, column 1 along their row?",
    )
    .await;
    click_square(client, 3, 3).await;
    wait_for_text(
        client,
        "learn-quiz-feedback",
        "There is no queen at row 3, column 3",
    )
    .await;
    assert_text_starts(client, "learn-quiz-score", "Score: 1 of 1").await;
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 2 of 2").await;

    // Question 3: a diagonal, the queen named with the keyboard.
    press(client, ENTER).await;
    wait_for_question(client, 3).await;
    click(client, "learn-verdict-diagonal").await;
    wait_for_part(client, "learn-quiz-prompt", "along their diagonal?").await;
    answer_with_keys(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 3 of 3").await;

    // Question 4: (2, 1) is safe; a conflict is wrong, and the correction says why.
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 4).await;
    press_on_page(client, "d").await;
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 3 of 4 \u{b7} streak 0").await;
    assert_eq!(
        text(client, "learn-quiz-feedback").await,
        "Not a conflict along their diagonal with the queen at row 0, column 0: setPosition(1, 2) \
         puts the queen on row 2, column 1; no earlier queen attacks it, so keep it and go on to \
         column 2."
    );

    // Question 5: (0, 2) is attacked along its row, not the end of the column.
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 5).await;
    click(client, "learn-verdict-back").await;
    wait_for_text(client, "learn-quiz-score", "Score: 3 of 5").await;
    assert_text_starts(client, "learn-quiz-feedback", "Not back up: setPosition(2, 0) puts the queen on row 0, column 2; hasConflictCumulative checks columns 0 to 1 in order and stops at the first attacker: the queen at row 0, column 0, on its row").await;

    // Question 6: the diagonal with (2, 1).
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 6).await;
    click(client, "learn-verdict-diagonal").await;
    click_square(client, 2, 1).await;
    wait_for_text(client, "learn-quiz-score", "Score: 4 of 6").await;

    // Question 7: (2, 1) attacks (2, 2) along the row too, though the test meets (0, 0) first.
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 7).await;
    click(client, "learn-verdict-line").await;
    click_square(client, 2, 1).await;
    wait_for_text(client, "learn-quiz-score", "Score: 5 of 7").await;
    assert_text_starts(client, "learn-quiz-feedback", "Right:").await;
    wait_for_part(
        client,
        "learn-quiz-feedback",
        "but the test meets the queen at row 0, column 0 first.",
    )
    .await;

    // Question 8: (3, 2) is the column's last row: back up, and the page shows the backtrack.
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 8).await;
    press_on_page(client, "b").await;
    wait_for_text(client, "learn-quiz-score", "Score: 6 of 8 \u{b7} streak 3").await;
    assert_text_starts(client, "learn-step-label", "Step 17 of").await;
    wait_for_part(
        client,
        "learn-quiz-feedback",
        "Every row of column 2 has been tried",
    )
    .await;
    let url = address(client).await;
    assert!(
        url.contains("quiz=verdict&q=9&right=6&of=8&streak=3"),
        "{url}"
    );

    // Every algorithm asks: the first try of each places a queen.
    for algo in ["iterative", "recursive", "wirth", "bfs", "bitboard"] {
        open_learn(&page, &format!("n=4&algo={algo}&quiz=verdict"), "Step ").await;
        wait_for_question(client, 1).await;
        assert_text_starts(client, "learn-verdict-line", "Conflict: their column").await;
        click(client, "learn-verdict-place").await;
        wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
        assert_text_starts(client, "learn-quiz-feedback", "Right:").await;
    }
    finish(&page, "in the verdict quiz").await;
}

/// Where the quiz's parts stand on the screen: each part's box `[left, top, right, bottom]` and
/// whether the point at its centre is the part itself (not the play bar over it), the board's
/// box, the top of the play bar fixed at the bottom, and how the feedback scrolls.
const QUIZ_PARTS: &str = "const $ = (id) => document.getElementById(id);
  const box = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const part = (id) => { const el = $(id); const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return { box: box(el), hit: hit !== null && (hit === el || el.contains(hit)) }; };
  const ids = ['learn-quiz-prompt', 'learn-quiz-score', 'learn-quiz-next'].concat(arguments[0]);
  const f = $('learn-quiz-feedback');
  return { width: innerWidth, height: innerHeight, bar: $('learn-play').closest('.learn-bar').getBoundingClientRect().top,
           board: box(document.querySelector('#board svg')), parts: Object.fromEntries(ids.map((id) => [id, part(id)])),
           feedback: { box: box(f), text: f.textContent, scroll: f.scrollHeight, client: f.clientHeight, overflow: getComputedStyle(f).overflowY } };";

/// Fails unless the whole board, 300 pixels across or more, and every part measured by
/// [`QUIZ_PARTS`] (with `more`) stand above the play bar, each part the element a tap at its
/// centre reaches; and unless the feedback, when there is one, shows two lines or more above the
/// bar and scrolls inside itself when it is longer.
async fn assert_quiz_in_view(client: &fantoccini::Client, more: &[&str], when: &str) {
    let seen = client
        .execute(QUIZ_PARTS, vec![json!(more)])
        .await
        .expect("the quiz's boxes");
    let num = |v: &serde_json::Value| v.as_f64().expect("a number");
    let edges = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array().expect("a box").iter().map(num).collect()
    };
    let (width, bar) = (num(&seen["width"]), num(&seen["bar"]));
    assert!(
        bar < num(&seen["height"]),
        "{when}: the play bar is at the bottom: {seen}"
    );
    let on_screen =
        |b: &[f64]| b[0] >= 0.0 && b[2] <= width + 0.5 && b[1] >= 0.0 && b[3] <= bar + 0.5;
    let board = edges(&seen["board"]);
    assert!(
        on_screen(&board),
        "{when}: the whole board is on screen: {seen}"
    );
    assert!(
        board[2] - board[0] >= 300.0,
        "{when}: the board stays large: {seen}"
    );
    for part in ["learn-quiz-prompt", "learn-quiz-score", "learn-quiz-next"]
        .iter()
        .chain(more)
    {
        let b = edges(&seen["parts"][part]["box"]);
        assert!(
            b[3] - b[1] > 10.0 && on_screen(&b),
            "{when}: #{part} is on screen above the play bar: {seen}"
        );
        assert_eq!(
            seen["parts"][part]["hit"],
            json!(true),
            "{when}: #{part} is what a tap on it reaches: {seen}"
        );
    }
    let feedback = &seen["feedback"];
    if !feedback["text"].as_str().expect("text").is_empty() {
        let b = edges(&feedback["box"]);
        assert!(
            on_screen(&b) && b[3] - b[1] >= 30.0,
            "{when}: two lines of the feedback or more are on screen: {seen}"
        );
        if num(&feedback["scroll"]) > num(&feedback["client"]) + 1.0 {
            assert_eq!(
                feedback["overflow"],
                json!("auto"),
                "{when}: the rest of the feedback scrolls inside it: {seen}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_quiz_keeps_the_board_question_score_and_next_on_screen() {
    page_or_skip!(page, client);
    super::learn_layout::set_viewport(client, 390, 844).await;
    // Where: the question, then a wrong answer's long correction (question 11 of N = 5).
    open_learn(&page, "n=5&algo=backtrack&quiz=where&q=11", "Step ").await;
    wait_for_question(client, 11).await;
    assert_quiz_in_view(client, &[], "where, question 11").await;
    click_square(client, 4, 3).await;
    wait_for_text(client, "learn-quiz-feedback", "Not row 4, column 3:").await;
    assert_quiz_in_view(client, &[], "where, after a wrong answer").await;
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 12).await;

    // The largest board Learn offers, N = 12.
    open_learn(&page, "n=12&algo=backtrack&quiz=where&q=20", "Step ").await;
    wait_for_question(client, 20).await;
    assert_quiz_in_view(client, &[], "where at N = 12").await;
    click_square(client, 11, 11).await;
    wait_for_text(client, "learn-quiz-feedback", "Not row 11, column 11:").await;
    assert_quiz_in_view(client, &[], "where at N = 12, after a wrong answer").await;

    // Verdict: the four answers, naming the queen, then a wrong answer's correction.
    let answers = [
        "learn-verdict-place",
        "learn-verdict-line",
        "learn-verdict-diagonal",
        "learn-verdict-back",
    ];
    open_learn(&page, "n=8&algo=backtrack&quiz=verdict&q=2", "Step ").await;
    wait_for_question(client, 2).await;
    assert_quiz_in_view(client, &answers, "verdict, question 2").await;
    click(client, "learn-verdict-line").await;
    wait_for_part(client, "learn-quiz-prompt", "which queen attacks").await;
    // While the queen is named the answers, disabled, make way for the longer question.
    assert_quiz_in_view(client, &[], "verdict, naming the queen").await;
    press(client, "\u{E00C}").await;
    wait_for_part(client, "learn-quiz-prompt", "What happens next?").await;
    click(client, "learn-verdict-back").await;
    wait_for_text(client, "learn-quiz-feedback", "Not back up:").await;
    assert_quiz_in_view(client, &[], "verdict, after a wrong answer").await;
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 3).await;
    assert_quiz_in_view(client, &answers, "verdict, question 3").await;
    finish(&page, "with the quiz on a phone").await;
}

/// The marks on the main board: each tag as `row,col text`, sorted, and how many squares are
/// shaded as attacked.
const MARKS: &str = "return { tags: [...document.querySelectorAll('#board .tag')].map((g) => `${g.dataset.row},${g.dataset.col} ${g.textContent}`).sort(), shaded: document.querySelectorAll('#board rect.square.attacked').length };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_verdict_question_shows_the_candidate_but_not_the_tests_answer() {
    page_or_skip!(page, client);
    // Question 12 of 8x8 (`queens trace 8`, step 23): (0, 4), attacked along its row by (0, 0).
    open_learn(&page, "n=8&algo=backtrack&quiz=verdict&q=12", "Step 23 of").await;
    wait_for_question(client, 12).await;
    let candidate_only = json!({ "tags": ["0,4 Q?"], "shaded": 0 });
    assert_eq!(js(client, MARKS).await, candidate_only, "question open");
    click(client, "learn-verdict-line").await;
    wait_for_part(client, "learn-quiz-prompt", "which queen attacks").await;
    assert_eq!(js(client, MARKS).await, candidate_only, "naming the queen");
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    // Answered: the conflict step draws the seed's figure, the attacker marked.
    let marks = js(client, MARKS).await;
    assert!(
        marks["tags"]
            .as_array()
            .expect("tags")
            .contains(&json!("0,0 R!")),
        "after the answer: {marks}"
    );

    // A row-wise try shades no attacks while the question is open, even with "Shade attacks".
    open_learn(&page, "n=8&algo=iterative&quiz=verdict&q=12", "Step 23 of").await;
    wait_for_question(client, 12).await;
    let nothing = json!({ "tags": [], "shaded": 0 });
    assert_eq!(js(client, MARKS).await, nothing, "question open");
    click(client, "learn-attacks").await;
    assert_eq!(js(client, MARKS).await, nothing, "with Shade attacks");
    // (4, 0) is attacked along its column by (0, 0).
    click(client, "learn-verdict-line").await;
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    let shaded = js(client, MARKS).await["shaded"].as_u64().expect("a count");
    assert!(shaded > 0, "after the answer the attacks are shaded");
    finish(&page, "with the verdict question's board").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wirths_test_meets_the_queen_of_the_column_first() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo wirth`, question 7: (2, 2), with queens on (0, 0) and (1, 2). Wirth's
    // test reads a[2] first, false for the queen of column 2, (1, 2), though (0, 0), an earlier
    // row, shares a diagonal with the square.
    open_learn(&page, "n=4&algo=wirth&quiz=verdict&q=7", "Step ").await;
    wait_for_question(client, 7).await;
    wait_for_part(client, "learn-quiz-prompt", "row 2, column 2").await;
    click(client, "learn-verdict-diagonal").await;
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert_text_starts(
        client,
        "learn-quiz-feedback",
        "Right: The test at row 2, column 2 reads a[2] is false",
    )
    .await;
    wait_for_part(
        client,
        "learn-quiz-feedback",
        "but the test meets the queen at row 1, column 2 first.",
    )
    .await;
    // The queen of the column, named along the column: right, with no note.
    open_learn(&page, "n=4&algo=wirth&quiz=verdict&q=7", "Step ").await;
    wait_for_question(client, 7).await;
    click(client, "learn-verdict-line").await;
    click_square(client, 1, 2).await;
    wait_for_part(client, "learn-quiz-feedback", "Right:").await;
    let feedback = text(client, "learn-quiz-feedback").await;
    assert!(!feedback.contains("first."), "{feedback}");
    finish(&page, "in Wirth's verdict quiz").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_the_last_square_of_a_line_the_conflict_and_the_back_up_are_both_right() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo iterative`, question 8: (2, 3) is attacked along the diagonal by
    // (1, 2), and it is the last square of row 2: the search backs up next.
    let question_8 = "n=4&algo=iterative&quiz=verdict&q=8";
    open_learn(&page, question_8, "Step ").await;
    wait_for_question(client, 8).await;
    wait_for_part(client, "learn-quiz-prompt", "row 2, column 3").await;
    click(client, "learn-verdict-diagonal").await;
    click_square(client, 1, 2).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert_text_starts(client, "learn-quiz-feedback", "Right: The square at row 2, column 3 is attacked by the queen at row 1, column 2 along their diagonal").await;
    wait_for_part(
        client,
        "learn-quiz-feedback",
        "It was also the last square of row 2, so the search then backs up: Back up was right too.",
    )
    .await;

    // Back up is right as well.
    open_learn(&page, question_8, "Step ").await;
    wait_for_question(client, 8).await;
    click(client, "learn-verdict-back").await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert_text_starts(client, "learn-quiz-feedback", "Right:").await;

    // A line the queen does not share with the square is still wrong.
    open_learn(&page, question_8, "Step ").await;
    wait_for_question(client, 8).await;
    click(client, "learn-verdict-line").await;
    click_square(client, 1, 2).await;
    wait_for_text(client, "learn-quiz-score", "Score: 0 of 1").await;
    assert_text_starts(
        client,
        "learn-quiz-feedback",
        "Not a conflict along their column with the queen at row 1, column 2:",
    )
    .await;
    finish(&page, "on the last square of a line").await;
}

/// Reloads the page and waits until it is ready again.
async fn reload(client: &fantoccini::Client) {
    client.refresh().await.expect("the page reloads");
    client
        .wait()
        .at_most(std::time::Duration::from_secs(20))
        .for_element(fantoccini::Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page finishes loading");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_question_and_the_score_straight() {
    page_or_skip!(page, client);
    open_learn(&page, "n=5&algo=backtrack&quiz=where", "Step 0 of 31").await;
    wait_for_question(client, 1).await;
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    // The address names the question to come, 2, whether or not it is open yet.
    let next = "quiz=where&q=2&right=1&of=1&streak=1";
    let url = address(client).await;
    assert!(url.contains(next), "{url}");
    for _ in 0..2 {
        reload(client).await;
        wait_for_text(client, "learn-step-label", "Step 1 of 31").await;
        assert_text_starts(client, "learn-quiz-score", "Score: 1 of 1").await;
        let url = address(client).await;
        assert!(url.contains(next), "after a reload: {url}");
    }
    // Question 1 was answered: going back before its try does not ask it again.
    click(client, "learn-back").await;
    wait_for_text(client, "learn-step-label", "Step 0 of 31").await;
    wait_for_text(client, "learn-quiz-prompt", "Press Next question").await;
    assert_eq!(
        value_of(client, "document.getElementById('learn-step').disabled").await,
        json!(false),
        "no question waits at step 0"
    );
    // Question 2, open, stays open through a reload, the score unchanged.
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 2).await;
    reload(client).await;
    wait_for_question(client, 2).await;
    assert_text_starts(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert!(address(client).await.contains(next));
    finish(&page, "reloading the quiz").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quiz_cursor_says_where_it_stands() {
    page_or_skip!(page, client);
    // `queens trace 4`, question 2: (0, 1) tried, a queen on (0, 0).
    open_learn(&page, "n=4&algo=backtrack&quiz=verdict&q=2", "Step 3 of").await;
    wait_for_question(client, 2).await;
    let live = value_of(
        client,
        "document.getElementById('learn-cursor').getAttribute('aria-live')",
    )
    .await;
    assert_eq!(live, json!("polite"));
    press_on_page(client, "l").await;
    wait_for_part(client, "learn-quiz-prompt", "which queen attacks").await;
    press_on_page(client, ARROW_RIGHT).await;
    wait_for_text(
        client,
        "learn-cursor",
        "Cursor on row 0, column 1: the square tried.",
    )
    .await;
    press_on_page(client, ARROW_LEFT).await;
    wait_for_text(
        client,
        "learn-cursor",
        "Cursor on row 0, column 0: a queen.",
    )
    .await;
    press_on_page(client, ARROW_DOWN).await;
    wait_for_text(client, "learn-cursor", "Cursor on row 1, column 0: empty.").await;
    finish(&page, "with the quiz's cursor spoken").await;
}

/// Whether each of Learn's forward buttons is disabled: End and the three jumps.
const FORWARD_DISABLED: &str =
    "return ['learn-end', 'learn-next-place', 'learn-next-back', 'learn-next-solution']
  .map((id) => document.getElementById(id).disabled);";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn end_and_the_jumps_wait_for_an_open_question_as_step_and_play_do() {
    page_or_skip!(page, client);
    // `queens trace 5`: question 1 is the try at step 1, question 2 the try at step 3.
    open_learn(&page, "n=5&algo=backtrack&quiz=where", "Step 0 of 31").await;
    wait_for_question(client, 1).await;
    assert_eq!(
        js(client, FORWARD_DISABLED).await,
        json!([true, true, true, true]),
        "question 1 is open"
    );
    press_on_page(client, "\u{E010}").await;
    assert_text_starts(client, "learn-step-label", "Step 0 of 31").await;
    assert_text_starts(client, "learn-quiz-prompt", "Question 1:").await;
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    // Answered: End goes on, but no further than the next question.
    click(client, "learn-end").await;
    wait_for_question(client, 2).await;
    assert_text_starts(client, "learn-step-label", "Step 2 of 31").await;

    // The verdict quiz: after question 1 (step 1, a placement), Next backtrack stops at
    // question 2, the try at step 3, not at the backtrack of step 17.
    open_learn(&page, "n=4&algo=backtrack&quiz=verdict", "Step 1 of").await;
    wait_for_question(client, 1).await;
    assert_eq!(
        js(client, FORWARD_DISABLED).await,
        json!([true, true, true, true]),
        "verdict question 1 is open"
    );
    click(client, "learn-verdict-place").await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    click(client, "learn-next-back").await;
    wait_for_question(client, 2).await;
    assert_text_starts(client, "learn-step-label", "Step 3 of").await;
    finish(&page, "with the jumps in the quiz").await;
}

/// What the compared search shows: its board's queens and marks (tags, shaded or marked squares,
/// ghosts, lines, bands, frames), its words (explanation, counts, variables, arrays, test, and
/// the sentence on the two searches), its running lines, and whether the step label is marked
/// as where the searches differ and First difference can be pressed.
const COMPARED: &str = "const $ = (id) => document.getElementById(id);
  const all = (css) => document.querySelectorAll(css).length;
  const svg = document.querySelector('#board2 svg');
  return {
    queens: all('#board2 svg .queen'),
    marks: all('#board2 .tag, #board2 .current-column, #board2 rect.square:is(.tried, .conflict, .placed, .removed, .attacked, .pinned), #board2 .ghost, #board2 .attack-line, #board2 [class$=\"-band\"], #board2 [class$=\"-frame\"]'),
    label: svg ? svg.getAttribute('aria-label') : '',
    words: ['learn-explain2', 'learn-counts2', 'learn-vars2', 'learn-arrays2', 'learn-check2', 'learn-compare-note']
      .map((id) => $(id).textContent).join(' | '),
    running: all('#learn-code2 li.current'),
    differs: $('learn-step-label').classList.contains('differs'),
    first_diff: !$('learn-first-diff').disabled,
  };";

/// Fails unless the compared search shows nothing of its step: no queen, no mark, no running
/// line, its words and its board's name saying it is hidden until the answer, none of `leaks`
/// (the words that would give the answer away) anywhere, the step not marked as where the
/// searches differ and First difference waiting.
async fn assert_compared_hidden(client: &fantoccini::Client, leaks: &[&str], when: &str) {
    let seen = js(client, COMPARED).await;
    assert_eq!(seen["queens"], json!(0), "no queen {when}: {seen}");
    assert_eq!(seen["marks"], json!(0), "no mark {when}: {seen}");
    assert_eq!(seen["running"], json!(0), "no running line {when}: {seen}");
    assert_eq!(
        seen["differs"],
        json!(false),
        "no difference marked {when}: {seen}"
    );
    assert_eq!(
        seen["first_diff"],
        json!(false),
        "First difference waits {when}: {seen}"
    );
    let words = seen["words"].as_str().expect("words");
    let label = seen["label"].as_str().expect("a label");
    for part in [words, label] {
        assert!(part.contains("hidden until you answer"), "{when}: {part}");
        for leak in leaks {
            assert!(!part.contains(leak), "'{leak}' {when}: {part}");
        }
    }
    for id in ["learn-explain2", "learn-counts2"] {
        wait_for_part(client, id, "hidden until you answer").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compared_search_gives_nothing_away_while_a_verdict_question_is_open() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo iterative`, question 2: step 3 tries (1, 0), attacked along the
    // column by (0, 0). bitboard's step 3 tries (1, 2), "the lowest column still free in row 1"
    // (so (1, 0) is not free), and the searches first differ there: "iterative does try at
    // (1, 0), bitboard does try at (1, 2)".
    open_learn(
        &page,
        "n=4&algo=iterative&compare=bitboard&quiz=verdict&q=2",
        "Step 3 of",
    )
    .await;
    wait_for_question(client, 2).await;
    let leaks = ["row 1, column 2", "(1, 2)", "still free", "first differ at"];
    assert_compared_hidden(client, &leaks, "while question 2 is open").await;
    click(client, "learn-verdict-line").await;
    wait_for_part(client, "learn-quiz-prompt", "which queen attacks").await;
    assert_compared_hidden(client, &leaks, "while the queen is named").await;
    // Answered: the step it leads to (4, the conflict) shows both searches again.
    click_square(client, 0, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert_text_starts(client, "learn-step-label", "Step 4 of").await;
    wait_for_text(
        client,
        "learn-explain2",
        "No queen attacks row 1, column 2: place a queen there.",
    )
    .await;
    assert_text_starts(client, "learn-counts2", "bitboard: 2 tries, 0 conflicts").await;
    wait_for_part(
        client,
        "learn-compare-note",
        "first differ at step 3: iterative does try at (1, 0), bitboard does try at (1, 2)",
    )
    .await;
    let seen = js(client, COMPARED).await;
    assert_eq!(seen["queens"], json!(2), "after the answer: {seen}");
    assert_eq!(seen["first_diff"], json!(true), "after the answer: {seen}");
    assert!(
        seen["running"].as_u64() >= Some(1),
        "after the answer: {seen}"
    );
    // The next question hides it again.
    click(client, "learn-quiz-next").await;
    wait_for_question(client, 3).await;
    assert_compared_hidden(client, &["row 1, column 2"], "while question 3 is open").await;
    finish(&page, "with a compared search in the verdict quiz").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compared_search_gives_nothing_away_while_a_where_question_is_open() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo bfs`, question 5: after step 11 (a board taken off the queue) the
    // search tries (1, 2), and step 11 of backtrack is the try of (1, 2) ("Try the first
    // untried row of column 2: row 1, column 2", `Q?` on it).
    open_learn(
        &page,
        "n=4&algo=bfs&compare=backtrack&quiz=where&q=5",
        "Step 11 of",
    )
    .await;
    wait_for_question(client, 5).await;
    let leaks = ["row 1, column 2", "column 2", "(1, 2)"];
    assert_compared_hidden(client, &leaks, "while question 5 is open").await;
    click_square(client, 1, 2).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    assert_text_starts(client, "learn-step-label", "Step 12 of").await;
    wait_for_text(
        client,
        "learn-explain2",
        "setPosition(2, 1) puts the queen on row 1, column 2",
    )
    .await;
    assert_text_starts(client, "learn-counts2", "backtrack: 6 tries, 4 conflicts").await;
    let seen = js(client, COMPARED).await;
    assert_eq!(seen["queens"], json!(2), "after the answer: {seen}");
    assert!(
        seen["marks"].as_u64() >= Some(1),
        "after the answer: {seen}"
    );

    // iterative against bitboard, question 2: the sentence on the two searches names the try
    // asked for ("iterative does try at (1, 0)") until it is answered.
    open_learn(
        &page,
        "n=4&algo=iterative&compare=bitboard&quiz=where&q=2",
        "Step 2 of",
    )
    .await;
    wait_for_question(client, 2).await;
    assert_compared_hidden(
        client,
        &["(1, 0)", "first differ at"],
        "while question 2 is open",
    )
    .await;
    click_square(client, 1, 0).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    wait_for_part(client, "learn-compare-note", "iterative does try at (1, 0)").await;
    // Step 3 is where they differ: marked once the question is answered.
    let seen = js(client, COMPARED).await;
    assert_eq!(seen["differs"], json!(true), "after the answer: {seen}");
    assert_text_starts(
        client,
        "learn-explain2",
        "Try the square at row 1, column 2",
    )
    .await;
    finish(&page, "with a compared search in the where quiz").await;
}

/// A conflict's words say where the search goes on ("next, column 1 of row 1"): while a where
/// question is open they stop at what is ruled out, in the words under the board and in the
/// board's accessible name alike, and say it again once the question is answered.
#[tokio::test]
async fn a_conflict_does_not_say_where_next_while_a_where_question_is_open() {
    page_or_skip!(page, client);
    // `queens trace 4 --algo iterative`: step 4 is the conflict on (1, 0); question 3 asks for
    // the try of step 5, (1, 1).
    open_learn(&page, "n=4&algo=iterative&quiz=where&q=3", "Step 4 of").await;
    wait_for_question(client, 3).await;
    let label = "return document.querySelector('#board svg').getAttribute('aria-label')";
    let words = [
        text(client, "learn-explain").await,
        js(client, label).await.to_string(),
    ];
    for shown in &words {
        assert!(shown.contains("Only this square is ruled out."), "{shown}");
        assert!(
            !shown.contains("next, column 1"),
            "the answer shown: {shown}"
        );
    }
    click_square(client, 1, 1).await;
    wait_for_text(client, "learn-quiz-score", "Score: 1 of 1").await;
    // Back on the conflict, with no question open: the words say where it goes on.
    click(client, "learn-back").await;
    wait_for_text(client, "learn-step-label", "Step 4 of").await;
    wait_for_part(
        client,
        "learn-explain",
        "Only this square is ruled out: next, column 1 of row 1.",
    )
    .await;
    finish(&page, "with a where question after a conflict").await;
}
