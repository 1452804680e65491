"""MkDocs hooks of the docs site (mkdocs.yml at the repository's root).

The pages under docs/ link to files of the repository outside docs/
(../action.yml, ../themes/README.md, ...) with relative links, which work
where people read them most: on GitHub and in a clone. MkDocs does not
copy those files into the site, so --strict would refuse the links. This
hook points them at the file in the repository (repo_url/blob/main/...)
before MkDocs checks the page's links, and leaves every other link, and
every code block, as written.

MkDocs 1.4 checks that a link's page exists, not that its #anchor does.
After the build, a second hook reads every page of the site and logs a
warning for each link to an anchor no element of its page has; --strict
turns warnings into a failed build. It checks the links of the Markdown
files at the repository's root (README.md, CONTRIBUTING.md) too, which
are not pages of the site: each must name a file of the repository, and
its #anchor, into a page of docs/, an anchor of that page.
"""

import html.parser
import logging
import os
import posixpath
import re
import urllib.parse

log = logging.getLogger("mkdocs.hooks.curex")

# A Markdown inline link or image whose target is relative: ](target) or
# ](target "title"), stopping at the closing parenthesis or a space.
_LINK = re.compile(r"\]\((?P<target>[^)\s#][^)\s]*)(?P<rest>[^)]*)\)")
# A code span (`...` or ``...``), left as written; split keeps it at odd indexes.
_CODE_SPAN = re.compile(r"(``.+?``|`[^`]*`)")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")


def on_page_markdown(markdown, page, config, files):
    """Rewrite links that leave docs/ into links to the repository."""
    base = config.get("repo_url", "").rstrip("/") + "/blob/main/"
    page_dir = posixpath.dirname(page.file.src_uri)
    return _sub_links(markdown, lambda m: _rewrite(m, base, page_dir))


def _sub_links(markdown, repl):
    """Apply repl to every link of markdown outside code blocks and spans."""
    out, fence = [], None
    for line in markdown.split("\n"):
        m = _FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(2)[0] * len(m.group(2))
            elif m.group(2).startswith(fence):
                fence = None
            out.append(line)
            continue
        if fence is None:
            parts = _CODE_SPAN.split(line)
            for i in range(0, len(parts), 2):
                parts[i] = _LINK.sub(repl, parts[i])
            line = "".join(parts)
        out.append(line)
    return "\n".join(out)


def _rewrite(m, base, page_dir):
    target = m.group("target")
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return m.group(0)
    path, _, anchor = target.partition("#")
    joined = posixpath.normpath(posixpath.join("docs", page_dir, path))
    if joined.startswith("docs/") or joined == "docs":
        return m.group(0)
    url = base + joined + ("#" + anchor if anchor else "")
    return "](" + url + m.group("rest") + ")"


class _Page(html.parser.HTMLParser):
    """The ids of a page and the links it makes (href of a and link)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        if tag == "a" and attrs.get("href"):
            self.links.append((attrs["href"], self.getpos()[0]))


def on_post_build(config):
    """Warn about every link to an anchor that its page does not have."""
    site = config["site_dir"]
    pages = {}
    for root, _, names in os.walk(site):
        for name in names:
            if name.endswith(".html"):
                path = os.path.join(root, name)
                parser = _Page()
                with open(path, encoding="utf-8") as f:
                    parser.feed(f.read())
                pages[os.path.relpath(path, site).replace(os.sep, "/")] = parser
    for src, page in sorted(pages.items()):
        for href, line in page.links:
            url = urllib.parse.urlsplit(href)
            if url.scheme or url.netloc or not url.fragment:
                continue
            target = src
            if url.path:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(src), url.path))
            fragment = urllib.parse.unquote(url.fragment)
            if target in pages and fragment not in pages[target].ids:
                log.warning("%s line %d links to %s, which has no anchor #%s", src, line, target, fragment)
    root = os.path.dirname(os.path.abspath(config["config_file_path"]))
    docs = os.path.relpath(config["docs_dir"], root).replace(os.sep, "/")
    for name in sorted(os.listdir(root)):
        if name.endswith(".md"):
            _check_root_file(root, docs, name, pages)


def _check_root_file(root, docs, name, pages):
    """Warn about links of a Markdown file at the root that lead nowhere."""
    with open(os.path.join(root, name), encoding="utf-8") as f:
        markdown = f.read()
    found = []
    _sub_links(markdown, lambda m: found.append(m.group("target")) or m.group(0))
    for target in found:
        url = urllib.parse.urlsplit(target)
        if url.scheme or url.netloc or target.startswith("/"):
            continue
        path = posixpath.normpath(urllib.parse.unquote(url.path))
        if not os.path.exists(os.path.join(root, path)):
            log.warning("%s links to %s, which is not a file of the repository", name, target)
            continue
        if not url.fragment or not path.startswith(docs + "/") or not path.endswith(".md"):
            continue
        page = path[len(docs) + 1:-len(".md")]
        if posixpath.basename(page) in ("README", "index"):
            page = posixpath.join(posixpath.dirname(page), "index")
        page += ".html"
        fragment = urllib.parse.unquote(url.fragment)
        if page in pages and fragment not in pages[page].ids:
            log.warning("%s links to %s, whose page has no anchor #%s", name, target, fragment)
