# pnsolve - GNU make.  `make` builds build/pnsolve and build/libpnsolve.a.
BUILD   ?= build
CC      ?= cc
ARCH    ?= -march=native
OPT     ?= -O2
CFLAGS  ?= $(OPT) $(ARCH) -g
SAN     ?=
ALL_CFLAGS = $(CFLAGS) $(SAN) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP -pthread
LDLIBS  = -lJudy -lsodium -lzstd -lbdd -lm -pthread
# Open MPI for the command line's MPI files (cli/*_mpi.c: one per use); the
# library stays free of it.
MPI_CFLAGS = $(shell pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS   = $(shell pkg-config --libs ompi-c 2>/dev/null)

# make install: the paths (DESTDIR prefixes them all, for packaging)
VERSION    = 1.1.0
SOMAJOR    = 1
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR    ?= $(PREFIX)/share/man
DOCDIR    ?= $(PREFIX)/share/doc/pnsolve
SONAME     = libpnsolve.so.$(SOMAJOR)

MODULES := util games ranking symbolic tbfile tablebase tbbuild tblayers tbreach proof pns pwrite puzzle campaign render api
LIB_SRC := $(sort $(shell find $(MODULES) -name "*.c"))
CLI_SRC := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := $(wildcard bench/*.c)
FIT_SRC := bench/fit/othello_eval.c

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

all: $(BUILD)/pnsolve $(BUILD)/libpnsolve.a $(BUILD)/libpnsolve.so.$(VERSION) $(BUILD)/pnsolve.1

# The Debian packages a build needs, by the file each installs; the tests
# also need CUnit and Graphviz.
BUILD_MISSING = missing=""; \
	command -v $(CC) >/dev/null 2>&1 || missing="$$missing gcc"; \
	[ -f /usr/include/Judy.h ] || missing="$$missing libjudy-dev"; \
	[ -f /usr/include/uthash.h ] || missing="$$missing uthash-dev"; \
	[ -f /usr/include/xxhash.h ] || missing="$$missing libxxhash-dev"; \
	[ -f /usr/include/sodium.h ] || missing="$$missing libsodium-dev"; \
	[ -f /usr/include/zstd.h ] || missing="$$missing libzstd-dev"; \
	[ -f /usr/include/bdd.h ] || missing="$$missing libbdd-dev"; \
	pkg-config --exists ompi-c 2>/dev/null || missing="$$missing libopenmpi-dev openmpi-bin pkg-config"; \
	[ -f /usr/include/jansson.h ] || missing="$$missing libjansson-dev"; \
	[ -f /usr/include/microhttpd.h ] || missing="$$missing libmicrohttpd-dev"; \
	[ -f /usr/include/lzma.h ] || missing="$$missing liblzma-dev"
MISSING = $(BUILD_MISSING); \
	[ -f /usr/include/CUnit/CUnit.h ] || missing="$$missing libcunit1-dev"; \
	/usr/bin/python3 -c "import cffi, pytest, ensurepip" 2>/dev/null && ls /usr/include/python3*/Python.h >/dev/null 2>&1 || \
	  missing="$$missing python3-cffi python3-pytest python3-venv python3-dev"; \
	command -v dot >/dev/null 2>&1 || missing="$$missing graphviz"

# Before any compiling: one line naming what is missing.
depcheck:
	@$(BUILD_MISSING); [ -z "$$missing" ] || { echo "pnsolve: missing Debian packages:$$missing (make deps installs them)" >&2; exit 1; }

$(BUILD)/%.o: %.c | depcheck
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The shared library: position-independent objects, only pnsolve.h's names
# exported (hidden by default, and the version script).
$(BUILD)/pic/%.o: %.c | depcheck
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(BUILD)/libpnsolve.so.$(VERSION): $(patsubst %.c,$(BUILD)/pic/%.o,$(LIB_SRC)) api/pnsolve.map
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=api/pnsolve.map -Wl,--no-undefined \
	  $(filter %.o,$^) -o $@ $(LDLIBS)

$(BUILD)/pnsolve.1: $(BUILD)/pnsolve docs/man.sh
	docs/man.sh $(BUILD)/pnsolve $(VERSION) > $@.tmp && mv $@.tmp $@

install: all
	@d="$(DESTDIR)$(PREFIX)"; while [ ! -d "$$d" ]; do d=$$(dirname "$$d"); done; \
	  [ -w "$$d" ] || { echo "make install: cannot write to $$d (run as root, or set PREFIX or DESTDIR)" >&2; exit 1; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/pnsolve $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/pnsolve $(DESTDIR)$(BINDIR)/pnsolve
	install -m 644 $(BUILD)/libpnsolve.a $(DESTDIR)$(LIBDIR)/libpnsolve.a
	install -m 755 $(BUILD)/libpnsolve.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpnsolve.so.$(VERSION)
	ln -sf libpnsolve.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libpnsolve.so
	install -m 644 api/pnsolve.h $(DESTDIR)$(INCLUDEDIR)/pnsolve/pnsolve.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|' api/pnsolve.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/pnsolve.pc
	sed -e 's|@DOCDIR@|$(DOCDIR)|g' $(BUILD)/pnsolve.1 > $(BUILD)/pnsolve.1.installed
	install -m 644 $(BUILD)/pnsolve.1.installed $(DESTDIR)$(MANDIR)/man1/pnsolve.1
	install -d $(DESTDIR)$(DOCDIR)/docs
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|' api/pnsolve-static.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/pnsolve-static.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pnsolve $(DESTDIR)$(LIBDIR)/libpnsolve.a $(DESTDIR)$(LIBDIR)/libpnsolve.so* \
	  $(DESTDIR)$(INCLUDEDIR)/pnsolve/pnsolve.h $(DESTDIR)$(LIBDIR)/pkgconfig/pnsolve.pc \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/pnsolve-static.pc $(DESTDIR)$(MANDIR)/man1/pnsolve.1
	rm -rf $(DESTDIR)$(DOCDIR)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/pnsolve 2>/dev/null

$(BUILD)/libpnsolve.a: $(call obj,$(LIB_SRC))
	rm -f $@
	ar rcs $@ $^

$(BUILD)/cli/%_mpi.o: cli/%_mpi.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(MPI_CFLAGS) -c $< -o $@

$(BUILD)/pnsolve: $(call obj,$(CLI_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS) $(MPI_LIBS) -ljansson -lmicrohttpd -llzma

# The explorer's page is built into the binary (.incbin in serve_page.c).
$(BUILD)/cli/serve_page.o: $(wildcard cli/page/*)

$(BUILD)/run-tests: $(call obj,$(TEST_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ -lcunit $(LDLIBS)

$(BUILD)/run-bench: $(call obj,$(BENCH_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

# The fitter of the Othello move-order evaluation (games/othello/othello_weights.c).
$(BUILD)/fit-othello-eval: $(call obj,$(FIT_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

# Installs what a fresh Debian machine lacks; does nothing when all is there.
deps:
	@$(MISSING); \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

# The build step of the tests on every core (the shared library too: the
# Python package's tests load it).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

test: deps
	$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/run-tests $(BUILD)/pnsolve \
	  $(if $(SAN),,$(BUILD)/libpnsolve.so.$(VERSION))
	tests/layering.sh $(BUILD)
	tests/results.sh
	./$(BUILD)/run-tests
	tests/cli.sh ./$(BUILD)/pnsolve
	tests/trust.sh ./$(BUILD)/pnsolve
	tests/engine.sh ./$(BUILD)/pnsolve
	python3 tests/serve_test.py ./$(BUILD)/pnsolve
	@if [ -n "$(SAN)" ]; then echo "python: skipped under a sanitizer (the interpreter is not instrumented)"; \
	  else $(MAKE) --no-print-directory check-python; fi
	tests/threads.sh ./$(BUILD)/pnsolve
	tests/install.sh $(BUILD) "$(SAN)"

# The explorer's page in headless Chromium: Debian's chromium and nodejs,
# npm's puppeteer-core at the version tests/browser/package-lock.json pins;
# the screenshots go to $(BUILD)/browser.
check-browser: deps
	@missing=""; command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then echo "make check-browser: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; fi
	$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/pnsolve
	cd tests/browser && npm ci --no-audit --no-fund --loglevel=error
	node tests/browser/explore.mjs ./$(BUILD)/pnsolve $(BUILD)/browser

# The Python package's tests (pytest) and docs/python.md's examples (doctest,
# from a directory holding Jungle's three-piece tables).
check-python: python $(BUILD)/pnsolve
	$(BUILD)/venv/bin/python -m pytest -q -p no:cacheprovider python/tests
	rm -rf $(BUILD)/pydoc && mkdir -p $(BUILD)/pydoc && cd $(BUILD)/pydoc && \
	  ../pnsolve tb build jungle --pieces 3 --dir tables >/dev/null 2>&1 && \
	  PATH="$$PWD/..:$$PATH" ../venv/bin/python -m doctest -o ELLIPSIS $(CURDIR)/docs/python.md && \
	  echo "python: docs/python.md's examples pass"

# The Python package (python/, cffi over libpnsolve.so) in a venv that sees
# Debian's cffi and pytest; installed with no network (docs/python.md).
python: $(BUILD)/libpnsolve.so.$(VERSION)
	@[ -x $(BUILD)/venv/bin/python ] || /usr/bin/python3 -m venv --system-site-packages $(BUILD)/venv
	BUILD=$(BUILD) $(BUILD)/venv/bin/pip install -q --no-index --no-build-isolation --force-reinstall --no-deps ./python
	@rm -rf python/build python/pnsolve.egg-info

# Cross-checks too long for `make test` (CI runs both): the tests that
# test_slow() widens (every state of 3x4 Ostle and its forbidden-move
# fields, its census and its reachable states; 10,000 random graphs,
# 2,000 resumed; 3,000 and 24 large graphs on threads; algorithm 2 cut
# short by its node limit).
check-slow: deps
	$(MAKE) --no-print-directory $(BUILD)/run-tests
	tests/rules_doc.sh
	$(MAKE) --no-print-directory $(BUILD)/pnsolve
	tests/mpi_tables.sh ./$(BUILD)/pnsolve
	PNSOLVE_SLOW=1 ./$(BUILD)/run-tests \
	  "ostle tables/every state of 3x3 Ostle (3x4: PNSOLVE_SLOW) with 2 and 3 pieces a side vs brute force with rule 8" \
	  "search/random cyclic graphs (2,500; 10,000 slow) against exhaustive path search" \
	  "search/threads on one table: exhaustive values of small graphs, one-thread values of large ones" \
	  "layers/random states against the score search; 4x5 (PNSOLVE_SLOW): the start +16, every score re-derived" \
	  "sweep/reachable layers of 4x4 (4x5: PNSOLVE_SLOW) as a naive enumeration counts them; resumed, stopped, damaged" \
	  "ostle tables/the census of states against the Ostle paper's Algorithm 6 on 3x3 (3x4: PNSOLVE_SLOW)" \
	  "ostle tables/reachability from the start against a breadth-first search over the reference rules, 3x3 (3x4: PNSOLVE_SLOW); stopped and resumed at every segment" \
	  "search/random graphs (500; 2,000 slow) resumed in a bigger and a smaller table" \
	  "campaign trust/mutated imported headers and journals with their files together (6 rounds: PNSOLVE_SLOW): 0 false claims" \
	  "symbolic/algorithms 2-5 on a 4x3 board: every state's outcome as a naive minimax gives, run whole, in slices from saves, (2, 4) Black by its own run, 2 cut short by its node limit (PNSOLVE_SLOW)"

# Tests under AddressSanitizer and UBSan, in a build directory of their own.
check-asan: deps
	$(MAKE) --no-print-directory test BUILD=build-asan OPT="-O1 -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"

# The threaded searches under ThreadSanitizer: the threads test of the unit
# tests, then short threaded searches of every game (tests/threads.sh).
check-tsan: deps
	$(MAKE) --no-print-directory BUILD=build-tsan OPT="-O1 -fno-omit-frame-pointer" SAN="-fsanitize=thread" \
	  build-tsan/run-tests build-tsan/pnsolve
	TSAN_OPTIONS="halt_on_error=1" ./build-tsan/run-tests \
	  "search/threads on one table: exhaustive values of small graphs, one-thread values of large ones" \
	  "othello solver/Othello's solver with threads: the scores and bounds of one thread" \
	  "tablebase/a table written on three threads is the one written in order" \
	  "api/a cancel set from another thread stops the search"
	TSAN_OPTIONS="halt_on_error=1" tests/threads.sh ./build-tsan/pnsolve

# A puzzle booklet rendered by headless Chromium (installed if missing): not
# in make test, which stays quick.
check-html: deps
	$(MAKE) --no-print-directory $(BUILD)/pnsolve
	tests/check_html.sh ./$(BUILD)/pnsolve

demo: deps
	$(MAKE) --no-print-directory $(BUILD)/pnsolve
	./demo.sh $(BUILD)/pnsolve

# `make bench BENCH="othello threads"`: only the sections named (bench/bench.c)
bench: deps
	$(MAKE) --no-print-directory $(BUILD)/run-bench
	./$(BUILD)/run-bench $(BENCH)

clean:
	rm -rf build build-asan build-tsan

.PHONY: check-browser all deps depcheck install uninstall python check-python test check-slow check-asan check-tsan check-html demo bench clean fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Fuzzes every parser, then the proof checker with mutants of valid graph
# proofs against the truth, then the readers of table and index files and
# join-proofs, each with libFuzzer for FUZZ_SECONDS (clang needed).
FUZZ_SECONDS ?= 60
fuzz: deps
	@mkdir -p build/fuzz
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  tests/fuzz/fuzz_parse.c $(LIB_SRC) -o build/fuzz/fuzz_parse $(LDLIBS)
	mkdir -p build/fuzz/corpus && printf '\0001r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w' > build/fuzz/corpus/j && \
	  printf '\001WWWWW/5/2H2/5/BBBBB b -' > build/fuzz/corpus/o && \
	  printf '\005root A\nA: or B\nB: win\n' > build/fuzz/corpus/g && \
	  printf '\006pnsolve-proof 2\ngame othello:4x4\nposition 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score -10\nresult proven\n0 - node\n1 c4 node\n2 d2 end\n' > build/fuzz/corpus/p && \
	  printf '\006pnsolve-proof 2\ngame othello:4x4\nposition 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score -10\nresult proven\n0 - node\n1 c4 node\n2 d2 exact\n2 b4 sym 2\n' > build/fuzz/corpus/q && \
	  printf '\007pnsolve-proof 2\ngame othello:4x4\nposition 4x4:-X--/-XX-/-XO-/---- O\nprover 1\nquestion win\nresult proven\n0 - node\n1 a1 node\n2 a2 ref 0\n' > build/fuzz/corpus/k && \
	  printf '\003O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;' > build/fuzz/corpus/f
	./build/fuzz/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=600 build/fuzz/corpus
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  tests/fuzz/fuzz_proof.c tests/mutate.c tests/graphs.c tests/ref_jungle.c $(LIB_SRC) -o build/fuzz/fuzz_proof $(LDLIBS)
	mkdir -p build/fuzz/proof-corpus && printf '\001\000\000\000\002\000\000\000\000\000\000\000\005\001' > build/fuzz/proof-corpus/a
	./build/fuzz/fuzz_proof -max_total_time=$(FUZZ_SECONDS) -max_len=64 build/fuzz/proof-corpus
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  tests/fuzz/fuzz_files.c $(LIB_SRC) -o build/fuzz/fuzz_files $(LDLIBS)
	$(MAKE) --no-print-directory $(BUILD)/pnsolve
	rm -rf build/fuzz/files && mkdir -p build/fuzz/files/corpus build/fuzz/files/t
	./$(BUILD)/pnsolve tb build ostle:3x3 --pieces 4 --dir build/fuzz/files/t >/dev/null 2>&1
	{ printf '\000'; cat build/fuzz/files/t/ostle-3x3-2+2.pntb; } > build/fuzz/files/corpus/table
	printf '\001' > build/fuzz/files/one && FUZZ_KEEP_INDEX=build/fuzz/files/ix ./build/fuzz/fuzz_files -runs=1 build/fuzz/files/one >/dev/null 2>&1
	{ printf '\001'; cat build/fuzz/files/ix; } > build/fuzz/files/corpus/index
	printf 'root A\nA: and B C\nB: or D E\nC: or D\nD: win\nE: and A\n' > build/fuzz/files/join.graph
	for n in B C; do ./$(BUILD)/pnsolve prove graph:build/fuzz/files/join.graph --position $$n --question win --proof build/fuzz/files/$$n.proof >/dev/null; done
	{ printf '\002'; cat build/fuzz/files/B.proof; printf -- '--\n'; cat build/fuzz/files/C.proof; } > build/fuzz/files/corpus/join
	./build/fuzz/fuzz_files -max_total_time=$(FUZZ_SECONDS) -max_len=8192 build/fuzz/files/corpus
