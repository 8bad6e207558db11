//! The page as a whole: it loads, its keys move the board, its download is the command line's drawing.

use std::process::Command;

use fantoccini::Locator;
use serde_json::{json, Value};

use crate::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pressing_arrow_down_shows_the_second_solution_of_eight() {
    page_or_skip!(page, client);
    wait_for_board(client, &[0, 4, 7, 5, 2, 6, 1, 3]).await;

    let body = client
        .find(Locator::Css("body"))
        .await
        .expect("a body element");
    body.send_keys("\u{E015}") // WebDriver's code for ArrowDown
        .await
        .expect("ArrowDown is pressed");
    wait_for_board(client, &[0, 5, 7, 2, 6, 3, 1, 4]).await;

    assert_eq!(text(client, "label").await, "Solution 2 of 92");
    let address = client.current_url().await.expect("the address");
    assert!(
        address.as_str().ends_with("/?n=8&i=2"),
        "the address keeps the state: {address}"
    );
    client.clone().close().await.expect("the browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_loads_its_modules_and_config_without_console_errors() {
    page_or_skip!(page, client);
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
    click(client, "tab-learn").await;
    wait_for_text(
        client,
        "learn-note",
        "The backtrack search of the 6\u{d7}6 board",
    )
    .await;
    click(client, "tab-solve").await;
    wait_for_text(client, "solve-label", "A solution of the 20\u{d7}20 board").await;
    click(client, "tab-browse").await;
    wait_for_text(client, "label", "Solution 1 of 92").await;
    finish(&page, "in the three views").await;
}

/// The page's SVG download is the drawing of `queens solve N --format svg`, character for
/// character: crowns with coordinates (8), crowns scaled down (30), dots (200).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_svg_download_is_the_command_line_drawing() {
    page_or_skip!(page, client);
    // Either side of the crowns' last board (123) and of the axes' first (65).
    for n in ["8", "30", "64", "65", "123", "124", "200"] {
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
