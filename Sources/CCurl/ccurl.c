#define _GNU_SOURCE /* dlinfo, RTLD_DI_ORIGIN, RTLD_NOLOAD and dl_iterate_phdr; before any header */
#include "ccurl.h"

#include <dlfcn.h>
#include <link.h>
#include <library_loader.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libcurl functions Almanac calls (see CLibraryLoader): return type, name, parameters,
   arguments. Adding a call in Swift means adding it here (the linker names any that is missing). */
#define ALMANAC_CURL_FUNCTIONS(X)                                                                  \
    X(CURLcode, curl_global_init, (long a), (a))                                                   \
    X(curl_version_info_data *, curl_version_info, (CURLversion a), (a))                           \
    X(CURL *, curl_easy_init, (void), ())                                                          \
    X(CURLcode, curl_easy_perform, (CURL *a), (a))                                                 \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *a, const char *b), (a, b))

#define ALMANAC_CURL_PROCEDURES(X)                                                                 \
    X(curl_easy_cleanup, (CURL *a), (a))                                                           \
    X(curl_easy_reset, (CURL *a), (a))                                                             \
    X(curl_slist_free_all, (struct curl_slist *a), (a))

static struct {
    ALMANAC_CURL_FUNCTIONS(ALMANAC_POINTER)
    ALMANAC_CURL_PROCEDURES(ALMANAC_POINTER_VOID)
    /* Variadic, so no forwarder; __typeof__ keeps the header's prototype on the pointers. */
    __typeof__(curl_easy_setopt) *setopt;
    __typeof__(curl_easy_getinfo) *getinfo;
} api;

ALMANAC_CURL_FUNCTIONS(ALMANAC_FORWARD)
ALMANAC_CURL_PROCEDURES(ALMANAC_FORWARD_VOID)

/* libcurl's soname has been .4 since 7.16 (2006); the GnuTLS build has the same API and is often
   installed alone (git needs it). Almanac's own HTTP(S)-only build (scripts/build-curl) comes
   first: the loader finds it through the binary's RUNPATH ($ORIGIN, $ORIGIN/../lib/almanac) and
   opens 5 libraries where the system's opens ~30. */
static const char *const with_own_build[] = {ALMANAC_OWN_LIBCURL, "libcurl.so.4", "libcurl-gnutls.so.4", NULL};
static const char *const system_only[] = {"libcurl.so.4", "libcurl-gnutls.so.4", NULL};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static const char *soname = "libcurl";
static char opened[96] = "libcurl";
static char failure[256] = "libcurl was not loaded";
static char folder[512] = "";
static unsigned int version_num = 0;

/* dl_iterate_phdr's callback: 1 (stop) at a loaded object whose file name is a system libcurl's. */
static int is_system_libcurl(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size;
    (void)unused;
    const char *slash = info->dlpi_name != NULL ? strrchr(info->dlpi_name, '/') : NULL;
    if (slash == NULL) return 0;
    for (const char *const *name = system_only; *name != NULL; name++) {
        if (strcmp(slash + 1, *name) == 0) return 1;
    }
    return 0;
}

/* The system's libcurl when this process has it already (a binary that links FoundationNetworking
   does): a second copy would only add its start-up cost. Else Almanac's own build first, unless
   ALMANAC_SYSTEM_LIBCURL is set (to anything but empty or 0). */
static const char *const *candidates(void) {
    const char *system = getenv("ALMANAC_SYSTEM_LIBCURL");
    if (system != NULL && system[0] != '\0' && strcmp(system, "0") != 0) return system_only;
    /* Walks the loaded objects' names (dlopen with RTLD_NOLOAD would search the disk for it). */
    if (dl_iterate_phdr(is_system_libcurl, NULL) != 0) return system_only;
    return with_own_build;
}

static void load(void) {
    const almanac_symbol symbols[] = {
        ALMANAC_CURL_FUNCTIONS(ALMANAC_SYMBOL) ALMANAC_CURL_PROCEDURES(ALMANAC_SYMBOL_VOID)
        {"curl_easy_setopt", (void **)&api.setopt},
        {"curl_easy_getinfo", (void **)&api.getinfo},
    };
    if (almanac_open_library(candidates(), symbols, sizeof symbols / sizeof *symbols, &soname, failure, sizeof failure)
        != 0) {
        return;
    }
    const curl_version_info_data *version = curl_version_info(CURLVERSION_NOW);
    if (version == NULL || version->version_num < ALMANAC_CURL_MINIMUM) {
        snprintf(failure, sizeof failure, "%s is %s; Almanac needs 7.68.0 or later", soname,
            version != NULL && version->version != NULL ? version->version : "of unknown version");
        return;
    }
    snprintf(opened, sizeof opened, "%s %s", soname, version->version);
    version_num = version->version_num;
    /* Once, before any handle exists (curl_global_init is not thread-safe in libcurl 7.x). */
    CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
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

const char *almanac_curl_opened(void) { return opened; }

/* Only the doctor asks, so a call that fetches does not pay for it. */
static pthread_once_t folder_once = PTHREAD_ONCE_INIT;

static void find_folder(void) {
    void *handle = loaded == 0 ? dlopen(soname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (handle == NULL) return;
    if (dlinfo(handle, RTLD_DI_ORIGIN, folder) != 0) folder[0] = '\0';
    dlclose(handle);
}

const char *almanac_curl_folder(void) {
    pthread_once(&folder_once, find_folder);
    return folder;
}

CURLcode almanac_curl_set_long(CURL *handle, CURLoption option, long value) {
    return api.setopt(handle, option, value);
}

CURLcode almanac_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return api.setopt(handle, option, value);
}

CURLcode almanac_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return api.setopt(handle, option, value);
}

CURLcode almanac_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return api.setopt(handle, option, value);
}

CURLcode almanac_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.setopt(handle, option, value);
}

CURLcode almanac_curl_set_data_callback(
    CURL *handle, CURLoption option, size_t (*callback)(char *, size_t, size_t, void *)) {
    return api.setopt(handle, option, callback);
}

CURLcode almanac_curl_set_progress_callback(
    CURL *handle, int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return api.setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

long almanac_curl_response_code(CURL *handle) {
    long code = 0;
    api.getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

CURLcode almanac_curl_restrict_protocols(CURL *handle, const char *redirect_scheme) {
    int https_only = redirect_scheme != NULL && redirect_scheme[0] == 'h' && redirect_scheme[4] == 's';
    if (version_num >= ALMANAC_CURL_PROTOCOLS_STR) {
        CURLcode code = api.setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
        if (code != CURLE_OK) return code;
        return api.setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, https_only ? "https" : "http");
    }
    CURLcode code = api.setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    if (code != CURLE_OK) return code;
    return api.setopt(handle, CURLOPT_REDIR_PROTOCOLS, (long)(https_only ? CURLPROTO_HTTPS : CURLPROTO_HTTP));
}
