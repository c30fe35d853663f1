// Find transactions: across the office, or one client's folder, by words
// of the description or the account, an amount range (money in and out
// alike), dates and account. The server searches its index of every
// converted statement's rows (GET transactions), never the page over what
// it loaded; a row found opens its statement's review.
import { amountAsPrinted, openReview } from "./review.js";
import { call } from "./session.js";
import { $, el, figure, localDate, message, plural, say } from "./util.js";

// review opens the statement a transaction found is in.
async function review(t) {
  const st = await call("status?file_id=" + encodeURIComponent(t.file_id));
  if (!st.ok) { say(message(st.body, { name: t.original_name }), true); return; }
  openReview({ file_id: t.file_id, original_name: t.original_name, page_count: st.body.page_count, status: st.body.status });
}

// find asks the server for the transactions the form describes.
async function find() {
  const p = new URLSearchParams();
  const set = (name, v) => { if (v) p.set(name, v); };
  set("q", $("find-q").value.trim());
  set("account", $("find-account").value.trim());
  set("from", $("find-from").value);
  set("to", $("find-to").value);
  set("folder_id", $("find-folder").value);
  for (const [id, name] of [["find-min", "min"], ["find-max", "max"]]) {
    const v = $(id).value.trim();
    $(id).removeAttribute("aria-invalid");
    if (!v) continue;
    const a = amountAsPrinted(v);
    if (!/^\d+(\.\d+)?$/.test(a)) { $(id).setAttribute("aria-invalid", "true"); say(`“${v}” is not an amount.`, true); $(id).focus(); return; }
    p.set(name, a);
  }
  const { ok, body } = await call("transactions?" + p);
  if (!ok) { say(message(body), true); return; }
  const rows = body.transactions.map((t) => el("tr", { "data-id": t.file_id, "data-row": t.row },
    el("td", { "data-label": "Date", text: localDate(t.date) }),
    el("td", { class: "desc", "data-label": "Description", text: t.description }),
    el("td", { class: "num", "data-label": "Money in", text: t.amountIn ? figure(t.amountIn) : "" }),
    el("td", { class: "num", "data-label": "Money out", text: t.amountOut ? figure(t.amountOut) : "" }),
    el("td", { class: "num", "data-label": "Balance", text: figure(t.balance) }),
    el("td", { "data-label": "Account", text: t.account || "—" }),
    el("td", { "data-label": "Statement" }, el("button", { type: "button", class: "link", text: t.original_name,
      "aria-label": `Review ${t.original_name}, row ${t.row + 1}`, onclick: () => review(t) }))));
  $("find-list").replaceChildren(...rows);
  $("find-list").closest("table").hidden = rows.length === 0;
  $("find-count").textContent = rows.length ? `${plural(rows.length, "transaction")} found${rows.length >= 200 ? " (the newest 200)" : ""}.` : "No transaction matches.";
}

$("find-form").addEventListener("submit", (e) => { e.preventDefault(); find(); });
// The folder list follows the folders as they are listed.
document.addEventListener("passbook:folders", (e) => {
  const sel = $("find-folder"), was = sel.value;
  sel.replaceChildren(el("option", { value: "", text: "the whole office" }), ...e.detail.map((f) => el("option", { value: f.folder_id, text: f.name })));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
});
document.addEventListener("passbook:signedout", () => {
  $("find-list").replaceChildren();
  $("find-list").closest("table").hidden = true;
  $("find-count").textContent = "";
});
