#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The libcurl functions comics calls, resolved from libcurl.so.4. */
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[512] = "libcurl was not loaded";

#define RESOLVE(field, name)                                                         \
    do {                                                                             \
        *(void **)(&curl.field) = dlsym(library, name);                              \
        if (curl.field == NULL) {                                                    \
            snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks %s", name); \
            return;                                                                  \
        }                                                                            \
    } while (0)

/* RTLD_LAZY: libcurl brings some thirty libraries, and binding each call
   of theirs when first made (as in a program linked with them) costs a
   start a few milliseconds less than resolving them all now. */
static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "cannot load libcurl.so.4");
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    load_status = 0;
}

int comics_curl_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *comics_curl_load_error(void) { return load_error; }

CURL *comics_curl_easy_init(void) { return curl.easy_init(); }
void comics_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
const char *comics_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode comics_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode comics_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode comics_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode comics_curl_setopt_write_function(CURL *handle, comics_curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode comics_curl_setopt_header_function(CURL *handle, comics_curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode comics_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode comics_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLM *comics_curl_multi_init(void) { return curl.multi_init(); }
CURLMcode comics_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }

CURLMcode comics_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl.multi_setopt(multi, option, value);
}

CURLMcode comics_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode comics_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode comics_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }

CURLMcode comics_curl_multi_poll(CURLM *multi, int timeout_ms) {
    return curl.multi_poll(multi, NULL, 0, timeout_ms, NULL);
}

CURLMsg *comics_curl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }

struct curl_slist *comics_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void comics_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }
