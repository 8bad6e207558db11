//! Browse and Solve: going to a number, the symmetry classes, the seeds, the errors.

use std::time::Duration;

use fantoccini::Locator;

use crate::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_goes_to_a_number_keeps_the_class_and_shows_its_work() {
    page_or_skip!(page, client);
    wait_for_text(client, "label", "Solution 1 of 92").await;

    // Go to solution 50.
    type_into(client, "goto", "50\u{E007}").await;
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
    choose(client, "size", "30").await;
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
    finish(&page, "in Browse").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_keeps_a_seed_above_two_to_the_53_and_says_what_went_wrong() {
    page_or_skip!(page, client);
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
    type_into(client, "solve-seed", &format!("{seed}\u{E007}")).await;
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
    type_into(client, "solve-seed", &format!("{drawn}\u{E007}")).await;
    wait_for_part(client, "solve-label", &format!("(seed {drawn}:")).await;
    wait_for_board(client, &first).await;

    // An error in words, and no stale board.
    choose(client, "solve-algo", "bitboard").await;
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
    assert_eq!(boards_drawn(client).await, 0, "the stale board is cleared");
    finish(&page, "in Solve").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_says_in_words_what_it_cannot_reach_or_count() {
    page_or_skip!(page, client);
    // Solution 7,000,000 of 16x16 (before the middle, where mirror images do not help) is
    // beyond the server's step budget.
    open(&page, "/?n=16&i=1").await;
    wait_for_text(client, "label", "Solution 1 ").await;
    type_into(client, "goto", "7000000\u{E007}").await;
    let note = eventually(Duration::from_secs(60), async || {
        let note = text(client, "goto-note").await;
        if note.contains("too far into the list") {
            Ok(note)
        } else {
            Err(format!("no word on solution 7,000,000: {note}"))
        }
    })
    .await;
    assert!(
        note.contains("queens list 16 --limit 7000000 | tail -n 1"),
        "{note}"
    );
    assert!(!note.contains("offset"), "no jargon: {note}");
    // The board, the label and the caption still agree on solution 1.
    wait_until(
        client,
        "return document.body.dataset.working !== 'true';",
        "the request ends",
    )
    .await;
    assert_text_starts(client, "label", "Solution 1 ").await;
    assert!(text(client, "board-caption").await.contains("solution 1 "));
    // 32x32: the label and the counts say why there is no total, and what would count it.
    open(&page, "/?n=32").await;
    wait_for_part(client, "counts", "queens count 32").await;
    let counts = text(client, "counts").await;
    assert!(counts.contains("27\u{d7}27"), "{counts}");
    assert!(counts.contains("--estimate"), "{counts}");
    wait_for_part(client, "label", "too large to count here").await;
    // (The browser logs the refused request, a 422, as an error of its own: no console check.)
}
