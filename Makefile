# comics: build, test and install with SwiftPM alone.
# `make run` and `make test` install the Debian packages they need when run
# as root, and otherwise print the exact apt-get line.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BINDIR = $(DESTDIR)$(PREFIX)/bin
# Build: sqlite3, libcurl, gdk-pixbuf and chafa headers. Tests: python3
# (fixture server), faketime.
APT_PACKAGES = libsqlite3-dev libcurl4-openssl-dev libgdk-pixbuf-2.0-dev libchafa-dev pkg-config python3 faketime

.PHONY: all deps build release run test install uninstall clean

all: build

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "missing packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
		fi; \
	fi

build: deps
	$(SWIFT) build --product comics

release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product comics

run: release
	.build/release/comics list

test: deps
	$(SWIFT) test --disable-swift-testing

install: release
	install -d "$(BINDIR)"
	install -m 0755 .build/release/comics "$(BINDIR)/comics"

uninstall:
	rm -f "$(BINDIR)/comics"

clean:
	rm -rf .build
