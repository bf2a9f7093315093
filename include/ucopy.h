/*
 * ucopy.h - the libucopy API.
 *
 * libucopy is the Linux kernel's user-copy machinery brought to user space:
 * memory copies that pick their strategy ("kernel") by CPU feature and size,
 * and a fault-tolerant copy with the kernel's copy_from_user contract.
 *
 * This header is the documentation.  Everything it declares is exported from
 * libucopy.so; nothing else is.  The library never prints, never exits, and
 * reads only the environment variables listed under "Environment".
 *
 * Environment
 *   UCOPY_POLICY   the policy ucopy_memcpy() uses: a named policy ("auto",
 *                  "linux-6.4", ...) or policy text ("64:word,movsb").  An
 *                  invalid value is ignored: what would apply without it
 *                  is used (a profile that loads, else "auto") and
 *                  ucopy_active() says why.
 *   UCOPY_FEATURES features the library must not use, as glibc's
 *                  GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F: "-avx512f,-fsrm"
 *                  (ucopy_features_mask(): removals only).  It never adds a
 *                  feature the CPU lacks; an invalid value is ignored whole,
 *                  and ucopy_cpu()->mask_note says why.  SSE2, x86-64's
 *                  baseline, can be taken from the kernels policies choose
 *                  but not from the library: ucopy_memmove()'s overlapping
 *                  copies and the libc kernel's fault-tolerant stand-in
 *                  still use it.
 *   UCOPY_PROFILE  path of a calibration profile (see ucopy_profile_load()).
 *                  When unset or empty, the profile at the default path
 *                  is used if a file is there (ucopy_profile_default_path(),
 *                  which reads XDG_CACHE_HOME and HOME).
 * In a program that runs with more privilege than its user (setuid, setgid,
 * file capabilities) none of them is read, nor HOME and XDG_CACHE_HOME: the
 * library reads its environment with secure_getenv(). *
 * ABI
 *   libucopy.so.0 keeps the binary interface of this header for as long as
 *   its soname stays: every function's symbol, signature and symbol version,
 *   every structure's layout (fields, their offsets and the size), every
 *   enumerator's and macro's value, except UCOPY_FEAT_COUNT, which grows as
 *   features are added (its new value never changes an older bit's).
 *   - Functions carry the symbol version of the release that added them:
 *     UCOPY_0 (0.1), UCOPY_0.2 (ucopy_fault_register(),
 *     ucopy_fault_unregister()); a function added in a later 0.x gets that
 *     release's version node (UCOPY_0.3, ...), so a program built against
 *     it fails to load on an older library instead of failing at its first
 *     call.
 *   - <ucopy-asm.h>'s values and the notes its macros write are ABI too:
 *     an object built with it is read the same by every libucopy.so.0.
 *   - The structures a caller may allocate (struct ucopy_cpu, ucopy_rule,
 *     ucopy_policy, ucopy_ret) have fixed layouts.  ucopy_cpu and
 *     ucopy_policy end in `reserved` space, which the library writes as
 *     zero: a later 0.x may give it a meaning in which zero means "as
 *     before".  A caller that fills one in itself starts from {0}.
 *   - struct ucopy_kernel and struct ucopy_active are only read through
 *     the pointers the library returns; their layouts are fixed too, since
 *     a program may build a struct ucopy_kernel of its own for a policy.
 *   Anything else (a field moved, a size or value changed, a symbol gone)
 *   moves the soname.  `make check` compares the built library with the
 *   baseline in abi/ (libabigail's abidiff) and fails on any difference:
 *   docs/design.md, "The ABI".
 */
#ifndef UCOPY_H
#define UCOPY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#  define UCOPY_API __attribute__((visibility("default")))
#else
#  define UCOPY_API
#endif

#ifdef __cplusplus
#  define UCOPY_RESTRICT
#else
#  define UCOPY_RESTRICT restrict
#endif

/*=====   Version   =====*/

#define UCOPY_VERSION_MAJOR 0
#define UCOPY_VERSION_MINOR 2
#define UCOPY_VERSION_PATCH 0
#define UCOPY_VERSION_NUMBER \
	(UCOPY_VERSION_MAJOR * 10000 + UCOPY_VERSION_MINOR * 100 + UCOPY_VERSION_PATCH)

