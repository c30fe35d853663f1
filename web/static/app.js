"use strict";
const $ = (id) => document.getElementById(id);
const keyInput = $("key");
keyInput.value = localStorage.getItem("passbook_key") || "";
keyInput.addEventListener("change", () => { localStorage.setItem("passbook_key", keyInput.value.trim()); loadAccount(); });

function api(path, opts = {}) {
  opts.headers = Object.assign({ Authorization: "Bearer " + keyInput.value.trim() }, opts.headers || {});
  return fetch("/api/v1/" + path, opts);
}

async function loadAccount() {
  if (!keyInput.value.trim()) return;
  const r = await api("user");
  const b = await r.json();
  $("acct").textContent = r.ok
    ? `${b.email} · ${b.plan} · ${b.quota.remaining} of ${b.quota.limit} pages left this ${b.quota.period}, ${b.credits} credits`
    : b.error + " " + b.hint;
  $("acct").className = r.ok ? "muted" : "err";
}

function row(name) {
  const tr = document.createElement("tr");
  for (let i = 0; i < 5; i++) tr.appendChild(document.createElement("td"));
  tr.cells[0].textContent = name;
  $("docs").prepend(tr);
  return tr;
}

async function upload(file) {
  const tr = row(file.name);
  const form = new FormData();
  form.append("file", file);
  if ($("pw").value) form.append("password", $("pw").value);
  const r = await api("extract", { method: "POST", body: form });
  const b = await r.json();
  if (!r.ok) { tr.cells[2].textContent = b.error + " " + b.hint; tr.cells[2].className = "err"; return; }
  tr.cells[1].textContent = b.page_count;
  poll(b.file_id, tr);
}

async function poll(id, tr) {
  const r = await api("status?file_id=" + encodeURIComponent(id));
  const b = await r.json();
  if (!r.ok) { tr.cells[2].textContent = b.error; tr.cells[2].className = "err"; return; }
  if (b.status === "processing") {
    tr.cells[2].textContent = `processing (${b.pages_done || 0}/${b.page_count} pages)`;
    setTimeout(() => poll(id, tr), 2000);
    return;
  }
  if (b.status === "failed") { tr.cells[2].textContent = "failed: " + b.error; tr.cells[2].className = "err"; return; }
  tr.cells[2].textContent = "completed"; tr.cells[2].className = "ok";
  tr.cells[3].textContent = b.transaction_count;
  for (const f of ["csv", "xlsx", "json"]) {
    const btn = document.createElement("button");
    btn.textContent = f.toUpperCase();
    btn.onclick = () => download(id, f, tr.cells[0].textContent);
    tr.cells[4].appendChild(btn);
  }
  loadAccount();
}

async function download(id, format, name) {
  const r = await api(`download?file_id=${encodeURIComponent(id)}&format=${format}`);
  if (!r.ok) { alert((await r.json()).error); return; }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await r.blob());
  a.download = name.replace(/\.[^.]*$/, "") + "." + format;
  a.click();
  URL.revokeObjectURL(a.href);
}

$("file").addEventListener("change", (e) => { for (const f of e.target.files) upload(f); });
const drop = $("drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); for (const f of e.dataTransfer.files) upload(f); });
loadAccount();
