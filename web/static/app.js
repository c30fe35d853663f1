// Passbook's page: sign in with e-mail and password, upload statements, see their
// history with a badge that says whether the balances prove the rows, review
// a document beside its pages and correct it. Every address is relative so
// that the page works under a base path; nothing is fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
};

// ---- words ----
const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;
const pages = (n) => plural(n, "page");
// One date style across the page: day-month-year, month-day-year or ISO,
// chosen under the account (kept in this browser), by default the one the
// browser's language writes; Intl does the formatting.
const dateStyles = { dmy: "en-GB", mdy: "en-US", iso: "en-CA" };
function localeDateStyle() {
  const parts = new Intl.DateTimeFormat(undefined).formatToParts(new Date(2024, 1, 8)).map((p) => p.type).filter((t) => t !== "literal");
  if (parts[0] === "year") return "iso";
  return parts[0] === "month" ? "mdy" : "dmy";
}
let dateStyle = localStorage.getItem("passbook_date_style") || localeDateStyle();
if (!dateStyles[dateStyle]) dateStyle = "mdy";
const dateFormat = (opts) => new Intl.DateTimeFormat(dateStyles[dateStyle], opts);
const localTime = (iso) => {
  const t = new Date(iso);
  if (dateStyle === "iso") return dateFormat({ year: "numeric", month: "2-digit", day: "2-digit" }).format(t) + " " + t.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  return dateFormat({ day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" }).format(t);
};
const localDate = (ymd) => {
  if (!ymd) return "—";
  const [y, m, d] = ymd.split("-").map(Number);
  if (dateStyle === "iso") return ymd;
  return dateFormat({ day: "numeric", month: "short", year: "numeric" }).format(new Date(y, m - 1, d));
};
// numericDate writes a row's date for editing, in the page's date style;
// parseDate reads it back (ISO is always understood).
const datePlaceholder = () => ({ dmy: "DD/MM/YYYY", mdy: "MM/DD/YYYY", iso: "YYYY-MM-DD" })[dateStyle];
function numericDate(ymd) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(ymd || "")) return ymd || "";
  const [y, m, d] = ymd.split("-");
  return dateStyle === "iso" ? ymd : dateStyle === "dmy" ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}
function parseDate(s) {
  s = s.trim();
  const two = (v) => String(v).padStart(2, "0");
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m) return `${m[1]}-${two(m[2])}-${two(m[3])}`;
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) return dateStyle === "mdy" ? `${m[3]}-${two(m[1])}-${two(m[2])}` : `${m[3]}-${two(m[2])}-${two(m[1])}`;
  return s;
}
const monthLabel = (y, m) => (dateStyle === "iso" ? `${y}-${String(m).padStart(2, "0")}` : dateFormat({ month: "short", year: "numeric" }).format(new Date(y, m - 1, 1)));

// figure writes an amount as accounts do: grouped, two decimals, a true
// minus sign, and the currency when it is known. The amount is a decimal
// string; it is grouped as text, so no digit is lost to floating point.
const groupFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const groupParts = groupFormat.formatToParts(1234.5);
const groupSep = (groupParts.find((p) => p.type === "group") || { value: "," }).value;
const decimalSep = (groupParts.find((p) => p.type === "decimal") || { value: "." }).value;
function figure(s, cur) {
  if (s === null || s === undefined || s === "") return "not found";
  s = String(s);
  const neg = s.startsWith("-");
  let [i, f = ""] = s.replace(/^[-+]/, "").split(".");
  f = (f + "00").slice(0, Math.max(2, f.replace(/0+$/, "").length));
  i = i.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, groupSep);
  return (neg ? "−" : "") + i + decimalSep + f + (cur ? " " + cur : "");
}
const period = (p) => (p === "day" ? "today" : "this " + p);

// say tells everyone something, screen readers included. News fades after
// a while so as not to cover the page; errors stay until the next message.
let sayTimer = 0;
function say(msg, isError = false) {
  const s = $("status");
  s.textContent = msg;
  s.classList.toggle("error", isError);
  clearTimeout(sayTimer);
  if (!isError) sayTimer = setTimeout(() => { if (s.textContent === msg) s.textContent = ""; }, 12000);
}

// messages turns an API error body into plain words. ctx carries what the
// page knows (the file's name and pages).
function message(body, ctx = {}) {
  const code = body && body.code;
  const f = ctx.name ? `“${ctx.name}”` : "The file";
  switch (code) {
    case "missing_api_key": case "session_expired": return "You are signed out. Sign in again.";
    case "invalid_api_key": return "That API key is not valid, or it has been revoked. Check it with your administrator.";
    case "invalid_credentials": return "The e-mail address or the password is wrong.";
    case "csrf_failed": return "The request was refused as not coming from this page. Reload the page and try again.";
    case "too_many_failures": return "Too many failed sign-ins. Wait a few minutes, then try again.";
    case "weak_password": return "Choose a password of at least 10 characters.";
    case "invite_expired": return "This invitation has expired or was used already. Ask an owner of your office for a new one.";
    case "missing_file": case "empty_file": return `${f} is empty. Check the file and choose it again.`;
    case "too_many_files": return "Upload one file at a time.";
    case "unsupported_type": return `${f} is not a PDF or a picture Passbook can read. Use a PDF, PNG, JPEG, TIFF or WebP file.`;
    case "password_required": return `${f} is protected by a password. Enter it to convert the file.`;
    case "unreadable_file": return `${f} could not be read: it may be damaged. Open it on your computer, save or scan it again, and upload the new file.`;
    case "too_large": case "too_many_pages": return `${f} is too large to convert. Split it into smaller files.`;
    case "file_too_large": return `${f} is larger than this server accepts. Split it or scan it at a lower resolution.`;
    case "quota_exceeded": return quotaMessage(ctx.pages);
    case "not_ready": return "The document is still being converted. Try again in a moment.";
    case "document_failed": return `${f} could not be converted. Its pages were not charged.`;
    case "not_found": return "That document no longer exists. It may have been deleted.";
    case "forbidden": return (body && body.error) || "Your role in the office does not allow this.";
    case "invalid_transactions": return "The corrections could not be saved: " + (body.error || "a row is not valid.");
    case "storage_full": return "The server's disk is full. Tell your administrator; nothing was lost.";
    case "busy": return "The server is busy. Try again in a minute.";
    case "conversion_limit": return `${f} took too long or needed too much memory to convert. Split it into smaller files.`;
    case "converter_crashed": return `${f} stopped the converter: it may be damaged. Save or scan it again and upload the new file.`;
    case "interrupted": return `The conversion of ${f} was interrupted too often. Upload it again.`;
    case "conversion_failed": return `${f} could not be converted. Its pages were not charged.`;
    case "no_such_page": return "That page does not exist in the document.";
    case "internal_error": return "Something went wrong on the server. Try again; if it keeps happening, tell your administrator.";
    case "network": return "The server could not be reached. Check the connection and try again.";
  }
  return (body && body.error) || "Something went wrong. Try again.";
}

// ---- session and API ----
// The page signs in with e-mail and password. The server keeps the session
// behind an HttpOnly cookie that this script cannot read; the page holds
// only the session's CSRF token, in memory, and stores nothing. Every
// request goes through api() (uploads, through authHeaders()), which sends
// the token with every method that changes something.
let session = null; // {email, role, member_id, office: {id, name, plan}, csrf_token}
let user = null;

function authHeaders(method) {
  const m = (method || "GET").toUpperCase();
  return session && m !== "GET" && m !== "HEAD" ? { "X-CSRF-Token": session.csrf_token } : {};
}

function api(path, opts = {}) {
  opts.headers = Object.assign(authHeaders(opts.method), opts.headers || {});
  opts.credentials = "same-origin";
  return fetch("api/v1/" + path, opts);
}

// postJSON sends a JSON body with a method that changes something.
function postJSON(path, method, value) {
  return call(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });
}

// call does an API request and returns {ok, status, body}; a network
// failure is {ok:false, body:{code:"network"}}.
async function call(path, opts) {
  let r;
  try { r = await api(path, opts); } catch { return { ok: false, status: 0, body: { code: "network" } }; }
  let body = null;
  if ((r.headers.get("Content-Type") || "").startsWith("application/json")) body = await r.json();
  if (r.status === 401 && session) { signedOut(); say(message(body), true); }
  return { ok: r.ok, status: r.status, body, r };
}

function quotaMessage(need) {
  if (!user) return "Your page quota is used up.";
  const q = user.quota;
  const left = q.remaining + user.credits;
  const want = need ? `This file has ${pages(need)}, but ` : "";
  const have = left > 0 ? `only ${pages(left)} ${left === 1 ? "is" : "are"} left` : "no pages are left";
  return `${want}${have} ${period(q.period)}. Your quota resets ${localTime(q.resets_at)}. An administrator can add credits or change your plan.`;
}

async function loadUser() {
  const { ok, body } = await call("user");
  if (!ok) return false;
  user = body;
  const q = body.quota;
  $("acct-email").textContent = body.email;
  $("acct-office").textContent = session ? session.office.name : "";
  $("acct-plan").textContent = body.plan.charAt(0).toUpperCase() + body.plan.slice(1);
  const m = $("quota-meter");
  if (body.plan === "admin") {
    // The admin plan's limit is the largest integer, standing for none.
    $("quota-label").textContent = `Pages used ${period(q.period)}: ${q.used} · no page limit`;
    m.hidden = true;
    $("quota-text").textContent = "The admin plan has no page limit.";
    return true;
  }
  m.hidden = false;
  $("quota-label").textContent = `Pages used ${period(q.period)}: ${q.used} of ${q.limit}`;
  m.max = q.limit; m.value = q.used; m.low = q.limit * 0.8; m.high = q.limit * 0.95; m.optimum = 0;
  $("quota-text").textContent = `${pages(q.remaining)} left · resets ${localTime(q.resets_at)} · ${plural(body.credits, "credit")} (extra pages, used once the quota runs out)`;
  return true;
}

async function signIn(email, password) {
  const { ok, body } = await postJSON("signin", "POST", { email, password });
  $("password").value = "";
  if (!ok) {
    $("signin-error").textContent = message(body);
    $("password").setAttribute("aria-invalid", "true");
    $("password").focus();
    return;
  }
  $("signin-error").textContent = "";
  $("password").removeAttribute("aria-invalid");
  await enter(body);
}

// enter shows the office to a member whose session is body.
async function enter(body) {
  session = body;
  $("signin").hidden = true;
  $("invite").hidden = true;
  $("app").hidden = false;
  document.body.dataset.role = session.role;
  $("upload").hidden = session.role === "read_only";
  await loadUser();
  say(`Signed in as ${session.email} (${session.role.replace("_", "-")}) at ${session.office.name}.`);
  document.dispatchEvent(new CustomEvent("passbook:signedin", { detail: session }));
  loadDocuments(true);
  loadFolders();
}

async function signOut(everywhere) {
  await postJSON("signout", "POST", { everywhere: !!everywhere });
  signedOut();
}

