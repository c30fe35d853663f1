// The Office view: the office's name, members and invitations (owners),
// client upload links (staff), the audit trail (owners), and a document's
// own history under its review. It listens for the page's events:
// passbook:signedin, passbook:signedout, passbook:folders, passbook:review.
import { confirmDialog } from "./documents.js";
import { call, postJSON, session } from "./session.js";
import { $, el, localTime, message, say } from "./util.js";

const roleWords = (r) => (r === "read_only" ? "read-only" : r);
const actionWords = {
  upload: "uploaded", convert: "converted", convert_failed: "could not convert", correct: "corrected", revert: "undid the corrections of",
  export: "downloaded", review: "opened for review", delete: "deleted", retention_delete: "deleted (retention)", folder_create: "made a folder",
  folder_delete: "deleted a folder", folder_add: "put in a folder", folder_remove: "took out of a folder", sign_in: "signed in",
  sign_in_failed: "failed to sign in", sign_out: "signed out", member_invite: "invited", member_join: "joined",
  member_role: "changed a role", member_remove: "removed a member", invite_withdraw: "withdrew an invitation", invite_renew: "made an invitation's link again", password_reset: "reset a password", link_create: "made an upload link",
  link_revoke: "withdrew an upload link", link_upload: "uploaded through a link", link_refused: "tried a dead upload link", office_rename: "renamed the office",
  correct_statement: "corrected the account details of", export_zip: "downloaded in a zip", folder_rename: "renamed a folder",
  folder_set_aside: "set aside in a folder", folder_take_back: "took back into a folder",
};

function eventRow(e) {
  const what = (actionWords[e.action] || e.action) + (e.detail ? ` (${e.detail})` : "");
  return el("tr", {},
    el("td", { text: localTime(e.at) }), el("td", { text: e.actor }), el("td", { text: what, "data-action": e.action }),
    el("td", { class: "small", text: e.file_id || "" }), el("td", { class: "small", text: e.address }));
}

// ---- members (owners) ----
let members = [];

async function loadMembers() {
  const { ok, body } = await call("members");
  if (!ok) return;
  members = body.members;
  const me = session && session.member_id;
  $("member-list").replaceChildren(...members.filter((m) => !m.removed_at).map((m) => {
    const sel = el("select", { "aria-label": `Role of ${m.email}` },
      ...["owner", "staff", "read_only"].map((r) => el("option", { value: r, text: roleWords(r), selected: r === m.role })));
    sel.addEventListener("change", async () => {
      const r = await postJSON(`members/${m.member_id}`, "PUT", { role: sel.value });
      if (!r.ok) { say(message(r.body), true); sel.value = m.role; return; }
      say(`${m.email} is now ${roleWords(sel.value)}.`);
      loadMembers();
    });
    const remove = m.member_id === me ? null : el("button", { type: "button", text: "Remove", onclick: async () => {
      if (!(await confirmDialog(`Remove ${m.email} from the office? Their keys, sessions and invitations stop at once.`))) return;
      // Their live upload links die with them, unless the owner takes them over.
      const l = await call("links");
      const live = l.ok ? l.body.links.filter((k) => k.created_by === m.member_id && k.state === "live").length : 0;
      let links = "revoke";
      if (live && await confirmDialog(`${m.email} made ${live} upload link${live === 1 ? "" : "s"} that still work${live === 1 ? "s" : ""}. Keep ${live === 1 ? "it" : "them"} working, as yours, or withdraw ${live === 1 ? "it" : "them"}?`,
        { ok: "Keep, as mine", cancel: "Withdraw", danger: false })) links = "keep";
      const r = await call(`members/${m.member_id}?links=${links}`, { method: "DELETE" });
      if (!r.ok) { say(message(r.body), true); return; }
      say(`${m.email} was removed` + (r.body.links_passed ? `; ${r.body.links_passed} upload links are yours now.` : r.body.links_revoked ? `; ${r.body.links_revoked} upload links were withdrawn.` : "."));
      loadMembers();
    } });
    return el("tr", { "data-member": m.email }, el("td", { text: m.email }), el("td", {}, sel), el("td", { text: localTime(m.created_at) }), el("td", {}, remove));
  }));
  $("trail-member").replaceChildren(el("option", { value: "", text: "anyone" }),
    ...members.map((m) => el("option", { value: String(m.member_id), text: m.email + (m.removed_at ? " (removed)" : "") })));
  loadInvites();
}

