/*
 * profile_keys.h - the calibration profile's keys: one list for the writer
 * (programs/core/calibration.c) and the reader (lib/profile.c), so that neither
 * can drift from the other.  The format: docs/calibrate.md.
 */
#ifndef UCOPY_PROFILE_KEYS_H
#define UCOPY_PROFILE_KEYS_H

/* The first line. */
#define UCOPY_PROFILE_MAGIC "ucopy-profile 1"

/* X(ID, KEY): the keys a profile gives exactly once, in the order written. */
#define UCOPY_PROFILE_ONCE_KEYS(X)                                             \
	X(VERSION, "version") X(DATE, "date") X(ARCH, "cpu.arch")              \
	X(VENDOR, "cpu.vendor") X(FAMILY, "cpu.family") X(MODEL, "cpu.model")  \
	X(STEPPING, "cpu.stepping") X(BRAND, "cpu.brand")                      \
	X(FEATURES, "cpu.features") X(POLICY, "policy")

/* X(ID, KEY): the lines that may repeat (the measurements behind the
 * policy), and the last line. */
#define UCOPY_PROFILE_LINE_KEYS(X)                                             \
	X(CROSSOVER, "crossover") X(GAIN, "gain") X(NOTE, "note")              \
	X(CLIFF, "cliff") X(EFFECT, "effect") X(MEASURE, "measure")            \
	X(DISTANCE, "distance") X(END, "end")

enum profile_key {
#define UCOPY_PROFILE_ENUM(id, key) KEY_##id,
	UCOPY_PROFILE_ONCE_KEYS(UCOPY_PROFILE_ENUM)
	KEY_COUNT,          /* the keys given once are those below KEY_COUNT */
	UCOPY_PROFILE_LINE_KEYS(UCOPY_PROFILE_ENUM)
#undef UCOPY_PROFILE_ENUM
	KEY_ALL
};

static const char *const profile_key[KEY_ALL] = {
#define UCOPY_PROFILE_NAME(id, key) [KEY_##id] = key,
	UCOPY_PROFILE_ONCE_KEYS(UCOPY_PROFILE_NAME)
	UCOPY_PROFILE_LINE_KEYS(UCOPY_PROFILE_NAME)
#undef UCOPY_PROFILE_NAME
};

#endif
