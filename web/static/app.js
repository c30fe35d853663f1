// Passbook's page, the entry module: it loads each view's module (ES
// modules served as they are, with no build step), wires sign-in, the
// date style and invitations, and resumes the session. Every address is
// relative so that the page works under a base path; nothing is fetched
// from elsewhere.
import { loadDocuments, periodInput } from "./documents.js";
import { closeFolder, folder, openFolder, renderFolder } from "./folders.js";
import { refreshReview, renderTable, review } from "./review.js";
import { call, enter, postJSON, session, signIn, signOut } from "./session.js";
import { $, datePlaceholder, dateStyle, message, numericDate, say, setDateStyle } from "./util.js";
import { addressed, showView } from "./views.js";
import "./office.js";
import "./search.js";
import "./share.js";

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
// Once signed in, the focus is on the upload area, where work starts.
new MutationObserver(() => {
  if (!$("app").hidden && (document.activeElement === document.body || $("signin").contains(document.activeElement))) $("files").focus();
}).observe($("app"), { attributes: true, attributeFilter: ["hidden"] });

// The period filters are typed in the date style chosen.
function periodPlaceholders() { for (const id of ["docs-from", "docs-to"]) $(id).placeholder = datePlaceholder(); }
periodPlaceholders();
$("date-style").value = dateStyle;
$("date-style").addEventListener("change", () => {
  const typed = ["docs-from", "docs-to"].map((id) => periodInput(id));
  setDateStyle($("date-style").value);
  ["docs-from", "docs-to"].forEach((id, i) => { if (typed[i]) $(id).value = numericDate(typed[i]); });
  periodPlaceholders();
  loadDocuments(true);
  if (folder && folder.data) renderFolder();
  if (review) { renderTable(); refreshReview(); }
  say("Dates are now written " + $("date-style").selectedOptions[0].textContent + ".");
});

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
// route shows the view the address names, and the client's folder it
// names: the back button and a bookmark work as on any site.
function route() {
  if (!session) return;
  const { view, id } = addressed();
  if (!/^#\/(documents|clients|office)(\/|$)/.test(location.hash)) history.replaceState(null, "", "#/" + view);
  showView(view, location.hash);
  if (view === "clients" && id && (!folder || folder.id !== id)) openFolder(id);
  else if (view === "clients" && !id && folder) closeFolder();
}
document.addEventListener("passbook:signedin", route);
window.addEventListener("hashchange", () => {
  route();
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite && !session) openInvite(invite);
});
start();
