// The review: a document's rows beside its pages, the server's verdict on
// them (the status it stored, with its reasons; a correction is judged by
// the server as it is typed), corrections of rows and of the statement's
// details, and downloads.
//
// Where additions plug in: opening a review dispatches passbook:review
// (detail: the document) on document; an addition draws its panel into
// #review-panels (under the verdict, emptied when a review opens) or its
// action into #review-actions (beside the downloads), and may read the
// review open with currentReview().
import { confirmDialog, download, passwords, putDoc } from "./documents.js";
import { folder, refreshFolder } from "./folders.js";
import { call, postJSON, session } from "./session.js";
import { $, datePlaceholder, el, exportFormats, figure, ibanText, localDate, message, numericDate, parseDate, plural, say } from "./util.js";
import { showView } from "./views.js";
import { markPage, renderReport } from "./integrity.js";

// ---- review ----
export let review = null; // {doc, stmt, txs, saved, edited, sel, pageSize}

export const UNIT = 10000n; // amounts are held in ten-thousandths
export const moneyRe = /^-?\d{1,15}(\.\d{1,4})?$/;
export function units(s) {
  const neg = s.startsWith("-");
  const [i, f = ""] = s.replace("-", "").split(".");
  const v = BigInt(i) * UNIT + BigInt((f + "0000").slice(0, 4));
  return neg ? -v : v;
}
export function money(v) {
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
export const isLowConf = (t) => !!(t.provenance && t.provenance.low_confidence);
export const isComputed = (t) => !!(t.provenance && (t.provenance.balance_computed || t.provenance.balance_from_zero));
export const isEntered = (t) => !!(t.provenance && t.provenance.balance_entered);
export const computedKinds = new Set(["balance_computed", "balance_from_zero"]);
export const validDate = (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !isNaN(Date.parse(s + "T00:00:00Z")) && new Date(s + "T00:00:00Z").toISOString().startsWith(s);

// problems lists what is wrong with row t, by field.
export function problems(t) {
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
export function verdict(r) {
  r = r || {};
  return { status: r.status || "unverified", message: r.message || "", rows: r.rows || [], diff: r.difference ? units(r.difference) : null };
}

export function reconWords(rec, txs) {
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
export let checkTimer = 0, checkSeq = 0;
export function checkSoon() {
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

// currentReview is the review open ({doc, stmt, txs, rec, ...}), or null.
export function currentReview() {
  return review;
}

export async function openReview(d) {
  const { ok, body } = await call(`documents/${encodeURIComponent(d.file_id)}`);
  if (!ok) { say(message(body, { name: d.original_name }), true); return; }
  review = { doc: d, zoom: 1, stmt: body.statement, rec: verdict(body.statement.reconciliation), read: JSON.parse(JSON.stringify(body.statement)), head: {}, headAcc: {}, acct: 0,
    txs: body.transactions, saved: JSON.stringify(body.transactions), edited: !!body.statement.edited, sel: -1, pageSize: {} };
  review.rowAcct = new WeakMap(review.txs.map((t) => [t, (review.stmt.accounts || []).findIndex((a) => a.account_number === t.account)]));
  fillAccountChoice();
  fillHeaderForm();
  showView("documents", "#/documents");
  $("review").hidden = false;
  $("review-h").textContent = "Review: " + d.original_name;
  $("review-panels").replaceChildren();
  $("review-actions").replaceChildren();
  document.dispatchEvent(new CustomEvent("passbook:review", { detail: d }));
  $("review-downloads").replaceChildren(...["csv", "xlsx", "json"].map((f) =>
    el("button", { type: "button", text: f.toUpperCase(), "aria-label": `Download as ${f.toUpperCase()}`, onclick: () => download(review.doc, f) })));
  renderTable();
  refreshReview();
  // The integrity report (issue 44): its words under the verdict, its
  // places marked on the pages.
  review.integrity = body.integrity;
  renderReport($("integrity"), body.integrity);
  setZoom(1);
  renderPages();
  $("review").scrollIntoView({ block: "start" });
  $("review-h").focus();
  say(`Reviewing “${d.original_name}”: ${plural(review.txs.length, "transaction")}.`);
}

export function closeReview() {
  if (!review) return;
  $("header-form").hidden = true;
  $("header-edit").setAttribute("aria-expanded", "false");
  for (const img of $("pages").querySelectorAll("img")) URL.revokeObjectURL(img.src);
  review = null;
  $("review").hidden = true;
  $("pages").replaceChildren();
  $("tx").replaceChildren();
}

export function summary(rec) {
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
    ...(st.iban && st.iban !== st.account_number ? [item("IBAN", ibanText(st.iban))] : []),
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
export function refreshReview() {
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

// moneyOrder is the order of the review's money in and money out columns:
// the statement's own, where it prints money out first (its
// money_columns, as the conversion read them), else money in first.
export function moneyOrder() {
  const cols = (review && review.stmt.money_columns) || [];
  const i = cols.indexOf("in"), o = cols.indexOf("out");
  return i >= 0 && o >= 0 && o < i ? ["out", "in"] : ["in", "out"];
}

export function renderTable() {
  const body = $("tx");
  // The heading's money columns stand as the rows' do.
  const head = body.parentElement.querySelector("thead tr");
  const [first, second] = moneyOrder().map((m) => head.querySelector(`th[data-money="${m}"]`));
  first.after(second);
  body.replaceChildren();
  review.txs.forEach((t, i) => body.append(txRow(t, i)));
  body.querySelectorAll("textarea").forEach(fitText);
}

// fitText makes a description's box as tall as its text, where the
// browser cannot do it by itself (CSS field-sizing).
export const sizesItself = window.CSS && CSS.supports && CSS.supports("field-sizing", "content");
export function fitText(ta) {
  if (sizesItself) return;
  ta.style.height = "auto";
  ta.style.height = ta.scrollHeight + 2 + "px";
}

// A balance computed from the rows (the statement printed none on that row)
// is information, not a warning, when the printed balances around it
// confirm the chain: only rows that need a person's eye are marked.
export function rowNotes(t) {
  const all = t.warning_details || (t.warnings || []).map((message) => ({ kind: "note", message }));
  const confirmed = review && review.stmt.reconciliation && review.stmt.reconciliation.status === "ok";
  const info = confirmed ? all.filter((w) => computedKinds.has(w.kind)) : [];
  return { info: info.map((w) => w.message), marks: all.filter((w) => !info.includes(w)).map((w) => w.message) };
}

export function txRow(t, i) {
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
    ...moneyOrder().map((m) => (m === "in" ? input("amountIn", "money in", "num") : input("amountOut", "money out", "num"))), input("balance", "balance", "num"),
    el("td", {}, readOnly() ? null : el("button", { type: "button", class: "del", text: "✕", "aria-label": `Delete row ${n}`, onclick: () => deleteRow(i) })));
  markProblems(tr, t);
  return tr;
}

// markProblems marks the cells of row t that cannot be taken, with the
// reason written under each (and read with it by a screen reader).
export function markProblems(tr, t) {
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
export const readOnly = () => !!session && session.role === "read_only";

// amountAsPrinted reads an amount as a statement prints it, with either
// mark for decimals and any grouping: "1.240,00", "1,240.00", "1 240,00",
// "1'240.00", "1240". A mark followed by one or two digits at the end is
// the decimal mark; the others group thousands. It returns the amount as
// the API takes it ("1240.00"), or the text unchanged when it is no amount.
export function amountAsPrinted(s) {
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

export function edit(i, field, value) {
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

export function addRow() {
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

export function deleteRow(i) {
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
export const headFields = ["account_number", "currency", "period_start", "period_end", "opening_balance", "closing_balance"];

// The bank and the holder are the document's; the other details are an
// account's: on a document of several accounts, the one chosen in
// head-account (its corrections are kept per account in headAcc).
export const docFields = ["bank", "holder"];
export const manyAccounts = () => !!(review.stmt.accounts && review.stmt.accounts.length);

// headSource is where a detail lives in a statement: the statement, or the
// account chosen.
export function headSource(st, f) {
  return manyAccounts() && !docFields.includes(f) ? st.accounts[review.acct] : st;
}
export function headCorrections(f) {
  if (!manyAccounts() || docFields.includes(f)) return review.head;
  return (review.headAcc[review.acct] ||= {});
}
export const headDirty = () => Object.keys(review.head).length > 0 || Object.values(review.headAcc).some((h) => Object.keys(h).length > 0);

export function fillAccountChoice() {
  const many = manyAccounts();
  $("head-account-row").hidden = !many;
  if (!many) return;
  $("head-account").replaceChildren(...review.stmt.accounts.map((a, i) =>
    el("option", { value: String(i), text: `${a.account_number || "account " + (i + 1)}${a.currency ? " " + a.currency : ""}` })));
  $("head-account").value = String(review.acct);
}

export function fillHeaderForm() {
  for (const inp of $("header-form").querySelectorAll("[data-head]")) {
    const f = inp.dataset.head, v = headSource(review.stmt, f)[f];
    inp.value = v == null ? "" : v;
  }
  headerProblems();
}

// headEdit records a detail typed in: a value other than the one served is
// a correction, and the balances are checked against it at once. A bank
// or holder emptied is a correction too (the statement names none).
export function headEdit(inp) {
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
export function headerProblems() {
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
export function headRequest() {
  const req = Object.assign({}, review.head);
  const accounts = Object.entries(review.headAcc).filter(([, h]) => Object.keys(h).length).map(([i, h]) => Object.assign({ index: Number(i) }, h));
  if (accounts.length) req.accounts = accounts;
  return Object.keys(req).length ? req : null;
}

// editRequest is the correction as the page holds it: the rows, and the
// header corrections made since the last save.
export function editRequest() {
  const req = { transactions: review.txs.map((t) => Object.assign({}, t, { type: t.amountIn ? "CREDIT" : "DEBIT" })) };
  const head = headRequest();
  if (head) req.statement = head;
  return req;
}

export async function save() {
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

export async function undo() {
  const yes = await confirmDialog("Undo all corrections and go back to the transactions as converted?");
  if (!yes) return;
  const { ok, body } = await call(`documents/${encodeURIComponent(review.doc.file_id)}/transactions`, { method: "DELETE" });
  if (!ok) { say(message(body), true); return; }
  const d = review.doc;
  updateHistoryRow(d.file_id);
  await openReview(d);
  say("Corrections undone: the original transactions are back.");
}

export async function updateHistoryRow(id) {
  const list = await call("documents?limit=200");
  const d = list.ok && list.body.documents.find((x) => x.file_id === id);
  if (d) putDoc(d);
  if (d && review && review.doc.file_id === id) review.doc = d;
}

// The page image is drawn at a zoom the person chooses (the pane
// scrolls), and each page opens full size in a tab of its own. It is
// rendered at twice the pane's width, so that zooming in stays sharp.
export const zooms = [1, 1.5, 2, 3];
export function setZoom(z) {
  if (!review) return;
  review.zoom = z;
  for (const fig of $("pages").querySelectorAll(".page")) fig.style.width = z === 1 ? "" : `${z * 100}%`;
  $("zoom-level").textContent = `${Math.round(z * 100)}%`;
  $("zoom-out").disabled = z === zooms[0];
  $("zoom-in").disabled = z === zooms[zooms.length - 1];
}
export function zoomStep(dir) {
  if (!review) return;
  const i = zooms.indexOf(review.zoom || 1);
  setZoom(zooms[Math.max(0, Math.min(zooms.length - 1, i + dir))]);
}

export async function renderPages() {
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
    markPage(fig, n, review.pageSize[n], review.integrity);
  }
}

export function renderBoxes(only) {
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
export function select(i, focusRow) {
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
export function pickAt(fig, n, e) {
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

$("more-format").replaceChildren(...exportFormats.slice(3).map(([v, t]) => el("option", { value: v, text: t })));
$("more-download").addEventListener("click", () => {
  if (!review) return;
  const [format, profile] = $("more-format").value.split(":");
  download(review.doc, format, profile);
});
// Closing review puts the focus back where it came from: the document's
// block in the open folder, or its row under Your documents.
export function leaveReview() {
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
