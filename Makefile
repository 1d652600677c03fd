# comics: build, test and install with SwiftPM alone.
# `make run` and `make test` install the Debian packages they need when run
# as root, and otherwise print the exact apt-get line.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
# The binary `install-built` installs; `install` builds it first.
COMICS ?= .build/release/comics
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# Build: sqlite3, zstd, zlib (older databases' texts) and libcurl headers; gdk-pixbuf and chafa are loaded at run
# time, and their -dev packages bring them with every image loader. Tests also:
# python3 (fixture server), faketime, man-db (the man page renders), zsh and
# fish (their completions load and complete), python3-pyte (browse's screen
# is read back through a terminal emulator), tmux (Ctrl-Z and fg need a shell
# with job control).
BUILD_PACKAGES = libsqlite3-dev libzstd-dev zlib1g-dev libxml2-dev libcurl4-openssl-dev libgdk-pixbuf-2.0-dev libchafa-dev libncurses-dev pkg-config
TEST_PACKAGES = $(BUILD_PACKAGES) python3 python3-pyte tmux faketime man-db zsh fish
# Benchmarks: the sqlite3 CLI, zstd and curl are the floors comics is
# measured against; GNU time reads peak memory.
BENCH_PACKAGES = $(BUILD_PACKAGES) python3 sqlite3 zstd curl time

.PHONY: all deps test-deps bench-deps build release run demo test soak sanitize fuzz bench corpus man install install-built uninstall clean

all: build

# Installs the Debian packages in $(1) that are missing (as root), or
# prints the apt-get line that would.
define install_packages
	@missing=""; \
	for package in $(1); do \
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
endef

deps:
	$(call install_packages,$(BUILD_PACKAGES))

test-deps:
	$(call install_packages,$(TEST_PACKAGES))

bench-deps:
	$(call install_packages,$(BENCH_PACKAGES))

build: deps
	$(SWIFT) build --product comics

# The release binary links the C++ runtime (which Swift's runtime needs)
# in, rather than loading libstdc++.so at every start: that load cost half
# a millisecond of a 4 ms `list`. SwiftPM's static-stdlib link line asks
# for -lstdc++ before any flag of ours, so a linker script of that name,
# in a folder searched before the compiler's own, names the archive.
STATIC_CXX = $(shell $(CC) -print-file-name=libstdc++.a)
STATIC_CXX_DIR = $(CURDIR)/.build/static-libstdc++

release: deps
	@mkdir -p $(STATIC_CXX_DIR); \
	if [ -f "$(STATIC_CXX)" ]; then echo 'INPUT($(STATIC_CXX))' > $(STATIC_CXX_DIR)/libstdc++.so; \
	else rm -f $(STATIC_CXX_DIR)/libstdc++.so; fi
	$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -L$(STATIC_CXX_DIR) --product comics

# Exit 4 is the network: a newcomer without one is shown `make demo`.
run: release
	@.build/release/comics list || { status=$$?; \
		if [ $$status = 4 ]; then echo "comics: no network? 'make demo' runs comics against the test fixtures on this machine" >&2; fi; \
		exit $$status; }

# comics against the tests' loopback server and a scratch database.
DEMO_ARGS ?=
demo: release
	$(call install_packages,python3)
	@Tests/Fixtures/demo.sh .build/release/comics $(DEMO_ARGS)

# The suite must leave a checkout as it found it: every file it writes
# belongs in a temporary directory, and every one of those is gone after it.
test: test-deps
	@before="$$(git status --porcelain 2>/dev/null)"; \
	leftovers() { find /tmp -maxdepth 1 -name 'comics-test-*' 2>/dev/null | sort; }; \
	temporary_before="$$(leftovers)"; \
	$(SWIFT) test --disable-swift-testing || exit $$?; \
	after="$$(git status --porcelain 2>/dev/null)"; \
	if [ "$$before" != "$$after" ]; then \
		echo "the test suite changed the checkout; git status before:" >&2; echo "$$before" >&2; \
		echo "and after:" >&2; echo "$$after" >&2; exit 1; \
	fi; \
	left=""; for folder in $$(leftovers); do \
		case "$$temporary_before" in *"$$folder"*) ;; *) left="$$left $$folder" ;; esac; \
	done; \
	if [ -n "$$left" ]; then echo "the test suite left temporary folders behind:$$left" >&2; exit 1; fi

