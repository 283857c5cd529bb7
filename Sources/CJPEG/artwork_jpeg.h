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
#include <jerror.h>

/// Why a call failed: the stream is damaged (or libjpeg warned that it is), or its colour
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

/// Whether a warning leaves the picture whole: stray bytes between two segments of the header
/// (before a table, a frame or a scan marker: what some encoders and editors leave behind). Stray
/// bytes before a restart marker or the end of the image mean the entropy-coded data did not end
/// where the decoder expected: the rows decoded from it are wrong.
static inline int artwork_jpeg_warning_is_harmless(const struct jpeg_error_mgr *manager) {
  if (manager->msg_code != JWRN_EXTRANEOUS_DATA) return 0;
  int marker = manager->msg_parm.i[1];
  return !(marker == 0xD9 || (marker >= 0xD0 && marker <= 0xD7));
}

// Any other warning means corrupt data that libjpeg would paper over with grey (a scan cut
// short, a bad Huffman code, a missing restart marker, a premature end): an error, so no
// damaged picture is ever framed.
static void artwork_jpeg_emit_message(j_common_ptr info, int level) {
  if (level < 0 && !artwork_jpeg_warning_is_harmless(info->err)) artwork_jpeg_error_exit(info);
}

/// Routes `info`'s errors and warnings to `error` (whose `jump` the caller sets).
static inline void artwork_jpeg_catch(struct jpeg_decompress_struct *info,
                                      struct artwork_jpeg_error *error) {
  info->err = jpeg_std_error(&error->manager);
  error->manager.error_exit = artwork_jpeg_error_exit;
  error->manager.emit_message = artwork_jpeg_emit_message;
  error->message[0] = 0;
}

/// How a decode lays out its pixels.
enum {
  /// Packed RGB, whatever the source (greyscale, YCbCr or RGB only: `artwork_jpeg_decodable`).
  ARTWORK_JPEG_RGB = 0,
  /// The source's own channels: 1 grey, 3 RGB (from YCbCr or RGB), 4 CMYK (from CMYK or YCCK,
  /// Adobe's inverted CMYK turned back), or the raw components of a colour space libjpeg does
  /// not know.
  ARTWORK_JPEG_NATIVE = 1,
};

/// What `ARTWORK_JPEG_NATIVE` gives for a header, as a colour space: grey, RGB, CMYK or raw.
enum {
  ARTWORK_JPEG_SPACE_GREY = 1,
  ARTWORK_JPEG_SPACE_RGB = 3,
  ARTWORK_JPEG_SPACE_CMYK = 4,
  ARTWORK_JPEG_SPACE_RAW = 0,
};

/// Whether the header's colours are ones this door converts to RGB: greyscale, YCbCr or RGB
/// (not CMYK or YCCK).
static inline int artwork_jpeg_decodable(const struct jpeg_decompress_struct *info) {
  J_COLOR_SPACE space = info->jpeg_color_space;
  return (space == JCS_GRAYSCALE && info->num_components == 1) ||
         ((space == JCS_YCbCr || space == JCS_RGB) && info->num_components == 3);
}

/// The native layout of a header: its colour space (`ARTWORK_JPEG_SPACE_*`), and the output
/// colour space that gives it.
static inline int artwork_jpeg_native_space(const struct jpeg_decompress_struct *info,
                                            J_COLOR_SPACE *out) {
  J_COLOR_SPACE space = info->jpeg_color_space;
  if (space == JCS_GRAYSCALE && info->num_components == 1) {
    *out = JCS_GRAYSCALE;
    return ARTWORK_JPEG_SPACE_GREY;
  }
  if ((space == JCS_YCbCr || space == JCS_RGB) && info->num_components == 3) {
    *out = JCS_RGB;
    return ARTWORK_JPEG_SPACE_RGB;
  }
  if ((space == JCS_CMYK || space == JCS_YCCK) && info->num_components == 4) {
    *out = JCS_CMYK;
    return ARTWORK_JPEG_SPACE_CMYK;
  }
  *out = space;
  return ARTWORK_JPEG_SPACE_RAW;
}

/// The header's facts: the picture's size, whether its colours are ones this door decodes to
/// RGB, and its native colour space and channel count. 0 when the header could be read.
static inline int artwork_jpeg_header(const uint8_t *data, size_t length, int *width,
                                      int *height, int *supported, int *space, int *channels) {
  struct jpeg_decompress_struct info;
  struct artwork_jpeg_error error;
  artwork_jpeg_catch(&info, &error);
  if (setjmp(error.jump)) {
    jpeg_destroy_decompress(&info);
    return ARTWORK_JPEG_DAMAGED;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, (unsigned long)length);
  jpeg_read_header(&info, TRUE);
  *width = (int)info.image_width;
  *height = (int)info.image_height;
  *supported = artwork_jpeg_decodable(&info);
  J_COLOR_SPACE out;
  *space = artwork_jpeg_native_space(&info, &out);
  *channels = *space == ARTWORK_JPEG_SPACE_RAW ? info.num_components : *space;
  jpeg_destroy_decompress(&info);
  return ARTWORK_JPEG_OK;
}

