#ifndef ALMANAC_LIBRARY_LOADER_H
#define ALMANAC_LIBRARY_LOADER_H
#include <stddef.h>

/* One function to look up in a library, and where its address goes. */
typedef struct {
    const char *name;
    void **slot;
} almanac_symbol;

/* Opens the first of `sonames` (NULL-terminated, newest first) that loads and has every symbol,
   fills every symbol's slot and sets `*opened` to that soname; the shared step of CCurl, CLibical
   and CLibxml2, which open their libraries on first use instead of linking them.

   RTLD_LAZY: the library and its dependencies bind their functions as they are first called, as
   when linked (RTLD_NOW resolved all of libcurl's ~25 libraries up front, ~1.5 ms). RTLD_LOCAL:
   their symbols stay out of the global namespace. Returns 0, or -1 with one line in `failure`:
   the first candidate that exists but cannot be used (the loader's text, or its first missing
   symbol), else which sonames were looked for. Call once, e.g. under pthread_once. */
int almanac_open_library(const char *const *sonames, const almanac_symbol *symbols, size_t count,
    const char **opened, char *failure, size_t failure_size);

/* The shape every shim follows: an X-macro list of the library's functions as
   X(return type, name, (parameters), (arguments)), expanded into a `static struct { ... } api` of
   pointers (ALMANAC_POINTER), a symbol table for almanac_open_library (ALMANAC_SYMBOL) and one
   forwarder per function under the library's own name (ALMANAC_FORWARD). The library's real
   header declares the same names, so the compiler checks each forwarder against the library's
   prototype. Forwarders are hidden: they stay out of the dynamic symbol table, so the library's
   calls to itself never land in them. Functions returning void use the _VOID forms (C forbids
   `return f();` there). */
#define ALMANAC_POINTER(type, name, parameters, arguments) type(*name) parameters;
#define ALMANAC_POINTER_VOID(name, parameters, arguments) void(*name) parameters;
#define ALMANAC_SYMBOL(type, name, parameters, arguments) {#name, (void **)&api.name},
#define ALMANAC_SYMBOL_VOID(name, parameters, arguments) {#name, (void **)&api.name},
#define ALMANAC_FORWARD(type, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) type name parameters { return api.name arguments; }
#define ALMANAC_FORWARD_VOID(name, parameters, arguments) \
    __attribute__((visibility("hidden"))) void name parameters { api.name arguments; }

#endif
