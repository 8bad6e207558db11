//! The API driven through the router with `oneshot`: no socket, no network.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use queens_core::Algorithm;

use super::{admission, api, app, app_with, limits, Limits};

async fn get(uri: &str) -> (StatusCode, Value) {
    get_from(app(), uri).await
}

/// The status and the JSON body of `GET uri` on `router`.
pub(super) async fn get_from(router: axum::Router, uri: &str) -> (StatusCode, Value) {
    let response = router
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

async fn get_text(uri: &str) -> (StatusCode, String, String) {
    let response = app()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
}

/// Asserts a 400 whose message contains every one of `words`.
async fn bad_request(uri: &str, words: &[&str]) {
    let (status, body) = get(uri).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{uri}: {body}"));
    for word in words {
        assert!(message.contains(word), "{uri}: '{message}' lacks '{word}'");
    }
}

fn queens(value: &Value) -> Vec<usize> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect()
}

/// An independent pairwise check, sharing no code with the library.
fn is_solution(q: &[usize]) -> bool {
    let n = q.len();
    q.iter().all(|&c| c < n)
        && (0..n).all(|i| (i + 1..n).all(|j| q[i] != q[j] && q[i].abs_diff(q[j]) != j - i))
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_from_the_binary() {
    let (status, kind, html) = get_text("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/html"));
    assert!(html.contains("app.js") && html.contains("style.css"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no outside resources"
    );
    let (status, kind, _) = get_text("/app.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/javascript"));
    let (status, kind, _) = get_text("/style.css").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/css"));
}

#[tokio::test]
async fn the_second_solution_of_eight_is_the_one_after_the_first() {
    let (status, body) = get("/api/solutions?n=8&offset=1").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], 92);
    assert_eq!(body["solutions"][0]["index"], 1);
    assert_eq!(
        queens(&body["solutions"][0]["queens"]),
        [0, 5, 7, 2, 6, 3, 1, 4]
    );
}

#[tokio::test]
async fn a_page_of_solutions_is_in_lexicographic_order_and_valid() {
    let (status, body) = get("/api/solutions?n=10&offset=700&limit=100").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list = body["solutions"].as_array().unwrap();
    assert_eq!(list.len(), 24, "724 solutions, so 24 from offset 700");
    let all: Vec<Vec<usize>> = list.iter().map(|s| queens(&s["queens"])).collect();
    assert!(all.iter().all(|q| is_solution(q)));
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(list[23]["index"], 723);
    assert_eq!(body["total"], 724);
}

#[tokio::test]
async fn solution_fourteen_thousand_of_twelve_is_reached() {
    let (status, body) = get("/api/solutions?n=12&offset=14000&limit=2").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], 14200);
    let q = queens(&body["solutions"][0]["queens"]);
    assert!(is_solution(&q));
}

#[tokio::test]
async fn the_unique_listing_has_one_solution_per_symmetry_class() {
    let (status, body) = get("/api/solutions?n=8&unique=true&limit=100").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], 12);
    let list = body["solutions"].as_array().unwrap();
    assert_eq!(list.len(), 12);
    assert_eq!(queens(&list[0]["queens"]), [0, 4, 7, 5, 2, 6, 1, 3]);
    assert!(list.iter().all(|s| is_solution(&queens(&s["queens"]))));
    let (status, _) = get("/api/solutions?n=8&unique=1&offset=12").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // crates/queens-core/data/queens-counts.tsv: 1787 classes for N = 12.
    let (status, body) = get("/api/solutions?n=12&unique=true&offset=1786").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], 1787);
}

#[tokio::test]
async fn an_offset_past_the_last_solution_is_not_found() {
    let (status, body) = get("/api/solutions?n=8&offset=92").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("92"));
    let (status, _) = get("/api/solutions?n=3").await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the 3x3 board has no solution"
    );
}

