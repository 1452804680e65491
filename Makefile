# curex — keep this file a thin layer over the go tool.
GO          ?= go
BIN         := bin/curex
# VERSION: the tag at HEAD (v dropped), else the nearest tag with the commits
# since it (1.2.0-3-g358da07), else dev; releases are made by GoReleaser.
VERSION     ?= $(shell git describe --tags --dirty 2>/dev/null | sed 's/^v//' | grep . || echo dev)
TAGS        ?=
COMMIT      ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
LDFLAGS     := -s -w -X github.com/curex/curex/exporter/cli.version=$(VERSION) -X github.com/curex/curex/exporter/cli.commit=$(COMMIT)
GOBIN       := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN)/staticcheck
STATICCHECK_VERSION := v0.8.2
FUZZTIME    ?= 20s
# FUZZTIME_TEST: how much make test fuzzes each target (make fuzz runs FUZZTIME).
# A count, not a duration: Go 1.26's fuzz coordinator can report a spurious
# "context deadline exceeded" when a duration ends (go.dev/issue/75804), and a
# count does the same work on a busy machine. 20 new inputs a target after its
# seed corpus (which the suites also run), with one worker process (FUZZ_WORKERS=1, see
# .ci/fuzz.sh): a smoke run that each target fuzzes, make fuzz is the search. Idle machine, 63
# targets: 104 CPU-s at 1 input (the instrumented links, the processes, the seed corpora), 170
# at 300; the step cost 259 to 273 CPU-s at 1,000 with a worker per core. 67 targets
# (2026-12-06, idle): 80 CPU-s in 65 s at 20, 148 in 120 s at 100, where CI had been spending
# a tenth of its CPU.
FUZZTIME_TEST ?= 20x
GO_DIRS     := cmd exporter templates themes
# PLAIN_TESTS: tests that run once, without -race (test-plain), not in the race suite:
# - the tests of curex as child processes: under -race each child is a race-built test binary, ten
#   times slower, for races the in-process tests already look for (exporter/internal/race);
# - end-to-end tests whose point is the output's bytes (identity, the docs' figures, the change
#   history, build from the cache, incremental reuse, every format, hidden attributes, math and PDF
#   budgets, content images, print assets, hostile content, planted files, the token in logs, exit
#   codes, the demo): each runs whole exports through the same concurrent paths that
#   TestExportToMemoryFileSystem (a first and a reusing run), TestFaultMatrixUnderRace,
#   TestExportUnderFaultsAndTightLimits and the shared sample export run under -race, and the
#   detector made them 5 to 10 times slower (the first 10 were about 1,100 s of the race suite's wall
#   time on a loaded machine, the next 10 about 600 s; measured 2026-11-28);
# - the website tests that render the whole sample site once more with other settings (sitemap,
#   links, identity, themes, drafts, the identity golden) and the unpublished-nodes export: 12
#   tests, about 370 s of the race suite on an idle machine (27 to 52 s each), whose concurrency
#   (the website's page workers) the html package's shared render of the sample (rendered(), which
#   TestGolden and ten more raced tests read) and the exporter's race tests keep watching; and
#   TestDeterministic, which renders the sample a second time to compare the bytes: 118 s of the
#   race suite on a loaded machine (8c6813a), the detector's one look at those workers being the
#   shared render; and TestPublisherLook and TestThemeAssetsHashed (five renders of the sample with
#   a publisher's styles or theme files, 20 to 37 s each under -race on an idle machine: about 60 s
#   of the html package's 106); and TestSharedBlocksAsRendered (four trees rendered with and
#   without the blocks node pages share, to compare the bytes: 49 s of the race suite in CI of
#   eb6bcf8; TestThemeBlocksOnEveryPage stays raced); and TestSearchDirectoryOfReusedTrees (renders
#   half the sample's trees twice to compare the search directory's bytes with the shared render's:
#   the html package's longest raced test, 38 s under -race on a busy machine; the reuse of trees is
#   raced in the exporter's TestExportToMemoryFileSystem);
# - OUTPUT_MORE: 19 more of the same kind (each format alone, images, math, the bucket and the demo's
#   formats, the website's downloads, notices and links): about 330 s of the race suite's wall time
#   (9ad68b7, a loaded machine, 10 to 49 s each); and the fault matrix's 33 rows (57 CPU-s), whose
#   9 rows where the fault meets the run's concurrency TestFaultMatrixUnderRace runs under -race
#   (7 of them with the JSON bundles alone: 24 CPU-s there, 66 with the website);
#   and, 7 to 17 s each under -race on a loaded machine (8c6813a), TestWarmBuildRepeatsNothing
#   (two builds' bytes and stem counts; the memo's concurrency is raced in
#   terms.TestStemMemoConcurrent), TestDisplayMathOnOneLineEveryFormat, TestSourceDate (bytes),
#   TestImagesOfUnpublishedNodesNotFetched and TestChangeDetection (which requests a run makes;
#   the nightly run's concurrency stays raced in TestNightlyAtScale);
# - OUTPUT_CLI: 8 tests of the cli package whose point is what a command writes (a setting's
#   effect, the golden export, --quiet, the JSON summary and log): each runs an export in process,
#   10 to 17 s under -race on a loaded machine (8c6813a); and TestDemoServe, a demo export of the
#   whole sample before four requests to its server (13 s under -race idle; the server's
#   concurrency is raced in exporter/internal/serve); the cli's own goroutines (curex dev's
#   watcher and live reload) stay raced in the TestWatch* tests;
# - COMPUTE_TESTS: tests of one goroutine that drive Temml in goja or chroma over adversarial, large or
#   every-lexer inputs (about 280 s under -race, TestAdversarial alone 134 s): the detector has no
#   second goroutine to watch there, and the converters' concurrency is raced in TestConvertConcurrent
#   (mathml) and TestConcurrent (content).
# BROWSER_PKGS run without -race too (test-browser): their time is Chromium's, which the detector
# does not see, and the export they check is the shared one above.
# RACE_FREE_PKGS run without -race (test-norace): renderers whose code starts no goroutine and
# imports no synchronization (exporter/internal/lint's TestRaceFreePackagesShareNothing checks it),
# so the detector has nothing of theirs to watch; the run that calls them concurrently is raced in
# the exporter package. Under -race they took about 450 s of wall time (ci of 2026-11-28, loaded).
# The record forms the spec allows (resource and plain objects) need no second run of the suites:
# sandboxtest.New serves each test one of them by its name, about half the tests each
# (CUREX_SANDBOX_RECORDS=plain or resource forces one).
CHILD_TESTS := TestKilledExportsNeverMixOutputs|TestSignalStopsRendering
OUTPUT_FIRST := TestIdentityInRenderKey|TestDocsOnThisPageCount|TestWhatChanged|TestBuildFromCache|TestEveryFormat|TestTokenNeverLogged|TestPlantedLinksAndEditsNeverReachTheSite|TestHostileContent|TestExportFaultExitCodes|TestExportPlanWhoami
OUTPUT_NEXT  := TestIncrementalExport|TestHiddenAttributeReachesNoFormat|TestMathOverBudgetFailsAlone|TestPDFTimeoutFailsThatExportOnly|TestContentImagesRefusedOrRemote|TestSearchIndexesHoldNoHiddenText|TestPrintRemoteAssetsKeepTheAddressPolicy|TestDemo|TestDemoSiteIdentity
OUTPUT_SITE  := TestDeterministic|TestPublisherLook|TestThemeAssetsHashed|TestSitemapRobotsCanonical|TestEveryInternalLinkIsRelativeAndResolves|TestIdentityOnEveryPage|TestThemeOverridesWordsOnWebsite|TestStarterTheme|TestIdentityAssets|TestNoSitemap|TestThemeOverride|TestSocialWithoutSiteURL|TestDraftsWithIncludeUnpublished|TestGoldenIdentity|TestUnpublishedNodesNeverReachAPage|TestSharedBlocksAsRendered|TestSearchDirectoryOfReusedTrees
OUTPUT_MORE  := TestWarmBuildRepeatsNothing|TestDisplayMathOnOneLineEveryFormat|TestImagesOfUnpublishedNodesNotFetched|TestSourceDate|TestChangeDetection|TestFaultMatrix|TestMathEveryFormat|TestContentImagesKeptInTheOutput|TestANewFormatIsData|TestEPUBFormat|TestBuildFailsClearly|TestPDFHoldsContentImages|TestCartridgeExport|TestCacheIsScopedByAPIOrigin|TestExportToBucket|TestDemoFormats|TestAttributeOrderAndLabelSettings|TestNopublishBuild|TestContentsPageDownloads|TestSearchChunks|TestFallbackNotice|TestPrevNext|TestLanguageSwitcherAndHreflang|TestMathStyleOnMathPages|TestOnThisPageLinks
OUTPUT_CLI   := TestCartridgeVersionSetting|TestBuildCurriculumFlag|TestExportGolden|TestQuiet|TestConfigElsewhereResolvesPaths|TestSummaryJSON|TestJSONLogHasNoProse|TestDemoServe
OUTPUT_TESTS := $(OUTPUT_FIRST)|$(OUTPUT_NEXT)|$(OUTPUT_SITE)|$(OUTPUT_MORE)|$(OUTPUT_CLI)
COMPUTE_TESTS := TestAdversarial|TestBudgetKeepsOutput|TestBudgetErrorCached|TestConvertDeepNesting|TestMathOverBudget|TestLargeInputs|TestHighlightHasNoWallClockTimeout|TestValidHighlightAcceptsEveryLexer
PLAIN_PKGS   := ./exporter/ ./exporter/cli/ ./exporter/internal/render/html/ ./exporter/internal/render/mathml/ ./exporter/internal/render/content/
BROWSER_PKGS := ./exporter/internal/a11y/
RACE_FREE_PKGS := ./exporter/internal/render/epub/ ./exporter/internal/render/cartridge/ ./exporter/internal/render/markdown/ ./exporter/internal/render/handbook/ ./exporter/internal/render/jsonbundle/
PLAIN_TESTS := ^($(CHILD_TESTS)|$(OUTPUT_TESTS)|$(COMPUTE_TESTS))$$
# TEST_TMPDIR: where the tests make their temporary folders (TMPDIR): a RAM file system when the
# machine has one. The suites create and delete tens of thousands of small files, which on an ext4
# disk cost more than the work itself (TestFaultMatrix: 34 s on /tmp, 15 s on /dev/shm).
# Only when it has 2 GiB free (make test used 230 MB of it at most; containers often give 64 MB).
# make test TEST_TMPDIR= keeps the default.
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$$(df -Pk /dev/shm | awk 'NR==2{print $$4}')" -ge 2097152 ] 2>/dev/null && echo /dev/shm)
TESTENV     := $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR))
# TIMED: prefixes a step's main command with GNU time when the machine has it, so that make test's
# log says what each step cost: elapsed seconds and CPU-seconds (the figure that counts on a busy
# machine, where elapsed time mostly measures the other jobs).
TIMED       = $(call TIMED_AS,$@)
# TIMED_AS: the same for one of several commands of a step, named by its argument.
TIMED_AS    = $(if $(wildcard /usr/bin/time),/usr/bin/time -f '$(1): %e s elapsed; %U+%S CPU-s')
TOOLS       := .tools
VNU_VERSION := 26.9.27
VNU         := $(TOOLS)/node_modules/vnu-jar/build/dist/vnu.jar
# JAVA_SHORT: java options for a check of a minute or less: the quick compiler only and the serial
# collector (the Nu checker on the sample site: 9.7 CPU-seconds instead of 20.0); the Nu checker
# needs a deep stack (-Xss).
JAVA_SHORT  := -Xss4m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC
AXE_VERSION := 4.14.1
AXE         := $(TOOLS)/node_modules/axe-core/axe.min.js
# DAISY Ace, the EPUB accessibility checker (make test-books): installed without its scripts
# (they download a browser of their own, which fails here) and run with the system Chromium.
ACE_VERSION := 1.4.6
ACE         := $(TOOLS)/node_modules/.bin/ace-puppeteer
VERSITYGW   := $(GOBIN)/versitygw
VERSITYGW_VERSION := v1.8.0
# Release tools (make release-check), each built once per machine into its
# own versioned folder under GOPATH/tools, kept like staticcheck and
# versitygw: GoReleaser costs about 5 CPU-minutes to build from a cold build cache
# (4 min 49 s on 2 busy cores; docs/dependencies.md).
GORELEASER_VERSION := v2.15.1
GORELEASER  := $(shell $(GO) env GOPATH)/tools/goreleaser@$(GORELEASER_VERSION)/goreleaser
CYCLONEDX_VERSION := v1.10.0
CYCLONEDX   := $(shell $(GO) env GOPATH)/tools/cyclonedx-gomod@$(CYCLONEDX_VERSION)/cyclonedx-gomod
# Debian packages the tests use (and Java for the Nu checker): validators, headless Chromium (PDF,
# accessibility), PDF tools, CJK fonts for handbooks, MkDocs for the
# Markdown bundle check and the docs site (make docs), epubcheck and Calibre for the EPUB books.
APT_PACKAGES := linkchecker chromium poppler-utils fonts-noto-cjk mkdocs
APT_PACKAGES += epubcheck calibre
# libxml2-utils: xmllint, which validates the cartridges against the official IMS schemas.
APT_PACKAGES += libxml2-utils
# python3-lxml: .ci/schematron.py applies the Schematron rules the IMS schemas embed (ISO Schematron).
APT_PACKAGES += python3-lxml
# unzip: make validate opens the sample books and cartridges for the Nu checker.
APT_PACKAGES += unzip
SITE        ?= /tmp/curex-validate-site

