// convfiles web page: the file browser. A folder's subfolders and files
// as a sortable list (name, size, type, modified) or as cards, in pages
// of PAGE files, a path of folders to climb back, and a search over every
// file's name as you type: a substring, in any letter case, or a glob
// when the text has * or ?. Rows take the keyboard: arrows move, Enter
// opens, Space selects, F2 renames, Delete deletes, / searches.
"use strict";

const KEEP = ".keep"; // the empty file a made folder holds: never shown
const PAGE = 500; // files a page shows
// names orders names as people read them: letters in either case
// together, numbers by value (file2 before file10).
const names = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

// globFor is the listing pattern of a search: the text as a glob when it
// has * or ?, else a substring of the name, letters in either case.
function globFor(text) {
  if (/[*?]/.test(text)) return text;
  let g = "*";
  for (const ch of text) {
    const lo = ch.toLowerCase(), up = ch.toUpperCase();
    // A letter with one character in each case (not ß, whose upper case
    // is SS) matches either.
    if (lo !== up && [...lo].length === 1 && [...up].length === 1) g += "[" + lo + up + "]";
    else if ("[]\\".includes(ch)) g += "\\" + ch;
    else g += ch;
  }
  return g + "*";
}

function folderHash(folder) {
  return "#c=" + encodeURIComponent(state.conv) + (folder ? "&f=" + encodeURIComponent(folder) : "");
}

function baseName(name) { return name.slice(name.lastIndexOf("/") + 1); }

function renderCrumbs() {
  const nav = $("crumbs");
  nav.replaceChildren(el("a", { href: folderHash(""), "data-drop": "" }, state.conv));
  let path = "";
  for (const part of state.folder ? state.folder.split("/") : []) {
    path = path ? path + "/" + part : part;
    nav.append(el("span", { class: "sep", "aria-hidden": "true" }, "/"), el("a", { href: folderHash(path), "data-drop": path }, part));
  }
  nav.lastChild.setAttribute("aria-current", "location");
}

// loadFiles reads the page of the folder (or the name search's matches)
// and draws it; of reads that overlap, only the last one asked for is
// drawn.
let loadRun = 0;
async function loadFiles() {
  const run = ++loadRun, of = listingOf();
  const conv = state.conv, folder = state.folder, search = state.searchIn === "names" ? state.search : "", offset = state.offset;
  const key = state.sort.key === "type" ? "name" : state.sort.key;
  const q = new URLSearchParams({ sort: key, order: state.sort.desc ? "desc" : "asc", limit: String(PAGE), offset: String(offset), hide_keep: "true" });
  if (search) q.set("pattern", globFor(search));
  else q.set("folder", folder || ".");
  try {
    const listing = api("/api/conversations/" + encodeURIComponent(conv) + "/files?" + q);
    const tree = search || offset ? Promise.resolve({ entries: [] })
      : op("tree", folder ? { path: folder, depth: 1 } : { depth: 1 }).catch(() => ({ entries: [] }));
    const [{ files, total }, { entries }] = await Promise.all([listing, tree]);
    if (run !== loadRun) return;
    if (offset && offset >= total && total) { state.offset = Math.floor((total - 1) / PAGE) * PAGE; loadFiles(); return; }
    state.files = files;
    state.filesAt = offset; // the page drawn is the one read, whatever is asked for meanwhile
    state.filesOf = of;
    state.folders = entries.filter((e) => e.type === "folder").map((e) => ({ ...e, path: folder ? folder + "/" + e.path : e.path }));
    state.total = total;
    render();
  } catch (err) {
    say(err.message, true);
  }
}

// sorted orders folders and files as the column asks; folders first.
function sorted() {
  const { key, desc } = state.sort, dir = desc ? -1 : 1;
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const byName = (a, b) => names.compare(a.name, b.name) || cmp(a.name, b.name);
  const by = {
    name: byName, size: (a, b) => cmp(a.size, b.size) || byName(a, b),
    type: (a, b) => cmp(a.mime_type || "", b.mime_type || "") || byName(a, b),
    modified: (a, b) => cmp(a.modified_on || "", b.modified_on || "") || byName(a, b),
  }[key];
  const folders = state.folders.map((f) => ({ ...f, name: f.path })).sort((a, b) => dir * by(a, b));
  return { folders, files: [...state.files].sort((a, b) => dir * by(a, b)) };
}

// listingOf names what the page shows: files read for another folder or
// search are never drawn under this one's path.
function listingOf() { return state.conv + "\n" + state.folder + "\n" + (state.searchIn === "names" ? state.search : ""); }

