#include "ccurl.h"

#include <library_loader.h>
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

static void load(void) {
    const almanac_symbol symbols[] = {
        {"curl_global_init", (void **)&api.global_init},
        {"curl_easy_init", (void **)&api.easy_init},
        {"curl_easy_cleanup", (void **)&api.easy_cleanup},
        {"curl_easy_reset", (void **)&api.easy_reset},
        {"curl_easy_perform", (void **)&api.easy_perform},
        {"curl_easy_setopt", (void **)&api.easy_setopt},
        {"curl_easy_getinfo", (void **)&api.easy_getinfo},
        {"curl_slist_append", (void **)&api.slist_append},
        {"curl_slist_free_all", (void **)&api.slist_free_all},
    };
    if (almanac_open_library("libcurl.so.4", symbols, sizeof symbols / sizeof *symbols, failure, sizeof failure) != 0) {
        return;
    }
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