.PHONY: all build deps tools apt-packages release-tools race-build lint check test test-steps test-race test-release test-books test-plain test-browser test-norace test-gcs test-nightly test-fuzz docs release-check release-demo validate nightly bench bench-hugo soak fuzz fuzz-corpus vendor-temml vendor-mathfont vendor-stemmers golden screenshots demo sandbox clean

all: build

## build: compile bin/curex (TAGS=gcs adds gs:// buckets, about +31 MB; TAGS=nopublish leaves out every bucket driver, about -12 MB)
build:
	$(GO) build -tags "$(TAGS)" -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/curex

## deps: install what the tests need (Go modules, staticcheck)
deps: $(STATICCHECK)
	$(GO) mod download

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

## lint: no tracked build output, gofmt, go vet, staticcheck
# The build outputs are the tracked files that start as an ELF binary does: head -v prints each
# file's name before its first four bytes (one process for all 1,700 files: 0.05 s, where a shell
# loop of head and od per file took 19 s and 29 CPU-s, the longest part of lint).
lint: deps
	@bins="$$(git ls-files -z 2>/dev/null | xargs -0 -r head -v -c4 2>/dev/null | grep -a -B1 "^$$(printf '\177')ELF" | sed -n 's/^==> \(.*\) <==$$/\1/p')"; \
	if [ -n "$$bins" ]; then echo "build outputs are tracked (git rm --cached them, see .gitignore):"; echo "$$bins"; exit 1; fi
	@unformatted="$$(gofmt -l $(GO_DIRS))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

