//! Learn says only true things: every step of N = 4..8 for every algorithm (and of the whole
//! search, every solution, for N = 4..6) is played in the page, and each claim its explanation,
//! its board marks, its running lines and its loop variables make is checked against the
//! search's state as the server's trace gives it (`/api/trace`, the Rust solvers' own events):
//! the queen named as an attacker stands there and attacks along the line named, the untried row
//! said to exist exists and is the one tried next, the step said to come next comes next, the
//! squares of a line given up are attacked (or safe) as marked, the seed's figure marks just the
//! squares its test checks (at a conflict, up to the first attacker), with `CC` over the current
//! column only (and no `CC` at any other step), and the lines that write an array entry are
//! among the running ones (for BFS: the board taken off the queue, the board queued, the queue's
//! length), BFS's board table marking as changed just the entries written.
//! The checks are written here, apart from the page's code, with their own attack test.

use serde_json::{json, Value};

use crate::*;

/// The checker, run in the page: fetches the trace, clicks Step through it, and checks every
/// step as shown. Returns { fails, counts, steps, events }.
const CHECK: &str = r##"
const [n, algo, all, done] = arguments;
(async () => {
  const response = await fetch(`/api/trace?n=${n}&algo=${algo}&limit=100000&all=${all}`);
  const body = await response.json();
  const events = body.events;
  const byColumn = body.positions_by === "column";
  const fails = [];
  const counts = {};
  let at = "";
  const claim = (kind, ok, what) => {
    counts[kind] = (counts[kind] || 0) + 1;
    if (!ok && fails.length < 25) fails.push(`${algo} N=${n}${all ? " all" : ""} ${at}: ${kind}: ${what}`);
  };
  // The queens of an event as {row, col}; the line of a square (its column for the column-wise
  // search, else its row); whether a queen attacks a square and along what.
  const queens = (ev) => ev.positions.map((p, i) => (p < 0 ? null : byColumn ? { row: p, col: i } : { row: i, col: p })).filter(Boolean);
  const line = (r, c) => (byColumn ? c : r);
  const along = (q, r, c) => {
    if (q.row === r && q.col === c) return null;
    if (q.row === r) return "row";
    if (q.col === c) return "column";
    return Math.abs(q.row - r) === Math.abs(q.col - c) ? "diagonal" : null;
  };
  const earlier = (ev, r, c) => queens(ev).filter((q) => line(q.row, q.col) < line(r, c));
  const attackers = (ev, r, c) => earlier(ev, r, c).filter((q) => along(q, r, c));
  const read = () => ({
    label: document.getElementById("learn-step-label").textContent,
    explain: document.getElementById("learn-explain").textContent,
    lines: [...document.querySelectorAll("#learn-code li.current")].map((li) => li.textContent.trim()),
    vars: document.getElementById("learn-vars").textContent,
    tags: [...document.querySelectorAll("#board .tag")].map((g) => ({ row: +g.dataset.row, col: +g.dataset.col, text: g.textContent })),
    queue: (document.querySelector("#learn-arrays .queue") || { textContent: "" }).textContent,
    // The seed's CC: the column numbers, and the columns under each "CC" number and each
    // frame of the current column, found by where they stand over the first row's squares.
    cc: (() => {
      const squares = [...document.querySelectorAll('#board rect.square[data-row="0"]')].map((r) => r.getBoundingClientRect());
      const over = (e) => {
        const b = e.getBoundingClientRect();
        const x = (b.left + b.right) / 2;
        return squares.findIndex((q) => q.left <= x && x < q.right);
      };
      const numbers = [...document.querySelectorAll("#board .col-number")];
      return {
        numbers: numbers.map((t) => t.textContent),
        marked: numbers.filter((t) => /CC/.test(t.textContent)).map(over),
        frames: [...document.querySelectorAll("#board .current-column")].map(over),
      };
    })(),
    // The entries each array table marks as just changed: [caption, [index, ...]].
    changed: [...document.querySelectorAll("#learn-arrays table.array")].map((t) => [
      t.caption ? t.caption.textContent : "",
      [...t.querySelectorAll("td.changed")].map((td) => td.cellIndex - 1),
    ]),
  });
  // The lines of each listing that write the board's array (and, for backtrack, untried).
  const WRITES = {
    backtrack: { positions: /^setPosition\(/, untried: /^setPositionTried|^setAllPositionsUntried/ },
    iterative: { positions: /^queens\[k\] \u2190/ },
    recursive: { positions: /^x\[k\] \u2190/ },
    // Wirth's listing never clears x[i]: taking a queen back is resetting a, b and c (line 7).
    wirth: { positions: /^x\[i\] \u2190|^a\[j\] \u2190/ },
    bitboard: { positions: /^queen\[k\] \u2190/ },
    // BFS's board is the one taken off the queue (line 2); a board queued is that board and one
    // queen more (line 7, or line 0 for the empty board); both lines change the queue.
    bfs: { board: /^board \u2190 dequeue\(\)/, queued: /^enqueue\(|^queue \u2190 \[/, queue: /^queue \u2190 \[|^board \u2190 dequeue\(\)|^enqueue\(/ },
  };
  // The loop variables a try shows.
  const TRY_VARS = {
    backtrack: (ev) => `col = ${ev.col}, row = ${ev.row}`,
    iterative: (ev) => `k = ${ev.row}, j = ${ev.col}`,
    recursive: (ev) => `k = ${ev.row}, i = ${ev.col}`,
    wirth: (ev) => `i = ${ev.row}, j = ${ev.col}`,
    bfs: (ev) => `k = ${ev.row}, j = ${ev.col}`,
    bitboard: (ev) => `k = ${ev.row}, bit = 1 << ${ev.col}`,
  };
  const sq = (text) => [...text.matchAll(/row (\d+), column (\d+)/g)].map((m) => ({ row: +m[1], col: +m[2] }));
  const numbers = (text) => (text.match(/\d+/g) || []).map(Number);

  // BFS's state before the step being checked: the board taken off the queue (the empty board
  // at first) and the queue's length.
  let bfsBoard = new Array(n).fill(-1);
  let bfsQueue = 0;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const check = (i, shown) => {
    const ev = events[i];
    const prev = i > 0 ? events[i - 1] : null;
    const next = events[i + 1] || null;
    const text = shown.explain;
    at = `step ${i + 1} (${ev.event})`;
    // The running lines write what changed.
    const writes = WRITES[algo];
    if (algo === "bfs") {
      // What the step writes, from the trace: the board (a dequeue), the board queued (the
      // event's board, the board and one queen more), the queue's length.
      const board = ev.event === "dequeue" ? ev.positions : bfsBoard;
      const changed = [];
      if (!same(board, bfsBoard)) changed.push("board");
      if (!same(ev.positions, board)) changed.push("queued");
      if (typeof ev.queue === "number" && ev.queue !== bfsQueue) changed.push("queue");
      for (const what of changed) {
        claim("writes", shown.lines.some((l) => writes[what].test(l)), `${what} changed but the running lines ${JSON.stringify(shown.lines)} do not write it`);
      }
      // The board's table marks as changed just the entries the step wrote: those of the board
      // taken out that differ from the board before, or the queen a queued board adds.
      const want = ev.positions.map((p, k) => (p !== bfsBoard[k] ? k : null)).filter((k) => k !== null);
      const table = shown.changed[0] || ["", []];
      claim("changed cells", same(table[1], want), `the table "${table[0]}" marks ${JSON.stringify(table[1])} changed, not ${JSON.stringify(want)} (${changed})`);
      if (ev.event === "enqueue" && ev.row !== null) {
        claim("queued caption", table[0].startsWith(`queued: board + queen at (${ev.row}, ${ev.col})`), `the table "${table[0]}" holds the board queued`);
      }
      bfsBoard = board;
      if (typeof ev.queue === "number") bfsQueue = ev.queue;
    } else if (writes && prev) {
      const changed = [];
      if (JSON.stringify(prev.positions) !== JSON.stringify(ev.positions)) changed.push("positions");
      if (prev.untried && JSON.stringify(prev.untried) !== JSON.stringify(ev.untried)) changed.push("untried");
      for (const what of changed) {
        claim("writes", shown.lines.some((l) => writes[what].test(l)), `${what} changed but the running lines ${JSON.stringify(shown.lines)} do not write it`);
      }
    }
    if (ev.event === "try") {
      claim("vars", shown.vars.startsWith(TRY_VARS[algo](ev)), `vars "${shown.vars}"`);
      if (byColumn) {
        const m = text.match(/getUntried\((\d+)\) = (\d+); setPositionTried: untried\[(\d+)\] becomes (\d+)/);
        const was = prev && prev.untried ? prev.untried[ev.col] : 0;
        claim("untried", m && +m[2] === ev.row && was === ev.row && +m[4] === ev.untried[ev.col], `"${text}" with untried ${JSON.stringify(ev.untried)}, before ${was}`);
      }
    }
    if (ev.event === "conflict") {
      const named = sq(text).filter((q) => !(q.row === ev.row && q.col === ev.col));
      claim("attacker named", named.length >= 1, `"${text}"`);
      for (const q of named) {
        const here = queens(ev).some((p) => p.row === q.row && p.col === q.col);
        const kind = along(q, ev.row, ev.col);
        claim("attacker attacks", here && kind && line(q.row, q.col) < line(ev.row, ev.col), `"${text}": no earlier queen at (${q.row}, ${q.col}) attacking (${ev.row}, ${ev.col})`);
        const said = text.match(/on its (row|diagonal)|along their (row|column|diagonal)/);
        if (said) claim("attack line", (said[1] || said[2]) === kind, `"${text}": the line is ${kind}`);
        const diag = text.match(/the (\u2199|\u2198) diagonal i [+\u2212] j = (-?\d+) has a queen/);
        if (diag) {
          const ok = diag[1] === "\u2199" ? q.row + q.col === +diag[2] && ev.row + ev.col === +diag[2]
            : q.row - q.col === +diag[2] && ev.row - ev.col === +diag[2];
          claim("wirth diagonal", ok, `"${text}"`);
        }
        if (/column (\d+) has a queen/.test(text)) claim("wirth column", q.col === ev.col, `"${text}"`);
        // Wirth's test reads a, then b, then c: an entry said true has no queen on its line.
        for (const m of text.matchAll(/(a|b|c)\[[^\]]*?(-?\d+)\] is true/g)) {
          const k = +m[2];
          const on = (p) => (m[1] === "a" ? p.col === k : m[1] === "b" ? p.row + p.col === k : p.row - p.col + n - 1 === k);
          claim("wirth true entry", !earlier(ev, ev.row, ev.col).some(on), `"${text}"`);
        }
      }
      if (/stops at the first attacker/.test(text) && named.length) {
        const first = attackers(ev, ev.row, ev.col).sort((a, b) => line(a.row, a.col) - line(b.row, b.col))[0];
        claim("first attacker", first && first.row === named[0].row && first.col === named[0].col, `"${text}": the first is ${JSON.stringify(first)}`);
      }
      let m;
      if ((m = text.match(/next, row (\d+) of column (\d+)\./))) {
        claim("next", next && next.event === "try" && next.row === +m[1] && next.col === +m[2], `"${text}" then ${JSON.stringify(next)}`);
      } else if ((m = text.match(/next, column (\d+) of row (\d+)\./))) {
        claim("next", next && next.event === "try" && next.col === +m[1] && next.row === +m[2], `"${text}" then ${JSON.stringify(next)}`);
      } else if (/the search backs up next/.test(text)) {
        claim("next", next && next.event === "backtrack", `"${text}" then ${JSON.stringify(next)}`);
      } else if (/the next board comes off the queue/.test(text)) {
        claim("next", !next || next.event === "dequeue", `"${text}" then ${JSON.stringify(next)}`);
      } else {
        claim("next said", false, `"${text}" says nothing of what comes next`);
      }
    }
    if (ev.event === "place" || (ev.event === "enqueue" && ev.row !== null)) {
      claim("safe", attackers(ev, ev.row, ev.col).length === 0, `"${text}" but ${JSON.stringify(attackers(ev, ev.row, ev.col))} attack it`);
    }
    if (ev.event === "remove") {
      if (byColumn) {
        if (/try its next untried row\.$/.test(text)) {
          claim("untried left", ev.untried[ev.col] < n && next && next.event === "try" && next.col === ev.col && next.row === ev.untried[ev.col], `"${text}" with untried ${JSON.stringify(ev.untried)} then ${JSON.stringify(next)}`);
        } else if (/there is none/.test(text)) {
          claim("none left", ev.untried[ev.col] === n && (!next || next.event === "backtrack"), `"${text}" with untried ${JSON.stringify(ev.untried)}`);
        } else {
          claim("remove said", false, `"${text}"`);
        }
      } else if (/look further along its row/.test(text)) {
        // Further along the row is the next square tried (bitboard: the next free one).
        claim("further", next && next.event === "try" && next.row === ev.row && next.col > ev.col, `"${text}" then ${JSON.stringify(next)}`);
      } else if (/it was the last square of row|no free square of row \d+ is left past it/.test(text)) {
        // Nothing is left to try in the row: the last square, or (bitboard) no free one past it.
        const free = [...Array(n).keys()].filter((c) => c > ev.col && attackers(ev, ev.row, c).length === 0);
        const none = algo === "bitboard" ? free.length === 0 : ev.col === n - 1;
        claim("last square", none && (!next || next.event === "backtrack"), `"${text}" (free past it: ${free}) then ${JSON.stringify(next)}`);
      } else {
        claim("remove said", false, `"${text}" says nothing of what comes next`);
      }
    }
    if (ev.event === "backtrack") {
      const k = byColumn ? ev.col : ev.row;
      if (k !== null && k < n) {
        // Every square of the line was tried, or (bitboard) every free one.
        if (byColumn) {
          claim("exhausted", prev && prev.untried && prev.untried[k] === n, `"${text}" but untried was ${JSON.stringify(prev && prev.untried)}`);
        } else {
          const tried = new Set();
          for (let j = i - 1; j >= 0; j--) {
            const e = events[j];
            if ((e.event === "place" || e.event === "enqueue") && e.row === k - 1) break;
            if (e.event === "try" && e.row === k) tried.add(e.col);
          }
          const free = [...Array(n).keys()].filter((c) => attackers(ev, k, c).length === 0);
          const want = algo === "bitboard" ? free : [...Array(n).keys()];
          claim("exhausted", want.every((c) => tried.has(c)), `"${text}" but tried only ${[...tried]}`);
        }
        const cells = [...Array(n).keys()].map((x) => (byColumn ? { row: x, col: k } : { row: k, col: x }));
        const attacked = cells.filter((c) => attackers(ev, c.row, c.col).length > 0).map((c) => (byColumn ? c.row : c.col));
        const safe = cells.filter((c) => attackers(ev, c.row, c.col).length === 0).map((c) => (byColumn ? c.row : c.col));
        if (k > 0) {
          const no = text.match(/No (row|column) of (column|row) (\d+) is safe/);
          const are = text.match(/((?:Rows?|Columns?) [\d, and]+) (?:is|are) attacked/);
          const were = text.match(/((?:[Rr]ows?|[Cc]olumns?) [\d, and]+) (?:was|were) safe/);
          if (no) claim("none safe", safe.length === 0, `"${text}" but ${safe} are safe`);
          if (are) claim("attacked", JSON.stringify(numbers(are[1])) === JSON.stringify(attacked), `"${text}": attacked ${attacked}`);
          if (were) claim("were safe", JSON.stringify(numbers(were[1])) === JSON.stringify(safe), `"${text}": safe ${safe}`);
          claim("why given", Boolean(no || were), `"${text}"`);
          const choice = text.match(/the queen of (column|row) (\d+) \(on (row|column) (\d+)\), must change/);
          claim("latest choice", choice && +choice[2] === k - 1 && ev.positions[k - 1] === +choice[4], `"${text}"`);
          const back = text.match(/back up to (column|row) (\d+)\./);
          claim("backs up", back && +back[2] === k - 1 && next && next.event === "remove" && line(next.row, next.col) === k - 1, `"${text}" then ${JSON.stringify(next)}`);
          // Each square of the line marked: ×m, a queen of line m attacks it; ✓, none does.
          for (const c of cells) {
            const tag = shown.tags.find((t) => t.row === c.row && t.col === c.col);
            const m = tag && tag.text.match(/^\u00d7(\d+)$/);
            const by = m && queens(ev).find((q) => line(q.row, q.col) === +m[1]);
            const ok = tag && (m ? by && along(by, c.row, c.col) && +m[1] < k : tag.text === "\u2713" && attackers(ev, c.row, c.col).length === 0);
            claim("backtrack mark", ok, `square (${c.row}, ${c.col}) marked ${tag ? tag.text : "nothing"}`);
          }
        }
      }
    }
    // The seed's figure: Q? on the candidate, and in each earlier column R?/R! on its row and
    // D?/D! on its diagonals, "!" just where a queen stands; nothing else. A conflict marks only
    // the columns the test looked at, up to the first attacker's (it stops there).
    if (byColumn && ["try", "conflict", "place"].includes(ev.event)) {
      const want = [{ row: ev.row, col: ev.col, text: "Q?" }];
      const first = ev.event === "conflict" ? attackers(ev, ev.row, ev.col).sort((a, b) => a.col - b.col)[0] : null;
      for (let a = 0; a < (first ? first.col + 1 : ev.col); a++) {
        const d = ev.col - a;
        want.push({ row: ev.row, col: a, text: ev.positions[a] === ev.row ? "R!" : "R?" });
        for (const r of [ev.row - d, ev.row + d]) {
          if (r >= 0 && r < n) want.push({ row: r, col: a, text: ev.positions[a] === r ? "D!" : "D?" });
        }
      }
      const key = (t) => `${t.row},${t.col},${t.text}`;
      const got = shown.tags.map(key).sort();
      claim("seed figure", JSON.stringify(got) === JSON.stringify(want.map(key).sort()), `marks ${got} instead of ${want.map(key).sort()}`);
      // CC over the current column only: its number reads "CC c", and one frame outlines it.
      const cc = shown.cc;
      claim("CC", same(cc.numbers.filter((t) => /CC/.test(t)), [`CC ${ev.col}`]) && same(cc.marked, [ev.col]) && same(cc.frames, [ev.col]),
        `column numbers ${JSON.stringify(cc.numbers)}, CC over columns ${JSON.stringify(cc.marked)}, frames over ${JSON.stringify(cc.frames)}, not column ${ev.col} alone`);
    } else {
      // No conflict test, no CC.
      claim("no CC", !shown.cc.numbers.some((t) => /CC/.test(t)) && shown.cc.frames.length === 0, `CC at a ${ev.event}: ${JSON.stringify(shown.cc)}`);
    }
    if (algo === "bfs" && /being filled/.test(shown.queue)) {
      const m = shown.queue.match(/Queue: ([\d,]+) boards? waiting: ([\d,]+) with .* filled, ([\d,]+) with/);
      let queue = null;
      for (let j = i; j >= 0 && queue === null; j--) if (typeof events[j].queue === "number") queue = events[j].queue;
      const num = (s) => Number(s.replace(/,/g, ""));
      claim("queue", m && num(m[1]) === queue && num(m[2]) + num(m[3]) === queue, `"${shown.queue}" with ${queue} waiting`);
    }
  };

  document.getElementById("learn-start").click();
  const step = document.getElementById("learn-step");
  let i = -1;
  while (!step.disabled) {
    step.click();
    i++;
    if (i < events.length) check(i, read());
  }
  done({ fails, counts, steps: i + 1, events: events.length });
})().catch((e) => done({ error: String(e && e.stack || e) }));
"##;

/// Plays every step of `algo` on `n` (the whole search when `all`) and returns the checker's
/// report.
async fn replay(page: &Page, algo: &str, n: usize, all: bool) -> Value {
    let client = &page.client;
    let query = format!("n={n}&algo={algo}{}", if all { "&all=1" } else { "" });
    open_learn(page, &query, "Step 0 of").await;
    client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(std::time::Duration::from_secs(300)),
            None,
            None,
        ))
        .await
        .expect("a longer script timeout");
    let report = client
        .execute_async(CHECK, vec![json!(n), json!(algo), json!(all)])
        .await
        .unwrap_or_else(|e| panic!("the checker runs for {algo} N = {n}: {e}"));
    assert!(report.get("error").is_none(), "{algo} N = {n}: {report}");
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_claim_of_every_step_holds_for_every_algorithm_from_4_to_8() {
    let page = page_or_skip!();
    let mut fails = Vec::new();
    let algorithms = js(
        &page.client,
        "return [...document.getElementById('learn-algo').options].map((o) => o.value);",
    )
    .await;
    let algorithms: Vec<String> = serde_json::from_value(algorithms).expect("the algorithms");
    assert_eq!(
        algorithms.len(),
        6,
        "Learn offers the six algorithms: {algorithms:?}"
    );
    for algo in algorithms.iter().map(String::as_str) {
        let mut total = serde_json::Map::new();
        let runs = (4..=8)
            .map(|n| (n, false))
            .chain((4..=6).map(|n| (n, true)));
        for (n, all) in runs {
            let report = replay(&page, algo, n, all).await;
            assert!(
                report["steps"].as_u64() >= report["events"].as_u64(),
                "{algo} N = {n}: the page plays the whole trace: {report}"
            );
            for f in report["fails"].as_array().expect("fails") {
                fails.push(f.as_str().expect("a line").to_string());
            }
            for (kind, k) in report["counts"].as_object().expect("counts") {
                let sum =
                    total.get(kind).and_then(Value::as_u64).unwrap_or(0) + k.as_u64().unwrap_or(0);
                total.insert(kind.clone(), json!(sum));
            }
        }
        // Each algorithm's kinds of claim were all met (a checker that matched nothing would pass
        // vacuously).
        let mut expected = vec!["vars", "safe", "no CC"];
        // Every search that backs up: the claims of a line given up and of what comes next.
        let backs_up = [
            "writes",
            "exhausted",
            "latest choice",
            "backs up",
            "backtrack mark",
        ];
        match algo {
            "backtrack" => expected.extend(backs_up.iter().chain(&[
                "untried",
                "attacker attacks",
                "first attacker",
                "next",
                "untried left",
                "none left",
                "none safe",
                "were safe",
                "seed figure",
                "CC",
            ])),
            "bfs" => expected.extend(["queue", "writes", "changed cells", "queued caption"]),
            "bitboard" => expected.extend(backs_up.iter().chain(&[
                "further",
                "last square",
                "none safe",
                "attacked",
                "were safe",
            ])),
            "wirth" => expected.extend(backs_up.iter().chain(&[
                "attacker attacks",
                "wirth column",
                "wirth diagonal",
                "wirth true entry",
                "next",
                "further",
            ])),
            _ => expected.extend(backs_up.iter().chain(&[
                "attacker attacks",
                "attack line",
                "next",
                "further",
                "none safe",
                "attacked",
                "were safe",
            ])),
        }
        for kind in expected {
            assert!(
                total.get(kind).and_then(Value::as_u64).unwrap_or(0) > 0,
                "{algo}: no claim of kind {kind} was checked: {total:?}"
            );
        }
    }
    assert!(
        fails.is_empty(),
        "claims that do not hold:\n{}",
        fails.join("\n")
    );
    assert_no_console_errors(&page.client, page.driver_port, "replaying every claim").await;
}
