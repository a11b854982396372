// convfiles web page: search. By name (browser.js lists the matches as
// files) or inside files: the search operation reads every text file of
// the open folder and below, and the page shows each matching line with
// its number, the text found marked, grouped by file.
"use strict";

// literal is a regular expression that matches text as typed.
function literal(text) { return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&"); }

let searchTimer = 0, searchRun = 0;

function onSearchInput() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    state.search = $("search").value.trim();
    state.searchIn = $("search-in").value;
    state.offset = 0;
    state.rendered = "";
    const contents = state.searchIn === "contents" && state.search !== "";
    $("hits").hidden = !contents;
    $("browse").hidden = contents;
    if (contents) searchContents();
    else loadFiles();
    if (!$("deleted").hidden) showDeleted();
  }, 150);
}

async function searchContents() {
  const run = ++searchRun, text = state.search;
  $("hits-summary").textContent = "Searching inside the files…";
  $("hit-items").replaceChildren();
  try {
    const input = { pattern: literal(text), ignore_case: true, max_results: 500 };
    if (state.folder) input.path = state.folder;
    const r = await op("search", input);
    if (run !== searchRun) return;
    showHits(r, text);
  } catch (err) {
    if (run === searchRun) $("hits-summary").textContent = "Search failed: " + err.message;
  }
}

// marked is a line with each match of text in a <mark>.
function marked(line, text) {
  const out = el("span", { class: "line" }), lower = line.toLowerCase(), want = text.toLowerCase();
  let at = 0;
  for (let i = lower.indexOf(want); i >= 0 && want; i = lower.indexOf(want, at)) {
    out.append(line.slice(at, i), el("mark", {}, line.slice(i, i + want.length)));
    at = i + want.length;
  }
  out.append(line.slice(at));
  return out;
}

function showHits(r, text) {
  const byFile = new Map();
  for (const m of r.matches) {
    if (!byFile.has(m.name)) byFile.set(m.name, []);
    byFile.get(m.name).push(m);
  }
  $("hits-summary").textContent = r.matches.length
    ? r.matches.length + (r.matches.length === 1 ? " line" : " lines") + " in " + fileCount(byFile.size) + " of " + fileCount(r.files_searched) + " searched" +
      (r.truncated ? " (the first " + r.matches.length + "; narrow the search to see the rest)" : "")
    : "No file holds \u201c" + text + "\u201d (" + fileCount(r.files_searched) + " searched).";
  $("hit-items").replaceChildren(...[...byFile].map(([name, lines]) => {
    const open = el("button", { type: "button", class: "open", onclick: () => openByName(name) }, name);
    return el("li", { class: "hit", "data-name": name }, el("h3", {}, open),
      el("ol", { class: "hit-lines" }, ...lines.map((m) => el("li", { value: String(m.line) },
        el("span", { class: "lineno", "aria-hidden": "true" }, m.line + ":"), " ", marked(m.content, text)))));
  }));
}

// openByName previews a file found by a search.
async function openByName(name) {
  try {
    const { files } = await api("/api/conversations/" + encodeURIComponent(state.conv) + "/files?" + new URLSearchParams({ pattern: name.replace(/[*?[\]\\]/g, "\\$&"), limit: "100" }));
    const f = files.find((x) => x.name === name);
    if (f) preview(f);
    else say(name + " is gone.", true);
  } catch (err) {
    say(err.message, true);
  }
}

function setupSearch() {
  $("search").addEventListener("input", onSearchInput);
  $("search-in").addEventListener("change", () => {
    $("search").placeholder = $("search-in").value === "contents" ? "Search inside files" : "Search names (* for a pattern)";
    onSearchInput();
  });
}