## check: the inner loop (under 3 minutes on 2 cores): lint, then the unit tests with -short, without the race detector and without any external program (Chromium, poppler, mkdocs, versitygw, the Nu checker, linkchecker)
check: lint
	$(TESTENV) $(GO) test -short ./...

# TEST_JOBS: how many of make test's steps run at once (make -j). The steps are independent but
# for test-release, which needs release-check's dist/; most are single-threaded for long
# stretches (Chromium, Java, Python, linking, one package's tests left at the end), so two at a
# time keep both cores of a CI runner busy instead of one (docs: CONTRIBUTING.md). Three were
# tried (CI of 8120685: 1,432 s against 1,592 s with two an hour before, the same CPU-seconds),
# and the load at the start made Ace's browsers miss their 5 s start in the next run: not
# proven better. The output of each step is printed whole when it ends (make -O). TEST_JOBS=1
# runs them one after another.
TEST_JOBS   ?= 2

# make test's first part installs and builds what the steps need: apt-get and npm wait on the
# network and on dpkg more than they compute, so SETUP_JOBS of them run at once, beside the Go
# builds that a clean machine would otherwise do inside the steps (GoReleaser about 5
# CPU-minutes, the race detector's build of every package about 4). Measured on a clean machine
# (2 cores, nothing installed, 8c6813a): lint and the installs took 448 s one slot after the other,
# apt-get last, and GoReleaser's build then held a slot of the steps for 741 s beside the race suite.
# lint is one of the steps, not of this part: on a warm machine this part is npm's install into a
# fresh clone's .tools/ (about 30 s, mostly waiting), which lint (about 75 CPU-s on a fresh
# clone) kept both cores from starting the steps for 72 s.
SETUP_JOBS  ?= 4

