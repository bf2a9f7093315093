# ucopy - build, test, install.  `make help` lists the targets.
#
# Quiet by default; V=1 shows the commands.  Honours CC, CFLAGS, CPPFLAGS,
# LDFLAGS, PREFIX, DESTDIR, LIBDIR, INCLUDEDIR, BINDIR, DATADIR, MANDIR.

VERSION_MAJOR := $(shell sed -n 's/^\#define UCOPY_VERSION_MAJOR \([0-9]*\)/\1/p' include/ucopy.h)
VERSION_MINOR := $(shell sed -n 's/^\#define UCOPY_VERSION_MINOR \([0-9]*\)/\1/p' include/ucopy.h)
VERSION_PATCH := $(shell sed -n 's/^\#define UCOPY_VERSION_PATCH \([0-9]*\)/\1/p' include/ucopy.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# WERROR=1 makes every warning an error (CI builds so: .ci/run); the
# default build keeps going on a newer compiler's new warnings.
WARN    += $(if $(WERROR),-Werror)
BASEFLAGS := -std=gnu11 -fPIC -fvisibility=hidden -pthread $(WARN)
ALL_CPPFLAGS = -Iinclude -Ilib -Ilib/$(PORT) -DUCOPY_PORT_$(PORT) $(CPPFLAGS)
LIB_CFLAGS := $(BASEFLAGS) $(CFLAGS)
PRG_CFLAGS := $(BASEFLAGS) $(CFLAGS)
# The command reports, next to its numbers, the flags the library it times
# was compiled with: the effective ones (less the warnings), not CFLAGS alone.
PRG_CPPFLAGS := -DUCOPY_CFLAGS='"$(strip $(filter-out $(WARN),$(LIB_CFLAGS)))"'
LDLIBS  += -lm

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share
# The manual pages: ucopy(1) and libucopy(3) (docs/man).
MANDIR     ?= $(DATADIR)/man
# The production size distributions that ship with ucopy (data/distributions).
DISTDIR    := $(DATADIR)/ucopy/distributions
DIST_FILES := $(wildcard data/distributions/*.csv) data/distributions/LICENSE \
	      data/distributions/README.md
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

B ?= build
ARCH := $(shell $(CC) -dumpmachine | sed 's/-.*//')
# The port built: lib/$(ARCH)/ when there is one, else lib/generic/ (plain C,
# the fault-tolerant copy without signals).  PORT=generic builds that on any
# architecture (make check-generic).
PORT ?= $(if $(wildcard lib/$(ARCH)/entry.c),$(ARCH),generic)

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRC  := $(wildcard lib/*.c lib/$(PORT)/*.c)
ASM_SRC  := $(wildcard lib/kernels/$(PORT)/*.S)
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o) $(ASM_SRC:%.S=$(B)/%.o)
# The command's layers, each including only from those before it: the
# formats (text, CSV, JSON, HTML, SVG), the measuring core, the writers of
# results, the commands (tests/cli/layers.sh checks it).
PRG_DIRS := programs/format programs/core programs/writers programs/commands
PRG_INC  := $(addprefix -I,$(PRG_DIRS))
PRG_SRC  := $(wildcard $(addsuffix /*.c,$(PRG_DIRS)))
PRG_OBJ  := $(PRG_SRC:%.c=$(B)/%.o)
# Objects of the command that tests may link against (all but main.c).
PRG_LIBOBJ := $(filter-out $(B)/programs/commands/main.o,$(PRG_OBJ))
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
BENCH_SRC := $(wildcard tests/bench_*.c)
BENCH_BIN := $(BENCH_SRC:tests/%.c=$(B)/tests/%)

SONAME := libucopy.so.$(VERSION_MAJOR)


.PHONY: FORCE all lib abi check check-aarch64 check-asan check-cet check-generic check-emulated check-ubsan bench bench-layouts fuzz report fleet regret rows check-derive install uninstall clean help
all: lib $(B)/ucopy $(B)/libucopy-preload.so

lib: $(B)/libucopy.a $(B)/libucopy.so

help:
	@echo "make            build $(B)/libucopy.a, $(B)/libucopy.so, $(B)/libucopy-preload.so and $(B)/ucopy"
	@echo "make check      build and run every test (last line: N passed, N failed)"
	@echo "make check-asan the tests under AddressSanitizer + UBSan (in $(B)-asan)"
	@echo "make check-ubsan the tests under UBSan alone, each report ending its test (in $(B)-ubsan)"
	@echo "make check-generic  the library without its port (PORT=generic), its tests (in $(B)-generic)"
	@echo "make check-cet  the library built for IBT/SHSTK (and BTI/PAC on aarch64) keeps them (in $(B)-cet)"
	@echo "make check-emulated the library's tests under qemu-x86_64 -cpu Nehalem, Haswell, max"
	@echo "make check-aarch64  cross-build for aarch64 (in $(B)-aarch64), every test under qemu-aarch64"
	@echo "make bench      the speed comparisons, side by side"
	@echo "make bench-layouts  ucopy_memcpy against glibc on the distributions, once per code layout (median over layouts)"
	@echo "make fuzz       build the libFuzzer targets with clang (in $(B)-fuzz)"
	@echo "make report     run the lab and write report.html"
	@echo "make fleet      every machine's reports in data/machines side by side: fleet.html"
	@echo "make regret     auto's regret on every measured machine in data/machines"
	@echo "make rows       derive auto's rows from data/machines into lib/x86_64/rows.c"
	@echo "make check-derive  break each rule of the derivation: its tests must fail"
	@echo "make abi        record $(B)/libucopy.so's ABI as the baseline in abi/ (tests/cli/abi.sh)"
	@echo "make install    install headers, libraries (libucopy-preload.so too), ucopy.pc, the command, the distributions and the man pages"
	@echo "make uninstall  remove what install installed"
	@echo "variables: V=1 WERROR=1 CC CFLAGS CPPFLAGS LDFLAGS PREFIX DESTDIR LIBDIR INCLUDEDIR BINDIR DATADIR MANDIR"

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(if $(filter lib/%,$<),$(LIB_CFLAGS),$(PRG_INC) $(PRG_CPPFLAGS) $(PRG_CFLAGS)) -MMD -MP -c $< -o $@

$(B)/%.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(ALL_CPPFLAGS) -Ilib/kernels/$(PORT) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

# The command looks for the distributions where install puts them
# (programs/core/datadir.h): datadir.o is rebuilt when that place changes, as
# a `make install PREFIX=...` after a plain `make` needs.  paths.stamp holds
# every install path something built names; it changes only when one does.
$(B)/programs/core/datadir.o: PRG_CPPFLAGS += -DUCOPY_DATADIR='"$(DISTDIR)"'
$(B)/programs/core/datadir.o: $(B)/paths.stamp
# child.o likewise for libucopy-preload.so (programs/core/child.h).
$(B)/programs/core/child.o: PRG_CPPFLAGS += -DUCOPY_LIBDIR='"$(LIBDIR)"'
$(B)/programs/core/child.o: $(B)/paths.stamp
# machine.o likewise for the commit the command is built from, which the
# report records (programs/core/machine.h); "unknown" outside a checkout of
# its own (a release tarball unpacked inside another repository included).
UCOPY_COMMIT := $(if $(wildcard .git),$(shell git describe --always --dirty --abbrev=12 2>/dev/null),)
$(B)/programs/core/machine.o: PRG_CPPFLAGS += -DUCOPY_COMMIT='"$(or $(UCOPY_COMMIT),unknown)"'
$(B)/programs/core/machine.o: $(B)/commit.stamp
$(B)/commit.stamp: FORCE
	@mkdir -p $(B)
	$(Q)echo '$(UCOPY_COMMIT)' | cmp -s - $@ || echo '$(UCOPY_COMMIT)' >$@
INSTALL_PATHS := $(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(DISTDIR)
$(B)/paths.stamp: FORCE
	@mkdir -p $(B)
	$(Q)echo '$(INSTALL_PATHS)' | cmp -s - $@ || echo '$(INSTALL_PATHS)' >$@

# The ABI baseline that tests/cli/abi.sh holds libucopy.so to (abi/abi.sh);
# run it for a deliberate change, with the soname moved where it breaks.
abi: $(B)/libucopy.so
	$(Q)sh abi/abi.sh write $(B)/libucopy.so $(ARCH)

$(B)/libucopy.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# -z nodelete: dlclose() must never unmap ucopy's signal handler, which a
# disposition, or another handler that chained to it, may still point at.
$(B)/libucopy.so: $(LIB_OBJ) lib/libucopy.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -pthread -Wl,-soname,$(SONAME) -Wl,-z,nodelete -Wl,--version-script=lib/libucopy.map \
		$(CFLAGS) $(LDFLAGS) -o $@.$(VERSION) $(LIB_OBJ) $(LDLIBS)
	$(Q)ln -sf libucopy.so.$(VERSION) $(B)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

# The command's link; bench-layouts puts a pad object ($1) before the library.
LINK_UCOPY = $(CC) $(PRG_CFLAGS) $(LDFLAGS) -o $@ $(PRG_OBJ) $(1) $(B)/libucopy.a $(LDLIBS)
$(B)/ucopy: $(PRG_OBJ) $(B)/libucopy.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(call LINK_UCOPY,)

# Tests link the static library (to reach hidden internals) and the
# command's objects (to test its parsers and statistics).
$(B)/tests/%: tests/%.c tests/check.h $(B)/libucopy.a $(PRG_LIBOBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(PRG_INC) $(PRG_CFLAGS) $(LDFLAGS) -o $@ $< $(PRG_LIBOBJ) $(B)/libucopy.a $(LDLIBS)

# libucopy-preload.so: with LD_PRELOAD, any dynamically linked program's
# memcpy, memmove, mempcpy and their _chk forms are ucopy's (preload/preload.c;
# `ucopy run`, `ucopy trace`, `ucopy compare A B -- CMD` use it).  The
# library is linked in whole; only the six entries are exported.
# The libc kernel's call to memcpy (lib/kernel.c) would come back to the
# interposer's: its copy calls ucopy_libc_memcpy, the C library's.
PRELOAD := $(B)/libucopy-preload.so
OBJCOPY ?= $(if $(filter %-gcc,$(CC)),$(patsubst %-gcc,%-objcopy,$(CC)),objcopy)
PRELOAD_OBJ := $(filter-out $(B)/lib/kernel.o,$(LIB_OBJ)) $(B)/preload/kernel.o
# Compiled apart with -fno-lto: objcopy cannot rename a symbol in an LTO
# object (CFLAGS=-flto, as distribution builds use).
$(B)/preload/kernel.o: lib/kernel.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (for the interposer)")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(LIB_CFLAGS) -fno-lto -c $< -o $@.tmp
	$(Q)$(OBJCOPY) --redefine-sym memcpy=ucopy_libc_memcpy $@.tmp $@ && rm -f $@.tmp
$(PRELOAD): preload/preload.c preload/preload.map $(PRELOAD_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(LIB_CFLAGS) $(LDFLAGS) -shared \
		-Wl,--version-script=preload/preload.map -o $@ $< $(PRELOAD_OBJ) -ldl

# Plain programs for the interposer to run, built without ucopy and with
# -fno-builtin so that their copies reach memcpy:
#   trace_prog         copies `ucopy trace` must report exactly (tests/cli/trace.sh)
#   trace_robust_prog  records under stress: many threads, a siglongjmp out of
#                      a copy (tests/cli/trace_robust.sh)
#   copy_loop          10M small copies timed in the loop: the interposer's and
#                      the recording's cost per call (docs/trace.md); run by hand
#   dist_loop          copies of sizes drawn from a distribution file, timed
#                      likewise (docs/trace.md); run by hand
#   preload_prog       copies before main, in threads, after fork, through _chk,
#                      in a library it dlopens (tests/cli/preload.sh)
#   overlap_prog       memcpy between overlapping buffers against memmove's
#                      result (tests/cli/preload.sh)
#   server_prog        copies, then waits for the signal that stops it
#                      (tests/cli/trace_stop.sh)
PLAIN_PROG := $(addprefix $(B)/tests/,trace_prog trace_robust_prog copy_loop preload_prog \
	overlap_prog server_prog dist_loop)
$(PLAIN_PROG): $(B)/tests/%: tests/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(PRG_CFLAGS) -fno-builtin $(LDFLAGS) -o $@ $< -ldl

$(B)/tests/libpreload_dl.so: tests/preload_dl.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(PRG_CFLAGS) -fno-builtin $(LDFLAGS) -shared -o $@ $< -ldl

# Copy routines of a user's own, for --routine (tests/routines/simple.c),
# built as a user builds one: a plain shared object.  test_routine loads
# it, so building that test builds it, in make check and in check-aarch64's
# cross-build alike; tests/cli/routine_bench.sh times it.
$(B)/tests/libroutine_simple.so: tests/routines/simple.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(PRG_CFLAGS) $(LDFLAGS) -shared -o $@ $<
$(B)/tests/test_routine: $(B)/tests/libroutine_simple.so

# Objects of a program's own whose fault sites tests/test_fault_objects.c
# registers: copy routines written with <ucopy-asm.h> (one source per
# architecture; none elsewhere, and the test says so), and one object per
# way a table can be malformed.
FAULT_BAD := fixup insn type trapnr last size twice
FAULT_OBJ := $(if $(wildcard tests/fault_object_$(ARCH).S),$(B)/tests/libfault_object.so \
	$(FAULT_BAD:%=$(B)/tests/libfault_bad_%.so))
FAULT_OBJ_LINK = $(CC) -Iinclude $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -shared -fPIC -nostdlib -o $@
$(B)/tests/libfault_object.so: tests/fault_object_$(ARCH).S tests/fault_object.h include/ucopy-asm.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(FAULT_OBJ_LINK) $<
$(B)/tests/libfault_bad_%.so: tests/fault_object_bad.S tests/fault_object.h include/ucopy-asm.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(FAULT_OBJ_LINK) -DBAD_$* $<
$(B)/tests/test_fault_objects: $(FAULT_OBJ)

# Copy routines for `ucopy check`'s tests (tests/cli/check.sh), right and
# deliberately wrong: memcpy and memmove ones in C, built so that the
# compiler keeps each loop as written (no call to memcpy in its place), and
# try ones in the architecture's assembly with their fault sites listed by
# <ucopy-asm.h> (on a port without one, none: the test says SKIP).
CHECK_ROUTINES := $(B)/tests/libroutine_check_c.so \
	$(if $(wildcard tests/routines/check_try_$(ARCH).S),$(B)/tests/libroutine_check_try.so)
KEEP_LOOPS = -fno-builtin $(shell $(CC) -Werror -fno-tree-loop-distribute-patterns -c -x c \
	/dev/null -o /dev/null 2>/dev/null && echo -fno-tree-loop-distribute-patterns)
$(B)/tests/libroutine_check_c.so: tests/routines/check_c.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(PRG_CFLAGS) $(KEEP_LOOPS) $(LDFLAGS) -shared -o $@ $<
$(B)/tests/libroutine_check_try.so: tests/routines/check_try_$(ARCH).S tests/routines/check_try.h include/ucopy-asm.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -Iinclude $(CFLAGS) -fPIC $(LDFLAGS) -shared -o $@ $<
check: $(CHECK_ROUTINES)

check: all $(TEST_BIN) $(PLAIN_PROG) $(B)/tests/libpreload_dl.so $(B)/tests/bench_bars
	$(Q)B=$(B) sh tests/run.sh $(TEST_BIN)

# ASan cannot see a fault ucopy recovers from as anything but a crash unless
# it lets the application's SIGSEGV/SIGBUS handler run: allow_user_segv_handler
# keeps ASan from replacing ucopy's handler, handle_segv/handle_sigbus=0 stop it
# installing its own.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
check-asan:
	$(Q)$(MAKE) --no-print-directory B=$(B)-asan CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" \
		ASAN_OPTIONS=allow_user_segv_handler=1:handle_segv=0:handle_sigbus=0:detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 check

# The library built for control-flow protection keeps it: IBT and SHSTK
# with -fcf-protection, BTI and PAC on aarch64 (tests/cet.sh; issue 45).
check-cet:
	$(Q)B=$(B) sh tests/cet.sh

# The library with no port (PORT=generic: the C kernel, the fault-tolerant
# copy without signals), on any architecture: it builds, and the copy,
# policy and fault-contract tests pass.
GENERIC_TESTS := test_kernels test_memmove test_policy test_text test_once test_fault test_interpose test_fault_objects
check-generic:
	$(Q)$(MAKE) --no-print-directory B=$(B)-generic PORT=generic \
		$(addprefix $(B)-generic/tests/,$(GENERIC_TESTS))
	$(Q)B=$(B)-generic sh tests/run.sh $(addprefix $(B)-generic/tests/,$(GENERIC_TESTS)) --no-cli

# The library's tests on emulated x86-64 CPUs (qemu-user's TCG, with the
# models' real CPUID: SSE2 only, AVX2 and ERMS without FSRM, and qemu's
# most), so that every resolution path and kernel class runs on any host.
EMU_CPUS  ?= Nehalem Haswell max
EMU_TESTS := test_kernels test_memmove test_fault test_fault_objects test_signals test_policy test_entry test_cpu \
	test_text test_once
check-emulated: all $(addprefix $(B)/tests/,$(EMU_TESTS))
	$(Q)command -v qemu-x86_64 >/dev/null || { echo "SKIP check-emulated: no qemu-x86_64 (Debian's qemu-user)"; exit 0; }; \
	fail=0; log=$$(mktemp); for cpu in $(EMU_CPUS); do echo "== qemu-x86_64 -cpu $$cpu"; \
		UCOPY_TEST_WRAP="qemu-x86_64 -cpu $$cpu" B=$(B) sh tests/run.sh \
			$(addprefix $(B)/tests/,$(EMU_TESTS)) --no-cli >$$log 2>&1 || fail=1; \
		grep -v '^qemu-x86_64: warning' $$log; \
	done; rm -f $$log; exit $$fail

# The aarch64 port from any host: cross-built with Debian's
# gcc-aarch64-linux-gnu and libc6-dev-arm64-cross, and every test, the CLI
# tests too, run under qemu-user's aarch64 `max` CPU (tests/run.sh puts
# UCOPY_TEST_WRAP before each program; the CLI tests run the command
# through UCOPY, a script that execs it under qemu).  The thread test's iterations are cut: under TCG its 800,000
# faults took most of a minute.
AARCH64_CC   ?= aarch64-linux-gnu-gcc
AARCH64_QEMU ?= qemu-aarch64 -L /usr/aarch64-linux-gnu
check-aarch64:
	$(Q)command -v $(AARCH64_CC) >/dev/null && command -v $(firstword $(AARCH64_QEMU)) >/dev/null || \
		{ echo "SKIP check-aarch64: needs $(AARCH64_CC) and $(firstword $(AARCH64_QEMU)) (Debian's gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user)"; exit 0; }; \
	$(MAKE) --no-print-directory B=$(B)-aarch64 CC=$(AARCH64_CC) \
		all $(TEST_BIN:$(B)/%=$(B)-aarch64/%) $(CHECK_ROUTINES:$(B)/%=$(B)-aarch64/%) && \
	printf '#!/bin/sh\nexec %s "$$(dirname "$$(readlink -f "$$0")")/ucopy" "$$@"\n' "$(AARCH64_QEMU)" >$(B)-aarch64/ucopy-qemu && \
	chmod +x $(B)-aarch64/ucopy-qemu && \
	UCOPY_TEST_WRAP="$(AARCH64_QEMU)" UCOPY_TEST_THREAD_ITERATIONS=20000 B=$(B)-aarch64 \
		UCOPY=$(CURDIR)/$(B)-aarch64/ucopy-qemu sh tests/run.sh $(TEST_BIN:$(B)/%=$(B)-aarch64/%)

check-ubsan:
	$(Q)$(MAKE) --no-print-directory B=$(B)-ubsan CFLAGS="-O2 -g -fsanitize=undefined -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=undefined" check

export ASAN_OPTIONS UBSAN_OPTIONS

bench: all $(BENCH_BIN)
	$(Q)for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done
	$(Q)echo "== tests/bench_company.sh"; UCOPY=$(B)/ucopy sh tests/bench_company.sh
	$(Q)echo "== tests/bench_cell.sh"; UCOPY=$(B)/ucopy BARS=$(B)/tests/bench_bars sh tests/bench_cell.sh

# make bench-layouts: the command linked once per pad, with a pad of that many
# bytes before libucopy.a, so that the library's code moves and nothing else
# does; tests/bench_layouts.sh times the distributions in each and reports the
# median over layouts (a repeated sequence's speed moves with code placement:
# docs/performance.md, "Code placement").  Multiples of 64 keep every kernel's
# lines as they are.
LAYOUT_PADS ?= 64 1088 2240 3392
$(B)/layouts/pad%.o:
	@mkdir -p $(dir $@)
	$(Q)printf '\t.text\n\t.p2align 6\n\t.skip %s, 0xcc\n\t.section .note.GNU-stack,"",@progbits\n' $* | \
		$(CC) -c -x assembler - -o $@
$(B)/layouts/ucopy-p%: $(PRG_OBJ) $(B)/layouts/pad%.o $(B)/libucopy.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(call LINK_UCOPY,$(B)/layouts/pad$*.o)
bench-layouts: $(LAYOUT_PADS:%=$(B)/layouts/ucopy-p%)
	$(Q)UCOPY_DATA_DIR="$${UCOPY_DATA_DIR:-$(CURDIR)/data/distributions}" \
		tests/bench_layouts.sh $(B)/layouts $(LAYOUT_PADS)

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(B)-fuzz/%)
FUZZ_CC ?= clang
fuzz:
	$(Q)$(MAKE) --no-print-directory B=$(B)-fuzz CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" lib $(addprefix $(B)-fuzz/,$(PRG_LIBOBJ:$(B)/%=%))
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BIN)

$(B)-fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(B)-fuzz/libucopy.a $(wildcard $(B)-fuzz/programs/*/*.o)
	@$(if $(Q),echo "  FUZZ    $<")
	$(Q)$(FUZZ_CC) $(ALL_CPPFLAGS) $(PRG_INC) -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< \
		$(filter-out $(B)-fuzz/programs/commands/main.o,$(wildcard $(B)-fuzz/programs/*/*.o)) $(B)-fuzz/libucopy.a $(LDLIBS)

report: all
	$(Q)$(B)/ucopy report -o report.html && echo "report: $(CURDIR)/report.html"

# The corpus's machines side by side (docs/fleet.md): reads the reports,
# measures nothing.
fleet: $(B)/ucopy
	$(Q)$(B)/ucopy fleet -q -o fleet.html --json fleet.json data/machines/*/report-*.json.gz && \
		echo "fleet: $(CURDIR)/fleet.html"

# auto's regret on every machine of the corpus (data/machines/README.md);
# the bounds are reported, not enforced: make check does not fail on them
# (docs/performance.md, "auto's regret on the corpus", says which are
# broken and why).
regret: $(B)/ucopy
	$(Q)$(B)/ucopy regret

# Each rule of the derivation and of the default row's broken on purpose:
# its test must fail on every one (about 4 minutes; not part of check).
check-derive:
	$(Q)bash tests/derive_mutants.sh

# auto's derived rows (lib/x86_64/rows.c) from the corpus: the derivation
# of the ucopy just built, over data/machines/ (docs/calibrate.md).  The
# library is then rebuilt with them; make check fails while the checked-in
# file differs from what this writes (tests/cli/rows.sh).
rows: $(B)/ucopy
	$(Q)$(B)/ucopy derive --rows data/machines -o lib/x86_64/rows.c
	$(Q)echo "wrote lib/x86_64/rows.c"

$(B)/ucopy.pc: ucopy.pc.in include/ucopy.h $(B)/paths.stamp
	@mkdir -p $(B)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' $< > $(B)/ucopy.pc

install: all $(B)/ucopy.pc
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(Q)install -m 644 include/ucopy.h include/ucopy-asm.h $(DESTDIR)$(INCLUDEDIR)/
	$(Q)install -m 644 $(B)/libucopy.a $(DESTDIR)$(LIBDIR)/libucopy.a
	$(Q)install -m 755 $(B)/libucopy.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libucopy.so.$(VERSION)
	$(Q)ln -sf libucopy.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libucopy.so
	$(Q)install -m 755 $(PRELOAD) $(DESTDIR)$(LIBDIR)/libucopy-preload.so
	$(Q)install -m 644 $(B)/ucopy.pc $(DESTDIR)$(PKGCONFIGDIR)/ucopy.pc
	$(Q)install -m 755 $(B)/ucopy $(DESTDIR)$(BINDIR)/ucopy
	$(Q)install -d $(DESTDIR)$(DISTDIR)
	$(Q)install -m 644 $(DIST_FILES) $(DESTDIR)$(DISTDIR)/
	$(Q)install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	$(Q)install -m 644 docs/man/ucopy.1 $(DESTDIR)$(MANDIR)/man1/ucopy.1
	$(Q)install -m 644 docs/man/libucopy.3 $(DESTDIR)$(MANDIR)/man3/libucopy.3
	@echo "installed ucopy $(VERSION) under $(DESTDIR)$(PREFIX)"

uninstall:
	$(Q)rm -f $(DESTDIR)$(INCLUDEDIR)/ucopy.h $(DESTDIR)$(INCLUDEDIR)/ucopy-asm.h $(DESTDIR)$(LIBDIR)/libucopy.a \
		$(DESTDIR)$(LIBDIR)/libucopy.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libucopy.so $(DESTDIR)$(LIBDIR)/libucopy-preload.so $(DESTDIR)$(PKGCONFIGDIR)/ucopy.pc $(DESTDIR)$(BINDIR)/ucopy
	$(Q)rm -f $(addprefix $(DESTDIR)$(DISTDIR)/,$(notdir $(DIST_FILES)))
	$(Q)rmdir $(DESTDIR)$(DISTDIR) $(DESTDIR)$(DATADIR)/ucopy 2>/dev/null || true
	$(Q)rm -f $(DESTDIR)$(MANDIR)/man1/ucopy.1 $(DESTDIR)$(MANDIR)/man3/libucopy.3

# ucopy kbuild (docs/kbuild.md): the kernel compatibility headers and
# wrappers of kcompat/, found beside the command in the source tree and
# installed under INCLUDEDIR/ucopy/kcompat, a directory of their own (their
# linux/ and asm/ must not shadow the system's); toolchain.o, which looks
# there (programs/core/toolchain.h), is rebuilt when that place changes.
KCOMPAT_DIR   := $(INCLUDEDIR)/ucopy/kcompat
KCOMPAT_FILES := $(shell find kcompat -type f \( -name '*.h' -o -name '*.S' \) 2>/dev/null)
$(B)/programs/core/toolchain.o: PRG_CPPFLAGS += -DUCOPY_INCLUDEDIR='"$(INCLUDEDIR)"'
$(B)/programs/core/toolchain.o: $(B)/paths.stamp
.PHONY: install-kcompat uninstall-kcompat
install: install-kcompat
install-kcompat:
	$(Q)for f in $(KCOMPAT_FILES); do install -D -m 644 $$f $(DESTDIR)$(KCOMPAT_DIR)/$${f#kcompat/} || exit 1; done
uninstall: uninstall-kcompat
uninstall-kcompat:
	$(Q)rm -rf $(DESTDIR)$(KCOMPAT_DIR)
	$(Q)rmdir $(DESTDIR)$(INCLUDEDIR)/ucopy 2>/dev/null || true

clean:
	$(Q)rm -rf $(B) $(B)-asan $(B)-ubsan $(B)-fuzz $(B)-generic $(B)-aarch64 report.html report.json fleet.html fleet.json

-include $(shell find $(B) -name '*.d' 2>/dev/null)
