# Passbook: `make run` serves, `make test` tests. Both install what they need.
SHELL   := /bin/bash
GO      ?= go
BIN     := bin/passbook
DATA    ?= ./passbook.db
ADDR    ?= 127.0.0.1:8080
# The statement corpus with truths (make eval and make ratchet; not make test).
CORPUS  ?= ../shared/corpus
EVALOUT ?= /tmp/passbook-eval
export CGO_ENABLED := 1

# What `passbook version` prints; any of them may be given on the command line.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.buildDate=$(DATE)

# The binary is linked statically (static.go says why): at start the
# dynamic loader had 57 libraries to map and relocate, which was most of
# the cost of `passbook version` and of every new worker process. The
# libraries after -static are what Tesseract and Leptonica's archives need,
# in link order. STATIC= (empty) builds the dynamic binary, as `go build`
# and `go test` do.
STATIC      ?= 1
,           := ,
STATIC_LIBS := -lleptonica -ltiff -lwebpmux -lwebp -lgif -lopenjp2 -lpng16 -ljpeg -lzstd -llzma -lLerc -ljbig -ldeflate -lz -lstdc++ -lgomp -lm -lpthread
BUILD_FLAGS := $(if $(STATIC),-tags static$(,)netgo$(,)osusergo -ldflags '$(LDFLAGS) -linkmode external -extldflags "-static $(STATIC_LIBS)"',-ldflags '$(LDFLAGS)')

# Debian packages the build and the tests link against or call.
# The -dev packages after pkg-config hold the static archives of
# Leptonica's image codecs, for the static build.
# python3-ofxparse, libfinance-qif-perl and libxml2-utils (xmllint) are
# the export tests' independent readers of OFX/QFX/QBO, QIF and CAMT.053;
# e2fsprogs gives chattr, for the readiness tests that make a data file
# immutable; chromium: the browser test of the web page drives it headless.
DEBS := libtesseract-dev libleptonica-dev tesseract-ocr pkg-config libgif-dev libtiff-dev libwebp-dev libopenjp2-7-dev libzstd-dev liblerc-dev libjbig-dev libdeflate-dev python3-ofxparse libfinance-qif-perl libxml2-utils e2fsprogs chromium
# LibreOffice opens the excel-eu CSV and the XLSX in the export tests, and
# its Writer prints random statements in extract/synth (with Chromium, in
# fonts from fonts-liberation and fonts-dejavu-core). It is large, so only
# the test targets install it. fonts-noto-core and fonts-wqy-microhei
# carry the scripts beyond Latin, Greek and Cyrillic (extract/ocr's
# script pages, the world's images). postgresql: the store's tests and
# the two-node harness start a PostgreSQL server of their own from it
# (initdb in a temporary directory; as root, run as nobody). qpdf and
# mupdf-tools: the integrity report's tests re-save, merge, linearise and
# forge statements with them (extract/integrity).
TEST_DEBS := libreoffice-calc-nogui libreoffice-writer-nogui fonts-liberation fonts-dejavu-core postgresql qpdf mupdf-tools fonts-noto-core fonts-wqy-microhei
# The world statements' producers beyond Chromium and LibreOffice (groff,
# pdflatex, wkhtmltopdf, Ghostscript for hand-written PostScript,
# ReportLab; PDFKit comes from npm, below) and the face of their CJK dates
# (issue 39): extract/synth's tests print through them.
WORLD_DEBS := groff texlive-latex-base texlive-latex-recommended texlive-fonts-recommended wkhtmltopdf ghostscript python3-reportlab fonts-ipafont-gothic
# PDFKit, at the version its package-lock.json pins.
PDFKIT := extract/synth/testdata/pdfkit
# The export tests read MT940 with mt940js (npm; Node.js and npm from Debian
# when the machine has no npm).
MT940JS := export/testdata/mt940js
# The browser tests check the page with axe-core (npm), at the version
# testdata/axe/package-lock.json pins.
AXE := testdata/axe
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The Tesseract models extract/ocr embeds (extract/ocr/tessdata, committed):
# English and the Latin languages of the lexicon, and one language pack a
# script other than Latin (Cyrillic, Greek, Arabic, Hebrew, Devanagari,
# Thai, Han simplified and traditional, Japanese, Korean). Debian's
# packages are Tesseract's "fast" models; `make models` copies them in
# again. bench-deps installs them for the tesseract command's side of the
# cost comparison.
MODEL_LANGS := eng deu fra spa ita por nld rus ell ara heb hin tha chi_sim chi_tra jpn kor
MODEL_DEBS  := $(foreach l,$(MODEL_LANGS),tesseract-ocr-$(subst _,-,$(l)))