## test: install what is needed, lint, then (TEST_JOBS at a time) validate the sample site, build a snapshot release, run the whole suite with the race detector, the tests of child processes and of output bytes without it, the nightly exports and every fuzz target briefly
test:
	$(MAKE) -j$(SETUP_JOBS) -Otarget apt-packages tools release-tools race-build
	$(GO) mod verify
	$(MAKE) -j$(TEST_JOBS) -Otarget test-steps

# race-build: compile every package with the race detector (cached by go; a no-op on a warm cache).
race-build:
	$(GO) build -race ./...

# test-steps: make test's steps, the longest first (make -j starts them in this order), so that
# no long step starts last and runs alone while the other core idles. Elapsed seconds in a clean
# clone's make test on a warm 2-core machine, nothing else running (8f29fac, -j2; 825 s in all,
# setup 45): race 408, fuzz 320 (one worker a target: long, but a core's worth), browser 297,
# plain 214, norace 82, books 53, validate 47, release 22 + 8, nightly 19. In CI of 0bd60d0 the
# fuzz step ran after the race suite, from 660 s, and ended last, alone: it starts third now.
test-steps: test-race test-browser test-fuzz test-plain lint validate test-norace test-books test-release test-nightly test-gcs docs

# BOOK_TESTS: the EPUB tests that drive slow programs on four sample books (Latin, Arabic, Japanese,
# computer science): DAISY Ace (about 45 s a book, the four at once) and Calibre's ebook-convert.
# They run in their own step, test-books, beside the others, not in the race suite.
BOOK_TESTS  := ^(TestAce|TestCalibre)$$