/*! ucopy_version_string() :
 * @return : the library's version as "MAJOR.MINOR.PATCH".  It may differ from
 *           the UCOPY_VERSION_* this header was compiled with when the shared
 *           library was upgraded underneath a program. */
UCOPY_API const char *ucopy_version_string(void);

/*=====   Copies   =====*/

/*! ucopy_memcpy() :
 * Copies n bytes from src to dst, which must not overlap, with the active
 * policy (see ucopy_active()).  A fault inside it is not recovered: the
 * process gets SIGSEGV or SIGBUS exactly as with memcpy().
 * @return : dst. */
UCOPY_API void *ucopy_memcpy(void *UCOPY_RESTRICT dst,
			     const void *UCOPY_RESTRICT src, size_t n);

/*! ucopy_memmove() :
 * Copies n bytes from src to dst; the regions may overlap.
 * @return : dst. */
UCOPY_API void *ucopy_memmove(void *dst, const void *src, size_t n);

/*=====   Fault-tolerant copies   =====
 * The contract is the Linux kernel's copy_from_user(), made strict.  With r
 * the value returned for a copy of n bytes:
 *  1. 0 <= r <= n, and r == 0 exactly when the whole copy succeeded;
 *  2. dst[0 .. n-r) equals src[0 .. n-r);
 *  3. nothing at or after dst + n - r is written (ucopy_from() excepted, see
 *     below), and nothing outside dst[0 .. n) ever is;
 *  4. byte-exact: if the first byte that faults (in src or in dst) is at
 *     offset k, then r == n - k;
 *  5. a fault at offset 0 returns n;
 *  6. src is never written;
 *  7. a fault outside a fault-tolerant copy is not touched: the handler the
 *     application installed runs, or the process dies of the signal.
 * src and dst must not overlap.  A fault is a SIGSEGV or SIGBUS raised by an
 * access of the copy itself (unmapped or protected page, file mapping cut
 * short by ftruncate).  The first fault-tolerant call installs ucopy's signal
 * handler if ucopy_fault_init() was not called.
 *
 * Precondition of ucopy_try() and ucopy_from(): SIGSEGV and SIGBUS can be
 * delivered to the calling thread.  Linux kills a process whose thread faults
 * with the signal blocked, and no handler can help.  ucopy knows one such
 * place itself: inside an application handler that ucopy passed a fault on
 * to (the signal is blocked there, as the kernel would block it), where
 * ucopy_try() copies as ucopy_try_sigsafe() does.  Anywhere else the signals
 * may be blocked (a thread that blocked them, a SIGSEGV handler installed
 * after ucopy's that does not chain to it, a handler of another signal whose
 * sa_mask holds them), call ucopy_try_sigsafe().  The first fault-tolerant
 * copy of the process is the exception: made with the signals blocked (a
 * crash handler's, say), it installs ucopy's handler and copies as
 * ucopy_try_sigsafe() does, and so do its thread's later copies until the
 * thread is seen with the signals deliverable (it left the handler), as in
 * a handler ucopy chained to.  Under valgrind, whose register state at a
 * fault is not exact, ucopy_try() always copies as ucopy_try_sigsafe() does.
 *
 * And ucopy's handler must stay installed: it is looked for once, at first
 * use, not at every copy.  A program that later replaces it (restores a
 * handler it saved before that first use, or installs one that does not
 * chain to ucopy's) gets the faults of ucopy_try() itself, and with SIG_DFL
 * the process dies; ucopy_fault_installed() tells, and ucopy_fault_init()
 * installs ucopy's again.
 *
 * The signal contract: ucopy's handler is a guest.  A fault that is not
 * ucopy's reaches the handler ucopy displaced exactly as the kernel would
 * have delivered it: with that handler's sa_mask and the signal blocked
 * (unless SA_NODEFER) on top of the interrupted code's mask, SA_RESETHAND
 * applied before the call, with or without SA_SIGINFO.  Displaced SIG_DFL
 * means the default action (the process ends with the signal); SIG_IGN
 * ignores a sent signal and, as the kernel does for a real fault, takes the
 * default action on a fault.  A signal that was sent (kill, sigqueue,
 * tgkill: si_code <= 0) is never taken for ucopy's and is always passed on;
 * ucopy stays installed.  A fault that comes back to ucopy while ucopy is
 * passing it on (a handler installed after ucopy that chains to it, then
 * ucopy_fault_init() again) ends in the default action, not in a loop; the
 * handler ucopy passed a fault to may leave by siglongjmp, and the next fault
 * is passed on as a new one.  ucopy passes a fault on with the uc_link of its
 * context set to a mark of its own, and puts it back when the handler
 * returns.  libucopy.so is linked with -z nodelete: dlclose() never unmaps the code a
 * disposition, or a handler that chained to ucopy's, points into. */