# The test suite under AddressSanitizer, then ThreadSanitizer, each in its
# own build folder. Tests that age the clock with faketime are skipped: its
# preloaded library hangs a sanitized binary.
sanitize: test-deps
	COMICS_TEST_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no \
		$(SWIFT) test --disable-swift-testing --sanitize=address --scratch-path .build-asan
	COMICS_TEST_SANITIZER=thread SWIFT_BACKTRACE=enable=no \
		$(SWIFT) test --disable-swift-testing --sanitize=thread --scratch-path .build-tsan

# Figures side by side with their floors, medians of BENCH_RUNS runs (BENCHMARKS.md).
BENCH_RUNS ?= 9
bench: release bench-deps
	python3 Tests/Bench/bench.py .build/release/comics --runs $(BENCH_RUNS)

# How faithfully comics reads the real books of Tests/Corpus/books.tsv in
# both editions (README.md, Reading books): CORPUS is a folder holding
# their repositories at the commits listed; nothing is fetched. CI does not
# run it. CORPUS_ARGS: --book ID, --part held-out, --detail, --json FILE.
CORPUS ?=
CORPUS_ARGS ?=
corpus: release
	@test -n "$(CORPUS)" || { echo "usage: make corpus CORPUS=DIR (a folder with the repositories of Tests/Corpus/books.tsv)" >&2; exit 2; }
	python3 Tests/Corpus/corpus.py $(COMICS) "$(CORPUS)" $(CORPUS_ARGS)

# Each libFuzzer target for FUZZ_SECONDS (see FUZZING.md).
FUZZ_SECONDS ?= 60
fuzz: deps
	Tests/Fuzz/run.sh $(FUZZ_SECONDS)

# The crash and concurrency tests, longer than CI runs them.
SOAK_CRASH_RUNS ?= 1000
SOAK_SECONDS ?= 300
soak: test-deps
	COMICS_CRASH_RUNS=$(SOAK_CRASH_RUNS) COMICS_CONCURRENCY_SECONDS=$(SOAK_SECONDS) COMICS_FIRST_USE_ROUNDS=$(SOAK_CRASH_RUNS) \
		$(SWIFT) test --disable-swift-testing --filter CrashAndConcurrencyTests

# comics.1, generated from the command table by the built binary.
man: release
	$(COMICS) __man-page > comics.1

install: release
	$(MAKE) install-built COMICS="$(COMICS)"

# Installs an already built $(COMICS) with its man page and completions,
# all generated by it.
install-built:
	@test -x "$(COMICS)" || { echo "$(COMICS) is not built; run 'make install'" >&2; exit 1; }
	set -e; generated=$$(mktemp -d); trap 'rm -rf "$$generated"' EXIT; \
	"$(COMICS)" __man-page > "$$generated/comics.1"; \
	for shell in bash zsh fish; do "$(COMICS)" completions $$shell > "$$generated/$$shell"; done; \
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"; \
	install -m 0755 "$(COMICS)" "$(BINDIR)/comics"; \
	install -m 0644 "$$generated/comics.1" "$(MANDIR)/comics.1"; \
	install -m 0644 "$$generated/bash" "$(BASHDIR)/comics"; \
	install -m 0644 "$$generated/zsh" "$(ZSHDIR)/_comics"; \
	install -m 0644 "$$generated/fish" "$(FISHDIR)/comics.fish"

uninstall:
	rm -f "$(BINDIR)/comics" "$(MANDIR)/comics.1" "$(BASHDIR)/comics" "$(ZSHDIR)/_comics" "$(FISHDIR)/comics.fish"

clean:
	rm -rf .build