test-race:
	$(TESTENV) CUREX_REQUIRE_TOOLS=1 CUREX_VERSITYGW=$(VERSITYGW) $(TIMED) $(GO) test -race -count=1 -timeout 30m -skip '$(BOOK_TESTS)|$(PLAIN_TESTS)' $$($(GO) list ./... | grep -v -x -F "$$($(GO) list $(BROWSER_PKGS) $(RACE_FREE_PKGS) $(RELEASE_PKGS))")

## test-release: build the snapshot release (release-check), then run the GitHub Action's and the GitLab job's steps against it
# RELEASE_PKGS hold tests only (they drive the release's archive and scripts), so they run without
# -race, once the snapshot is built, while the race suite is already at work.
RELEASE_PKGS := ./exporter/internal/release/
test-release: release-check
	$(TESTENV) CUREX_REQUIRE_TOOLS=1 CUREX_RELEASE_DIST=$(CURDIR)/dist $(TIMED) $(GO) test -count=1 -timeout 20m $(RELEASE_PKGS)

## test-books: DAISY Ace (zero violations) and Calibre on one sample book per script and kind of content
test-books:
	$(TESTENV) CUREX_REQUIRE_TOOLS=1 CUREX_ACE=$(CURDIR)/$(ACE) $(TIMED) $(GO) test -count=1 -timeout 15m -run '$(BOOK_TESTS)' -v ./exporter/internal/render/epub/

