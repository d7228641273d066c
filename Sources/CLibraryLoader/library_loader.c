#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* Opens `soname` and fills the slots; NULL with `reason` set when it cannot be used. */
static void *open_one(const char *soname, const almanac_symbol *symbols, size_t count, char *reason, size_t size,
    int *absent) {
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *text = dlerror();
        snprintf(reason, size, "%s", text != NULL ? text : "not found");
        /* glibc's text for a soname the search path does not have. */
        *absent = text == NULL || strstr(text, "No such file") != NULL;
        return NULL;
    }
    for (size_t index = 0; index < count; index++) {
        *symbols[index].slot = dlsym(library, symbols[index].name);
        if (*symbols[index].slot == NULL) {
            snprintf(reason, size, "%s has no %s", soname, symbols[index].name);
            *absent = 0;
            dlclose(library);
            return NULL;
        }
    }
    return library;
}

int almanac_open_library(const char *const *sonames, const almanac_symbol *symbols, size_t count,
    const char **opened, char *failure, size_t failure_size) {
    int reported = 0;
    for (const char *const *soname = sonames; *soname != NULL; soname++) {
        char reason[512];
        int absent = 1;
        if (open_one(*soname, symbols, count, reason, sizeof reason, &absent) != NULL) {
            *opened = *soname;
            return 0;
        }
        /* A library that is there but unusable says more than the names that are not. */
        if (!absent && !reported) {
            snprintf(failure, failure_size, "%s", reason);
            reported = 1;
        }
    }
    if (!reported) {
        /* "no libxml2.so.16 or libxml2.so.2 found" */
        size_t used = (size_t)snprintf(failure, failure_size, "no");
        for (const char *const *soname = sonames; *soname != NULL && used < failure_size; soname++) {
            const char *separator = soname == sonames ? " " : soname[1] == NULL ? " or " : ", ";
            used += (size_t)snprintf(failure + used, failure_size - used, "%s%s", separator, *soname);
        }
        if (used < failure_size) snprintf(failure + used, failure_size - used, " found");
    }
    return -1;
}
