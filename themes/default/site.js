// curex default theme: progressive enhancement only. Pages work without
// this file; with it, the navigation folds into a drawer on small screens
// and the sidebar remembers which branches are open. Search is in
// search.js.
// No inline scripts: it runs under Content-Security-Policy script-src 'self'.
(function () {
  "use strict";

  // The open state of the sidebar's tree branches survives page changes.
  var side = document.getElementById("sidebar");
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

// Reader's tools, each a function of its own: the page's own table of
// contents closes on small screens; the navigation's drawer on small
// screens; a light/dark toggle in the header
// remembers the choice (theme.js applies it before the page is drawn); a
// copy button on each code block. Their words are data-* attributes of
// <body>, in the page's language. Without this file the page still works:
// the contents stay open, the system's theme applies, code can be selected.
(function () {
  "use strict";
  var words = document.body.dataset;
  var narrow = window.matchMedia && window.matchMedia("(max-width: 59.99rem)").matches;

  // pageContents closes the page's table of contents where it sits above
  // the content (narrow screens).
  function pageContents() {
    var d = document.getElementById("on-this-page");
    if (d && narrow) { d.open = false; }
  }

  // drawer: on screens narrower than 60rem the header's navigation
  // (#site-nav: search, switchers, the theme toggle) and the sidebar's
  // contents are one panel behind the header's button (.nav-toggle, a
  // disclosure: aria-expanded, aria-controls), closed until pressed. The
  // sidebar moves into the panel there and back beside the content on a
  // wide screen. Escape closes the panel and gives the focus back to the
  // button (when the search shows results, Escape closes those first, as
  // search.js does). site.css hides the panel only under the class "js"
  // that theme.js sets, so without scripts nothing is hidden.
  function drawer() {
    var b = document.querySelector(".nav-toggle");
    var nav = b && document.getElementById(b.getAttribute("aria-controls") || "");
    if (!nav) { return; }
    var side = document.querySelector(".sidebar");
    var home = side && side.parentNode;
    var mq = window.matchMedia ? window.matchMedia("(max-width: 59.99rem)") : null;
    function isOpen() { return b.getAttribute("aria-expanded") === "true"; }
    function set(open) {
      b.setAttribute("aria-expanded", open ? "true" : "false");
      nav.classList.toggle("site-nav--open", open);
    }
    function place() {
      var narrow = !!(mq && mq.matches);
      if (side && narrow && side.parentNode !== nav) {
        nav.appendChild(side);
        var d = side.querySelector("details");
        if (d) { d.open = true; }
      } else if (side && !narrow && side.parentNode === nav) {
        home.appendChild(side);
      }
      if (!narrow) { set(false); }
    }
    if (!side && !nav.querySelector("a, input, button, summary")) { return; }
    b.hidden = false;
    b.addEventListener("click", function () { set(!isOpen()); });
    document.addEventListener("keydown", function (ev) {
      if (ev.key !== "Escape" || !isOpen()) { return; }
      var results = document.getElementById("search-results");
      if (results && !results.hidden && nav.contains(results)) { return; }
      set(false);
      b.focus();
    }, true);
    if (mq && mq.addEventListener) { mq.addEventListener("change", place); }
    place();
  }

  // themeToggle adds a button whose pressed state says the dark theme is
  // shown; pressing it switches. A choice other than the system's setting
  // is kept in localStorage; choosing the system's again forgets it, so
  // the page follows the system from then on.
  function themeToggle() {
    var bar = document.querySelector(".site-header__bar");
    if (!bar || !words.darkTheme) { return; }
    var root = document.documentElement;
    var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
    function dark() {
      var t = root.getAttribute("data-theme");
      return t ? t === "dark" : !!(system && system.matches);
    }
    var b = document.createElement("button");
    b.type = "button";
    b.className = "theme-toggle";
    b.textContent = words.darkTheme;
    function show() { b.setAttribute("aria-pressed", dark() ? "true" : "false"); }
    b.addEventListener("click", function () {
      var t = dark() ? "light" : "dark";
      var same = (t === "dark") === !!(system && system.matches);
      if (same) { root.removeAttribute("data-theme"); } else { root.setAttribute("data-theme", t); }
      try {
        if (same) { window.localStorage.removeItem("curex-theme"); } else { window.localStorage.setItem("curex-theme", t); }
      } catch (e) { /* kept for this page only */ }
      show();
    });
    if (system && system.addEventListener) { system.addEventListener("change", show); }
    show();
    // In the drawer's panel (#site-nav) before the switchers, where there
    // is one: beside the search on a wide screen, in the drawer on a phone.
    var nav = document.getElementById("site-nav");
    if (nav && nav.parentNode === bar) {
      nav.insertBefore(b, nav.querySelector(":scope > .switchers"));
    } else {
      bar.appendChild(b);
    }
  }

  // copyButtons puts a button on each code block of the content. The
  // clipboard API needs a secure context, which file:// may not give: the
  // button then selects the code for the reader to copy. The outcome is
  // announced politely.
  function copyButtons() {
    if (!words.copy) { return; }
    document.querySelectorAll(".node__content pre > code").forEach(function (code) {
      var pre = code.parentNode;
      var box = document.createElement("div");
      box.className = "code-block";
      pre.parentNode.insertBefore(box, pre);
      box.appendChild(pre);
      var b = document.createElement("button");
      b.type = "button";
      b.className = "code-block__copy";
      b.textContent = words.copy;
      var status = document.createElement("span");
      status.className = "code-block__status";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      function selectCode() {
        var range = document.createRange();
        range.selectNodeContents(code);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        status.textContent = words.copySelect;
      }
      b.addEventListener("click", function () {
        status.textContent = "";
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(code.textContent).then(function () {
            status.textContent = words.copied;
          }, selectCode);
        } else {
          selectCode();
        }
      });
      box.appendChild(b);
      box.appendChild(status);
    });
  }

  pageContents();
  themeToggle();
  drawer();
  copyButtons();
})();
