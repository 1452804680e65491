# curex — keep this file a thin layer over the go tool.
GO          ?= go
BIN         := bin/curex
VERSION     ?= 0.1.0
COMMIT      ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS     := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
GOBIN       := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN)/staticcheck
STATICCHECK_VERSION := v0.8.2
FUZZTIME    ?= 20s
GO_DIRS     := cmd exporter templates themes
TOOLS       := .tools
VNU_VERSION := 26.9.27
VNU         := $(TOOLS)/node_modules/vnu-jar/build/dist/vnu.jar
SITE        ?= /tmp/curex-validate-site

.PHONY: all build deps tools lint test validate bench fuzz golden demo sandbox clean

all: build

## build: compile bin/curex
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/curex

## deps: install what the tests need (Go modules, staticcheck)
deps: $(STATICCHECK)
	$(GO) mod download

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

## lint: gofmt, go vet, staticcheck
lint: deps
	@unformatted="$$(gofmt -l $(GO_DIRS))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

## test: install what is needed, lint, run the whole suite with the race detector, validate the sample site
test: lint
	$(GO) mod verify
	$(MAKE) validate
	$(GO) test -race -count=1 ./...

## tools: install the site validators: Java and linkchecker (apt-get when missing), the Nu HTML checker (npm)
tools: $(VNU)
	@command -v java >/dev/null || { apt-get update && apt-get install -y default-jre-headless; }
	@command -v linkchecker >/dev/null || { apt-get update && apt-get install -y linkchecker; }

$(VNU):
	mkdir -p $(TOOLS)
	npm install --no-audit --no-fund --prefix $(TOOLS) vnu-jar@$(VNU_VERSION)

## validate: export the sample site, then check it with the W3C Nu HTML checker and linkchecker
validate: build tools
	rm -rf $(SITE)
	./$(BIN) demo --output $(SITE) > /dev/null
	chmod -R a+rX $(SITE)
	java -jar $(VNU) --skip-non-html --errors-only $(SITE)
	linkchecker --no-status $(SITE)/index.html

## bench: run the benchmarks (figures go to docs/BENCHMARKS.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## fuzz: run every fuzz target for FUZZTIME each (default 20s)
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

## golden: refresh golden files under testdata/
golden:
	@pkgs="$$(grep -rl --include='*_test.go' 'flag.Bool("update"' $(GO_DIRS) | xargs -r -n1 dirname | sort -u | sed 's|^|./|')"; \
	if [ -z "$$pkgs" ]; then echo "no golden tests yet"; else $(GO) test $$pkgs -update; fi

## sandbox: serve the sample dataset on http://127.0.0.1:8080
sandbox: build
	./$(BIN) sandbox

## demo: build curex, start the sandbox with the sample curricula and export them into output/
demo: build
	./$(BIN) demo --output output

clean:
	rm -rf bin
	find output -mindepth 1 ! -name .gitkeep -delete
