// convfiles web page: conversations, their files as download cards,
// uploads (button and drag-and-drop, with progress), previews, versions
// and live updates over server-sent events. Every name shown comes from
// users and agents, so the page writes text with textContent, never HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { conv: "", files: [], events: null, fresh: new Set(), rendered: "", csrf: "" };
// Every event the page received, with its arrival time (tests and the
// latency benchmark read it).
window.convfilesEvents = [];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function humanSize(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + " " + units[i];
}

// api calls the REST API. A hosted server's session cookie rides along
// by itself; requests that change something also carry the session's
// CSRF token, which a page of another site cannot learn.
async function api(path, opts = {}) {
  opts.headers = Object.assign({}, opts.headers, state.csrf ? { "X-CSRF-Token": state.csrf } : {});
  const resp = await fetch(path, opts);
  const body = await resp.json().catch(() => ({}));
  if (resp.status === 401 && path !== "/api/session") showSignIn(body.error ? body.error.message : "");
  if (!body.success) throw new Error(body.error ? body.error.message : resp.status + " " + resp.statusText);
  return body.result;
}

// signedIn records the session and shows who it is.
function signedIn(session) {
  state.csrf = session.csrf_token || "";
  $("signin").hidden = true;
  $("main").hidden = false;
  $("signout").hidden = !session.hosted;
  $("who").textContent = session.hosted ? session.credential + " · " + session.scopes : "";
}

function showSignIn(why) {
  state.csrf = "";
  if (state.events) { state.events.close(); state.events = null; }
  $("main").hidden = true;
  $("signin").hidden = false;
  $("signout").hidden = true;
  $("who").textContent = "";
  $("signin-message").textContent = why || "";
}

async function signIn(token) {
  try {
    signedIn(await api("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) }));
    route();
  } catch (err) {
    showSignIn(err.message);
  }
}

async function signOut() {
  await api("/api/session", { method: "DELETE" }).catch(() => {});
  showSignIn("Signed out.");
}

// start signs in with a token handed over in the address (#token=...,
// which never reaches a server log), or resumes the cookie's session.
async function start() {
  const m = /^#token=([^&]*)/.exec(location.hash);
  if (m) {
    history.replaceState(null, "", location.pathname);
    await signIn(decodeURIComponent(m[1]));
    return;
  }
  try {
    signedIn(await api("/api/session"));
    route();
  } catch (err) {
    showSignIn("");
  }
}

function say(text, isError) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
}

async function loadConversations() {
  const { conversations } = await api("/api/conversations");
  const list = $("conv-items"), options = $("conversations");
  list.replaceChildren();
  options.replaceChildren();
  for (const c of conversations) {
    const a = el("a", { href: "#c=" + encodeURIComponent(c.id), class: c.id === state.conv ? "current" : "" },
      c.id, el("small", {}, c.files + " files · " + humanSize(c.bytes)));
    list.append(el("li", {}, a));
    options.append(el("option", { value: c.id }));
  }
}

function openConversation(conv) {
  if (!conv) {
    $("workspace").hidden = true;
    closePanel();
    return;
  }
  state.conv = conv;
  state.rendered = "";
  $("conversation").value = conv;
  $("title").textContent = conv;
  $("workspace").hidden = false;
  closePanel();
  if (state.events) state.events.close();
  // The listing says which event it is current to; the stream starts
  // there, so nothing written in between is missed.
  loadFiles().then((lastEventId) => { if (conv === state.conv) connectEvents(lastEventId); });
  loadConversations().catch(() => {});
}

async function loadFiles() {
  const conv = state.conv;
  const q = new URLSearchParams({ sort: "modified", order: "desc", limit: "1000" });
  const filter = $("filter").value.trim();
  if (filter) q.set("pattern", filter);
  try {
    const { files, total, last_event_id } = await api("/api/conversations/" + encodeURIComponent(conv) + "/files?" + q);
    if (conv !== state.conv) return;
    state.files = files;
    renderCards(files, total);
    return last_event_id;
  } catch (err) {
    say(err.message, true);
  }
}

function renderCards(files, total) {
  // Redraw only when something changed, so a live update that changed
  // nothing here leaves the cards (and what the user points at) alone.
  const key = files.map((f) => f.id + "/" + f.version + "/" + f.name).join("|") + "#" + total + "#" + state.fresh.size;
  if (key === state.rendered) return;
  state.rendered = key;
  const cards = $("cards");
  cards.replaceChildren(...files.map(card));
  $("empty").hidden = files.length > 0;
  if (total > files.length) say("Showing " + files.length + " of " + total + " files; filter to narrow them.");
}

function card(f) {
  const c = el("div", { class: "card" + (state.fresh.has(f.id) ? " fresh" : ""), "data-id": f.id, "data-name": f.name });
  state.fresh.delete(f.id);
  const when = new Date(f.modified_on).toLocaleString();
  if (f.thumbnail_url) {
    c.append(el("img", { class: "thumb", src: local(f.thumbnail_url) + "?size=256", alt: "", loading: "lazy", onclick: () => preview(f) }));
  }
  c.append(
    el("div", { class: "name" }, f.name),
    el("div", { class: "meta" }, el("span", { class: "size" }, humanSize(f.size)), " · ",
      el("span", { class: "type" }, f.mime_type), " · ", el("time", { datetime: f.modified_on }, when)),
    el("div", { class: "actions" },
      el("a", { class: "button download", href: f.download_url, download: "" }, "Download"),
      el("button", { type: "button", class: "preview", onclick: () => preview(f) }, "Preview"),
      el("button", { type: "button", class: "versions", onclick: () => showVersions(f) }, "Versions"),
      el("button", { type: "button", class: "delete danger", onclick: () => deleteFile(f) }, "Delete")));
  return c;
}

function upload(fileList) {
  const files = Array.from(fileList || []);
  if (!files.length || !state.conv) return;
  const form = new FormData();
  for (const f of files) form.append("file", f, f.name);
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/api/files/upload?conversation=" + encodeURIComponent(state.conv));
  if (state.csrf) xhr.setRequestHeader("X-CSRF-Token", state.csrf);
  $("progress").hidden = false;
  xhr.upload.onprogress = (e) => {
    if (!e.lengthComputable) return;
    $("progress-bar").value = Math.round((e.loaded / e.total) * 100);
    $("progress-text").textContent = humanSize(e.loaded) + " of " + humanSize(e.total);
  };
  xhr.onload = () => {
    $("progress").hidden = true;
    let body = {};
    try { body = JSON.parse(xhr.responseText); } catch (_) {}
    if (body.success) {
      say("Uploaded " + body.result.files.map((f) => f.name).join(", "));
      loadFiles();
    } else {
      say("Upload refused: " + (body.error ? body.error.message : xhr.status), true);
    }
  };
  xhr.onerror = () => { $("progress").hidden = true; say("Upload failed: the connection broke", true); };
  xhr.send(form);
}

async function showVersions(f) {
  const body = openPanel("Versions: " + f.name);
  try {
    const { versions } = await api("/api/files/" + f.id + "/versions");
    if (!versions.length) {
      body.append(el("p", {}, "No earlier versions: they are kept when the file is overwritten or deleted."));
      return;
    }
    const rows = versions.map((v) => el("tr", { "data-version": String(v.version) },
      el("td", {}, "v" + v.version), el("td", {}, humanSize(v.size)),
      el("td", {}, new Date(v.kept_on).toLocaleString()), el("td", {}, v.reason),
      el("td", {}, el("a", { href: v.download_url, download: "" }, "Download"), " ",
        el("button", { type: "button", class: "restore", onclick: () => restore(f, v.version) }, "Restore"))));
    body.append(el("table", {}, el("tr", {}, ...["Version", "Size", "Replaced", "By", ""].map((h) => el("th", {}, h))), ...rows));
  } catch (err) {
    body.append(el("p", { class: "error" }, err.message));
  }
}

async function restore(f, version) {
  try {
    await api("/api/files/" + f.id + "/versions/" + version + "/restore", { method: "POST" });
    say("Restored " + f.name + " to version " + version);
    closePanel();
    loadFiles();
  } catch (err) {
    say(err.message, true);
  }
}

async function deleteFile(f) {
  if (!confirm("Delete " + f.name + "? Its content is kept as a version and can be restored.")) return;
  try {
    await api("/api/files/" + f.id, { method: "DELETE" });
    say("Deleted " + f.name);
    loadFiles();
  } catch (err) {
    say(err.message, true);
  }
}

async function deleteConversation() {
  const conv = state.conv;
  if (!confirm("Delete conversation " + conv + " with all its files and versions? This cannot be undone.")) return;
  try {
    await api("/api/conversations/" + encodeURIComponent(conv), { method: "DELETE" });
    location.hash = "";
    say("");
  } catch (err) {
    say(err.message, true);
  }
}

function openPanel(title) {
  $("panel").hidden = false;
  $("panel-title").textContent = title;
  $("panel-body").replaceChildren();
  return $("panel-body");
}

function closePanel() { $("panel").hidden = true; $("panel-body").replaceChildren(); }

let refreshTimer = 0;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => { loadFiles(); loadConversations().catch(() => {}); }, 50);
}

