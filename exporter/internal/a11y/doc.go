// Package a11y holds no code: its test exports the sample curricula with the
// real exporter and checks the website with axe-core in headless Chromium.
// The catalog, a table of contents, a node page and right-to-left node pages
// must have no serious or critical violation of WCAG 2.x A and AA or of
// axe-core's best practices, in the light and the dark color scheme, on a
// desktop and a phone viewport. A search runs on two of them (?q=), so the
// results are checked too. TestSearchInBrowser types queries into the
// search boxes of the same site and checks what they find.
//
// The test needs Chromium (apt-get install chromium, or CUREX_CHROMIUM) and
// axe-core's axe.min.js: CUREX_AXE_JS, or .tools/node_modules/axe-core/axe.min.js
// at the repository root, which `make tools` installs. Without them it
// skips, unless CUREX_REQUIRE_TOOLS=1.
package a11y
