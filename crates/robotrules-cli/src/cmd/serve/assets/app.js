// robotrules serve: the tester page. Plain JavaScript, no build step, no dependencies.
// Every piece of data (the file, URLs, crawler names, server messages) goes into the page
// as text (textContent, value), never as markup.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const robots = $("robots");
  const gutter = $("gutter");
  const lineMark = $("line-mark");
  const urls = $("urls");
  const crawler = $("crawler");
  const customAgent = $("custom-agent");
  const newRobots = $("new-robots");
  const showProfile = $("show-profile");
  const PROFILES = ["rfc9309", "google", "legacy1994"];

  // State that is not in a form field: the URL the file was loaded from.
  let fileUrl = "";
  let selectedRow = null;
  let highlighted = 0;
  let findingsByLine = new Map();
  let generation = 0;

  // Elements ------------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // `text` with its Markdown code spans (`disallow`) as <code> elements, the rest as text:
  // lint messages and help are written for a terminal, where backticks mark code.
  function withCode(text) {
    const fragment = document.createDocumentFragment();
    String(text)
      .split("`")
      .forEach((part, i) => {
        if (part === "") return;
        fragment.append(i % 2 === 1 ? el("code", {}, part) : document.createTextNode(part));
      });
    return fragment;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  // API -----------------------------------------------------------------------------------

  async function api(endpoint, body) {
    // The static build has no server: the WebAssembly engine answers (its static.js).
    if (window.robotrulesEngine) return window.robotrulesEngine(endpoint, body);
    const response = await fetch("/api/" + endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let json;
    try {
      json = await response.json();
    } catch (_) {
      throw new Error("the server answered " + response.status + " without JSON");
    }
    if (!response.ok) throw new Error(json.error || "HTTP " + response.status);
    return json;
  }

  // The crawler -------------------------------------------------------------------------------

  function agent() {
    return crawler.value === "" ? customAgent.value.trim() : crawler.value;
  }

  function setAgent(name) {
    const known = Array.from(crawler.options).some((o) => o.value === name && name !== "");
    crawler.value = known ? name : "";
    customAgent.value = known ? "" : name;
    customAgent.hidden = known;
  }

  function urlList() {
    return urls.value
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
  }

  // The editor ------------------------------------------------------------------------------

  function lineCount() {
    return robots.value.split("\n").length;
  }

  function renderGutter() {
    clear(gutter);
    const count = lineCount();
    const fragment = document.createDocumentFragment();
    for (let n = 1; n <= count; n++) {
      const row = el("div", { class: "ln", dataset: { line: String(n) } });
      const findings = findingsByLine.get(n);
      if (findings) {
        const worst = findings[0].severity;
        const label = findings
          .map((f) => f.severity + " " + f.code + ": " + f.message + (f.help ? "\nhelp: " + f.help : ""))
          .join("\n");
        const marker = el(
          "button",
          { type: "button", class: "marker " + worst, title: label, "aria-label": "line " + n + ": " + label },
          worst === "error" ? "✕" : worst === "warning" ? "!" : "i"
        );
        marker.addEventListener("click", () => focusFinding(n));
        row.append(marker);
      }
      row.append(el("span", {}, String(n)));
      if (n === highlighted) row.classList.add("hl");
      fragment.append(row);
    }
    gutter.append(fragment);
    syncScroll();
  }

  function syncScroll() {
    gutter.scrollTop = robots.scrollTop;
    placeLineMark();
  }

  function lineHeight() {
    return parseFloat(getComputedStyle(robots).lineHeight) || 21;
  }

  function placeLineMark() {
    if (!highlighted) {
      lineMark.hidden = true;
      return;
    }
    const top = parseFloat(getComputedStyle(robots).paddingTop) || 0;
    lineMark.style.top = top + (highlighted - 1) * lineHeight() - robots.scrollTop + "px";
    lineMark.hidden = false;
  }

  // Highlights line `n` of the editor (0: none) and scrolls it into view.
  function highlight(n) {
    highlighted = n;
    for (const row of gutter.querySelectorAll(".ln.hl")) row.classList.remove("hl");
    if (n) {
      const row = gutter.querySelector('.ln[data-line="' + n + '"]');
      if (row) row.classList.add("hl");
      const want = (n - 1) * lineHeight();
      if (want < robots.scrollTop || want > robots.scrollTop + robots.clientHeight - lineHeight()) {
        robots.scrollTop = Math.max(0, want - robots.clientHeight / 3);
      }
    }
    syncScroll();
  }

  function focusFinding(n) {
    const item = document.querySelector('#lint-list li[data-line="' + n + '"]');
    if (!item) return;
    for (const other of document.querySelectorAll("#lint-list li.focused")) other.classList.remove("focused");
    item.classList.add("focused");
    item.focus();
    highlight(n);
  }

  // Lint --------------------------------------------------------------------------------------

  const SEVERITY_ORDER = { error: 0, warning: 1, note: 2 };

  async function runLint(token) {
    let answer;
    try {
      answer = await api("lint", { robots: robots.value, robots_txt_url: fileUrl || null });
    } catch (error) {
      if (token !== generation) return;
      $("lint-summary").textContent = "Lint failed: " + error.message;
      return;
    }
    if (token !== generation) return;
    findingsByLine = new Map();
    const list = $("lint-list");
    clear(list);
    for (const finding of answer.report.findings) {
      const at = findingsByLine.get(finding.line) || [];
      at.push(finding);
      at.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
      findingsByLine.set(finding.line, at);
      const item = el(
        "li",
        { class: finding.severity, tabindex: "0", dataset: { line: String(finding.line), code: finding.code } },
        "line " + finding.line + ": " + finding.severity + " ",
        el("span", { class: "code" }, finding.code),
        ": ",
        withCode(finding.message),
        finding.help ? el("span", { class: "help" }, "help: ", withCode(finding.help)) : null
      );
      item.addEventListener("focus", () => highlight(finding.line));
      item.addEventListener("click", () => highlight(finding.line));
      list.append(item);
    }
    $("lint-summary").textContent = answer.summary;
    renderGutter();
  }

  // Check -------------------------------------------------------------------------------------

  // A rule as written: `disallow: /private` (the JSON's `{line, kind, pattern}`).
  function ruleText(rule) {
    return rule.kind + ": " + rule.pattern;
  }

  function verdictCell(verdict) {
    if (verdict.error) return el("td", { class: "error" }, verdict.error);
    const word = verdict.allowed ? "allowed" : "disallowed";
    const cell = el("td", {}, el("span", { class: word }, word));
    cell.append(
      el(
        "span",
        { class: "line-ref" },
        verdict.decided_by ? "line " + verdict.decided_by.line + ": " + ruleText(verdict.decided_by) : "(" + verdict.reason + ")"
      )
    );
    return cell;
  }

  // The usage column: the first answering profile's (rfc9309 first) combined answers for the
  // categories both vocabularies name, and Cloudflare's ai-input when a line states it, each
  // with its deciding line; hovering or focusing one highlights that line.
  function usageVerdict(result) {
    return result.verdicts.find((v) => v.usage);
  }

  function usageItems(usage) {
    if (!usage.crawlable) return [];
    const items = usage.combined.map((c) => ({ label: c.category, outcome: c.outcome, lines: c.lines, header: c.header }));
    // The labels the combined answers stand for: the rest is shown in its own vocabulary's terms.
    const combined = ["train-ai", "ai-train", "search"];
    for (const vocabulary of usage.vocabularies) {
      for (const c of vocabulary.categories) {
        if (!combined.includes(c.label) && c.outcome !== "unknown") {
          items.push({ label: c.label, outcome: c.outcome, lines: c.lines, header: c.header });
        }
      }
    }
    return items;
  }

  function usageCell(result) {
    const cell = el("td", { class: "usage" });
    const verdict = usageVerdict(result);
    if (!verdict) {
      // No profile answered, or the crawler has no Content-Usage or Content-Signal line.
      if (result.verdicts.some((v) => !v.error)) cell.append(el("span", { class: "no-preference" }, "no usage lines"));
      return cell;
    }
    if (!verdict.usage.crawlable) {
      cell.append(el("span", { class: "no-preference" }, "not crawlable, no preference"));
      return cell;
    }
    for (const item of usageItems(verdict.usage)) {
      const line = item.lines.length ? item.lines[0] : 0;
      const where = item.lines.length ? "line " + item.lines.join(", ") : item.header ? "header" : "no line says";
      const span = el(
        "span",
        { class: "usage-item", tabindex: "-1", dataset: { line: String(line) } },
        item.label + ": ",
        el("span", { class: item.outcome }, item.outcome),
        el("span", { class: "line-ref" }, where)
      );
      if (line) {
        span.addEventListener("mouseenter", () => highlight(line));
        span.addEventListener("focus", () => highlight(line));
      }
      cell.append(span);
    }
    return cell;
  }

  function usageText(result) {
    const verdict = usageVerdict(result);
    if (!verdict) return "";
    if (!verdict.usage.crawlable) return "usage: not crawlable, no preference";
    return (
      "usage (" + verdict.profile + "): " +
      usageItems(verdict.usage)
        .map((i) => i.label + " " + i.outcome + (i.lines.length ? " by line " + i.lines.join(", ") : ""))
        .join(", ")
    );
  }

  function renderAgentNotes(answer) {
    const notes = $("agent-notes");
    clear(notes);
    if (answer.agent_label) {
      notes.append(el("li", { class: "note" }, answer.agent + ": " + answer.agent_label));
    }
    for (const reading of answer.agent_readings) {
      if (reading.error) {
        notes.append(
          el(
            "li",
            { class: "error" },
            reading.profile + ": " + reading.error,
            reading.suggestion
              ? el("span", { class: "help" }, "suggested crawler token: " + reading.suggestion)
              : null
          )
        );
      } else if (reading.warning) {
        notes.append(el("li", { class: "warning" }, reading.profile + ": " + reading.warning));
      }
    }
  }

  async function runCheck(token) {
    const name = agent();
    const list = urlList();
    const tbody = $("results").tBodies[0];
    if (name === "") {
      $("check-status").textContent = "Pick a crawler or type its name.";
      clear(tbody);
      return;
    }
    let answer;
    const started = performance.now();
    try {
      answer = await api("check", { robots: robots.value, agent: name, urls: list });
    } catch (error) {
      if (token !== generation) return;
      $("check-status").textContent = error.message;
      $("check-status").classList.add("failed");
      return;
    }
    if (token !== generation) return;
    $("check-status").classList.remove("failed");
    renderAgentNotes(answer);
    clear(tbody);
    selectedRow = null;
    const fragment = document.createDocumentFragment();
    answer.results.forEach((result, index) => {
      const row = el("tr", { tabindex: "0", dataset: { index: String(index) } });
      if (result.disagree) row.classList.add("disagree");
      const urlCell = el("td", { class: "url" }, result.url);
      if (result.differences && result.differences.length) {
        const causes = el("ul", { class: "causes" });
        for (const cause of result.differences) causes.append(el("li", {}, cause));
        urlCell.append(causes);
      }
      row.append(urlCell);
      for (const verdict of result.verdicts) row.append(verdictCell(verdict));
      row.append(usageCell(result));
      const select = () => selectResult(row, result);
      row.addEventListener("mouseenter", select);
      row.addEventListener("focus", select);
      row.addEventListener("click", select);
      row.addEventListener("keydown", (event) => {
        if (event.key === "ArrowDown" && row.nextElementSibling) row.nextElementSibling.focus();
        if (event.key === "ArrowUp" && row.previousElementSibling) row.previousElementSibling.focus();
      });
      fragment.append(row);
    });
    tbody.append(fragment);
    const disagreements = answer.results.filter((r) => r.disagree).length;
    $("check-status").textContent =
      answer.results.length + " URL" + (answer.results.length === 1 ? "" : "s") + " checked for " + name +
      (disagreements ? "; the profiles disagree on " + disagreements : "") +
      " (" + Math.round(performance.now() - started) + " ms)";
  }

  let explainToken = 0;
  async function selectResult(row, result) {
    if (selectedRow === row) return;
    if (selectedRow) selectedRow.classList.remove("selected");
    selectedRow = row;
    row.classList.add("selected");
    // The deciding line of the first profile that names one (rfc9309 first).
    const decided = result.verdicts.find((v) => v.decided_by);
    highlight(decided ? decided.decided_by.line : 0);
    $("deciding").textContent = result.verdicts
      .map((v) => {
        if (v.error) return v.profile + ": " + v.error;
        const word = v.allowed ? "allowed" : "blocked";
        return v.profile + ": " + (v.decided_by ? word + " by line " + v.decided_by.line + ": " + ruleText(v.decided_by) : word + " (" + v.reason + ")");
      })
      .concat(usageText(result) ? [usageText(result)] : [])
      .join(" · ");
    const token = ++explainToken;
    try {
      const answer = await api("explain", { robots: robots.value, agent: agent(), url: result.url });
      if (token === explainToken) $("explanation").textContent = answer.text;
    } catch (error) {
      if (token === explainToken) $("explanation").textContent = error.message;
    }
  }

  // The crawler view ---------------------------------------------------------------------------

  async function runShow(token) {
    const view = $("crawler-view");
    const name = agent();
    if (name === "") {
      clear(view);
      return;
    }
    let answer;
    try {
      answer = await api("show", {
        robots: robots.value,
        agent: name,
        profile: showProfile.value,
        robots_txt_url: fileUrl || null,
      });
    } catch (error) {
      if (token !== generation) return;
      clear(view);
      view.append(el("p", { class: "error" }, error.message));
      return;
    }
    if (token !== generation) return;
    const shown = answer.show;
    clear(view);
    const selection = {
      exact: "a group names it",
      substring: "a group's user-agent is part of its name (1994 substring match)",
      global: "no group names it: the * group applies",
    }[shown.selection] || "no group names it and there is no * group: no rules apply";
    view.append(el("p", {}, shown.groups.length + " group" + (shown.groups.length === 1 ? "" : "s") + ": " + selection));
    for (const group of shown.groups) {
      const rules = el("ol", {});
      for (const rule of group.rules) {
        const line = rule.line;
        const item = el("li", { value: String(line), tabindex: "0" }, ruleText(rule));
        item.addEventListener("focus", () => highlight(line));
        item.addEventListener("mouseenter", () => highlight(line));
        rules.append(item);
      }
      if (!group.rules.length) rules.append(el("li", {}, "(no rules: everything allowed)"));
      view.append(el("div", { class: "group" }, "line " + group.line + ": user-agent " + group.agents.join(", "), rules));
    }
    const rate = shown.request_rate ? shown.request_rate.requests + "/" + shown.request_rate.seconds + "s" : "none";
    const dl = el("dl", { class: "view" },
      el("dt", {}, "crawl-delay"), el("dd", {}, shown.crawl_delay === null ? "none" : shown.crawl_delay + " s"),
      el("dt", {}, "request-rate"), el("dd", {}, rate),
      el("dt", {}, "visit-time"), el("dd", {}, shown.visit_time.length ? shown.visit_time.join(", ") : "none"),
      el("dt", {}, "sitemaps"), el("dd", {}, shown.sitemaps.length ? "" : "none"));
    const sitemaps = dl.lastChild;
    for (const sitemap of shown.sitemaps) sitemaps.append(el("div", {}, sitemap));
    view.append(dl);
  }

  // Diff --------------------------------------------------------------------------------------

  async function runDiff() {
    const list = $("diff-list");
    clear(list);
    const name = agent();
    const body = { old: robots.value, new: newRobots.value, urls: urlList() };
    if (name !== "") body.agents = [name];
    try {
      const answer = await api("diff", body);
      for (const change of answer.changes) {
        list.append(el("li", {}, change.sentence));
      }
      const n = answer.summary.changes;
      $("diff-summary").textContent =
        n === 0 ? "No verdict changes." : n + " change" + (n === 1 ? "" : "s") + " (" + answer.summary.mode + "s compared).";
    } catch (error) {
      $("diff-summary").textContent = error.message;
    }
  }

  // Loading, sharing, downloading ---------------------------------------------------------------

  async function load(event) {
    event.preventDefault();
    const status = $("load-status");
    const url = $("load-url").value.trim();
    if (!url) return;
    status.classList.remove("failed");
    status.textContent = "Fetching " + url + " …";
    try {
      const answer = await api("fetch", { url });
      fileUrl = answer.summary.robots_txt_url;
      const hops = answer.summary.chain.map((hop) => hop.status + " " + hop.url).join(" → ");
      if (answer.body !== undefined) {
        robots.value = answer.body;
        status.textContent = "Loaded " + fileUrl + " (" + answer.summary.bytes_read + " bytes" + (hops ? "; " + hops : "") + ").";
      } else {
        robots.value = "";
        status.textContent = fileUrl + ": " + answer.plainly + (hops ? " (" + hops + ")" : "");
      }
      changed();
    } catch (error) {
      status.classList.add("failed");
      status.textContent = error.message;
    }
  }

  function state() {
    return { robots: robots.value, agent: agent(), urls: urls.value, new: newRobots.value, url: fileUrl, profile: showProfile.value };
  }

  function encodeState() {
    const bytes = new TextEncoder().encode(JSON.stringify(state()));
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return "#s=" + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function restoreState() {
    const match = /^#s=([A-Za-z0-9_-]*)$/.exec(location.hash);
    if (!match) return false;
    try {
      const base64 = match[1].replace(/-/g, "+").replace(/_/g, "/");
      const binary = atob(base64 + "===".slice((base64.length + 3) % 4));
      const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
      const saved = JSON.parse(new TextDecoder().decode(bytes));
      robots.value = typeof saved.robots === "string" ? saved.robots : "";
      urls.value = typeof saved.urls === "string" ? saved.urls : "";
      newRobots.value = typeof saved.new === "string" ? saved.new : "";
      fileUrl = typeof saved.url === "string" ? saved.url : "";
      if (PROFILES.includes(saved.profile)) showProfile.value = saved.profile;
      setAgent(typeof saved.agent === "string" ? saved.agent : "Googlebot");
      return true;
    } catch (_) {
      return false;
    }
  }

  function saveState() {
    history.replaceState(null, "", encodeState());
  }

  async function share() {
    saveState();
    const status = $("share-status");
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = "Link copied.";
    } catch (_) {
      status.textContent = "The link is in the address bar.";
    }
  }

  function download() {
    const blob = new Blob([robots.value], { type: "text/plain;charset=utf-8" });
    const link = el("a", { href: URL.createObjectURL(blob), download: "robots.txt" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  // Wiring --------------------------------------------------------------------------------------

  let timer = 0;
  function changed() {
    renderGutter();
    clearTimeout(timer);
    timer = setTimeout(runAll, 250);
  }

  function runAll() {
    const token = ++generation;
    saveState();
    return Promise.all([runLint(token), runCheck(token), runShow(token)]).then(() => {
      document.body.dataset.ready = String(token);
    });
  }

  robots.addEventListener("input", changed);
  robots.addEventListener("scroll", syncScroll);
  urls.addEventListener("input", changed);
  customAgent.addEventListener("input", changed);
  crawler.addEventListener("change", () => {
    customAgent.hidden = crawler.value !== "";
    if (crawler.value === "") customAgent.focus();
    changed();
  });
  showProfile.addEventListener("change", changed);
  newRobots.addEventListener("input", () => saveState());
  $("load-form").addEventListener("submit", load);
  $("download").addEventListener("click", download);
  $("share").addEventListener("click", share);
  $("compare").addEventListener("click", runDiff);
  $("copy-to-new").addEventListener("click", () => {
    newRobots.value = robots.value;
    newRobots.focus();
  });
  window.addEventListener("hashchange", () => {
    if (location.hash !== encodeState() && restoreState()) runAll();
  });
  window.addEventListener("resize", placeLineMark);

  if (!restoreState()) {
    robots.value = "User-agent: *\nDisallow: /private/\nAllow: /private/public-page\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: /sitemap.xml\n";
    urls.value = "/\n/private/secret\n/private/public-page\n";
    setAgent("Googlebot");
  }
  renderGutter();
  runAll();
})();
