// The one C door to libcurl. curl_easy_setopt/getinfo are variadic: fixed-arity
// `artwork_curl_*` wrappers live here.
#ifndef ARTWORK_CURL_H
#define ARTWORK_CURL_H
#include <curl/curl.h>
#endif
