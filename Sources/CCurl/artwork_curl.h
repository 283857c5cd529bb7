// The one C door to libcurl. curl_easy_setopt/getinfo are variadic and several constants are
// macros Swift does not import: fixed-arity `artwork_curl_*` wrappers live here, one per argument
// type. Only Sources/ArtworkService/Curl calls them.
#ifndef ARTWORK_CURL_H
#define ARTWORK_CURL_H
#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

// MARK: - Constants that are macros in curl.h

static const long artwork_curl_global_default = CURL_GLOBAL_DEFAULT;
static const curl_socket_t artwork_curl_socket_bad = CURL_SOCKET_BAD;
static const unsigned int artwork_curlu_default_port = CURLU_DEFAULT_PORT;
static const unsigned int artwork_curlu_punycode = CURLU_PUNYCODE;

// MARK: - curl_easy_setopt by argument type

static inline CURLcode artwork_curl_setopt_long(CURL *h, CURLoption o, long v) {
  return curl_easy_setopt(h, o, v);
}

/// curl copies string arguments (except CURLOPT_POSTFIELDS), so `v` may be freed after the call.
static inline CURLcode artwork_curl_setopt_string(CURL *h, CURLoption o, const char *v) {
  return curl_easy_setopt(h, o, v);
}

static inline CURLcode artwork_curl_setopt_pointer(CURL *h, CURLoption o, void *v) {
  return curl_easy_setopt(h, o, v);
}

/// A blob option (e.g. CURLOPT_CAINFO_BLOB), copied by curl (CURL_BLOB_COPY).
static inline CURLcode artwork_curl_setopt_blob(CURL *h, CURLoption o, const void *data,
                                                size_t len) {
  struct curl_blob blob;
  blob.data = (void *)data;
  blob.len = len;
  blob.flags = CURL_BLOB_COPY;
  return curl_easy_setopt(h, o, &blob);
}

/// CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION (and CURLOPT_READFUNCTION: same shape).
static inline CURLcode artwork_curl_setopt_data_function(CURL *h, CURLoption o,
                                                         curl_write_callback f) {
  return curl_easy_setopt(h, o, f);
}

static inline CURLcode artwork_curl_setopt_opensocket_function(CURL *h,
                                                               curl_opensocket_callback f) {
  return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f);
}

static inline CURLcode artwork_curl_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback f) {
  return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}

// MARK: - curl_easy_getinfo by result type

static inline CURLcode artwork_curl_getinfo_long(CURL *h, CURLINFO i, long *out) {
  return curl_easy_getinfo(h, i, out);
}

/// The string is owned by the handle and valid until the next perform or cleanup.
static inline CURLcode artwork_curl_getinfo_string(CURL *h, CURLINFO i, const char **out) {
  char *s = NULL;
  CURLcode rc = curl_easy_getinfo(h, i, &s);
  *out = s;
  return rc;
}

// MARK: - The address curl is about to dial (CURLOPT_OPENSOCKETFUNCTION)

/// Copies the raw address curl is about to connect to into `out` (4 bytes for AF_INET, 16 for
/// AF_INET6, network order) and its port. Returns the number of bytes copied, 0 for any other
/// family or a truncated sockaddr.
static inline int artwork_curl_sockaddr_copy(const struct curl_sockaddr *a, unsigned char out[16],
                                             unsigned short *port) {
  if (a->family == AF_INET && a->addrlen >= sizeof(struct sockaddr_in)) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)&a->addr;
    memcpy(out, &in->sin_addr, 4);
    *port = ntohs(in->sin_port);
    return 4;
  }
  if (a->family == AF_INET6 && a->addrlen >= sizeof(struct sockaddr_in6)) {
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->addr;
    memcpy(out, &in6->sin6_addr, 16);
    *port = ntohs(in6->sin6_port);
    return 16;
  }
  return 0;
}

/// Opens the socket curl asked for, close-on-exec so child processes never inherit it.
static inline curl_socket_t artwork_curl_sockaddr_open(const struct curl_sockaddr *a) {
  return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

// MARK: - S3 storage (request bodies from memory without `Expect: 100-continue`)

/// Sets `len` bytes at `data` as the request body, copied by curl (CURLOPT_POSTFIELDSIZE_LARGE then
/// CURLOPT_COPYPOSTFIELDS), so the caller's buffer may go at once. With CURLOPT_CUSTOMREQUEST
/// "PUT" this is a PUT whose body curl sends without `Expect: 100-continue` up to 1 MiB.
static inline CURLcode artwork_curl_setopt_copy_body(CURL *h, const void *data, size_t len) {
  CURLcode rc = curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
  if (rc != CURLE_OK) return rc;
  return curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, len > 0 ? data : "");
}

#endif
