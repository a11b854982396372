// convfiles web page: selections and what is done to them. Items are
// selected with their boxes, a click (Ctrl or ⌘ adds or removes one, Shift
// takes the range from the last one chosen), the keyboard (Space, Shift
// with the arrows, Ctrl+A, Escape) or "select all"; the bar above the list
// then deletes, moves, copies or downloads them as one zip. Dragging
// items onto a folder, or onto a folder of the path above, moves them.
// Each change is an operation of the table, one item at a time.
"use strict";

const selection = new Set(); // "f:<id>" for files, "d:<path>" for folders
let anchor = ""; // the item a Shift range starts from

function isSelected(node) { return selection.has(node.dataset.key); }
function selectionSize() { return selection.size; }

// chosen is what the selection holds: files and folder paths.
function chosen() {
  const files = state.files.filter((f) => selection.has("f:" + f.id));
  const folders = state.folders.filter((d) => selection.has("d:" + d.path)).map((d) => d.path);
  return { files, folders };
}

function clearSelection() { selection.clear(); anchor = ""; renderSelection(); }

// pruneSelection forgets items no longer shown.
function pruneSelection() {
  const shown = new Set(items().map((n) => n.dataset.key));
  for (const key of selection) if (!shown.has(key)) selection.delete(key);
}

function toggleSelected(node) {
  const key = node.dataset.key;
  if (selection.has(key)) selection.delete(key);
  else selection.add(key);
  anchor = key;
  renderSelection();
}

function selectOnly(node) { selection.clear(); selection.add(node.dataset.key); anchor = node.dataset.key; renderSelection(); }

function selectRange(node) {
  const all = items(), keys = all.map((n) => n.dataset.key);
  const from = keys.indexOf(anchor), to = keys.indexOf(node.dataset.key);
  if (from < 0) { toggleSelected(node); return; }
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) selection.add(keys[i]);
  renderSelection();
}

function selectAll(on) {
  selection.clear();
  if (on) for (const n of items()) selection.add(n.dataset.key);
  renderSelection();
}

// renderSelection marks the selected items and shows the bar.
function renderSelection() {
  const all = items();
  for (const n of all) {
    const on = selection.has(n.dataset.key);
    n.classList.toggle("selected", on);
    if (n.tagName === "TR") n.setAttribute("aria-selected", String(on));
    const box = n.querySelector("input.select");
    if (box) box.checked = on;
  }
  const count = selection.size;
  $("selection-bar").hidden = count === 0;
  $("selection-count").textContent = count + (count === 1 ? " item selected" : " items selected");
  $("select-all").checked = count > 0 && count === all.length;
  $("select-all").indeterminate = count > 0 && count < all.length;
}

// onItemClick selects as file managers do; controls keep their own clicks.
function onItemClick(e) {
  const node = e.target.closest("[data-key]");
  if (!node) return;
  if (e.target.matches("input.select")) {
    if (e.shiftKey) { e.target.checked = !e.target.checked; selectRange(node); } else toggleSelected(node);
    return;
  }
  if (e.target.closest("button, a, input, img")) return;
  if (e.shiftKey) selectRange(node);
  else if (e.ctrlKey || e.metaKey) toggleSelected(node);
  else selectOnly(node);
}

// inFolder is where an item would land in folder dest.
function inFolder(dest, name) { return dest ? dest + "/" + baseName(name) : baseName(name); }

// each runs fn on every item, in turn, and says how it went.
async function each(verb, list, fn) {
  let done = 0;
  const failed = [];
  for (const item of list) {
    if (list.length > 3) say(verb + " " + (done + failed.length + 1) + " of " + list.length + "…");
    try { await fn(item); done++; } catch (err) { failed.push(item.name + ": " + err.message); }
  }
  say(verb + " " + done + (done === 1 ? " item" : " items") + (failed.length ? "; not " + failed.join("; ") : ""), failed.length > 0);
  clearSelection();
  loadFiles();
}

function asItems({ files, folders }) {
  return [...folders.map((path) => ({ folder: true, name: path })), ...files.map((f) => ({ folder: false, name: f.name, id: f.id }))];
}

async function moveItems(list, dest) {
  const moving = list.filter((it) => inFolder(dest, it.name) !== it.name && !(it.folder && (dest + "/").startsWith(it.name + "/")));
  if (!moving.length) { say("Nothing to move: the items are in " + (dest || "the top folder") + " already.", true); return; }
  await each("Moved to " + (dest || "the top folder") + ":", moving, (it) => it.folder
    ? op("move_folder", { path: it.name, new_path: inFolder(dest, it.name) })
    : op("rename", { id: it.id, new_name: inFolder(dest, it.name) }));
}