test-plain:
	@want=$(words $(subst |, ,$(CHILD_TESTS)|$(OUTPUT_TESTS)|$(COMPUTE_TESTS))); n=$$($(GO) test -list '$(PLAIN_TESTS)' $(PLAIN_PKGS) | grep -c '^Test'); \
	if [ "$$n" != "$$want" ]; then echo "PLAIN_TESTS names $$want tests, $$n exist in PLAIN_PKGS: was one renamed or moved?"; exit 1; fi; \
	all=$$(grep -rHoE '^func Test[A-Za-z0-9_]+[(]' --include='*_test.go' $(GO_DIRS) | grep -vE '^($(subst $() ,|,$(strip $(patsubst ./%,%,$(BROWSER_PKGS) $(RACE_FREE_PKGS)))))[^/]*:' \
	  | sed 's/^.*:func //; s/[(]$$//' | grep -cE '$(PLAIN_TESTS)'); \
	if [ "$$all" != "$$want" ]; then echo "PLAIN_TESTS matches $$all tests of the race suite's packages, $$want in PLAIN_PKGS: the race suite skips the others, and nothing runs them"; exit 1; fi
	$(TESTENV) CUREX_REQUIRE_TOOLS=1 $(TIMED) $(GO) test -count=1 -timeout 20m -run '$(PLAIN_TESTS)' $(PLAIN_PKGS)

## test-browser: the accessibility checks (axe-core in Chromium) of the website, without -race
test-browser:
	$(TESTENV) CUREX_REQUIRE_TOOLS=1 CUREX_AXE_JS=$(CURDIR)/$(AXE) $(TIMED) $(GO) test -count=1 -timeout 20m $(BROWSER_PKGS)

## test-norace: the tests of RACE_FREE_PKGS, without -race (the book tests aside: test-books)
test-norace:
	$(TESTENV) CUREX_REQUIRE_TOOLS=1 $(TIMED) $(GO) test -count=1 -timeout 20m -skip '$(BOOK_TESTS)' $(RACE_FREE_PKGS)

test-gcs:
	$(TESTENV) $(GO) test -tags gcs -count=1 -run 'URL|GS|Scheme' ./exporter/internal/publish/
	$(TESTENV) $(GO) test -tags nopublish -count=1 ./exporter/internal/publish/

test-fuzz:
	$(TIMED) $(MAKE) fuzz FUZZTIME=$(FUZZTIME_TEST) FUZZ_WORKERS=1

## docs: build the documentation site (mkdocs.yml: docs/ with its navigation) with mkdocs build --strict into $(DOCS_SITE); a broken link or #anchor fails it (a few seconds; mkdocs serve previews it)
DOCS_SITE   ?= /tmp/curex-docs-site
docs:
	mkdocs build --strict --config-file mkdocs.yml --site-dir $(DOCS_SITE)

## release-check: check .goreleaser.yaml, build a snapshot release of this platform into dist/ (archive, checksums, SBOM) and check its binary is static and knows its version
release-tools: $(GORELEASER) $(CYCLONEDX)

release-check: release-tools
	$(GORELEASER) check
	GO=$(GO) GORELEASER=$(GORELEASER) PATH="$(dir $(CYCLONEDX)):$$PATH" $(TIMED) .ci/release-snapshot.sh

## release-demo: install the snapshot release (checksum verified) into $(RELEASE_DEMO_DIR), start its curex sandbox and run curex export against it into output/
RELEASE_DEMO_DIR ?= /tmp/curex-release-demo
release-demo: release-check
	.ci/release-demo.sh $(RELEASE_DEMO_DIR) output

$(GORELEASER):
	GOBIN=$(dir $@) $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

$(CYCLONEDX):
	GOBIN=$(dir $@) $(GO) install github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$(CYCLONEDX_VERSION)

## nightly: nightly exports of a synthetic organization of 25,000 trees under the real limits, in virtual time (about 2 minutes; -race runs it at 250 trees)
nightly:
	$(TESTENV) $(GO) test -count=1 -timeout 20m -run '^TestNightlyAtScale$$' -v ./exporter/

# test-nightly: make test's nightly step, at NIGHTLY_TEST_CURRICULA base curricula (5 variants × 10
# locales each: 5,000 trees by default): the same nights and checks as make nightly's 25,000 trees,
# whose figures docs/BENCHMARKS.md quotes, in a fifth of the time.
NIGHTLY_TEST_CURRICULA ?= 100
test-nightly:
	$(TESTENV) $(TIMED) $(GO) test -count=1 -timeout 20m -run '^TestNightlyAtScale$$' ./exporter/ -args -scale-curricula=$(NIGHTLY_TEST_CURRICULA)

