# Passbook: `make run` serves, `make test` tests. Both install what they need.
SHELL   := /bin/bash
GO      ?= go
BIN     := bin/passbook
DATA    ?= ./passbook.db
ADDR    ?= :8080
CORPUS  ?= ../shared/corpus
EVALOUT ?= /tmp/passbook-eval
export CGO_ENABLED := 1

# Debian packages the build and the tests link against or call (chromium:
# the browser test of the web page drives it headless).
DEBS := libtesseract-dev libleptonica-dev tesseract-ocr pkg-config chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test eval bench fuzz clean

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(GO) build -trimpath -o $(BIN) .

run: build
	$(BIN) serve --addr $(ADDR) --data $(DATA)

test: deps
	$(GO) vet ./...
	OMP_THREAD_LIMIT=1 $(GO) test -count=1 -timeout 30m ./...

# eval converts every statement of the dev corpus with `passbook extract`
# and prints the scorer's summary (F1 by kind).
eval: build
	@if [ ! -f $(CORPUS)/dev/manifest.json ]; then echo "no corpus at $(CORPUS)/dev"; exit 1; fi
	@rm -rf $(EVALOUT) && mkdir -p $(EVALOUT)
	@python3 -c 'import json,sys; [print(e["file"]) for e in json.load(open(sys.argv[1]))]' $(CORPUS)/dev/manifest.json | \
		xargs -P 2 -I{} sh -c '$(BIN) extract --format json -o $(EVALOUT)/{}.json $(CORPUS)/dev/{} 2>$(EVALOUT)/{}.err || echo "FAILED {}: $$(cat $(EVALOUT)/{}.err)"'
	@python3 $(CORPUS)/score.py --dir $(CORPUS)/dev --outputs $(EVALOUT)

bench: deps
	OMP_THREAD_LIMIT=1 $(GO) test -run '^$$' -bench . -benchmem ./...

fuzz: deps
	$(GO) test ./extract -run '^$$' -fuzz FuzzParseAmount -fuzztime 30s
	$(GO) test ./extract -run '^$$' -fuzz FuzzLexDate -fuzztime 30s

clean:
	rm -rf bin
