// convfiles web page: how a file or a folder is drawn, as a row of the
// list or as a card: a box to select it, its icon or thumbnail, its name
// (which opens it), size, type and time, and its actions. Rows and cards
// can be dragged onto a folder to move them there.
"use strict";

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

function fileCount(n = 0) { return n.toLocaleString() + (n === 1 ? " file" : " files"); }

// fileIcon is an image's small thumbnail, or a page for other files.
function fileIcon(f) {
  if (f.thumbnail_url) return el("img", { class: "icon thumb-small", src: local(f.thumbnail_url) + "?size=64", alt: "", loading: "lazy" });
  return icon("file");
}

function fileActions(f, extra) {
  return [
    el("a", { class: "button download", href: f.download_url, download: "" }, "Download"),
    el("button", { type: "button", class: "preview" + extra, onclick: () => preview(f) }, "Preview"),
    el("button", { type: "button", class: "rename", onclick: () => renameFile(f) }, "Rename"),
    el("button", { type: "button", class: "versions" + extra, onclick: () => showVersions(f) }, "Versions"),
    el("button", { type: "button", class: "delete danger", onclick: () => deleteFile(f) }, "Delete"),
  ];
}

// selectBox is the checkbox that selects an item; its label names it.
function selectBox(key, name) {
  return el("input", { type: "checkbox", class: "select", "data-key": key, "aria-label": "Select " + name });
}

function fileRow(f) {
  const fresh = state.fresh.delete(f.id), key = "f:" + f.id;
  return el("tr", { class: "row file" + (fresh ? " fresh" : ""), tabindex: "0", draggable: "true", "data-file": "", "data-key": key, "data-id": f.id, "data-name": f.name },
    el("td", { class: "c-select" }, selectBox(key, shownName(f))),
    el("td", { class: "c-name" }, el("span", { class: "cell" }, fileIcon(f),
      el("button", { type: "button", class: "open", tabindex: "-1", onclick: () => preview(f) }, shownName(f)))),
    el("td", { class: "c-size size" }, humanSize(f.size)),
    el("td", { class: "c-type" }, typeCell(f)),
    el("td", { class: "c-modified" }, el("time", { datetime: f.modified_on }, new Date(f.modified_on).toLocaleString())),
    el("td", { class: "c-actions row-actions" }, ...fileActions(f, " extra")));
}

function folderRow(d) {
  const key = "d:" + d.path;
  return el("tr", { class: "row folder", tabindex: "0", draggable: "true", "data-folder": d.path, "data-key": key, "data-drop": d.path },
    el("td", { class: "c-select" }, selectBox(key, baseName(d.path))),
    el("td", { class: "c-name" }, el("span", { class: "cell" }, icon("folder"), el("a", { href: folderHash(d.path), tabindex: "-1" }, baseName(d.path)))),
    el("td", { class: "c-size size" }, humanSize(d.size)),
    el("td", { class: "c-type type" }, fileCount(d.files)),
    el("td", { class: "c-modified" }, ""),
    el("td", { class: "c-actions row-actions" },
      el("button", { type: "button", class: "rename", onclick: () => renameFolder(d.path) }, "Rename"),
      el("button", { type: "button", class: "delete danger", onclick: () => deleteFolder(d.path) }, "Delete")));
}

function card(f) {
  const fresh = state.fresh.delete(f.id), key = "f:" + f.id;
  const c = el("div", { class: "card" + (fresh ? " fresh" : ""), tabindex: "0", draggable: "true", "data-file": "", "data-key": key, "data-id": f.id, "data-name": f.name });
  if (f.thumbnail_url) {
    c.append(el("img", { class: "thumb", src: local(f.thumbnail_url) + "?size=256", alt: "", loading: "lazy", onclick: () => preview(f) }));
  }
  c.append(
    el("div", { class: "name" }, selectBox(key, shownName(f)), shownName(f)),
    el("div", { class: "meta" }, el("span", { class: "size" }, humanSize(f.size)), " · ",
      typeCell(f), " · ", el("time", { datetime: f.modified_on }, new Date(f.modified_on).toLocaleString())),
    el("div", { class: "actions" }, ...fileActions(f, "")));
  return c;
}

function folderCard(d) {
  const key = "d:" + d.path;
  return el("div", { class: "card folder", tabindex: "0", draggable: "true", "data-folder": d.path, "data-key": key, "data-drop": d.path },
    el("div", { class: "name" }, selectBox(key, baseName(d.path)), icon("folder"),
      el("a", { href: folderHash(d.path) }, baseName(d.path))),
    el("div", { class: "meta" }, el("span", { class: "size" }, humanSize(d.size)), " · ", fileCount(d.files)));
}
