#ifndef COMICS_CCURL_H
#define COMICS_CCURL_H

/* libcurl, loaded with dlopen the first time comics needs the network.
   Linking it would cost every start, network or not, about 4 ms here to
   load and relocate libcurl and the two dozen libraries it pulls in; most
   commands are served from the cache and never need it.

   Only the types and constants of <curl/curl.h> are used from Swift; every
   call goes through the comics_curl_* functions below. The setopt, getinfo
   and multi_setopt wrappers also fix one argument type each, since Swift
   cannot call C variadic functions. */
#include <curl/curl.h>

/* Loads libcurl and runs curl_global_init, once per process. Returns 0 on
   success; otherwise comics_curl_load_error() says why. Thread-safe. */
int comics_curl_load(void);
const char *comics_curl_load_error(void);

CURL *comics_curl_easy_init(void);
void comics_curl_easy_cleanup(CURL *handle);
const char *comics_curl_easy_strerror(CURLcode code);

CURLcode comics_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode comics_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode comics_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);

typedef size_t (*comics_curl_write_callback)(char *data, size_t size, size_t count, void *context);
CURLcode comics_curl_setopt_write_function(CURL *handle, comics_curl_write_callback callback);
CURLcode comics_curl_setopt_header_function(CURL *handle, comics_curl_write_callback callback);

CURLcode comics_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode comics_curl_getinfo_string(CURL *handle, CURLINFO info, char **value);

CURLM *comics_curl_multi_init(void);
CURLMcode comics_curl_multi_cleanup(CURLM *multi);
CURLMcode comics_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode comics_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode comics_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode comics_curl_multi_perform(CURLM *multi, int *running);
CURLMcode comics_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMsg *comics_curl_multi_info_read(CURLM *multi, int *queued);

struct curl_slist *comics_curl_slist_append(struct curl_slist *list, const char *text);
void comics_curl_slist_free_all(struct curl_slist *list);

#endif
