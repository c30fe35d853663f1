// The page's words and shapes, shared by every view: elements, plural
// words, dates in the date style chosen, amounts as accounts write them,
// the status line, the API's errors in plain words, and the download
// formats.
import { quotaMessage } from "./session.js";


export const $ = (id) => document.getElementById(id);
export const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
};

// ---- words ----
export const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;
export const pages = (n) => plural(n, "page");
// One date style across the page: day-month-year, month-day-year or ISO,
// chosen under the account (kept in this browser), by default the one the
// browser's language writes; Intl does the formatting.
export const dateStyles = { dmy: "en-GB", mdy: "en-US", iso: "en-CA" };
export function localeDateStyle() {
  const parts = new Intl.DateTimeFormat(undefined).formatToParts(new Date(2024, 1, 8)).map((p) => p.type).filter((t) => t !== "literal");
  if (parts[0] === "year") return "iso";
  return parts[0] === "month" ? "mdy" : "dmy";
}
export let dateStyle = localStorage.getItem("passbook_date_style") || localeDateStyle();
if (!dateStyles[dateStyle]) dateStyle = "mdy";
// setDateStyle chooses the page's date style, kept in this browser.
export function setDateStyle(s) {
  dateStyle = s;
  localStorage.setItem("passbook_date_style", s);
}
export const dateFormat = (opts) => new Intl.DateTimeFormat(dateStyles[dateStyle], opts);
export const localTime = (iso) => {
  const t = new Date(iso);
  if (dateStyle === "iso") return dateFormat({ year: "numeric", month: "2-digit", day: "2-digit" }).format(t) + " " + t.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  return dateFormat({ day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" }).format(t);
};
export const localDate = (ymd) => {
  if (!ymd) return "—";
  const [y, m, d] = ymd.split("-").map(Number);
  if (dateStyle === "iso") return ymd;
  return dateFormat({ day: "numeric", month: "short", year: "numeric" }).format(new Date(y, m - 1, d));
};
// numericDate writes a row's date for editing, in the page's date style;
// parseDate reads it back (ISO is always understood).
export const datePlaceholder = () => ({ dmy: "DD/MM/YYYY", mdy: "MM/DD/YYYY", iso: "YYYY-MM-DD" })[dateStyle];
export function numericDate(ymd) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(ymd || "")) return ymd || "";
  const [y, m, d] = ymd.split("-");
  return dateStyle === "iso" ? ymd : dateStyle === "dmy" ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}
export function parseDate(s) {
  s = s.trim();
  const two = (v) => String(v).padStart(2, "0");
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m) return `${m[1]}-${two(m[2])}-${two(m[3])}`;
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) return dateStyle === "mdy" ? `${m[3]}-${two(m[1])}-${two(m[2])}` : `${m[3]}-${two(m[2])}-${two(m[1])}`;
  return s;
}
export const monthLabel = (y, m) => (dateStyle === "iso" ? `${y}-${String(m).padStart(2, "0")}` : dateFormat({ month: "short", year: "numeric" }).format(new Date(y, m - 1, 1)));

// figure writes an amount as accounts do: grouped, two decimals, a true
// minus sign, and the currency when it is known. The amount is a decimal
// string; it is grouped as text, so no digit is lost to floating point.
export const groupFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const groupParts = groupFormat.formatToParts(1234.5);
export const groupSep = (groupParts.find((p) => p.type === "group") || { value: "," }).value;
export const decimalSep = (groupParts.find((p) => p.type === "decimal") || { value: "." }).value;
export function figure(s, cur) {
  if (s === null || s === undefined || s === "") return "not found";
  s = String(s);
  const neg = s.startsWith("-");
  let [i, f = ""] = s.replace(/^[-+]/, "").split(".");
  f = (f + "00").slice(0, Math.max(2, f.replace(/0+$/, "").length));
  i = i.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, groupSep);
  return (neg ? "−" : "") + i + decimalSep + f + (cur ? " " + cur : "");
}
// ibanText is an IBAN in its printed form: groups of four.
export const ibanText = (iban) => iban.replace(/(.{4})(?=.)/g, "$1 ");
export const period = (p) => (p === "day" ? "today" : "this " + p);

