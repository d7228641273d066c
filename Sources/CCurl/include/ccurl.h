#ifndef ALMANAC_CCURL_H
#define ALMANAC_CCURL_H

/* libcurl, opened on first use with dlopen rather than linked: it brings ~25 shared libraries
   (OpenSSL, GnuTLS through librtmp, Kerberos, LDAP, ...) whose loading cost every `tools` process
   about 4 ms before main, although a call answered from the cache never touches the network.
   <curl/curl.h> gives the types, constants and prototypes; the functions Almanac calls are defined
   in ccurl.c under their own names, hidden, each forwarding to libcurl's (the CLibraryLoader
   pattern). The static switch drops the header's export markers, which would clash with those
   hidden definitions. The variadic curl_easy_setopt and curl_easy_getinfo cannot be forwarded
   or called from Swift: the typed almanac_curl_set_* forms below stand in for them. */
#define CURL_STATICLIB
/* CURLOPT_PROTOCOLS (the bitmask form) is deprecated in new headers but is the only form a libcurl
   older than 7.85 knows; almanac_curl_restrict_protocols picks the form the opened library has. */
#define CURL_DISABLE_DEPRECATION
#include <curl/curl.h>

/* The oldest libcurl accepted: 7.68.0, the oldest in a still-supported LTS (Ubuntu 20.04; Debian 11
   has 7.74, Ubuntu 22.04 7.81). Every option the transport sets exists there (the newest,
   CURLOPT_XFERINFOFUNCTION, is from 7.32), and the protocol restriction works on all of them
   (see almanac_curl_restrict_protocols). */
#define ALMANAC_CURL_MINIMUM CURL_VERSION_BITS(7, 68, 0)
/* CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR arrived in 7.85.0. */
#define ALMANAC_CURL_PROTOCOLS_STR CURL_VERSION_BITS(7, 85, 0)

/* Opens libcurl.so.4 (or libcurl-gnutls.so.4, the same API), checks its version and runs
   curl_global_init once (thread-safe). Returns 0 when ready, else -1 and almanac_curl_error()
   says why. No other libcurl function may be called before it returned 0. */
int almanac_curl_load(void);
/* Why almanac_curl_load failed (the loader's text, a too old version, or curl_global_init's
   code); never NULL. */
const char *almanac_curl_error(void);
/* The soname and version opened ("libcurl.so.4 7.88.1"), once almanac_curl_load returned 0. */
const char *almanac_curl_opened(void);
/* The folder the opened library lies in (the loader's RTLD_DI_ORIGIN), or "" when unknown; call
   it only after almanac_curl_load returned 0 (it is worked out once, at the first call). */
const char *almanac_curl_folder(void);
/* The file name of Almanac's own HTTP(S)-only libcurl build (scripts/build-curl). */
#define ALMANAC_OWN_LIBCURL "libcurl-almanac.so.4"

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
/* Restricts transfers to http and https and redirects to `redirect_scheme` ("http" or "https"),
   with the string options on libcurl 7.85 and later and the bitmask ones before. Returns CURLE_OK
   or the option's error (the transfer must not run then). */
CURLcode almanac_curl_restrict_protocols(CURL *handle, const char *redirect_scheme);

#endif
