// Writes a baseline JPEG of 1 to 4 components in no colour space (JCS_UNKNOWN), which libjpeg
// allows and no
// ordinary encoder makes: the "2-component JPEG" that killed the service, and its kin.
// Usage: components N WIDTH HEIGHT OUT.jpg   (build: cc components.c -ljpeg)
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
  if (argc != 5) return 2;
  int components = atoi(argv[1]), width = atoi(argv[2]), height = atoi(argv[3]);
  FILE *out = fopen(argv[4], "wb");
  if (!out) return 1;
  struct jpeg_compress_struct info;
  struct jpeg_error_mgr errors;
  info.err = jpeg_std_error(&errors);
  jpeg_create_compress(&info);
  jpeg_stdio_dest(&info, out);
  info.image_width = width;
  info.image_height = height;
  info.input_components = components;
  info.in_color_space = JCS_UNKNOWN;
  jpeg_set_defaults(&info);
  jpeg_set_colorspace(&info, JCS_UNKNOWN);
  jpeg_set_quality(&info, 85, TRUE);
  jpeg_start_compress(&info, TRUE);
  JSAMPLE *row = malloc((size_t)width * components);
  while (info.next_scanline < info.image_height) {
    int y = (int)info.next_scanline;
    for (int x = 0; x < width; x++)
      for (int c = 0; c < components; c++)
        row[x * components + c] = (JSAMPLE)((x * 255 / width + y * 3 + c * 60) & 0xFF);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  fclose(out);
  free(row);
  return 0;
}
