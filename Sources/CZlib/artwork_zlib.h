// The PNGMetadata target's one C door: zlib's inflate, whose init is a version-checked macro.
#ifndef ARTWORK_ZLIB_H
#define ARTWORK_ZLIB_H
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/// What `artwork_zlib_inflated_size` found.
enum {
  ARTWORK_ZLIB_COMPLETE = 0,  // the stream ended within the limit; `*size` is its length
  ARTWORK_ZLIB_OVER_LIMIT = 1, // more than `limit` bytes would come out; inflating stopped there
  ARTWORK_ZLIB_DAMAGED = 2,   // not a zlib stream, or cut short
};

/// How many bytes the zlib stream at `data` inflates to, counting no further than `limit`:
/// the output goes into a scratch buffer and is thrown away, so a bomb costs at most `limit`
/// bytes of work and 16 KiB of memory.
static inline int artwork_zlib_inflated_size(const uint8_t *data, size_t length, size_t limit,
                                             size_t *size) {
  z_stream stream = {0};
  if (inflateInit(&stream) != Z_OK) return ARTWORK_ZLIB_DAMAGED;
  unsigned char scratch[16384];
  size_t total = 0;
  int status = Z_OK;
  stream.next_in = (Bytef *)data;
  stream.avail_in = (uInt)(length > UINT32_MAX ? UINT32_MAX : length);
  while (status == Z_OK) {
    stream.next_out = scratch;
    stream.avail_out = sizeof scratch;
    status = inflate(&stream, Z_NO_FLUSH);
    total += sizeof scratch - stream.avail_out;
    if (total > limit) {
      inflateEnd(&stream);
      return ARTWORK_ZLIB_OVER_LIMIT;
    }
    if (status == Z_BUF_ERROR && stream.avail_in == 0) break;
  }
  inflateEnd(&stream);
  *size = total;
  return status == Z_STREAM_END ? ARTWORK_ZLIB_COMPLETE : ARTWORK_ZLIB_DAMAGED;
}
#endif
