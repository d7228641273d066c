#ifndef ALMANAC_LIBRARY_LOADER_H
#define ALMANAC_LIBRARY_LOADER_H
#include <stddef.h>

/* One function to look up in a library, and where its address goes. */
typedef struct {
    const char *name;
    void **slot;
} almanac_symbol;

/* Opens `soname` and fills every symbol's slot; the shared step of CCurl, CLibical and CLibxml2,
   which open their libraries on first use instead of linking them.

   RTLD_LAZY: the library and its dependencies bind their functions as they are first called, as
   when linked (RTLD_NOW resolved all of libcurl's ~25 libraries up front, ~1.5 ms). RTLD_LOCAL:
   their symbols stay out of the global namespace. Returns 0, or -1 with the reason (the loader's
   text, or the first missing symbol) in `failure`. Call once, e.g. under pthread_once. */
int almanac_open_library(
    const char *soname, const almanac_symbol *symbols, size_t count, char *failure, size_t failure_size);

#endif