// showInviteLink shows an invitation's link, selected for copying.
function showInviteLink(inv, before = "") {
  const url = el("input", { id: "invite-url", type: "text", readonly: true, value: inv.invite_url, size: 60, "aria-label": "Invitation link" });
  $("invite-made").replaceChildren(`${before}Send this link to ${inv.email}; it works once, until ${localTime(inv.expires_at)}: `, url);
  url.select();
}

// loadInvites lists the pending invitations under the members: each can
// be withdrawn, or given a new link to copy (only a link's hash is kept,
// so the first link stops working then).
async function loadInvites() {
  const { ok, body } = await call("invitations");
  if (!ok) return;
  $("invite-pending").hidden = body.invitations.length === 0;
  $("invite-list").replaceChildren(...body.invitations.map((inv) => {
    const again = el("button", { type: "button", text: "New link", onclick: async () => {
      const r = await call(`invitations/${inv.invite_id}/link`, { method: "POST" });
      if (!r.ok) { say(message(r.body), true); loadInvites(); return; }
      showInviteLink(r.body, "The link sent before no longer works. ");
    } });
    const withdraw = el("button", { type: "button", text: "Withdraw", onclick: async () => {
      if (!(await confirmDialog(`Withdraw the invitation of ${inv.email}? Its link stops working.`, { ok: "Withdraw" }))) return;
      const r = await call(`invitations/${inv.invite_id}`, { method: "DELETE" });
      if (!r.ok) say(message(r.body), true);
      else say(`The invitation of ${inv.email} was withdrawn.`);
      loadInvites();
    } });
    return el("tr", { "data-invite": inv.email }, el("td", { text: inv.email }), el("td", { text: roleWords(inv.role) }),
      el("td", { text: localTime(inv.expires_at) }), el("td", {}, again, " ", withdraw));
  }));
}

$("invite-new").addEventListener("submit", async (e) => {
  e.preventDefault();
  const email = $("invite-email").value.trim();
  if (!email) { $("invite-email").focus(); return; }
  const r = await postJSON("members", "POST", { email, role: $("invite-role").value });
  if (!r.ok) { $("invite-made").replaceChildren(message(r.body)); return; }
  $("invite-email").value = "";
  showInviteLink(r.body);
  loadInvites();
});

// nameOffice gives the office a name; it says what went wrong, or the
// name taken.
async function nameOffice(name) {
  const r = await postJSON("office", "PUT", { name });
  if (!r.ok) return { error: r.body && r.body.code === "invalid_name" ? "An office's name has 1 to 200 characters." : message(r.body) };
  session.office.name = name.trim();
  session.office.named = true;
  $("acct-office").textContent = session.office.name;
  $("office-name").value = session.office.name;
  return { name: session.office.name };
}

$("office-name-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await nameOffice($("office-name").value);
  if (r.error) { say(r.error, true); return; }
  say("The office is renamed.");
});

// At an owner's sign-in, an office nobody has named yet (its name is
// still the address it was made for) is asked for its name, at the top of
// the page: clients and invited members see the name.
function askOfficeName(s) {
  $("name-office").hidden = s.role !== "owner" || s.office.named;
  $("name-office-now").textContent = s.office.name;
  $("name-office-input").value = "";
  $("name-office-error").textContent = "";
}
$("name-office-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = $("name-office-input").value.trim();
  if (!name) { $("name-office-error").textContent = "Type the office's name, as your clients know it."; $("name-office-input").focus(); return; }
  const r = await nameOffice(name);
  if (r.error) { $("name-office-error").textContent = r.error; return; }
  $("name-office").hidden = true;
  say(`Your office is “${r.name}” now, for clients and new members.`);
});
$("name-office-later").addEventListener("click", () => { $("name-office").hidden = true; say("The office keeps its address for a name; Members of the office renames it."); });

// ---- client upload links (staff) ----
// fillLinkFolders lists the folders a link may be for, keeping the one
// chosen.
function fillLinkFolders(folders) {
  const sel = $("link-folder"), was = sel.value;
  sel.replaceChildren(...folders.map((x) => el("option", { value: x.folder_id, text: x.name })));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}
// The folder list follows the folders as app.js lists them: one made a
// moment ago is there at once.
document.addEventListener("passbook:folders", (e) => fillLinkFolders(e.detail));

