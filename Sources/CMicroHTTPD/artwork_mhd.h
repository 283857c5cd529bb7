// The one C door to libmicrohttpd. Variadic calls (MHD_start_daemon...) get fixed-arity
// `artwork_mhd_*` wrappers here.
#ifndef ARTWORK_MHD_H
#define ARTWORK_MHD_H
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>
#endif
