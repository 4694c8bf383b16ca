// The tester page of `robotrules serve` without its server (`cargo xtask static-tester DIR`):
// this module loads the WebAssembly engine of the `robotrules` npm package (wasm-bindgen's
// `--target web` glue, `robotrules_js.js`, and `robotrules_js_bg.wasm` next to it) and hands
// the page (`app.js`, unchanged) an engine it asks instead of posting to `/api/...`:
// `robotrulesEngine(endpoint, body)` answers with the JSON the server answers (`testerApi`,
// `crates/robotrules-js/src/tester.rs`), or throws the server's `{"error": "…"}` message.
// The file the page holds never leaves the browser.
//
// A module script runs after the document is parsed and before app.js (a `defer` script
// placed after it), so the engine is there when app.js first asks.
import init, { testerApi } from "./robotrules_js.js";

const ready = init();

window.robotrulesEngine = async (endpoint, body) => {
  await ready;
  const answer = JSON.parse(testerApi(endpoint, JSON.stringify(body)));
  if (answer !== null && typeof answer.error === "string") throw new Error(answer.error);
  return answer;
};

// What only the server does: fetching a live robots.txt, and the diff's sentences.
const SERVER_ONLY =
  "needs the tester's server (robotrules serve); this page runs on WebAssembly in your browser, " +
  "and the file you paste never leaves it.";
for (const id of ["load-url", "load-button", "compare"]) {
  const control = document.getElementById(id);
  if (control) control.disabled = true;
}
const loadStatus = document.getElementById("load-status");
if (loadStatus) loadStatus.textContent = "Loading from a site " + SERVER_ONLY + " Paste the file instead.";
const diffSummary = document.getElementById("diff-summary");
if (diffSummary) diffSummary.textContent = "Comparing two versions " + SERVER_ONLY;
const intro = document.querySelector("header p");
if (intro) intro.textContent = intro.textContent.replace("Nothing leaves this server.", "Nothing leaves this browser.");
const footer = document.querySelector("footer p");
if (footer) {
  footer.textContent =
    "robotrules tester, static build: the answers are the robotrules engine's, compiled to WebAssembly and run in this page.";
}
document.body.dataset.engine = "wasm";
