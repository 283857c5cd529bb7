// Baseline against progressive JPEG (issue 11): for each input, framed as a poster of each size
// with libvips' thumbnail, the bytes and the CPU time of encoding both ways (quality 80,
// optimised Huffman tables, no metadata: the service's settings), and of decoding each result
// in full (what the phone does) and at 1/4 (the service's ThumbHash input).
// Usage: jpeg_modes REPEATS SIZE FILE...   (prints one line per input, tab-separated)
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vips/vips.h>

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double decode_ms(const void *bytes, size_t length, int shrink, int repeats) {
  double start = cpu_ms();
  for (int i = 0; i < repeats; i++) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", "access",
                                                  VIPS_ACCESS_SEQUENTIAL, "shrink", shrink, NULL);
    VipsImage *memory = image ? vips_image_copy_memory(image) : NULL;
    if (!memory) vips_error_exit("decode");
    g_object_unref(memory);
    g_object_unref(image);
  }
  return (cpu_ms() - start) / repeats;
}

int main(int argc, char **argv) {
  if (VIPS_INIT(argv[0]) || argc < 4) return 2;
  vips_concurrency_set(1);
  vips_cache_set_max(0);
  int repeats = atoi(argv[1]), width = atoi(argv[2]);
  printf("input\tbaseline_bytes\tprogressive_bytes\tbaseline_encode_ms\tprogressive_encode_ms"
         "\tbaseline_decode_ms\tprogressive_decode_ms\tbaseline_quarter_ms\tprogressive_quarter_ms\n");
  for (int f = 3; f < argc; f++) {
    VipsImage *thumb, *frame;
    if (vips_thumbnail(argv[f], &thumb, width, "height", width * 3 / 2, "crop",
                       VIPS_INTERESTING_CENTRE, NULL))
      vips_error_exit("thumbnail");
    frame = vips_image_copy_memory(thumb);
    void *out[2];
    size_t length[2];
    double encode[2];
    for (int mode = 0; mode < 2; mode++) {
      double start = cpu_ms();
      for (int i = 0; i < repeats; i++) {
        if (vips_jpegsave_buffer(frame, &out[mode], &length[mode], "Q", 80, "interlace", mode,
                                 "optimize_coding", TRUE, "strip", TRUE, NULL))
          vips_error_exit("jpegsave");
        if (i < repeats - 1) g_free(out[mode]);
      }
      encode[mode] = (cpu_ms() - start) / repeats;
    }
    printf("%s\t%zu\t%zu\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", argv[f], length[0], length[1],
           encode[0], encode[1], decode_ms(out[0], length[0], 1, repeats),
           decode_ms(out[1], length[1], 1, repeats), decode_ms(out[0], length[0], 4, repeats),
           decode_ms(out[1], length[1], 4, repeats));
    g_free(out[0]);
    g_free(out[1]);
    g_object_unref(frame);
    g_object_unref(thumb);
  }
  return 0;
}
