#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>

int almanac_open_library(
    const char *soname, const almanac_symbol *symbols, size_t count, char *failure, size_t failure_size) {
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        if (reason != NULL) {
            snprintf(failure, failure_size, "%s", reason);
        } else {
            snprintf(failure, failure_size, "%s not found", soname);
        }
        return -1;
    }
    for (size_t index = 0; index < count; index++) {
        *symbols[index].slot = dlsym(library, symbols[index].name);
        if (*symbols[index].slot == NULL) {
            snprintf(failure, failure_size, "%s has no %s", soname, symbols[index].name);
            return -1;
        }
    }
    return 0;
}