/// A decode in progress: the rows of one rectangle of the picture scaled by eighths/8, read a
/// few at a time (`artwork_jpeg_rows_*`).
typedef struct {
  struct jpeg_decompress_struct info;
  struct artwork_jpeg_error error;
  uint8_t *row;     // one decoded row, widened by libjpeg to its iMCU grid
  size_t skip;      // bytes of `row` before the rectangle's first column
  size_t row_bytes; // the rectangle's row: width * channels
  int rows_left;
  int invert;       // Adobe's CMYK, stored inverted: turned back row by row
} artwork_jpeg_rows;

/// Starts decoding the `crop_width` x `crop_height` area at (`crop_left`, `crop_top`) of the
/// picture scaled by `eighths`/8 (libjpeg's DCT scaling, 1-8), laid out as `layout`
/// (`ARTWORK_JPEG_RGB` or `ARTWORK_JPEG_NATIVE`; `*channels` says how many per pixel). Rows
/// above the area are skipped; columns outside it skip the inverse DCT where the iMCU grid
/// allows. NULL on failure, with `*status` and `message` (JMSG_LENGTH_MAX bytes) saying why.
static inline artwork_jpeg_rows *artwork_jpeg_rows_open(const uint8_t *data, size_t length,
                                                        int eighths, int layout, int crop_left,
                                                        int crop_top, int crop_width,
                                                        int crop_height, int *channels,
                                                        int *status, char *message) {
  artwork_jpeg_rows *rows = (artwork_jpeg_rows *)calloc(1, sizeof(artwork_jpeg_rows));
  if (rows == NULL) {
    *status = ARTWORK_JPEG_NO_MEMORY;
    return NULL;
  }
  artwork_jpeg_catch(&rows->info, &rows->error);
  if (setjmp(rows->error.jump)) {
    memcpy(message, rows->error.message, JMSG_LENGTH_MAX);
    jpeg_destroy_decompress(&rows->info);
    free(rows->row);
    free(rows);
    *status = ARTWORK_JPEG_DAMAGED;
    return NULL;
  }
  jpeg_create_decompress(&rows->info);
  jpeg_mem_src(&rows->info, data, (unsigned long)length);
  jpeg_read_header(&rows->info, TRUE);
  int width = 0, height = 0;
  J_COLOR_SPACE out = JCS_RGB;
  int space = artwork_jpeg_native_space(&rows->info, &out);
  int usable = layout == ARTWORK_JPEG_NATIVE || artwork_jpeg_decodable(&rows->info);
  if (layout == ARTWORK_JPEG_RGB) out = JCS_RGB;
  if (usable) {
    rows->info.scale_num = (unsigned int)eighths;
    rows->info.scale_denom = 8;
    rows->info.out_color_space = out;
    rows->invert = space == ARTWORK_JPEG_SPACE_CMYK && rows->info.saw_Adobe_marker;
    jpeg_start_decompress(&rows->info);
    width = (int)rows->info.output_width;
    height = (int)rows->info.output_height;
  }
  int components = usable ? rows->info.output_components : 0;
  if (components <= 0 || crop_left < 0 || crop_top < 0 || crop_width <= 0 || crop_height <= 0 ||
      crop_left + crop_width > width || crop_top + crop_height > height) {
    snprintf(message, JMSG_LENGTH_MAX, "crop %dx%d at (%d, %d) of a %dx%d picture", crop_width,
             crop_height, crop_left, crop_top, width, height);
    jpeg_destroy_decompress(&rows->info);
    free(rows);
    *status = ARTWORK_JPEG_UNSUPPORTED;
    return NULL;
  }
  JDIMENSION left = (JDIMENSION)crop_left;
  JDIMENSION columns = (JDIMENSION)crop_width;
  if (columns < (JDIMENSION)width) jpeg_crop_scanline(&rows->info, &left, &columns);
  rows->skip = (size_t)(crop_left - (int)left) * (size_t)components;
  rows->row_bytes = (size_t)crop_width * (size_t)components;
  rows->rows_left = crop_height;
  rows->row = (uint8_t *)malloc((size_t)columns * (size_t)components);
  if (rows->row == NULL) {
    jpeg_destroy_decompress(&rows->info);
    free(rows);
    *status = ARTWORK_JPEG_NO_MEMORY;
    return NULL;
  }
  if (crop_top > 0) jpeg_skip_scanlines(&rows->info, (JDIMENSION)crop_top);
  *channels = components;
  *status = ARTWORK_JPEG_OK;
  return rows;
}

