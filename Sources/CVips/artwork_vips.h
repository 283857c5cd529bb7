// The one C door to libvips. Variadic libvips calls get fixed-arity `artwork_vips_*` wrappers here,
// so that Swift never calls a C variadic function.
#ifndef ARTWORK_VIPS_H
#define ARTWORK_VIPS_H
#include <vips/vips.h>
#endif
