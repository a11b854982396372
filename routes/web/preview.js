// convfiles web page: previews. Images are shown as they are, with their
// size and format; PDFs with their metadata, the start of the first page's
// text and the browser's own viewer; spreadsheets (XLSX, CSV, TSV) as a
// table of their first and last rows, sheet by sheet; SVG as an image (an
// <img> never runs a drawing's scripts); text as text, with an editor a
// click away (below). What the server reads of a file comes from
// GET /api/files/{id}/preview.
// Every value shown is written with textContent, never as HTML.
"use strict";

// local turns a link the API gives (absolute, on the server's public base
// URL) into a path on this page's own origin: the page may have been opened
// under another name for the same server (localhost, 127.0.0.1), and its
// fetches and its Content-Security-Policy allow only its own origin.
function local(url) {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
}

async function preview(f, sheet) {
  const body = openPanel("Preview: " + f.name);
  // What a narrow screen's row leaves out is at hand here.
  const actions = el("p", { class: "panel-actions" },
    el("a", { class: "button", href: f.download_url, download: "" }, "Download"), " ",
    el("button", { type: "button", class: "versions", onclick: () => showVersions(f) }, "Versions"));
  if (editable(f)) actions.append(" ", el("button", { type: "button", class: "edit", onclick: () => editFile(f) }, "Edit"));
  body.append(actions);
  if (f.preview_url) {
    const loading = el("p", { class: "loading" }, "Reading " + humanSize(f.size) + "…");
    body.append(loading);
    try {
      const query = sheet !== undefined ? "?sheet=" + encodeURIComponent(sheet) : "";
      const { preview: p } = await api(local(f.preview_url) + query);
      loading.remove();
      if (p.kind === "image") showImage(body, f, p.image);
      else if (p.kind === "pdf") showPDF(body, f, p.pdf);
      else if (p.kind === "spreadsheet") showSheet(body, f, p.spreadsheet);
    } catch (err) {
      loading.remove();
      body.append(el("p", { class: "error" }, "No preview: " + err.message));
    }
  } else if (f.mime_type === "text/markdown" || /\.(md|markdown)$/i.test(f.name)) {
    // Markdown is shown as a document built node by node (markdown.js),
    // with its source a click away.
    const text = await firstBytes(f, 262144);
    const doc = renderMarkdown(text, (href) => fileHref(f, href));
    const source = el("pre", { class: "text", hidden: "", tabindex: "0" }, text);
    body.append(el("button", { type: "button", class: "show-source", onclick: () => { source.hidden = !source.hidden; doc.hidden = !source.hidden; } }, "Source"),
      doc, source);
  } else if (f.mime_type === "image/svg+xml") {
    body.append(el("img", { class: "svg", src: local(f.view_url), alt: f.name }));
  } else if (f.mime_type.startsWith("text/") || f.mime_type === "application/json") {
    // Text, HTML and SVG included, is shown as text: fetched, never rendered.
    const text = await firstBytes(f, 65536);
    body.append(el("pre", { class: "text", tabindex: "0" }, text + (f.size > 65536 ? "\n… (first 64 KiB of " + humanSize(f.size) + ")" : "")));
  } else {
    body.append(el("p", {}, "No preview for " + f.mime_type + "; download it instead."));
  }
}

// fileHref places a Markdown file's relative link among the files of
// its conversation (a path on this page's origin), or answers "" when
// it leads out of the conversation.
function fileHref(f, href) {
  const root = "/files/" + encodeURIComponent(f.conversation) + "/";
  const u = new URL(href, new URL(local(f.url), location.href));
  return u.origin === location.origin && u.pathname.startsWith(root) ? u.pathname + u.hash : "";
}

// firstBytes reads up to n bytes of a file as text.
async function firstBytes(f, n) {
  const resp = await fetch(local(f.view_url), { headers: { Range: "bytes=0-" + (n - 1) } });
  return resp.text();
}

// facts renders name–value pairs, leaving out the empty ones.
function facts(pairs) {
  const dl = el("dl", { class: "facts" });
  for (const [k, v] of pairs) {
    if (v === "" || v === undefined || v === null) continue;
    dl.append(el("dt", {}, k), el("dd", {}, String(v)));
  }
  return dl;
}

function showImage(body, f, info) {
  body.append(
    facts([["Size", info.width + " × " + info.height + " px"], ["Format", info.format.toUpperCase()],
      ["Color", info.color_model + ", " + info.bit_depth + "-bit"],
      ["Orientation", info.orientation !== 1 ? "EXIF " + info.orientation + " (shown upright)" : ""]]),
    // The server's rendering, turned the way the EXIF says, up to 1024 px.
    el("img", { src: local(f.thumbnail_url) + "?size=1024", alt: f.name }));
}