// copyName is a copy's name: beside the original it is "name copy.ext".
function copyName(dest, name) {
  const to = inFolder(dest, name);
  if (to !== name) return to;
  const dot = to.lastIndexOf(".");
  return dot > to.lastIndexOf("/") + 1 ? to.slice(0, dot) + " copy" + to.slice(dot) : to + " copy";
}

async function askFolder(label) {
  const dest = await ask(label, state.folder, "A folder of this conversation, such as archive/2025; empty for the top. It is made if it does not exist.");
  return dest === null ? null : dest.replace(/^\/+|\/+$/g, "");
}

async function moveSelected() {
  const dest = await askFolder("Move " + selection.size + " items to the folder");
  if (dest !== null) moveItems(asItems(chosen()), dest);
}

async function copySelected() {
  const dest = await askFolder("Copy " + selection.size + " items to the folder");
  if (dest !== null) {
    each("Copied", asItems(chosen()), (it) => it.folder
      ? op("copy_folder", { path: it.name, new_path: copyName(dest, it.name) })
      : op("copy", { id: it.id, new_name: copyName(dest, it.name) }));
  }
}

async function deleteSelected() {
  const list = asItems(chosen());
  if (!confirm("Delete " + list.length + " items? Their content is kept and can be restored from Recently deleted.")) return;
  each("Deleted", list, (it) => it.folder ? op("delete_folder", { path: it.name }) : api("/api/files/" + it.id, { method: "DELETE" }));
}

// downloadSelected downloads the selection as one zip, built by the server
// as it sends it.
function downloadSelected() {
  const { files, folders } = chosen();
  const q = new URLSearchParams();
  for (const p of [...folders, ...files.map((f) => f.name)]) q.append("path", p);
  if (state.folder && !state.search) q.set("base", state.folder);
  const a = el("a", { href: "/api/conversations/" + encodeURIComponent(state.conv) + "/zip?" + q, download: "" });
  document.body.append(a);
  a.click();
  a.remove();
}

function setupSelection() {
  for (const id of ["rows", "cards"]) $(id).addEventListener("click", onItemClick);
  $("select-all").addEventListener("change", (e) => selectAll(e.target.checked));
  $("sel-delete").addEventListener("click", deleteSelected);
  $("sel-move").addEventListener("click", moveSelected);
  $("sel-copy").addEventListener("click", copySelected);
  $("sel-download").addEventListener("click", downloadSelected);
  $("sel-clear").addEventListener("click", clearSelection);
  setupDragToMove();
}

// Moving by dragging: the whole selection when the dragged item is
// selected, else that item.
function draggedItems(node) {
  if (isSelected(node) && selectionSize() > 1) return asItems(chosen());
  if (node.dataset.folder !== undefined) return [{ folder: true, name: node.dataset.folder }];
  return [{ folder: false, name: node.dataset.name, id: node.dataset.id }];
}

function dropTarget(e) {
  const t = e.target.closest && e.target.closest("[data-drop]");
  return t && e.dataTransfer && e.dataTransfer.types.includes(MOVE_TYPE) ? t : null;
}

function setupDragToMove() {
  document.addEventListener("dragstart", (e) => {
    const node = e.target.closest && e.target.closest("[data-key]");
    if (!node) return;
    const list = draggedItems(node);
    e.dataTransfer.setData(MOVE_TYPE, JSON.stringify(list));
    e.dataTransfer.setData("text/plain", list.map((it) => it.name).join("\n"));
    e.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragover", (e) => {
    const t = dropTarget(e);
    if (!t) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    for (const n of document.querySelectorAll(".drop-over")) if (n !== t) n.classList.remove("drop-over");
    t.classList.add("drop-over");
  });
  document.addEventListener("dragleave", (e) => { const t = dropTarget(e); if (t) t.classList.remove("drop-over"); });
  document.addEventListener("drop", (e) => {
    const t = dropTarget(e);
    if (!t) return;
    e.preventDefault();
    t.classList.remove("drop-over");
    let list = [];
    try { list = JSON.parse(e.dataTransfer.getData(MOVE_TYPE)); } catch (_) { return; }
    moveItems(list.filter((it) => !(it.folder && it.name === t.dataset.drop)), t.dataset.drop);
  });
}