function render() {
  if (state.filesOf !== listingOf()) return;
  const { folders, files } = sorted();
  const key = state.view + "|" + state.sort.key + state.sort.desc + "|" + state.filesAt + "|" + folders.map((f) => f.path + "/" + f.size + "/" + f.files).join("|") + "#" +
    files.map((f) => f.id + "/" + f.version + "/" + f.name).join("|") + "#" + state.total + "#" + (state.known && state.known.has(state.conv));
  // A file written anew has a new version, so the key changes with it:
  // its row is drawn again, marked fresh. Nothing else redraws the rows.
  if (key === state.rendered) return;
  state.rendered = key;
  const list = state.view === "list";
  $("list").hidden = !list;
  $("cards").hidden = list;
  for (const th of document.querySelectorAll("#list th[data-col]")) {
    if (th.dataset.col === state.sort.key) th.setAttribute("aria-sort", state.sort.desc ? "descending" : "ascending");
    else th.removeAttribute("aria-sort");
  }
  $("sort").value = state.sort.key + (state.sort.desc ? "-desc" : "");
  $("workspace").dataset.view = state.view;
  // The hidden view is emptied: one row or card a file, never two.
  $("rows").replaceChildren(...(list ? [...folders.map(folderRow), ...files.map(fileRow)] : []));
  $("cards").replaceChildren(...(list ? [] : [...folders.map(folderCard), ...files.map(card)]));
  state.fresh.clear();
  pruneSelection();
  renderSelection();
  renderPager();
  $("empty").hidden = folders.length + files.length > 0;
  // An ID nobody wrote to is not an empty conversation: a typo says so.
  const unknown = state.known && !state.known.has(state.conv) && !state.folder && !state.search;
  $("empty").textContent = unknown
    ? "There is no conversation \u201c" + state.conv + "\u201d: pick one from the list, or upload a file to start it."
    : state.search ? "No file name matches \u201c" + state.search + "\u201d." : "Nothing here yet: upload files, make a folder, or let an agent write them.";
  $("empty").classList.toggle("error", !!unknown);
}

// renderPager offers the other pages of a folder of more than PAGE files.
function renderPager() {
  const total = state.total, from = state.filesAt;
  $("pager").hidden = total <= PAGE;
  $("page-info").textContent = (from + 1).toLocaleString() + "–" + Math.min(from + PAGE, total).toLocaleString() + " of " + total.toLocaleString() + " files";
  $("page-prev").disabled = from === 0;
  $("page-next").disabled = from + PAGE >= total;
}

function turnPage(by) {
  state.offset = Math.max(0, state.offset + by * PAGE);
  loadFiles();
  $("workspace").scrollIntoView({ block: "start" });
}

function shownName(f) { return state.search ? f.name : baseName(f.name); }

// TYPES are short names for long types; the full type is the tooltip.
const TYPES = {
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PPTX",
  "application/pdf": "PDF", "text/plain": "Text", "text/csv": "CSV", "text/tab-separated-values": "TSV", "text/markdown": "Markdown",
  "application/json": "JSON", "image/svg+xml": "SVG", "text/html": "HTML", "application/zip": "ZIP", "application/octet-stream": "Binary",
};

function typeLabel(mime) {
  if (TYPES[mime]) return TYPES[mime];
  const [top, sub = ""] = (mime || "").split(";")[0].split("/");
  const short = sub.replace(/^(x-|vnd\.)/, "").split(/[.+]/)[0];
  return (short || top).toUpperCase().slice(0, 10);
}

function typeCell(f) { return el("abbr", { class: "type", title: f.mime_type }, typeLabel(f.mime_type)); }

function setView(view) {
  state.view = view;
  localStorage.setItem("convfiles.view", view);
  $("view-list").setAttribute("aria-pressed", String(view === "list"));
  $("view-cards").setAttribute("aria-pressed", String(view === "cards"));
  state.rendered = "";
  render();
}

function items() { return [...document.querySelectorAll(state.view === "list" ? "#rows tr" : "#cards > div")]; }

// onKey moves through rows and acts on the focused one.
function onKey(e) {
  if (e.key === "/" && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName) && !$("ask").open) {
    e.preventDefault();
    $("search").focus();
    return;
  }
  const row = e.target.closest && e.target.closest("[data-file], [data-folder]");
  if (!row || e.target !== row) return;
  const all = items(), i = all.indexOf(row);
  const folder = row.dataset.folder, file = state.files.find((f) => f.id === row.dataset.id);
  const next = e.key === "ArrowDown" || e.key === "ArrowRight" && state.view === "cards" ? all[Math.min(i + 1, all.length - 1)]
    : e.key === "ArrowUp" || e.key === "ArrowLeft" && state.view === "cards" ? all[Math.max(i - 1, 0)] : null;
  if (next) {
    next.focus();
    if (e.shiftKey) selectRange(next);
  } else if (e.key === " ") toggleSelected(row);
  else if (e.key === "a" && (e.ctrlKey || e.metaKey)) selectAll(true);
  else if (e.key === "Escape" && selectionSize()) clearSelection();
  else if (e.key === "Enter") folder !== undefined ? (location.hash = folderHash(folder)) : preview(file);
  else if (e.key === "F2") folder !== undefined ? renameFolder(folder) : renameFile(file);
  else if (e.key === "Delete") selectionSize() > 1 && isSelected(row) ? deleteSelected() : folder !== undefined ? deleteFolder(folder) : deleteFile(file);
  else return;
  e.preventDefault();
}

function setupBrowser() {
  $("view-list").addEventListener("click", () => setView("list"));
  $("view-cards").addEventListener("click", () => setView("cards"));
  setView(state.view);
  for (const b of document.querySelectorAll("#list th button[data-sort]")) {
    b.addEventListener("click", () => {
      state.sort = { key: b.dataset.sort, desc: state.sort.key === b.dataset.sort ? !state.sort.desc : false };
      state.offset = 0;
      loadFiles();
    });
  }
  $("sort").addEventListener("change", () => {
    const [key, desc] = $("sort").value.split("-");
    state.sort = { key, desc: desc === "desc" };
    state.offset = 0;
    loadFiles();
  });
  $("page-prev").addEventListener("click", () => turnPage(-1));
  $("page-next").addEventListener("click", () => turnPage(1));
  $("rows").addEventListener("dblclick", (e) => {
    const row = e.target.closest("tr.folder");
    if (row) location.hash = folderHash(row.dataset.folder);
  });
  document.addEventListener("keydown", onKey);
}
