/*
 * machine.h - the machine a result was measured on: CPU, features, caches,
 * kernel, compiler and flags.  Every result the lab prints carries it.
 */
#ifndef UCOPY_MACHINE_H
#define UCOPY_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

/* One line: "Intel(R) Xeon(R) ... (GenuineIntel 6/207/2), L1d 48K L2 2M L3 300M". */
void machine_cpu_line(char *buf, size_t len);
/* The kernel release (uname -r), the compiler, and the flags the library
 * (and so every C kernel and the dispatch) was compiled with: the Makefile's
 * effective ones, its own as well as CFLAGS, less warnings. */
const char *machine_kernel(void);
const char *machine_compiler(void);
const char *machine_cflags(void);
/* The commit the command was built from, as `git describe --always --dirty`
 * gave it ("0123456789ab", "v0.1.0-3-g0123456789ab-dirty"), or "unknown"
 * when it was not built from a git checkout. */
const char *machine_commit(void);
/* The user-mode emulator this process runs under ("/usr/bin/qemu-aarch64"),
 * or NULL on a real CPU (a VM's included).  qemu-user answers
 * /proc/self/exe with the guest program, but not the kernel's
 * /proc/thread-self/exe, which names the emulator (checked with qemu 7.2,
 * x86-64 and aarch64 guests).  Timings made there measure the translator,
 * not the CPU. */
const char *machine_emulator(void);
/* Writes the keys cpu {arch, vendor, family, model, stepping, brand},
 * features [...] and caches {l1d, l2, l3} into the object being written. */
void machine_json_cpu(struct json *j);
/* A feature set as machine_json_cpu() writes the CPU's: an array of the
 * names of its bits, in the library's order. */
void machine_json_features(struct json *j, uint64_t set);
/* Writes the "machine" object: cpu {vendor, family, model, stepping, brand},
 * features [...], caches {l1d, l2, l3}, kernel, compiler, cflags, date,
 * emulator (machine_emulator(), or null). */
void machine_json(struct json *j);

#endif
