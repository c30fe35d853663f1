// The page's views, each with an address that the back button and a
// bookmark keep: Documents (#/documents: upload, the documents, a review),
// Clients (#/clients, and #/clients/FOLDER_ID for one client's folder) and
// Office (#/office: links, members, the trail). A section belongs to the
// views its data-view names; the others are not drawn.
import { $ } from "./util.js";

export const views = ["documents", "clients", "office"];

// currentView is the view shown.
export const currentView = () => document.body.dataset.view || "documents";

// showView shows view; address, when given, becomes the page's address
// (a new entry in the history when it changes). Each view keeps its
// place: its link in the bar goes back to the address it last had (the
// client's folder open in Clients, say).
export function showView(view, address) {
  document.body.dataset.view = view;
  const want = address || (location.hash.startsWith("#/" + view + "/") ? location.hash : "#/" + view);
  for (const a of $("views").querySelectorAll("a")) {
    if (a.dataset.view === view) {
      a.setAttribute("aria-current", "page");
      a.setAttribute("href", want);
    } else a.removeAttribute("aria-current");
  }
  if (location.hash !== want) history.pushState(null, "", want);
}

// addressed is the view and the id the address names (the Documents view
// when it names none).
export function addressed() {
  const [v, id] = location.hash.replace(/^#\/?/, "").split("/");
  return { view: views.includes(v) ? v : "documents", id: id ? decodeURIComponent(id) : "" };
}