function connectEvents(lastEventId) {
  if (state.events) state.events.close();
  const q = new URLSearchParams({ conversation: state.conv });
  if (lastEventId !== undefined) q.set("last_event_id", String(lastEventId));
  const es = new EventSource("/api/events?" + q);
  state.events = es;
  es.onopen = () => { $("live").textContent = "live"; $("live").className = "live on"; };
  es.onerror = () => { $("live").textContent = "reconnecting…"; $("live").className = "live"; };
  for (const type of ["file:created", "file:modified", "file:deleted", "conversation:deleted", "reset"]) {
    es.addEventListener(type, (e) => {
      const data = JSON.parse(e.data || "{}");
      window.convfilesEvents.push({ type, id: data.id, name: data.name, at: Date.now(), seq: e.lastEventId });
      if (type === "file:created" || type === "file:modified") state.fresh.add(data.id);
      if (type === "conversation:deleted") { location.hash = ""; return; }
      scheduleRefresh();
    });
  }
}

function route() {
  const m = /^#c=(.*)$/.exec(location.hash);
  openConversation(m ? decodeURIComponent(m[1]) : "");
  if (!m) loadConversations().catch((err) => say(err.message, true));
}

function setupDragAndDrop() {
  let depth = 0;
  document.addEventListener("dragenter", (e) => { e.preventDefault(); depth++; document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; document.body.classList.remove("dragging"); } });
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    document.body.classList.remove("dragging");
    if (!state.conv) { say("Open a conversation first, then drop files into it.", true); return; }
    upload(e.dataTransfer.files);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  $("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = "#c=" + encodeURIComponent($("conversation").value.trim());
  });
  $("file-input").addEventListener("change", (e) => { upload(e.target.files); e.target.value = ""; });
  $("filter").addEventListener("input", () => loadFiles());
  $("delete-conversation").addEventListener("click", deleteConversation);
  $("panel-close").addEventListener("click", closePanel);
  setupDragAndDrop();
  $("signin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    $("token").value = "";
    signIn(token);
  });
  $("signout").addEventListener("click", signOut);
  window.addEventListener("hashchange", () => { if (!location.hash.startsWith("#token=")) route(); });
  start();
});
