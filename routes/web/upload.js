// convfiles web page: uploads. Files and whole folders come from the
// pickers (Upload files, Upload folder) or are dropped on the page; a
// folder keeps its structure, its empty folders included, under the
// folder open in the page. Rows dragged within the page move files
// instead (select.js): only a drag that carries files uploads.
"use strict";

const MOVE_TYPE = "application/x-convfiles-items";

// upload sends files, each {file, path} with path relative to the open
// folder, in one request, with its progress shown.
function upload(entries, emptyFolders = []) {
  if (!state.conv) return;
  const prefix = state.folder ? state.folder + "/" : "";
  const made = emptyFolders.map((p) => op("make_folder", { path: prefix + p }));
  if (!entries.length) {
    Promise.all(made).then(() => { say("Made " + emptyFolders.length + " folders"); loadFiles(); }, (err) => say("Upload refused: " + err.message, true));
    return;
  }
  const form = new FormData();
  for (const { file, path } of entries) form.append("file", file, prefix + path);
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/api/files/upload?conversation=" + encodeURIComponent(state.conv));
  if (state.csrf) xhr.setRequestHeader("X-CSRF-Token", state.csrf);
  $("progress").hidden = false;
  xhr.upload.onprogress = (e) => {
    if (!e.lengthComputable) return;
    $("progress-bar").value = Math.round((e.loaded / e.total) * 100);
    $("progress-text").textContent = humanSize(e.loaded) + " of " + humanSize(e.total);
  };
  xhr.onload = async () => {
    $("progress").hidden = true;
    let body = {};
    try { body = JSON.parse(xhr.responseText); } catch (_) { /* said below */ }
    if (body.success) {
      await Promise.allSettled(made);
      const names = body.result.files.map((f) => f.name);
      say("Uploaded " + (names.length > 5 ? names.length + " files" : names.join(", ")));
      loadFiles();
    } else {
      say("Upload refused: " + (body.error ? body.error.message : xhr.status), true);
    }
  };
  xhr.onerror = () => { $("progress").hidden = true; say("Upload failed: the connection broke", true); };
  xhr.send(form);
}

// fromPicker takes what a picker chose: a folder picker's files carry
// their path inside the chosen folder, the folder's own name first.
function fromPicker(fileList) {
  return Array.from(fileList || [], (file) => ({ file, path: file.webkitRelativePath || file.name }));
}

// readEntries walks what was dropped: files, and folders to any depth.
async function readEntries(entries) {
  const files = [], empty = [];
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  const childrenOf = async (dir) => {
    const reader = dir.createReader(), out = [];
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) return out;
      out.push(...batch);
    }
  };
  const walk = async (entry, path) => {
    if (entry.isFile) { files.push({ file: await fileOf(entry), path: path + entry.name }); return; }
    const children = await childrenOf(entry);
    if (!children.length) empty.push(path + entry.name);
    for (const child of children) await walk(child, path + entry.name + "/");
  };
  for (const entry of entries) await walk(entry, "");
  return { files, empty };
}

async function onDrop(e) {
  e.preventDefault();
  document.body.classList.remove("dragging");
  if (!e.dataTransfer.types.includes("Files")) return;
  if (!state.conv) { say("Open a conversation first, then drop files into it.", true); return; }
  const entries = Array.from(e.dataTransfer.items || [], (it) => it.webkitGetAsEntry && it.webkitGetAsEntry()).filter(Boolean);
  if (entries.length && entries.some((en) => en.isDirectory)) {
    try {
      const { files, empty } = await readEntries(entries);
      upload(files, empty);
    } catch (err) {
      say("The dropped folder could not be read: " + err.message, true);
    }
    return;
  }
  upload(fromPicker(e.dataTransfer.files));
}

function setupUploads() {
  $("upload-files").addEventListener("click", () => $("file-input").click());
  $("upload-folder").addEventListener("click", () => $("folder-input").click());
  for (const id of ["file-input", "folder-input"]) {
    $(id).addEventListener("change", (e) => { upload(fromPicker(e.target.files)); e.target.value = ""; });
  }
  let depth = 0;
  const carriesFiles = (e) => e.dataTransfer && e.dataTransfer.types.includes("Files");
  document.addEventListener("dragenter", (e) => { if (carriesFiles(e)) { e.preventDefault(); depth++; document.body.classList.add("dragging"); } });
  document.addEventListener("dragleave", (e) => { if (carriesFiles(e) && --depth <= 0) { depth = 0; document.body.classList.remove("dragging"); } });
  document.addEventListener("dragover", (e) => { if (carriesFiles(e)) e.preventDefault(); });
  document.addEventListener("drop", (e) => { depth = 0; if (carriesFiles(e)) onDrop(e); });
}