async function loadLinks() {
  const l = await call("links");
  if (!l.ok) return;
  $("link-list").replaceChildren(...l.body.links.map((k) => el("tr", { "data-link": k.link_id },
    el("td", { text: k.folder_name }), el("td", { text: k.label }),
    el("td", { text: k.page_limit ? `${k.pages_used} of ${k.page_limit}` : String(k.pages_used) }),
    el("td", { text: localTime(k.expires_at) }), el("td", { text: k.state }),
    el("td", {}, k.state !== "live" ? null : el("button", { type: "button", text: "Withdraw", onclick: async () => {
      const r = await call(`links/${encodeURIComponent(k.link_id)}`, { method: "DELETE" });
      if (!r.ok) { say(message(r.body), true); return; }
      say("The link no longer works.");
      loadLinks();
    } })))));
}

$("link-new").addEventListener("submit", async (e) => {
  e.preventDefault();
  const folder_id = $("link-folder").value;
  // A link shown is the link just made: an old one never stays on screen
  // beside a refusal.
  $("link-made").replaceChildren();
  $("link-error").textContent = "";
  for (const id of ["link-days", "link-pages"]) $(id).removeAttribute("aria-invalid");
  if (!folder_id) { $("link-error").textContent = "Make a folder for the client first."; return; }
  const days = $("link-days").value.trim(), pages = $("link-pages").value.trim() || "0";
  const bad = (id, text) => { $(id).setAttribute("aria-invalid", "true"); $("link-error").textContent = text; $(id).focus(); };
  if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 366) { bad("link-days", "A link lasts from 1 to 366 days: no link was made."); return; }
  if (!/^\d+$/.test(pages)) { bad("link-pages", "The page limit is a whole number, 0 for none: no link was made."); return; }
  const r = await postJSON("links", "POST", { folder_id, expires_in_days: Number(days), page_limit: Number(pages), label: $("link-label").value });
  if (!r.ok) { $("link-error").textContent = (r.body && r.body.error ? r.body.error + " " + (r.body.hint || "") : message(r.body)) + " No link was made."; return; }
  const url = el("input", { id: "link-url", type: "text", readonly: true, value: r.body.link.url, size: 60, "aria-label": "Upload link" });
  $("link-made").replaceChildren("Send this link to the client (it is shown only now): ", url);
  url.select();
  loadLinks();
});

// ---- the audit trail (owners) ----
let trailNext = null;

async function loadTrail(reset) {
  const q = new URLSearchParams({ limit: "50" });
  if ($("trail-member").value) q.set("member_id", $("trail-member").value);
  if ($("trail-doc").value.trim()) q.set("file_id", $("trail-doc").value.trim());
  if ($("trail-from").value) q.set("from", $("trail-from").value);
  if ($("trail-to").value) q.set("to", $("trail-to").value);
  if (!reset && trailNext) q.set("before", String(trailNext));
  const { ok, body } = await call("audit?" + q);
  if (!ok) { say(message(body), true); return; }
  const rows = body.events.map(eventRow);
  if (reset) $("trail-list").replaceChildren(...rows); else $("trail-list").append(...rows);
  trailNext = body.next;
  $("trail-more").hidden = !trailNext;
}

$("trail-filter").addEventListener("submit", (e) => { e.preventDefault(); loadTrail(true); });
$("trail-more").addEventListener("click", () => loadTrail(false));

// ---- a document's own history ----
document.addEventListener("passbook:review", async (e) => {
  const d = e.detail;
  const { ok, body } = await call(`documents/${encodeURIComponent(d.file_id)}/history`);
  $("doc-history").hidden = !ok;
  if (!ok) return;
  $("doc-history-h").textContent = "History of " + d.original_name;
  $("doc-history-list").replaceChildren(...body.events.map((x) =>
    el("li", { text: `${localTime(x.at)} · ${x.actor} ${actionWords[x.action] || x.action}${x.detail ? ` (${x.detail})` : ""}` })));
});

document.addEventListener("passbook:signedin", (e) => {
  const s = e.detail;
  const staff = s.role === "owner" || s.role === "staff";
  $("links").hidden = !staff;
  $("members").hidden = s.role !== "owner";
  $("trail").hidden = s.role !== "owner";
  $("office-name").value = s.office.name;
  if (staff) loadLinks();
  askOfficeName(s);
  if (s.role === "owner") { loadMembers().then(() => loadTrail(true)); }
});

document.addEventListener("passbook:signedout", () => {
  for (const id of ["links", "members", "trail", "doc-history", "name-office"]) $(id).hidden = true;
  for (const id of ["link-list", "member-list", "invite-list", "trail-list", "doc-history-list", "invite-made", "link-made"]) $(id).replaceChildren();
});