## tools: install what the tests drive: Debian packages (apt-get, only the missing ones), the Nu HTML checker, axe-core and DAISY Ace (npm, into .tools/), versitygw (an S3 server, go install)
tools: apt-packages $(VNU) $(AXE) $(ACE) $(VERSITYGW)

# apt-packages: the Debian packages of APT_PACKAGES that are missing (apt-get, as root).
apt-packages:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run make tools as root (apt-get install$$missing)"; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

$(VNU):
	mkdir -p $(TOOLS)
	npm install --no-audit --no-fund --prefix $(TOOLS) vnu-jar@$(VNU_VERSION)

# The npm installs share $(TOOLS) (its package.json and lock): one at a time, also under make -j.
$(ACE): | $(AXE)
	mkdir -p $(TOOLS)
	PUPPETEER_SKIP_DOWNLOAD=1 npm install --no-audit --no-fund --ignore-scripts --prefix $(TOOLS) @daisy/ace@$(ACE_VERSION)

$(VERSITYGW):
	$(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

$(AXE): | $(VNU)
	mkdir -p $(TOOLS)
	npm install --no-audit --no-fund --prefix $(TOOLS) axe-core@$(AXE_VERSION)

# EPUB_TYPE_ERROR: what the Nu checker says of an EPUB content document's epub:type attributes
# (valid EPUB, which epubcheck checks; the Nu checker knows HTML only): left out of its report
# for the books' .xhtml documents only.
EPUB_TYPE_ERROR := \.xhtml":[0-9.-]+: error: Attribute .{1,3}type.{1,3} not allowed on element .{1,3}[a-z]+.{1,3} at this point\.$$

## validate: export the sample site with its books and cartridges (and again with a publisher's identity), then check it with linkchecker and, in one Java run, the W3C Nu HTML checker over the site, the books' XHTML documents and the cartridges' pages
# The PDFs are left out: neither checker reads them, and printing the 28 handbooks was most of the
# step's export (79.5 s of its elapsed time with a warm cache, c30b33e); the PDF tests of the
# suites (TestEveryFormat, TestMathEveryFormat, TestPDFHoldsContentImages, the handbook's) check them.
# linkchecker runs without threads (--threads 0): its ten threads share one Python interpreter,
# and on the sample site (960 URLs) they cost 31 CPU-s in 29 s against 11 CPU-s in 11 s for one
# (idle machine, 2 cores), with the same report.
validate: build tools
	rm -rf $(SITE) $(SITE)-books
	$(TIMED) ./$(BIN) demo --formats html,json,markdown,handbook,epub,cartridge --output $(SITE) > /dev/null
	chmod -R a+rX $(SITE)
	$(call TIMED_AS,validate linkchecker) linkchecker --no-status --threads 0 $(SITE)/index.html
	rm -rf $(SITE)-identity
	./$(BIN) demo --config exporter/cli/testdata/site-identity/curex.yaml --formats html --output $(SITE)-identity > /dev/null
	for f in $$(cd $(SITE) && find . -name '*.epub' -o -name '*.imscc' | sed 's|^\./||' | sort); do \
	  mkdir -p $(SITE)-books/$$f && unzip -q -d $(SITE)-books/$$f $(SITE)/$$f || exit 1; done
	@test -n "$$(find $(SITE)-books -name '*.xhtml' | head -1)" && test -n "$$(find $(SITE)-books -path '*.imscc/*.html' | head -1)" || { echo "validate: no book or cartridge in $(SITE)"; exit 1; }
	$(call TIMED_AS,validate Nu checker) java $(JAVA_SHORT) -jar $(VNU) --skip-non-html --errors-only --stdout $(SITE) $(SITE)-identity $(SITE)-books > $(SITE)-vnu.txt; \
	  left="$$(grep -v -E '$(EPUB_TYPE_ERROR)' $(SITE)-vnu.txt)"; \
	  if [ -n "$$left" ]; then echo "$$left"; exit 1; fi; \
	  echo "Nu checker: $$(find $(SITE) $(SITE)-identity $(SITE)-books -name '*.html' -o -name '*.xhtml' | wc -l) documents, no error but $$(grep -c . $(SITE)-vnu.txt) epub:type attributes of the books"

## bench: run every benchmark and write the tables of docs/BENCHMARKS.md (raw output in docs/bench/results.txt)
bench:
	GO=$(GO) .ci/bench.sh

## bench-hugo: render the same synthetic pages with curex and Hugo, side by side (needs Hugo, see docs/BENCHMARKS.md)
bench-hugo: build
	.ci/bench-hugo.sh

## soak: the long runs: 200 killed exports from a random seed, the fault matrix and incremental runs 20 times with the race detector
soak:
	CUREX_KILL_RUNS=$${CUREX_KILL_RUNS:-200} CUREX_KILL_SEED=$${CUREX_KILL_SEED:-$$(date +%s)} \
	  $(GO) test ./exporter/cli/ -run '^TestKilledExportsNeverMixOutputs$$' -count=1 -v -timeout 2h
	$(GO) test -race ./exporter/ -run '^(TestFaultMatrix|TestIncrementalExport|TestHostileContent)$$' -count=20 -timeout 3h

## fuzz: run every fuzz target for FUZZTIME each (default 20s)
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) FUZZ_WORKERS=$(FUZZ_WORKERS) .ci/fuzz.sh

