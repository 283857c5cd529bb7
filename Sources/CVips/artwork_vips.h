// The one C door to libvips. Variadic libvips calls get fixed-arity `artwork_vips_*` wrappers here,
// so that Swift never calls a C variadic function. Every wrapper returns libvips' own status
// (0 success, -1 failure with the message in the calling thread's vips error buffer).
#ifndef ARTWORK_VIPS_H
#define ARTWORK_VIPS_H
#include <vips/vips.h>

/// VIPS_INIT is a macro (it also checks the ABI); call once, before any other thread exists.
static inline int artwork_vips_init(const char *argv0) { return VIPS_INIT(argv0); }

/// A source over `length` bytes at `data`, not copied: the caller keeps them valid and unchanged
/// for as long as the source or any image read from it lives.
static inline VipsSource *artwork_vips_source_wrap(const void *data, size_t length) {
  return vips_source_new_from_memory(data, length);
}

/// Opens an image: only the header is parsed; pixels decode later, on demand, in order.
/// First page only (the loaders' default), and any decode error fails rather than warns.
static inline VipsImage *artwork_vips_open(VipsSource *source) {
  return vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                    VIPS_FAIL_ON_ERROR, NULL);
}

/// Opens a HEIF's embedded thumbnail of its primary image, in order; libvips answers the primary
/// image itself when there is none.
static inline VipsImage *artwork_vips_open_heif_thumbnail(VipsSource *source) {
  return vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                    VIPS_FAIL_ON_ERROR, "thumbnail", TRUE, NULL);
}

/// Opens a WebP decoding at `scale` (libwebp's scaled decoding), in order.
static inline VipsImage *artwork_vips_open_webp_scaled(VipsSource *source, double scale) {
  return vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                    VIPS_FAIL_ON_ERROR, "scale", scale, NULL);
}

/// The `width` x `height` area at (`left`, `top`).
static inline int artwork_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top,
                                            int width, int height) {
  return vips_extract_area(in, out, left, top, width, height, NULL);
}

/// A region of `image`, through which its pixels are read a rectangle at a time.
static inline VipsRegion *artwork_vips_region_new(VipsImage *image) {
  return vips_region_new(image);
}

/// Computes the `width` x `height` rectangle at (`left`, `top`) of the region's image and
/// answers its first pixel, and the bytes from one row to the next in `row_bytes`; NULL when
/// the pixels could not be computed. Valid until the region is asked for another rectangle.
static inline const unsigned char *artwork_vips_region_fetch(VipsRegion *region, int left,
                                                             int top, int width, int height,
                                                             size_t *row_bytes) {
  VipsRect rect = {left, top, width, height};
  if (vips_region_prepare(region, &rect)) return NULL;
  *row_bytes = VIPS_REGION_LSKIP(region);
  return (const unsigned char *)VIPS_REGION_ADDR(region, left, top);
}

/// An 8-bit sRGB image of `bands` bands over a copy of `bytes` (row-major, packed).
static inline VipsImage *artwork_vips_image_from_srgb(const void *bytes, size_t length, int width,
                                                     int height, int bands) {
  VipsImage *image = vips_image_new_from_memory_copy(bytes, length, width, height, bands,
                                                     VIPS_FORMAT_UCHAR);
  if (image) image->Type = VIPS_INTERPRETATION_sRGB;
  return image;
}

/// An 8-bit image of `bands` bands over a copy of `bytes` (row-major, packed), of
/// `interpretation` (VipsInterpretation).
static inline VipsImage *artwork_vips_image_from_bytes(const void *bytes, size_t length, int width,
                                                      int height, int bands,
                                                      int interpretation) {
  VipsImage *image = vips_image_new_from_memory_copy(bytes, length, width, height, bands,
                                                     VIPS_FORMAT_UCHAR);
  if (image) image->Type = (VipsInterpretation)interpretation;
  return image;
}

