// The session: sign-in with e-mail and password, the member's session
// behind an HttpOnly cookie (the page holds only its CSRF token, in
// memory), every API request, and the account's quota. Signing in and out
// tells the views with the events passbook:signedin and
// passbook:signedout.
import { loadDocuments } from "./documents.js";
import { closeFolder, loadFolders } from "./folders.js";
import { closeReview } from "./review.js";
import { $, localTime, message, pages, period, plural, say } from "./util.js";

// ---- session and API ----
// The page signs in with e-mail and password. The server keeps the session
// behind an HttpOnly cookie that this script cannot read; the page holds
// only the session's CSRF token, in memory, and stores nothing. Every
// request goes through api() (uploads, through authHeaders()), which sends
// the token with every method that changes something.
export let session = null; // {email, role, member_id, office: {id, name, plan}, csrf_token}
export let user = null;

export function authHeaders(method) {
  const m = (method || "GET").toUpperCase();
  return session && m !== "GET" && m !== "HEAD" ? { "X-CSRF-Token": session.csrf_token } : {};
}

export function api(path, opts = {}) {
  opts.headers = Object.assign(authHeaders(opts.method), opts.headers || {});
  opts.credentials = "same-origin";
  return fetch("api/v1/" + path, opts);
}

// postJSON sends a JSON body with a method that changes something.
export function postJSON(path, method, value) {
  return call(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });
}

// call does an API request and returns {ok, status, body}; a network
// failure is {ok:false, body:{code:"network"}}.
export async function call(path, opts) {
  let r;
  try { r = await api(path, opts); } catch { return { ok: false, status: 0, body: { code: "network" } }; }
  let body = null;
  if ((r.headers.get("Content-Type") || "").startsWith("application/json")) body = await r.json();
  if (r.status === 401 && session) { signedOut(); say(message(body), true); }
  return { ok: r.ok, status: r.status, body, r };
}

export function quotaMessage(need) {
  if (!user) return "Your page quota is used up.";
  const q = user.quota;
  const left = q.remaining + user.credits;
  const want = need ? `This file has ${pages(need)}, but ` : "";
  const have = left > 0 ? `only ${pages(left)} ${left === 1 ? "is" : "are"} left` : "no pages are left";
  return `${want}${have} ${period(q.period)}. Your quota resets ${localTime(q.resets_at)}. An administrator can add credits or change your plan.`;
}

export async function loadUser() {
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

export async function signIn(email, password) {
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
export async function enter(body) {
  session = body;
  $("signin").hidden = true;
  $("invite").hidden = true;
  $("app").hidden = false;
  $("views").hidden = false;
  document.body.dataset.role = session.role;
  $("upload").hidden = session.role === "read_only";
  await loadUser();
  say(`Signed in as ${session.email} (${session.role.replace("_", "-")}) at ${session.office.name}.`);
  document.dispatchEvent(new CustomEvent("passbook:signedin", { detail: session }));
  loadDocuments(true);
  loadFolders();
}

export async function signOut(everywhere) {
  await postJSON("signout", "POST", { everywhere: !!everywhere });
  signedOut();
}

// signedOut clears the page once the session is over.
export function signedOut() {
  session = null; user = null;
  delete document.body.dataset.role;
  $("app").hidden = true;
  $("views").hidden = true;
  $("signin").hidden = false;
  $("uploads").replaceChildren();
  $("docs").replaceChildren();
  $("folder-list").replaceChildren();
  closeFolder();
  closeReview();
  document.dispatchEvent(new CustomEvent("passbook:signedout"));
  $("email").focus();
}

