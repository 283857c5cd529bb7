// The HTTP target's one C door: http-parser (Debian's libhttp-parser, the parser Node.js used
// before llhttp) and the Linux socket, epoll and eventfd calls the server loop makes. Bit-fields,
// macros and the packed `epoll_event` get fixed-arity `artwork_http_*` wrappers here.
#ifndef ARTWORK_HTTP_H
#define ARTWORK_HTTP_H
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <http_parser.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

// MARK: - http-parser

/// The parser's error (`HTTP_PARSER_ERRNO`).
static inline enum http_errno artwork_http_errno(const http_parser *parser) {
  return HTTP_PARSER_ERRNO(parser);
}
/// The request's method (`enum http_method`).
static inline unsigned int artwork_http_method(const http_parser *parser) {
  return parser->method;
}
/// Whether the parser stopped at an Upgrade or CONNECT request.
static inline int artwork_http_upgrade(const http_parser *parser) { return parser->upgrade; }
/// Whether the message's body is chunked.
static inline int artwork_http_chunked(const http_parser *parser) {
  return (parser->flags & F_CHUNKED) != 0;
}
/// Whether the message declared a Content-Length.
static inline int artwork_http_has_length(const http_parser *parser) {
  return (parser->flags & F_CONTENTLENGTH) != 0;
}
/// Whether the parser is reading a chunked body's trailer section.
static inline int artwork_http_in_trailers(const http_parser *parser) {
  return (parser->flags & F_TRAILING) != 0;
}

// MARK: - Sockets

/// Opens a non-blocking listening TCP socket on `host` (an IPv4 or IPv6 literal) and `port`.
/// Returns the descriptor and stores the bound port, or returns -2 when `host` is not a literal
/// and -1 with `errno` set when the system refused.
static inline int artwork_http_listen(const char *host, uint16_t port, int backlog,
                                      uint16_t *bound_port) {
  struct sockaddr_storage storage;
  socklen_t length;
  memset(&storage, 0, sizeof storage);
  struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
  int family;
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    family = AF_INET;
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    length = sizeof *v4;
  } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    family = AF_INET6;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    length = sizeof *v6;
  } else {
    return -2;
  }
  int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  if (bind(fd, (struct sockaddr *)&storage, length) != 0 || listen(fd, backlog) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  length = sizeof storage;
  if (getsockname(fd, (struct sockaddr *)&storage, &length) == 0) {
    *bound_port = ntohs(family == AF_INET ? v4->sin_port : v6->sin6_port);
  }
  return fd;
}