/// Gives `to` the ICC profile `from` carries (if any) and `from`'s EXIF orientation.
static inline void artwork_vips_copy_profile_and_orientation(VipsImage *from, VipsImage *to) {
  const void *data = NULL;
  size_t length = 0;
  if (vips_image_get_typeof(from, VIPS_META_ICC_NAME) != 0 &&
      vips_image_get_blob(from, VIPS_META_ICC_NAME, &data, &length) == 0 && data != NULL)
    vips_image_set_blob_copy(to, VIPS_META_ICC_NAME, data, length);
  vips_image_set_int(to, VIPS_META_ORIENTATION, vips_image_get_orientation(from));
}

/// Shrink-on-load thumbnail of the first page, autorotated, imported to sRGB. `crop` is a
/// VipsInteresting (NONE fits inside the box), `size` a VipsSize.
static inline int artwork_vips_thumbnail(VipsSource *source, VipsImage **out, int width,
                                         int height, int crop, int size) {
  return vips_thumbnail_source(source, out, width, "height", height, "crop", (VipsInteresting)crop,
                               "size", (VipsSize)size, "option_string", "fail_on=error", NULL);
}

/// `artwork_vips_thumbnail` of an image already opened (no shrink-on-load): what frames a crop
/// cut from the picture first.
static inline int artwork_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width,
                                               int height, int crop, int size) {
  return vips_thumbnail_image(in, out, width, "height", height, "crop", (VipsInteresting)crop,
                              "size", (VipsSize)size, NULL);
}

/// The centre of attention of `in` (libvips' smartcrop "attention" for a `width` x `height`
/// crop), in its pixels; reads the image once, and cuts nothing from it.
static inline int artwork_vips_attention_centre(VipsImage *in, int width, int height, int *x,
                                                int *y) {
  VipsImage *out = NULL;
  int status = vips_smartcrop(in, &out, width, height, "interesting", VIPS_INTERESTING_ATTENTION,
                              "attention_x", x, "attention_y", y, NULL);
  if (out) g_object_unref(out);
  return status;
}

/// The name of the loader libvips chose ("jpegload_source", ...), or NULL.
static inline const char *artwork_vips_loader(VipsImage *image) {
  const char *name = NULL;
  if (vips_image_get_typeof(image, "vips-loader") == 0) return NULL;
  if (vips_image_get_string(image, "vips-loader", &name)) return NULL;
  return name;
}

static inline int artwork_vips_has_icc(VipsImage *image) {
  return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

static inline int artwork_vips_autorot(VipsImage *in, VipsImage **out) {
  return vips_autorot(in, out, NULL);
}

/// Imports through the embedded ICC profile and exports to sRGB, 8 bits per sample.
static inline int artwork_vips_icc_to_srgb(VipsImage *in, VipsImage **out) {
  return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_PERCEPTUAL,
                            "depth", 8, NULL);
}

