#ifndef CIS_PNG_H
#define CIS_PNG_H
/*
 * libpng behind setjmp: every libpng call that may png_error() runs inside a function
 * of cis_png.c that owns the setjmp, so the longjmp never crosses a Swift frame.
 * Functions return CIS_PNG_OK or an error code and fill `message` (CIS_ERROR_MESSAGE_CAPACITY bytes).
 *
 * Output convention (matches the expected PngSuite decodes): 8 bits per sample, palette
 * expanded, tRNS turned into alpha, 16-bit samples scaled with round(v * 255 / 65535),
 * gAMA / cHRM / sRGB / iCCP / sBIT ignored. Gray images without tRNS decode to one byte per
 * pixel (CIS_PNG_OUTPUT_GRAY); everything else to RGBA (CIS_PNG_OUTPUT_RGBA).
 */
#include <stddef.h>
#include <stdint.h>
#include "cis_common.h"

enum {
    CIS_PNG_OK = 0,
    CIS_PNG_ERROR_CORRUPT = 1,     /* libpng error, truncated data, CRC error, bad signature */
    CIS_PNG_ERROR_TOO_LARGE = 2,   /* width × height over the caller's pixel limit */
    CIS_PNG_ERROR_NO_MEMORY = 3
};

enum { CIS_PNG_OUTPUT_GRAY = 1, CIS_PNG_OUTPUT_RGBA = 4 };

typedef struct cis_png_info {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;      /* 1 for Adam7 */
    int has_alpha;       /* alpha channel or tRNS chunk */
    int output_channels; /* CIS_PNG_OUTPUT_GRAY or CIS_PNG_OUTPUT_RGBA */
} cis_png_info;

/* Reads the chunks up to the first IDAT and reports the header. */
int cis_png_read_info(const uint8_t *data, size_t size, uint64_t max_pixels,
                      cis_png_info *info, char *message);

/* Decodes the whole image into `destination` (rows `stride` bytes apart, `info.height` rows of
   `info.width * info.output_channels` bytes). `expected` is the info returned by cis_png_read_info
   for the same data; the decode fails when the data disagrees. */
int cis_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels, const cis_png_info *expected,
                   uint8_t *destination, size_t stride, char *message);

/* Progressive (push) reader for data arriving in chunks. */
typedef struct cis_png_progressive cis_png_progressive;

cis_png_progressive *cis_png_progressive_create(uint64_t max_pixels);
void cis_png_progressive_destroy(cis_png_progressive *reader);
/* Feeds bytes. After an error every later call returns the same error. */
int cis_png_progressive_feed(cis_png_progressive *reader, const uint8_t *data, size_t size, char *message);
/* 1 once the header was read (then `info` is filled). */
int cis_png_progressive_info(const cis_png_progressive *reader, cis_png_info *info);
/* Number of complete Adam7 passes (0...7); for a non-interlaced image 0 until the end, then 7. */
int cis_png_progressive_completed_passes(const cis_png_progressive *reader);
/* 1 once IEND was processed. */
int cis_png_progressive_finished(const cis_png_progressive *reader);
/* Writes the image as far as `passes` complete passes allow into `destination`: every pixel
   takes the value of the decoded pixel at the top-left corner of its Adam7 block, so the
   preview is a blocky but complete picture. passes = 7 copies the image as is. */
void cis_png_progressive_render(const cis_png_progressive *reader, int passes,
                                uint8_t *destination, size_t stride);

/* Encodes RGBA (channels 4), RGB taken from RGBA rows (channels 3: the 4th byte is skipped)
   or gray (channels 1) rows into a PNG held in memory. On success *output is malloc'd
   (free with cis_png_free) and *output_size is its length. */
int cis_png_encode(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height, int channels,
                   int compression_level, uint8_t **output, size_t *output_size, char *message);
void cis_png_free(void *pointer);

#endif