#[tokio::test]
async fn a_deep_offset_of_a_big_board_over_the_step_budget_is_refused() {
    let router = app_with(Limits {
        steps: 10_000,
        ..Limits::default()
    });
    let (status, body) = get_from(router, "/api/solutions?n=20&offset=1000000000").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("too deep"));
}

/// A page that the walk reaches but cannot fill within the step budget says so (not that its
/// offset is too deep), and how to ask for less.
#[tokio::test]
async fn a_page_too_long_to_list_is_refused_as_such() {
    // The least budget (a power of two) that lists the first two solutions of N = 32.
    let steps = (10..40)
        .map(|k| 1u64 << k)
        .find(|&b| queens_core::search::rank::solutions_from(32, 0, 2, b).is_ok())
        .unwrap();
    let router = app_with(Limits {
        steps,
        ..Limits::default()
    });
    let (status, body) = get_from(router, "/api/solutions?n=32&limit=100").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("a page of 100 solutions from offset 0")
            && message.contains("ask for fewer (limit)")
            && !message.contains("too deep"),
        "{message}"
    );
}

#[tokio::test]
async fn a_big_board_lists_its_first_solutions_without_a_total() {
    let (status, body) = get("/api/solutions?n=31&limit=2").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["total"].is_null());
    for s in body["solutions"].as_array().unwrap() {
        assert!(is_solution(&queens(&s["queens"])));
    }
}

#[tokio::test]
async fn counts_give_the_total_and_the_symmetry_classes() {
    // crates/queens-core/data/queens-counts.tsv (OEIS A000170 and A002562).
    for (n, total, unique) in [
        (1, 1, 1),
        (2, 0, 0),
        (6, 4, 1),
        (8, 92, 12),
        (10, 724, 92),
        (15, 2279184, 285053),
    ] {
        let (status, body) = get(&format!("/api/count?n={n}")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["total"], total, "n = {n}");
        assert_eq!(body["unique"], unique, "n = {n}");
    }
}

#[tokio::test]
async fn solve_finds_a_solution_with_every_enumerating_algorithm() {
    for algo in Algorithm::names() {
        let (status, body) = get(&format!("/api/solve?n=8&algo={algo}")).await;
        assert_eq!(status, StatusCode::OK, "{algo}: {body}");
        assert_eq!(body["algo"], algo);
        assert_eq!(queens(&body["queens"]), [0, 4, 7, 5, 2, 6, 1, 3], "{algo}");
    }
    let (status, body) = get("/api/solve?n=3").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["queens"].is_null(), "the 3x3 board has no solution");
    let (status, body) = get("/api/solve?n=20").await;
    assert_eq!(status, StatusCode::OK);
    assert!(is_solution(&queens(&body["queens"])));
}

#[tokio::test]
async fn solve_builds_big_boards_by_construction_and_local_search() {
    for n in [
        4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 20, 21, 1000, 1001, 1002,
    ] {
        let (status, body) = get(&format!("/api/solve?n={n}&algo=construct")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["algo"], "construct");
        let q = queens(&body["queens"]);
        assert_eq!(q.len(), n);
        assert!(is_solution(&q), "construct, n = {n}");
    }
    let (status, body) = get("/api/solve?n=3&algo=construct").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["queens"].is_null());
    let (_, first) = get("/api/solve?n=500&algo=min-conflicts&seed=7").await;
    let (_, again) = get("/api/solve?n=500&algo=min-conflicts&seed=7").await;
    assert_eq!(first["seed"], 7);
    assert!(is_solution(&queens(&first["queens"])));
    assert_eq!(
        first["queens"], again["queens"],
        "the same seed gives the same solution"
    );
    let (status, body) = get("/api/solve?n=300&algo=min-conflicts").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["seed"].is_u64(), "a drawn seed is returned: {body}");
    let (_, body) = get("/api/solve?n=100").await;
    assert_eq!(body["algo"], "construct", "the default above N = 29");
    let (_, body) = get("/api/solve?n=29").await;
    assert_eq!(body["algo"], "bitboard", "the default up to N = 29");
}

