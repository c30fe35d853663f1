// Passbook's page: "Share this layout" (issue 43). The document under
// review gets a button that downloads a copy of its statement that reads
// as it does with nothing of the client in it (GET /api/v1/redact), to
// send with a report of a layout read wrong. It plugs into the review by
// its passbook:review event and its #review-actions place.
import { fileName, saveBlob } from "./documents.js";
import { call } from "./session.js";
import { $, el, message, say } from "./util.js";

let shared = null; // the document under review

async function shareLayout() {
  const d = shared;
  if (!d) return;
  say(`Making a shareable copy of “${d.original_name}”…`);
  const { ok, body, r } = await call(`redact?file_id=${encodeURIComponent(d.file_id)}`);
  if (!ok) { say(body && body.error ? body.error : message(body, { name: d.original_name }), true); return; }
  await saveBlob(r, fileName(r, d, "pdf"));
  say(`Downloaded a copy of “${d.original_name}” that reads the same (${r.headers.get("X-Redact-Rows")} rows, ${r.headers.get("X-Redact-Reconciliation")}), with names, numbers and descriptions replaced and amounts scaled. Open it and check it before you send it.`);
}

document.addEventListener("passbook:review", (e) => {
  shared = e.detail;
  $("review-actions").append(el("button", { type: "button", id: "share-layout", text: "Share this layout",
    title: "A copy for reporting a layout read wrong: names, numbers and descriptions replaced, amounts scaled", onclick: shareLayout }));
});
