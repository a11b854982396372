// convfiles web page: what a user does to files and folders. Rename and
// move (a new name with folders in it moves the file), new folders,
// deletes (kept as versions), versions with restore, and recently
// deleted files with restore. Names are asked for in a dialog.
"use strict";

// ask shows the dialog and resolves to the text entered, or null.
function ask(label, value, hint) {
  const d = $("ask");
  $("ask-label").textContent = label;
  $("ask-hint").textContent = hint || "";
  $("ask-input").value = value;
  d.showModal();
  $("ask-input").focus();
  $("ask-input").select();
  return new Promise((resolve) => {
    const done = (v) => { d.close(); $("ask-form").onsubmit = null; $("ask-cancel").onclick = null; d.oncancel = null; resolve(v); };
    $("ask-form").onsubmit = (e) => { e.preventDefault(); done($("ask-input").value.trim()); };
    $("ask-cancel").onclick = () => done(null);
    d.oncancel = () => done(null);
  });
}

async function act(what, fn) {
  try {
    say(await fn());
    loadFiles();
  } catch (err) {
    say(what + ": " + err.message, true);
  }
}

async function renameFile(f) {
  const to = await ask("Rename or move " + f.name + " to", f.name, "A name with folders, such as archive/" + baseName(f.name) + ", moves it.");
  if (!to || to === f.name) return;
  act("Rename", async () => { await op("rename", { id: f.id, new_name: to }); return "Renamed " + f.name + " to " + to; });
}

async function renameFolder(path) {
  const to = await ask("Rename or move the folder " + path + " to", path, "Every file in it moves, keeping its versions.");
  if (!to || to === path) return;
  act("Rename", async () => {
    const r = await op("move_folder", { path, new_path: to });
    return "Moved " + path + " to " + r.path + " (" + r.moved + " files)";
  });
}

async function newFolder() {
  const name = await ask("New folder in " + (state.folder || state.conv), "", "A name, or a path such as reports/2025.");
  if (!name) return;
  const path = state.folder ? state.folder + "/" + name : name;
  act("New folder", async () => { await op("make_folder", { path }); return "Made the folder " + path; });
}

async function deleteFile(f) {
  if (!confirm("Delete " + f.name + "? Its content is kept as a version and can be restored from Recently deleted.")) return;
  act("Delete", async () => { await api("/api/files/" + f.id, { method: "DELETE" }); return "Deleted " + f.name; });
}

async function deleteFolder(path) {
  if (!confirm("Delete the folder " + path + " and every file in it? Each file can be restored from Recently deleted.")) return;
  act("Delete", async () => { const r = await op("delete_folder", { path }); return "Deleted " + path + " (" + r.deleted + " files)"; });
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
        el("button", { type: "button", class: "restore", onclick: () => restore(f.id, f.name, v.version) }, "Restore"))));
    body.append(el("table", {}, el("tr", {}, ...["Version", "Size", "Replaced", "By", ""].map((h) => el("th", {}, h))), ...rows));
  } catch (err) {
    body.append(el("p", { class: "error" }, err.message));
  }
}

async function restore(id, name, version) {
  try {
    await api("/api/files/" + id + "/versions/" + version + "/restore", { method: "POST" });
    say("Restored " + name + " to version " + version);
    closePanel();
    loadFiles();
    if (!$("deleted").hidden) showDeleted();
  } catch (err) {
    say(err.message, true);
  }
}

// showDeleted lists what was deleted and can be restored, newest first.
async function showDeleted() {
  $("deleted").hidden = false;
  $("show-deleted").setAttribute("aria-pressed", "true");
  try {
    const { files: page, total } = await op("list_deleted", state.search ? { pattern: globFor(state.search) } : {});
    const files = page.filter((f) => baseName(f.name) !== KEEP);
    $("deleted-rows").replaceChildren(...files.map((f) => el("tr", { class: "row deleted", "data-name": f.name },
      el("td", { class: "c-name" }, f.name), el("td", { class: "c-size" }, humanSize(f.size)),
      el("td", { class: "c-modified" }, "deleted " + new Date(f.deleted_on).toLocaleString()),
      el("td", { class: "c-actions" }, el("button", { type: "button", class: "restore", onclick: () => restore(f.id, f.name, f.last_version) }, "Restore")))));
    if (!files.length) $("deleted-rows").append(el("tr", {}, el("td", {}, state.search ? "No deleted file matches." : "Nothing was deleted.")));
    if (total > page.length) $("deleted-rows").append(el("tr", {}, el("td", {}, "The " + page.length + " most recently deleted of " + total + " are shown; search to find others.")));
  } catch (err) {
    say(err.message, true);
  }
}

function setupActions() {
  $("new-folder").addEventListener("click", newFolder);
  $("show-deleted").addEventListener("click", () => {
    if ($("deleted").hidden) showDeleted();
    else { $("deleted").hidden = true; $("show-deleted").setAttribute("aria-pressed", "false"); }
  });
}
