// curex default theme: applies the reader's choice of a light or dark theme,
// which the toggle of site.js keeps in localStorage, before the page is
// drawn, so that it never shows in the system's theme first. It is loaded
// without defer in <head> (no inline scripts: Content-Security-Policy
// script-src 'self'). Without it, or with no choice kept, the system
// setting applies (prefers-color-scheme in site.css).
(function () {
  "use strict";
  try {
    var t = window.localStorage.getItem("curex-theme");
    if (t === "light" || t === "dark") {
      document.documentElement.setAttribute("data-theme", t);
    }
  } catch (e) { /* storage refused: the system setting applies */ }
})();