function showPDF(body, f, pdf) {
  const info = pdf.info, first = (info.page_sizes || [])[0];
  body.append(facts([["Pages", info.pages], ["Page size", first ? Math.round(first.width) + " × " + Math.round(first.height) + " pt" : ""],
    ["Title", info.title], ["Author", info.author], ["Producer", info.producer], ["PDF version", info.version],
    ["Form", info.has_form ? "yes: read it with files.pdf.getFormFields" : ""], ["Encrypted", info.encrypted ? "yes" : ""]]));
  if (pdf.text_error) body.append(el("p", { class: "error" }, "The text cannot be read: " + pdf.text_error));
  if (pdf.first_page) {
    body.append(el("h4", {}, "Page 1"), el("pre", { class: "text pdf-text", tabindex: "0" }, pdf.first_page + (pdf.truncated ? "\n…" : "")));
  }
  body.append(el("iframe", { src: local(f.view_url), title: f.name }));
}

function showSheet(body, f, sheet) {
  const s = sheet.summary;
  if (sheet.sheets.length > 1) {
    body.append(el("div", { class: "sheets", role: "tablist" }, ...sheet.sheets.map((name) =>
      el("button", { type: "button", role: "tab", class: name === s.sheet ? "current" : "", "aria-selected": String(name === s.sheet),
        onclick: () => preview(f, name) }, name))));
  }
  body.append(facts([["Sheet", s.sheet], ["Rows", s.rows.toLocaleString()], ["Columns", s.columns], ["Used range", s.range]]));
  if (!s.rows) {
    body.append(el("p", {}, "The sheet is empty."));
    return;
  }
  const cell = (tag, v) => el(tag, {}, v === null || v === undefined ? "" : String(v));
  const row = (r) => el("tr", {}, el("th", { class: "rownum" }, String(r.row)), ...r.values.map((v) => cell("td", v)));
  const rows = [el("tr", {}, el("th", { class: "rownum" }, "1"), ...s.headers.map((v) => cell("th", v)))];
  rows.push(...s.top.map(row));
  const lastTop = s.top.length ? s.top[s.top.length - 1].row : 1;
  if (s.bottom.length && s.bottom[0].row > lastTop + 1) {
    const hidden = s.bottom[0].row - lastTop - 1;
    rows.push(el("tr", { class: "gap" }, el("td", { colspan: String(s.columns + 1) }, "⋯ " + hidden.toLocaleString() + " more rows ⋯")));
  }
  rows.push(...s.bottom.map(row));
  body.append(el("div", { class: "sheet", tabindex: "0", role: "region", "aria-label": "rows of " + s.sheet }, el("table", {}, ...rows)));
}

// A text file edited in place. The editor reads the
// file's version first and its text after, and saves with that version
// (write_text's if_version): when anyone changed the file meanwhile the
// save is refused, the text typed stays in the editor, and the user
// chooses to read theirs or to replace it, theirs kept as a version.
// Nothing is ever overwritten unseen.
const MAX_EDIT = 1 << 20; // the largest file edited in the page

function editable(f) {
  return f.size <= MAX_EDIT && (f.mime_type.startsWith("text/") || f.mime_type === "application/json") &&
    !/^text\/html/.test(f.mime_type);
}

async function editFile(f) {
  const body = openPanel("Edit: " + f.name);
  try {
    const { version } = await op("info", { id: f.id });
    const resp = await fetch(local(f.view_url), { cache: "no-store" });
    if (!resp.ok) throw new Error(resp.status + " " + resp.statusText);
    showEditor(body, f, version, await resp.text());
  } catch (err) {
    body.append(el("p", { class: "error" }, "The file cannot be read: " + err.message));
  }
}

function showEditor(body, f, version, text) {
  const area = el("textarea", { id: "editor", class: "editor", spellcheck: "false", "aria-label": "Text of " + f.name });
  area.value = text;
  const status = el("p", { id: "edit-status", role: "status" }, "Version " + version + ".");
  const save = el("button", { type: "button", id: "edit-save" }, "Save");
  const cancel = el("button", { type: "button", id: "edit-cancel" }, "Cancel");
  const buttons = el("div", { class: "edit-buttons" }, save, " ", cancel);
  body.replaceChildren(buttons, status, area);
  area.focus();
  cancel.onclick = () => preview(f);
  save.onclick = () => saveEdit(f, version, area, status, buttons);
  area.addEventListener("keydown", (e) => {
    if (e.key === "s" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save.click(); }
  });
}

async function saveEdit(f, version, area, status, buttons, replace) {
  const input = { id: f.id, content: area.value };
  if (!replace) input.if_version = version;
  status.className = "";
  status.textContent = "Saving…";
  try {
    await op("write_text", input);
    say("Saved " + f.name);
    loadFiles();
    if (replace) { preview(f); return; }
    // Saved on top of version, so this text is the next one: a save after
    // it is checked against that, and anyone else's write refuses it.
    const now = version + 1;
    buttons.querySelector("#edit-save").onclick = () => saveEdit(f, now, area, status, buttons);
    status.textContent = "Saved as version " + now + ".";
  } catch (err) {
    status.className = "error";
    if (err.type !== "ConflictError") { status.textContent = "Not saved: " + err.message; return; }
    status.textContent = "Not saved: " + err.message + " Your text is still here.";
    const theirs = el("button", { type: "button", id: "edit-theirs" }, "Show their version");
    const mine = el("button", { type: "button", id: "edit-replace", class: "danger" }, "Replace it with mine");
    theirs.onclick = () => preview(f);
    mine.onclick = () => saveEdit(f, version, area, status, buttons, true);
    status.append(" ", theirs, " ", mine);
  }
}
