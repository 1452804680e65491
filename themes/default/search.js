// curex default theme: the search box. Pages work without this file (the
// form leads to a contents page); with it, the box searches as you type.
// No inline scripts: it runs under Content-Security-Policy script-src 'self'.
//
// The indexes are scripts, loaded with <script> elements because fetch() is
// not allowed from file://. Each variant × locale has a small head
// (search-index.js: titles, types, paths), searched as soon as it is in,
// and chunks of text (search-body-N.js: every text attribute), loaded when
// a query is typed. A box may search several variants × locales (catalog
// and landing pages): their indexes load one after another, the reader's
// languages first (the page's, then the browser's), and results show as
// each arrives.
(function () {
  "use strict";

  var form = document.querySelector("form.search");
  if (!form) { return; }
  var input = form.querySelector("input[type=search]");
  var out = form.querySelector(".search__results");
  var across = form.classList.contains("search--across");
  var maxShown = 50;

  // norm folds case, compatibility forms (full-width letters, ligatures)
  // and Latin and Arabic diacritics, so "ecuacion" finds "Ecuación".
  var marks = /[\u0300-\u036f\u064b-\u065f\u0670]/g, ascii = /^[\x00-\x7f]*$/;
  function norm(s) {
    s = String(s || "");
    if (ascii.test(s)) { return s.toLowerCase(); }
    if (s.normalize) { s = s.normalize("NFKD").replace(marks, "").normalize("NFC"); }
    return s.toLowerCase();
  }

  // fold is norm with a map from each folded character back to its
  // offset in s, for snippets and highlights.
  function fold(s) {
    var f = "", at = [];
    for (var i = 0; i < s.length;) {
      var cp = s.codePointAt(i), ch = String.fromCodePoint(cp), n = norm(ch);
      for (var j = 0; j < n.length; j++) { at.push(i); }
      f += n;
      i += ch.length;
    }
    at.push(s.length);
    return { f: f, at: at };
  }

  // Scripts load once; each caller is told when its script is in (or
  // failed: the index then holds nothing).
  var scripts = {};
  function script(src, then) {
    var s = scripts[src];
    if (s) {
      if (s.done) { then(); } else { s.waiting.push(then); }
      return;
    }
    s = scripts[src] = { done: false, waiting: [then] };
    var el = document.createElement("script");
    el.src = src;
    el.onload = el.onerror = function () {
      s.done = true;
      var w = s.waiting;
      s.waiting = [];
      w.forEach(function (f) { f(); });
    };
    document.head.appendChild(el);
  }

  // The reader's languages: the page's, then the browser's.
  var prefs = [document.documentElement.lang].concat(navigator.languages || [navigator.language || ""])
    .filter(Boolean).map(function (l) { return l.toLowerCase(); });
  function langRank(lang) {
    lang = String(lang || "").toLowerCase();
    var primary = lang.split("-")[0];
    for (var i = 0; i < prefs.length; i++) {
      if (prefs[i] === lang) { return 2 * i; }
      if (prefs[i].split("-")[0] === primary) { return 2 * i + 1; }
    }
    return 2 * prefs.length;
  }

  // The indexes searched: listed in the page (one variant × locale), or
  // in a script beside it (catalog and landing pages), loaded on first use.
  var sources = [];
  function addSources(list) {
    list.forEach(function (d) {
      sources.push({
        key: d.key, index: d.index, base: d.base || "", lang: d.lang || "", from: d.from || "",
        order: sources.length, rank: langRank(d.lang), nodes: null, labels: [], body: []
      });
    });
    sources.sort(function (a, b) { return a.rank - b.rank || a.order - b.order; });
  }
  addSources(Array.prototype.map.call(form.querySelectorAll(".search__sources li"), function (li) { return li.dataset; }));
  var listed = !form.dataset.sources;
  function ready(then) {
    if (listed) { then(); return; }
    script(form.dataset.sources, function () {
      if (!listed) {
        listed = true;
        addSources((window.curexSearchSources || {})[form.dataset.sourcesKey] || []);
      }
      then();
    });
  }

  // head loads a source's head file and prepares its nodes.
  function head(src, then) {
    if (src.nodes) { then(); return; }
    script(src.index, function () {
      if (!src.nodes) {
        var h = (window.curexSearch || {})[src.key] || { nodes: [], labels: [], body: [] };
        src.labels = h.labels || [];
        src.body = (h.body || []).map(function (file) { return { file: file, ready: false }; });
        src.nodes = h.nodes.map(function (r) {
          return { title: r[0], type: r[1], path: r[2], lang: r[3] || "", t: norm(r[0]), ty: norm(r[1]), fields: null, text: "" };
        });
      }
      then();
    });
  }

  // chunk loads chunk c of a source and gives each of its nodes its
  // fields; then receives the range of nodes it holds.
  function chunk(src, c, then) {
    var b = src.body[c];
    script(src.base + b.file, function () {
      var data = (window.curexSearchBody || {})[src.key + "#" + c] || { first: 0, nodes: [] };
      if (!b.ready) {
        b.ready = true;
        data.nodes.forEach(function (row, k) {
          var n = src.nodes[data.first + k];
          if (!n) { return; }
          n.fields = [];
          for (var i = 0; i + 1 < row.length; i += 2) {
            n.fields.push({ label: src.labels[row[i]] || "", text: String(row[i + 1]) });
          }
          n.text = norm(n.fields.map(function (f) { return f.text; }).join("\n"));
        });
      }
      then(data.first, data.nodes.length);
    });
  }

  // score is a node's rank for terms, 0 when a term is missing: a term in
  // the title counts most (more at its start), then in the type, then in
  // any other field, once the node's fields are in.
  function score(n, terms) {
    var s = 0;
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i], at = n.t.indexOf(t);
      if (at >= 0) { s += at === 0 ? 15 : 10; continue; }
      if (n.ty.indexOf(t) >= 0) { s += 3; continue; }
      if (n.text.indexOf(t) >= 0) { s += 1; continue; }
      return 0;
    }
    return s;
  }

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) { n.className = cls; }
    if (text) { n.textContent = text; }
    return n;
  }

  // highlight appends text to parent with every term marked (<mark>).
  function highlight(parent, text, terms) {
    var x = fold(text), marks = [];
    terms.forEach(function (t) {
      for (var at = x.f.indexOf(t); at >= 0; at = x.f.indexOf(t, at + t.length)) {
        marks.push([x.at[at], x.at[at + t.length]]);
      }
    });
    marks.sort(function (a, b) { return a[0] - b[0]; });
    var pos = 0;
    marks.forEach(function (m) {
      if (m[0] < pos) { return; }
      if (m[0] > pos) { parent.appendChild(document.createTextNode(text.slice(pos, m[0]))); }
      parent.appendChild(el("mark", "", text.slice(m[0], m[1])));
      pos = m[1];
    });
    if (pos < text.length) { parent.appendChild(document.createTextNode(text.slice(pos))); }
  }

  // snippet is the part of a node's fields around the first term found:
  // { label, text }, the text cut at word ends with "…". The field shown
  // is the one that holds the most terms, a short one (a vocabulary term,
  // a standard) before a long one (the description) when they tie.
  function snippet(n, terms) {
    if (!n.fields || !n.fields.length) { return null; }
    var best = null;
    n.fields.forEach(function (f) {
      var folded = norm(f.text), found = 0, first = -1;
      terms.forEach(function (t) {
        var at = folded.indexOf(t);
        if (at >= 0) { found++; if (first < 0 || at < first) { first = at; } }
      });
      if (found && (!best || found > best.found || found === best.found && f.text.length < best.f.text.length)) {
        best = { f: f, found: found };
      }
    });
    if (!best) { return { label: n.fields[0].label, text: cut(n.fields[0].text, 0) }; }
    var x = fold(best.f.text), at = -1;
    terms.forEach(function (t) {
      var i = x.f.indexOf(t);
      if (i >= 0 && (at < 0 || x.at[i] < at)) { at = x.at[i]; }
    });
    return { label: best.f.label, text: cut(best.f.text, Math.max(at, 0)) };
  }

  // cut is about 160 characters of text around offset at, cut at spaces.
  function cut(text, at) {
    var lo = Math.max(0, at - 60), hi = Math.min(text.length, at + 100);
    if (lo > 0) { var sp = text.indexOf(" ", lo); lo = sp >= 0 && sp < at ? sp + 1 : lo; }
    if (hi < text.length) { var e = text.lastIndexOf(" ", hi); hi = e > at ? e : hi; }
    return (lo > 0 ? "…" : "") + text.slice(lo, hi) + (hi < text.length ? "…" : "");
  }

  function count(n) {
    if (n === 0) { return form.dataset.noResults; }
    if (n === 1) { return form.dataset.resultOne || "1"; }
    return (form.dataset.results || "%d").replace("%d", n);
  }

  // The results: a status line (read out by screen readers as it
  // changes) and the list, both kept and refilled.
  var status = el("p", "result__count"), list = el("ul");
  status.setAttribute("role", "status");
  out.textContent = "";
  out.appendChild(status);
  out.appendChild(list);

  // A query's state: its terms, its hits by node, and whether every
  // index it searches is in. A newer query makes an older one stale.
  var current = null;

  function show(q) {
    var hits = q.hits.slice();
    hits.sort(function (a, b) {
      return a.src.rank - b.src.rank || b.score - a.score || a.src.order - b.src.order || a.i - b.i;
    });
    out.hidden = false;
    // For scripts that drive the page (tests, benchmarks): the query
    // shown, and whether every index it searches is in.
    out.dataset.query = q.text;
    out.dataset.state = q.done ? "done" : "loading";
    var msg = q.cut ? (form.dataset.resultsMany || "%d").replace("%d", hits.length) : count(hits.length);
    if (!q.done) { msg = form.dataset.loading + (hits.length ? " " + msg : ""); }
    if (status.textContent !== msg) { status.textContent = msg; }
    // The list is rebuilt as indexes come in: a result that has the focus
    // keeps it.
    var focused = list.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    list.textContent = "";
    list.hidden = !hits.length;
    hits.slice(0, maxShown).forEach(function (h) {
      var n = h.n, li = el("li"), a = el("a");
      li.lang = n.lang || h.src.lang;
      a.href = h.src.base + n.path;
      a.appendChild(el("span", "result__type", n.type));
      a.appendChild(el("bdi", "result__title", n.title));
      if (across && h.src.from) {
        var from = el("span", "result__from", h.src.from);
        from.lang = document.documentElement.lang;
        a.appendChild(from);
      }
      if (h.snipOf !== n.fields) { h.snip = snippet(n, q.terms); h.snipOf = n.fields; }
      var s = h.snip;
      if (s) {
        var p = el("span", "result__text");
        p.dir = "auto";
        if (s.label) { p.appendChild(el("span", "result__label", s.label + ": ")); }
        highlight(p, s.text, q.terms);
        a.appendChild(p);
      }
      li.appendChild(a);
      list.appendChild(li);
      if (focused !== null && a.getAttribute("href") === focused) { a.focus(); focused = null; }
    });
  }

  // consider scores nodes lo..hi-1 of src for query q.
  function consider(q, src, lo, hi) {
    for (var i = lo; i < hi; i++) {
      var n = src.nodes[i], s = score(n, q.terms), id = src.key + "#" + i, h = q.byID[id];
      if (!s) { continue; }
      if (h) { h.score = s; continue; }
      h = q.byID[id] = { src: src, n: n, i: i, score: s };
      q.hits.push(h);
    }
  }

  function search(text) {
    var terms = norm(text).split(/\s+/).filter(Boolean);
    if (!terms.length) { current = null; out.hidden = true; return; }
    var q = current = { text: text, terms: terms, hits: [], byID: {}, done: false };
    var k = 0;
    function next() {
      if (q !== current) { return; }
      if (k >= sources.length) { q.done = true; show(q); return; }
      var src = sources[k++];
      // Results sort by language first: once a page of them is found,
      // an index in a language ranked below them all could add none that
      // shows. The rest are left unloaded (a catalog may list thousands).
      if (q.hits.length >= maxShown && q.hits.every(function (h) { return h.src.rank < src.rank; })) {
        q.done = q.cut = true;
        show(q);
        return;
      }
      head(src, function () {
        if (q !== current) { return; }
        // Titles and types first; the fields as their chunks come in.
        consider(q, src, 0, src.nodes.length);
        show(q);
        var left = src.body.length;
        if (!left) { next(); return; }
        src.body.forEach(function (b, c) {
          chunk(src, c, function (first, n) {
            if (q !== current) { return; }
            consider(q, src, first, first + n);
            show(q);
            if (--left === 0) { next(); }
          });
        });
      });
    }
    ready(next);
  }

  function run() { search(input.value); }

  input.addEventListener("focus", function () {
    ready(function () { if (sources.length) { head(sources[0], function () {}); } });
  });
  input.addEventListener("input", run);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
  form.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { out.hidden = true; input.focus(); }
    // Arrows move between the input and the results.
    if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && !out.hidden) {
      var links = Array.prototype.slice.call(out.querySelectorAll("a")), i = links.indexOf(document.activeElement);
      if (ev.key === "ArrowDown" && i < links.length - 1) { ev.preventDefault(); links[i + 1].focus(); }
      if (ev.key === "ArrowUp" && i >= 0) { ev.preventDefault(); (i > 0 ? links[i - 1] : input).focus(); }
    }
  });
  document.addEventListener("click", function (ev) {
    if (!form.contains(ev.target)) { out.hidden = true; }
  });
  var params = new URLSearchParams(location.search);
  if (params.get("q")) { input.value = params.get("q"); run(); }
})();