/*! ucopy_try() :
 * @return : the number of bytes not copied (0 on success).  On failure the
 *           destination past the copied prefix is left as it was. */
UCOPY_API size_t ucopy_try(void *dst, const void *src, size_t n);

/*! ucopy_from() :
 * ucopy_try(), then zero-fills dst[n-r .. n) as the kernel's copy_from_user()
 * does (the zero-fill itself is a plain store and must not fault).
 * @return : the number of bytes not copied (0 on success). */
UCOPY_API size_t ucopy_from(void *dst, const void *src, size_t n);

/*! ucopy_try_sigsafe() :
 * ucopy_try() with the same exact contract that needs no signal: usable with
 * SIGSEGV and SIGBUS blocked, inside any signal handler, before or without
 * ucopy_fault_init().  Async-signal-safe; errno is preserved.  The kernel
 * does the accesses (process_vm_readv() on the own process, or a pipe where
 * that call is refused), so it costs system calls: about 2.6 us a call, and
 * 2.8x ucopy_try()'s time at 1 MiB, on one machine (docs/performance.md,
 * "Copies without signals").
 * @return : the number of bytes not copied (0 on success).  n, with nothing
 *           copied, also when the process has no way to let the kernel copy
 *           (process_vm_readv() refused and no file descriptor left for a
 *           pipe). */
UCOPY_API size_t ucopy_try_sigsafe(void *dst, const void *src, size_t n);

/*! ucopy_from_sigsafe() :
 * ucopy_try_sigsafe(), then zero-fills dst[n-r .. n) as ucopy_from() does.
 * @return : the number of bytes not copied (0 on success). */
UCOPY_API size_t ucopy_from_sigsafe(void *dst, const void *src, size_t n);

/*! ucopy_fault_init() :
 * Installs ucopy's SIGSEGV and SIGBUS handler, remembering the handlers in
 * place so that faults that are not ucopy's reach them unchanged.  Calling it
 * again re-installs ucopy's handler if something replaced it (the replacement
 * then becomes the handler faults are passed to).  Thread-safe; not
 * async-signal-safe (ucopy_try() is: it never waits for this).
 * @return : 0 on success; -1 with errno set if sigaction() failed, or with
 *           ENOSYS on a port without fault-capable kernels (the plain C
 *           port: ucopy_try() there copies as ucopy_try_sigsafe() does). */
UCOPY_API int ucopy_fault_init(void);

/*! ucopy_fault_installed() :
 * @return : 1 if ucopy's handler is the installed handler for both SIGSEGV and
 *           SIGBUS, 0 otherwise (never installed, or replaced since). */
UCOPY_API int ucopy_fault_installed(void);

/*=====   Fault sites of your own   =====
 * A copy routine of your own, in a shared object or the program, recovers
 * from its faults as ucopy's kernels do once the object's fault sites are
 * registered: each instruction that may fault is listed, with the address
 * to resume at (its fixup), by the macros of <ucopy-asm.h> in its assembly
 * source, which keep them as ELF notes in the object (the layout is ABI:
 * <ucopy-asm.h>, docs/design.md "Fault sites of other objects").
 *
 * When the kernel raises SIGSEGV or SIGBUS at a registered instruction
 * (si_code > 0: never a sent signal), ucopy's handler moves the thread to
 * the fixup and returns from the signal: the fixup runs with every
 * register and the stack as they were at the faulting instruction, but
 * the program counter, and, for a site of type UCOPY_EX_TRAPNR (x86-64
 * only), rax, which holds 14 (the page fault's trap number, as the Linux
 * kernel hands it to copy_user_64.S's fixups).  It is the routine's to
 * finish the call from there: a routine with ucopy_try()'s contract
 * returns the bytes not copied.  ucopy's own kernels are looked up first,
 * then the registered objects.  Every other fault is passed on as
 * "The signal contract" above says.  The preconditions of ucopy_try()
 * hold for such a routine too: SIGSEGV and SIGBUS deliverable, ucopy's
 * handler left installed. */

