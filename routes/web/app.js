// convfiles web page: sessions, conversations, live updates and the side
// panel. The file browser is browser.js, selections and what is done to
// them select.js, single actions actions.js, uploads upload.js, content
// search search.js, previews and editing preview.js, Markdown markdown.js, and
// the shared event stream live.js and live-worker.js.
// Every name shown comes from users and agents, so the page writes text
// with textContent, never HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  conv: "", folder: "", files: [], folders: [], total: 0, offset: 0, filesAt: 0, filesOf: "", fresh: new Set(), rendered: "", csrf: "",
  view: localStorage.getItem("convfiles.view") === "cards" ? "cards" : "list",
  sort: { key: "name", desc: false }, search: "", searchIn: "names", known: null, live: null,
};
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
// CSRF token, which a page of another site cannot learn. An error keeps
// the answer's type (ConflictError) for the page to act on.
async function api(path, opts = {}) {
  opts.headers = Object.assign({}, opts.headers, state.csrf ? { "X-CSRF-Token": state.csrf } : {});
  const resp = await fetch(path, opts);
  const body = await resp.json().catch(() => ({}));
  if (resp.status === 401 && path !== "/api/session") showSignIn(body.error ? body.error.message : "");
  if (!body.success) {
    const err = new Error(body.error ? body.error.message : resp.status + " " + resp.statusText);
    err.type = body.error ? body.error.type : "";
    throw err;
  }
  return body.result;
}

// op runs an operation of the table on the open conversation.
function op(name, input) {
  return api("/api/conversations/" + encodeURIComponent(state.conv) + "/ops/" + name,
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input) });
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
  $("main").hidden = true;
  $("signin").hidden = false;
  $("signout").hidden = true;
  $("who").textContent = "";
  $("signin-message").textContent = why || "";
  $("token").focus();
}

async function signIn(token) {
  try {
    signedIn(await api("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) }));
    state.live.restart();
    route();
  } catch (err) {
    showSignIn(err.message);
  }
}

async function signOut() {
  await api("/api/session", { method: "DELETE" }).catch(() => {});
  showSignIn("Signed out.");
  state.live.restart();
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
  state.known = new Set(conversations.map((c) => c.id));
  const list = $("conv-items"), options = $("conversations");
  list.replaceChildren();
  options.replaceChildren();
  for (const c of conversations) {
    const a = el("a", { href: "#c=" + encodeURIComponent(c.id), class: c.id === state.conv ? "current" : "" },
      c.id, el("small", {}, fileCount(c.files) + " · " + humanSize(c.bytes)));
    if (c.id === state.conv) a.setAttribute("aria-current", "page");
    list.append(el("li", {}, a));
    options.append(el("option", { value: c.id }));
  }
  if (state.conv) render();
}

// openConversation shows a conversation's folder.
function openConversation(conv, folder) {
  if (!conv) {
    $("workspace").hidden = true;
    closePanel();
    return;
  }
  const other = conv !== state.conv;
  state.conv = conv;
  state.folder = folder;
  state.offset = 0;
  state.rendered = "";
  clearSelection();
  $("conversation").value = conv;
  $("workspace").hidden = false;
  closePanel();
  renderCrumbs();
  loadFiles();
  if (other) loadConversations().catch(() => {});
}

let panelOpener = null;
// openPanel shows the side panel and moves the focus into it; closing it
// gives the focus back to what opened it.
function openPanel(title) {
  if ($("panel").hidden) panelOpener = document.activeElement;
  $("panel").hidden = false;
  $("panel-title").textContent = title;
  $("panel-body").replaceChildren();
  $("panel-title").focus();
  return $("panel-body");
}

function closePanel() {
  if ($("panel").hidden) return;
  $("panel").hidden = true;
  $("panel-body").replaceChildren();
  const back = panelOpener && panelOpener.isConnected ? panelOpener : null;
  panelOpener = null;
  if (back) back.focus();
  else if (document.activeElement === document.body || !document.activeElement) $("search").focus();
}

// Changes come in bursts: the first schedules one reload, and those that
// arrive before it runs are in what it reads. A steady stream of changes
// reloads at that pace, never starving the page of updates.
let refreshTimer = 0, listTimer = 0;
function scheduleRefresh() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = 0;
    if (!state.conv) return;
    loadFiles();
    if (!$("deleted").hidden) showDeleted();
  }, 50);
}

function scheduleConversations() {
  if (listTimer) return;
  listTimer = setTimeout(() => { listTimer = 0; loadConversations().catch(() => {}); }, 1000);
}

// onEvent takes an event of any conversation the session reaches.
function onEvent(type, data, id) {
  window.convfilesEvents.push({ type, id: data.id, name: data.name, conversation: data.conversation, at: Date.now(), seq: id });
  if (type === "credential-ended") { showSignIn(data.message || "Your credential ended: sign in again."); return; }
  if (type !== "file:modified") scheduleConversations();
  if (type === "reset") { scheduleRefresh(); return; }
  if (data.conversation !== state.conv) return;
  if (type === "file:created" || type === "file:modified") state.fresh.add(data.id);
  if (type === "conversation:deleted") { location.hash = ""; say("The conversation " + data.conversation + " was deleted."); return; }
  scheduleRefresh();
}

function onStatus(live) {
  $("live").hidden = false;
  $("live").textContent = live ? "live" : "reconnecting…";
  $("live").className = live ? "live on" : "live";
}

// route reads the address: #c=<conversation>&f=<folder>.
function route() {
  const p = new URLSearchParams(location.hash.slice(1));
  const conv = p.get("c") || "";
  openConversation(conv, p.get("f") || "");
  if (!conv) loadConversations().catch((err) => say(err.message, true));
}

function onGlobalKey(e) {
  if (e.key !== "Escape" || $("ask").open) return;
  if (!$("panel").hidden) { e.preventDefault(); closePanel(); }
}

document.addEventListener("DOMContentLoaded", async () => {
  $("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = "#c=" + encodeURIComponent($("conversation").value.trim());
  });
  $("delete-conversation").addEventListener("click", deleteConversation);
  $("panel-close").addEventListener("click", closePanel);
  document.addEventListener("keydown", onGlobalKey);
  setupUploads();
  setupBrowser();
  setupSelection();
  setupActions();
  setupSearch();
  $("signin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    $("token").value = "";
    signIn(token);
  });
  $("signout").addEventListener("click", signOut);
  window.addEventListener("hashchange", () => { if (!location.hash.startsWith("#token=")) route(); });
  state.live = new Live(onEvent, onStatus, scheduleRefresh);
  // Connected before the first folder is read: nothing written in
  // between is missed.
  await state.live.start();
  start();
});
