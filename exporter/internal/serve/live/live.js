// curex dev: reloads this page when the site is rebuilt, and shows a
// failed build over it. Served by `curex dev` only, never written to the
// output folder.
(function () {
  "use strict";
  var seen = null;
  var box = null;
  function show(message) {
    if (!box) {
      box = document.createElement("div");
      box.id = "curex-live-overlay";
      box.setAttribute("role", "alert");
      var title = document.createElement("strong");
      title.textContent = "curex dev: the last change did not build. The site shown is the last good one.";
      box.appendChild(title);
      box.appendChild(document.createElement("pre"));
      document.body.appendChild(box);
    }
    box.querySelector("pre").textContent = message;
  }
  function hide() {
    if (box) {
      box.remove();
      box = null;
    }
  }
  var events = new EventSource("/.curex-live/events");
  events.addEventListener("hello", function (e) {
    var gen = JSON.parse(e.data).gen;
    if (seen !== null && gen !== seen) {
      location.reload();
      return;
    }
    seen = gen;
  });
  events.addEventListener("reload", function () {
    location.reload();
  });
  events.addEventListener("failed", function (e) {
    show(JSON.parse(e.data).message);
  });
  events.addEventListener("ok", hide);
})();
