/*
 * ksource.h - what `ucopy kbuild` knows of a kernel's usercopy source
 * (docs/kbuild.md): the entries it knows and the conventions they are
 * called with, the functions a .S source defines, and the entry it builds
 * from them.  Nothing here prints or runs anything: what a source holds is
 * decided from its text alone, so that a test can give it any.
 */
#ifndef UCOPY_KSOURCE_H
#define UCOPY_KSOURCE_H

#include <stddef.h>
#include <stdint.h>

/* An entry kbuild knows, with the convention it is called with (a wrapper
 * kcompat/ARCH/wrap-CONVENTION.S adapts it to the C ABI); `needs` is the
 * feature the kernel's copy_user_generic() (up to 6.3) wanted before it
 * chose it, "" for its last resort, NULL where nothing is chosen by
 * feature. */
struct ksource_entry {
	const char *arch, *name, *convention, *needs;
};

/* The entry called name on arch, or NULL when kbuild does not know it. */
const struct ksource_entry *ksource_known(const char *arch, const char *name);

/* Whether arch has a wrapper for the convention (--convention). */
int ksource_convention_valid(const char *arch, const char *convention);
/* arch's conventions joined by ", ", for the messages that list them. */
void ksource_conventions(const char *arch, char *buf, size_t len);

/* The functions path defines, as the kernel's annotations name them
 * (SYM_FUNC_START(name), ENTRY(name) ...), and those of the files it
 * includes with quotes (`#include "copy_template.S"`, a variant that
 * includes the file it changes), from path's directory, depth levels down;
 * appended to buf (joined by ", "), which the first call gets empty.  An
 * included file that cannot be read is passed over: the compiler says so.
 * @return : 0; -1 with why path cannot be read in err ("bad file ..."). */
int ksource_functions(const char *path, int depth, char *buf, size_t len,
		      char *err, size_t errlen);

/* The entry to build from file, whose functions are funcs (as
 * ksource_functions() lists them): the copy_user_* the kernel's
 * copy_user_generic() would have called with the features in set (up to
 * 6.3), else the one other entry of arch that it defines.
 * @return : the entry; NULL with why in err (none known, or several: the
 *           user names one with --entry). */
const struct ksource_entry *ksource_entry(const char *arch, uint64_t set,
					  const char *file, const char *funcs,
					  char *err, size_t errlen);

#endif