## fuzz-corpus: fuzz every target for FUZZTIME and keep what it found in each package's testdata/fuzz/ (commit the result)
fuzz-corpus:
	GO=$(GO) FUZZTIME=$(FUZZTIME) KEEP_CORPUS=1 .ci/fuzz.sh

## vendor-temml: fetch Temml (TeX to MathML) from npm into exporter/internal/render/mathml/temml/, checking its SHA-256 (the build never needs npm)
vendor-temml:
	.ci/vendor-temml.sh

## vendor-mathfont: convert Latin Modern Math (Debian fonts-lmodern) to WOFF2 (Debian woff2) into exporter/internal/render/mathstyle/font/, checking its SHA-256 (the build never needs either)
vendor-mathfont:
	.ci/vendor-mathfont.sh

## vendor-stemmers: fetch the Snowball stemmers (@orama/stemmers) from npm into exporter/internal/render/terms/stemmers/, checking its SHA-256 (the build never needs npm)
vendor-stemmers:
	.ci/vendor-stemmers.sh

## screenshots: renew docs/screenshots/ (README) with headless Chromium and poppler, desktop and phone (390 px: a lesson, its drawer open, the matrix as a list), then shrink the PNGs losslessly with oxipng or optipng when installed
screenshots: tools
	CUREX_REQUIRE_TOOLS=1 $(GO) test ./exporter/internal/a11y/ -run '^TestScreenshots$$' -count=1 -screenshots $(CURDIR)/docs/screenshots
	@if command -v oxipng >/dev/null; then oxipng -q -o 4 --strip safe docs/screenshots/*.png; \
	elif command -v optipng >/dev/null; then optipng -quiet -o2 -strip all docs/screenshots/*.png; \
	else echo "screenshots: no oxipng or optipng, the PNGs are as Chromium wrote them"; fi

## golden: rewrite the golden files under testdata/ (every package whose tests use exporter/internal/golden, with -update); review them with git diff
golden:
	@pkgs="$$(grep -rlE --include='*_test.go' '^\s+"github.com/curex/curex/exporter/internal/golden"$$' $(GO_DIRS) | xargs -r -n1 dirname | sort -u | sed 's|^|./|')"; \
	if [ -z "$$pkgs" ]; then echo "no golden tests yet"; else $(GO) test -timeout 30m $$pkgs -update; fi

## sandbox: serve the sample dataset on http://127.0.0.1:8080
sandbox: build
	./$(BIN) sandbox

## demo: build curex, start the sandbox with the sample curricula and export them into output/ (FORMATS=html,pdf,cartridge,... to choose)
demo: build
	./$(BIN) demo --output output $(if $(FORMATS),--formats $(FORMATS))

clean:
	rm -rf bin dist .release
	find output -mindepth 1 ! -name .gitkeep -delete
