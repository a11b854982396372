// convfiles web page: sessions, conversations, live updates, uploads and
// the side panel. The file browser is browser.js, its actions actions.js,
// previews preview.js and markdown.js. Every name shown comes from users
// and agents, so the page writes text with textContent, never HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  conv: "", folder: "", files: [], folders: [], total: 0, events: null, fresh: new Set(), rendered: "", csrf: "",
  view: localStorage.getItem("convfiles.view") === "cards" ? "cards" : "list",
  sort: { key: "name", desc: false }, search: "", known: null,
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
// CSRF token, which a page of another site cannot learn.
async function api(path, opts = {}) {
  opts.headers = Object.assign({}, opts.headers, state.csrf ? { "X-CSRF-Token": state.csrf } : {});
  const resp = await fetch(path, opts);
  const body = await resp.json().catch(() => ({}));
  if (resp.status === 401 && path !== "/api/session") showSignIn(body.error ? body.error.message : "");
  if (!body.success) throw new Error(body.error ? body.error.message : resp.status + " " + resp.statusText);
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
  state.known = new Set(conversations.map((c) => c.id));
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

// openConversation shows a conversation's folder; the event stream stays
// open while only the folder changes.
function openConversation(conv, folder) {
  if (!conv) {
    $("workspace").hidden = true;
    closePanel();
    return;
  }
  const same = conv === state.conv && state.events;
  state.conv = conv;
  state.folder = folder;
  state.rendered = "";
  $("conversation").value = conv;
  $("workspace").hidden = false;
  closePanel();
  renderCrumbs();
  // The listing says which event it is current to; the stream starts
  // there, so nothing written in between is missed.
  loadFiles().then((lastEventId) => { if (conv === state.conv && !same) connectEvents(lastEventId); });
  if (!same) loadConversations().catch(() => {});
}

function openPanel(title) {
  $("panel").hidden = false;
  $("panel-title").textContent = title;
  $("panel-body").replaceChildren();
  // On a narrow screen the panel is below the files: bring it into view.
  if (matchMedia("(max-width: 760px)").matches) $("panel").scrollIntoView({ block: "start" });
  return $("panel-body");
}

function closePanel() { $("panel").hidden = true; $("panel-body").replaceChildren(); }

let refreshTimer = 0;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    loadFiles();
    if (!$("deleted").hidden) showDeleted();
    loadConversations().catch(() => {});
  }, 50);
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

// route reads the address: #c=<conversation>&f=<folder>.
function route() {
  const p = new URLSearchParams(location.hash.slice(1));
  const conv = p.get("c") || "";
  if (conv !== state.conv && state.events) { state.events.close(); state.events = null; }
  openConversation(conv, p.get("f") || "");
  if (!conv) loadConversations().catch((err) => say(err.message, true));
}

function upload(fileList) {
  const files = Array.from(fileList || []);
  if (!files.length || !state.conv) return;
  const form = new FormData();
  const prefix = state.folder ? state.folder + "/" : "";
  for (const f of files) form.append("file", f, prefix + f.name);
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
  $("delete-conversation").addEventListener("click", deleteConversation);
  $("panel-close").addEventListener("click", closePanel);
  setupDragAndDrop();
  setupBrowser();
  setupActions();
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
