// The Documents view: uploads (a few at a time, each with its progress),
// the documents the server searches, filters, sorts and pages, their
// badges, downloads, and work on several at once.
//
// Where additions plug in: rowActions holds functions (document) =>
// element or null, each drawn among a document's actions in the list
// (a "Try again" for a failed conversion, say).
import { addToFolder, fillAddSelect, folder, folderUpload, loadFolders, refreshFolder } from "./folders.js";
import { closeReview, openReview, review, validDate } from "./review.js";
import { authHeaders, call, loadUser, quotaMessage, session } from "./session.js";
import { $, el, exportFormats, localTime, message, pages, parseDate, plural, say } from "./util.js";

// ---- badges ----
export function badge(doc) {
  if (doc.status === "processing") {
    const done = doc.pages_done || 0;
    return el("span", { class: "badge processing", text: `Converting… ${done} of ${pages(doc.page_count)}` });
  }
  if (doc.status === "failed") return el("span", { class: "badge failed", text: "✗ Failed", title: doc.error || "" });
  switch (doc.reconciliation) {
    case "ok": return el("span", { class: "badge ok", text: "✓ Reconciled", title: "The printed balances prove every row." });
    case "mismatch": return el("span", { class: "badge mismatch", text: "✗ Mismatch", title: "The running balance breaks: review it." });
    case "no_transactions": return el("span", { class: "badge none", text: "∅ No transactions" });
    default: return el("span", { class: "badge unverified", text: "⚠ Unverified", title: "The statement prints nothing to check the rows against." });
  }
}

// ---- history ----
// The server searches, filters, sorts and pages the documents (GET
// documents with q, status, folder_id, from, to, sort); the list holds the
// pages read so far, in the server's order, and "Show more" reads the
// next. An office's 500 statements are never all read at once.
export const docsAll = new Map(); // file_id -> document, as the list gives it, in its order
export const selected = new Set(); // file_ids ticked in the list
export let docsNext = null; // the before of the next page, null on the last
export let docsSeq = 0; // the newest list request; older answers are dropped
export const polling = new Set();

// periodInput reads a period filter typed in the date style: YYYY-MM-DD,
// "" when empty, null when it is not a date.
export function periodInput(id) {
  const inp = $(id), v = inp.value.trim();
  if (!v) { inp.removeAttribute("aria-invalid"); return ""; }
  const d = parseDate(v);
  if (!validDate(d)) { inp.setAttribute("aria-invalid", "true"); return null; }
  inp.removeAttribute("aria-invalid");
  return d;
}

// docsQuery is the list's search, filters and order as query parameters.
export function docsQuery() {
  const p = new URLSearchParams();
  const q = $("docs-q").value.trim();
  if (q) p.set("q", q);
  const st = $("docs-status").value, fo = $("docs-folder").value, so = $("docs-sort").value;
  if (st) p.set("status", st);
  if (fo) p.set("folder_id", fo === "-" ? "none" : fo);
  if (so && so !== "newest") p.set("sort", so);
  for (const [id, name] of [["docs-from", "from"], ["docs-to", "to"]]) {
    const v = periodInput(id);
    if (v) p.set(name, v);
  }
  return p;
}
export const docsFiltered = () => [...docsQuery().keys()].some((k) => k !== "sort");

// loadDocuments reads the list anew: the first page, or (keep) as many
// documents as are shown now.
export async function loadDocuments(reset) {
  const seq = ++docsSeq;
  const want = reset ? 50 : Math.max(50, docsAll.size);
  const p = docsQuery();
  p.set("limit", String(Math.min(200, want)));
  const got = [];
  let next = null;
  do {
    if (next) p.set("before", next);
    const { ok, body } = await call("documents?" + p);
    if (seq !== docsSeq) return;
    if (!ok) { say(message(body), true); return; }
    got.push(...body.documents);
    next = body.next;
  } while (next && got.length < want);
  docsAll.clear();
  for (const d of got) docsAll.set(d.file_id, d);
  docsNext = next;
  renderDocs();
  fillAddSelect();
}

