# pnsolve - GNU make.  `make` builds build/pnsolve and build/libpnsolve.a.
BUILD   ?= build
CC      ?= cc
ARCH    ?= -march=native
OPT     ?= -O2
CFLAGS  ?= $(OPT) $(ARCH) -g
SAN     ?=
ALL_CFLAGS = $(CFLAGS) $(SAN) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP -pthread
LDLIBS  = -lJudy -lm -pthread

MODULES := games ranking tablebase pns
LIB_SRC := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
CLI_SRC := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := $(wildcard bench/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

all: $(BUILD)/pnsolve $(BUILD)/libpnsolve.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libpnsolve.a: $(call obj,$(LIB_SRC))
	rm -f $@
	ar rcs $@ $^

$(BUILD)/pnsolve: $(call obj,$(CLI_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/run-tests: $(call obj,$(TEST_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ -lcunit $(LDLIBS)

$(BUILD)/bench: $(call obj,$(BENCH_SRC)) $(BUILD)/libpnsolve.a
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

# Installs what a fresh Debian machine lacks; does nothing when all is there.
deps:
	@missing=""; \
	command -v $(CC) >/dev/null 2>&1 || missing="$$missing gcc"; \
	[ -f /usr/include/Judy.h ] || missing="$$missing libjudy-dev"; \
	[ -f /usr/include/uthash.h ] || missing="$$missing uthash-dev"; \
	[ -f /usr/include/CUnit/CUnit.h ] || missing="$$missing libcunit1-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

test: deps
	$(MAKE) --no-print-directory $(BUILD)/run-tests
	./$(BUILD)/run-tests

# Tests under AddressSanitizer and UBSan, in a build directory of their own.
check-asan: deps
	$(MAKE) --no-print-directory test BUILD=build-asan OPT="-O1 -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"

demo: deps
	$(MAKE) --no-print-directory $(BUILD)/pnsolve
	./demo.sh $(BUILD)/pnsolve

bench: deps
	$(MAKE) --no-print-directory $(BUILD)/bench
	./$(BUILD)/bench

clean:
	rm -rf build build-asan

.PHONY: all deps test check-asan demo bench clean

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