/*! ucopy_fault_register() :
 * Reads the fault sites of the loaded object (a shared object or the
 * program) that holds addr (any address inside it: the routine's own, as
 * dlsym() gives it), checks every one, and makes ucopy's handler recover
 * them; installs the handler as ucopy_fault_init() does, so that this one
 * call suffices.  A site is refused unless its instruction and its fixup
 * lie in an executable segment of that object, its type is one this
 * architecture has (UCOPY_EX_TRAPNR is x86-64's), its note is 16 bytes of
 * description with the last word 0, and no other site lists the same
 * instruction.  Registering an object again changes nothing and returns
 * its count again.  At most 64 objects are registered at once.
 * Thread-safe; not async-signal-safe (it allocates, and reads the program
 * headers under the dynamic loader's lock): not from a signal handler.
 * Once it returns, a fault at a site is recovered on every thread.
 * An object registered must be unregistered before dlclose() unloads it:
 * a site left behind would send a fault of whatever is loaded there
 * later to a fixup that is gone (until that object is registered, which
 * drops the sites it finds where it lies).
 * @return : the number of sites registered, 0 for an object that lists
 *           none (nothing is recorded then, and the handler is not
 *           installed); -1 with errno ENOENT when addr is in no loaded
 *           object, EINVAL when a site is refused (nothing of the object
 *           is registered), ENOSPC when 64 other objects are registered,
 *           ENOMEM, an error of sigaction(), or ENOSYS on a port without
 *           fault-capable kernels (as ucopy_fault_init()). */
UCOPY_API int ucopy_fault_register(const void *addr);

/*! ucopy_fault_unregister() :
 * Forgets the sites of the registered object that holds addr.  When it
 * returns, no handler on any thread uses them any more: it waits for a
 * handler still reading them on another thread (a few instructions).
 * Thread-safe; not async-signal-safe.  ucopy's handler stays installed.
 * @return : 0; -1 with errno ENOENT when no registered object holds addr
 *           (never registered, unregistered already, or registered with 0
 *           sites), or ENOSYS on a port without fault-capable kernels. */
UCOPY_API int ucopy_fault_unregister(const void *addr);

/*=====   CPU   =====*/

/* Feature bits.  A vector feature is reported only when the OS has enabled its
 * register state (XGETBV), since only then can it be used. */
enum ucopy_feature {
	UCOPY_FEAT_SSE2,
	UCOPY_FEAT_AVX,
	UCOPY_FEAT_AVX2,
	UCOPY_FEAT_AVX512F,
	UCOPY_FEAT_AVX512BW,
	UCOPY_FEAT_AVX512VL,
	UCOPY_FEAT_AVX_VNNI, /* VEX AVX-VNNI: with AVX-512, zmm costs no clock */
	UCOPY_FEAT_ERMS,     /* enhanced rep movsb/stosb */
	UCOPY_FEAT_FSRM,     /* fast short rep movsb */
	UCOPY_FEAT_FZRM,     /* fast zero-length rep movsb */
	UCOPY_FEAT_FSRS,     /* fast short rep stosb */
	UCOPY_FEAT_FSRC,     /* fast short rep cmpsb/scasb */
	UCOPY_FEAT_REP_GOOD, /* rep movsq is good (the kernel's X86_FEATURE_REP_GOOD) */
	UCOPY_FEAT_INVARIANT_TSC,
	UCOPY_FEAT_ASIMD,    /* aarch64 Advanced SIMD */
	UCOPY_FEAT_SVE,      /* aarch64 Scalable Vector Extension */
	UCOPY_FEAT_MOPS,     /* aarch64 FEAT_MOPS: cpyp/cpym/cpye (HWCAP2) */
	/* A new feature goes here, before UCOPY_FEAT_COUNT: the bits above
	 * are ABI and never renumbered. */
	UCOPY_FEAT_COUNT
};
#define UCOPY_F(name) (UINT64_C(1) << UCOPY_FEAT_##name)

