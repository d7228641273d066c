#ifndef ALMANAC_CLIBICAL_SHIM_H
#define ALMANAC_CLIBICAL_SHIM_H
#include <libical/ical.h>
#endif
