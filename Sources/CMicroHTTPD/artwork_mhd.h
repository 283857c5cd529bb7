// The one C door to libmicrohttpd. Variadic calls (MHD_start_daemon...) get fixed-arity
// `artwork_mhd_*` wrappers here.
#ifndef ARTWORK_MHD_H
#define ARTWORK_MHD_H
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/// Why `artwork_mhd_start` returned NULL.
enum artwork_mhd_start_error {
  ARTWORK_MHD_START_OK = 0,
  ARTWORK_MHD_START_BAD_HOST = 1,
  ARTWORK_MHD_START_FAILED = 2,
};

/// The callback MHD calls with the raw request-target; its result becomes the request context.
typedef void *(*artwork_mhd_uri_log_callback)(void *cls, const char *uri,
                                              struct MHD_Connection *connection);

/// Starts a daemon on `host` (an IPv4 or IPv6 literal) and `port` with internal epoll worker
/// threads, suspend/resume and an inter-thread channel (needed by quiesce and resume).
/// `thread_pool_size` of 0 or 1 means one polling thread.
static inline struct MHD_Daemon *artwork_mhd_start(
    const char *host, uint16_t port, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, artwork_mhd_uri_log_callback uri_log, void *cls,
    size_t memory_limit, unsigned int connection_limit, unsigned int timeout_seconds,
    unsigned int thread_pool_size, int *error) {
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  const struct sockaddr *address;
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                       MHD_USE_ITC;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    address = (const struct sockaddr *)&v4;
  } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    address = (const struct sockaddr *)&v6;
    flags |= MHD_USE_IPv6;
  } else {
    *error = ARTWORK_MHD_START_BAD_HOST;
    return NULL;
  }
  struct MHD_Daemon *daemon = MHD_start_daemon(
      flags, port, NULL, NULL, handler, cls,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
      MHD_OPTION_URI_LOG_CALLBACK, uri_log, cls,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0,
      MHD_OPTION_END);
  *error = daemon == NULL ? ARTWORK_MHD_START_FAILED : ARTWORK_MHD_START_OK;
  return daemon;
}

/// The port the daemon is bound to, or 0 when unknown.
static inline uint16_t artwork_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

/// Writes the client's address as text into `buffer`; returns 0 on success, -1 otherwise.
static inline int artwork_mhd_client_address(struct MHD_Connection *connection, char *buffer,
                                             socklen_t length) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL) return -1;
  const struct sockaddr *address = info->client_addr;
  const void *raw;
  if (address->sa_family == AF_INET) {
    raw = &((const struct sockaddr_in *)address)->sin_addr;
  } else if (address->sa_family == AF_INET6) {
    raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
  } else {
    return -1;
  }
  return inet_ntop(address->sa_family, raw, buffer, length) == NULL ? -1 : 0;
}

/// Sends `length` bytes straight to the connection's socket without blocking (best effort) and
/// shuts down its sending side. Used only for a final answer that MHD cannot queue (a request
/// body cut while it arrives); the caller then tells MHD to close the connection.
static inline ssize_t artwork_mhd_send_final(struct MHD_Connection *connection,
                                             const void *bytes, size_t length) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  if (info == NULL) return -1;
  ssize_t sent = send(info->connect_fd, bytes, length, MSG_NOSIGNAL | MSG_DONTWAIT);
  shutdown(info->connect_fd, SHUT_WR);
  return sent;
}

/// Stops accepting connections and closes the listening socket (MHD hands it back to us).
static inline void artwork_mhd_quiesce(struct MHD_Daemon *daemon) {
  MHD_socket socket = MHD_quiesce_daemon(daemon);
  if (socket != MHD_INVALID_SOCKET) close(socket);
}

/// `MHD_CONTENT_READER_END_OF_STREAM` and friends are casts Swift cannot import.
static inline ssize_t artwork_mhd_reader_end_of_stream(void) {
  return MHD_CONTENT_READER_END_OF_STREAM;
}
static inline ssize_t artwork_mhd_reader_end_with_error(void) {
  return MHD_CONTENT_READER_END_WITH_ERROR;
}
static inline uint64_t artwork_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
