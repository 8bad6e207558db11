//! Learn's search tree (`tree=1`): an accessible tree of partial boards whose nodes jump to
//! their steps, legible at 1280x800 for every algorithm on 8x8 (876 tries for backtrack, each
//! other algorithm its own number, from the server's trace).

use serde_json::{json, Value};

use crate::*;

const ENTER: &str = "\u{E007}";
const ARROW_UP: &str = "\u{E013}";

/// Clicks the tree's node made at step `step`.
async fn click_node(client: &fantoccini::Client, step: u64) {
    let node = format!("#learn-tree [role='treeitem'][data-step='{step}'] > .tree-label");
    click_css(client, &node, &format!("the node of step {step}")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_tree_is_an_accessible_tree_whose_nodes_jump_to_their_steps() {
    page_or_skip!(page, client);
    // `queens trace 5`: queens placed at steps 2 (0, 0), 8 (2, 1), 18 (4, 2), 22 (1, 3) and
    // 30 (3, 4); step 6 is the conflict of (1, 1) with (0, 0).
    open_learn(&page, "n=5&algo=backtrack&tree=1&step=end", "Step 31 of 31").await;
    let tree = js(
        client,
        "const t = document.querySelector('#learn-tree[role=\"tree\"]');
         const items = [...t.querySelectorAll('[role=\"treeitem\"]')];
         return { items: items.length,
                  levels: items.filter((li) => li.classList.contains('on-path')).map((li) => li.getAttribute('aria-level')),
                  path: items.filter((li) => li.classList.contains('on-path')).map((li) => li.dataset.step),
                  current: t.querySelector('[aria-current=\"step\"]').dataset.step,
                  groups: t.querySelectorAll('[role=\"group\"]').length,
                  tabStops: items.filter((li) => li.tabIndex === 0).length };",
    )
    .await;
    assert_eq!(
        tree["levels"],
        json!(["1", "2", "3", "4", "5", "6"]),
        "{tree}"
    );
    assert_eq!(
        tree["path"],
        json!(["0", "2", "8", "18", "22", "30"]),
        "{tree}"
    );
    assert_eq!(tree["current"], json!("30"), "{tree}");
    assert_eq!(tree["groups"], json!(5), "{tree}");
    assert_eq!(tree["tabStops"], json!(1), "one tab stop: {tree}");
    let levels = text(client, "learn-tree-levels").await;
    assert_eq!(
        levels,
        "Tries per column: column 0: 1, column 1: 3, column 2: 5, column 3: 2, column 4: 4."
    );
    assert!(address(client).await.contains("tree=1"));

    // A click on a node jumps to its step; the tree then shows the path to it.
    click_node(client, 8).await;
    wait_for_text(client, "learn-step-label", "Step 8 of 31").await;
    let path = js(
        client,
        "return [...document.querySelectorAll('#learn-tree li.on-path')].map((li) => li.dataset.step);",
    )
    .await;
    assert_eq!(path, json!(["0", "2", "8"]));
    // A pruned leaf, drawn as such, jumps to its conflict.
    let pruned = js(
        client,
        "const li = document.querySelector('#learn-tree li.pruned[data-step=\"6\"]'); return li && li.textContent;",
    )
    .await;
    assert_eq!(pruned, json!("\u{2717} row 1: diagonal of (0, 0)"));
    click_node(client, 6).await;
    wait_for_text(client, "learn-step-label", "Step 6 of 31").await;

    // The keyboard: the focus stays in the tree; ↑ moves to the node above, Enter jumps there.
    let focused = "document.activeElement.dataset.node || null";
    let before: Value = value_of(client, focused).await;
    assert!(before.is_string(), "the clicked node has the focus");
    press(client, ARROW_UP).await;
    let after = value_of(client, focused).await;
    assert_ne!(after, before, "↑ moves the focus within the tree");
    assert_text_starts(client, "learn-step-label", "Step 6 of 31").await;
    let step = value_of(client, "document.activeElement.dataset.step").await;
    press(client, ENTER).await;
    let step = step.as_str().expect("a step").to_string();
    let label = if step == "0" {
        "Step 0 of 31".to_string()
    } else {
        format!("Step {step} of 31")
    };
    wait_for_text(client, "learn-step-label", &label).await;
    finish(&page, "in the search tree").await;
}

/// The trace of `algo` on N = 8 as the server gives it (`/api/trace`, up to the first
/// solution): its number of events, its tries (the summary's), and the tries on each level (the
/// column of a column-wise search's try, else its row), counted from the events.
async fn trace_of_8(client: &fantoccini::Client, algo: &str) -> (u64, u64, Vec<u64>) {
    let trace = client
        .execute_async(
            "const [algo, done] = arguments;
             fetch(`/api/trace?n=8&algo=${algo}&limit=100000`).then((r) => r.json()).then((body) => {
               const levels = [];
               for (const ev of body.events) {
                 if (ev.event !== 'try') continue;
                 const level = body.positions_by === 'column' ? ev.col : ev.row;
                 while (levels.length <= level) levels.push(0);
                 levels[level]++;
               }
               done({ events: body.events.length, tries: body.summary.tries, levels, cut: body.cut });
             }, (e) => done({ error: String(e) }));",
            vec![json!(algo)],
        )
        .await
        .unwrap_or_else(|e| panic!("the trace of {algo} is fetched: {e}"));
    assert_eq!(
        trace["cut"],
        json!(false),
        "{algo}: the whole trace: {trace}"
    );
    let count = |v: &Value| v.as_u64().unwrap_or_else(|| panic!("a count in {trace}"));
    let levels = trace["levels"]
        .as_array()
        .unwrap_or_else(|| panic!("{algo}: {trace}"))
        .iter()
        .map(count)
        .collect();
    (count(&trace["events"]), count(&trace["tries"]), levels)
}

/// A count as the page writes it: 1,963.
fn grouped(k: u64) -> String {
    let digits = k.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tree_of_every_algorithm_on_8x8_stays_legible_at_1280_by_800() {
    page_or_skip!(page, client);
    super::learn_layout::set_viewport(client, 1280, 800).await;
    let algorithms = js(
        client,
        "return [...document.getElementById('learn-algo').options].map((o) => o.value);",
    )
    .await;
    let algorithms: Vec<String> = serde_json::from_value(algorithms).expect("the algorithms");
    assert_eq!(algorithms.len(), 6, "six algorithms: {algorithms:?}");
    for algo in algorithms.iter().map(String::as_str) {
        let (events, tries, per_level) = trace_of_8(client, algo).await;
        let steps = grouped(events);
        // Halfway through the search, then at its end.
        for step in [events / 2, events] {
            open_learn(
                &page,
                &format!("n=8&algo={algo}&tree=1&step={step}"),
                &format!("Step {} of {steps}", grouped(step)),
            )
            .await;
            let seen = js(
            client,
            "const t = document.getElementById('learn-tree');
             const box = t.getBoundingClientRect();
             const cur = t.querySelector('[aria-current=\"step\"] > .tree-label').getBoundingClientRect();
             const items = t.querySelectorAll('[role=\"treeitem\"]');
             const fonts = [...t.querySelectorAll('.tree-label, .tree-label code')].map((e) => parseFloat(getComputedStyle(e).fontSize));
             return { width: innerWidth, height: innerHeight, tree: [box.left, box.top, box.right, box.bottom],
                      current: [cur.left, cur.top, cur.bottom, cur.right], items: items.length,
                      font: Math.min(parseFloat(getComputedStyle(t).fontSize), ...fonts),
                      line: document.querySelector('#learn-tree-levels').textContent,
                      arrays_cut: [...document.querySelectorAll('.arrays')].filter((a) => a.offsetParent && a.scrollWidth > a.clientWidth + 1).map((a) => a.id),
                      arrays_bottom: document.getElementById('learn-arrays').getBoundingClientRect().bottom };",
        )
        .await;
            let num = |v: &Value| v.as_f64().expect("a number");
            let b: Vec<f64> = seen["tree"]
                .as_array()
                .expect("a box")
                .iter()
                .map(num)
                .collect();
            let c: Vec<f64> = seen["current"]
                .as_array()
                .expect("a box")
                .iter()
                .map(num)
                .collect();
            assert!(
                b[0] >= 0.0
                    && b[2] <= num(&seen["width"])
                    && b[1] >= 0.0
                    && b[3] <= num(&seen["height"]),
                "{algo}: the tree is on screen: {seen}"
            );
            assert!(b[3] - b[1] >= 150.0, "{algo}: the tree has room: {seen}");
            assert!(
                c[1] >= b[1] && c[2] <= b[3] && c[0] >= b[0] && c[3] <= b[2],
                "{algo}: the node the search stands on is in view: {seen}"
            );
            let items = seen["items"].as_u64().expect("a count");
            assert!(
            (9..=120).contains(&items),
            "{algo}: {tries} tries, collapsed to the path and its neighbours: {items} nodes drawn"
        );
            assert!(num(&seen["font"]) >= 12.0, "{algo}: legible: {seen}");
            // With the tree the state's arrays are whole, not cut behind a scroll bar, and on
            // screen.
            assert_eq!(
                seen["arrays_cut"],
                json!([]),
                "{algo}: the arrays in full: {seen}"
            );
            assert!(
                num(&seen["arrays_bottom"]) <= num(&seen["height"]),
                "{algo}: the arrays on screen: {seen}"
            );
            if step < events {
                continue;
            }
            // The tries per level are the trace's, and add up to its tries.
            let line = if algo == "backtrack" { "column" } else { "row" };
            let levels = seen["line"].as_str().expect("text");
            let shown: Vec<u64> = levels
                .strip_prefix(&format!("Tries per {line}: "))
                .unwrap_or_else(|| panic!("{algo}: {levels}"))
                .trim_end_matches('.')
                .split(", ")
                .map(|part| {
                    part.rsplit(' ')
                        .next()
                        .and_then(|k| k.replace(',', "").parse::<u64>().ok())
                        .unwrap_or_else(|| panic!("{algo}: a count in {part}"))
                })
                .collect();
            assert_eq!(shown, per_level, "{algo}: {levels}");
            assert_eq!(shown.iter().sum::<u64>(), tries, "{algo}: {levels}");
        }
    }
    finish(&page, "with the trees of 8x8").await;
}

/// The tree as drawn: each node shown as [node, aria-level, aria-expanded (or null), on the
/// path], the node with the focus, the step label, and whether the panel shows.
const TREE_NOW: &str = "const t = document.getElementById('learn-tree');
  const a = document.activeElement;
  return { items: [...t.querySelectorAll('[role=\"treeitem\"]')].map((li) => [li.dataset.node, li.getAttribute('aria-level'), li.getAttribute('aria-expanded'), li.classList.contains('on-path')]),
           focus: t.contains(a) && a.dataset.node !== undefined ? a.dataset.node : null,
           label: document.getElementById('learn-step-label').textContent,
           hidden: document.getElementById('learn-tree-panel').hidden };";

const ARROW_LEFT: &str = "\u{E012}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";

/// The node `id` as drawn in `tree` (a [`TREE_NOW`]): [node, level, expanded, on the path].
fn node<'a>(tree: &'a Value, id: &str) -> &'a Value {
    tree["items"]
        .as_array()
        .expect("the nodes")
        .iter()
        .find(|item| item[0] == json!(id))
        .unwrap_or_else(|| panic!("node {id} is drawn: {tree}"))
}

/// Presses `keys` and reads the tree then (a [`TREE_NOW`]).
async fn tree_after(client: &Client, keys: &str) -> Value {
    press(client, keys).await;
    js(client, TREE_NOW).await
}

/// Checks that the node `id` has the focus in `tree`, saying `what` if not.
fn assert_focus(tree: &Value, id: &str, what: &str) {
    assert_eq!(tree["focus"], json!(id), "{what}: {tree}");
}

/// How many nodes `tree` shows.
fn nodes_shown(tree: &Value) -> usize {
    tree["items"].as_array().expect("the nodes").len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tree_keys_open_close_and_move_and_its_box_turns_it_on_and_off() {
    page_or_skip!(page, client);
    // The box: off at first, on adds tree=1 to the address, off takes it away.
    open_learn(&page, "n=6&algo=backtrack&step=end", "Step 393 of 393").await;
    let tree = js(client, TREE_NOW).await;
    assert_eq!(tree["hidden"], json!(true), "no tree unless asked: {tree}");
    assert!(!address(client).await.contains("tree=1"));
    click(client, "learn-tree-on").await;
    wait_until(
        client,
        "return !document.getElementById('learn-tree-panel').hidden && document.querySelectorAll('#learn-tree [role=\"treeitem\"]').length > 1;",
        "the box shows the tree",
    )
    .await;
    assert!(address(client).await.contains("tree=1"));

    // Tab reaches the tree's one tab stop: the node the search stands on.
    js(
        client,
        "document.querySelector('#learn-tree [role=\"treeitem\"][tabindex=\"0\"]').focus(); return true;",
    )
    .await;
    let tree = js(client, TREE_NOW).await;
    let current = value_of(
        client,
        "document.querySelector('#learn-tree [aria-current=\"step\"]').dataset.node",
    )
    .await;
    assert_eq!(
        tree["focus"], current,
        "the tab stop is the current node: {tree}"
    );

    // Home: the root; End: the last node shown.
    let tree = tree_after(client, HOME).await;
    assert_focus(&tree, "0", "Home: the empty board");
    let tree = tree_after(client, END).await;
    let items = tree["items"].as_array().expect("the nodes");
    let last = &items[items.len() - 1][0];
    assert_eq!(&tree["focus"], last, "End: the last node shown: {tree}");

    // Node 1, (0, 0) given up, is collapsed off the path: → opens it, the focus staying there;
    // → again enters it; ← goes back up to it; ← closes it; ← goes to its parent, the root.
    press(client, HOME).await;
    let tree = tree_after(client, ARROW_DOWN).await;
    assert_focus(&tree, "1", "↓ from the root");
    assert_eq!(
        node(&tree, "1"),
        &json!(["1", "2", "false", false]),
        "{tree}"
    );
    let shown = items.len();
    let tree = tree_after(client, ARROW_RIGHT).await;
    assert_focus(&tree, "1", "→ opens, the focus stays");
    assert_eq!(node(&tree, "1")[2], json!("true"), "→ opens it: {tree}");
    assert!(nodes_shown(&tree) > shown, "its children are shown: {tree}");
    let tree = tree_after(client, ARROW_RIGHT).await;
    let child = tree["focus"]
        .as_str()
        .expect("a node has the focus")
        .to_string();
    assert_ne!(child, "1", "→ on an open node enters it: {tree}");
    assert_eq!(
        node(&tree, &child)[1],
        json!("3"),
        "its first child: {tree}"
    );
    let tree = tree_after(client, ARROW_LEFT).await;
    assert_focus(&tree, "1", "← on a closed child: its parent");
    let tree = tree_after(client, ARROW_LEFT).await;
    assert_eq!(node(&tree, "1")[2], json!("false"), "← closes it: {tree}");
    assert_focus(&tree, "1", "the focus stays");
    assert_eq!(nodes_shown(&tree), shown, "{tree}");
    let tree = tree_after(client, ARROW_LEFT).await;
    assert_focus(&tree, "0", "← on a closed node: its parent");

    // A node open because it is on the search's path closes too (WAI-ARIA: ← closes an open
    // node), and → opens it again.
    assert_eq!(node(&tree, "0")[2], json!("true"), "{tree}");
    let tree = tree_after(client, ARROW_LEFT).await;
    assert_focus(&tree, "0", "the focus stays on the root");
    assert_eq!(
        tree["items"],
        json!([["0", "1", "false", true]]),
        "← closes the root, on the path: {tree}"
    );
    let tree = tree_after(client, ARROW_RIGHT).await;
    assert_eq!(
        node(&tree, "0")[2],
        json!("true"),
        "→ opens it again: {tree}"
    );
    assert_eq!(nodes_shown(&tree), shown, "{tree}");
    // None of these keys moved the search.
    assert_eq!(tree["label"], json!("Step 393 of 393"), "{tree}");

    // The box again: the tree goes, and tree=1 leaves the address.
    click(client, "learn-tree-on").await;
    wait_until(
        client,
        "return document.getElementById('learn-tree-panel').hidden;",
        "the box hides the tree",
    )
    .await;
    assert!(!address(client).await.contains("tree=1"));
    finish(&page, "with the tree's keys").await;
}
