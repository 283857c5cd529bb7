// How fast can a baseline JPEG's entropy-coded data be decoded on this machine, by a decoder of
// the usual table-driven kind, against libjpeg-turbo's whole decode of the same picture?
// (issue 42: the uploads' libjpeg-turbo time is mostly its Huffman decoder; would one of our own
// be a lever?) A measuring probe for bench/upload/entropy.sh, not a decoder: it reads one
// trusted bench input (baseline, Huffman, 8-bit, no restart markers) and checks little.
//
//   entropy-probe FILE REPEATS probe   decodes every block's coefficients, no transform
//   entropy-probe FILE REPEATS scaled  libjpeg-turbo: the centre 500 columns at 3/8, to RGB
//   entropy-probe FILE REPEATS half    libjpeg-turbo: the whole picture at 4/8, to RGB
// Prints milliseconds per decode.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>

enum { LOOKAHEAD = 10 };

// One Huffman table: a lookahead table of (length << 8 | symbol) for codes of at most
// LOOKAHEAD bits, the canonical limits for longer ones, and for AC tables a second lookahead
// that decodes a short code and its value bits in one step (value << 8 | run << 4 | bits).
typedef struct {
  uint16_t fast[1 << LOOKAHEAD];
  int16_t fast_ac[1 << LOOKAHEAD];
  int max_code[18];
  int first_index[17];
  int first_code[17];
  uint8_t symbols[256];
} table;

static void build(table *t, const uint8_t *counts, const uint8_t *symbols, int ac) {
  memset(t, 0, sizeof *t);
  int code = 0, index = 0;
  for (int length = 1; length <= 16; length++) {
    t->first_index[length] = index;
    t->first_code[length] = code;
    for (int i = 0; i < counts[length - 1]; i++, index++, code++) {
      t->symbols[index] = symbols[index];
      if (length <= LOOKAHEAD) {
        int spare = LOOKAHEAD - length;
        for (int low = 0; low < (1 << spare); low++)
          t->fast[(code << spare) | low] = (uint16_t)(length << 8 | symbols[index]);
      }
    }
    t->max_code[length] = counts[length - 1] ? code - 1 : -1;
    code <<= 1;
  }
  t->max_code[17] = 0x7fffffff;
  if (!ac) return;
  for (int bits = 0; bits < (1 << LOOKAHEAD); bits++) {
    int entry = t->fast[bits];
    if (!entry) continue;
    int length = entry >> 8, run = (entry >> 4) & 15, size = entry & 15;
    if (!size || length + size > LOOKAHEAD) continue;
    int value = ((bits << length) & ((1 << LOOKAHEAD) - 1)) >> (LOOKAHEAD - size);
    if (value < (1 << (size - 1))) value -= (1 << size) - 1;
    if (value >= -128 && value <= 127) t->fast_ac[bits] = (int16_t)(value * 256 + run * 16 + length + size);
  }
}

// The bit reader: up to 64 bits, most significant first; 0xFF 0x00 is a 0xFF byte, and a
// marker ends the data (zeros after it).
typedef struct {
  const uint8_t *next, *end;
  uint64_t bits;
  int count, ended;
} reader;

static inline void fill(reader *r) {
  if (r->count > 48) return;
  if (r->end - r->next >= 8) {
    uint64_t word;
    memcpy(&word, r->next, 8);
    uint64_t inverted = ~word;  // a byte of 0xFF is a zero byte here
    uint64_t ff = (inverted - 0x0101010101010101ull) & ~inverted & 0x8080808080808080ull;
    if (!(ff & 0x0000FFFFFFFFFFFFull)) {  // no 0xFF in the six bytes that may be taken
      int take = (63 - r->count) >> 3;
      r->bits |= (__builtin_bswap64(word) >> r->count) & ~(~0ull >> (r->count + take * 8));
      r->count += take * 8;
      r->next += take;
      return;
    }
  }
  while (r->count <= 56) {
    int byte = 0;
    if (!r->ended && r->next < r->end) {
      byte = *r->next;
      if (byte != 0xFF) r->next++;
      else if (r->next + 1 < r->end && r->next[1] == 0) r->next += 2;
      else { r->ended = 1; byte = 0; }
    }
    r->bits |= (uint64_t)byte << (56 - r->count);
    r->count += 8;
  }
}

static inline void drop(reader *r, int n) { r->bits <<= n; r->count -= n; }

static inline int symbol(reader *r, const table *t) {
  fill(r);
  int entry = t->fast[r->bits >> (64 - LOOKAHEAD)];
  if (entry) { drop(r, entry >> 8); return entry & 255; }
  uint32_t top = (uint32_t)(r->bits >> 48);
  int length = LOOKAHEAD + 1;
  while (length <= 16 && (int)(top >> (16 - length)) > t->max_code[length]) length++;
  if (length > 16) return -1;
  int code = (int)(top >> (16 - length));
  drop(r, length);
  return t->symbols[t->first_index[length] + code - t->first_code[length]];
}

static inline int value(reader *r, int size) {
  uint32_t bits = (uint32_t)(r->bits >> (64 - size));
  drop(r, size);
  return bits < (1u << (size - 1)) ? (int)bits - (1 << size) + 1 : (int)bits;
}