// moreDocuments reads the next page of the list.
export async function moreDocuments() {
  if (!docsNext) return;
  const seq = docsSeq;
  const p = docsQuery();
  p.set("limit", "50");
  p.set("before", docsNext);
  const { ok, body } = await call("documents?" + p);
  if (seq !== docsSeq) return;
  if (!ok) { say(message(body), true); return; }
  for (const d of body.documents) docsAll.set(d.file_id, d);
  docsNext = body.next;
  renderDocs();
  say(`${plural(body.documents.length, "more document")} shown.`);
}

// putDoc records a document's new state and shows it; a new upload goes
// first, as the newest.
export function putDoc(d) {
  const was = docsAll.get(d.file_id);
  if (was && !d.folders) d.folders = was.folders;
  if (was) docsAll.set(d.file_id, d);
  else {
    const rest = [...docsAll];
    docsAll.clear();
    docsAll.set(d.file_id, d);
    for (const [k, v] of rest) docsAll.set(k, v);
  }
  const row = document.querySelector(`#docs tr[data-id="${d.file_id}"]`);
  if (row) fillDocRow(row, d); else renderDocs();
}

export const resultKey = (d) => (d.status === "completed" ? d.reconciliation || "unverified" : d.status);

export function renderDocs() {
  const list = [...docsAll.values()];
  $("docs").replaceChildren(...list.map(docRow));
  $("more").hidden = !docsNext;
  $("more").textContent = "Show more";
  const filtered = docsFiltered();
  $("docs-empty").hidden = list.length > 0;
  $("docs-empty").textContent = filtered ? "No documents match. Change the search or the filters." : "No documents yet. Converted statements appear here.";
  $("docs-count").textContent = list.length === 0 ? "" : `${plural(list.length, filtered ? "document found" : "document", filtered ? "documents found" : "documents")}${docsNext ? ", more below" : ""}`;
  renderSelection();
}

export function fillFolderChoices(folders) {
  const fo = $("docs-folder"), was = fo.value;
  fo.replaceChildren(el("option", { value: "", text: "any folder" }), el("option", { value: "-", text: "in no folder" }),
    ...folders.map((f) => el("option", { value: f.folder_id, text: f.name })));
  if ([...fo.options].some((o) => o.value === was)) fo.value = was;
  const bf = $("bulk-folder"), bwas = bf.value;
  bf.replaceChildren(el("option", { value: "", text: folders.length ? "Choose a folder…" : "No folders yet" }),
    ...folders.map((f) => el("option", { value: f.folder_id, text: f.name })));
  if ([...bf.options].some((o) => o.value === bwas)) bf.value = bwas;
}

export function renderSelection() {
  const n = selected.size;
  $("bulk").hidden = n === 0;
  $("bulk-count").textContent = `${plural(n, "document")} selected`;
  const boxes = [...$("docs").querySelectorAll("input.pick")];
  const all = $("docs-all");
  all.checked = boxes.length > 0 && boxes.every((b) => b.checked);
  all.indeterminate = !all.checked && boxes.some((b) => b.checked);
}

export function docRow(d) {
  const tr = el("tr", { "data-id": d.file_id });
  fillDocRow(tr, d);
  if (d.status === "processing") pollDoc(d.file_id);
  return tr;
}

// rowActions are additions' actions on a document in the list: each a
// function (document) => element or null.
export const rowActions = [];

