// The JPEGDecoding target's one C door: libjpeg-turbo's decompressor, whose errors arrive by
// longjmp. Every call into it happens here, between a setjmp and the destroy, so no jump ever
// crosses Swift frames; Swift sees plain status codes.
#ifndef ARTWORK_JPEG_H
#define ARTWORK_JPEG_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

/// Why a call failed: the stream is damaged (or libjpeg warned about it), or its colour
/// layout needs libvips (CMYK, YCCK, more than three components).
enum {
  ARTWORK_JPEG_OK = 0,
  ARTWORK_JPEG_DAMAGED = 1,
  ARTWORK_JPEG_UNSUPPORTED = 2,
  ARTWORK_JPEG_NO_MEMORY = 3,
};

struct artwork_jpeg_error {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

static void artwork_jpeg_error_exit(j_common_ptr info) {
  struct artwork_jpeg_error *error = (struct artwork_jpeg_error *)info->err;
  (*info->err->format_message)(info, error->message);
  longjmp(error->jump, 1);
}

// A warning means corrupt data that libjpeg would paper over with grey: treat it as an error,
// so the caller falls back to libvips, which decides what the pipeline says of it.
static void artwork_jpeg_emit_message(j_common_ptr info, int level) {
  if (level < 0) artwork_jpeg_error_exit(info);
}

/// The header's facts: the picture's size and whether its colours are ones this door decodes
/// (greyscale, YCbCr or RGB). 0 when the header could be read.
static inline int artwork_jpeg_header(const uint8_t *data, size_t length, int *width,
                                      int *height, int *supported) {
  struct jpeg_decompress_struct info;
  struct artwork_jpeg_error error;
  info.err = jpeg_std_error(&error.manager);
  error.manager.error_exit = artwork_jpeg_error_exit;
  error.manager.emit_message = artwork_jpeg_emit_message;
  if (setjmp(error.jump)) {
    jpeg_destroy_decompress(&info);
    return ARTWORK_JPEG_DAMAGED;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, (unsigned long)length);
  jpeg_read_header(&info, TRUE);
  *width = (int)info.image_width;
  *height = (int)info.image_height;
  J_COLOR_SPACE space = info.jpeg_color_space;
  *supported = (space == JCS_GRAYSCALE && info.num_components == 1) ||
               ((space == JCS_YCbCr || space == JCS_RGB) && info.num_components == 3);
  jpeg_destroy_decompress(&info);
  return ARTWORK_JPEG_OK;
}

/// Decodes the picture scaled by `eighths`/8 (libjpeg's DCT scaling, 1-8), and writes the
/// `crop_width` x `crop_height` area at (`crop_left`, `crop_top`) of that scaled picture to `out`
/// as packed RGB (`crop_width * crop_height * 3` bytes). Only the rows down to the crop's last
/// are decoded; columns outside it skip the inverse DCT where the iMCU grid allows. `message`
/// (JMSG_LENGTH_MAX bytes) receives libjpeg's words on failure.
static inline int artwork_jpeg_decode_rgb(const uint8_t *data, size_t length, int eighths,
                                          int crop_left, int crop_top, int crop_width,
                                          int crop_height, uint8_t *out, char *message) {
  struct jpeg_decompress_struct info;
  struct artwork_jpeg_error error;
  uint8_t *volatile row = NULL;
  info.err = jpeg_std_error(&error.manager);
  error.manager.error_exit = artwork_jpeg_error_exit;
  error.manager.emit_message = artwork_jpeg_emit_message;
  error.message[0] = 0;
  if (setjmp(error.jump)) {
    jpeg_destroy_decompress(&info);
    free(row);
    memcpy(message, error.message, JMSG_LENGTH_MAX);
    return ARTWORK_JPEG_DAMAGED;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, (unsigned long)length);
  jpeg_read_header(&info, TRUE);
  J_COLOR_SPACE space = info.jpeg_color_space;
  if (!((space == JCS_GRAYSCALE && info.num_components == 1) ||
        ((space == JCS_YCbCr || space == JCS_RGB) && info.num_components == 3))) {
    jpeg_destroy_decompress(&info);
    return ARTWORK_JPEG_UNSUPPORTED;
  }
  info.scale_num = (unsigned int)eighths;
  info.scale_denom = 8;
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  int width = (int)info.output_width;
  int height = (int)info.output_height;
  if (crop_left < 0 || crop_top < 0 || crop_width <= 0 || crop_height <= 0 ||
      crop_left + crop_width > width || crop_top + crop_height > height) {
    jpeg_destroy_decompress(&info);
    snprintf(message, JMSG_LENGTH_MAX, "crop outside the %dx%d picture", width, height);
    return ARTWORK_JPEG_UNSUPPORTED;
  }
  // libjpeg widens the columns to its iMCU grid: decode those, keep the crop's.
  JDIMENSION left = (JDIMENSION)crop_left;
  JDIMENSION columns = (JDIMENSION)crop_width;
  if (columns < (JDIMENSION)width) jpeg_crop_scanline(&info, &left, &columns);
  size_t skip = (size_t)(crop_left - (int)left) * 3;
  row = (uint8_t *)malloc((size_t)columns * 3);
  if (row == NULL) {
    jpeg_destroy_decompress(&info);
    return ARTWORK_JPEG_NO_MEMORY;
  }
  if (crop_top > 0) jpeg_skip_scanlines(&info, (JDIMENSION)crop_top);
  for (int y = 0; y < crop_height; y++) {
    JSAMPROW rows[1] = {row};
    if (jpeg_read_scanlines(&info, rows, 1) != 1) {
      snprintf(error.message, JMSG_LENGTH_MAX, "no row %d of %d", crop_top + y, height);
      longjmp(error.jump, 1);
    }
    memcpy(out + (size_t)y * (size_t)crop_width * 3, row + skip, (size_t)crop_width * 3);
  }
  free(row);
  row = NULL;
  jpeg_destroy_decompress(&info);
  return ARTWORK_JPEG_OK;
}
#endif
