// curex default theme: progressive enhancement only. Pages work without
// this file; with it, the sidebar closes on small screens and remembers
// which branches are open. Search is in search.js.
// No inline scripts: it runs under Content-Security-Policy script-src 'self'.
(function () {
  "use strict";

  // Sidebar: closed by default on small screens, where it sits above the
  // content; the open state of tree branches survives page changes.
  var side = document.getElementById("sidebar");
  if (side && window.matchMedia && window.matchMedia("(max-width: 59.99rem)").matches) {
    side.open = false;
  }
  var store = null;
  try { store = window.sessionStorage; } catch (e) { store = null; }
  var key = "curex-tree:" + location.pathname.replace(/[^/]*\/[^/]*$/, "");
  if (store && side) {
    var saved = {};
    try { saved = JSON.parse(store.getItem(key) || "{}"); } catch (e) { saved = {}; }
    side.querySelectorAll(".tree details").forEach(function (d) {
      var a = d.parentNode.querySelector(":scope > a");
      var id = a && a.getAttribute("href");
      if (!id) { return; }
      if (saved[id] === true && !d.open) { d.open = true; }
      d.addEventListener("toggle", function () {
        saved[id] = d.open;
        try { store.setItem(key, JSON.stringify(saved)); } catch (e) { /* full */ }
      });
    });
  }
})();