export function fillDocRow(tr, d) {
  const result = el("td", { class: "result", "data-label": "Result" }, badge(d));
  if (d.edited) result.append(el("span", { class: "edited", text: "edited" }));
  if (d.status === "completed") result.append(el("div", { class: "small muted", text: plural(d.transaction_count, "transaction") }));
  if (d.status === "failed") result.append(el("div", { class: "small error", text: message({ code: d.error_code, error: d.error }, { name: d.original_name }) }));
  const actions = el("div", { class: "actions" });
  if (d.status === "failed" && d.retryable) actions.append(el("button", { type: "button", text: "Try again", "aria-label": `Try ${d.original_name} again`, onclick: () => retry(d) }));
  if (d.status === "completed") {
    actions.append(el("button", { type: "button", text: "Review", "aria-label": `Review ${d.original_name}`, onclick: () => openReview(d) }));
    for (const f of ["csv", "xlsx", "json"]) {
      actions.append(el("button", { type: "button", text: f.toUpperCase(), "aria-label": `Download ${d.original_name} as ${f.toUpperCase()}`, onclick: () => download(d, f) }));
    }
  }
  for (const add of rowActions) {
    const e = add(d);
    if (e) actions.append(e);
  }
  actions.append(el("button", { type: "button", text: "Delete", "aria-label": `Delete ${d.original_name}`, onclick: () => remove(d) }));
  const pick = el("input", { type: "checkbox", class: "pick", "aria-label": `Select ${d.original_name}` });
  pick.checked = selected.has(d.file_id);
  pick.addEventListener("change", () => { if (pick.checked) selected.add(d.file_id); else selected.delete(d.file_id); renderSelection(); });
  const folders = (d.folders || []).map((f) => f.name).join(", ");
  tr.replaceChildren(
    el("td", { class: "pick-cell" }, pick),
    el("td", { class: "name", text: d.original_name }),
    el("td", { class: "folders", "data-label": "Folder", text: folders || "—" }),
    el("td", { class: "acct", "data-label": "Account", text: d.account || "—" }),
    el("td", { class: "bank", "data-label": "Bank", text: d.bank || "—" }),
    el("td", { "data-label": "Uploaded", text: localTime(d.created_at) }),
    el("td", { "data-label": "Pages", text: String(d.page_count) }),
    result,
    el("td", { class: "actions-cell" }, actions),
  );
}

export async function bulkZip() {
  const ids = [...selected];
  if (!ids.length) return;
  const [format, profile] = $("bulk-format").value.split(":");
  let q = `documents/zip?format=${encodeURIComponent(format)}` + ids.map((id) => "&file_id=" + encodeURIComponent(id)).join("");
  if (profile) q += `&profile=${encodeURIComponent(profile)}`;
  const { ok, body, r } = await call(q);
  if (!ok) { say(message(body), true); return; }
  await saveBlob(r, "statements.zip");
  say(`Downloading ${plural(ids.length, "document")} as one zip.`);
}

export async function bulkFolder() {
  const fid = $("bulk-folder").value;
  if (!fid) { say("Choose the folder to put them in.", true); $("bulk-folder").focus(); return; }
  const name = $("bulk-folder").selectedOptions[0].textContent;
  let n = 0;
  for (const id of selected) if (await addToFolder(id, fid)) n++;
  await loadDocuments(false);
  loadFolders();
  if (folder && folder.id === fid) refreshFolder();
  say(`Put ${plural(n, "document")} in “${name}”.`);
}

export async function bulkDelete() {
  const ids = [...selected];
  if (!ids.length) return;
  const yes = await confirmDialog(`Delete ${plural(ids.length, "document")}? Their files, transactions and corrections are removed for good. Their pages stay counted against your quota.`);
  if (!yes) { say("Nothing was deleted."); return; }
  let n = 0;
  for (const id of ids) {
    const { ok, body } = await call("documents/" + encodeURIComponent(id), { method: "DELETE" });
    if (ok || (body && body.code === "not_found")) { n++; docsAll.delete(id); selected.delete(id); if (review && review.doc.file_id === id) closeReview(); }
  }
  renderDocs();
  if (folder) refreshFolder();
  loadFolders();
  say(`Deleted ${plural(n, "document")}.`);
  $("docs-q").focus();
}

