# Passbook: `make run` serves, `make test` tests. Both install what they need.
SHELL   := /bin/bash
GO      ?= go
BIN     := bin/passbook
DATA    ?= ./passbook.db
ADDR    ?= 127.0.0.1:8080
# The statement corpus with truths (make eval, and the ratchet in make test).
CORPUS  ?= $(firstword $(wildcard ../shared/corpus /work/shared/corpus) ../shared/corpus)
EVALOUT ?= /tmp/passbook-eval
export CGO_ENABLED := 1

# What `passbook version` prints; any of them may be given on the command line.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.buildDate=$(DATE)

# Debian packages the build and the tests link against or call.
# python3-ofxparse and libxml2-utils (xmllint) are the export tests'
# independent readers of OFX/QFX/QBO and CAMT.053; e2fsprogs gives chattr,
# for the readiness tests that make a data file immutable; chromium: the
# browser test of the web page drives it headless.
DEBS := libtesseract-dev libleptonica-dev tesseract-ocr pkg-config python3-ofxparse libxml2-utils e2fsprogs chromium
# LibreOffice opens the excel-eu CSV and the XLSX in the export tests, and
# its Writer prints random statements in extract/synth (with Chromium, in
# fonts from fonts-liberation and fonts-dejavu-core). It is large, so only
# the test targets install it. postgresql: the store's tests and the
# two-node harness start a PostgreSQL server of their own from it (initdb
# in a temporary directory; as root, run as nobody).
TEST_DEBS := libreoffice-calc-nogui libreoffice-writer-nogui fonts-liberation fonts-dejavu-core postgresql
# The export tests read MT940 with mt940js (npm; Node.js and npm from Debian
# when the machine has no npm).
MT940JS := export/testdata/mt940js
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Tools bench-service compares Passbook with, and drives it with; and
# PostgreSQL, for BENCH_STORE=postgres.
BENCH_DEBS := mupdf-tools tesseract-ocr wrk postgresql util-linux

.PHONY: deps test-deps bench-deps build run test eval ocr-verbatim ratchet eval-random bench bench-service bench-extract fuzz contrib-check stress nodes clean

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

