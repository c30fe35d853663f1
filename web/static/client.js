// The client's upload page (/l/TOKEN): the server's plain form takes one
// file a visit with no script; this script, when it runs, takes many,
// chosen or dropped, sends them one after another to the same address
// with each file's progress, and lists what was sent in this visit. It
// reads nothing from the server but the answer to each upload.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("form"), input = $("file");
  if (!form || !input) return; // a page that says the link is gone
  input.multiple = true;
  input.required = false;
  $("drop-hint").hidden = false;
  $("send").textContent = "Send";
  const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const queue = [];
  let busy = false;

  function row(file) {
    const li = document.createElement("li");
    li.dataset.name = file.name;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = file.name;
    const state = document.createElement("span");
    state.className = "state";
    state.textContent = "Waiting";
    const bar = document.createElement("progress");
    bar.max = 1;
    bar.value = 0;
    bar.setAttribute("aria-label", "Progress of " + file.name);
    const msg = document.createElement("span");
    msg.className = "msg";
    li.append(name, state, bar, msg);
    $("visit").hidden = false;
    $("sent").append(li);
    return { li, state, bar, msg };
  }

  function add(files) {
    for (const f of files) queue.push({ file: f, ui: row(f) });
    pump();
  }

  function pump() {
    if (busy || !queue.length) return;
    busy = true;
    const { file, ui } = queue.shift();
    const data = new FormData();
    data.append("file", file, file.name);
    if ($("password").value) data.append("password", $("password").value);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", location.pathname);
    xhr.setRequestHeader("Accept", "application/json");
    ui.state.textContent = "Sending";
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      ui.bar.max = e.total;
      ui.bar.value = e.loaded;
      ui.msg.textContent = `Sending: ${Math.round((100 * e.loaded) / e.total)}%`;
    };
    const done = (ok, text) => {
      ui.li.classList.add(ok ? "ok" : "err");
      ui.state.textContent = ok ? "✓ Received" : "✗ Not sent";
      ui.bar.max = 1;
      ui.bar.value = ok ? 1 : 0;
      if (!ok) ui.bar.hidden = true;
      ui.msg.textContent = text;
      busy = false;
      pump();
    };
    xhr.onerror = () => done(false, "The connection was lost. Choose the file again to retry.");
    xhr.onload = () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch { body = {}; }
      if (xhr.status === 200 && body.success) done(true, `${plural(body.page_count, "page")}. Thank you: it has arrived.`);
      else if (body.code === "password_required") done(false, "This PDF has a password: type it in the password field, then choose the file again.");
      else done(false, [body.error, body.hint].filter(Boolean).join(" ") || "The server did not take this file. Try again.");
    };
    xhr.send(data);
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!input.files.length) { input.focus(); return; }
    add([...input.files]);
    input.value = "";
  });
  input.addEventListener("change", () => {
    if (!input.files.length) return;
    add([...input.files]);
    input.value = "";
  });
  form.addEventListener("dragover", (e) => { e.preventDefault(); form.classList.add("over"); });
  form.addEventListener("dragleave", () => form.classList.remove("over"));
  form.addEventListener("drop", (e) => {
    e.preventDefault();
    form.classList.remove("over");
    add([...e.dataTransfer.files]);
  });
})();