/* What ucopy detected about the CPU it runs on. */
struct ucopy_cpu {
	char arch[16];       /* "x86_64", "aarch64" */
	char vendor[16];     /* "GenuineIntel", "AuthenticAMD", ... */
	unsigned family, model, stepping;
	char brand[64];
	uint64_t features;   /* UCOPY_F() bits: what the library uses */
	size_t l1d, l2, l3;  /* data cache sizes in bytes, 0 when unknown */
	uint64_t detected;   /* what the CPU and OS offer, before UCOPY_FEATURES */
	char mask_note[160]; /* what UCOPY_FEATURES did: "" when unset, else
				"removed avx512f,fsrm" or why it was ignored */
	uint64_t reserved[4]; /* 0 (see "ABI" at the top) */
};

/*! ucopy_cpu() :
 * Detects the CPU once (thread-safe); later calls return the same object.
 * @return : never NULL. */
UCOPY_API const struct ucopy_cpu *ucopy_cpu(void);

/*! ucopy_feature_name() :
 * @return : the lowercase name of feature bit `bit` ("erms", "avx2", ...), or
 *           NULL if bit >= UCOPY_FEAT_COUNT or the bit is not a feature of
 *           the architecture the library was built for (asimd on x86-64). */
UCOPY_API const char *ucopy_feature_name(unsigned bit);

/*! ucopy_features_parse() :
 * Applies a feature list to `base`: "erms,-fsrm" adds erms and removes fsrm;
 * "none" (alone or first) starts from the empty set instead of base.
 * @return : 0 and the set in *out, or -1 with a message naming the bad token
 *           in err (always NUL-terminated when errlen > 0). */
UCOPY_API int ucopy_features_parse(const char *list, uint64_t base,
				   uint64_t *out, char *err, size_t errlen);

/*! ucopy_features_mask() :
 * What UCOPY_FEATURES does with `list`: ucopy_features_parse() applied to
 * `detected`, refused when the result holds a feature `detected` lacks (a
 * mask only removes).
 * @return : 0 and the set in *out, or -1 with the reason in err ("unknown
 *           feature 'frob'", "it adds fzrm, which the CPU lacks (only
 *           removals apply)"; always NUL-terminated when errlen > 0). */
UCOPY_API int ucopy_features_mask(const char *list, uint64_t detected,
				  uint64_t *out, char *err, size_t errlen);

/*! ucopy_features_format() :
 * Writes the names of the bits in `set` (those this architecture names),
 * joined by `sep` ("," gives what
 * ucopy_features_parse() reads back), or "none" for the empty set.
 * @return : the length of the full text (as snprintf does); buf may be NULL
 *           when len is 0. */
UCOPY_API size_t ucopy_features_format(uint64_t set, const char *sep, char *buf,
				       size_t len);

/*! ucopy_show_token() :
 * A token that came from outside (a policy, a profile line, a file's field)
 * as the library's messages show it: its first 40 bytes, control bytes and
 * DEL as \xNN (an escape sequence in a file must not act on the terminal a
 * message goes to), a backslash as \\, then "..." when cut.  176 bytes
 * always hold it.
 * @return : buf, NUL-terminated when len > 0 (cut to len - 1 bytes). */
UCOPY_API char *ucopy_show_token(const char *s, size_t n, char *buf, size_t len);

/*=====   Sizes   =====
 * One text form for sizes everywhere: policy limits, profiles and the
 * command's options.  SIZE := decimal digits with an optional K, M or G
 * suffix, in either case, meaning powers of 1024 ("4K" = "4k" = 4096). */

/*! ucopy_size_parse() :
 * @return : 0 with the value in *out, or -1 with a message naming s in err
 *           ("bad size 'X' (expected ...)" or "size 'X' is too large"). */
UCOPY_API int ucopy_size_parse(const char *s, size_t *out, char *err, size_t errlen);

/*! ucopy_size_format() :
 * Writes v with the largest of G, M and K that divides it exactly ("4K",
 * "24M", "100"); ucopy_size_parse() reads it back.
 * @return : the length of the full text (as snprintf does). */
UCOPY_API size_t ucopy_size_format(size_t v, char *buf, size_t len);