# Tools bench-service compares Passbook with, and drives it with; and
# PostgreSQL, for BENCH_STORE=postgres.
BENCH_DEBS := mupdf-tools tesseract-ocr wrk postgresql util-linux time $(MODEL_DEBS)

.PHONY: models deps test-deps bench-deps build run test eval redact-eval ocr-verbatim ratchet integrity-eval eval-random eval-world bench bench-service bench-extract bench-start fuzz contrib-check stress nodes soak clean

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

test-deps: deps
	@missing=""; for p in $(TEST_DEBS) $(WORLD_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for the tests:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@# mt940js, the export tests' independent MT940 reader, from the npm
	@# registry at the version package-lock.json pins.
	@[ -d $(MT940JS)/node_modules/mt940js ] || (cd $(MT940JS) && npm ci --no-audit --no-fund --silent)
	@[ -f $(AXE)/node_modules/axe-core/axe.min.js ] || (cd $(AXE) && npm ci --no-audit --no-fund --silent)
	@[ -d $(PDFKIT)/node_modules/pdfkit ] || (cd $(PDFKIT) && npm ci --no-audit --no-fund --silent)

build: deps
	set -o pipefail; $(GO) build -trimpath $(BUILD_FLAGS) -o $(BIN) . 2>&1 | \
		{ grep -v -e '^# passbook$$' -e 'warning: Using .* in statically linked' -e ': in function' || true; }

run: build
	$(BIN) serve --addr $(ADDR) --data $(DATA)

test: test-deps
	$(GO) vet ./...
	@echo "make test: the corpus ratchet is not run here (it needs $(CORPUS)); make ratchet runs it, and so does CI"
	OMP_THREAD_LIMIT=1 $(GO) test -count=1 -timeout 30m ./...

# eval converts every file of every set under $(CORPUS) (text PDFs, scans,
# page images, photos and negatives) in-process, writes each JSON download
# body to $(EVALOUT)/SET/FILE.json (score.py reads them) and prints per set
# the statements exactly right, the negatives right and the statements that
# say ok while wrong, F1 by kind and the files that fail. SETS=real,chromium
# and KINDS=text (or images, or scan,png,photo) narrow it. It fails on any
# statement that says ok while wrong.
SETS ?= dev,real,public,chromium,reportlab,office,typeset,real2,real3
eval: deps
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -v -tags eval -count=1 -timeout 60m -run '^TestEvalCorpus$$' ./extract/engine \
		-args -sets $(SETS) -kinds '$(if $(filter command line environment,$(origin KINDS)),$(KINDS))' -out $(EVALOUT)

# redact-eval copies every text statement of the corpus with passbook
# redact and prints how many were copied (each reading as its original)
# and how many refused, by reason; REDACT_OUT=DIR keeps the copies,
# REDACT_SEED=N draws other factors and letters, REDACT_WEEKS=N moves
# the dates by N weeks.
redact-eval: deps
	CORPUS=$(abspath $(CORPUS)) $(GO) test -v -tags eval -count=1 -timeout 60m -run '^TestRedactCorpus$$' ./extract/redact

# ocr-verbatim prints, per set and kind of the corpus's scans, page images
# and photos, the share of the truth's amounts and dates that recognition
# prints verbatim, before any analysis: for the pipeline (the words the
# engine reads) and for each Tesseract mode alone (OCRMODES), ending with a
# line "pipeline amounts A% dates D%". MISSED=1 lists what each missed.
OCRMODES ?= pipeline,psm11,psm6
ocr-verbatim: deps
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -v -tags verbatim -count=1 -timeout 60m -run '^TestOCRVerbatim$$' ./extract/ocr \
		-args -sets $(SETS) -modes $(OCRMODES) $(if $(MISSED),-show-missed)

# integrity-eval forges every genuine text PDF of the corpus in eleven ways
# (extract/integrity/forge_test.go) and prints the integrity report's
# recall per kind of forgery, the share of local finds on the right page
# and box, and the genuine files (as made, re-saved by qpdf and mutool,
# linearised, merged, annotated) it flags at medium or above. VERBOSE=1
# lists the forgeries missed.
integrity-eval: test-deps
	CORPUS=$(abspath $(CORPUS)) $(if $(VERBOSE),VERBOSE=1) $(GO) test -v -tags forgery -count=1 -timeout 120m -run '^TestForgeryRecall$$' ./extract/integrity

# ratchet holds every file of every corpus set to the committed baseline
# (extract/engine/testdata/corpus_baseline.json): no file that was exactly
# right may go wrong, none may say ok while wrong. It needs the corpus
# ($(CORPUS)), which a fresh clone does not have, so make test does not run
# it; .ci/run runs it after make test. UPDATE=1 moves the baseline up with
# what the engine now reads exactly; LOWER=1 with it lets files drop out
# (say why in the commit).
ratchet: deps
	OMP_THREAD_LIMIT=1 CORPUS=$(abspath $(CORPUS)) $(GO) test -tags ratchet -count=1 -timeout 30m -run '^TestCorpusRatchet$$' ./extract/engine $(if $(UPDATE),-args -update-baseline $(if $(LOWER),-lower-baseline))

models: bench-deps
	for l in $(MODEL_LANGS); do cp /usr/share/tesseract-ocr/5/tessdata/$$l.traineddata extract/ocr/tessdata/; done

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

# nodes runs issue 22's harness with issue 41's, in full (make test runs a
# shorter slice of each): three servers on one PostgreSQL database, 50
# racing uploads of a free account, kill -9 of one node during 30 uploads
# of 30 pages (every job it held completed within 30 s, none twice, quota
# exact), an upload on one node downloaded on another, a folder made on one
# node read on another; then a rolling upgrade under continuous uploads
# from the binary of UPGRADE_FROM (a git revision, HEAD~1 by default) to
# this one, and two rolling restarts of this one (no 5xx but 503 busy, no
# job left claimed by a stopped node, every upload completed once). It
# prints its figures (lines starting NODES).
UPGRADE_FROM ?= HEAD~1
nodes: test-deps
	set -o pipefail; NODES_FULL=1 UPGRADE_FROM=$(UPGRADE_FROM) OMP_THREAD_LIMIT=1 $(GO) test -run '^TestNodes' -count=1 -v -timeout 30m . 2>&1 | \
		grep -E '^(NODES|--- |FAIL|ok|PASS)|_test.go:'

# bench-extract times `passbook extract -d out DIR` on 40 generated text
# statements against `mutool draw -F stext`, one process per file, in pages
# a second (issue 21's goal: 0.8 × cores × mutool). Under a minute.
bench-extract: build bench-deps
	PASSBOOK_BIN=$${PASSBOOK_BIN:-$(abspath $(BIN))} OMP_THREAD_LIMIT=1 $(GO) test -tags benchservice -run '^TestBenchExtract$$' -count=1 -v -timeout 20m .

# bench-start measures a start of the binary: `passbook version` and a
# worker's start (started and given end of input), beside a Go hello world
# built with the same toolchain, 200 runs each interleaved, median and 90th
# percentile CPU and wall time, peak RSS (issue 42's goal: within 2x of the
# hello world). BEFORE_BIN=OLD measures an older build in the same run.
bench-start: build
	PASSBOOK_BIN=$${PASSBOOK_BIN:-$(abspath $(BIN))} BEFORE_BIN=$(BEFORE_BIN) $(GO) test -tags benchservice -run '^TestBenchStart$$' -count=1 -v -timeout 20m .

bench: deps
	OMP_THREAD_LIMIT=1 $(GO) test -run '^$$' -bench . -benchmem ./...

# fuzz runs each parser's fuzz target: upload parsing, query parameters and
# CSV/XLSX escaping (issue 9) for FUZZTIME each, the amount and date lexers
# for 30 s. New failing inputs land in the package's testdata/fuzz; copy
# the cache's new corpus entries there too to keep them as seeds.
FUZZTIME ?= 3m
fuzz: deps
	$(GO) test ./extract/cells -run '^$$' -fuzz FuzzParseAmount -fuzztime 30s
	$(GO) test ./extract/cells -run '^$$' -fuzz FuzzLexDate -fuzztime 30s
	$(GO) test ./server -run '^$$' -fuzz '^FuzzUpload$$' -fuzztime $(FUZZTIME)
	$(GO) test ./server -run '^$$' -fuzz '^FuzzQuery$$' -fuzztime $(FUZZTIME)
	$(GO) test ./export -run '^$$' -fuzz '^FuzzEscaping$$' -fuzztime $(FUZZTIME)
	$(GO) test ./extract/integrity -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME)

