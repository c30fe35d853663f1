// The integrity report on the page (issue 44): a document's review says
// "No sign of alteration found" or each sign in words, with its place
// marked on the page image; the folder view marks a statement with medium
// or high signs. The report comes with the document's JSON download
// ("integrity": {signals, summary}) and with a folder's statements
// ("integrity": {worst, summary, signals}). Exports are not changed.
//
// A module of its own, with no state: the review (review.js) calls
// renderReport when a review opens and markPage when a page image is
// drawn, the folder view (folders.js) folderBadge for a statement.

const rank = { info: 0, low: 1, medium: 2, high: 3 };

// strong reports a signal a person should look at before trusting the file.
const strong = (s) => (rank[s.severity] || 0) >= rank.medium;

function node(tag, attrs = {}, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") n.textContent = v;
    else if (k === "onclick") n.addEventListener("click", v);
    else n.setAttribute(k, v);
  }
  for (const c of kids) if (c) n.append(c);
  return n;
}

const where = (s) => (s.page ? `page ${s.page}` : "the whole file");

const severityWords = { high: "Strong sign", medium: "Sign", low: "Weak sign", info: "Note" };

// renderReport fills container with the report: the verdict, each medium
// and high sign in words (a click shows its place on the page), and the
// notes on how the file was made, folded away. integrity may be absent
// (a document converted before there were reports).
export function renderReport(container, integrity) {
  container.replaceChildren();
  if (!integrity) return;
  const signals = integrity.signals || [];
  const marked = signals.filter(strong);
  container.classList.toggle("altered", marked.length > 0);
  if (!marked.length) {
    container.append(node("p", { class: "verdict clean", text: "✓ No sign of alteration found." }));
  } else {
    container.append(node("p", { class: "verdict", text: `⚠ ${marked.length === 1 ? "One sign" : marked.length + " signs"} that this file was altered after the bank made it:` }));
    const ol = node("ol", { class: "signals" });
    marked.forEach((s) => {
      const n = signals.indexOf(s) + 1;
      const show = s.page && s.bbox ? () => showMark(n) : null;
      ol.append(node("li", { class: "signal " + s.severity, "data-code": s.code },
        node("b", { text: `${severityWords[s.severity]} (${s.severity}), ${where(s)}: ` }),
        document.createTextNode(s.evidence + " "),
        show ? node("button", { type: "button", class: "linklike", text: "Show on the page", onclick: show }) : null));
    });
    container.append(ol);
  }
  const notes = signals.filter((s) => !strong(s));
  if (notes.length) {
    const d = node("details", { class: "notes" }, node("summary", { text: `${notes.length === 1 ? "One note" : notes.length + " notes"} on how the file was made (genuine files show these too)` }));
    const ul = node("ul");
    for (const s of notes) ul.append(node("li", { class: "signal " + s.severity, "data-code": s.code, text: `${severityWords[s.severity]}, ${where(s)}: ${s.evidence}` }));
    d.append(ul);
    container.append(d);
  }
}

// markPage draws, on page n's figure (the element holding its image),
// a numbered mark where each medium or high sign is. size is the page's
// size in points ({w, h}), the unit of the signals' boxes.
export function markPage(fig, n, size, integrity) {
  fig.querySelectorAll(".integrity-mark").forEach((m) => m.remove());
  if (!integrity || !size || !size.w) return;
  (integrity.signals || []).forEach((s, i) => {
    if (!strong(s) || s.page !== n || !s.bbox) return;
    const [x0, y0, x1, y1] = s.bbox;
    const m = node("div", { class: "integrity-mark " + s.severity, "data-signal": i + 1, title: s.evidence, "aria-label": `Sign ${i + 1}: ${s.evidence}` });
    m.style.left = (100 * x0 / size.w) + "%";
    m.style.top = (100 * y0 / size.h) + "%";
    m.style.width = (100 * Math.max(x1 - x0, 4) / size.w) + "%";
    m.style.height = (100 * Math.max(y1 - y0, 4) / size.h) + "%";
    fig.append(m);
  });
}

function showMark(n) {
  const m = document.querySelector(`.integrity-mark[data-signal="${n}"]`);
  if (!m) return;
  m.scrollIntoView({ block: "center", behavior: "smooth" });
  m.classList.add("flash");
  setTimeout(() => m.classList.remove("flash"), 1500);
}

// folderBadge is the mark of a folder's statement whose file shows medium
// or high signs (its own, or built unlike the account's other months);
// null when it shows none. si is the statement's "integrity".
export function folderBadge(si) {
  if (!si || (rank[si.worst] || 0) < rank.medium) return null;
  const words = (si.signals || []).filter(strong).map((s) => s.evidence).join(" · ");
  return node("span", { class: "badge integrity " + si.worst, title: words || si.summary,
    text: si.worst === "high" ? "⚠ Signs of alteration" : "⚠ Possible alteration" });
}
