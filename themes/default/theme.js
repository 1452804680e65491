// curex default theme: applies the reader's choice of a light or dark theme,
// which the toggle of site.js keeps in localStorage, before the page is
// drawn, so that it never shows in the system's theme first. It is loaded
// without defer in <head> (no inline scripts: Content-Security-Policy
// script-src 'self'). Without it, or with no choice kept, the system
// setting applies (prefers-color-scheme in site.css).
// It also marks <html> with the class "js" before the page is drawn, so
// that site.css folds the phone's navigation into its drawer (site.js
// drives the button) without a jump; without scripts the class is absent
// and the navigation stays in the page.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  try {
    var t = window.localStorage.getItem("curex-theme");
    if (t === "light" || t === "dark") {
      document.documentElement.setAttribute("data-theme", t);
    }
  } catch (e) { /* storage refused: the system setting applies */ }
})();