#[tokio::test]
async fn the_trace_of_eight_has_the_textbook_counts_and_ends_on_the_first_solution() {
    // 876 squares tried and 113 queens placed to the first 8x8 solution (issue 5).
    for algo in ["recursive", "wirth", "iterative"] {
        let (status, body) = get(&format!("/api/trace?n=8&algo={algo}")).await;
        assert_eq!(status, StatusCode::OK, "{algo}: {body}");
        let events = body["events"].as_array().unwrap();
        let named = |name: &str| events.iter().filter(|e| e["event"] == name).count();
        assert_eq!((named("try"), named("place")), (876, 113), "{algo}");
        assert_eq!(body["cut"], false);
        let last = events.last().unwrap();
        assert_eq!(last["event"], "solution");
        assert_eq!(queens(&last["positions"]), [0, 4, 7, 5, 2, 6, 1, 3]);
        assert_eq!(body["summary"]["tries"], 876);
    }
}

#[tokio::test]
async fn the_backtrack_trace_has_columns_and_the_first_untried_array() {
    let (status, body) = get("/api/trace?n=4&algo=backtrack&limit=6").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["positions_by"], "column");
    assert_eq!(body["cut"], true);
    let events = body["events"].as_array().unwrap();
    assert_eq!(events.len(), 6);
    let conflict = &events[3];
    assert_eq!(conflict["event"], "conflict");
    assert_eq!(conflict["with"]["row"], 0);
    assert_eq!(conflict["with"]["col"], 0);
    assert!(conflict["untried"].is_array());
}

#[tokio::test]
async fn a_missing_n_is_a_bad_request_on_every_endpoint() {
    for endpoint in ["/api/solutions", "/api/count", "/api/solve", "/api/trace"] {
        bad_request(endpoint, &["missing", "n"]).await;
        bad_request(&format!("{endpoint}?offset=0"), &[]).await;
    }
}

#[tokio::test]
async fn an_n_that_is_not_a_number_is_a_bad_request() {
    for endpoint in ["/api/solutions", "/api/count", "/api/solve", "/api/trace"] {
        bad_request(&format!("{endpoint}?n=eight"), &["whole number", "'eight'"]).await;
        bad_request(&format!("{endpoint}?n=-1"), &["whole number", "'-1'"]).await;
        bad_request(&format!("{endpoint}?n=8.5"), &["whole number"]).await;
        bad_request(&format!("{endpoint}?n="), &["whole number"]).await;
        // Digits only, as on the command line: no sign, no space around them.
        bad_request(&format!("{endpoint}?n=%2B8"), &["whole number", "'+8'"]).await;
        bad_request(&format!("{endpoint}?n=%208"), &["whole number", "' 8'"]).await;
        bad_request(&format!("{endpoint}?n=8+"), &["whole number", "'8 '"]).await;
    }
}

#[tokio::test]
async fn an_n_of_zero_is_a_bad_request() {
    for endpoint in ["/api/solutions", "/api/count", "/api/solve", "/api/trace"] {
        bad_request(&format!("{endpoint}?n=0"), &["at least 1"]).await;
    }
}

#[tokio::test]
async fn an_n_above_the_endpoint_limit_is_a_bad_request() {
    bad_request(
        "/api/solutions?n=33",
        &["33", "limit of 32", "/api/solutions"],
    )
    .await;
    bad_request("/api/solutions?n=16&unique=true", &["16", "limit of 15"]).await;
    bad_request("/api/count?n=16", &["16", "limit of 15", "/api/count"]).await;
    bad_request("/api/trace?n=13", &["13", "limit of 12", "/api/trace"]).await;
    bad_request(
        "/api/solve?n=33&algo=bitboard",
        &["33", "limit of 32", "bitboard"],
    )
    .await;
    bad_request("/api/solve?n=10001", &["10001", "limit of 10000"]).await;
    bad_request(
        "/api/solve?n=10001&algo=construct",
        &["limit of 10000", "construct"],
    )
    .await;
    bad_request("/api/solve?n=10001&algo=min-conflicts", &["limit of 10000"]).await;
    bad_request("/api/solve?n=13&algo=bfs", &["13", "limit of 12", "bfs"]).await;
    bad_request(
        "/api/solve?n=30&algo=wirth",
        &["30", "limit of 29", "wirth"],
    )
    .await;
    bad_request(
        "/api/solutions?n=99999999999999999999999",
        &["too large", "18446744073709551615"],
    )
    .await;
}