// say tells everyone something, screen readers included. News fades after
// a while so as not to cover the page; errors stay until the next message.
export let sayTimer = 0;
export function say(msg, isError = false) {
  const s = $("status");
  s.textContent = msg;
  s.classList.toggle("error", isError);
  clearTimeout(sayTimer);
  if (!isError) sayTimer = setTimeout(() => { if (s.textContent === msg) s.textContent = ""; }, 12000);
}

// messages turns an API error body into plain words. ctx carries what the
// page knows (the file's name and pages).
export function message(body, ctx = {}) {
  const code = body && body.code;
  const f = ctx.name ? `“${ctx.name}”` : "The file";
  switch (code) {
    case "missing_api_key": case "session_expired": return "You are signed out. Sign in again.";
    case "invalid_api_key": return "That API key is not valid, or it has been revoked. Check it with your administrator.";
    case "invalid_credentials": return "The e-mail address or the password is wrong.";
    case "csrf_failed": return "The request was refused as not coming from this page. Reload the page and try again.";
    case "too_many_failures": return "Too many failed sign-ins. Wait a few minutes, then try again.";
    case "weak_password": return "Choose a password of at least 10 characters.";
    case "invite_expired": return "This invitation has expired or was used already. Ask an owner of your office for a new one.";
    case "missing_file": case "empty_file": return `${f} is empty. Check the file and choose it again.`;
    case "too_many_files": return "Upload one file at a time.";
    case "unsupported_type": return `${f} is not a PDF or a picture Passbook can read. Use a PDF, PNG, JPEG, TIFF or WebP file.`;
    case "password_required": return `${f} is protected by a password. Enter it to convert the file.`;
    case "unreadable_file": return `${f} could not be read: it may be damaged. Open it on your computer, save or scan it again, and upload the new file.`;
    case "too_many_pages": return `${f} has more pages than this server converts in one file. Split it into smaller files.`;
    case "too_large": return `${f} is too large to convert: its pages or images expand past what this server reads.`;
    case "file_too_large": return /\.(png|jpe?g|tiff?|webp)$/i.test(ctx.name || "")
      ? `${f} is larger than this server accepts. Save or scan it at a lower resolution.`
      : `${f} is larger than this server accepts. Split it or scan it at a lower resolution.`;
    case "quota_exceeded": return quotaMessage(ctx.pages);
    case "not_ready": return "The document is still being converted. Try again in a moment.";
    case "document_failed": return `${f} could not be converted. Its pages were not charged.`;
    case "not_found": return "That document no longer exists. It may have been deleted.";
    case "forbidden": return (body && body.error) || "Your role in the office does not allow this.";
    case "invalid_transactions": return "The corrections could not be saved: " + (body.error || "a row is not valid.");
    case "storage_full": return "The server's disk is full. Tell your administrator; nothing was lost.";
    case "busy": return "The server is busy. Try again in a minute.";
    case "conversion_limit": return `${f} could not be converted: ${(body && body.error) || "it needed more time or memory than the server allows"}. Its pages were not charged.`;
    case "converter_crashed": return `${f} stopped the converter: it may be damaged. Save or scan it again and upload the new file.`;
    case "interrupted": return `The conversion of ${f} was interrupted too often. Upload it again.`;
    case "conversion_failed": return `${f} could not be converted. Its pages were not charged.`;
    case "no_such_page": return "That page does not exist in the document.";
    case "internal_error": return "Something went wrong on the server. Try again; if it keeps happening, tell your administrator.";
    case "network": return "The server could not be reached. Check the connection and try again.";
  }
  return (body && body.error) || "Something went wrong. Try again.";
}


// exportFormats are the download formats, for the review's "or as" list
// (which has buttons for the first three) and the folder's.
export const exportFormats = [
  ["xlsx", "Excel (a sheet per account)"], ["csv", "CSV"], ["json", "JSON"],
  ["ofx", "OFX"], ["qfx", "QFX (Quicken)"], ["qbo", "QBO (QuickBooks)"], ["qif", "QIF"],
  ["camt053", "CAMT.053 (ISO 20022)"], ["mt940", "MT940"],
  ["csv:xero", "CSV for Xero"], ["csv:quickbooks", "CSV for QuickBooks"], ["csv:excel-eu", "CSV for Excel (Europe)"],
];