// signedOut clears the page once the session is over.
function signedOut() {
  session = null; user = null;
  delete document.body.dataset.role;
  $("app").hidden = true;
  $("signin").hidden = false;
  $("uploads").replaceChildren();
  $("docs").replaceChildren();
  $("folder-list").replaceChildren();
  closeFolder();
  closeReview();
  document.dispatchEvent(new CustomEvent("passbook:signedout"));
  $("email").focus();
}

// ---- badges ----
function badge(doc) {
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
const docsAll = new Map(); // file_id -> document, as the list gives it, in its order
const selected = new Set(); // file_ids ticked in the list
let docsNext = null; // the before of the next page, null on the last
let docsSeq = 0; // the newest list request; older answers are dropped
const polling = new Set();

// periodInput reads a period filter typed in the date style: YYYY-MM-DD,
// "" when empty, null when it is not a date.
function periodInput(id) {
  const inp = $(id), v = inp.value.trim();
  if (!v) { inp.removeAttribute("aria-invalid"); return ""; }
  const d = parseDate(v);
  if (!validDate(d)) { inp.setAttribute("aria-invalid", "true"); return null; }
  inp.removeAttribute("aria-invalid");
  return d;
}

// docsQuery is the list's search, filters and order as query parameters.
function docsQuery() {
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
const docsFiltered = () => [...docsQuery().keys()].some((k) => k !== "sort");

// loadDocuments reads the list anew: the first page, or (keep) as many
// documents as are shown now.
async function loadDocuments(reset) {
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
async function moreDocuments() {
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
function putDoc(d) {
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

const resultKey = (d) => (d.status === "completed" ? d.reconciliation || "unverified" : d.status);

function renderDocs() {
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

function fillFolderChoices(folders) {
  const fo = $("docs-folder"), was = fo.value;
  fo.replaceChildren(el("option", { value: "", text: "any folder" }), el("option", { value: "-", text: "in no folder" }),
    ...folders.map((f) => el("option", { value: f.folder_id, text: f.name })));
  if ([...fo.options].some((o) => o.value === was)) fo.value = was;
  const bf = $("bulk-folder"), bwas = bf.value;
  bf.replaceChildren(el("option", { value: "", text: folders.length ? "Choose a folder…" : "No folders yet" }),
    ...folders.map((f) => el("option", { value: f.folder_id, text: f.name })));
  if ([...bf.options].some((o) => o.value === bwas)) bf.value = bwas;
}

function renderSelection() {
  const n = selected.size;
  $("bulk").hidden = n === 0;
  $("bulk-count").textContent = `${plural(n, "document")} selected`;
  const boxes = [...$("docs").querySelectorAll("input.pick")];
  const all = $("docs-all");
  all.checked = boxes.length > 0 && boxes.every((b) => b.checked);
  all.indeterminate = !all.checked && boxes.some((b) => b.checked);
}

function docRow(d) {
  const tr = el("tr", { "data-id": d.file_id });
  fillDocRow(tr, d);
  if (d.status === "processing") pollDoc(d.file_id);
  return tr;
}

function fillDocRow(tr, d) {
  const result = el("td", { class: "result", "data-label": "Result" }, badge(d));
  if (d.edited) result.append(el("span", { class: "edited", text: "edited" }));
  if (d.status === "completed") result.append(el("div", { class: "small muted", text: plural(d.transaction_count, "transaction") }));
  if (d.status === "failed") result.append(el("div", { class: "small error", text: message({ code: d.error_code }, { name: d.original_name }) }));
  const actions = el("div", { class: "actions" });
  if (d.status === "completed") {
    actions.append(el("button", { type: "button", text: "Review", "aria-label": `Review ${d.original_name}`, onclick: () => openReview(d) }));
    for (const f of ["csv", "xlsx", "json"]) {
      actions.append(el("button", { type: "button", text: f.toUpperCase(), "aria-label": `Download ${d.original_name} as ${f.toUpperCase()}`, onclick: () => download(d, f) }));
    }
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

async function bulkZip() {
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

async function bulkFolder() {
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

async function bulkDelete() {
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

async function pollDoc(id) {
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

function badgeWords(d) {
  return { ok: "reconciled", mismatch: "the balances do not agree, review it", no_transactions: "no transactions found", unverified: "unverified, nothing printed to check it against" }[d.reconciliation] || "unverified";
}

// fileName is the name the server gives a download (Content-Disposition),
// else the document's name with ext.
function fileName(r, d, ext) {
  const cd = r.headers.get("Content-Disposition") || "";
  const star = cd.match(/filename\*=utf-8''([^;]+)/i);
  if (star) { try { return decodeURIComponent(star[1]); } catch (e) { /* fall through */ } }
  const plain = cd.match(/filename="?([^";]+)"?/i);
  if (plain) return plain[1];
  return d.original_name.replace(/\.[^.]*$/, "") + "." + ext;
}

async function download(d, format, profile) {
  let q = `download?file_id=${encodeURIComponent(d.file_id)}&format=${encodeURIComponent(format)}`;
  if (profile) q += `&profile=${encodeURIComponent(profile)}`;
  const { ok, body, r } = await call(q);
  if (!ok) { say(message(body, { name: d.original_name }), true); return; }
  await saveBlob(r, fileName(r, d, format));
  const what = profile ? `${format.toUpperCase()} (${profile})` : format.toUpperCase();
  say(`Downloading “${d.original_name}” as ${what}.`);
}

// saveBlob hands a download's body to the browser as a file called name.
async function saveBlob(r, name) {
  const a = el("a", { download: name });
  a.href = URL.createObjectURL(await r.blob());
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// confirmDialog asks; Cancel has the focus, so Enter never deletes by
// accident. labels may name the buttons and drop the red of a deletion.
function confirmDialog(text, labels = {}) {
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

async function remove(d) {
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
const passwords = new Map(); // file_id -> password, for page images of protected PDFs, this visit only

function upProgress(li, done, total, text) {
  const p = li.querySelector("progress");
  p.max = total || 1; p.value = done;
  li.querySelector(".msg").textContent = text;
}

// addUpload uploads a file, into the folder folderId when it is given.
// Uploads wait in a queue, a few at a time, so that a directory of a
// hundred statements does not meet the server's "busy".
function addUpload(file, folderId) {
  const li = el("li", { "data-name": file.name },
    el("span", { class: "name", text: file.name }),
    el("span", { class: "state" }, el("span", { class: "badge processing", text: "Waiting" })),
    el("progress", { max: 1, value: 0, "aria-label": `Progress of ${file.name}` }),
    el("span", { class: "msg small" }));
  $(folderId ? "folder-uploads" : "uploads").prepend(li);
  if (folderId) folderUploads++;
  queueUpload(() => send(li, file, "", folderId).finally(() => {
    if (!folderId) return;
    folderUploads--;
    if (folder && folder.id === folderId) refreshFolder();
  }));
}

const uploadQueue = [];
let uploadsActive = 0;
function queueUpload(start) { uploadQueue.push(start); pumpUploads(); }
function pumpUploads() {
  while (uploadsActive < 3 && uploadQueue.length) {
    uploadsActive++;
    uploadQueue.shift()().finally(() => { uploadsActive--; pumpUploads(); });
  }
}

// send uploads file and resolves when the server has answered; a "busy"
// answer is retried after the wait it names, a few times.
function send(li, file, password, folderId, tries = 0) {
  return new Promise((resolve) => sendOnce(li, file, password, folderId, tries, resolve));
}

function sendOnce(li, file, password, folderId, tries, resolve) {
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
function alreadyUploaded(li, file, body, password, folderId) {
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
    if (folderId) folderUploads++;
    send(li, file, password, folderId).finally(() => { if (folderId) { folderUploads--; if (folder && folder.id === folderId) refreshFolder(); } });
  } }));
  li.append(actions);
  say(li.querySelector(".msg").textContent);
}

async function failUpload(li, file, body, triedPassword, folderId) {
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

// ---- review ----
let review = null; // {doc, stmt, txs, saved, edited, sel, pageSize}

const UNIT = 10000n; // amounts are held in ten-thousandths
const moneyRe = /^-?\d{1,15}(\.\d{1,4})?$/;
function units(s) {
  const neg = s.startsWith("-");
  const [i, f = ""] = s.replace("-", "").split(".");
  const v = BigInt(i) * UNIT + BigInt((f + "0000").slice(0, 4));
  return neg ? -v : v;
}
function money(v) {
  const neg = v < 0n; if (neg) v = -v;
  const i = v / UNIT, f = (v % UNIT).toString().padStart(4, "0");
  const frac = f.endsWith("00") ? f.slice(0, 2) : f;
  return (neg ? "-" : "") + i.toString() + "." + frac;
}
// A row's provenance (which of its values the statement prints and which
// the conversion inferred) and its warnings' kinds are fields of the
// download: nothing here reads a warning's words.
// isLowConf reports a row whose words recognition read with low
// confidence: a person checks these first.
const isLowConf = (t) => !!(t.provenance && t.provenance.low_confidence);
const isComputed = (t) => !!(t.provenance && (t.provenance.balance_computed || t.provenance.balance_from_zero));
const isEntered = (t) => !!(t.provenance && t.provenance.balance_entered);
const computedKinds = new Set(["balance_computed", "balance_from_zero"]);
const validDate = (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !isNaN(Date.parse(s + "T00:00:00Z")) && new Date(s + "T00:00:00Z").toISOString().startsWith(s);

// problems lists what is wrong with row t, by field.
function problems(t) {
  const p = {};
  if (!validDate(t.date)) p.date = t.date ? `“${numericDate(t.date)}” is not a date: write it as ${datePlaceholder()}.` : "Enter a date.";
  const hasIn = t.amountIn !== null && t.amountIn !== "", hasOut = t.amountOut !== null && t.amountOut !== "";
  if (hasIn === hasOut) { p.amountIn = p.amountOut = "Fill in exactly one of money in and money out."; }
  const notMoney = (v) => `“${v}” is not an amount: write it as the statement prints it, like 1,240.00 or 1.240,00.`;
  if (hasIn && !moneyRe.test(t.amountIn)) p.amountIn = notMoney(t.amountIn);
  else if (hasIn && t.amountIn.startsWith("-")) p.amountIn = "Money in is written without a minus: money that went out goes under money out.";
  if (hasOut && !moneyRe.test(t.amountOut)) p.amountOut = notMoney(t.amountOut);
  else if (hasOut && t.amountOut.startsWith("-")) p.amountOut = "Money out is written without a minus: money that came in goes under money in.";
  if (!moneyRe.test(t.balance || "")) p.balance = t.balance ? `“${t.balance}” is not a balance: write it like 1,250.00 or −3.20 (1.250,00 also works).` : "Enter the balance after this row.";
  return p;
}

// verdict is the server's reconciliation as the review holds it: the
// status and its reasons, the rows where the chain breaks and the first
// difference (in ten-thousandths). The page never judges the balances
// itself: what a conversion stored, or what the server's one status
// function says of a correction (POST transactions/check), is shown.
function verdict(r) {
  r = r || {};
  return { status: r.status || "unverified", message: r.message || "", rows: r.rows || [], diff: r.difference ? units(r.difference) : null };
}

function reconWords(rec, txs) {
  const why = rec.message ? ` (${rec.message})` : "";
  switch (rec.status) {
    case "ok": return `✓ Reconciled: ${rec.message || "the opening balance plus money in minus money out meets every printed balance"}.`;
    case "unverified": return `⚠ Unverified: ${rec.message || "nothing printed on the statement proves these rows"}. Compare them with the paper statement.`;
    case "no_transactions": return "∅ No transactions were found in this document.";
    case "invalid": return "Some cells need fixing (marked in red) before the balances can be checked.";
    case "checking": return "Checking the balances…";
  }
  const i = rec.rows[0], t = txs[i];
  if (!t) return `✗ Mismatch${why}.`;
  const more = rec.rows.length > 1 ? ` It breaks at ${plural(rec.rows.length, "row")} in all.` : "";
  const off = rec.diff !== null && rec.diff !== undefined ? money(rec.diff < 0n ? -rec.diff : rec.diff) : "";
  return `✗ Mismatch: the running balance breaks at row ${i + 1} (${localDate(t.date)}, “${t.description}”): the balance there is ${off} ${rec.diff < 0n ? "less" : "more"} than the row before plus this row's amount.${more} Check the amounts of that row and the one above it.`;
}

// checkSoon asks the server to judge the rows as they stand, a moment
// after the last keystroke; an answer to an older question is dropped.
let checkTimer = 0, checkSeq = 0;
function checkSoon() {
  clearTimeout(checkTimer);
  if (!review) return;
  const seq = ++checkSeq;
  review.checking = true;
  checkTimer = setTimeout(async () => {
    if (!review) return;
    const id = review.doc.file_id;
    const req = editRequest();
    const { ok, body } = await postJSON(`documents/${encodeURIComponent(id)}/transactions/check`, "POST", req);
    if (!review || review.doc.file_id !== id || seq !== checkSeq) return;
    review.checking = false;
    if (!ok) {
      // Cells the server refuses are marked by the page's own checks;
      // anything else is said.
      if (!(body && (body.code === "invalid_transactions" || body.code === "invalid_statement"))) say(message(body, { name: review.doc.original_name }), true);
      review.rec = { status: "invalid", rows: [], message: body && body.error };
    } else {
      review.rec = verdict(body.reconciliation);
      body.balances.forEach((b, i) => { if (review.txs[i] && isComputed(review.txs[i])) review.txs[i].balance = b; });
    }
    refreshReview();
  }, 250);
}

async function openReview(d) {
  const { ok, body } = await call(`documents/${encodeURIComponent(d.file_id)}`);
  if (!ok) { say(message(body, { name: d.original_name }), true); return; }
  review = { doc: d, zoom: 1, stmt: body.statement, rec: verdict(body.statement.reconciliation), read: JSON.parse(JSON.stringify(body.statement)), head: {}, headAcc: {}, acct: 0,
    txs: body.transactions, saved: JSON.stringify(body.transactions), edited: !!body.statement.edited, sel: -1, pageSize: {} };
  review.rowAcct = new WeakMap(review.txs.map((t) => [t, (review.stmt.accounts || []).findIndex((a) => a.account_number === t.account)]));
  fillAccountChoice();
  fillHeaderForm();
  $("review").hidden = false;
  $("review-h").textContent = "Review: " + d.original_name;
  document.dispatchEvent(new CustomEvent("passbook:review", { detail: d }));
  $("review-downloads").replaceChildren(...["csv", "xlsx", "json"].map((f) =>
    el("button", { type: "button", text: f.toUpperCase(), "aria-label": `Download as ${f.toUpperCase()}`, onclick: () => download(review.doc, f) })));
  renderTable();
  refreshReview();
  setZoom(1);
  renderPages();
  $("review").scrollIntoView({ block: "start" });
  $("review-h").focus();
  say(`Reviewing “${d.original_name}”: ${plural(review.txs.length, "transaction")}.`);
}

function closeReview() {
  if (!review) return;
  $("header-form").hidden = true;
  $("header-edit").setAttribute("aria-expanded", "false");
  for (const img of $("pages").querySelectorAll("img")) URL.revokeObjectURL(img.src);
  review = null;
  $("review").hidden = true;
  $("pages").replaceChildren();
  $("tx").replaceChildren();
}

function summary(rec) {
  const st = review.stmt;
  let tin = 0n, tout = 0n;
  for (const t of review.txs) {
    if (t.amountIn && moneyRe.test(t.amountIn)) tin += units(t.amountIn);
    if (t.amountOut && moneyRe.test(t.amountOut)) tout += units(t.amountOut);
  }
  const cur = st.currency || "";
  // What the converter did not find on the statement is said so: it may be
  // printed where it could not read it.
  const item = (k, v) => el("div", {}, el("dt", { text: k }), el("dd", { class: v === "not found" ? "notfound" : null, text: v }));
  $("summary").replaceChildren(
    item(st.accounts && st.accounts.length ? "Accounts" : "Account", (st.accounts && st.accounts.length ? st.accounts.map((a) => a.account_number).filter(Boolean).join(", ") : st.account_number) || "not found"),
    item("Bank", st.bank || "not found"),
    item("Holder", st.holder || "not found"),
    item("Period", st.period_start ? `${localDate(st.period_start)} – ${localDate(st.period_end)}` : "not found"),
    item("Currency", st.currency || "not found"),
    item("Opening balance", figure(st.opening_balance, cur)),
    item("Closing balance", figure(st.closing_balance, cur)),
    item("Money in", figure(money(tin), cur)),
    item("Money out", figure(money(tout), cur)),
    item("Transactions", String(review.txs.length)),
  );
}

// refreshReview rechecks the chain and shows the result, the marks on rows
// and boxes, and whether there is anything to save.
function refreshReview() {
  const invalid = review.txs.some((t) => Object.keys(problems(t)).length) || headerProblems();
  const rec = invalid ? { status: "invalid", rows: [] } : review.checking ? Object.assign({}, review.rec, { status: "checking", rows: [] }) : review.rec;
  const box = $("recon");
  box.className = "recon " + (rec.status === "invalid" ? "mismatch" : rec.status);
  box.setAttribute("aria-busy", String(rec.status === "checking"));
  box.replaceChildren(reconWords(rec, review.txs));
  if (rec.status === "mismatch") {
    box.append(el("button", { type: "button", text: `Go to row ${rec.rows[0] + 1}`, onclick: () => select(rec.rows[0], true) }));
  }
  const low = review.txs.map((t, i) => (isLowConf(t) ? i : -1)).filter((i) => i >= 0);
  if (low.length) {
    box.append(el("p", { class: "lowconf-note", text: `${plural(low.length, "row")} read with low confidence: check ${low.length === 1 ? "it" : "them"} first (marked ?).` }),
      el("button", { type: "button", text: `Go to row ${low[0] + 1}`, onclick: () => select(low[0], true) }));
  }
  summary(rec);
  const rows = $("tx").rows;
  for (let i = 0; i < rows.length; i++) {
    const t = review.txs[i];
    rows[i].classList.toggle("break", rec.rows.includes(i));
    const bal = rows[i].querySelector('input[data-field="balance"]');
    if (isComputed(t) && bal && document.activeElement !== bal) bal.value = t.balance;
  }
  for (const b of $("pages").querySelectorAll(".box")) b.classList.toggle("break", rec.rows.includes(Number(b.dataset.row)));
  const headBad = headerProblems();
  const dirty = JSON.stringify(review.txs) !== review.saved || headDirty();
  $("save").disabled = !dirty || rec.status === "invalid" || headBad;
  $("undo").hidden = !review.edited;
  $("edit-state").textContent = dirty ? "Unsaved changes." : review.edited ? "Showing your corrections; downloads carry them." : "";
}

function renderTable() {
  const body = $("tx");
  body.replaceChildren();
  review.txs.forEach((t, i) => body.append(txRow(t, i)));
  body.querySelectorAll("textarea").forEach(fitText);
}

// fitText makes a description's box as tall as its text, where the
// browser cannot do it by itself (CSS field-sizing).
const sizesItself = window.CSS && CSS.supports && CSS.supports("field-sizing", "content");
function fitText(ta) {
  if (sizesItself) return;
  ta.style.height = "auto";
  ta.style.height = ta.scrollHeight + 2 + "px";
}

// A balance computed from the rows (the statement printed none on that row)
// is information, not a warning, when the printed balances around it
// confirm the chain: only rows that need a person's eye are marked.
function rowNotes(t) {
  const all = t.warning_details || (t.warnings || []).map((message) => ({ kind: "note", message }));
  const confirmed = review && review.stmt.reconciliation && review.stmt.reconciliation.status === "ok";
  const info = confirmed ? all.filter((w) => computedKinds.has(w.kind)) : [];
  return { info: info.map((w) => w.message), marks: all.filter((w) => !info.includes(w)).map((w) => w.message) };
}

function txRow(t, i) {
  const n = i + 1;
  const { info, marks } = rowNotes(t);
  const warned = marks.length > 0;
  const idx = el("td", { class: "idx", title: "Show on the page", onclick: () => select(i, true) }, String(n));
  if (warned) idx.append(el("span", { class: "warn", "aria-label": "needs checking", title: marks.join("; "), text: "⚠" }));
  if (info.length) idx.append(el("span", { class: "info", "aria-label": "balance computed, confirmed by the printed balances", title: info.join("; ") + " (confirmed by the printed balances)", text: "i" }));
  if (isLowConf(t)) idx.append(el("span", { class: "lowconf", "aria-label": "read with low confidence: check first", title: "Read with low confidence: check this row first", text: "?" }));
  const input = (field, label, cls, type) => {
    const v = t[field] == null ? "" : t[field];
    // A description wraps over as many lines as it needs, never cut off.
    const inp = type === "textarea"
      ? el("textarea", { rows: 1, "data-field": field, "aria-label": `Row ${n} ${label}`, spellcheck: "false" })
      : el("input", { type: "text", value: field === "date" ? numericDate(v) : v, "data-field": field, "aria-label": `Row ${n} ${label}${field === "date" ? " (" + datePlaceholder() + ")" : ""}`,
        inputmode: cls === "num" ? "decimal" : null, placeholder: field === "date" ? datePlaceholder() : null, autocomplete: "off" });
    if (type === "textarea") inp.value = v;
    // A read-only member reads the rows; the fields say so.
    if (readOnly()) inp.readOnly = true;
    inp.addEventListener("focus", () => select(i, false));
    inp.addEventListener("input", () => { edit(i, field, field === "date" ? parseDate(inp.value) : inp.value); if (type === "textarea") fitText(inp); });
    return el("td", { class: cls || "", "data-label": label.charAt(0).toUpperCase() + label.slice(1) }, inp);
  };
  const desc = input("description", "description", "desc", "textarea");
  if (warned) desc.append(el("div", { class: "notes", text: "⚠ " + marks.join("; ") }));
  const tr = el("tr", { "data-row": i, class: (warned ? "warned" : "") + (isLowConf(t) ? " lowconf" : "") },
    idx, input("date", "date", "date", "date"), desc,
    input("amountIn", "money in", "num"), input("amountOut", "money out", "num"), input("balance", "balance", "num"),
    el("td", {}, readOnly() ? null : el("button", { type: "button", class: "del", text: "✕", "aria-label": `Delete row ${n}`, onclick: () => deleteRow(i) })));
  markProblems(tr, t);
  return tr;
}

// markProblems marks the cells of row t that cannot be taken, with the
// reason written under each (and read with it by a screen reader).
function markProblems(tr, t) {
  const p = problems(t);
  for (const inp of tr.querySelectorAll("[data-field]")) {
    const msg = p[inp.dataset.field];
    const id = `why-${tr.dataset.row}-${inp.dataset.field}`;
    let why = inp.parentElement.querySelector(".why");
    if (msg) {
      inp.setAttribute("aria-invalid", "true");
      inp.title = msg;
      if (!why) { why = el("span", { class: "why", id }); inp.after(why); }
      why.textContent = msg;
      inp.setAttribute("aria-describedby", id);
    } else {
      inp.removeAttribute("aria-invalid");
      inp.removeAttribute("title");
      inp.removeAttribute("aria-describedby");
      why?.remove();
    }
  }
}

// readOnly says the member may read the office's work but not change it.
const readOnly = () => !!session && session.role === "read_only";

// amountAsPrinted reads an amount as a statement prints it, with either
// mark for decimals and any grouping: "1.240,00", "1,240.00", "1 240,00",
// "1'240.00", "1240". A mark followed by one or two digits at the end is
// the decimal mark; the others group thousands. It returns the amount as
// the API takes it ("1240.00"), or the text unchanged when it is no amount.
function amountAsPrinted(s) {
  const t = s.trim().replace(/[\s\u00a0\u202f']/g, "");
  const m = /^(-?)([\d.,]*\d)$/.exec(t);
  if (!m) return s.trim();
  let body = m[2];
  const dec = /[.,](\d{1,2})$/.exec(body);
  let frac = "";
  if (dec) { frac = dec[1]; body = body.slice(0, -dec[0].length); }
  // What is left groups thousands: one mark, in threes.
  if (/[.,]/.test(body)) {
    const marks = new Set(body.replace(/\d/g, ""));
    if (marks.size > 1 || !/^\d{1,3}([.,]\d{3})+$/.test(body) || (dec && marks.has(t[t.length - dec[0].length]))) return s.trim();
    body = body.replace(/[.,]/g, "");
  }
  return m[1] + body + "." + (frac + "00").slice(0, 2);
}

function edit(i, field, value) {
  const t = review.txs[i];
  value = value.trim();
  if (field === "amountIn" || field === "amountOut") {
    t[field] = value === "" ? null : amountAsPrinted(value);
    if (t.amountIn && !t.amountOut) t.type = "CREDIT";
    if (t.amountOut && !t.amountIn) t.type = "DEBIT";
  } else t[field] = field === "balance" ? amountAsPrinted(value) : value;
  if (field === "balance" || field === "amountIn" || field === "amountOut") {
    // A balance typed over a computed one is the person's now: checked,
    // proving nothing. The server decides this again from what it stored.
    if (field === "balance" && isComputed(t)) {
      t.provenance = Object.assign({}, t.provenance, { balance_computed: false, balance_from_zero: false, balance_entered: true });
      t.warning_details = (t.warning_details || []).filter((w) => !computedKinds.has(w.kind));
      t.warnings = t.warning_details.map((w) => w.message);
    }
  }
  markProblems($("tx").rows[i], t);
  checkSoon();
  refreshReview();
}

function addRow() {
  const at = review.sel >= 0 ? review.sel + 1 : review.txs.length;
  const prev = review.txs[at - 1];
  const t = { date: prev ? prev.date : (review.stmt.period_start || ""), type: "DEBIT", description: "", amountIn: null, amountOut: "", balance: prev ? prev.balance : (review.stmt.opening_balance || "0.00") };
  if (prev && prev.account) { t.account = prev.account; review.rowAcct.set(t, review.rowAcct.get(prev)); }
  review.txs.splice(at, 0, t);
  renderTable();
  renderBoxes();
  checkSoon();
  refreshReview();
  select(at, false);
  $("tx").rows[at].querySelector('[data-field="description"]').focus();
  say(`Row ${at + 1} added. Fill in its date, description, amount and balance.`);
}

function deleteRow(i) {
  const t = review.txs[i];
  review.txs.splice(i, 1);
  review.sel = -1;
  renderTable();
  renderBoxes();
  checkSoon();
  refreshReview();
  say(`Row ${i + 1} (“${t.description}”) deleted. Save to keep the change.`);
  const rows = $("tx").rows;
  (rows[Math.min(i, rows.length - 1)]?.querySelector("input") || $("add-row")).focus();
}

// headFields are the statement's details a person may correct.
const headFields = ["account_number", "currency", "period_start", "period_end", "opening_balance", "closing_balance"];

// The bank and the holder are the document's; the other details are an
// account's: on a document of several accounts, the one chosen in
// head-account (its corrections are kept per account in headAcc).
const docFields = ["bank", "holder"];
const manyAccounts = () => !!(review.stmt.accounts && review.stmt.accounts.length);

// headSource is where a detail lives in a statement: the statement, or the
// account chosen.
function headSource(st, f) {
  return manyAccounts() && !docFields.includes(f) ? st.accounts[review.acct] : st;
}
function headCorrections(f) {
  if (!manyAccounts() || docFields.includes(f)) return review.head;
  return (review.headAcc[review.acct] ||= {});
}
const headDirty = () => Object.keys(review.head).length > 0 || Object.values(review.headAcc).some((h) => Object.keys(h).length > 0);

function fillAccountChoice() {
  const many = manyAccounts();
  $("head-account-row").hidden = !many;
  if (!many) return;
  $("head-account").replaceChildren(...review.stmt.accounts.map((a, i) =>
    el("option", { value: String(i), text: `${a.account_number || "account " + (i + 1)}${a.currency ? " " + a.currency : ""}` })));
  $("head-account").value = String(review.acct);
}

function fillHeaderForm() {
  for (const inp of $("header-form").querySelectorAll("[data-head]")) {
    const f = inp.dataset.head, v = headSource(review.stmt, f)[f];
    inp.value = v == null ? "" : v;
  }
  headerProblems();
}

// headEdit records a detail typed in: a value other than the one served is
// a correction, and the balances are checked against it at once. A bank
// or holder emptied is a correction too (the statement names none).
function headEdit(inp) {
  const f = inp.dataset.head;
  let v = inp.value.trim();
  if (f === "currency") v = v.toUpperCase();
  if (f.endsWith("balance")) v = amountAsPrinted(v);
  const read = headSource(review.read, f)[f], served = read == null ? "" : String(read);
  const head = headCorrections(f);
  if (v === served || (v === "" && !docFields.includes(f))) delete head[f]; else head[f] = v;
  headSource(review.stmt, f)[f] = f in head ? v : read;
  if (f === "account_number" && manyAccounts()) {
    // The rows follow their account's number (rowAcct: each row's account
    // as the document was opened).
    for (const t of review.txs) if (review.rowAcct.get(t) === review.acct) t.account = review.stmt.accounts[review.acct].account_number;
    fillAccountChoice();
  }
  checkSoon();
  refreshReview();
}

// headerProblems marks details that are not written as the API takes them.
function headerProblems() {
  let any = false;
  const bad = (f, v) => {
    if (v === undefined) return false;
    if (f === "currency") return !/^[A-Z]{3}$/.test(v);
    if (f.startsWith("period")) return !validDate(v);
    if (f.endsWith("balance")) return !moneyRe.test(v);
    return v.length > (docFields.includes(f) ? 200 : 64);
  };
  for (const inp of $("header-form").querySelectorAll("[data-head]")) {
    const f = inp.dataset.head;
    if (bad(f, headCorrections(f)[f])) { inp.setAttribute("aria-invalid", "true"); any = true; } else inp.removeAttribute("aria-invalid");
  }
  // A correction of another account than the one shown counts too.
  for (const h of Object.values(review.headAcc)) for (const [f, v] of Object.entries(h)) if (bad(f, v)) any = true;
  return any;
}

// headRequest is the statement corrections to send: the document's, and
// on a document of several accounts each account's by its index.
function headRequest() {
  const req = Object.assign({}, review.head);
  const accounts = Object.entries(review.headAcc).filter(([, h]) => Object.keys(h).length).map(([i, h]) => Object.assign({ index: Number(i) }, h));
  if (accounts.length) req.accounts = accounts;
  return Object.keys(req).length ? req : null;
}

// editRequest is the correction as the page holds it: the rows, and the
// header corrections made since the last save.
function editRequest() {
  const req = { transactions: review.txs.map((t) => Object.assign({}, t, { type: t.amountIn ? "CREDIT" : "DEBIT" })) };
  const head = headRequest();
  if (head) req.statement = head;
  return req;
}

async function save() {
  const req = editRequest();
  clearTimeout(checkTimer);
  checkSeq++;
  const { ok, body } = await call(`documents/${encodeURIComponent(review.doc.file_id)}/transactions`, {
    method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req),
  });
  if (!ok) { say(body && body.code === "invalid_statement" ? "The details could not be saved: " + body.error : message(body, { name: review.doc.original_name }), true); return; }
  review.read = JSON.parse(JSON.stringify(review.stmt));
  review.head = {};
  review.headAcc = {};
  if (folder) refreshFolder();
  review.saved = JSON.stringify(review.txs);
  review.edited = true;
  review.checking = false;
  review.rec = verdict(body.reconciliation);
  refreshReview();
  updateHistoryRow(review.doc.file_id);
  say(`Corrections saved. ${reconWords(review.rec, review.txs).split(":")[0]}. Downloads now carry them.`);
}

async function undo() {
  const yes = await confirmDialog("Undo all corrections and go back to the transactions as converted?");
  if (!yes) return;
  const { ok, body } = await call(`documents/${encodeURIComponent(review.doc.file_id)}/transactions`, { method: "DELETE" });
  if (!ok) { say(message(body), true); return; }
  const d = review.doc;
  updateHistoryRow(d.file_id);
  await openReview(d);
  say("Corrections undone: the original transactions are back.");
}

async function updateHistoryRow(id) {
  const list = await call("documents?limit=200");
  const d = list.ok && list.body.documents.find((x) => x.file_id === id);
  if (d) putDoc(d);
  if (d && review && review.doc.file_id === id) review.doc = d;
}

// The page image is drawn at a zoom the person chooses (the pane
// scrolls), and each page opens full size in a tab of its own. It is
// rendered at twice the pane's width, so that zooming in stays sharp.
const zooms = [1, 1.5, 2, 3];
function setZoom(z) {
  if (!review) return;
  review.zoom = z;
  for (const fig of $("pages").querySelectorAll(".page")) fig.style.width = z === 1 ? "" : `${z * 100}%`;
  $("zoom-level").textContent = `${Math.round(z * 100)}%`;
  $("zoom-out").disabled = z === zooms[0];
  $("zoom-in").disabled = z === zooms[zooms.length - 1];
}
function zoomStep(dir) {
  if (!review) return;
  const i = zooms.indexOf(review.zoom || 1);
  setZoom(zooms[Math.max(0, Math.min(zooms.length - 1, i + dir))]);
}

async function renderPages() {
  const pane = $("pages");
  pane.replaceChildren();
  const d = review.doc;
  const width = Math.min(3000, Math.max(1200, Math.round(2 * pane.clientWidth * (window.devicePixelRatio || 1))));
  const placed = review.txs.some((t) => t.page && t.box);
  if (!placed) pane.append(el("p", { class: "nobox", text: "This document does not say where each row is on the page, so rows cannot be shown on it." }));
  for (let n = 1; n <= d.page_count; n++) {
    const fig = el("div", { class: "page", "data-page": n });
    fig.append(el("span", { class: "label", text: `Page ${n} of ${d.page_count}` }));
    pane.append(fig);
    fig.addEventListener("click", (e) => pickAt(fig, n, e));
    const headers = {};
    if (passwords.has(d.file_id)) headers["X-Document-Password"] = passwords.get(d.file_id);
    const { ok, body, r } = await call(`documents/${encodeURIComponent(d.file_id)}/pages/${n}?width=${width}`, { headers });
    if (!review || review.doc.file_id !== d.file_id) return;
    if (!ok) {
      fig.append(el("p", { class: "nobox", text: body && body.code === "password_required" ? "This PDF is password-protected: its pages are shown only in the visit it was uploaded in." : message(body) }));
      if (body && body.code === "password_required") break;
      continue;
    }
    const [w, h] = (r.headers.get("X-Page-Size") || "0 0").split(" ").map(Number);
    review.pageSize[n] = { w, h };
    const img = el("img", { alt: `Page ${n} of ${d.original_name}` });
    img.src = URL.createObjectURL(await r.blob());
    fig.prepend(img);
    fig.querySelector(".label").append(" · ", el("a", { class: "full", href: img.src, target: "_blank", rel: "noopener", text: "Open full size",
      "aria-label": `Open page ${n} full size`, onclick: (e) => e.stopPropagation() }));
    if (review.zoom && review.zoom !== 1) fig.style.width = `${review.zoom * 100}%`;
    renderBoxes(n);
  }
}

function renderBoxes(only) {
  if (!review) return;
  for (const fig of $("pages").querySelectorAll(".page")) {
    const n = Number(fig.dataset.page);
    if (only && n !== only) continue;
    fig.querySelectorAll(".box").forEach((b) => b.remove());
    const size = review.pageSize[n];
    if (!size || !size.w) continue;
    review.txs.forEach((t, i) => {
      if (t.page !== n || !t.box) return;
      const [x0, y0, x1, y1] = t.box;
      const b = el("div", { class: "box" + (rowNotes(t).marks.length ? " warned" : "") + (i === review.sel ? " sel" : ""), "data-row": i, "aria-hidden": "true" });
      b.style.left = (100 * x0 / size.w) + "%"; b.style.top = (100 * y0 / size.h) + "%";
      b.style.width = (100 * (x1 - x0) / size.w) + "%"; b.style.height = (100 * (y1 - y0) / size.h) + "%";
      fig.append(b);
    });
  }
}

// select marks row i in the table and its box on the page.
function select(i, focusRow) {
  if (!review) return;
  review.sel = i;
  for (const tr of $("tx").rows) tr.classList.toggle("sel", Number(tr.dataset.row) === i);
  let found = null;
  for (const b of $("pages").querySelectorAll(".box")) {
    const on = Number(b.dataset.row) === i;
    b.classList.toggle("sel", on);
    if (on) found = b;
  }
  if (found) found.scrollIntoView({ block: "nearest", behavior: "smooth" });
  const tr = $("tx").rows[i];
  if (focusRow && tr) { tr.scrollIntoView({ block: "nearest" }); tr.querySelector("input").focus({ preventScroll: true }); }
}

// pickAt selects the row whose box is nearest the spot clicked on page n.
function pickAt(fig, n, e) {
  const size = review && review.pageSize[n];
  if (!size || !size.w) return;
  const rect = fig.getBoundingClientRect();
  const y = (e.clientY - rect.top) / rect.height * size.h;
  const x = (e.clientX - rect.left) / rect.width * size.w;
  let best = -1, bestD = Infinity;
  review.txs.forEach((t, i) => {
    if (t.page !== n || !t.box) return;
    const [x0, y0, x1, y1] = t.box;
    const dy = y < y0 ? y0 - y : y > y1 ? y - y1 : 0;
    const dx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
    const dist = dy * 4 + dx;
    if (dist < bestD) { best = i; bestD = dist; }
  });
  if (best >= 0 && bestD < 40) { select(best, true); say(`Row ${best + 1} selected: ${review.txs[best].description}.`); }
}

// ---- folders ----
let folder = null; // {id, data}: the folder open, as GET folders/{id} gave it
let folderUploads = 0; // uploads into a folder not yet answered
let folderTimer = 0;
let folderNames = []; // the folders as last listed, to refuse a name twice
let foldersSeq = 0; // the newest folders request; older answers are dropped

async function loadFolders() {
  const seq = ++foldersSeq;
  const { ok, body } = await call("folders");
  if (seq !== foldersSeq) return;
  if (!ok) { say(message(body), true); return; }
  folderNames = body.folders;
  fillFolderChoices(body.folders);
  document.dispatchEvent(new CustomEvent("passbook:folders", { detail: body.folders }));
  // The list shows the folders the search finds (their names and what
  // their statements name: bank, holder, account, file), all without one.
  const q = $("folders-q").value.trim();
  let shown = body.folders;
  if (q) {
    const found = await call("folders?q=" + encodeURIComponent(q));
    if (seq !== foldersSeq) return;
    if (!found.ok) { say(message(found.body), true); return; }
    shown = found.body.folders;
  }
  const list = $("folder-list");
  list.replaceChildren(...shown.map((f) => el("li", { "data-id": f.folder_id },
    el("button", { type: "button", class: "link", text: f.name, "aria-label": `Open folder ${f.name}`, onclick: () => openFolder(f.folder_id) }),
    folderHealth(f),
    el("span", { class: "small muted", text: ` ${plural(f.document_count, "statement")} · changed ${localTime(f.changed_at)}` }))));
  if (!shown.length) list.append(el("li", { class: "small muted", text: q ? `No folder holds “${q}”.` : "No folders yet." }));
}

// folderHealth is a folder's standing in the list: continuous, or how
// many findings it has, as its view says.
function folderHealth(f) {
  const n = f.finding_count || 0;
  switch (f.status) {
    case "continuous": return el("span", { class: "badge ok health", text: "✓ Continuous" });
    case "broken": return el("span", { class: "badge mismatch health", text: `✗ ${plural(n, "finding")}` });
    case "unproven": return el("span", { class: "badge unverified health", text: "⚠ Not all reconciled" });
    case "processing": return el("span", { class: "badge processing health", text: "Converting…" });
  }
  return el("span", { class: "badge none health", text: "Empty" });
}

async function createFolder() {
  const name = $("folder-name").value.trim();
  if (!name) { say("Give the folder a name, such as the client's and the year.", true); $("folder-name").focus(); return; }
  const same = folderNames.find((f) => f.name.trim().toLowerCase() === name.toLowerCase());
  if (same) { folderNameError({ code: "name_taken", error: `A folder is already called “${same.name}”.` }, $("folder-name")); return; }
  const { ok, body } = await call("folders", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  if (!ok) { folderNameError(body, $("folder-name")); return; }
  $("folder-name").removeAttribute("aria-invalid");
  $("folder-name").value = "";
  say(`Folder “${name}” made. Drop its statements into it.`);
  await loadFolders();
  openFolder(body.folder_id);
}

async function openFolder(id) {
  folder = { id, data: null };
  $("folder").hidden = false;
  $("folder-uploads").replaceChildren();
  $("timeline").replaceChildren();
  await refreshFolder();
  if (!folder) return;
  $("folder").scrollIntoView({ block: "start" });
  $("folder-h").focus();
}

function closeFolder() {
  clearTimeout(folderTimer);
  folder = null;
  $("folder").hidden = true;
  $("timeline").replaceChildren();
}

// refreshFolder reads the open folder again and draws it; while a
// statement converts or uploads, it reads it again every second.
async function refreshFolder() {
  if (!folder) return;
  const id = folder.id;
  const { ok, status, body } = await call("folders/" + encodeURIComponent(id));
  if (!folder || folder.id !== id) return;
  if (!ok) {
    if (body && body.code === "not_found") { closeFolder(); loadFolders(); say("That folder no longer exists.", true); return; }
    if (status === 0 || status >= 500) {
      // Lost: tried again, waiting longer each time, and said.
      folder.wait = Math.min((folder.wait || 1000) * 2, 30000);
      $("folder-status").className = "recon mismatch";
      $("folder-status").textContent = `Connection lost, retrying in ${Math.round(folder.wait / 1000)} s…`;
      clearTimeout(folderTimer);
      folderTimer = setTimeout(refreshFolder, folder.wait);
      return;
    }
    say(message(body), true);
    return;
  }
  folder.wait = 0;
  const was = folder.data && folder.data.status;
  // While statements convert the folder is read every second; it is drawn
  // again only when it changed, so that nothing under the reader's eye
  // (or focus) is replaced for nothing.
  const seen = JSON.stringify(body);
  folder.data = body;
  if (seen !== folder.seen) renderFolder();
  folder.seen = seen;
  clearTimeout(folderTimer);
  if (body.status === "processing" || folderUploads > 0) folderTimer = setTimeout(refreshFolder, 1000);
  else if (was === "processing") { say(statusWords(body).text); loadFolders(); }
}

function statusWords(f) {
  switch (f.status) {
    case "continuous": return { cls: "ok", text: "✓ Continuous: every statement reconciles and each starts where the one before it ended." };
    case "broken": return { cls: "mismatch", text: `✗ Not continuous: ${plural(f.accounts.reduce((n, a) => n + a.findings.length, 0), "finding")}, marked in red below.` };
    case "unproven": return { cls: "unverified", text: "⚠ No gaps, but some statements do not reconcile or could not be converted." };
    case "processing": return { cls: "no_transactions", text: "Converting… the timeline fills in as the statements are read." };
  }
  return { cls: "no_transactions", text: "No statements yet." };
}

function renderFolder() {
  const f = folder.data;
  $("folder-h").textContent = "Folder: " + f.name;
  const st = statusWords(f);
  $("folder-status").className = "recon " + st.cls;
  $("folder-status").textContent = st.text;
  const docs = new Map(f.documents.map((d) => [d.file_id, d]));
  const parts = f.accounts.map((a) => accountTimeline(a, docs));
  const pending = f.documents.filter((d) => d.status !== "completed" && !d.set_aside);
  if (pending.length) {
    parts.push(el("ul", { class: "pending", "aria-label": "Statements not in the timeline yet" }, ...pending.map((d) => el("li", {},
      el("span", { class: "name", text: d.original_name + " " }), badge(d),
      d.status === "failed" ? el("div", { class: "small error", text: message({ code: d.error_code }, { name: d.original_name }) }) : null,
      d.status === "failed" ? el("button", { type: "button", class: "small-btn", text: "Remove from folder", "aria-label": `Remove ${d.original_name} from the folder`, onclick: () => removeFromFolder(d) }) : null))));
  }
  const aside = f.documents.filter((d) => d.set_aside);
  if (aside.length) {
    parts.push(el("section", { class: "aside", "aria-labelledby": "aside-h" },
      el("h3", { id: "aside-h", text: "Set aside" }),
      el("p", { class: "small muted", text: "Kept in the folder but left out of its checks and downloads, where you kept another statement instead." }),
      el("ul", { class: "aside-list" }, ...aside.map((d) => el("li", { "data-id": d.file_id },
        el("span", { class: "name", text: d.original_name }),
        el("span", { class: "actions" },
          el("button", { type: "button", text: "Put back", "aria-label": `Put ${d.original_name} back`, onclick: () => setAside(d, false) }),
          el("button", { type: "button", text: "Remove from folder", "aria-label": `Remove ${d.original_name} from the folder`, onclick: () => removeFromFolder(d) })))))));
  }
  $("timeline").replaceChildren(...parts);
  $("folder-empty").hidden = f.documents.length > 0;
  // An upload converted is in the timeline now; what failed stays listed.
  for (const li of $("folder-uploads").querySelectorAll("li[data-id]")) {
    if ((docs.get(li.dataset.id) || {}).status === "completed" && !li.classList.contains("repeat")) li.remove();
  }
  fillAddSelect();
}

// periodLabel names a statement's period: its month when it is one
// calendar month ("Mar 2024"), else its first and last day.
function periodLabel(a, b) {
  if (!a) return "Undated";
  const [ya, ma, da] = a.split("-").map(Number), [yb, mb, db] = b.split("-").map(Number);
  if (ya === yb && ma === mb && da === 1 && db === new Date(yb, mb, 0).getDate()) return monthLabel(ya, ma);
  return `${localDate(a)} – ${localDate(b)}`;
}

// conflicting are the findings a person chooses between two statements
// on: the same statement twice, two that cover the same days.
const isConflict = (f) => f.kind === "duplicate" || f.kind === "overlap";

// timelineOrder puts an account's statements in the order drawn: period
// order, a duplicate right after its original. Where a finding is between
// two statements that are not side by side because a statement of the same
// days stands between them, the two of the same days change places, so
// that each finding is drawn between the statements it concerns.
function timelineOrder(a) {
  const order = [];
  for (const s of a.statements.filter((x) => !x.duplicate_of)) {
    order.push(s.file_id);
    for (const d of a.statements.filter((x) => x.duplicate_of === s.file_id)) order.push(d.file_id);
  }
  const pair = (x, y) => a.findings.some((f) => f.file_ids.includes(x) && f.file_ids.includes(y));
  for (const f of a.findings) {
    const [x, y] = f.file_ids;
    const i = order.indexOf(x), j = order.indexOf(y);
    if (i < 0 || j < 0 || Math.abs(i - j) === 1) continue;
    const lo = Math.min(i, j), hi = Math.max(i, j);
    // x .. p y, with p conflicting with x: swap x and p.
    if (hi - lo === 2 && pair(order[lo], order[lo + 1])) [order[lo], order[lo + 1]] = [order[lo + 1], order[lo]];
  }
  // Of two statements of the same days, the one the next statement
  // follows on from is drawn next to it: the other (the copy set against
  // it) stands before it, where their findings are drawn.
  const byId = new Map(a.statements.map((s) => [s.file_id, s]));
  const touches = (x, y) => a.findings.some((f) => f.file_ids.includes(x) && f.file_ids.includes(y));
  for (let k = 1; k + 1 < order.length; k++) {
    const p = byId.get(order[k - 1]), q = byId.get(order[k]), n = byId.get(order[k + 1]);
    if (p.period_start !== q.period_start || p.period_end !== q.period_end || touches(q.file_id, n.file_id)) continue;
    if (n.opening_balance === p.closing_balance && n.opening_balance !== q.closing_balance) [order[k - 1], order[k]] = [order[k], order[k - 1]];
  }
  return order;
}

// accountTimeline draws one account: a block per statement with its file,
// period and balances and, between two, a link that is green when the later
// one opens with what the earlier closed with, or red with each finding in
// words and what can be done about it. Then the account's year.
function accountTimeline(a, docs) {
  const cur = a.currency || "";
  const name = (a.account_number || a.iban || "Unknown account") + (cur ? " " + cur : "");
  const box = el("section", { class: "account", "aria-label": "Account " + name });
  box.append(el("h3", {}, name, el("span", { class: "small muted", text: a.period_start ? `  ${localDate(a.period_start)} – ${localDate(a.period_end)} · ${plural(a.transaction_count, "transaction")}` : "" })));
  const byId = new Map(a.statements.map((s) => [s.file_id, s]));
  const order = timelineOrder(a);
  const placed = new Set();
  const ol = el("ol", { class: "timeline" });
  order.forEach((id, k) => {
    const s = byId.get(id);
    if (k > 0) {
      const prev = order[k - 1];
      // Findings between these two; then findings of s with a statement
      // further back (the words name both files).
      const here = a.findings.filter((f) => !placed.has(f) && f.file_ids.includes(id) && f.file_ids.includes(prev));
      const far = a.findings.filter((f) => !placed.has(f) && !here.includes(f) && f.file_ids[f.file_ids.length - 1] === id &&
        order.indexOf(f.file_ids[0]) < k);
      for (const f of [...here, ...far]) placed.add(f);
      // A break one statement explains is drawn once, before it; the
      // link after it points back to it.
      const after = a.findings.filter((f) => f.blame === prev && f.file_ids[2] === id && placed.has(f) && !here.includes(f));
      ol.append(link([...here, ...far], byId, byId.get(prev), s, cur, after));
    }
    ol.append(block(s, docs, !!s.duplicate_of, cur));
  });
  // A finding not drawn yet (its statements undated) goes at the end.
  const rest = a.findings.filter((f) => !placed.has(f));
  if (rest.length) ol.append(link(rest, byId, null, null, cur));
  box.append(ol);
  if (a.year && a.year.months && a.year.months.length) box.append(yearTable(a, cur));
  return box;
}

const fileQ = (s) => `“${s ? s.original_name : "a statement"}”`;

function link(findings, byId, prev, next, cur, after = []) {
  if (!findings.length && after.length) {
    return el("li", { class: "link bad after", "data-kind": "balance_break", "data-files": after.map((f) => f.file_ids.join(",")).join(" ") },
      el("div", { class: "finding" }, el("p", { text: `✗ ${fileQ(next)} opens where ${fileQ(byId.get(after[0].file_ids[0]))} and the rows of ${fileQ(prev)} lead: only ${fileQ(prev)} is off (see the break before it).` })));
  }
  if (!findings.length && prev && next && prev.closing_balance && next.opening_balance && units(prev.closing_balance) !== units(next.opening_balance)) {
    // Two statements drawn side by side that do not follow on, with no
    // finding between them: one of them is a copy set against a statement
    // of the same days, and its findings are drawn beside that one.
    return el("li", { class: "link apart", title: `${next.original_name} does not follow on from ${prev.original_name}; each is checked against the statement of the same days beside it.` },
      el("span", { class: "visually-hidden", text: `${next.original_name} does not follow on from ${prev.original_name}: see the finding beside it.` }),
      el("span", { "aria-hidden": "true", text: "·" }));
  }
  if (!findings.length) {
    return el("li", { class: "link good", title: `${next.original_name} opens with the closing balance of ${prev.original_name}.` },
      el("span", { class: "visually-hidden", text: `Continuous: ${next.original_name} opens with ${figure(next.opening_balance, cur)}, the closing balance of ${prev.original_name}.` }),
      el("span", { "aria-hidden": "true", text: "✓" }));
  }
  return el("li", { class: "link bad", "data-kind": findings.map((f) => f.kind).join(" "), "data-files": findings.map((f) => f.file_ids.join(",")).join(" ") },
    ...findings.map((f, k) => {
      // Two findings on one pair (an overlap and its break) offer their
      // choice once, under the last of them.
      const later = findings.slice(k + 1).some((g) => g.file_ids.join() === f.file_ids.join());
      return el("div", { class: "finding", "data-kind": f.kind },
        el("p", { text: findingWords(f, byId, cur) }), later ? null : findingActions(f, byId));
    }));
}

// findingWords says what a finding is, naming the files, their balances
// and the currency, and which way a difference goes.
function findingWords(f, byId, cur) {
  const range = !f.from ? "" : f.from === f.to ? localDate(f.from) : `${localDate(f.from)} – ${localDate(f.to)}`;
  const a = byId.get(f.file_ids[0]), b = byId.get(f.file_ids[f.file_ids.length - 1]);
  const diff = f.difference && units(f.difference) !== 0n ? units(f.difference) : 0n;
  const way = (d) => `${figure(money(d < 0n ? -d : d), cur)} ${d < 0n ? "less" : "more"}`;
  switch (f.kind) {
    case "gap": {
      let w = `✗ Gap: no statement covers ${range}, between ${fileQ(a)} and ${fileQ(b)}.`;
      if (diff) w += ` The balance moved across it: ${fileQ(b)} opens with ${figure(b.opening_balance, cur)}, ${way(diff)} than ${fileQ(a)} closes with (${figure(a.closing_balance, cur)}).`;
      return w;
    }
    case "balance_break": {
      if (f.blame) {
        const m = byId.get(f.blame), c = b;
        return `✗ Balance break: ${fileQ(m)} is ${figure(money(diff < 0n ? -diff : diff), cur)} off. It opens with ${figure(m && m.opening_balance, cur)}, ${way(diff)} than ${fileQ(a)} closes with (${figure(a && a.closing_balance, cur)}), and ${fileQ(c)} opens with ${figure(c && c.opening_balance, cur)}, where ${fileQ(a)} and the rows of ${fileQ(m)} lead: ${fileQ(m)} alone is off, not the statements around it.`;
      }
      const within = a && b && b.period_start && a.period_end && b.period_start <= a.period_end;
      if (within) {
        const had = money(units(b.opening_balance) - diff);
        return `✗ Balance break: ${fileQ(b)} opens on ${localDate(b.period_start)} with ${figure(b.opening_balance, cur)}, but by ${fileQ(a)} the balance that day is ${figure(had, cur)}: ${fileQ(b)} is ${way(diff)}.`;
      }
      return `✗ Balance break: ${fileQ(b)} opens with ${figure(b && b.opening_balance, cur)}, but ${fileQ(a)} closes with ${figure(a && a.closing_balance, cur)}: ${fileQ(b)} opens ${way(diff)} than ${fileQ(a)} closes.`;
    }
    case "overlap": return `✗ Overlap: ${fileQ(a)} and ${fileQ(b)} both cover ${range}; ${plural(f.common_transactions || 0, "shared transaction")} counted once. Keep one of them.`;
    case "duplicate": return `✗ Duplicate: ${fileQ(b)} is the same statement as ${fileQ(a)}; it is counted once. Keep one of them.`;
  }
  return "✗ " + f.message;
}

// findingActions are what can be done about a finding: keep one of two
// statements that conflict (the other is set aside), take a statement out,
// or add the statement a gap misses.
function findingActions(f, byId) {
  const a = byId.get(f.file_ids[0]), b = byId.get(f.blame || f.file_ids[f.file_ids.length - 1]);
  const row = el("div", { class: "finding-actions" });
  const conflict = isConflict(f) || (f.kind === "balance_break" && !f.blame && a && b && b.period_start && a.period_end && b.period_start <= a.period_end);
  if (f.kind === "gap") {
    const id = "gap-" + Math.random().toString(36).slice(2);
    const input = el("input", { id, type: "file", class: "visually-hidden", multiple: true, accept: ".pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,application/pdf,image/*" });
    input.addEventListener("change", () => { const files = [...input.files]; input.value = ""; uploadToFolder(files); });
    row.append(input, el("label", { class: "button", for: id, text: "Add the missing statement" }));
  } else if (conflict && a && b) {
    for (const [keep, other] of [[a, b], [b, a]]) {
      row.append(el("button", { type: "button", class: "keep", "data-keep": keep.file_id, text: `Keep ${keep.original_name}`,
        "aria-label": `Keep ${keep.original_name} and set ${other.original_name} aside`, onclick: () => keepOne(keep, other) }));
    }
  } else if (b) {
    row.append(el("button", { type: "button", text: `Review ${b.original_name}`, onclick: () => openReview(folderDoc(b)) }),
      el("button", { type: "button", text: `Remove ${b.original_name}`, "aria-label": `Remove ${b.original_name} from the folder`, onclick: () => removeFromFolder(b) }));
  }
  return row;
}

function folderDoc(s) {
  return (folder.data.documents.find((d) => d.file_id === s.file_id)) || { file_id: s.file_id, original_name: s.original_name, page_count: 1 };
}

function block(s, docs, dup, cur) {
  const d = docs.get(s.file_id) || { file_id: s.file_id, original_name: s.original_name, page_count: 1 };
  const label = periodLabel(s.period_start, s.period_end);
  const rec = { ok: "✓ Reconciled", mismatch: "✗ Mismatch", unverified: "⚠ Unverified", no_transactions: "∅ No transactions" }[s.reconciliation] || s.reconciliation;
  return el("li", { class: "month " + s.reconciliation + (dup ? " dup" : ""), "data-id": s.file_id },
    el("div", { class: "block" },
      el("span", { class: "when", text: label }),
      el("span", { class: "file", text: s.original_name }),
      s.bank || s.holder ? el("span", { class: "small party", text: [s.bank, s.holder].filter(Boolean).join(" · ") }) : null,
      el("span", { class: "small period", text: s.period_start ? `${localDate(s.period_start)} – ${localDate(s.period_end)}` : "Period not found" }),
      el("span", { class: "small bal" }, "Opens ", el("b", { class: "open", text: figure(s.opening_balance, cur) })),
      el("span", { class: "small bal" }, "Closes ", el("b", { class: "close", text: figure(s.closing_balance, cur) })),
      el("span", { class: "small", text: rec + " · " + (dup ? "duplicate" : plural(s.transaction_count, "transaction")) }),
      el("span", { class: "block-actions" },
        el("button", { type: "button", class: "review", "aria-label": `Review ${s.original_name}, ${label}`, text: "Review", onclick: () => openReview(d) }),
        el("button", { type: "button", class: "remove", "aria-label": `Remove ${s.original_name} from the folder`, text: "Remove", onclick: () => removeFromFolder(s) }))));
}

// yearTable is an account's year: opening, money in and out, closing, and
// month by month the same with the statements its rows come from.
function yearTable(a, cur) {
  const y = a.year;
  const det = el("details", { class: "year" });
  // The summary names the period it covers, a calendar year or not.
  const first = y.months[0].month, last = y.months[y.months.length - 1].month;
  const [fy, fm] = first.split("-").map(Number), [ly, lm] = last.split("-").map(Number);
  const span = fy === ly && fm === 1 && lm === 12 ? String(fy) : first === last ? monthLabel(fy, fm) : `${monthLabel(fy, fm)} – ${monthLabel(ly, lm)}`;
  det.append(el("summary", { text: `${span}: opens with ${figure(y.opening_balance, cur)}, money in ${figure(y.money_in, cur)}, money out ${figure(y.money_out, cur)}, closes with ${figure(y.closing_balance, cur)}` }));
  const head = el("tr", {}, ...["Month", "Opening", "Money in", "Money out", "Closing", "Statements"].map((h, i) => el("th", { scope: "col", class: i > 0 && i < 5 ? "num" : "", text: h })));
  const body = y.months.map((m) => {
    const [yy, mm] = m.month.split("-").map(Number);
    return el("tr", { "data-month": m.month }, el("th", { scope: "row", text: monthLabel(yy, mm) }),
      el("td", { class: "num", text: figure(m.opening_balance, "") }), el("td", { class: "num", text: figure(m.money_in, "") }),
      el("td", { class: "num", text: figure(m.money_out, "") }), el("td", { class: "num", text: figure(m.closing_balance, "") }),
      el("td", { class: "small", text: m.files.length ? m.files.join(", ") : "none: not covered" }));
  });
  det.append(el("div", { class: "table-wrap" }, el("table", { class: "year-table" }, el("caption", { class: "visually-hidden", text: `Year of ${a.account_number || a.iban || "the account"}${cur ? ", in " + cur : ""}` }), el("thead", {}, head), el("tbody", {}, ...body))));
  return det;
}

async function setAside(d, aside) {
  const { ok, body } = await call(`folders/${encodeURIComponent(folder.id)}/documents/${encodeURIComponent(d.file_id)}`, {
    method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ set_aside: aside }) });
  if (!ok) { say(message(body), true); return false; }
  await refreshFolder();
  loadFolders();
  say(aside ? `Set “${d.original_name}” aside: the folder leaves it out of its checks and downloads.` : `Put “${d.original_name}” back into the folder's checks.`);
  return true;
}

async function keepOne(keep, other) {
  if (await setAside(other, true)) say(`Kept “${keep.original_name}”; “${other.original_name}” is set aside (not deleted).`);
}

async function removeFromFolder(d) {
  const { ok, body } = await call(`folders/${encodeURIComponent(folder.id)}/documents/${encodeURIComponent(d.file_id)}`, { method: "DELETE" });
  if (!ok && !(body && body.code === "not_found")) { say(message(body), true); return; }
  await refreshFolder();
  loadFolders();
  loadDocuments(false);
  say(`Took “${d.original_name}” out of the folder; it is still under Your documents.`);
}

// fillAddSelect lists the newest 200 documents not in the open folder, to
// add one (whatever the documents list's search shows).
let addSeq = 0;
async function fillAddSelect() {
  const sel = $("folder-add-doc");
  if (!folder || !folder.data) return;
  const seq = ++addSeq;
  const { ok, body } = await call("documents?limit=200&folder_id=none");
  const all = await call("documents?limit=200");
  if (seq !== addSeq || !folder || !folder.data || !ok || !all.ok) return;
  const inFolder = new Set(folder.data.documents.map((d) => d.file_id));
  const seen = new Map([...body.documents, ...all.body.documents].map((d) => [d.file_id, d]));
  const options = [...seen.values()].filter((d) => !inFolder.has(d.file_id))
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .map((d) => el("option", { value: d.file_id, text: `${d.original_name} · ${localTime(d.created_at)}` }));
  const was = sel.value;
  sel.replaceChildren(el("option", { value: "", text: options.length ? "Choose a document…" : "No other documents" }), ...options);
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}

async function addToFolder(fileId, folderId) {
  const { ok, body } = await call(`folders/${encodeURIComponent(folderId)}/documents/${encodeURIComponent(fileId)}`, { method: "PUT" });
  if (!ok) { say(message(body), true); return false; }
  return true;
}

function renameFolder() {
  const form = $("folder-rename");
  form.hidden = false;
  $("folder-new-name").value = folder.data.name;
  $("folder-new-name").focus();
  $("folder-new-name").select();
}

async function submitRename() {
  const name = $("folder-new-name").value.trim();
  if (!name) { say("Give the folder a name.", true); return; }
  const { ok, body } = await call(`folders/${encodeURIComponent(folder.id)}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  if (!ok) { folderNameError(body, $("folder-new-name")); return; }
  $("folder-rename").hidden = true;
  await refreshFolder();
  loadFolders();
  say(`The folder is now called “${name}”.`);
  $("folder-h").focus();
}

function folderNameError(body, input) {
  const code = body && body.code;
  say(code === "invalid_name" ? "A folder's name is 1 to 200 characters on one line."
    : code === "name_taken" ? `${body.error} Choose another name, or open that folder.` : message(body), true);
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

// unresolved lists the findings a download would have to decide on for
// the user: two statements of the same days (it takes the first uploaded)
// and balances that do not meet.
function unresolved(f) {
  return f.accounts.flatMap((a) => a.findings.filter((x) => x.kind !== "gap"));
}

async function downloadFolder() {
  if (!folder || !folder.data) return;
  const [format, profile] = $("folder-format").value.split(":");
  let q = `folders/${encodeURIComponent(folder.id)}/download?format=${encodeURIComponent(format)}`;
  if (profile) q += `&profile=${encodeURIComponent(profile)}`;
  const open = unresolved(folder.data);
  if (open.length) {
    const kinds = [...new Set(open.map((x) => x.kind.replace("_", " ")))].join(", ");
    const yes = await confirmDialog(`This folder has ${plural(open.length, "unresolved finding")} (${kinds}). Until you choose, the download follows a rule: of a statement uploaded twice, the copy whose file name comes first in alphabetical order counts; where two statements cover the same days, the transactions both hold count once; each statement's rows keep the balances it prints, also where they break, and so does the year summary. The workbook's Continuity sheet lists what counted and what was set aside. Keep one statement of each pair first, or download anyway?`,
      { ok: "Download anyway", cancel: "Go back and choose", danger: false });
    if (!yes) { say("Nothing was downloaded. Choose which statements to keep, marked in red."); document.querySelector("#timeline .link.bad button, #timeline .link.bad label")?.focus(); return; }
  }
  const { ok, body, r } = await call(q);
  if (!ok) {
    say(body && body.code === "not_ready" ? "Some statements are still converting. Download the folder once they are done." : message(body), true);
    return;
  }
  await saveBlob(r, fileName(r, { original_name: folder.data.name + ".x" }, format));
  say(`Downloading the folder “${folder.data.name}”.`);
}

async function deleteFolder() {
  if (!folder || !folder.data) return;
  const name = folder.data.name;
  const yes = await confirmDialog(`Delete the folder “${name}”? Its statements stay among your documents.`);
  if (!yes) { say("Nothing was deleted."); return; }
  const { ok, body } = await call("folders/" + encodeURIComponent(folder.id), { method: "DELETE" });
  if (!ok && body.code !== "not_found") { say(message(body), true); return; }
  closeFolder();
  loadFolders();
  say(`Deleted the folder “${name}”; its statements are still under Your documents.`);
}

const statementFile = /\.(pdf|png|jpe?g|tiff?|webp)$/i;

// droppedFiles lists the files dropped, looking into dropped directories
// (statements only, hidden files left out). The entries are taken at once:
// a drop's items are gone after the event.
async function droppedFiles(dt) {
  const items = [...(dt.items || [])].filter((i) => i.kind === "file");
  const found = items.map((i) => ({ entry: i.webkitGetAsEntry ? i.webkitGetAsEntry() : null, file: i.getAsFile() }));
  if (!found.length) return [...dt.files];
  const out = [];
  const walk = async (entry) => {
    if (entry.name.startsWith(".")) return;
    if (entry.isFile) {
      if (statementFile.test(entry.name)) out.push(await new Promise((res, rej) => entry.file(res, rej)));
      return;
    }
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) return;
      for (const e of batch) await walk(e);
    }
  };
  for (const { entry, file } of found) {
    if (entry && entry.isDirectory) await walk(entry);
    else if (file) out.push(file);
  }
  return out;
}

function uploadToFolder(files) {
  if (!folder) return;
  files = files.filter((f) => !f.name.startsWith("."));
  if (!files.length) { say("No statements there: Passbook reads PDF, PNG, JPEG, TIFF and WebP files.", true); return; }
  say(`Uploading ${plural(files.length, "statement")} into “${folder.data ? folder.data.name : "the folder"}”.`);
  files.sort((a, b) => (a.webkitRelativePath || a.name).localeCompare(b.webkitRelativePath || b.name));
  for (const f of files) addUpload(f, folder.id);
  refreshFolder();
}

// exportFormats are the download formats, for the review's "or as" list
// (which has buttons for the first three) and the folder's.
const exportFormats = [
  ["xlsx", "Excel (a sheet per account)"], ["csv", "CSV"], ["json", "JSON"],
  ["ofx", "OFX"], ["qfx", "QFX (Quicken)"], ["qbo", "QBO (QuickBooks)"], ["qif", "QIF"],
  ["camt053", "CAMT.053 (ISO 20022)"], ["mt940", "MT940"],
  ["csv:xero", "CSV for Xero"], ["csv:quickbooks", "CSV for QuickBooks"], ["csv:excel-eu", "CSV for Excel (Europe)"],
];
$("more-format").replaceChildren(...exportFormats.slice(3).map(([v, t]) => el("option", { value: v, text: t })));
$("folder-format").replaceChildren(...exportFormats.map(([v, t]) => el("option", { value: v, text: t })));
$("bulk-format").replaceChildren(...exportFormats.map(([v, t]) => el("option", { value: v, text: t })));

// ---- wiring ----
// --bar is the sticky bar's height, so that a heading scrolled to stays
// clear of it whatever the bar holds.
const keepBar = () => document.documentElement.style.setProperty("--bar", document.querySelector("header.top").offsetHeight + "px");
new ResizeObserver(keepBar).observe(document.querySelector("header.top"));
$("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const email = $("email").value.trim(), password = $("password").value;
  if (!email || !password) { $("signin-error").textContent = "Enter your e-mail address and your password."; (email ? $("password") : $("email")).focus(); return; }
  signIn(email, password);
});
$("signout").addEventListener("click", async () => { await signOut(false); say("Signed out."); });
$("signout-all").addEventListener("click", async () => { await signOut(true); say("Signed out on every computer."); });
$("refresh").addEventListener("click", () => { loadDocuments(true); loadUser(); });
$("more").addEventListener("click", moreDocuments);
let docsTimer = 0;
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
$("more-download").addEventListener("click", () => {
  if (!review) return;
  const [format, profile] = $("more-format").value.split(":");
  download(review.doc, format, profile);
});
$("files").addEventListener("change", (e) => {
  const files = [...e.target.files];
  e.target.value = ""; // choosing the same file again must work
  files.forEach((f) => addUpload(f));
});
// Once signed in, the focus is on the upload area, where work starts.
new MutationObserver(() => {
  if (!$("app").hidden && (document.activeElement === document.body || $("signin").contains(document.activeElement))) $("files").focus();
}).observe($("app"), { attributes: true, attributeFilter: ["hidden"] });

const drop = $("drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); [...e.dataTransfer.files].forEach((f) => addUpload(f)); });
// Closing review puts the focus back where it came from: the document's
// block in the open folder, or its row under Your documents.
function leaveReview() {
  const id = review && review.doc.file_id;
  closeReview();
  (document.querySelector(`#timeline .month[data-id="${id}"] button.review`) || document.querySelector(`#docs tr[data-id="${id}"] button`))?.focus();
}
$("review-close").addEventListener("click", leaveReview);
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !review || $("confirm").open) return;
  if (e.target.closest && e.target.closest("dialog")) return;
  if (review && (JSON.stringify(review.txs) !== review.saved || headDirty())) {
    say("Review has unsaved corrections: save them, or use Close review to leave them.", true);
    return;
  }
  e.preventDefault();
  leaveReview();
});
$("folder-new").addEventListener("submit", (e) => { e.preventDefault(); createFolder(); });
let foldersTimer = 0;
$("folders-q").addEventListener("input", () => { clearTimeout(foldersTimer); foldersTimer = setTimeout(loadFolders, 250); });
// The period filters are typed in the date style chosen.
function periodPlaceholders() { for (const id of ["docs-from", "docs-to"]) $(id).placeholder = datePlaceholder(); }
periodPlaceholders();
$("date-style").value = dateStyle;
$("date-style").addEventListener("change", () => {
  const typed = ["docs-from", "docs-to"].map((id) => periodInput(id));
  dateStyle = $("date-style").value;
  localStorage.setItem("passbook_date_style", dateStyle);
  ["docs-from", "docs-to"].forEach((id, i) => { if (typed[i]) $(id).value = numericDate(typed[i]); });
  periodPlaceholders();
  loadDocuments(true);
  if (folder && folder.data) renderFolder();
  if (review) { renderTable(); refreshReview(); }
  say("Dates are now written " + $("date-style").selectedOptions[0].textContent + ".");
});
$("folder-close").addEventListener("click", () => { closeFolder(); $("folder-name").focus(); });
$("folder-delete").addEventListener("click", deleteFolder);
$("folder-rename-btn").addEventListener("click", renameFolder);
$("folder-rename").addEventListener("submit", (e) => { e.preventDefault(); submitRename(); });
$("folder-rename-cancel").addEventListener("click", () => { $("folder-rename").hidden = true; $("folder-rename-btn").focus(); });
$("folder-add").addEventListener("submit", async (e) => {
  e.preventDefault();
  const id = $("folder-add-doc").value;
  if (!id || !folder) { $("folder-add-doc").focus(); return; }
  const name = $("folder-add-doc").selectedOptions[0].textContent.split(" · ")[0];
  if (await addToFolder(id, folder.id)) { await refreshFolder(); loadFolders(); loadDocuments(false); say(`Added “${name}” to the folder.`); }
});
$("folder-download").addEventListener("click", downloadFolder);
$("folder-files").addEventListener("change", (e) => { const files = [...e.target.files]; e.target.value = ""; uploadToFolder(files); });
$("folder-dir").addEventListener("change", (e) => {
  const files = [...e.target.files].filter((f) => statementFile.test(f.name) && !(f.webkitRelativePath || "").split("/").some((p) => p.startsWith(".")));
  e.target.value = "";
  uploadToFolder(files);
});
const folderDrop = $("folder-drop");
folderDrop.addEventListener("dragover", (e) => { e.preventDefault(); folderDrop.classList.add("over"); });
folderDrop.addEventListener("dragleave", () => folderDrop.classList.remove("over"));
folderDrop.addEventListener("drop", async (e) => { e.preventDefault(); folderDrop.classList.remove("over"); uploadToFolder(await droppedFiles(e.dataTransfer)); });
// The rows move like a spreadsheet's: Enter and the down arrow go to the
// same field of the next row, Shift+Enter and the up arrow to the one
// above (in a description, the arrows move between rows from its first or
// last line only).
$("tx").addEventListener("keydown", (e) => {
  const f = e.target.dataset && e.target.dataset.field;
  if (!f || e.altKey || e.ctrlKey || e.metaKey) return;
  const ta = e.target.tagName === "TEXTAREA";
  let step = 0;
  if (e.key === "Enter") step = e.shiftKey ? -1 : 1;
  else if (e.key === "ArrowDown" && (!ta || e.target.selectionStart === e.target.value.length)) step = 1;
  else if (e.key === "ArrowUp" && (!ta || e.target.selectionEnd === 0)) step = -1;
  if (!step) return;
  const tr = e.target.closest("tr");
  const next = step > 0 ? tr.nextElementSibling : tr.previousElementSibling;
  e.preventDefault();
  if (!next) return;
  const inp = next.querySelector(`[data-field="${f}"]`);
  inp.focus();
  if (inp.select) inp.select();
});
$("add-row").addEventListener("click", addRow);
$("zoom-in").addEventListener("click", () => zoomStep(1));
$("zoom-out").addEventListener("click", () => zoomStep(-1));
$("zoom-fit").addEventListener("click", () => setZoom(1));
$("header-edit").addEventListener("click", () => {
  const form = $("header-form");
  form.hidden = !form.hidden;
  $("header-edit").setAttribute("aria-expanded", String(!form.hidden));
  if (!form.hidden) form.querySelector("input").focus();
});
$("header-form").addEventListener("input", (e) => { if (e.target.dataset.head && review) headEdit(e.target); });
$("head-account").addEventListener("change", () => {
  if (!review) return;
  review.acct = Number($("head-account").value);
  fillHeaderForm();
});
$("header-form").addEventListener("submit", (e) => e.preventDefault());
$("save").addEventListener("click", save);
$("undo").addEventListener("click", undo);
window.addEventListener("beforeunload", (e) => { if (review && JSON.stringify(review.txs) !== review.saved) e.preventDefault(); });

// A key a page before sign-in kept is forgotten: the page stores none now.
localStorage.removeItem("passbook_key");
sessionStorage.removeItem("passbook_key");

// start resumes the session the cookie holds, or opens an invitation the
// address names (#invite=TOKEN, kept out of the server's logs), or asks
// for a sign-in.
async function start() {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) { openInvite(invite); return; }
  const { ok, body } = await call("session");
  if (ok) { await enter(body); return; }
  $("email").focus();
}

async function openInvite(token) {
  const { ok, body } = await call("invites/" + encodeURIComponent(token));
  $("signin").hidden = true;
  $("invite").hidden = false;
  if (!ok) {
    $("invite-text").textContent = message(body);
    $("invite-form").hidden = true;
    return;
  }
  $("invite-text").textContent = `${body.office} invites ${body.email} to join as ${body.role.replace("_", "-")}. Choose a password to sign in with.`;
  $("invite-form").hidden = false;
  $("invite-password").focus();
  $("invite-form").onsubmit = async (e) => {
    e.preventDefault();
    const pw = $("invite-password").value;
    if (pw !== $("invite-password2").value) { $("invite-error").textContent = "The two passwords differ."; return; }
    const r = await postJSON("invites/" + encodeURIComponent(token), "POST", { password: pw });
    if (!r.ok) { $("invite-error").textContent = message(r.body); return; }
    $("invite-password").value = ""; $("invite-password2").value = "";
    history.replaceState(null, "", location.pathname);
    await enter(r.body);
  };
}
window.addEventListener("hashchange", () => {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite && !session) openInvite(invite);
});
start();
