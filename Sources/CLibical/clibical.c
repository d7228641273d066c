#include "clibical.h"

#include <library_loader.h>
#include <pthread.h>

/* The libical functions Almanac calls: return type, name, parameters, arguments. Adding a call in
   Swift means adding it here (the linker names any that is missing). */
#define ALMANAC_ICAL_FUNCTIONS(X)                                                                  \
    X(icalcomponent *, icalparser_parse_string, (const char *a), (a))                              \
    X(icalcomponent_kind, icalcomponent_isa, (const icalcomponent *a), (a))                        \
    X(icalcomponent *, icalcomponent_get_first_component, (icalcomponent *a, icalcomponent_kind b), (a, b)) \
    X(icalcomponent *, icalcomponent_get_next_component, (icalcomponent *a, icalcomponent_kind b), (a, b))  \
    X(icalproperty *, icalcomponent_get_first_property, (icalcomponent *a, icalproperty_kind b), (a, b))    \
    X(icalproperty *, icalcomponent_get_next_property, (icalcomponent *a, icalproperty_kind b), (a, b))     \
    X(enum icalproperty_status, icalcomponent_get_status, (icalcomponent *a), (a))                 \
    X(icaltimezone *, icalcomponent_get_timezone, (icalcomponent *a, const char *b), (a, b))       \
    X(const char *, icalcomponent_get_uid, (icalcomponent *a), (a))                                \
    X(int, icaldurationtype_as_int, (struct icaldurationtype a), (a))                              \
    X(icalparameter_range, icalparameter_get_range, (const icalparameter *a), (a))                 \
    X(const char *, icalparameter_get_tzid, (const icalparameter *a), (a))                         \
    X(struct icaltimetype, icalproperty_get_dtstart, (const icalproperty *a), (a))                 \
    X(struct icaltimetype, icalproperty_get_dtend, (const icalproperty *a), (a))                   \
    X(struct icaltimetype, icalproperty_get_due, (const icalproperty *a), (a))                     \
    X(struct icaldurationtype, icalproperty_get_duration, (const icalproperty *a), (a))            \
    X(struct icaltimetype, icalproperty_get_exdate, (const icalproperty *a), (a))                  \
    X(icalparameter *, icalproperty_get_first_parameter, (icalproperty *a, icalparameter_kind b), (a, b)) \
    X(int, icalproperty_get_priority, (const icalproperty *a), (a))                                \
    X(struct icaldatetimeperiodtype, icalproperty_get_rdate, (const icalproperty *a), (a))         \
    X(struct icaltimetype, icalproperty_get_recurrenceid, (const icalproperty *a), (a))            \
    X(struct icalrecurrencetype, icalproperty_get_rrule, (const icalproperty *a), (a))             \
    X(icalvalue *, icalproperty_get_value, (const icalproperty *a), (a))                           \
    X(const char *, icalproperty_get_value_as_string, (const icalproperty *a), (a))                \
    X(const char *, icalproperty_get_x_name, (icalproperty *a), (a))                               \
    X(const char *, icalproperty_get_xlicerror, (const icalproperty *a), (a))                      \
    X(icalrecur_iterator *, icalrecur_iterator_new, (struct icalrecurrencetype a, struct icaltimetype b), (a, b)) \
    X(struct icaltimetype, icalrecur_iterator_next, (icalrecur_iterator *a), (a))                  \
    X(struct icalrecurrencetype, icalrecurrencetype_from_string, (const char *a), (a))            \
    X(time_t, icaltime_as_timet, (const struct icaltimetype a), (a))                               \
    X(time_t, icaltime_as_timet_with_zone, (const struct icaltimetype a, const icaltimezone *b), (a, b)) \
    X(struct icaltimetype, icaltime_from_timet_with_zone, (const time_t a, const int b, const icaltimezone *c), (a, b, c)) \
    X(int, icaltime_is_null_time, (const struct icaltimetype a), (a))                              \
    X(int, icaltime_is_utc, (const struct icaltimetype a), (a))                                    \
    X(struct icaltimetype, icaltime_null_time, (void), ())                                         \
    X(icaltimezone *, icaltimezone_get_builtin_timezone, (const char *a), (a))                     \
    X(icaltimezone *, icaltimezone_get_utc_timezone, (void), ())                                   \
    X(const char *, icalvalue_get_text, (const icalvalue *a), (a))

/* The same for functions that return nothing (C forbids `return f();` there). */
#define ALMANAC_ICAL_PROCEDURES(X)                                                                 \
    X(icalcomponent_free, (icalcomponent *a), (a))                                                 \
    X(icalrecur_iterator_free, (icalrecur_iterator *a), (a))                                       \
    X(icalerror_set_errors_are_fatal, (int a), (a))

static struct {
    ALMANAC_ICAL_FUNCTIONS(ALMANAC_POINTER)
    ALMANAC_ICAL_PROCEDURES(ALMANAC_POINTER_VOID)
} api;

ALMANAC_ICAL_FUNCTIONS(ALMANAC_FORWARD)
ALMANAC_ICAL_PROCEDURES(ALMANAC_FORWARD_VOID)

/* libical's soname is its ABI: the forwarders above were checked against libical 3's header, and
   its next major changes signatures used here (libical 4 returns recurrences by pointer), so
   libical.so.4 is not tried on these prototypes; building against its header fails the assert
   below, the place to add it. libical 3 has no runtime version call, so the soname is the check. */
_Static_assert(ICAL_MAJOR_VERSION == 3, "clibical.c was written for libical 3: review the forwarders, then the sonames");
static const char *const sonames[] = {"libical.so.3", NULL};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static const char *opened = "libical";
static char failure[256] = "libical was not loaded";

static void load(void) {
    const almanac_symbol symbols[] = {ALMANAC_ICAL_FUNCTIONS(ALMANAC_SYMBOL) ALMANAC_ICAL_PROCEDURES(ALMANAC_SYMBOL_VOID)};
    if (almanac_open_library(sonames, symbols, sizeof symbols / sizeof *symbols, &opened, failure, sizeof failure) == 0) {
        loaded = 0;
    }
}

int almanac_ical_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *almanac_ical_error(void) { return failure; }

const char *almanac_ical_opened(void) { return opened; }