export async function pollDoc(id) {
  if (polling.has(id)) return;
  polling.add(id);
  // A failed request (the server restarting, the network gone) is tried
  // again, waiting longer each time up to 30 s, and the page says so; the
  // first answer after it shows the document as it truly stands.
  let wait = 1000, lost = false;
  // retry says the connection is lost and waits the longer, or, when the
  // answer is final (the document gone, the key refused), says no.
  const retry = async (body) => {
    const gone = !body || ["network", "internal_error", "busy", "storage_full"].includes(body.code);
    if (!gone) return false;
    wait = Math.min(wait * 2, 30000);
    const words = `Connection lost, retrying in ${Math.round(wait / 1000)} s…`;
    const row = document.querySelector(`#docs tr[data-id="${id}"]`);
    const up = document.querySelector(`#uploads li[data-id="${id}"], #folder-uploads li[data-id="${id}"]`);
    if (row) row.querySelector("td.result").replaceChildren(el("span", { class: "badge lost", text: "⟳ " + words }));
    if (up) up.querySelector(".msg").textContent = words;
    if (!lost) say(`Connection to the server lost while converting. Retrying; the page shows the true state once it is back.`, true);
    lost = true;
    await new Promise((r) => setTimeout(r, wait - 1000));
    return true;
  };
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      if (!session) return;
      const { ok, body } = await call("status?file_id=" + encodeURIComponent(id));
      if (!ok) { if (await retry(body)) continue; return; }
      const row = document.querySelector(`#docs tr[data-id="${id}"]`);
      const up = document.querySelector(`#uploads li[data-id="${id}"], #folder-uploads li[data-id="${id}"]`);
      if (lost) { say("Connection back."); lost = false; }
      wait = 1000;
      if (body.status === "processing") {
        if (row) row.querySelector("td.result").replaceChildren(badge(body));
        if (up) upProgress(up, body.pages_done || 0, body.page_count, `Converting: ${body.pages_done || 0} of ${pages(body.page_count)} done`);
        continue;
      }
      const list = await call("documents?limit=200");
      const d = list.ok && list.body.documents.find((x) => x.file_id === id);
      if (d) putDoc(d);
      if (up) {
        const done = body.status === "completed";
        upProgress(up, done ? 1 : 0, 1, done ? `Converted: ${plural(body.transaction_count, "transaction")}.` : message({ code: body.error_code }, { name: up.dataset.name }));
        // A failed conversion shows no bar filled as if it were done.
        up.querySelector("progress").hidden = !done;
        up.querySelector(".msg").classList.toggle("error", !done);
        up.querySelector(".state").replaceChildren(d ? badge(d) : badge(body));
      }
      const name = d ? d.original_name : (up && up.dataset.name) || "The document";
      say(body.status === "completed" ? `“${name}” is converted: ${d ? badgeWords(d) : ""}.` : message({ code: body.error_code }, { name }), body.status !== "completed");
      loadUser();
      return;
    }
  } finally { polling.delete(id); }
}

export function badgeWords(d) {
  return { ok: "reconciled", mismatch: "the balances do not agree, review it", no_transactions: "no transactions found", unverified: "unverified, nothing printed to check it against" }[d.reconciliation] || "unverified";
}

// fileName is the name the server gives a download (Content-Disposition),
// else the document's name with ext.
export function fileName(r, d, ext) {
  const cd = r.headers.get("Content-Disposition") || "";
  const star = cd.match(/filename\*=utf-8''([^;]+)/i);
  if (star) { try { return decodeURIComponent(star[1]); } catch (e) { /* fall through */ } }
  const plain = cd.match(/filename="?([^";]+)"?/i);
  if (plain) return plain[1];
  return d.original_name.replace(/\.[^.]*$/, "") + "." + ext;
}

export async function download(d, format, profile) {
  let q = `download?file_id=${encodeURIComponent(d.file_id)}&format=${encodeURIComponent(format)}`;
  if (profile) q += `&profile=${encodeURIComponent(profile)}`;
  const { ok, body, r } = await call(q);
  if (!ok) { say(message(body, { name: d.original_name }), true); return; }
  await saveBlob(r, fileName(r, d, format));
  const what = profile ? `${format.toUpperCase()} (${profile})` : format.toUpperCase();
  say(`Downloading “${d.original_name}” as ${what}.`);
}

