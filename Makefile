# The two commands: `make run` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
BIN := .build/debug/TeamsketchDesktop
SERVER_BIN := .build/debug/TeamsketchServer
LOCALEDIR := .build/locale
LINGUAS := de
PY := /usr/bin/python3
APP_ID := org.teamsketch.Desktop
PREFIX ?= /usr/local
DATADIR = $(PREFIX)/share

.PHONY: run server api fuzz-api test build deb test-packages deps-run deps-test ui bench fuzz fuzz-smoke pot mo i18n-check check-resources sounds install uninstall clean

run: deps-run build
	$(BIN)

# Each stage is timed (scripts/stage.sh; docs/TESTING.md has the figures).
# The loopback session tests (the relay's too, over HTTP and HTTPS) run on
# their own: their timers (a hello within 10 s, a peer cut off after 2 s
# without reading) are the product's, and the hundreds of other tests
# running at once on two cores could starve them for longer than that.
# The two-server-processes relay tests run alone after them. The fuzz
# targets build and run at the lowest priority beside the UI tests, which
# mostly wait for windows and screenshots.
test: deps-test
	@scripts/stage.sh --begin
	@scripts/stage.sh build bash -c '$(MAKE) --no-print-directory mo && $(SWIFT) build $(BUILD_FLAGS) --build-tests'
	@scripts/stage.sh checks bash -c 'scripts/check-imports.sh && scripts/check-imports.sh --self-test && scripts/api-checksum.sh check'
	@scripts/stage.sh swift-unit env SWIFT=$(SWIFT) scripts/swift-test.sh $(BUILD_FLAGS) --skip-build --skip LearnNetTests --skip RelayTests --skip RelayOfferTests --skip TLSTests
	@scripts/stage.sh swift-loopback env SWIFT=$(SWIFT) scripts/swift-test.sh $(BUILD_FLAGS) --skip-build --filter 'LearnNetTests|RelayTests|RelayOfferTests|TLSTests' --skip MultiProcessRelayTests
	@scripts/stage.sh swift-multiprocess env SWIFT=$(SWIFT) scripts/swift-test.sh $(BUILD_FLAGS) --skip-build --filter MultiProcessRelayTests
	@scripts/stage.sh api-fuzz scripts/api-fuzz.sh 30
	@scripts/stage.sh web scripts/web-test.sh
	@scripts/stage.sh i18n $(MAKE) --no-print-directory i18n-check
	@scripts/stage.sh resources $(MAKE) --no-print-directory check-resources
	@scripts/stage.sh packages scripts/package-test.sh
	@scripts/stage.sh --background fuzz-smoke $(MAKE) --no-print-directory fuzz-smoke
	@scripts/stage.sh ui scripts/ui-tests.sh; ui=$$?; scripts/stage.sh --wait fuzz-smoke && exit $$ui
	@scripts/stage.sh --summary

# The school server on its defaults: SQLite in ./teamsketch-server-data,
# port 8470. `make server ARGS="--database postgres://…"` for PostgreSQL.
server: deps-run
	$(SWIFT) build $(BUILD_FLAGS) --product TeamsketchServer
	$(SERVER_BIN) $(ARGS)

# Regenerates the API code from openapi.yaml (committed, so builds and CI
# never run the generator). Builds the generator once into .build-openapi.
API_DIR := Sources/SchoolServerAPI
api:
	$(SWIFT) build -c release --package-path tools/openapi --scratch-path .build-openapi --product swift-openapi-generator
	.build-openapi/release/swift-openapi-generator generate $(API_DIR)/openapi.yaml \
	  --config $(API_DIR)/openapi-generator-config.yaml --output-directory $(API_DIR)/Generated
	scripts/api-checksum.sh write

build: mo
	$(SWIFT) build $(BUILD_FLAGS)

deps-run:
	@scripts/deps.sh run

# Debian 12 packages of the desktop and the server in .build/deb/, the
# Swift runtime linked in, checked by lintian (README.md, "Debian packages").
deb:
	@scripts/deps.sh deb
	scripts/deb.sh release

# The packages (from the debug build) installed into a clean Debian 12
# root made by debootstrap, run there, then purged: nothing may be left.
test-packages: deps-test
	scripts/package-test.sh

deps-test:
	@scripts/deps.sh test

# UI tests: the real app under Xvfb, driven by xdotool, judged by screenshots;
# net tests: DNS-SD of sessions and of the school server against a private
# avahi-daemon (needs both executables, which `build` makes). test_install.py
# runs `make install`/`uninstall` into a temporary prefix (its `build` step
# finds the build done) and starts the installed app. Two shards at once,
# the second in a network namespace of its own (scripts/ui-tests.sh).
ui:
	scripts/ui-tests.sh

