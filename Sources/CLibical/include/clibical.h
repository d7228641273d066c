#ifndef ALMANAC_CLIBICAL_H
#define ALMANAC_CLIBICAL_H

/* libical, opened on first use with dlopen rather than linked: it and the ICU calendar library it
   needs cost every `tools` process ~1 ms of loading before main, although only the calendar uses
   them. <libical/ical.h> gives the types and constants; the functions Almanac calls are defined in
   clibical.c under their own names, hidden from the dynamic symbol table (so libical's calls to
   itself never land in them), each forwarding to libical's. The static-define switch drops the
   header's default-visibility markers, which would clash with those hidden definitions. */
#define LIBICAL_ICAL_STATIC_DEFINE
#include <libical/ical.h>

/* Opens libical.so.3 once (thread-safe; clibical.c says why no other soname). Returns 0 when
   ready, else -1 and almanac_ical_error() says why. No other libical function may be called before it returned 0. */
int almanac_ical_load(void);
/* Why almanac_ical_load failed; never NULL. */
const char *almanac_ical_error(void);
/* The soname opened, once almanac_ical_load returned 0. */
const char *almanac_ical_opened(void);

#endif
