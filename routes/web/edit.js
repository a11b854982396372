// convfiles web page: a text file edited in place. The editor reads the
// file's version first and its text after, and saves with that version
// (write_text's if_version): when anyone changed the file meanwhile the
// save is refused, the text typed stays in the editor, and the user
// chooses to read theirs or to replace it, theirs kept as a version.
// Nothing is ever overwritten unseen.
"use strict";

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
