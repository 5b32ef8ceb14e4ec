# The two commands: `make run` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
BIN := .build/debug/TeamsketchDesktop
LOCALEDIR := .build/locale
LINGUAS := de
PY := /usr/bin/python3

.PHONY: run test build deps-run deps-test unit ui bench pot mo clean

run: deps-run build
	$(BIN)

test: deps-test build
	$(SWIFT) test $(BUILD_FLAGS) 2>&1 | tee .build/swift-test.log; test $${PIPESTATUS[0]} -eq 0
	$(MAKE) --no-print-directory ui

build: mo
	$(SWIFT) build $(BUILD_FLAGS)

deps-run:
	@scripts/deps.sh run

deps-test:
	@scripts/deps.sh test

# UI tests: the real app under Xvfb, driven by xdotool, judged by screenshots.
ui:
	$(PY) -m pytest -q Tests/ui

bench:
	@scripts/deps.sh bench
	scripts/bench.sh

# Translations: xgettext has no Swift mode; C mode with the _ keyword reads
# `_("...")` calls in Swift sources correctly.
pot:
	xgettext -L C --keyword=_ --from-code=UTF-8 --add-comments=TRANSLATORS \
	  --package-name=teamsketch --msgid-bugs-address=teamsketch@localhost \
	  -f po/POTFILES -o po/teamsketch.pot
	for l in $(LINGUAS); do msgmerge -q --update --backup=none po/$$l.po po/teamsketch.pot; done

mo:
	@for l in $(LINGUAS); do \
	  mkdir -p $(LOCALEDIR)/$$l/LC_MESSAGES; \
	  msgfmt --check -o $(LOCALEDIR)/$$l/LC_MESSAGES/teamsketch.mo po/$$l.po; \
	done

clean:
	rm -rf .build
