// The queens board viewer: browse every solution, watch a search step by step, solve one board.
// Plain JavaScript modules, no build step, no network beyond this server. This entry module reads
// the server's limits and algorithm lists (/api/config), hands each view its part (js/browse.js,
// js/learn.js, js/solve.js), and keeps the tabs, the keys, the address and the download.

import { loadConfig } from "./js/api.js";
import { board, download } from "./js/board.js";
import { $ } from "./js/dom.js";
import * as browse from "./js/browse.js";
import * as learn from "./js/learn.js";
import * as solve from "./js/solve.js";

const VIEWS = { browse, learn, solve };
const MODES = Object.keys(VIEWS);

let mode = "browse";

// Hovering (or touching) a square shows what a queen there would attack; only in Browse and
// Solve, where the board is not busy showing a search.
function onBoardPointer(event) {
  if (mode === "learn") return;
  if (!board.svg) return;
  const rect = event.target.closest && event.target.closest("rect.square");
  board.clearMarks();
  if (!rect || event.type === "pointerleave") return;
  const r = Number(rect.dataset.row);
  const c = Number(rect.dataset.col);
  rect.classList.add("hovered");
  board.markAttackedFrom(r, c);
}

function setMode(to) {
  learn.pause();
  if (mode === "learn" && to !== "learn") learn.hide();
  mode = to;
  document.body.dataset.mode = to;
  for (const name of MODES) {
    const tab = $(`tab-${name}`);
    const on = name === to;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    $(`panel-${name}`).hidden = !on;
  }
  $("board-caption").textContent = "";
  VIEWS[to].show();
  saveUrl();
}

function saveUrl() {
  const params = new URLSearchParams();
  if (mode !== "browse") params.set("mode", mode);
  VIEWS[mode].toUrl(params);
  const url = `/?${params}`;
  if (url !== location.pathname + location.search) history.replaceState(null, "", url);
}

// The state a shared address asks for: /?n=8&i=5, /?n=8&i=2&unique=1, /?mode=learn&n=6&algo=wirth,
// /?mode=solve&n=24&algo=bitboard. Each view reads its own part of `params`.
// A size is written in digits only, as the command line takes it (not `1e1`, `+8` or ` 8`):
// `n` is null when the address gives none or one that is no size, and `nText` is what it gave.
function readUrl() {
  const params = new URLSearchParams(location.search);
  const asked = params.get("mode");
  const nText = params.get("n");
  const n = nText !== null && /^[0-9]+$/.test(nText) ? Number(nText) : NaN;
  return {
    mode: asked !== "browse" && MODES.includes(asked) ? asked : "browse",
    n: Number.isSafeInteger(n) && n >= 1 ? n : null,
    nText,
    algo: params.get("algo"),
    params,
  };
}

// The page's keys act only when no form control has the focus: a focused button, box,
// slider, list or field keeps its own keys (Space presses a button and ticks a box, the arrows
// move a slider and change a list). `?` shows the list of keys anywhere but in a text field.
function controlFocused(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toLowerCase();
  if (["input", "select", "textarea", "button", "summary", "a", "dialog"].includes(tag)) return true;
  return target.getAttribute && target.getAttribute("role") === "tab";
}

function typingIn(target) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toLowerCase();
  if (tag === "textarea" || target.isContentEditable) return true;
  return tag === "input" && !["checkbox", "radio", "range", "button", "submit", "reset"].includes(target.type);
}

function toggleKeys() {
  const dialog = $("keys");
  if (dialog.open) dialog.close();
  else dialog.showModal();
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "?" && !typingIn(event.target)) {
    event.preventDefault();
    toggleKeys();
    return;
  }
  if ($("keys").open || controlFocused(event.target)) return;
  const view = VIEWS[mode];
  if (view.onKey && view.onKey(event)) event.preventDefault();
}

// A control used with the pointer gives the focus back to the page, so the next arrow key
// moves the board and not the control; a control used from the keyboard keeps the focus (and
// its keys). `keyed` is the element the last key was pressed on.
let keyed = null;

function releaseFocus(event) {
  const target = event.target;
  if (!target || !target.tagName) return;
  const tag = target.tagName.toLowerCase();
  if (event.type === "change" && keyed !== target
    && (tag === "select" || (tag === "input" && ["checkbox", "range"].includes(target.type)))) {
    target.blur();
  } else if (event.type === "click" && tag === "button" && event.detail > 0 && !target.closest("dialog")) {
    target.blur();
  } else if (event.type === "pointerup" && tag === "input" && target.type === "range") {
    target.blur();
  }
}

function onTabKey(event) {
  const at = MODES.indexOf(mode);
  const count = MODES.length;
  let to = null;
  if (event.key === "ArrowRight") to = MODES[(at + 1) % count];
  else if (event.key === "ArrowLeft") to = MODES[(at + count - 1) % count];
  else if (event.key === "Home") to = MODES[0];
  else if (event.key === "End") to = MODES[count - 1];
  if (to) {
    event.preventDefault();
    setMode(to);
    $(`tab-${to}`).focus();
  }
}

async function init() {
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    $("label").textContent = `Could not load the page's settings: ${error.message}`;
    return;
  }
  const url = readUrl();
  browse.init(config.browse, url, saveUrl);
  learn.init(config.learn, url, saveUrl);
  solve.init(config.solve, url, saveUrl);

  $("download").addEventListener("click", () => download(VIEWS[mode].downloadSuffix()));
  for (const name of MODES) {
    $(`tab-${name}`).addEventListener("click", () => setMode(name));
    $(`tab-${name}`).addEventListener("keydown", onTabKey);
  }
  document.addEventListener("keydown", (event) => { keyed = event.target; }, true);
  document.addEventListener("pointerdown", () => { keyed = null; }, true);
  document.addEventListener("keydown", onKey);
  for (const button of document.querySelectorAll(".keys-button")) button.addEventListener("click", toggleKeys);
  document.addEventListener("change", releaseFocus);
  document.addEventListener("click", releaseFocus);
  document.addEventListener("pointerup", releaseFocus);
  const holder = $("board");
  holder.addEventListener("pointerover", onBoardPointer);
  holder.addEventListener("pointerleave", onBoardPointer);
  // A click on Learn's board does not give it the focus: the focused board is the keyboard's,
  // whose arrows move a cursor (js/learn.js), and a click leaves the arrows stepping.
  holder.addEventListener("mousedown", (event) => {
    if (mode === "learn") event.preventDefault();
  });
  holder.addEventListener("click", (event) => {
    if (mode !== "learn") return;
    const rect = event.target.closest && event.target.closest("rect.square");
    if (rect) learn.clickSquare(Number(rect.dataset.row), Number(rect.dataset.col));
  });

  document.body.dataset.mode = "browse";
  await browse.start();
  if (url.mode !== "browse") setMode(url.mode);
  document.body.dataset.ready = "true";
}

init();