/// Accepts one connection without blocking, with TCP_NODELAY set, and writes the peer's address
/// as text into `address`. Returns the descriptor, or -1 with `errno` set (EAGAIN: none left).
static inline int artwork_http_accept(int listener, char *address, socklen_t address_length) {
  struct sockaddr_storage storage;
  socklen_t length = sizeof storage;
  int fd = accept4(listener, (struct sockaddr *)&storage, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return -1;
  int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  address[0] = 0;
  if (storage.ss_family == AF_INET) {
    inet_ntop(AF_INET, &((struct sockaddr_in *)&storage)->sin_addr, address, address_length);
  } else if (storage.ss_family == AF_INET6) {
    struct in6_addr *raw = &((struct sockaddr_in6 *)&storage)->sin6_addr;
    if (IN6_IS_ADDR_V4MAPPED(raw)) {
      inet_ntop(AF_INET, &raw->s6_addr[12], address, address_length);
    } else {
      inet_ntop(AF_INET6, raw, address, address_length);
    }
  }
  return fd;
}

/// Receives up to `length` bytes without blocking; -1 with `errno` on failure, 0 at end of stream.
static inline ssize_t artwork_http_recv(int fd, void *buffer, size_t length) {
  return recv(fd, buffer, length, MSG_DONTWAIT);
}

/// Drops up to `length` received bytes without copying them (TCP's MSG_TRUNC, Linux 2.4.4+);
/// -1 with `errno` on failure, 0 at end of stream.
static inline ssize_t artwork_http_discard(int fd, size_t length) {
  return recv(fd, NULL, length, MSG_DONTWAIT | MSG_TRUNC);
}

/// Sends the `count` buffers without blocking and without SIGPIPE.
static inline ssize_t artwork_http_sendv(int fd, const struct iovec *buffers, int count) {
  struct msghdr message;
  memset(&message, 0, sizeof message);
  message.msg_iov = (struct iovec *)buffers;
  message.msg_iovlen = (size_t)count;
  return sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/// `artwork_http_sendv` telling the kernel more follows at once (`MSG_MORE`): a head sent
/// before a file's bytes leaves in the same segment as they do.
static inline ssize_t artwork_http_sendv_more(int fd, const struct iovec *buffers, int count) {
  struct msghdr message;
  memset(&message, 0, sizeof message);
  message.msg_iov = (struct iovec *)buffers;
  message.msg_iovlen = (size_t)count;
  return sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT | MSG_MORE);
}

// memfd_create(2) and file seals, without _GNU_SOURCE (which the Swift module of the C library
// is not built with): the kernel's values, and the system call by number.
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#define F_SEAL_WRITE 0x0008
#endif

/// An anonymous in-memory file holding a copy of `bytes`, sealed against any change; -1 when
/// it cannot be made (the caller keeps the bytes in its own memory then).
static inline int artwork_http_sealed_memfd(const void *bytes, size_t length) {
  int fd = (int)syscall(SYS_memfd_create, "artwork-body", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  size_t written = 0;
  while (written < length) {
    ssize_t n = write(fd, (const char *)bytes + written, length - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return -1;
    }
    written += (size_t)n;
  }
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/// Sends up to `count` bytes of `file` from `*offset` on (advanced by what was sent) straight
/// from the kernel's pages, without blocking.
static inline ssize_t artwork_http_sendfile(int socket, int file, off_t *offset, size_t count) {
  return sendfile(socket, file, offset, count);
}

/// Reads `length` bytes of `file` from `offset` into `into`; the count read, or -1.
static inline ssize_t artwork_http_pread(int file, void *into, size_t length, off_t offset) {
  return pread(file, into, length, offset);
}

/// Closes the sending side: the peer reads the end of the stream after what was sent.
static inline int artwork_http_shutdown_write(int fd) { return shutdown(fd, SHUT_WR); }

// MARK: - epoll and eventfd

/// Watches `fd` for `events`, reporting `token` with each.
static inline int artwork_http_epoll_add(int epoll, int fd, uint32_t events, uint64_t token) {
  struct epoll_event event;
  memset(&event, 0, sizeof event);
  event.events = events;
  event.data.u64 = token;
  return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

/// Stops watching `fd`.
static inline int artwork_http_epoll_remove(int epoll, int fd) {
  struct epoll_event event;
  memset(&event, 0, sizeof event);
  return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event);
}

/// Waits up to `timeout_ms` for at most `capacity` events, unpacked into `tokens` and `events`.
static inline int artwork_http_epoll_wait(int epoll, uint64_t *tokens, uint32_t *events,
                                          int capacity, int timeout_ms) {
  struct epoll_event ready[64];
  if (capacity > 64) capacity = 64;
  int count = epoll_wait(epoll, ready, capacity, timeout_ms);
  for (int i = 0; i < count; i++) {
    tokens[i] = ready[i].data.u64;
    events[i] = ready[i].events;
  }
  return count;
}

static inline uint32_t artwork_http_event_in(void) { return EPOLLIN; }
static inline uint32_t artwork_http_event_out(void) { return EPOLLOUT; }
static inline uint32_t artwork_http_event_hangup(void) { return EPOLLRDHUP | EPOLLHUP | EPOLLERR; }
/// The peer is gone both ways (a reset, or both sides shut): nothing more can be said to it.
static inline uint32_t artwork_http_event_gone(void) { return EPOLLHUP | EPOLLERR; }
static inline uint32_t artwork_http_event_edge(void) { return EPOLLET; }
static inline uint32_t artwork_http_event_exclusive(void) { return EPOLLEXCLUSIVE; }

/// A non-blocking eventfd for waking a loop from other threads.
static inline int artwork_http_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
static inline void artwork_http_eventfd_signal(int fd) {
  uint64_t one = 1;
  ssize_t ignored = write(fd, &one, sizeof one);
  (void)ignored;
}
static inline void artwork_http_eventfd_clear(int fd) {
  uint64_t value;
  ssize_t ignored = read(fd, &value, sizeof value);
  (void)ignored;
}

/// Names the calling thread (for `top -H` and debuggers; Linux keeps 15 bytes).
static inline void artwork_http_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
