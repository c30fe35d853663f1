// The Clients view: folders of a client's statements, each account's
// timeline with its findings in words and what can be done about them
// (keep one, set aside, add the missing statement), its year, and the
// folder's downloads.
import { addUpload, badge, confirmDialog, fileName, fillFolderChoices, loadDocuments, saveBlob } from "./documents.js";
import { money, openReview, units } from "./review.js";
import { call, session } from "./session.js";
import { $, el, exportFormats, figure, ibanText, localDate, localTime, message, monthLabel, plural, say } from "./util.js";
import { currentView, showView } from "./views.js";
import { folderBadge } from "./integrity.js";

// ---- folders ----
export let folder = null; // {id, data}: the folder open, as GET folders/{id} gave it
export let folderUploads = 0; // uploads into a folder not yet answered

// folderUpload counts an upload into folder folderId begun (1) or answered
// (-1); the folder open is read again once one is answered.
export function folderUpload(delta, folderId) {
  folderUploads += delta;
  if (delta < 0 && folder && folder.id === folderId) refreshFolder();
}
export let folderTimer = 0;
export let folderNames = []; // the folders as last listed, to refuse a name twice
export let foldersSeq = 0; // the newest folders request; older answers are dropped

export async function loadFolders() {
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
export function folderHealth(f) {
  const n = f.finding_count || 0;
  switch (f.status) {
    case "continuous": return el("span", { class: "badge ok health", text: "✓ Continuous" });
    case "broken": return el("span", { class: "badge mismatch health", text: `✗ ${plural(n, "finding")}` });
    case "unproven": return el("span", { class: "badge unverified health", text: "⚠ Not all reconciled" });
    case "processing": return el("span", { class: "badge processing health", text: "Converting…" });
  }
  return el("span", { class: "badge none health", text: "Empty" });
}

export async function createFolder() {
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

export async function openFolder(id) {
  showView("clients", "#/clients/" + encodeURIComponent(id));
  folder = { id, data: null };
  $("folder").hidden = false;
  $("folder-uploads").replaceChildren();
  $("timeline").replaceChildren();
  await refreshFolder();
  if (!folder) return;
  $("folder").scrollIntoView({ block: "start" });
  $("folder-h").focus();
}

export function closeFolder() {
  clearTimeout(folderTimer);
  if (folder && session && currentView() === "clients") showView("clients", "#/clients");
  folder = null;
  $("folder").hidden = true;
  $("timeline").replaceChildren();
}

// refreshFolder reads the open folder again and draws it; while a
// statement converts or uploads, it reads it again every second.
export async function refreshFolder() {
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

export function statusWords(f) {
  switch (f.status) {
    case "continuous": return { cls: "ok", text: "✓ Continuous: every statement reconciles and each starts where the one before it ended." };
    case "broken": return { cls: "mismatch", text: `✗ Not continuous: ${plural(f.accounts.reduce((n, a) => n + a.findings.length, 0), "finding")}, marked in red below.` };
    case "unproven": return { cls: "unverified", text: "⚠ No gaps, but some statements do not reconcile or could not be converted." };
    case "processing": return { cls: "no_transactions", text: "Converting… the timeline fills in as the statements are read." };
  }
  return { cls: "no_transactions", text: "No statements yet." };
}

export function renderFolder() {
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
export function periodLabel(a, b) {
  if (!a) return "Undated";
  const [ya, ma, da] = a.split("-").map(Number), [yb, mb, db] = b.split("-").map(Number);
  if (ya === yb && ma === mb && da === 1 && db === new Date(yb, mb, 0).getDate()) return monthLabel(ya, ma);
  return `${localDate(a)} – ${localDate(b)}`;
}

// conflicting are the findings a person chooses between two statements
// on: the same statement twice, two that cover the same days.
export const isConflict = (f) => f.kind === "duplicate" || f.kind === "overlap";

// timelineOrder puts an account's statements in the order drawn: period
// order, a duplicate right after its original. Where a finding is between
// two statements that are not side by side because a statement of the same
// days stands between them, the two of the same days change places, so
// that each finding is drawn between the statements it concerns.
export function timelineOrder(a) {
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

// accountName heads an account by its IBAN where its statements print
// one, with the national number they print beside it.
export function accountName(a) {
  const plain = (s) => (s || "").replace(/[\s.\-\/]/g, "").toUpperCase();
  if (!a.iban) return a.account_number || "Unknown account";
  return ibanText(a.iban) + (a.account_number && plain(a.account_number) !== a.iban ? ` (account ${a.account_number})` : "");
}

// accountTimeline draws one account: a block per statement with its file,
// period and balances and, between two, a link that is green when the later
// one opens with what the earlier closed with, or red with each finding in
// words and what can be done about it. Then the account's year.
export function accountTimeline(a, docs) {
  const cur = a.currency || "";
  const name = accountName(a) + (cur ? " " + cur : "");
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

export const fileQ = (s) => `“${s ? s.original_name : "a statement"}”`;

export function link(findings, byId, prev, next, cur, after = []) {
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
export function findingWords(f, byId, cur) {
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
export function findingActions(f, byId) {
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

export function folderDoc(s) {
  return (folder.data.documents.find((d) => d.file_id === s.file_id)) || { file_id: s.file_id, original_name: s.original_name, page_count: 1 };
}

export function block(s, docs, dup, cur) {
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
      folderBadge(s.integrity),
      el("span", { class: "block-actions" },
        el("button", { type: "button", class: "review", "aria-label": `Review ${s.original_name}, ${label}`, text: "Review", onclick: () => openReview(d) }),
        el("button", { type: "button", class: "remove", "aria-label": `Remove ${s.original_name} from the folder`, text: "Remove", onclick: () => removeFromFolder(s) }))));
}

// yearTable is an account's year: opening, money in and out, closing, and
// month by month the same with the statements its rows come from.
export function yearTable(a, cur) {
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
  det.append(el("div", { class: "table-wrap" }, el("table", { class: "year-table" }, el("caption", { class: "visually-hidden", text: `Year of ${a.iban || a.account_number ? accountName(a) : "the account"}${cur ? ", in " + cur : ""}` }), el("thead", {}, head), el("tbody", {}, ...body))));
  return det;
}

export async function setAside(d, aside) {
  const { ok, body } = await call(`folders/${encodeURIComponent(folder.id)}/documents/${encodeURIComponent(d.file_id)}`, {
    method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ set_aside: aside }) });
  if (!ok) { say(message(body), true); return false; }
  await refreshFolder();
  loadFolders();
  say(aside ? `Set “${d.original_name}” aside: the folder leaves it out of its checks and downloads.` : `Put “${d.original_name}” back into the folder's checks.`);
  return true;
}

export async function keepOne(keep, other) {
  if (await setAside(other, true)) say(`Kept “${keep.original_name}”; “${other.original_name}” is set aside (not deleted).`);
}

export async function removeFromFolder(d) {
  const { ok, body } = await call(`folders/${encodeURIComponent(folder.id)}/documents/${encodeURIComponent(d.file_id)}`, { method: "DELETE" });
  if (!ok && !(body && body.code === "not_found")) { say(message(body), true); return; }
  await refreshFolder();
  loadFolders();
  loadDocuments(false);
  say(`Took “${d.original_name}” out of the folder; it is still under Your documents.`);
}

// fillAddSelect lists the newest 200 documents not in the open folder, to
// add one (whatever the documents list's search shows).
export let addSeq = 0;
export async function fillAddSelect() {
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

export async function addToFolder(fileId, folderId) {
  const { ok, body } = await call(`folders/${encodeURIComponent(folderId)}/documents/${encodeURIComponent(fileId)}`, { method: "PUT" });
  if (!ok) { say(message(body), true); return false; }
  return true;
}

export function renameFolder() {
  const form = $("folder-rename");
  form.hidden = false;
  $("folder-new-name").value = folder.data.name;
  $("folder-new-name").focus();
  $("folder-new-name").select();
}

export async function submitRename() {
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

export function folderNameError(body, input) {
  const code = body && body.code;
  say(code === "invalid_name" ? "A folder's name is 1 to 200 characters on one line."
    : code === "name_taken" ? `${body.error} Choose another name, or open that folder.` : message(body), true);
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

// unresolved lists the findings a download would have to decide on for
// the user: two statements of the same days (it takes the first uploaded)
// and balances that do not meet.
export function unresolved(f) {
  return f.accounts.flatMap((a) => a.findings.filter((x) => x.kind !== "gap"));
}

export async function downloadFolder() {
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

export async function deleteFolder() {
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

export const statementFile = /\.(pdf|png|jpe?g|tiff?|webp)$/i;

// droppedFiles lists the files dropped, looking into dropped directories
// (statements only, hidden files left out). The entries are taken at once:
// a drop's items are gone after the event.
export async function droppedFiles(dt) {
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

export function uploadToFolder(files) {
  if (!folder) return;
  files = files.filter((f) => !f.name.startsWith("."));
  if (!files.length) { say("No statements there: Passbook reads PDF, PNG, JPEG, TIFF and WebP files.", true); return; }
  say(`Uploading ${plural(files.length, "statement")} into “${folder.data ? folder.data.name : "the folder"}”.`);
  files.sort((a, b) => (a.webkitRelativePath || a.name).localeCompare(b.webkitRelativePath || b.name));
  for (const f of files) addUpload(f, folder.id);
  refreshFolder();
}

$("folder-format").replaceChildren(...exportFormats.map(([v, t]) => el("option", { value: v, text: t })));
$("folder-new").addEventListener("submit", (e) => { e.preventDefault(); createFolder(); });
export let foldersTimer = 0;
$("folders-q").addEventListener("input", () => { clearTimeout(foldersTimer); foldersTimer = setTimeout(loadFolders, 250); });
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
export const folderDrop = $("folder-drop");
folderDrop.addEventListener("dragover", (e) => { e.preventDefault(); folderDrop.classList.add("over"); });
folderDrop.addEventListener("dragleave", () => folderDrop.classList.remove("over"));
folderDrop.addEventListener("drop", async (e) => { e.preventDefault(); folderDrop.classList.remove("over"); uploadToFolder(await droppedFiles(e.dataTransfer)); });