/*=====   Kernels   =====
 * A kernel is one copy strategy, built as up to two functions from one
 * source:
 *  - fn, the plain body: copies n bytes from src to dst (no overlap) and
 *    returns {dst, 0} in registers (rax:rdx on x86-64), so it serves as
 *    memcpy() without a wrapper.  A fault inside it is not recovered.
 *  - try_fn, the try body of a fault-capable kernel: the same copy with every
 *    access that can fault listed in the exception table; it returns the
 *    number of bytes not copied, with the contract of ucopy_try() (above).
 *    Its faults are recovered only while ucopy's handler is installed
 *    (ucopy_fault_init()); ucopy_policy_try() installs it at first use, and
 *    it must stay installed (see "Fault-tolerant copies").
 * Two bodies, so that ucopy_try() can jump straight into a kernel as
 * ucopy_memcpy() does (docs/performance.md, "ucopy_try vs ucopy_memcpy"). */

struct ucopy_ret {
	void *dst;
	size_t left;   /* always 0: counts come from try_fn */
};
typedef struct ucopy_ret (*ucopy_kernel_fn)(void *UCOPY_RESTRICT dst,
					    const void *UCOPY_RESTRICT src,
					    size_t n);

/* Set exactly when try_fn is not NULL. */
#define UCOPY_KERNEL_FAULT_CAPABLE 1u

struct ucopy_kernel {
	const char *name;     /* "movsb" */
	const char *summary;  /* one line: what it does */
	uint64_t requires;    /* UCOPY_F() bits the CPU must have */
	unsigned flags;       /* UCOPY_KERNEL_* */
	ucopy_kernel_fn fn;   /* the plain body */
	/* The try body: bytes not copied (0 on success); NULL for a kernel
	 * that cannot recover from a fault (libc). */
	size_t (*try_fn)(void *dst, const void *src, size_t n);
};

/*! ucopy_kernel_count(), ucopy_kernel_at() :
 * The table of every kernel built for this architecture, supported by the
 * running CPU or not.
 * @return : ucopy_kernel_at() returns NULL when i >= ucopy_kernel_count(). */
UCOPY_API size_t ucopy_kernel_count(void);
UCOPY_API const struct ucopy_kernel *ucopy_kernel_at(size_t i);

/*! ucopy_kernel_find() :
 * @return : the kernel called `name`, or NULL. */
UCOPY_API const struct ucopy_kernel *ucopy_kernel_find(const char *name);

/*! ucopy_kernel_supported() :
 * @return : 1 if `features` has everything kernel k requires, else 0. */
UCOPY_API int ucopy_kernel_supported(const struct ucopy_kernel *k,
				     uint64_t features);

/*! ucopy_kernel_fault_capable() :
 * @return : k itself when it can be used for a fault-tolerant copy (it has a
 *           try_fn), else the nearest fault-capable kernel the running CPU
 *           supports (for `libc`: the widest vector kernel with no clock
 *           or cliff penalty on any CPU that has it: on x86-64 avx2 where
 *           the features ucopy_cpu() reports, after UCOPY_FEATURES, include
 *           AVX2, else sse2).  Never NULL for a non-NULL k. */
UCOPY_API const struct ucopy_kernel *
ucopy_kernel_fault_capable(const struct ucopy_kernel *k);

/*=====   Policies   =====
 * A policy maps size classes to kernels.  Text form:
 *   POLICY := RULE { "," RULE }
 *   RULE   := [ LIMIT ":" ] KERNEL   the rule applies to sizes below LIMIT;
 *                                    only the last rule has no LIMIT
 *   LIMIT  := decimal number with optional K, M or G suffix (powers of 1024)
 * e.g. "8:byte,64:word,2K:avx2,24M:movsb,nt".  Limits are strictly
 * increasing. */

/* Part of struct ucopy_policy's layout, so fixed for libucopy.so.0. */
#define UCOPY_MAX_RULES 16

struct ucopy_rule {
	size_t limit;                      /* sizes < limit; SIZE_MAX for the last */
	const struct ucopy_kernel *kernel;
};

struct ucopy_policy {
	unsigned nrules;                   /* 1 .. UCOPY_MAX_RULES */
	struct ucopy_rule rule[UCOPY_MAX_RULES];
	char name[32];                     /* named policy it came from, or "" */
	uint64_t reserved[4];              /* 0 (see "ABI" at the top) */
};

/*! ucopy_policy_parse() :
 * Parses policy text.  Kernel names are checked against the table, not
 * against the CPU (see ucopy_policy_fit()).
 * @return : 0 on success, or -1 with a message naming the bad token in err. */
