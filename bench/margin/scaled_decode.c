/* Decodes a JPEG with libjpeg-turbo's DCT scaling at M/8 (M = 1..8) and writes it as a binary
 * PPM: what the service's JPEGDecoding target decodes before resampling (bench/margin).
 *   scaled_decode IN.jpg M OUT.ppm */
#include <stdio.h>
#include <stdlib.h>
/* jpeglib.h needs size_t and FILE declared first. */
#include <jpeglib.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: scaled_decode IN.jpg EIGHTHS OUT.ppm\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (in == NULL) {
    perror(argv[1]);
    return 1;
  }
  struct jpeg_decompress_struct info;
  struct jpeg_error_mgr errors;
  info.err = jpeg_std_error(&errors);
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, in);
  jpeg_read_header(&info, TRUE);
  info.scale_num = (unsigned int)atoi(argv[2]);
  info.scale_denom = 8;
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  size_t row_bytes = (size_t)info.output_width * 3;
  unsigned char *row = malloc(row_bytes);
  FILE *out = fopen(argv[3], "wb");
  if (row == NULL || out == NULL) return 1;
  fprintf(out, "P6\n%u %u\n255\n", info.output_width, info.output_height);
  while (info.output_scanline < info.output_height) {
    jpeg_read_scanlines(&info, &row, 1);
    fwrite(row, 1, row_bytes, out);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  fclose(out);
  fclose(in);
  free(row);
  return 0;
}