// saveBlob hands a download's body to the browser as a file called name.
export async function saveBlob(r, name) {
  const a = el("a", { download: name });
  a.href = URL.createObjectURL(await r.blob());
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// confirmDialog asks; Cancel has the focus, so Enter never deletes by
// accident. labels may name the buttons and drop the red of a deletion.
export function confirmDialog(text, labels = {}) {
  const dlg = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = labels.ok || "Delete";
  $("confirm-ok").className = labels.danger === false ? "primary" : "danger";
  $("confirm-cancel").textContent = labels.cancel || "Keep it";
  dlg.returnValue = "";
  dlg.showModal();
  $("confirm-cancel").focus();
  return new Promise((res) => dlg.addEventListener("close", () => res(dlg.returnValue === "ok"), { once: true }));
}

// retry converts a failed document again (its pages are charged again).
export async function retry(d) {
  const { ok, body } = await call("documents/" + encodeURIComponent(d.file_id) + "/retry", { method: "POST" });
  if (!ok) { say(message(body, { name: d.original_name, pages: d.page_count }), true); return; }
  Object.assign(d, { status: "processing", pages_done: 0, error: undefined, error_code: undefined, retryable: undefined });
  const row = document.querySelector(`#docs tr[data-id="${d.file_id}"]`);
  if (row) fillDocRow(row, d);
  pollDoc(d.file_id);
  say(`Converting “${d.original_name}” again.`);
}

export async function remove(d) {
  const yes = await confirmDialog(`Delete “${d.original_name}”? Its file, transactions and corrections are removed for good. Its pages stay counted against your quota.`);
  if (!yes) { say("Nothing was deleted."); return; }
  const { ok, body } = await call("documents/" + encodeURIComponent(d.file_id), { method: "DELETE" });
  if (!ok && body.code !== "not_found") { say(message(body, { name: d.original_name }), true); return; }
  docsAll.delete(d.file_id);
  selected.delete(d.file_id);
  renderDocs();
  document.querySelector(`#uploads li[data-id="${d.file_id}"]`)?.remove();
  document.querySelector(`#folder-uploads li[data-id="${d.file_id}"]`)?.remove();
  if (folder) refreshFolder();
  if (review && review.doc.file_id === d.file_id) closeReview();
  $("docs-empty").hidden = $("docs").children.length > 0;
  say(`Deleted “${d.original_name}”.`);
  $("refresh").focus();
}

// ---- upload ----
export const passwords = new Map(); // file_id -> password, for page images of protected PDFs, this visit only

export function upProgress(li, done, total, text) {
  const p = li.querySelector("progress");
  p.max = total || 1; p.value = done;
  li.querySelector(".msg").textContent = text;
}

// addUpload uploads a file, into the folder folderId when it is given.
// Uploads wait in a queue, a few at a time, so that a directory of a
// hundred statements does not meet the server's "busy".
export function addUpload(file, folderId) {
  const li = el("li", { "data-name": file.name },
    el("span", { class: "name", text: file.name }),
    el("span", { class: "state" }, el("span", { class: "badge processing", text: "Waiting" })),
    el("progress", { max: 1, value: 0, "aria-label": `Progress of ${file.name}` }),
    el("span", { class: "msg small" }));
  $(folderId ? "folder-uploads" : "uploads").prepend(li);
  if (folderId) folderUpload(1, folderId);
  queueUpload(() => send(li, file, "", folderId).finally(() => { if (folderId) folderUpload(-1, folderId); }));
}

export const uploadQueue = [];
export let uploadsActive = 0;
export function queueUpload(start) { uploadQueue.push(start); pumpUploads(); }
export function pumpUploads() {
  while (uploadsActive < 3 && uploadQueue.length) {
    uploadsActive++;
    uploadQueue.shift()().finally(() => { uploadsActive--; pumpUploads(); });
  }
}

// send uploads file and resolves when the server has answered; a "busy"
// answer is retried after the wait it names, a few times.
export function send(li, file, password, folderId, tries = 0) {
  return new Promise((resolve) => sendOnce(li, file, password, folderId, tries, resolve));
}

export function sendOnce(li, file, password, folderId, tries, resolve) {
  const form = new FormData();
  form.append("file", file, file.name);
  if (password) form.append("password", password);
  if (folderId) form.append("folder_id", folderId);
  // Bytes converted before are named, not converted and charged again,
  // unless the person asked for it (li.dataset.again).
  if (!li.dataset.again) form.append("if_new", "true");
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "api/v1/extract");
  for (const [k, v] of Object.entries(authHeaders("POST"))) xhr.setRequestHeader(k, v);
  xhr.upload.onprogress = (e) => { if (e.lengthComputable) upProgress(li, e.loaded, e.total, `Uploading: ${Math.round(100 * e.loaded / e.total)}%`); };
  xhr.onerror = () => { failUpload(li, file, { code: "network" }, "", folderId); resolve(); };
  xhr.onload = async () => {
    let body = {};
    try { body = JSON.parse(xhr.responseText); } catch { body = { code: "internal_error" }; }
    if (xhr.status === 503 && body.code === "busy" && tries < 5) {
      const wait = Number(xhr.getResponseHeader("Retry-After")) || 5;
      upProgress(li, 0, 1, `The server is busy; trying again in ${wait} s.`);
      setTimeout(() => sendOnce(li, file, password, folderId, tries + 1, resolve), wait * 1000);
      return;
    }
    if (xhr.status === 409 && body.code === "already_uploaded") { alreadyUploaded(li, file, body, password, folderId); resolve(); return; }
    if (xhr.status !== 200) { await failUpload(li, file, body, password, folderId); resolve(); return; }
    li.dataset.id = body.file_id;
    li.querySelector(".pw-form")?.remove();
    if (password) passwords.set(body.file_id, password);
    li.querySelector(".state").replaceChildren(badge({ status: "processing", page_count: body.page_count, pages_done: 0 }));
    upProgress(li, 0, body.page_count, `Accepted: ${pages(body.page_count)}. Converting…`);
    say(`“${file.name}” uploaded: ${pages(body.page_count)}.`);
    putDoc({ file_id: body.file_id, original_name: body.original_name, page_count: body.page_count, status: "processing", pages_done: 0, created_at: new Date().toISOString(),
      folders: folderId && folder && folder.id === folderId && folder.data ? [{ folder_id: folderId, name: folder.data.name }] : [] });
    loadUser();
    resolve();
  };
  li.querySelector(".state").replaceChildren(el("span", { class: "badge processing", text: "Uploading" }));
  xhr.send(form);
}