static const uint8_t zigzag[80] = {
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
  13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
  52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
  63, 63, 63, 63, 63, 63};

// Decodes every block; answers a sum of low coefficients (so nothing is optimised away), or
// -1 when a code is not in its table.
static long probe(const uint8_t *data, size_t size) {
  static table dc[4], ac[4];
  int width = 0, height = 0, components = 0, h[4] = {0}, v[4] = {0}, dc_of[4] = {0}, ac_of[4] = {0};
  size_t at = 2, scan = 0;
  while (at + 4 <= size) {
    int marker = data[at + 1], length = data[at + 2] << 8 | data[at + 3];
    const uint8_t *segment = data + at + 4;
    if (marker == 0xC4) {
      for (const uint8_t *q = segment; q < data + at + 2 + length;) {
        int n = 0;
        for (int i = 0; i < 16; i++) n += q[1 + i];
        build((q[0] >> 4) ? &ac[q[0] & 3] : &dc[q[0] & 3], q + 1, q + 17, q[0] >> 4);
        q += 17 + n;
      }
    } else if (marker == 0xC0 || marker == 0xC1) {
      height = segment[1] << 8 | segment[2];
      width = segment[3] << 8 | segment[4];
      components = segment[5] > 4 ? 4 : segment[5];
      for (int i = 0; i < components; i++) { h[i] = segment[7 + 3 * i] >> 4; v[i] = segment[7 + 3 * i] & 15; }
    } else if (marker == 0xDA) {
      for (int i = 0; i < segment[0] && i < 4; i++) { dc_of[i] = segment[2 + 2 * i] >> 4 & 3; ac_of[i] = segment[2 + 2 * i] & 3; }
      scan = at + 2 + length;
      break;
    }
    at += 2 + length;
  }
  int hmax = 1, vmax = 1;
  for (int i = 0; i < components; i++) { if (h[i] > hmax) hmax = h[i]; if (v[i] > vmax) vmax = v[i]; }
  int across = (width + 8 * hmax - 1) / (8 * hmax), down = (height + 8 * vmax - 1) / (8 * vmax);
  reader r = {data + scan, data + size, 0, 0, 0};
  int predictor[4] = {0};
  int16_t block[64];
  long sum = 0;
  for (int row = 0; row < down; row++)
    for (int column = 0; column < across; column++)
      for (int c = 0; c < components; c++)
        for (int b = 0; b < h[c] * v[c]; b++) {
          memset(block, 0, sizeof block);
          int s = symbol(&r, &dc[dc_of[c]]);
          if (s < 0) return -1;
          if (s) { fill(&r); predictor[c] += value(&r, s); }
          block[0] = (int16_t)predictor[c];
          const table *t = &ac[ac_of[c]];
          for (int k = 1; k < 64;) {
            fill(&r);
            int entry = t->fast_ac[r.bits >> (64 - LOOKAHEAD)];
            if (entry) {
              k += (entry >> 4) & 15;
              drop(&r, entry & 15);
              block[zigzag[k++]] = (int16_t)(entry >> 8);
              continue;
            }
            int rs = symbol(&r, t);
            if (rs < 0) return -1;
            if (rs & 15) { k += rs >> 4; fill(&r); block[zigzag[k++ & 63]] = (int16_t)value(&r, rs & 15); }
            else if (rs >> 4 == 15) k += 16;
            else break;
          }
          sum += block[0] + block[1] + block[8];
        }
  return sum;
}

static long libjpeg(const uint8_t *data, size_t size, int eighths, int columns) {
  struct jpeg_decompress_struct info;
  struct jpeg_error_mgr errors;
  info.err = jpeg_std_error(&errors);
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, size);
  jpeg_read_header(&info, TRUE);
  info.scale_num = (unsigned)eighths;
  info.scale_denom = 8;
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  if (columns > 0 && (JDIMENSION)columns < info.output_width) {
    JDIMENSION left = (info.output_width - (JDIMENSION)columns) / 2, width = (JDIMENSION)columns;
    jpeg_crop_scanline(&info, &left, &width);
  }
  JSAMPROW row = malloc((size_t)info.output_width * 3 + 64);
  long sum = 0;
  while (info.output_scanline < info.output_height) {
    jpeg_read_scanlines(&info, &row, 1);
    sum += row[0];
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  free(row);
  return sum;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: entropy-probe FILE REPEATS probe|scaled|half\n"); return 2; }
  FILE *file = fopen(argv[1], "rb");
  if (!file) { perror(argv[1]); return 1; }
  fseek(file, 0, SEEK_END);
  size_t size = (size_t)ftell(file);
  rewind(file);
  uint8_t *data = malloc(size);
  if (fread(data, 1, size, file) != size) { perror(argv[1]); return 1; }
  int repeats = atoi(argv[2]);
  struct timespec start, end;
  long check = 0;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 0; i < repeats; i++) {
    if (!strcmp(argv[3], "probe")) check += probe(data, size);
    else if (!strcmp(argv[3], "scaled")) check += libjpeg(data, size, 3, 500);
    else check += libjpeg(data, size, 4, 0);
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ms = ((double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6) / repeats;
  printf("%s %.2f %ld\n", argv[3], ms, check);
  return 0;
}
