#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The libcurl entry points we call, resolved once by almanac_curl_load. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[256] = "libcurl was not loaded";

#define RESOLVE(field, name)                                                                  \
    do {                                                                                      \
        *(void **)(&api.field) = dlsym(library, name);                                        \
        if (api.field == NULL) {                                                              \
            snprintf(failure, sizeof failure, "libcurl.so.4 has no %s", name);                \
            return;                                                                           \
        }                                                                                     \
    } while (0)

static void load(void) {
    /* RTLD_LAZY: libcurl and its ~25 libraries bind their functions as they are first called, as
       they did when linked (RTLD_NOW resolved them all up front, ~1.5 ms). RTLD_LOCAL: their
       symbols stay out of the global namespace. */
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : "libcurl.so.4 not found");
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_reset, "curl_easy_reset");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    /* Once, before any handle exists (curl_global_init is not thread-safe in libcurl 7.x). */
    CURLcode code = api.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed (%d)", (int)code);
        return;
    }
    loaded = 0;
}

int almanac_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *almanac_curl_error(void) { return failure; }

CURL *almanac_curl_easy_init(void) { return api.easy_init(); }
void almanac_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void almanac_curl_easy_reset(CURL *handle) { api.easy_reset(handle); }
CURLcode almanac_curl_easy_perform(CURL *handle) { return api.easy_perform(handle); }

struct curl_slist *almanac_curl_slist_append(struct curl_slist *list, const char *line) {
    return api.slist_append(list, line);
}

void almanac_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode almanac_curl_set_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode almanac_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode almanac_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode almanac_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode almanac_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode almanac_curl_set_data_callback(
    CURL *handle, CURLoption option, size_t (*callback)(char *, size_t, size_t, void *)) {
    return api.easy_setopt(handle, option, callback);
}

CURLcode almanac_curl_set_progress_callback(
    CURL *handle, int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

long almanac_curl_response_code(CURL *handle) {
    long code = 0;
    api.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