test-deps: deps
	@missing=""; for p in $(TEST_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for the tests:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@# mt940js, the export tests' independent MT940 reader, from the npm
	@# registry at the version package-lock.json pins.
	@[ -d $(MT940JS)/node_modules/mt940js ] || (cd $(MT940JS) && npm ci --no-audit --no-fund --silent)

build: deps
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

run: build
	$(BIN) serve --addr $(ADDR) --data $(DATA)

test: test-deps
	$(GO) vet ./...
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -count=1 -timeout 30m ./...

# eval converts every file of every set under $(CORPUS) (text PDFs, scans,
# page images, photos and negatives) in-process, writes each JSON download
# body to $(EVALOUT)/SET/FILE.json (score.py reads them) and prints per set
# the statements exactly right, the negatives right and the statements that
# say ok while wrong, F1 by kind and the files that fail. SETS=real,chromium
# and KINDS=text (or images, or scan,png,photo) narrow it. It fails on any
# statement that says ok while wrong.
SETS ?= dev,real,public,chromium,reportlab
eval: deps
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -v -tags eval -count=1 -timeout 60m -run '^TestEvalCorpus$$' ./extract/engine \
		-args -sets $(SETS) -kinds '$(if $(filter command line environment,$(origin KINDS)),$(KINDS))' -out $(EVALOUT)

# ocr-verbatim prints, per set and kind of the corpus's scans, page images
# and photos, the share of the truth's amounts and dates that recognition
# prints verbatim, before any analysis: for the pipeline (the words the
# engine reads) and for each Tesseract mode alone (OCRMODES), ending with a
# line "pipeline amounts A% dates D%". MISSED=1 lists what each missed.
OCRMODES ?= pipeline,psm11,psm6
ocr-verbatim: deps
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -v -tags verbatim -count=1 -timeout 60m -run '^TestOCRVerbatim$$' ./extract/ocr \
		-args -sets $(SETS) -modes $(OCRMODES) $(if $(MISSED),-show-missed)

# ratchet moves the corpus baseline (extract/engine/testdata/corpus_baseline.json)
# up with what the engine now reads exactly; LOWER=1 lets files drop out of
# it (say why in the commit).
ratchet: deps
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -count=1 -run '^TestCorpusRatchet$$' ./extract/engine -args -update-baseline $(if $(LOWER),-lower-baseline)

bench-deps:
	@missing=""; for p in $(BENCH_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# bench-service starts bin/passbook (or PASSBOOK_BIN) on loopback and prints
# issue 10's table beside mutool and tesseract, with peak RSS. A few minutes.
# BENCH_STORE=postgres runs the server on a PostgreSQL server of its own.
bench-service: build bench-deps
	BENCH_STORE=$(BENCH_STORE) PASSBOOK_BIN=$${PASSBOOK_BIN:-$(abspath $(BIN))} OMP_THREAD_LIMIT=1 $(GO) test -tags benchservice -run '^TestBenchService$$' -count=1 -v -timeout 20m .

# nodes runs issue 22's harness (also part of make test): two servers on one
# PostgreSQL database, 50 racing uploads of a free account, kill -9 of one
# node during 20 uploads, an upload on one node downloaded on the other, a
# folder made on one node read on the other; it prints its figures (lines
# starting NODES).
nodes: test-deps
	set -o pipefail; OMP_THREAD_LIMIT=1 $(GO) test -run '^TestNodes$$' -count=1 -v -timeout 10m . 2>&1 | \
		grep -E '^(NODES|--- |FAIL|ok|PASS)|_test.go:'

# bench-extract times `passbook extract -d out DIR` on 40 generated text
# statements against `mutool draw -F stext`, one process per file, in pages
# a second (issue 21's goal: 0.8 × cores × mutool). Under a minute.
bench-extract: build bench-deps
	PASSBOOK_BIN=$${PASSBOOK_BIN:-$(abspath $(BIN))} OMP_THREAD_LIMIT=1 $(GO) test -tags benchservice -run '^TestBenchExtract$$' -count=1 -v -timeout 20m .

bench: deps
	OMP_THREAD_LIMIT=1 $(GO) test -run '^$$' -bench . -benchmem ./...

# fuzz runs each parser's fuzz target: upload parsing, query parameters and
# CSV/XLSX escaping (issue 9) for FUZZTIME each, the amount and date lexers
# for 30 s. New failing inputs land in the package's testdata/fuzz; copy
# the cache's new corpus entries there too to keep them as seeds.
FUZZTIME ?= 3m
fuzz: deps
	$(GO) test ./extract -run '^$$' -fuzz FuzzParseAmount -fuzztime 30s
	$(GO) test ./extract -run '^$$' -fuzz FuzzLexDate -fuzztime 30s
	$(GO) test ./server -run '^$$' -fuzz '^FuzzUpload$$' -fuzztime $(FUZZTIME)
	$(GO) test ./server -run '^$$' -fuzz '^FuzzQuery$$' -fuzztime $(FUZZTIME)
	$(GO) test ./export -run '^$$' -fuzz '^FuzzEscaping$$' -fuzztime $(FUZZTIME)

# contrib-check runs systemd-analyze verify on the units in contrib/, with
# this build standing in for /usr/local/bin/passbook.
contrib-check: build
	@command -v systemd-analyze >/dev/null || { echo "contrib-check needs systemd-analyze (apt-get install systemd)"; exit 1; }
	@d=$$(mktemp -d); for f in contrib/*.service contrib/*.timer; do 		sed 's#/usr/local/bin/passbook#$(CURDIR)/$(BIN)#g' $$f > $$d/$${f#contrib/}; done; 	systemd-analyze verify $$d/*; rc=$$?; rm -rf $$d; [ $$rc = 0 ] && echo "contrib units verified"; exit $$rc

# stress runs issue 9's harness against real servers on loopback (port 0)
# and prints its figures (lines starting STRESS). The disk-full part mounts
# a 20 MB tmpfs, so it needs root. It stops by itself within ~10 minutes.
stress: deps
	set -o pipefail; CORPUS=$(abspath $(CORPUS)) OMP_THREAD_LIMIT=1 $(GO) test -tags stress -run '^TestStress' -count=1 -v -timeout 20m . 2>&1 | \
		grep -E '^(STRESS|--- |FAIL|ok|PASS)|_test.go:'

clean:
	rm -rf bin

# eval-random generates N random-layout statements per kind (text, scan,
# png, photo), prints each through PRODUCER (fpdf, chromium, libreoffice, a
# comma-separated list or all: the same layouts and truths each time),
# converts them in-process and prints per producer and kind F1, the share
# exactly right, false "ok" statuses and failures by feature; failing
# samples go to EVALRANDOMOUT. Reproduce a failure with its seed.
# FORCE=card,unsorted gives every statement those features; PLAIN=1 keeps
# every other choice at its most common option, to look at one feature at a
# time. NPRINTED (default N) is the number printed by Chromium and
# LibreOffice, which take 10-20 times as long as fpdf.
N            ?= 300
NPRINTED     ?= 0
SEED         ?= 1
KINDS        ?= text
PRODUCER     ?= all
MINEXACT     ?= 0
MAXFALSEOK   ?= 0
FORCE        ?=
PLAIN        ?=
EVALRANDOMOUT ?= /tmp/passbook-eval-random
eval-random: test-deps
	OMP_THREAD_LIMIT=1 $(GO) test -v -count=1 -timeout 600m -run '^TestEvalRandom$$' ./extract/synth \
		-args -n $(N) -n-printed $(NPRINTED) -seed $(SEED) -kinds $(KINDS) -producer $(PRODUCER) -out $(EVALRANDOMOUT) \
		-min-exact $(MINEXACT) -max-false-ok $(MAXFALSEOK) -force '$(FORCE)' $(if $(PLAIN),-plain)
