#ifndef ALMANAC_CCURL_H
#define ALMANAC_CCURL_H
#include <curl/curl.h>

/* libcurl, opened on first use with dlopen rather than linked: it brings ~25 shared libraries
   (OpenSSL, GnuTLS through librtmp, Kerberos, LDAP, ...) whose loading cost every `tools` process
   about 4 ms before main, although a call answered from the cache never touches the network.
   Only <curl/curl.h>'s types and constants are used from the header; every call goes through
   these wrappers, which also give the variadic curl_easy_setopt/getinfo typed forms Swift can
   call. */

/* Opens libcurl.so.4 and runs curl_global_init once (thread-safe). Returns 0 when ready, else -1
   and almanac_curl_error() says why. */
int almanac_curl_load(void);
/* Why almanac_curl_load failed (dlerror's text, or curl_global_init's code); never NULL. */
const char *almanac_curl_error(void);

/* The calls below need a successful almanac_curl_load() first. */
CURL *almanac_curl_easy_init(void);
void almanac_curl_easy_cleanup(CURL *handle);
void almanac_curl_easy_reset(CURL *handle);
CURLcode almanac_curl_easy_perform(CURL *handle);
struct curl_slist *almanac_curl_slist_append(struct curl_slist *list, const char *line);
void almanac_curl_slist_free_all(struct curl_slist *list);

CURLcode almanac_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode almanac_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode almanac_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode almanac_curl_set_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode almanac_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value);
/* For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
CURLcode almanac_curl_set_data_callback(
    CURL *handle, CURLoption option, size_t (*callback)(char *, size_t, size_t, void *));
CURLcode almanac_curl_set_progress_callback(
    CURL *handle, int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
long almanac_curl_response_code(CURL *handle);

#endif
