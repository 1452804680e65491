// curex default theme: the search box. Pages work without this file (the
// form leads to a contents page); with it, the box searches as you type.
// No inline scripts: it runs under Content-Security-Policy script-src 'self'.
//
// The indexes are scripts, loaded with <script> elements because fetch() is
// not allowed from file://. Each variant × locale has a small head
// (search-index.js: titles, types, paths), searched as soon as it is in;
// its terms (every word's stem with the nodes and fields that hold it),
// split by the start of the stems into shards (search-terms.js and
// search-terms-<hex of the prefix>.js, the plan in the head), of which a
// query loads those of its words only, with the stemmer of its language
// (assets/stem/<lang>.<hash>.js, the same Snowball program the build
// stemmed the index with); and chunks of text (search-body-N.js: every
// text attribute), loaded for the results shown (their snippets) or,
// all of them, for a query with a substring term. A box may search several variants × locales (catalog and
// landing pages): it reads first the shards of the site's search
// directory (search-dir.<lang>.js: which indexes hold each stem, and in
// which field at best) that its query's words need, then loads the
// indexes that can hold a match only, the reader's languages first (the
// page's, then the browser's), then those whose best can rank highest,
// one, then two, then four side by side, until the results shown are
// ones no index left can outrank; results show as each arrives; one lesson found in several variants is one result that
// lists them, and the results can be narrowed by variant, language and
// type. A contents or node page searches its own variant × locale; a
// link after its results widens the search to the curriculum's landing
// page (every variant × locale of it) with the same query.
//
// A word of a query matches the index's words with the same stem
// ("solving" finds "solve" and "solves"), the words it begins (as it is
// typed), and, from five letters on, the words one edit away ("equasion"
// finds "equation"). A term with no word boundaries inside (Chinese,
// Japanese) or with punctuation in it (a standard's code) is found as a
// substring of the text, read only of the nodes whose terms hold its
// keys (keysOf: pairs of CJK characters, a code's inner words). A term in a title counts most, then in the
// objectives, standards and vocabulary, then in the type, then in the
// body text.
(function () {
  "use strict";

  var form = document.querySelector("form.search");
  if (!form) { return; }
  var input = form.querySelector("input[type=search]");
  var out = form.querySelector(".search__results");
  var across = form.classList.contains("search--across");
  var maxShown = 50;
  // The first maxSnippets results show a snippet of their text, whose
  // chunk is loaded for them; the others show one when their chunk is in.
  var maxSnippets = 10;

  // norm folds case, compatibility forms (full-width letters, ligatures)
  // and Latin and Arabic diacritics, so "ecuacion" finds "Ecuación".
  var marks = /[\u0300-\u036f\u064b-\u065f\u0670]/g, ascii = /^[\x00-\x7f]*$/;
  function norm(s) {
    s = String(s || "");
    if (ascii.test(s)) { return s.toLowerCase(); }
    if (s.normalize) { s = s.normalize("NFKD").replace(marks, "").normalize("NFC"); }
    return s.toLowerCase();
  }

  // words cuts folded text into words as the index's builder does
  // (terms.Words): runs of letters, marks and numbers, less those with a
  // Chinese, Japanese or Korean character.
  var wordRe = /[\p{L}\p{M}\p{N}]+/gu;
  var cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  var digit = /\p{N}/u;
  function words(f) {
    return (f.match(wordRe) || []).filter(function (w) { return !cjk.test(w); });
  }

  // keysOf returns the keys the index holds for a substring term (a
  // node that holds the term holds them all): each character of a run
  // with a CJK character, as "~", the low byte of its code point in two
  // hexadecimal digits and the character (terms.GramKey), and the words
  // of a code between its punctuation ("rei" and "d" of "hsa.rei.d.11":
  // its first and last may be parts of words). None: every node may hold
  // the term.
  function keysOf(t) {
    var runs = t.match(wordRe) || [], keys = [];
    runs.forEach(function (r, j) {
      if (cjk.test(r)) {
        Array.from(r).forEach(function (c) {
          keys.push("~" + ("0" + (c.codePointAt(0) & 255).toString(16)).slice(-2) + c);
        });
      } else if (j > 0 && j < runs.length - 1) {
        keys.push(r);
      }
    });
    return keys;
  }

  // stem is the stem of a folded word in lang, by the stemmer the index
  // was built with (terms.Stemmer.Stem): words with a digit or of fewer
  // than three letters, and a character's key (keysOf), are their own.
  function stem(lang, w) {
    var fn = lang && window.curexStem && window.curexStem[lang];
    if (!fn || digit.test(w) || Array.from(w).length < 3 || w.charAt(0) === "~") { return w; }
    try { return fn(w) || w; } catch (e) { return w; }
  }

  // edit1 tells whether a and b are at most one edit apart: a letter
  // added, removed, changed, or two neighbours swapped.
  function edit1(a, b) {
    if (a === b) { return true; }
    var la = a.length, lb = b.length;
    if (la - lb > 1 || lb - la > 1) { return false; }
    var i = 0;
    while (i < la && i < lb && a[i] === b[i]) { i++; }
    if (la === lb) {
      return a.slice(i + 1) === b.slice(i + 1) ||
        a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
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

  // The indexes searched: listed in the page (one variant × locale), or,
  // on the catalog and landing pages, in the pages of the site's list
  // that a query needs (a catalog may list thousands): see ready and
  // plan.
  var sources = [];
  function addSources(list) {
    list.forEach(function (d) {
      var g = d.group === undefined ? -1 : Number(d.group);
      sources.push({
        key: d.key, index: d.index, base: d.base || "", lang: d.lang || "", from: d.from || "",
        variant: d.variant || "", language: d.language || "", id: Number(d.id) || 0,
        group: dirs[g] || null, kinds: d.kinds || "",
        order: d.id === undefined ? sources.length : d.id, rank: langRank(d.lang), nodes: null, labels: [], body: [], terms: null
      });
    });
    sources.sort(function (a, b) { return a.rank - b.rank || a.order - b.order; });
  }

  // The list of a catalog or landing page (search-sources.js, beside it):
  // the directory's groups, the ids of the indexes searched (first,
  // count), the ids the directory does not hold (loose) and the types
  // of each (kinds), as ranges, and where the pages that list the
  // indexes are (pages: page k holds ids k × per to (k + 1) × per - 1).
  var siteList = null, paged = {};
  function inRanges(ranges, id) {
    for (var i = 0; i + 1 < ranges.length; i += 2) {
      if (id >= ranges[i] && id < ranges[i] + ranges[i + 1]) { return true; }
    }
    return false;
  }
  function eachInRanges(ranges, f) {
    for (var i = 0; i + 1 < ranges.length; i += 2) {
      for (var id = ranges[i]; id < ranges[i] + ranges[i + 1]; id++) { f(id); }
    }
  }

  // loadPage loads page k of the site's list and adds the indexes of it
  // that the box searches.
  function loadPage(k, then) {
    var name = siteList.pages + k + ".js";
    script(name, function () {
      if (!paged[k]) {
        paged[k] = true;
        var data = (window.curexSearchSourcesPage || {})["search-sources-" + k + ".js"] || { first: 0, sources: [] }, add = [];
        data.sources.forEach(function (e, j) {
          var id = data.first + j;
          if (id < siteList.first || id >= siteList.first + siteList.count) { return; }
          var key = String(e[0]), c = String(e[3]), v = String(e[4]), language = String(e[5]), kinds = "";
          var variant = !v ? c + " (" + siteList.base + ")" : siteList.named ? c + " · " + v : v;
          (siteList.kinds || []).forEach(function (kd) { if (inRanges(kd.ids, id)) { kinds = kd.kinds; } });
          add.push({
            key: key, index: siteList.root + key + "/search-index.js", base: siteList.root + key + "/", lang: String(e[1]),
            from: siteList.from.replace("\u0001", variant).replace("\u0002", language), variant: variant, language: language,
            id: id, group: Number(e[2]), kinds: kinds
          });
        });
        addSources(add);
      }
      then();
    });
  }
  // The site's search directory, one group a stemming language: for each
  // stem, the indexes that hold it (each posting an index's id, with the
  // best field class it holds the stem in), in shards as an index's
  // terms are, read by the same code (a group is shaped as a source's
  // terms). A box that searches several indexes reads its query's
  // shards of the directory first, then loads the indexes that can hold
  // a match only (plan).
  var dirs = [];
  function addDirs(list) {
    list.forEach(function (d) {
      var g = { key: d.key, termsBase: d.dir, base: "", global: "curexSearchDir", plan: {}, shards: {},
        stem: d.stem_file ? d.stem || "" : "", stemFile: d.stem_file || "", terms: null };
      (d.shards || [""]).forEach(function (p) { g.plan[p] = true; });
      dirs.push(g);
    });
  }
  addSources(Array.prototype.map.call(form.querySelectorAll(".search__sources li"), function (li) { return li.dataset; }));
  var listed = !form.dataset.sources;
  function ready(then) {
    if (listed) { then(); return; }
    script(form.dataset.sources, function () {
      if (!listed) {
        listed = true;
        siteList = (window.curexSearchSources || {})[form.dataset.sourcesKey] || { groups: [], count: 0 };
        addDirs(siteList.groups || []);
      }
      then();
    });
  }

  // head loads a source's head file and prepares its nodes.
  function head(src, then) {
    if (src.nodes) { then(); return; }
    script(src.index, function () {
      if (!src.nodes) {
        var h = (window.curexSearch || {})[src.key] || { labels: [], body: [] };
        src.labels = h.labels || [];
        src.termsBase = h.terms || "";
        src.plan = {};
        (h.shards || [""]).forEach(function (p) { src.plan[p] = true; });
        src.shards = {};
        src.stem = h.stem_file ? h.stem || "" : "";
        src.stemFile = h.stem_file || "";
        src.ranked = {};
        (h.rank || []).forEach(function (i) { src.ranked[i] = true; });
        var firsts = h.body_first || [];
        src.body = (h.body || []).map(function (file, c) { return { file: file, first: firsts[c] || 0, ready: false }; });
        src.titles = (h.titles || []).map(function (file) { return { file: file, ready: false }; });
        src.titleNodes = h.title_nodes || 64;
        // A node's title, type and page come with its title file; its
        // type's name is in the head (one character a node).
        var types = h.types || [], typeOf = String(h.type_of || ""), kinds = types.map(norm);
        src.nodes = [];
        for (var i = 0; i < (h.count || 0); i++) {
          var ti = typeOf.charCodeAt(i) - 48;
          src.nodes.push({ title: null, type: "", kind: types[ti] || "", k: kinds[ti] || "", path: "", lang: "", t: "", ty: "", fields: null, text: "", rtext: "" });
        }
      }
      then();
    });
  }

  // titleFile loads title file c of a source and gives each of its nodes
  // its title, type and page.
  function titleFile(src, c, then) {
    var b = src.titles[c];
    script(src.base + b.file, function () {
      if (!b.ready) {
        b.ready = true;
        var data = (window.curexSearchTitles || {})[src.key + "#" + c] || { first: 0, nodes: [] };
        data.nodes.forEach(function (r, k) {
          var n = src.nodes[data.first + k];
          if (!n) { return; }
          n.title = r[0]; n.type = r[1]; n.path = r[2]; n.lang = r[3] || ""; n.t = norm(r[0]); n.ty = norm(r[1]);
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
          var body = [], ranked = [];
          for (var i = 0; i + 1 < row.length; i += 2) {
            n.fields.push({ label: src.labels[row[i]] || "", text: String(row[i + 1]) });
            (src.ranked[row[i]] ? ranked : body).push(String(row[i + 1]));
          }
          n.text = norm(body.join("\n"));
          n.rtext = norm(ranked.join("\n"));
        });
      }
      then(data.first, data.nodes.length);
    });
  }

  // shardOf is the prefix of the shard of src's terms that holds key:
  // the longest prefix of the plan key begins with (package shard's Of).
  function shardOf(src, key) {
    for (var cs = Array.from(key); cs.length; cs.pop()) {
      if (src.plan[cs.join("")]) { return cs.join(""); }
    }
    return "";
  }

  // shardFile is the terms file of prefix p (shard.File).
  function shardFile(src, p) {
    if (!p) { return src.termsBase + ".js"; }
    var hex = "";
    new TextEncoder().encode(p).forEach(function (b) { hex += (b < 16 ? "0" : "") + b.toString(16); });
    return src.termsBase + "-" + hex + ".js";
  }

  // maxWithin is how many shards a word's prefix matching may load: a
  // word of one or two letters that begins a large part of the terms
  // finds its prefixes once more of it is typed (shard.MaxWithin).
  var maxWithin = 4;

  // needShards returns the prefixes of the shards of src that the words
  // of q need, by the rule of shard.Need: each word's and its stem's
  // (exact, stem and typo matches), and those of the words it begins
  // when they are few.
  function needShards(src, q) {
    var need = {};
    q.terms.forEach(function (t) {
      if (!t.word) {
        t.keys.forEach(function (k) { need[shardOf(src, stem(src.stem, k))] = true; });
        return;
      }
      var w = t.text;
      need[shardOf(src, w)] = true;
      need[shardOf(src, stem(src.stem, w))] = true;
      if (Array.from(w).length < 2) { return; }
      var within = Object.keys(src.plan).filter(function (p) { return p.length > w.length && p.lastIndexOf(w, 0) === 0; });
      if (within.length <= maxWithin) { within.forEach(function (p) { need[p] = true; }); }
    });
    return Object.keys(need);
  }

  // wide tells whether word w begins the stems of more shards of src
  // than a query loads (maxWithin): the words it begins are then not
  // all in, and what src's terms say of w is not all there is.
  function wide(src, w) {
    return Object.keys(src.plan).filter(function (p) { return p.length > w.length && p.lastIndexOf(w, 0) === 0; }).length > maxWithin;
  }

  // addShard merges the terms of shard p, once in, into src.terms:
  // postings decoded (each the distance from the node before × 16 + the
  // body's length class × 4 + the field class; kept as node × 16 +
  // length × 4 + field) and the words each stem stands for.
  var shardsIn = 0;
  function addShard(src, p) {
    if (src.shards[p]) { return; }
    src.shards[p] = true;
    shardsIn++;
    var d = (window[src.global || "curexSearchTerms"] || {})[src.key + " " + p] || {};
    var t = d.terms || {}, w = d.words || {};
    src.terms = src.terms || { posts: {}, surf: [] };
    Object.keys(t).forEach(function (k) {
      var prev = -1, posts = t[k].map(function (v) { prev += v >> 4; return prev * 16 + (v & 15); });
      src.terms.posts[k] = posts;
      src.terms.surf.push([k, k]);
      if (w[k]) { w[k].split(" ").forEach(function (s) { src.terms.surf.push([s, k]); }); }
    });
  }

  // loadStem loads the stemmer of a source's language.
  function loadStem(src, then) {
    if (src.stem) { script(src.base + src.stemFile, then); } else { then(); }
  }

  // loadTerms loads the stemmer of a source's language, then the shards
  // of its terms that query q needs.
  function loadTerms(src, q, then) {
    if (!src.termsBase) { then(); return; }
    loadStem(src, function () {
      var need = needShards(src, q), left = need.length + 1;
      src.terms = src.terms || { posts: {}, surf: [] };
      function done() { if (--left === 0) { then(); } }
      need.forEach(function (p) {
        script(src.base + shardFile(src, p), function () { addShard(src, p); done(); });
      });
      done();
    });
  }

  // The weights of a term by where it is found, and by how: its stem,
  // a word it begins, a word one edit away.
  // A term found in the body only weighs less the longer the body
  // (its length class, 0 to 3): long texts hold more words, not more of
  // what was asked.
  // A word of one letter matches the title words it begins only
  // (titlePrefix).
  var classWeight = [0, 2, 6, 10], exact = 1, near = 0.8, prefix = 0.6, titlePrefix = 0.59, typo = 0.4;
  var lengthWeight = [1, 0.85, 0.7, 0.55];

  // matchWord returns, for word w of a query, the best weight of each
  // node of src that holds it (by node index), from the source's terms.
  function matchWord(src, w) {
    var best = {}, T = src.terms, st = stem(src.stem, w), stems = {};
    function take(k, quality) { if (!stems[k] || stems[k] < quality) { stems[k] = quality; } }
    if (T.posts[st]) { take(st, exact); }
    if (T.posts[w]) { take(w, exact); }
    var long = Array.from(w).length >= 5, short = Array.from(w).length < 2;
    T.surf.forEach(function (p) {
      var s = p[0];
      if (s.length > w.length && s.lastIndexOf(w, 0) === 0) { take(p[1], short ? titlePrefix : prefix); }
      else if (s === p[1] && nearStem(st, s)) { take(s, near); }
      else if (long && s.length >= 4 && (edit1(w, s) || edit1(st, s))) { take(p[1], typo); }
    });
    Object.keys(stems).forEach(function (k) {
      var q = stems[k], posts = T.posts[k];
      for (var i = 0; i < posts.length; i++) {
        var node = posts[i] >> 4, c = posts[i] & 3, mark = posts[i] >> 2 & 3, v;
        if (c === 3) {
          // In a title: a word it begins counts as the word (as the
          // reader types), more as the title's first word.
          v = classWeight[3] * (q === prefix || q === titlePrefix ? exact : q) * (mark ? 1.2 : 1);
        } else if (q === titlePrefix) {
          continue;
        } else {
          v = classWeight[c] * q * (c === 1 ? lengthWeight[mark] : 1);
        }
        if (!best[node] || best[node] < v) { best[node] = v; }
      }
    });
    return best;
  }

  // nearStem tells whether stems a and b differ only by one or two
  // letters at the end, one the other's start, from four letters on: a
  // word and its derivation the stemmer left apart ("substitut",
  // "substitu").
  function nearStem(a, b) {
    if (a === b) { return false; }
    var short = a.length < b.length ? a : b, long = a.length < b.length ? b : a;
    return short.length >= 4 && long.length - short.length <= 2 && long.lastIndexOf(short, 0) === 0;
  }

  // wordStart tells whether t is found in s at the start of a word.
  function wordStart(s, t) {
    for (var at = s.indexOf(t); at >= 0; at = s.indexOf(t, at + 1)) {
      if (at === 0 || !/[\p{L}\p{M}\p{N}]/u.test(s[at - 1])) { return at; }
    }
    return -1;
  }

  // score is node i of src's rank for query q, 0 when a term is missing:
  // each term's best weight, summed. A word is looked up in the terms
  // (once they are in) and at the start of a title's or type's words; a
  // substring term (Chinese, Japanese, a code) in every field once the
  // node's fields are in.
  function score(q, src, i) {
    var n = src.nodes[i], s = 0;
    for (var k = 0; k < q.terms.length; k++) {
      var t = q.terms[k], v = 0, at;
      if (t.word) {
        if (q.termsIn[src.key]) {
          var m = q.matched[src.key + " " + k];
          if (!m) { m = q.matched[src.key + " " + k] = matchWord(src, t.text); }
          v = m[i] || 0;
        }
        if (!v && wordStart(n.k, t.text) >= 0) { v = 3; }
      } else {
        at = n.t.indexOf(t.text);
        if (at >= 0) { v = at === 0 ? 12 : 10; }
        else if (n.rtext.indexOf(t.text) >= 0) { v = 6; }
        else if (n.ty.indexOf(t.text) >= 0 || n.k.indexOf(t.text) >= 0) { v = 3; }
        else if (n.text.indexOf(t.text) >= 0) { v = 2; }
      }
      if (!v) { return 0; }
      s += v;
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
  // On the pages of one variant × locale, a link to the curriculum's
  // landing page widens the search to all its variants and languages.
  var widen = null;
  if (form.dataset.widen) {
    widen = el("a", "search__widen", form.dataset.widenLabel);
    widen.hidden = true;
    out.appendChild(widen);
  }

  // A query's state: its terms, its hits by node, and whether every
  // index it searches is in. A newer query makes an older one stale.
  var current = null;

  // The filters: by variant and language (boxes that search several
  // variants × locales) and by type, each a <select> that offers the
  // values the results hold. "" is every value.
  var filters = el("div", "search__filters"), filter = { variant: "", language: "", type: "" }, selects = {};
  filters.hidden = true;
  out.insertBefore(filters, list);
  ["variant", "language", "type"].forEach(function (name) {
    var label = el("label", "search__filter"), sel = el("select");
    label.appendChild(document.createTextNode((form.dataset[name] || name) + " "));
    label.appendChild(sel);
    label.hidden = true;
    sel.addEventListener("change", function () {
      filter[name] = sel.value;
      if (current) { show(current); }
    });
    filters.appendChild(label);
    selects[name] = sel;
  });

  // fillFilter offers the values of one filter (hidden with fewer than
  // two), keeping the one chosen.
  function fillFilter(name, values) {
    var sel = selects[name], keep = filter[name];
    if (keep && values.indexOf(keep) < 0) { values.push(keep); }
    values.sort();
    var want = [""].concat(values).join("\n");
    if (sel.dataset.values !== want) {
      sel.dataset.values = want;
      sel.textContent = "";
      [""].concat(values).forEach(function (v) {
        var o = el("option", "", v || form.dataset.all || "*");
        o.value = v;
        sel.appendChild(o);
      });
      sel.value = keep;
    }
    sel.parentNode.hidden = values.length < 2;
  }

  // facet is a hit's value for a filter.
  function facet(h, name) {
    if (name === "variant") { return h.src.variant; }
    if (name === "language") { return h.src.language; }
    return h.n.kind;
  }

  // titled sorts hits and returns, in order, those whose titles are in
  // until they make maxShown groups, asking for the title files of the
  // others on the way (at most maxShown at a time; show runs again as
  // each comes in): { hits, pending, more }, more when hits were left.
  function titled(hits) {
    hits.sort(byRank);
    var out = { hits: [], pending: 0, more: false }, keys = {}, n = 0;
    for (var j = 0; j < hits.length; j++) {
      var h = hits[j];
      if (n >= maxShown || out.pending >= maxShown) { out.more = true; break; }
      if (h.n.title !== null) {
        out.hits.push(h);
        if (!keys[groupKey(h)]) { keys[groupKey(h)] = true; n++; }
        continue;
      }
      out.pending++;
      var c = Math.floor(h.i / h.src.titleNodes), b = h.src.titles[c];
      if (!b || b.asked) { continue; }
      b.asked = true;
      titleFile(h.src, c, function () { if (current) { show(current); } });
    }
    return out;
  }

  // groupKey is what the hits of one group share: across variants, the
  // curriculum, language and page; else the node.
  function groupKey(h) {
    return across ? h.src.key.split("/")[0] + "\n" + h.src.lang + "\n" + h.n.path : h.src.key + "\n" + h.i;
  }

  // groups gathers the hits (sorted) of one lesson in several variants
  // (the same curriculum, language and page) into one group, led by its
  // best hit.
  function groups(q, hits) {
    var out = [], by = {};
    hits.forEach(function (h) {
      var k = groupKey(h);
      var g = by[k];
      if (g) { g.also.push(h); return; }
      g = by[k] = { lead: h, also: [] };
      out.push(g);
    });
    return out;
  }

  // chunkOf is the chunk of src's text that holds node i.
  function chunkOf(src, i) {
    var c = 0;
    while (c + 1 < src.body.length && src.body[c + 1].first <= i) { c++; }
    return c;
  }

  // fragments asks for the text chunks of the results shown whose fields
  // are not in (for their snippets), each once; show runs again as each
  // comes in. It returns how many are still to come.
  function fragments(q, gs) {
    var pending = 0;
    gs.forEach(function (g) {
      var h = g.lead, src = h.src;
      if (h.n.fields || !src.body.length) { return; }
      var c = chunkOf(src, h.i), b = src.body[c];
      if (b.ready) { return; }
      pending++;
      if (b.asked) { return; }
      b.asked = true;
      chunk(src, c, function () { if (current) { show(current); } });
    });
    return pending;
  }

  function show(q) {
    var values = { variant: {}, language: {}, type: {} };
    var hits = q.hits.filter(function (h) {
      var ok = true;
      ["variant", "language", "type"].forEach(function (name) {
        var v = facet(h, name);
        if (v) { values[name][v] = true; }
        if (filter[name] && v !== filter[name]) { ok = false; }
      });
      return ok;
    });
    ["variant", "language", "type"].forEach(function (name) {
      fillFilter(name, name === "type" || across ? Object.keys(values[name]) : []);
    });
    filters.hidden = filters.querySelectorAll("label:not([hidden])").length === 0;
    var t = titled(hits), gs = groups(q, t.hits);
    var pending = t.pending + fragments(q, gs.slice(0, maxSnippets));
    out.hidden = false;
    // For scripts that drive the page (tests, benchmarks): the query
    // shown, and whether every index it searches is in.
    out.dataset.query = q.text;
    if (widen) {
      widen.href = form.dataset.widen + "?q=" + encodeURIComponent(q.text);
      widen.hidden = false;
    }
    out.dataset.state = q.done && !pending ? "done" : "loading";
    var msg = q.cut || t.more ? (form.dataset.resultsMany || "%d").replace("%d", gs.length) : count(gs.length);
    if (!q.done || pending) { msg = form.dataset.loading + (gs.length ? " " + msg : ""); }
    if (status.textContent !== msg) { status.textContent = msg; }
    // The list is rebuilt as indexes come in: a result that has the focus
    // keeps it.
    var focused = list.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    list.textContent = "";
    list.hidden = !gs.length;
    var marks = q.marks();
    gs.slice(0, maxShown).forEach(function (g) {
      var h = g.lead, n = h.n, li = el("li"), a = el("a");
      li.lang = n.lang || h.src.lang;
      a.href = h.src.base + n.path;
      a.appendChild(el("span", "result__type", n.type));
      a.appendChild(el("bdi", "result__title", n.title));
      if (across && h.src.from) {
        var from = el("span", "result__from", h.src.from);
        from.lang = document.documentElement.lang;
        a.appendChild(from);
      }
      if (h.snipOf !== n.fields) { h.snip = snippet(n, marks); h.snipOf = n.fields; }
      var s = h.snip;
      if (s) {
        var p = el("span", "result__text");
        p.dir = "auto";
        if (s.label) { p.appendChild(el("span", "result__label", s.label + ": ")); }
        highlight(p, s.text, marks);
        a.appendChild(p);
      }
      li.appendChild(a);
      // The same lesson in the other variants: one link each.
      if (g.also.length) {
        var also = el("span", "result__variants", (form.dataset.also || "+") + ": ");
        also.lang = document.documentElement.lang;
        g.also.forEach(function (o, j) {
          if (j) { also.appendChild(document.createTextNode(", ")); }
          var va = el("a", "", o.src.variant || o.src.from);
          va.href = o.src.base + o.n.path;
          also.appendChild(va);
        });
        li.appendChild(also);
      }
      list.appendChild(li);
      if (focused !== null) {
        Array.prototype.forEach.call(li.querySelectorAll("a"), function (x) {
          if (focused !== null && x.getAttribute("href") === focused) { x.focus(); focused = null; }
        });
      }
    });
  }

  // consider scores nodes lo..hi-1 of src for query q.
  function consider(q, src, lo, hi) {
    hi = Math.min(hi, src.nodes.length);
    for (var i = lo; i < hi; i++) {
      var s = score(q, src, i), id = src.key + "#" + i, h = q.byID[id];
      if (!s) { continue; }
      if (h) { h.score = s; continue; }
      h = q.byID[id] = { src: src, n: src.nodes[i], i: i, score: s };
      q.hits.push(h);
    }
  }

  // query parses text: its terms, each a word (looked up in the terms)
  // or a substring (Chinese, Japanese, a code with punctuation).
  function query(text) {
    var terms = norm(text).split(/\s+/).filter(Boolean).map(function (t) {
      var ws = words(t), word = ws.length === 1 && ws[0] === t;
      return { text: t, word: word, keys: word ? [] : keysOf(t) };
    });
    var substring = terms.some(function (t) { return !t.word; });
    var q = { text: text, terms: terms, hits: [], byID: {}, matched: {}, dirMatched: {}, termsIn: {}, substring: substring, done: false };
    // marks are the strings highlighted: the terms, and the words of the
    // text their stems, prefixes and typos matched. They change only as
    // terms come in (shardsIn), not with each title file or chunk, and
    // show asks for them each time a script arrives: they are kept.
    var kept = null, keptAt = -1;
    q.marks = function () {
      if (keptAt === shardsIn) { return kept; }
      keptAt = shardsIn;
      var m = {};
      terms.forEach(function (t) { m[t.text] = true; });
      sources.forEach(function (src) {
        if (!src.terms || !q.termsIn[src.key]) { return; }
        terms.forEach(function (t, k) {
          if (!t.word || !q.matched[src.key + " " + k]) { return; }
          var st = stem(src.stem, t.text), w = t.text;
          src.terms.surf.forEach(function (p) {
            var x = p[0];
            if (p[1] === st || nearStem(st, p[1]) || x.lastIndexOf(w, 0) === 0 || Array.from(w).length >= 5 && (edit1(w, x) || edit1(st, x))) { m[x] = true; }
          });
        });
      });
      kept = Object.keys(m).sort(function (a, b) { return b.length - a.length; });
      return kept;
    };
    return q;
  }

  // bestTitle is the most a term weighs in one node: in a title, its
  // first word (score).
  var bestTitle = classWeight[3] * 1.2;

  // bound is the most any node of src can score for query q, by the
  // directory (its group's terms, once in): each word's best weight in
  // src, as matchWord finds it in the directory, whose postings are the
  // best of each index's (or a type's word, 3); 0 when a word is in no
  // node of src. A substring term, a word whose prefixes reach more of
  // the directory than was loaded, or an index the directory does not
  // hold may be anywhere: bestTitle, Infinity.
  function bound(q, src) {
    var g = src.group;
    if (!g || !g.terms) { return Infinity; }
    var ub = 0;
    for (var k = 0; k < q.terms.length; k++) {
      var t = q.terms[k], v = 0;
      var m = dirMatch(q, g, k);
      if (!m) {
        v = bestTitle;
      } else if (!t.word) {
        v = m[src.id] ? bestTitle : 0;
      } else {
        v = m[src.id] || (wordStart(src.kinds, t.text) >= 0 ? 3 : 0);
      }
      if (!v) { return 0; }
      ub += v;
    }
    return ub;
  }

  // holding returns the nodes of src (an index, or a directory: its
  // exports) that hold every key (keysOf), from its terms, as a set
  // (node: true); null for no key (every node may hold the term).
  function holding(src, keys) {
    var set = null;
    keys.forEach(function (k) {
      var posts = src.terms && src.terms.posts[stem(src.stem, k)] || [], next = {};
      posts.forEach(function (p) { if (!set || set[p >> 4]) { next[p >> 4] = true; } });
      set = next;
    });
    return set;
  }

  // dirMatch is what directory g says of term k of q, once a query: the
  // exports that may hold it, by their best weight for a word (matchWord),
  // as a set for a substring (holding); null when it cannot say (a
  // substring with no key, a word whose prefixes reach more shards than
  // were loaded).
  function dirMatch(q, g, k) {
    var key = g.key + " " + k, t = q.terms[k];
    if (!(key in q.dirMatched)) {
      q.dirMatched[key] = !t.word ? holding(g, t.keys) : wide(g, t.text) ? null : matchWord(g, t.text);
    }
    return q.dirMatched[key];
  }

  // plan loads the directory's shards that query q needs, in every group
  // its sources use, then gives then the sources that can hold a match,
  // each with its bound: the reader's languages first, then the best
  // bound.
  function plan(q, then) {
    var used = siteList ? dirs : [];
    sources.forEach(function (s) { if (s.group && used.indexOf(s.group) < 0) { used.push(s.group); } });
    var left = used.length + 1;
    function ranked() {
      var l = [];
      sources.forEach(function (s) {
        var ub = bound(q, s);
        if (ub > 0) { l.push({ src: s, ub: ub }); }
      });
      l.sort(function (a, b) { return a.src.rank - b.src.rank || b.ub - a.ub || a.src.order - b.src.order; });
      then(l);
    }
    function done() {
      if (--left) { return; }
      if (!siteList) { ranked(); return; }
      // The pages of the list that hold an index that may match.
      var ids = candidates(q), pages = {};
      if (ids) {
        Object.keys(ids).forEach(function (id) {
          if (id >= siteList.first && id < siteList.first + siteList.count) { pages[Math.floor(id / siteList.per)] = true; }
        });
      } else {
        for (var id = siteList.first; id < siteList.first + siteList.count; id += siteList.per) { pages[Math.floor(id / siteList.per)] = true; }
        pages[Math.floor((siteList.first + siteList.count - 1) / siteList.per)] = true;
      }
      var ks = Object.keys(pages), n = ks.length + 1;
      function paged() { if (--n === 0) { ranked(); } }
      ks.forEach(function (k) { loadPage(Number(k), paged); });
      paged();
    }
    used.forEach(function (g) { loadTerms(g, q, done); });
    done();
  }

  // candidates returns the ids of the list that may hold a match for q,
  // by the directory (its shards the query needs, in), as a set (id:
  // true), or null when any may: a term no key bounds (a substring with
  // no key, a word whose prefixes reach too many shards) leaves the
  // others to bound them. The ids the directory does not hold always may.
  function candidates(q) {
    if (!dirs.length) { return null; }
    var ids = null;
    q.terms.forEach(function (t, k) {
      var set = {}, all = false;
      dirs.forEach(function (g) {
        var found = !all && g.terms && dirMatch(q, g, k);
        if (!found) { all = true; return; }
        Object.keys(found).forEach(function (id) { set[id] = true; });
      });
      if (all) { return; }
      if (t.word) {
        (siteList.kinds || []).forEach(function (kd) {
          if (wordStart(kd.kinds, t.text) >= 0) { eachInRanges(kd.ids, function (id) { set[id] = true; }); }
        });
      }
      eachInRanges(siteList.loose || [], function (id) { set[id] = true; });
      ids = ids ? intersect(ids, set) : set;
    });
    return ids;
  }

  // byRank is the order of results: the reader's languages first, then
  // the score, then the site's order.
  function byRank(a, b) {
    return a.src.rank - b.src.rank || b.score - a.score || a.src.order - b.src.order || a.i - b.i;
  }

  // beats tells whether hit h ranks before any hit candidate c (a source
  // and its bound) can hold (byRank: a language ranked higher, a higher
  // score, or the same score in an earlier index).
  function beats(h, c) {
    if (h.src.rank !== c.src.rank) { return h.src.rank < c.src.rank; }
    return h.score > c.ub || h.score === c.ub && h.src.order < c.src.order;
  }

  // home is what the hits of one result share but the page: the
  // curriculum and the language (groupKey).
  function home(src) { return src.key.split("/")[0] + "\n" + src.lang; }

  // verdict tells whether candidate c can add a result to those shown:
  // "load" when it can; when hits that beat it already make maxShown
  // results (groups), the homes of those results (only an index of one
  // of them can still add to what shows: a variant to a result's list);
  // or, when the hits that beat it wait for their titles to be grouped,
  // those hits.
  function verdict(q, c) {
    var sorted = q.hits.slice().sort(byRank), keys = {}, homes = {}, n = 0, wait = [];
    for (var j = 0; j < sorted.length && n < maxShown && beats(sorted[j], c); j++) {
      var h = sorted[j], b = h.src.titles[Math.floor(h.i / h.src.titleNodes)];
      if (h.n.title === null && b && !b.ready) { wait.push(h); continue; }
      var k = h.n.title === null ? h.src.key + "#" + h.i : groupKey(h);
      homes[home(h.src)] = true;
      if (!keys[k]) { keys[k] = true; n++; }
    }
    if (n >= maxShown) { return { homes: homes }; }
    return wait.length ? { wait: wait } : "load";
  }

  // maxBatch is the most indexes a query loads side by side: it loads
  // one, then two, then four... (each round waits for the one before, as
  // what came in may show that the rest can add nothing: beaten), so a
  // query that one index answers loads one, and one that needs many does
  // not wait for each in turn.
  var maxBatch = 8;

  function search(text) {
    var q = query(text);
    if (!q.terms.length) { current = null; out.hidden = true; return; }
    current = q;
    var k = 0, cands = [], batch = 1;
    function next() {
      if (q !== current) { return; }
      if (k >= cands.length) { q.done = true; show(q); return; }
      var v = verdict(q, cands[k]), round;
      if (v.wait) {
        var waiting = v.wait.length;
        v.wait.forEach(function (h) {
          titleFile(h.src, Math.floor(h.i / h.src.titleNodes), function () { if (--waiting === 0) { next(); } });
        });
        return;
      }
      if (v.homes) {
        // A page of results that no index left can enter: of the rest,
        // those that can list a variant in them only (a catalog may list
        // thousands).
        q.cut = true;
        round = cands.slice(k).filter(function (c) { return v.homes[home(c.src)]; });
        k = cands.length;
      } else {
        round = cands.slice(k, k + batch);
        k += round.length;
        batch = Math.min(2 * batch, maxBatch);
      }
      var left = round.length + 1;
      function done() { if (--left === 0) { next(); } }
      round.forEach(function (c) { searchIn(q, c.src, done); });
      done();
    }
    ready(function () {
      plan(q, function (l) {
        if (q !== current) { return; }
        cands = l;
        next();
      });
    });
  }

  // allNodes is every node of src, as holding returns nodes.
  function allNodes(src) {
    var set = {};
    for (var i = 0; i < src.nodes.length; i++) { set[i] = true; }
    return set;
  }

  // intersect is what sets a and b (as holding returns them) share.
  function intersect(a, b) {
    var out = {};
    Object.keys(a).forEach(function (k) { if (b[k]) { out[k] = true; } });
    return out;
  }

  // searchIn searches one index for q: its head (titles and types), then
  // its terms, then, for a substring term, its titles and text whole;
  // then runs then (not when a newer query came).
  function searchIn(q, src, then) {
    head(src, function () {
      if (q !== current) { return; }
      // Titles and types first; then the terms; the fields as their
      // chunks come in.
      consider(q, src, 0, src.nodes.length);
      show(q);
      loadTerms(src, q, function () {
        if (q !== current) { return; }
        q.termsIn[src.key] = true;
        shardsIn++; // the marks change
        consider(q, src, 0, src.nodes.length);
        show(q);
        // The titles and the text are needed for a substring term
        // only, and only of the nodes that hold all its keys (every node
        // when a term has none); else those of the results shown come in
        // as show asks for them.
        var titles = {}, chunks = {};
        if (q.substring) {
          var nodes = null;
          q.terms.forEach(function (t) {
            if (t.word) { return; }
            var set = t.keys.length ? holding(src, t.keys) : allNodes(src);
            nodes = nodes ? intersect(nodes, set) : set;
          });
          Object.keys(nodes).forEach(function (i) {
            titles[Math.floor(i / src.titleNodes)] = true;
            chunks[chunkOf(src, Number(i))] = true;
          });
        }
        var left = Object.keys(titles).length + Object.keys(chunks).length;
        if (!left) { then(); return; }
        function range(first, n) {
          if (q !== current) { return; }
          consider(q, src, first, first + n);
          show(q);
          if (--left === 0) { then(); }
        }
        Object.keys(titles).forEach(function (c) {
          c = Number(c);
          titleFile(src, c, function () { range(c * src.titleNodes, src.titleNodes); });
        });
        Object.keys(chunks).forEach(function (c) { chunk(src, Number(c), range); });
      });
    });
  }

  function run() { search(input.value); }

  input.addEventListener("focus", function () {
    ready(function () {
      // The first query's first step: the head of the one index (a
      // box that searches several starts with its list).
      var s = sources[0];
      if (s && !siteList) { head(s, function () { loadStem(s, function () {}); }); }
    });
  });
  input.addEventListener("input", run);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
  form.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { out.hidden = true; input.focus(); }
    if (ev.target.tagName === "SELECT") { return; }
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