/// The next `count` rows of the rectangle into `out` (`count` rows of width * channels bytes).
/// After a failure (status and `message` as for opening) the decode is over: only closing is
/// left.
static inline int artwork_jpeg_rows_read(artwork_jpeg_rows *rows, uint8_t *out, int count,
                                         char *message) {
  if (count > rows->rows_left || rows->row == NULL) {
    snprintf(message, JMSG_LENGTH_MAX, "%d rows asked for, %d left", count, rows->rows_left);
    return ARTWORK_JPEG_UNSUPPORTED;
  }
  if (setjmp(rows->error.jump)) {
    memcpy(message, rows->error.message, JMSG_LENGTH_MAX);
    free(rows->row);
    rows->row = NULL;
    return ARTWORK_JPEG_DAMAGED;
  }
  for (int y = 0; y < count; y++) {
    JSAMPROW line[1] = {rows->row};
    if (jpeg_read_scanlines(&rows->info, line, 1) != 1) {
      snprintf(rows->error.message, JMSG_LENGTH_MAX, "the data ended before the crop's end");
      longjmp(rows->error.jump, 1);
    }
    uint8_t *target = out + (size_t)y * rows->row_bytes;
    memcpy(target, rows->row + rows->skip, rows->row_bytes);
    if (rows->invert) {
      for (size_t i = 0; i < rows->row_bytes; i++) target[i] = (uint8_t)(255 - target[i]);
    }
  }
  rows->rows_left -= count;
  if (rows->rows_left == 0) {
    // The rectangle is read: the rest of the scan is decoded without its pixels (entropy
    // decoding only), and the decode finished, which reads up to the end marker. Data that
    // went out of step somewhere (bits changed in transit) shows here as bytes left over
    // before the end marker, a warning, so a damaged file is refused even when no row of the
    // rectangle tripped a warning on its own.
    // libjpeg-turbo's jpeg_skip_scanlines to the very end marks the input ended without
    // decoding it, so all but the last row are skipped and the last one is read.
    JDIMENSION left = rows->info.output_height - rows->info.output_scanline;
    if (left > 1) jpeg_skip_scanlines(&rows->info, left - 1);
    if (left > 0) {
      JSAMPROW line[1] = {rows->row};
      if (jpeg_read_scanlines(&rows->info, line, 1) != 1) {
        snprintf(rows->error.message, JMSG_LENGTH_MAX, "the data ended before the picture's end");
        longjmp(rows->error.jump, 1);
      }
    }
    jpeg_finish_decompress(&rows->info);
  }
  return ARTWORK_JPEG_OK;
}

/// Ends a decode, finished or not.
static inline void artwork_jpeg_rows_close(artwork_jpeg_rows *rows) {
  if (rows == NULL) return;
  jpeg_destroy_decompress(&rows->info);
  free(rows->row);
  free(rows);
}

/// Compresses `height` rows of packed 8-bit RGB (`width` * 3 bytes each) as a baseline JPEG at
/// `quality`: libjpeg's standard tables scaled to it, chroma halved both ways below quality 90
/// (whole from 90 on), Huffman tables optimised for the picture, and no marker but the tables,
/// the frame and the scan (not even JFIF's): what libvips' jpegsave writes with `strip`. On success `*out` holds
/// `*length` bytes that the caller frees (`free`); on failure `message` (JMSG_LENGTH_MAX bytes)
/// says why and nothing is left to free.
static inline int artwork_jpeg_compress_rgb(const uint8_t *pixels, int width, int height,
                                            int quality, uint8_t **out, size_t *length,
                                            char *message) {
  struct jpeg_compress_struct info;
  struct artwork_jpeg_error error;
  // volatile: read after a longjmp back into this frame.
  unsigned char *volatile buffer = NULL;
  unsigned long size = 0;
  *out = NULL;
  *length = 0;
  info.err = jpeg_std_error(&error.manager);
  error.manager.error_exit = artwork_jpeg_error_exit;
  error.message[0] = 0;
  if (setjmp(error.jump)) {
    memcpy(message, error.message, JMSG_LENGTH_MAX);
    jpeg_destroy_compress(&info);
    free(buffer);
    return ARTWORK_JPEG_DAMAGED;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, (unsigned char **)&buffer, &size);
  info.image_width = (JDIMENSION)width;
  info.image_height = (JDIMENSION)height;
  info.input_components = 3;
  info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  if (quality >= 90) {
    for (int i = 0; i < info.num_components; i++) {
      info.comp_info[i].h_samp_factor = 1;
      info.comp_info[i].v_samp_factor = 1;
    }
  }
  info.optimize_coding = TRUE;
  info.write_JFIF_header = FALSE;
  jpeg_start_compress(&info, TRUE);
  size_t row_bytes = (size_t)width * 3;
  while (info.next_scanline < info.image_height) {
    JSAMPROW line[1] = {(JSAMPROW)(pixels + (size_t)info.next_scanline * row_bytes)};
    jpeg_write_scanlines(&info, line, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  *out = buffer;
  *length = (size_t)size;
  return ARTWORK_JPEG_OK;
}
#endif