UCOPY_API int ucopy_policy_parse(struct ucopy_policy *p, const char *text,
				 char *err, size_t errlen);

/*! ucopy_policy_format() :
 * Writes p in text form (limits with K/M/G suffix where exact).
 * @return : the length of the full text (as snprintf does); the output is
 *           truncated but NUL-terminated when len is too small. */
UCOPY_API size_t ucopy_policy_format(const struct ucopy_policy *p, char *buf,
				     size_t len);

/*! ucopy_policy_resolve() :
 * Resolves `spec` for a CPU with `features`: a named policy ("linux-4.19",
 * "axboe-2018", "linux-6.3", "linux-6.4-rc1", "linux-6.4", "linux-6.6",
 * "auto"; "arm64-4.19" and "arm64-5.15" on aarch64 only, an error elsewhere;
 * "calibrated": the policy of the profile UCOPY_PROFILE names or the default
 * path holds, an error when there is none or it is rejected),
 * a single kernel name, or policy text.  Named policies follow what
 * those kernels did for user copies with that feature set, and are not
 * changed to suit the running CPU: pass the result to ucopy_policy_fit()
 * before running it.
 * @return : 0 on success, or -1 with a message naming the bad input in err. */
UCOPY_API int ucopy_policy_resolve(struct ucopy_policy *p, const char *spec,
				   uint64_t features, char *err, size_t errlen);

/*! ucopy_policy_named() :
 * The named policies ucopy_policy_resolve() knows on the architecture the
 * library is built for, in the order they are documented: i = 0, 1, ...
 * until NULL.  "auto" and "calibrated" are not among them.
 * @return : the i-th name ("linux-4.19" first on x86-64, "arm64-4.19" on
 *           aarch64), or NULL when i is past the last. */
UCOPY_API const char *ucopy_policy_named(size_t i);

/*! ucopy_auto_explain() :
 * Says which of auto's rows the running CPU takes and why: auto is a small
 * table keyed by vendor and family (docs/performance-<cpu>.md holds each
 * row's measurements), with a default row for every other CPU.  Under a
 * UCOPY_FEATURES mask the row is still the CPU's, and the text ends with
 * the policy it gives for the features left.
 * @return : the length of the full text (as snprintf does). */
UCOPY_API size_t ucopy_auto_explain(char *buf, size_t len);

/*! ucopy_auto_for() :
 * The policy auto chooses on the CPU *cpu describes, which need not be the
 * running one, and why: the row's name and reason, as ucopy_auto_explain()
 * words them ("AMD family 0x19 (Zen 3, Zen 4): avx2 up to ...").  Read from
 * *cpu: arch, vendor, family, model, features, l2 and l3 (0: unknown, and
 * the streaming threshold falls back to 32 MiB); the rest is ignored.  A
 * CPU no row knows takes the default row, as it would running.  So a
 * choice can be checked for a CPU nobody has at hand (`ucopy features
 * --cpu`).  policy or why may be NULL.
 * @return : the length of the full why text (as snprintf counts it), or -1
 *           when cpu is NULL or cpu->arch is not the architecture the
 *           library is built for (policy and why are then ""). */
UCOPY_API int ucopy_auto_for(const struct ucopy_cpu *cpu, char *policy, size_t policy_len,
			     char *why, size_t why_len);

/*! ucopy_policy_fit() :
 * Replaces every kernel that a CPU with `features` cannot run by the nearest
 * one it can (avx512 -> avx2 -> sse2, fsrm/erms kernels stay: rep movsb runs
 * everywhere), describing each replacement in note.
 * @return : the number of rules changed (0: note is ""). */
UCOPY_API int ucopy_policy_fit(struct ucopy_policy *p, uint64_t features,
			       char *note, size_t notelen);

/*! ucopy_policy_kernel() :
 * @return : the kernel p uses for a copy of n bytes. */
UCOPY_API const struct ucopy_kernel *
ucopy_policy_kernel(const struct ucopy_policy *p, size_t n);

/*! ucopy_policy_copy() :
 * Copies n bytes with p's kernel for n (no fault recovery), as the lab times
 * a policy.  p must have passed ucopy_policy_fit() for the running CPU.
 * @return : dst. */