#[tokio::test]
async fn bad_offsets_limits_flags_and_algorithms_are_bad_requests() {
    bad_request("/api/solutions?n=8&offset=x", &["offset", "'x'"]).await;
    bad_request("/api/solutions?n=8&offset=-2", &["offset", "'-2'"]).await;
    bad_request("/api/solutions?n=8&limit=0", &["limit", "at least 1"]).await;
    bad_request("/api/solutions?n=8&limit=101", &["limit", "100"]).await;
    bad_request("/api/solutions?n=8&limit=lots", &["limit", "'lots'"]).await;
    bad_request("/api/solutions?n=8&unique=maybe", &["unique", "'maybe'"]).await;
    bad_request(
        "/api/solve?n=8&algo=quantum",
        &["algo", "'quantum'", "construct"],
    )
    .await;
    bad_request(
        "/api/solve?n=8&algo=wirth&seed=3",
        &["seed", "min-conflicts"],
    )
    .await;
    bad_request("/api/solve?n=8&algo=min-conflicts&seed=x", &["seed", "'x'"]).await;
    bad_request(
        "/api/solutions?n=8&ofset=3",
        &["unknown parameter", "'ofset'"],
    )
    .await;
}

#[tokio::test]
async fn unknown_paths_are_json_not_found() {
    let (status, body) = get("/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("/api/nothing"));
}

#[tokio::test]
async fn the_config_reports_the_limits_the_router_was_built_with() {
    let (status, body) = get_from(
        app_with(Limits {
            steps: 12_345,
            ..Limits::default()
        }),
        "/api/config",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["steps"], 12_345);
    let (_, body) = get("/api/config").await;
    assert_eq!(body["steps"], Limits::default().steps);

    assert_eq!(body["browse"]["max_n"], limits::SOLUTIONS_MAX_N);
    assert_eq!(body["browse"]["page_max"], limits::PAGE_MAX);
    assert_eq!(body["browse"]["unique_max_n"], limits::UNIQUE_MAX_N);
    assert_eq!(body["browse"]["count_max_n"], limits::COUNT_MAX_N);
    assert_eq!(body["learn"]["max_n"], limits::TRACE_MAX_N);
    assert_eq!(
        body["learn"]["events_default"],
        limits::TRACE_EVENTS_DEFAULT
    );
    assert_eq!(body["learn"]["events_max"], limits::TRACE_EVENTS_MAX);
    let traced: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    assert_eq!(body["learn"]["algorithms"], serde_json::json!(traced));
    assert_eq!(body["solve"]["max_n"], limits::SOLVE_BIG_MAX_N);
    let offered: Vec<Value> = limits::SOLVE_OFFERED
        .iter()
        .map(|&s| serde_json::json!({ "name": s.name(), "max_n": limits::solve_method_max_n(s) }))
        .collect();
    assert_eq!(body["solve"]["algorithms"], Value::Array(offered));
    // The page's menus, as they were when the page named the solvers itself.
    assert_eq!(
        body["learn"]["labels"],
        serde_json::json!({
            "backtrack": "backtrack (column-wise, COMP 333)",
            "iterative": "iterative (textbook loop)",
            "recursive": "recursive (Horowitz-Sahni)",
            "wirth": "wirth (boolean arrays)",
            "bfs": "bfs (breadth-first)",
            "bitboard": "bitboard (bitmasks)",
        })
    );
    let names_and_limits: Vec<(&str, u64)> = body["solve"]["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap(), a["max_n"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        names_and_limits,
        [
            ("construct", 10_000),
            ("min-conflicts", 10_000),
            ("bitboard", 32),
            ("wirth", 29),
            ("recursive", 29),
            ("backtrack", 29),
            ("iterative", 29),
            ("bfs", 12),
        ]
    );
    let auto = &body["solve"]["automatic"];
    assert_eq!(auto["up_to"], queens_core::solve::FAST_FIRST_N);
    assert_eq!(
        (&auto["small"], &auto["large"]),
        (&"bitboard".into(), &"construct".into())
    );
}

/// The number at `pointer` in the config, as u64.
fn limit(config: &Value, pointer: &str) -> u64 {
    config
        .pointer(pointer)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no number at {pointer} in {config}"))
}

#[tokio::test]
async fn the_config_limits_are_the_ones_the_endpoints_enforce() {
    let (_, config) = get("/api/config").await;
    // Each limit of the config, with the request (`{}` the number) that one past it is refused.
    for (pointer, uri) in [
        ("/browse/max_n", "/api/solutions?n={}"),
        ("/browse/unique_max_n", "/api/solutions?n={}&unique=true"),
        ("/browse/page_max", "/api/solutions?n=8&limit={}"),
        ("/browse/count_max_n", "/api/count?n={}"),
        ("/learn/max_n", "/api/trace?n={}"),
        ("/learn/events_max", "/api/trace?n=4&limit={}"),
        ("/solve/max_n", "/api/solve?n={}"),
    ] {
        let max = limit(&config, pointer);
        let uri = uri.replace("{}", &(max + 1).to_string());
        bad_request(&uri, &[&format!("limit of {max}")]).await;
    }
    let max = limit(&config, "/browse/page_max");
    let (status, body) = get(&format!("/api/solutions?n=10&limit={max}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (_, body) = get("/api/trace?n=8&all=true").await;
    let events = body["events"].as_array().unwrap().len() as u64;
    assert_eq!(
        events,
        limit(&config, "/learn/events_default"),
        "the default cut"
    );
    for algo in config["learn"]["algorithms"].as_array().unwrap() {
        let algo = algo.as_str().unwrap();
        let (status, body) = get(&format!("/api/trace?n=4&algo={algo}&limit=1")).await;
        assert_eq!(status, StatusCode::OK, "{algo}: {body}");
    }

    for solver in config["solve"]["algorithms"].as_array().unwrap() {
        let name = solver["name"].as_str().unwrap();
        let max = limit(solver, "/max_n");
        let uri = format!("/api/solve?n={}&algo={name}", max + 1);
        bad_request(&uri, &[&format!("limit of {max}"), name]).await;
        let (status, body) = get(&format!("/api/solve?n=8&algo={name}")).await;
        assert_eq!(status, StatusCode::OK, "{name}: {body}");
        assert_eq!(body["algo"], name);
    }
    let auto = &config["solve"]["automatic"];
    let up_to = limit(auto, "/up_to");
    let (_, body) = get(&format!("/api/solve?n={up_to}")).await;
    assert_eq!(body["algo"], auto["small"]);
    let (_, body) = get(&format!("/api/solve?n={}", up_to + 1)).await;
    assert_eq!(body["algo"], auto["large"]);
}

/// The paths `source` imports (`import ... from "./x.js"`), resolved against its own path.
fn imports(path: &str, source: &str) -> Vec<String> {
    let dir = &path[..=path.rfind('/').unwrap()];
    source
        .lines()
        .filter(|line| line.starts_with("import "))
        .map(|line| {
            let spec = line
                .split('"')
                .nth(1)
                .unwrap_or_else(|| panic!("{path}: {line}"));
            let rest = spec
                .strip_prefix("./")
                .unwrap_or_else(|| panic!("{path} imports '{spec}', not a sibling module"));
            format!("{dir}{rest}")
        })
        .collect()
}

#[tokio::test]
async fn every_module_the_page_imports_is_served_as_javascript() {
    let (_, _, html) = get_text("/").await;
    assert!(html.contains(r#"<script type="module" src="/app.js">"#));
    let mut reached = std::collections::BTreeSet::new();
    let mut todo = vec!["/app.js".to_string()];
    while let Some(path) = todo.pop() {
        if !reached.insert(path.clone()) {
            continue;
        }
        let (status, kind, source) = get_text(&path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(kind, "text/javascript; charset=utf-8", "{path}");
        todo.extend(imports(&path, &source));
    }
    let mut served: Vec<String> = super::MODULES
        .iter()
        .map(|(name, _)| format!("/js/{name}"))
        .collect();
    served.push("/app.js".to_string());
    served.push(format!("/js/{}", super::CODE_DATA));
    served.sort();
    assert_eq!(
        reached.into_iter().collect::<Vec<_>>(),
        served,
        "the table of modules holds exactly the ones imported"
    );
}

#[tokio::test]
async fn the_code_listings_module_holds_every_algorithm() {
    let (status, kind, source) = get_text("/js/code-data.js").await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "text/javascript; charset=utf-8")
    );
    let json = source
        .split_once("export const CODE = ")
        .expect("the export")
        .1
        .trim()
        .trim_end_matches(';');
    let code: Value = serde_json::from_str(json).expect("JSON");
    for algorithm in Algorithm::ALL {
        assert!(code[algorithm.name()]["lines"].is_array(), "{algorithm}");
    }
}

#[tokio::test]
async fn unknown_module_paths_are_not_found() {
    for uri in [
        "/js/nothing.js",
        "/js/",
        "/js/board.js/more",
        "/js/../app.js",
        "/board.js",
    ] {
        let (status, body) = get(uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {body}");
        assert!(body["error"].is_string(), "{uri}: {body}");
    }
    // A name that is not UTF-8: a JSON 400 too, not the router's text.
    for uri in ["/js/%FF", "/js/%C3%28"] {
        bad_request(uri, &["UTF-8"]).await;
    }
}

/// The status, headers and JSON body of one request with any method.
async fn send(
    router: axum::Router,
    method: &str,
    uri: &str,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let response = router
        .oneshot(
            Request::builder()
                .method(method)
                .uri(uri)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, headers, value)
}

#[tokio::test]
async fn other_methods_are_json_method_not_allowed() {
    for (method, uri) in [
        ("POST", "/api/count?n=8"),
        ("PUT", "/api/solutions?n=8"),
        ("DELETE", "/"),
        ("PATCH", "/js/board.js"),
        ("POST", "/api/config"),
    ] {
        let (status, headers, body) = send(app(), method, uri).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {uri}");
        assert_eq!(headers["allow"], "GET, HEAD", "{method} {uri}");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains(method) && message.contains("GET"),
            "{message}"
        );
    }
    // Unknown paths stay 404 whatever the method.
    let (status, _, body) = send(app(), "POST", "/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].is_string());
}

#[tokio::test]
async fn a_repeated_parameter_is_a_bad_request() {
    bad_request("/api/count?n=8&n=9", &["n", "twice", "'8'", "'9'"]).await;
    bad_request("/api/solutions?n=8&offset=1&offset=1", &["offset", "twice"]).await;
    bad_request("/api/trace?n=4&all=true&all=false", &["all", "twice"]).await;
    bad_request("/api/solve?n=8&algo=wirth&algo=bfs", &["algo", "twice"]).await;
}

#[tokio::test]
async fn long_names_and_values_are_cut_in_errors() {
    let long = "x".repeat(20_000);
    for uri in [
        format!("/api/count?{long}=1"),
        format!("/api/count?n={long}"),
        format!("/api/trace?n=4&algo={long}"),
        format!("/api/solve?n=4&algo={long}"),
        format!("/api/solutions?n=4&unique={long}"),
        format!("/api/count?n=4&n={long}"),
        format!("/{long}"),
        format!("/js/{long}"),
    ] {
        let (status, body) = get(&uri).await;
        assert!(status.is_client_error(), "{status}");
        let message = body["error"].as_str().unwrap();
        assert!(message.len() < 300, "{} bytes: {message}", message.len());
        assert!(message.contains("xxxxxxxxxxxxxxxxxxxx..."), "{message}");
    }
}

#[tokio::test]
async fn a_deep_unique_offset_is_refused_by_the_step_budget_without_a_search() {
    let (status, body) = get("/api/solutions?n=15&unique=true&offset=285052").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let message = body["error"].as_str().unwrap();
    // A count, not a time: the refusal is the arithmetic made before any listing (the classes
    // passed, here all 285,053 of N = 15, times the steps each takes, against the budget),
    // which names both numbers.
    let needed = 285_053 * limits::UNIQUE_STEPS_PER_CLASS;
    assert!(
        message.contains("too deep")
            && message.contains(&format!("about {needed} search steps"))
            && message.contains("300000000"),
        "{message}"
    );
    let (status, body) = get("/api/solutions?n=15&unique=true&offset=285053").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "past the end: {body}");
    let (status, body) = get("/api/solutions?n=15&unique=true&offset=1000&limit=3").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], 285053);
    assert_eq!(body["solutions"][2]["index"], 1002);
    // Every class of N = 14 is within the default budget; a smaller budget refuses it.
    let (status, body) = get("/api/solutions?n=14&unique=true&offset=45751").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], 45752);
    let small = app_with(Limits {
        steps: 1_000_000,
        ..Limits::default()
    });
    let (status, _) = get_from(small, "/api/solutions?n=14&unique=true&offset=45751").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// The router of a server with one heavy slot, and that slot, held: a heavy request is
/// answered 503 while the slot is kept.
fn every_slot_taken() -> (axum::Router, tokio::sync::OwnedSemaphorePermit) {
    let state = super::AppState::new(Limits {
        heavy: 1,
        ..Limits::default()
    });
    let held = state.admit_heavy("a test").expect("the one slot");
    (super::app_of(state), held)
}

/// `/api/index` of a board that is no solution answers at once, without a walk of the list and
/// so without a heavy slot (it walked up to 1.4 s of N = 15 first); a solution still takes one.
#[tokio::test]
async fn the_index_of_a_board_that_is_no_solution_needs_no_walk() {
    let (router, _held) = every_slot_taken();
    let (status, body) = get_from(
        router.clone(),
        "/api/index?n=15&queens=14,13,12,11,10,9,8,7,6,5,4,3,2,1,0",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("is not a solution"),
        "{body}"
    );
    let solution = "/api/index?n=15&queens=0,2,4,1,9,11,13,3,12,8,5,14,6,10,7";
    let (status, body) = get_from(router, solution).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
}

/// A whole counted trace of N = 11 or 12 takes a heavy slot (up to 0.17 s of a core; every
/// request went through at once before, and 64 of them held a cheap trace 5.7 s); N = 10 and
/// below stay cheap.
#[tokio::test]
async fn a_long_summary_takes_a_heavy_slot() {
    let (router, _held) = every_slot_taken();
    let (status, body) = get_from(router.clone(), "/api/summary?n=12&algo=wirth&all=true").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let (status, body) = get_from(router.clone(), "/api/summary?n=11").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let (status, body) = get_from(router, "/api/summary?n=10&all=true").await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn heavy_requests_beyond_the_slots_are_busy_with_retry_after() {
    let state = super::AppState::new(Limits {
        heavy: 1,
        ..Limits::default()
    });
    let held = state.admit_heavy("a test").expect("one slot");
    let refused = state.admit_heavy("a second one").unwrap_err();
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    let response = axum::response::IntoResponse::into_response(refused);
    assert_eq!(
        response.headers()["retry-after"],
        super::error::RETRY_AFTER_SECONDS.to_string().as_str()
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");
    drop(held);
    assert!(
        state.admit_heavy("a third").is_ok(),
        "the slot is free again"
    );
}

#[test]
fn small_boards_and_the_construction_are_cheap_and_large_work_is_heavy() {
    use admission::{is_heavy, Work};
    use queens_core::solve::Method;
    assert!(!is_heavy(Work::Solutions { n: 12 }));
    assert!(is_heavy(Work::Solutions { n: 13 }));
    assert!(!is_heavy(Work::Count { n: 8 }));
    assert!(is_heavy(Work::Count { n: 15 }));
    let solve = |n, method| Work::Solve { n, method };
    assert!(!is_heavy(solve(10_000, Method::Construct)));
    assert!(!is_heavy(solve(8, Method::First(Algorithm::Wirth))));
    assert!(is_heavy(solve(29, Method::First(Algorithm::Bitboard))));
    assert!(!is_heavy(solve(12, Method::First(Algorithm::Bitboard))));
    assert!(!is_heavy(solve(11, Method::First(Algorithm::Bfs))));
    assert!(is_heavy(solve(12, Method::First(Algorithm::Bfs))));
    assert!(is_heavy(solve(10_000, Method::MinConflicts)));
    assert!(!is_heavy(Work::Trace {
        n: 8,
        limit: 20_000
    }));
    assert!(is_heavy(Work::Trace {
        n: 12,
        limit: 100_000
    }));
    assert!(!is_heavy(Work::Summary { n: 10 }) && is_heavy(Work::Summary { n: 11 }));
}

#[test]
fn a_trace_answer_stops_at_its_byte_limit_and_stays_valid_json() {
    let bytes = api::trace_bytes(12, Algorithm::Backtrack, true, 100_000, 200_000).unwrap();
    assert!(bytes.len() < 200_000 + 1_000, "{} bytes", bytes.len());
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["cut"], true);
    let events = body["events"].as_array().unwrap();
    assert_eq!(body["summary"]["events"], events.len() as u64);
    assert_eq!(events.last().unwrap()["step"], events.len() as u64);
    let whole = api::trace_bytes(6, Algorithm::Backtrack, true, 100_000, 1 << 20).unwrap();
    let body: Value = serde_json::from_slice(&whole).unwrap();
    assert_eq!(body["cut"], false);
    assert_eq!(body["summary"]["solutions"], 4);
}

/// Answers larger than 64 KiB hold their size from a budget until they are handed over: with
/// room for one trace of about 3 MB, a second is a 503 while the first is unread, and is
/// answered once the first is read; small answers are not counted.
#[tokio::test]
async fn answers_not_yet_read_are_bounded_in_memory() {
    let router = app_with(Limits {
        answer_bytes: 5 << 20,
        ..Limits::default()
    });
    let trace = "/api/trace?n=8&all=true&limit=20000";
    let request = || Request::get(trace).body(Body::empty()).unwrap();
    let unread = router.clone().oneshot(request()).await.unwrap();
    assert_eq!(unread.status(), StatusCode::OK);
    let len = axum::body::HttpBody::size_hint(unread.body())
        .exact()
        .unwrap();
    assert!((2 << 20..5 << 20).contains(&len), "{len} bytes");
    let (status, body) = get_from(router.clone(), trace).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("until their clients read them"),
        "{body}"
    );
    // Small answers still pass.
    let (status, _) = get_from(router.clone(), "/api/solutions?n=8").await;
    assert_eq!(status, StatusCode::OK);
    // Read in chunks of at most 64 KiB, whole; then the budget is free again.
    let mut body = unread.into_body();
    let mut read = Vec::new();
    while let Some(frame) = body.frame().await {
        let data = frame.unwrap().into_data().unwrap();
        assert!(data.len() <= 64 * 1024);
        read.extend_from_slice(&data);
    }
    drop(body);
    assert_eq!(read.len() as u64, len);
    let whole: Value = serde_json::from_slice(&read).unwrap();
    assert!(
        whole["events"].as_array().is_some_and(|e| !e.is_empty()),
        "{whole}"
    );
    let (status, _) = get_from(router, trace).await;
    assert_eq!(status, StatusCode::OK);
}