# contrib-check runs systemd-analyze verify on the units in contrib/, with
# this build standing in for /usr/local/bin/passbook.
contrib-check: build
	@command -v systemd-analyze >/dev/null || { echo "contrib-check needs systemd-analyze (apt-get install systemd)"; exit 1; }
	@d=$$(mktemp -d); for f in contrib/*.service contrib/*.timer; do 		sed 's#/usr/local/bin/passbook#$(CURDIR)/$(BIN)#g' $$f > $$d/$${f#contrib/}; done; 	systemd-analyze verify $$d/*; rc=$$?; rm -rf $$d; [ $$rc = 0 ] && echo "contrib units verified"; exit $$rc

# stress runs issue 9's harness against real servers on loopback (port 0)
# and prints its figures (lines starting STRESS); with issue 32's upgrade
# under load (TestStressUpgrade: stop, restart from a newer build, while
# clients upload) and issue 41's busy machine (TestStressBusy: text, scans
# and photos converted while two processes a core spin; none may fail;
# make test runs TestBusySlice). The disk-full part mounts
# a 20 MB tmpfs, so it needs root. It stops by itself within ~10 minutes.
stress: deps
	set -o pipefail; CORPUS=$(abspath $(CORPUS)) OMP_THREAD_LIMIT=1 $(GO) test -tags stress -run '^TestStress' -count=1 -v -timeout 20m . 2>&1 | \
		grep -E '^(STRESS|--- |FAIL|ok|PASS)|_test.go:'

# soak runs issue 32's harness: an office's day (MINUTES, 60 by default;
# MINUTES=10 is a shorter day with the same checks) of mixed load (text,
# scans and photos uploaded, status polls, downloads in every format,
# corrections, folder changes, deletes) on SQLite, then on PostgreSQL. It
# records memory, open files, goroutines, data size, status p99 and queue
# age every minute (lines starting SOAK, with the server's Go heap: live,
# in use, free), checks that nothing is stuck or lost, quota exact and
# resources flat, and writes docs/soak-STORE.json and docs/soak-STORE.png
# (SOAK_OUT=DIR writes them there instead; SOAK_PROFILES=DIR adds a heap
# profile a sample, for go tool pprof -base). TestSoakSlice, 40 s of it,
# runs in make test.
MINUTES ?= 60
soak: test-deps
	set -o pipefail; MINUTES=$(MINUTES) OMP_THREAD_LIMIT=1 $(GO) test -tags soak -run '^TestSoak$$' -count=1 -v -timeout $$(( $(MINUTES) * 2 + 30 ))m . 2>&1 | \
		grep -E '^(SOAK|--- |FAIL|ok|PASS)|_test.go:'

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

# eval-world measures the engine on what it has not learned (issue 27):
# N text statements and NIMAGES image statements (scans, photos of one-page
# statements, screenshots) per producer, in CLDR's conventions of 71
# locales, in words the engine knows, words held out from its lexicon and
# invented words, across the layout families of extract/synth/world.go.
# It prints exactly right, F1 and false ok per producer, family, locale
# group and language, and ends with one line per vocabulary and kind
# ("held-out text 87.0% F1 .951 false ok 0"). Failing statements go to
# WORLDOUT. FAMILY=day-groups draws one family. Same SEED, same statements.
# The statements are drawn wide (worldwide.go: each family in variations,
# CLDR's long and full dates, other calendars and digits, issue 39's
# traits) through every producer (PRODUCER=fpdf,groff narrows it);
# PLAINWORLD=1 draws the families as first drawn, as make test's slice does.
# WORLDFORCE=kanji-date,kv-three-across forces those variations and traits
# on every statement they fit: one class, drawn on every seed.
# WORLDCACHE=dir keeps the printed PDFs and reads them back on the next run
# with the same seed: engine work converts the same statements in seconds.
NIMAGES    ?= 60
FAMILY     ?=
WORLDOUT   ?= /tmp/passbook-eval-world
WORLDCACHE ?=
eval-world: test-deps
	OMP_THREAD_LIMIT=1 $(GO) test -v -count=1 -timeout 600m -run '^TestEvalWorld$$' ./extract/synth \
		-args -world-n $(N) -world-n-images $(NIMAGES) -world-seed $(SEED) -world-producer $(PRODUCER) -world-out $(WORLDOUT) $(if $(WORLDCACHE),-world-cache $(WORLDCACHE)) \
		-world-min-exact 0 -world-max-false-ok -1 $(if $(FAMILY),-world-family $(FAMILY)) $(if $(WORLDFORCE),-world-force $(WORLDFORCE)) $(if $(PLAINWORLD),,-world-wide)
