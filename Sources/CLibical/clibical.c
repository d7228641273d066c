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

#define POINTER(type, name, parameters, arguments) type(*name) parameters;
#define PROCEDURE_POINTER(name, parameters, arguments) void(*name) parameters;
static struct {
    ALMANAC_ICAL_FUNCTIONS(POINTER)
    ALMANAC_ICAL_PROCEDURES(PROCEDURE_POINTER)
} api;

#define FORWARD(type, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) type name parameters { return api.name arguments; }
#define FORWARD_PROCEDURE(name, parameters, arguments) \
    __attribute__((visibility("hidden"))) void name parameters { api.name arguments; }
ALMANAC_ICAL_FUNCTIONS(FORWARD)
ALMANAC_ICAL_PROCEDURES(FORWARD_PROCEDURE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[256] = "libical was not loaded";

#define SYMBOL(type, name, parameters, arguments) {#name, (void **)&api.name},
#define PROCEDURE_SYMBOL(name, parameters, arguments) {#name, (void **)&api.name},
static void load(void) {
    const almanac_symbol symbols[] = {ALMANAC_ICAL_FUNCTIONS(SYMBOL) ALMANAC_ICAL_PROCEDURES(PROCEDURE_SYMBOL)};
    if (almanac_open_library("libical.so.3", symbols, sizeof symbols / sizeof *symbols, failure, sizeof failure) == 0) {
        loaded = 0;
    }
}

int almanac_ical_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *almanac_ical_error(void) { return failure; }