UCOPY_API void *ucopy_policy_copy(const struct ucopy_policy *p,
				  void *UCOPY_RESTRICT dst,
				  const void *UCOPY_RESTRICT src, size_t n);

/*! ucopy_policy_try() :
 * ucopy_try() through p (kernels that are not fault-capable replaced as by
 * ucopy_kernel_fault_capable()).
 * @return : the number of bytes not copied. */
UCOPY_API size_t ucopy_policy_try(const struct ucopy_policy *p,
				  void *UCOPY_RESTRICT dst,
				  const void *UCOPY_RESTRICT src, size_t n);

/*=====   The active policy   =====*/

enum ucopy_source {
	UCOPY_SOURCE_DEFAULT,  /* "auto" */
	UCOPY_SOURCE_ENV,      /* UCOPY_POLICY */
	UCOPY_SOURCE_PROFILE   /* a calibration profile */
};

struct ucopy_active {
	const struct ucopy_policy *policy;
	enum ucopy_source source;
	const char *reason;  /* why this source: "" normally; the error when
				UCOPY_POLICY or a profile was rejected, or the
				kernels ucopy_policy_fit() replaced */
	const char *profile; /* the profile path that was looked at, or "" */
};

/*! ucopy_active() :
 * Resolves the active policy on first use: UCOPY_POLICY when set and valid,
 * else a calibration profile that loads, else "auto".  An invalid setting
 * never applies half a policy.  First use takes no lock and copies through
 * no memcpy, memmove or ucopy entry, so a program whose own memcpy and
 * memmove call ucopy_memcpy() and ucopy_memmove() works from its first copy,
 * in any thread, after fork() and in a signal handler.
 * @return : what ucopy_memcpy() uses and why; never fails. */
UCOPY_API const struct ucopy_active *ucopy_active(void);

/*! ucopy_source_name() :
 * @return : "default", "UCOPY_POLICY" or "profile". */
UCOPY_API const char *ucopy_source_name(enum ucopy_source s);

/*=====   Calibration profiles   =====
 * `ucopy calibrate` measures the kernels on the machine it runs on and saves
 * the policy it derives, with the CPU's identity and the measurements behind
 * each threshold, as a plain-text profile (docs/calibrate.md):
 *   ucopy-profile 1                 first line
 *   version 0.1.0                   the ucopy that wrote it
 *   date 2025-01-31T12:00:00Z       UTC
 *   cpu.arch / cpu.vendor / cpu.family / cpu.model / cpu.stepping /
 *   cpu.brand / cpu.features        as ucopy_cpu() reports them
 *   policy 2K:avx2,movsb_safe       policy text
 *   measure, distance, effect, cliff, crossover, gain, note   the evidence
 *   end                             last line
 * At first use the library loads the profile UCOPY_PROFILE names, or the one
 * at the default path when a file is there; UCOPY_POLICY, when valid, wins
 * over both.  A profile that is rejected is not used at all: the policy is
 * "auto" and ucopy_active() gives the reason and the path. */

/* Lines of a profile, newline excluded, are shorter than this. */
#define UCOPY_PROFILE_LINE_MAX 1024

/*! ucopy_profile_default_path() :
 * Writes where profiles are saved and looked for: $XDG_CACHE_HOME/ucopy/profile
 * when XDG_CACHE_HOME is an absolute path, else $HOME/.cache/ucopy/profile.
 * @return : 0, or -1 (buf "" when len > 0) when neither variable is an
 *           absolute path or the path does not fit in len bytes. */
UCOPY_API int ucopy_profile_default_path(char *buf, size_t len);

/*! ucopy_profile_load() :
 * Reads the profile at `path` and checks it: it is a regular file (a FIFO or
 * device is refused without blocking), every line parses, the file ends
 * with its "end" line, the CPU identity (arch, vendor, family, model,
 * stepping, brand) and feature set are the running CPU's, and every kernel
 * the policy names is known and supported by this CPU.  Never prints.
 * @return : 0 with the profile's policy in *p (named "calibrated"; p may be
 *           NULL to only check), or -1 with the reason in why, as
 *           "PATH:LINE: what is wrong" or "PATH: what is wrong" (always
 *           NUL-terminated when whylen > 0); *p is then untouched. */
UCOPY_API int ucopy_profile_load(const char *path, struct ucopy_policy *p,
				 char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif /* UCOPY_H */