static inline int artwork_vips_colourspace_srgb(VipsImage *in, VipsImage **out) {
  return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int artwork_vips_cast_uchar(VipsImage *in, VipsImage **out) {
  return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

static inline int artwork_vips_is_uchar(VipsImage *image) {
  return vips_image_get_format(image) == VIPS_FORMAT_UCHAR;
}

static inline int artwork_vips_is_srgb(VipsImage *image) {
  return vips_image_get_interpretation(image) == VIPS_INTERPRETATION_sRGB;
}

static inline int artwork_vips_extract_band(VipsImage *in, VipsImage **out, int band, int n) {
  return vips_extract_band(in, out, band, "n", n, NULL);
}

static inline int artwork_vips_bandjoin_const1(VipsImage *in, VipsImage **out, double c) {
  return vips_bandjoin_const1(in, out, c, NULL);
}

/// The bands of `first` followed by those of `second`.
static inline int artwork_vips_bandjoin2(VipsImage *first, VipsImage *second, VipsImage **out) {
  return vips_bandjoin2(first, second, out, NULL);
}

/// One band repeated three times (grey as RGB).
static inline int artwork_vips_replicate3(VipsImage *in, VipsImage **out) {
  VipsImage *bands[3] = {in, in, in};
  return vips_bandjoin(bands, out, 3, NULL);
}

/// The same pixels, tagged as sRGB.
static inline int artwork_vips_tag_srgb(VipsImage *in, VipsImage **out) {
  return vips_copy(in, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
}

/// Samples shifted right by `bits` (16-bit samples to their top 8 bits before a cast).
static inline int artwork_vips_rshift(VipsImage *in, VipsImage **out, int bits) {
  return vips_rshift_const1(in, out, bits, NULL);
}

static inline int artwork_vips_is_ushort(VipsImage *image) {
  return vips_image_get_format(image) == VIPS_FORMAT_USHORT;
}

static inline int artwork_vips_min(VipsImage *in, double *out) { return vips_min(in, out, NULL); }

/// Scales by exact factors (used only to correct a rounding slip of the framing step).
static inline int artwork_vips_resize(VipsImage *in, VipsImage **out, double hscale,
                                      double vscale) {
  return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

/// Baseline JPEG with optimised Huffman tables and no metadata. Progressive would save 2-5% of
/// the bytes for twice the encoding time and 1.5-2x the decoding time (bench/encode).
static inline int artwork_vips_jpegsave(VipsImage *in, void **buf, size_t *len, int quality) {
  return vips_jpegsave_buffer(in, buf, len, "Q", quality, "interlace", FALSE, "optimize_coding",
                              TRUE, "strip", TRUE, NULL);
}

/// PNG with no metadata; `palette` quantises to at most 2^bitdepth colours (libimagequant).
static inline int artwork_vips_pngsave(VipsImage *in, void **buf, size_t *len, int palette,
                                       int quality, int bitdepth, double dither, int effort) {
  if (!palette) return vips_pngsave_buffer(in, buf, len, "strip", TRUE, NULL);
  return vips_pngsave_buffer(in, buf, len, "strip", TRUE, "palette", TRUE, "Q", quality,
                             "bitdepth", bitdepth, "dither", dither, "effort", effort, NULL);
}

/// The "eval" handler behind `artwork_vips_set_deadline`: libvips emits it as pixels are
/// computed; past the deadline it kills the image, and the running computation fails.
static inline void artwork_vips_check_deadline(VipsImage *image, VipsProgress *progress,
                                               gpointer deadline) {
  (void)progress;
  if (g_get_monotonic_time() > *(const gint64 *)deadline) vips_image_set_kill(image, TRUE);
}

/// Makes any computation of `image` (or of images made from it) fail once the monotonic clock
/// passes `deadline_us` (microseconds, g_get_monotonic_time's clock). The handler and its data
/// live as long as the image.
static inline void artwork_vips_set_deadline(VipsImage *image, gint64 deadline_us) {
  gint64 *deadline = g_new(gint64, 1);
  *deadline = deadline_us;
  vips_image_set_progress(image, TRUE);
  g_signal_connect_data(image, "eval", G_CALLBACK(artwork_vips_check_deadline), deadline,
                        (GClosureNotify)g_free, (GConnectFlags)0);
}

/// Microseconds on the monotonic clock the deadlines use.
static inline gint64 artwork_vips_now_us(void) { return g_get_monotonic_time(); }

static inline void artwork_vips_drop_log(const gchar *domain, GLogLevelFlags level,
                                         const gchar *message, gpointer data) {
  (void)domain, (void)level, (void)message, (void)data;
}

/// Drops libvips' warnings (domain "VIPS"): a hostile file can make a loader warn once per row,
/// and every failure that matters reaches the error buffer anyway.
static inline void artwork_vips_silence_warnings(void) {
  g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE),
                    artwork_vips_drop_log, NULL);
}

static inline void artwork_vips_unref(void *object) { g_object_unref(object); }
static inline void artwork_vips_free(void *memory) { g_free(memory); }

#endif
