// convfiles web page: the file browser. A folder's subfolders and files
// as a sortable list (name, size, type, modified) or as cards, a path of
// folders to climb back, and a search over every file's name as you
// type: a substring, in any letter case, or a glob when the text has *
// or ?. Rows take the keyboard: arrows move, Enter opens, F2 renames,
// Delete deletes, / searches.
"use strict";

const KEEP = ".keep"; // the empty file a made folder holds: not shown
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
  nav.replaceChildren(el("a", { href: folderHash("") }, state.conv));
  let path = "";
  for (const part of state.folder ? state.folder.split("/") : []) {
    path = path ? path + "/" + part : part;
    nav.append(el("span", { class: "sep" }, "/"), el("a", { href: folderHash(path) }, part));
  }
}

// loadFiles reads the folder (or the search's matches) and draws it; it
// answers the event number the listing is current to.
async function loadFiles() {
  const conv = state.conv, folder = state.folder, search = state.search;
  const key = state.sort.key === "type" ? "name" : state.sort.key;
  const q = new URLSearchParams({ sort: key, order: state.sort.desc ? "desc" : "asc", limit: "1000" });
  if (search) q.set("pattern", globFor(search));
  else q.set("folder", folder || ".");
  try {
    const listing = api("/api/conversations/" + encodeURIComponent(conv) + "/files?" + q);
    const tree = search ? Promise.resolve({ entries: [] })
      : op("tree", folder ? { path: folder, depth: 1 } : { depth: 1 }).catch(() => ({ entries: [] }));
    const [{ files, total, last_event_id }, { entries }] = await Promise.all([listing, tree]);
    if (conv !== state.conv || folder !== state.folder || search !== state.search) return last_event_id;
    state.files = files.filter((f) => baseName(f.name) !== KEEP);
    state.folders = entries.filter((e) => e.type === "folder").map((e) => ({ ...e, path: folder ? folder + "/" + e.path : e.path }));
    state.total = total - (files.length - state.files.length);
    render();
    return last_event_id;
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

function render() {
  const total = state.total;
  const { folders, files } = sorted();
  const key = state.view + "|" + state.sort.key + state.sort.desc + "|" + folders.map((f) => f.path + "/" + f.size).join("|") + "#" +
    files.map((f) => f.id + "/" + f.version + "/" + f.name).join("|") + "#" + total;
  // A file written anew has a new version, so the key changes with it:
  // its row is drawn again, marked fresh. Nothing else redraws the rows.
  if (key === state.rendered) return;
  state.rendered = key;
  const list = state.view === "list";
  $("list").hidden = !list;
  $("cards").hidden = list;
  for (const b of document.querySelectorAll("#list th button")) {
    if (b.dataset.sort === state.sort.key) b.setAttribute("aria-sort", state.sort.desc ? "descending" : "ascending");
    else b.removeAttribute("aria-sort");
  }
  $("sort").value = state.sort.key + (state.sort.desc ? "-desc" : "");
  $("workspace").dataset.view = state.view;
  // The hidden view is emptied: one row or card a file, never two.
  $("rows").replaceChildren(...(list ? [...folders.map(folderRow), ...files.map(fileRow)] : []));
  $("cards").replaceChildren(...(list ? [] : [...folders.map(folderCard), ...files.map(card)]));
  state.fresh.clear();
  $("empty").hidden = folders.length + files.length > 0;
  // An ID nobody wrote to is not an empty conversation: a typo says so.
  const unknown = state.known && !state.known.has(state.conv) && !state.folder && !state.search;
  $("empty").textContent = unknown
    ? "There is no conversation \u201c" + state.conv + "\u201d: pick one from the list, or upload a file to start it."
    : "Nothing here yet: upload files, make a folder, or let an agent write them.";
  $("empty").classList.toggle("error", !!unknown);
  if (total > files.length) say("Showing " + files.length + " of " + total + " files; search to narrow them.");
}

function shownName(f) { return state.search ? f.name : baseName(f.name); }

function fileActions(f, extra) {
  return [
    el("a", { class: "button download", href: f.download_url, download: "" }, "Download"),
    el("button", { type: "button", class: "preview" + extra, onclick: () => preview(f) }, "Preview"),
    el("button", { type: "button", class: "rename", onclick: () => renameFile(f) }, "Rename"),
    el("button", { type: "button", class: "versions" + extra, onclick: () => showVersions(f) }, "Versions"),
    el("button", { type: "button", class: "delete danger", onclick: () => deleteFile(f) }, "Delete"),
  ];
}

// ICONS are the outlines of a folder and a file, drawn as SVG: no font
// need have them.
const ICONS = {
  folder: ["M3 6.5A1.5 1.5 0 0 1 4.5 5h4.2l1.8 2h9A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z", "#e3b341", "#b8860b"],
  file: ["M6.5 3h7.5l4.5 4.5v12A1.5 1.5 0 0 1 17 21H6.5A1.5 1.5 0 0 1 5 19.5v-15A1.5 1.5 0 0 1 6.5 3zM14 3v4.5h4.5", "#fff", "#7d879c"],
};

function icon(kind) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const path = document.createElementNS(ns, "path");
  const [d, fill, stroke] = ICONS[kind];
  for (const [k, v] of Object.entries({ d, fill, stroke, "stroke-width": "1.3", "stroke-linejoin": "round" })) path.setAttribute(k, v);
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true" })) svg.setAttribute(k, v);
  svg.append(path);
  return svg;
}

function fileCount(n) { return n + (n === 1 ? " file" : " files"); }

// fileIcon is an image's small thumbnail, or a page for other files.
function fileIcon(f) {
  if (f.thumbnail_url) return el("img", { class: "icon thumb-small", src: local(f.thumbnail_url) + "?size=64", alt: "", loading: "lazy" });
  return icon("file");
}

function fileRow(f) {
  const fresh = state.fresh.delete(f.id);
  return el("tr", { class: "row file" + (fresh ? " fresh" : ""), tabindex: "0", "data-file": "", "data-id": f.id, "data-name": f.name },
    el("td", { class: "c-name" }, el("span", { class: "cell" }, fileIcon(f),
      el("button", { type: "button", class: "open", tabindex: "-1", onclick: () => preview(f) }, shownName(f)))),
    el("td", { class: "c-size size" }, humanSize(f.size)),
    el("td", { class: "c-type type" }, f.mime_type),
    el("td", { class: "c-modified" }, el("time", { datetime: f.modified_on }, new Date(f.modified_on).toLocaleString())),
    el("td", { class: "c-actions row-actions" }, ...fileActions(f, " extra")));
}

function folderRow(d) {
  return el("tr", { class: "row folder", tabindex: "0", "data-folder": d.path },
    el("td", { class: "c-name" }, el("span", { class: "cell" }, icon("folder"), el("a", { href: folderHash(d.path), tabindex: "-1" }, baseName(d.path)))),
    el("td", { class: "c-size size" }, humanSize(d.size)),
    el("td", { class: "c-type type" }, fileCount(d.files)),
    el("td", { class: "c-modified" }, ""),
    el("td", { class: "c-actions row-actions" },
      el("button", { type: "button", class: "rename", onclick: () => renameFolder(d.path) }, "Rename"),
      el("button", { type: "button", class: "delete danger", onclick: () => deleteFolder(d.path) }, "Delete")));
}

function card(f) {
  const fresh = state.fresh.delete(f.id);
  const c = el("div", { class: "card" + (fresh ? " fresh" : ""), tabindex: "0", "data-file": "", "data-id": f.id, "data-name": f.name });
  if (f.thumbnail_url) {
    c.append(el("img", { class: "thumb", src: local(f.thumbnail_url) + "?size=256", alt: "", loading: "lazy", onclick: () => preview(f) }));
  }
  c.append(
    el("div", { class: "name" }, shownName(f)),
    el("div", { class: "meta" }, el("span", { class: "size" }, humanSize(f.size)), " · ",
      el("span", { class: "type" }, f.mime_type), " · ", el("time", { datetime: f.modified_on }, new Date(f.modified_on).toLocaleString())),
    el("div", { class: "actions" }, ...fileActions(f, "")));
  return c;
}

function folderCard(d) {
  return el("div", { class: "card folder", tabindex: "0", "data-folder": d.path, onclick: () => { location.hash = folderHash(d.path); } },
    el("div", { class: "name" }, icon("folder"), baseName(d.path)),
    el("div", { class: "meta" }, el("span", { class: "size" }, humanSize(d.size)), " · ", fileCount(d.files)));
}

function setView(view) {
  state.view = view;
  localStorage.setItem("convfiles.view", view);
  $("view-list").setAttribute("aria-pressed", String(view === "list"));
  $("view-cards").setAttribute("aria-pressed", String(view === "cards"));
  state.rendered = "";
  render();
}

// onKey moves through rows and acts on the focused one.
function onKey(e) {
  if (e.key === "/" && !/^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName) && !$("ask").open) {
    e.preventDefault();
    $("search").focus();
    return;
  }
  const row = e.target.closest && e.target.closest("[data-file], [data-folder]");
  if (!row || e.target !== row) return;
  const items = [...document.querySelectorAll(state.view === "list" ? "#rows tr" : "#cards > div")];
  const i = items.indexOf(row);
  const folder = row.dataset.folder, file = state.files.find((f) => f.id === row.dataset.id);
  if (e.key === "ArrowDown" || e.key === "ArrowRight" && state.view === "cards") items[Math.min(i + 1, items.length - 1)].focus();
  else if (e.key === "ArrowUp" || e.key === "ArrowLeft" && state.view === "cards") items[Math.max(i - 1, 0)].focus();
  else if (e.key === "Enter") folder !== undefined ? (location.hash = folderHash(folder)) : preview(file);
  else if (e.key === "F2") folder !== undefined ? renameFolder(folder) : renameFile(file);
  else if (e.key === "Delete") folder !== undefined ? deleteFolder(folder) : deleteFile(file);
  else return;
  e.preventDefault();
}

function setupBrowser() {
  $("view-list").addEventListener("click", () => setView("list"));
  $("view-cards").addEventListener("click", () => setView("cards"));
  setView(state.view);
  for (const b of document.querySelectorAll("#list th button")) {
    b.addEventListener("click", () => {
      state.sort = { key: b.dataset.sort, desc: state.sort.key === b.dataset.sort ? !state.sort.desc : false };
      loadFiles();
    });
  }
  $("sort").addEventListener("change", () => {
    const [key, desc] = $("sort").value.split("-");
    state.sort = { key, desc: desc === "desc" };
    loadFiles();
  });
  let timer = 0;
  $("search").addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.search = $("search").value.trim();
      state.rendered = "";
      loadFiles();
      if (!$("deleted").hidden) showDeleted();
    }, 120);
  });
  $("rows").addEventListener("dblclick", (e) => {
    const row = e.target.closest("tr.folder");
    if (row) location.hash = folderHash(row.dataset.folder);
  });
  document.addEventListener("keydown", onKey);
}
