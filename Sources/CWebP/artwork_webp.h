// The WebPDecoding target's one C door: libwebp's advanced decoding API, whose config struct
// and version-checked init macro get fixed-arity `artwork_webp_*` wrappers here.
#ifndef ARTWORK_WEBP_H
#define ARTWORK_WEBP_H
#include <stdint.h>
#include <string.h>
#include <webp/decode.h>

/// The bitstream's features: 0 when they could be read.
static inline int artwork_webp_features(const uint8_t *data, size_t length, int *width,
                                        int *height, int *has_alpha, int *has_animation) {
  WebPBitstreamFeatures features;
  if (WebPGetFeatures(data, length, &features) != VP8_STATUS_OK) return -1;
  *width = features.width;
  *height = features.height;
  *has_alpha = features.has_alpha;
  *has_animation = features.has_animation;
  return 0;
}

/// Decodes the `crop_width` x `crop_height` area at (`crop_left`, `crop_top`) of the picture,
/// scaled by libwebp to `out_width` x `out_height`, as packed RGB into `out` (which holds
/// `out_width * out_height * 3` bytes). 0 on success, else libwebp's status.
static inline int artwork_webp_decode_rgb(const uint8_t *data, size_t length, int crop_left,
                                          int crop_top, int crop_width, int crop_height,
                                          int out_width, int out_height, uint8_t *out) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) return -1;
  config.options.use_cropping = 1;
  config.options.crop_left = crop_left;
  config.options.crop_top = crop_top;
  config.options.crop_width = crop_width;
  config.options.crop_height = crop_height;
  if (out_width != crop_width || out_height != crop_height) {
    config.options.use_scaling = 1;
    config.options.scaled_width = out_width;
    config.options.scaled_height = out_height;
  }
  config.output.colorspace = MODE_RGB;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = out;
  config.output.u.RGBA.stride = out_width * 3;
  config.output.u.RGBA.size = (size_t)out_width * (size_t)out_height * 3;
  VP8StatusCode status = WebPDecode(data, length, &config);
  WebPFreeDecBuffer(&config.output);
  return status == VP8_STATUS_OK ? 0 : (int)status;
}
#endif