// alreadyUploaded says the same bytes were uploaded before and offers that
// document (to review, or to put in the folder) or to convert them again.
export function alreadyUploaded(li, file, body, password, folderId) {
  const when = body.created_at ? ` on ${localTime(body.created_at)}` : "";
  li.dataset.id = body.file_id;
  li.classList.add("repeat");
  li.querySelector(".state").replaceChildren(el("span", { class: "badge unverified", text: "Already uploaded" }));
  upProgress(li, 1, 1, `“${file.name}” was uploaded before${when}, as “${body.original_name}”. Nothing was charged.`);
  const existing = { file_id: body.file_id, original_name: body.original_name, status: body.status, page_count: 1 };
  const actions = el("div", { class: "actions repeat-actions" });
  if (folderId) {
    // Dropped into a folder, the document converted before joins it.
    addToFolder(body.file_id, folderId).then((added) => {
      if (!added) return;
      upProgress(li, 1, 1, `“${file.name}” was uploaded before${when}, as “${body.original_name}”: that document is now in this folder. Nothing was charged.`);
      if (folder && folder.id === folderId) { refreshFolder(); loadFolders(); }
    });
  } else if (body.status === "completed") {
    actions.append(el("button", { type: "button", class: "primary", text: "Open the existing one", onclick: async () => {
      const list = await call("documents?limit=200");
      const d = (list.ok && list.body.documents.find((x) => x.file_id === body.file_id)) || existing;
      openReview(d);
    } }));
  }
  actions.append(el("button", { type: "button", text: "Convert again anyway", onclick: () => {
    li.dataset.again = "1"; li.classList.remove("repeat"); actions.remove(); delete li.dataset.id;
    if (folderId) folderUpload(1, folderId);
    send(li, file, password, folderId).finally(() => { if (folderId) folderUpload(-1, folderId); });
  } }));
  li.append(actions);
  say(li.querySelector(".msg").textContent);
}

