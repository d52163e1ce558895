#ifndef CIS_CURL_H
#define CIS_CURL_H
/*
 * Typed wrappers for libcurl's variadic entry points (curl_easy_setopt, curl_easy_getinfo,
 * curl_multi_setopt, curl_share_setopt). Swift cannot call C variadic functions, and passing
 * the wrong argument type to them is undefined behaviour, so each argument type gets its own
 * wrapper and the compiler checks the call sites.
 */
#include <curl/curl.h>

/* The shape of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks. */
typedef size_t (*cis_curl_data_callback)(char *bytes, size_t size, size_t count, void *userdata);

/* curl_easy_setopt for options taking a long (flags, numbers, enums). */
CURLcode cis_easy_setopt_long(CURL *easy, CURLoption option, long value);
/* curl_easy_setopt for options taking a curl_off_t (the *_LARGE variants). */
CURLcode cis_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value);
/* curl_easy_setopt for options taking a C string (curl copies it) or an object pointer. */
CURLcode cis_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode cis_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
/* curl_easy_setopt for CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION. */
CURLcode cis_easy_setopt_data_callback(CURL *easy, CURLoption option, cis_curl_data_callback callback);

/* curl_easy_getinfo for long, curl_off_t, string and pointer results. */
CURLcode cis_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode cis_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value);
CURLcode cis_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);
CURLcode cis_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value);

/* curl_multi_setopt / curl_share_setopt for long values. */
CURLMcode cis_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode cis_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

/* The CURLcode carried by a CURLMSG_DONE message (the union is awkward from Swift). */
CURLcode cis_multi_message_result(const CURLMsg *message);

#endif
