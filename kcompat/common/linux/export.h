/*
 * linux/export.h (ucopy kcompat) - a module export means nothing in a
 * shared object whose one export is kbuild's wrapper (linux/linkage.h).
 */
#ifndef UCOPY_KCOMPAT_LINUX_EXPORT_H
#define UCOPY_KCOMPAT_LINUX_EXPORT_H

#define EXPORT_SYMBOL(name)
#define EXPORT_SYMBOL_GPL(name)
#define EXPORT_SYMBOL_NS(name, ns)
#define EXPORT_SYMBOL_NS_GPL(name, ns)

#endif