export async function failUpload(li, file, body, triedPassword, folderId) {
  if (body.code === "quota_exceeded") {
    await loadUser();
    const m = /has (\d+) page/.exec(body.error || "");
    body = { code: "quota_exceeded" };
    li.querySelector(".msg").textContent = quotaMessage(m ? Number(m[1]) : 0);
  } else {
    li.querySelector(".msg").textContent = message(body, { name: file.name });
  }
  li.querySelector(".msg").classList.add("error");
  li.querySelector(".state").replaceChildren(el("span", { class: "badge failed", text: body.code === "password_required" ? "Password needed" : "Not accepted" }));
  say(li.querySelector(".msg").textContent, true);
  if (body.code !== "password_required") return;
  if (triedPassword) li.querySelector(".msg").textContent = `That password did not open “${file.name}”. Try again.`;
  let form = li.querySelector(".pw-form");
  if (!form) {
    const id = "pw-" + Math.random().toString(36).slice(2);
    form = el("form", { class: "pw-form" },
      el("label", { for: id, text: "Password" }),
      el("input", { id, type: "password", autocomplete: "off" }),
      el("button", { type: "submit", class: "primary", text: "Open and convert" }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const pw = form.querySelector("input").value;
      if (!pw) { form.querySelector("input").focus(); return; }
      li.querySelector(".msg").classList.remove("error");
      send(li, file, pw, folderId).then(() => { if (folderId && folder && folder.id === folderId) refreshFolder(); });
    });
    li.append(form);
  }
  const input = form.querySelector("input");
  input.value = "";
  input.focus();
}

$("bulk-format").replaceChildren(...exportFormats.map(([v, t]) => el("option", { value: v, text: t })));
$("refresh").addEventListener("click", () => { loadDocuments(true); loadUser(); });
$("more").addEventListener("click", moreDocuments);
export let docsTimer = 0;
$("docs-q").addEventListener("input", () => { clearTimeout(docsTimer); docsTimer = setTimeout(() => loadDocuments(true), 250); });
for (const id of ["docs-status", "docs-folder", "docs-sort", "docs-from", "docs-to"]) {
  $(id).addEventListener("change", () => { clearTimeout(docsTimer); loadDocuments(true); });
}
$("docs-all").addEventListener("change", () => {
  for (const b of $("docs").querySelectorAll("input.pick")) {
    b.checked = $("docs-all").checked;
    const id = b.closest("tr").dataset.id;
    if (b.checked) selected.add(id); else selected.delete(id);
  }
  renderSelection();
});
$("bulk-zip").addEventListener("click", bulkZip);
$("bulk-put").addEventListener("click", bulkFolder);
$("bulk-delete").addEventListener("click", bulkDelete);
$("bulk-clear").addEventListener("click", () => { selected.clear(); renderDocs(); });
$("files").addEventListener("change", (e) => {
  const files = [...e.target.files];
  e.target.value = ""; // choosing the same file again must work
  files.forEach((f) => addUpload(f));
});

export const drop = $("drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); [...e.dataTransfer.files].forEach((f) => addUpload(f)); });