bench:
	@scripts/deps.sh bench
	scripts/bench.sh

# libFuzzer, one target per parser (docs/FUZZING.md). `make fuzz SECONDS=600`
# runs each target that long. `fuzz-smoke`, part of `make test`, builds every
# target and runs each for 3 seconds from its seeds, so a target that stops
# compiling, or an input that crashes, fails the tests. Crashing inputs are
# kept in .build-fuzz/artifacts/ and their paths printed.
SECONDS ?= 60
fuzz:
	Tests/Fuzz/run.sh $(SECONDS)

fuzz-smoke:
	Tests/Fuzz/run.sh 3

# Schemathesis against the running server and openapi.yaml (`make test`
# runs 30 examples per operation on SQLite; this runs many more on both).
API_EXAMPLES ?= 1000
fuzz-api: build
	scripts/api-fuzz.sh $(API_EXAMPLES) sqlite
	scripts/api-fuzz.sh $(API_EXAMPLES) postgres

# Translations. xgettext has no Swift mode; C mode with the `_` keyword reads
# Swift calls once the backticks Swift needs around `_` are stripped.
POT_SRC := .build/pot-src
pot:
	rm -rf $(POT_SRC)
	while read -r f; do mkdir -p $(POT_SRC)/$$(dirname $$f); sed 's/`_`(/_(/g' $$f > $(POT_SRC)/$$f; done < po/POTFILES
	cd $(POT_SRC) && xgettext -L C --keyword=_ --keyword=_n:1,2 --from-code=UTF-8 --add-comments=TRANSLATORS \
	  --package-name=teamsketch --msgid-bugs-address=teamsketch@localhost --no-wrap \
	  -f $(CURDIR)/po/POTFILES -o $(CURDIR)/po/teamsketch.pot
	for l in $(LINGUAS); do msgmerge -q --no-wrap --no-fuzzy-matching --update --backup=none po/$$l.po po/teamsketch.pot; done

# Every string in the sources has a German translation: German is never partial.
i18n-check:
	rm -rf $(POT_SRC) && mkdir -p $(POT_SRC)
	while read -r f; do mkdir -p $(POT_SRC)/$$(dirname $$f); sed 's/`_`(/_(/g' $$f > $(POT_SRC)/$$f; done < po/POTFILES
	cd $(POT_SRC) && xgettext -L C --keyword=_ --keyword=_n:1,2 --from-code=UTF-8 -f $(CURDIR)/po/POTFILES -o current.pot
	test -z "$$(comm -13 <(sort po/POTFILES) <(grep -rlE '`_`\(|\b_n\(' Sources | sort))" || { echo "po/POTFILES misses: $$(comm -13 <(sort po/POTFILES) <(grep -rlE '`_`\(|\b_n\(' Sources | sort))"; exit 1; }
	msgcmp po/de.po $(POT_SRC)/current.pot 2>&1 && msgfmt --check -o /dev/null po/de.po
	@echo "i18n: German catalogue complete"

mo:
	@for l in $(LINGUAS); do \
	  mkdir -p $(LOCALEDIR)/$$l/LC_MESSAGES; \
	  msgfmt --check -o $(LOCALEDIR)/$$l/LC_MESSAGES/teamsketch.mo po/$$l.po; \
	done

# The desktop entry and the AppStream metadata are what menus and software
# centres read; each validator fails on errors.
check-resources:
	desktop-file-validate resources/$(APP_ID).desktop
	appstreamcli validate --no-net resources/$(APP_ID).metainfo.xml

# The game's sounds are committed; this remakes them after a change to the script.
sounds:
	$(PY) scripts/make-sounds.py resources/sounds

# Installs under PREFIX (default /usr/local; DESTDIR for packaging) both
# executables, the resources where the app finds them (PREFIX/share/teamsketch,
# beside its bin/), the desktop entry, the AppStream metadata, the icons and
# the translations, and writes the list of what it installed to
# PREFIX/share/teamsketch/installed-files; `make uninstall` with the same
# PREFIX and DESTDIR removes exactly that. scripts/install.sh says how.
# The executables are those `make build` makes with BUILD_FLAGS (debug by
# default; `make install BUILD_FLAGS="-c release"` for a release build).
install: build
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" LOCALEDIR="$(LOCALEDIR)" LINGUAS="$(LINGUAS)" APP_ID=$(APP_ID) \
	  scripts/install.sh install "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)"

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" LOCALEDIR="$(LOCALEDIR)" LINGUAS="$(LINGUAS)" APP_ID=$(APP_ID) \
	  scripts/install.sh uninstall

clean:
	rm -rf .build
