/* libpng wrappers: see include/cis_png.h. Every setjmp lives in this file. */
#include "cis_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared error plumbing ---------------------------------------------------------- */

typedef struct error_sink {
    char *message;       /* CIS_ERROR_MESSAGE_CAPACITY bytes, owned by the caller */
    int code;            /* set by our own png_error callers before jumping */
} error_sink;

static void copy_message(char *destination, const char *text) {
    if (destination == NULL) return;
    strncpy(destination, text ? text : "unknown libpng error", CIS_ERROR_MESSAGE_CAPACITY - 1);
    destination[CIS_ERROR_MESSAGE_CAPACITY - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    error_sink *sink = (error_sink *)png_get_error_ptr(png);
    if (sink != NULL && sink->message != NULL && sink->message[0] == '\0') copy_message(sink->message, text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png; (void)text;   /* warnings (benign chunk problems) are not reported */
}

/* The IHDR sits at a fixed offset. Checking it before libpng sees the data lets a hostile
   size be reported as "too large" rather than as libpng's generic "Invalid IHDR data". */
static int precheck_ihdr(const uint8_t *data, size_t size, uint64_t max_pixels, char *message) {
    if (size < 24 || memcmp(data + 12, "IHDR", 4) != 0) return CIS_PNG_OK;
    uint64_t width = ((uint64_t)data[16] << 24) | ((uint64_t)data[17] << 16) | ((uint64_t)data[18] << 8) | data[19];
    uint64_t height = ((uint64_t)data[20] << 24) | ((uint64_t)data[21] << 16) | ((uint64_t)data[22] << 8) | data[23];
    if (width > 0 && height > 0 && width * height > max_pixels) {
        copy_message(message, "image dimensions over the pixel limit");
        return CIS_PNG_ERROR_TOO_LARGE;
    }
    return CIS_PNG_OK;
}

static void apply_limits(png_structp png, uint64_t max_pixels) {
    png_uint_32 limit = max_pixels > 0x7fffffffu ? 0x7fffffffu : (png_uint_32)max_pixels;
    png_set_user_limits(png, limit, limit);
    /* Corrupt data must fail, also in ancillary chunks. */
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
}

/* Chooses the output layout and installs the transforms; call after the header was read. */
static void configure_transforms(png_structp png, png_infop info, cis_png_info *out) {
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    out->width = png_get_image_width(png, info);
    out->height = png_get_image_height(png, info);
    out->bit_depth = bit_depth;
    out->color_type = color_type;
    out->interlaced = png_get_interlace_type(png, info) == PNG_INTERLACE_ADAM7;
    out->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    int gray = color_type == PNG_COLOR_TYPE_GRAY && !has_trns;
    out->output_channels = gray ? CIS_PNG_OUTPUT_GRAY : CIS_PNG_OUTPUT_RGBA;

    png_set_expand(png);                  /* palette -> RGB, gray < 8 bits -> 8, tRNS -> alpha */
    if (bit_depth == 16) png_set_scale_16(png);   /* round(v * 255 / 65535) */
    if (!gray) {
        if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
        if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    if (out->interlaced) png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)out->width * (size_t)out->output_channels)
        png_error(png, "unexpected row layout after transforms");
}

/* ---- whole-image decoding from memory ------------------------------------------------- */

typedef struct memory_reader {
    const uint8_t *data;
    size_t size;
    size_t offset;
} memory_reader;

static void read_from_memory(png_structp png, png_bytep destination, size_t length) {
    memory_reader *reader = (memory_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) png_error(png, "unexpected end of data (truncated file)");
    memcpy(destination, reader->data + reader->offset, length);
    reader->offset += length;
}

typedef struct read_session {
    png_structp png;
    png_infop info;
    png_bytep *rows;
    error_sink sink;
    memory_reader reader;
} read_session;

static int open_session(read_session *session, const uint8_t *data, size_t size, char *message) {
    memset(session, 0, sizeof *session);
    session->sink.message = message;
    session->reader.data = data;
    session->reader.size = size;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        copy_message(message, "not a PNG signature");
        return CIS_PNG_ERROR_CORRUPT;
    }
    session->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &session->sink, on_error, on_warning);
    if (session->png == NULL) { copy_message(message, "out of memory"); return CIS_PNG_ERROR_NO_MEMORY; }
    session->info = png_create_info_struct(session->png);
    if (session->info == NULL) { copy_message(message, "out of memory"); return CIS_PNG_ERROR_NO_MEMORY; }
    png_set_read_fn(session->png, &session->reader, read_from_memory);
    return CIS_PNG_OK;
}

static void close_session(read_session *session) {
    free(session->rows);
    if (session->png != NULL) png_destroy_read_struct(&session->png, session->info ? &session->info : NULL, NULL);
}

int cis_png_read_info(const uint8_t *data, size_t size, uint64_t max_pixels, cis_png_info *info, char *message) {
    if (message) message[0] = '\0';
    int status = precheck_ihdr(data, size, max_pixels, message);
    if (status != CIS_PNG_OK) return status;
    read_session session;
    status = open_session(&session, data, size, message);
    if (status == CIS_PNG_OK) {
        if (setjmp(png_jmpbuf(session.png))) {
            status = CIS_PNG_ERROR_CORRUPT;
        } else {
            apply_limits(session.png, max_pixels);
            png_read_info(session.png, session.info);
            configure_transforms(session.png, session.info, info);
        }
    }
    close_session(&session);
    return status;
}

int cis_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels, const cis_png_info *expected,
                   uint8_t *destination, size_t stride, char *message) {
    if (message) message[0] = '\0';
    read_session session;
    int status = open_session(&session, data, size, message);
    if (status == CIS_PNG_OK) {
        /* Allocated before setjmp: nothing this function owns changes between setjmp and longjmp. */
        session.rows = (png_bytep *)malloc(sizeof(png_bytep) * (expected->height ? expected->height : 1));
        if (session.rows == NULL) {
            copy_message(message, "out of memory");
            status = CIS_PNG_ERROR_NO_MEMORY;
        } else if (setjmp(png_jmpbuf(session.png))) {
            status = CIS_PNG_ERROR_CORRUPT;
        } else {
            apply_limits(session.png, max_pixels);
            png_read_info(session.png, session.info);
            cis_png_info actual;
            configure_transforms(session.png, session.info, &actual);
            if (actual.width != expected->width || actual.height != expected->height
                || actual.output_channels != expected->output_channels)
                png_error(session.png, "header changed between reads");
            for (uint32_t row = 0; row < actual.height; row++) session.rows[row] = destination + (size_t)row * stride;
            png_read_image(session.png, session.rows);
            png_read_end(session.png, NULL);   /* checks the CRCs of the trailing chunks and IEND */
        }
    }
    close_session(&session);
    return status;
}

/* ---- progressive (push) decoding ------------------------------------------------------ */

struct cis_png_progressive {
    png_structp png;
    png_infop info;
    error_sink sink;
    char message[CIS_ERROR_MESSAGE_CAPACITY];
    uint64_t max_pixels;
    int status;              /* first error, sticky */
    int have_info;
    cis_png_info header;
    uint8_t *pixels;         /* header.height rows of width * channels bytes */
    size_t stride;
    int current_pass;
    int completed_passes;
    int finished;
};

static void progressive_info(png_structp png, png_infop info) {
    cis_png_progressive *reader = (cis_png_progressive *)png_get_progressive_ptr(png);
    uint64_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (width * height > reader->max_pixels) {
        reader->sink.code = CIS_PNG_ERROR_TOO_LARGE;
        png_error(png, "image dimensions over the pixel limit");
    }
    configure_transforms(png, info, &reader->header);
    reader->stride = (size_t)reader->header.width * (size_t)reader->header.output_channels;
    reader->pixels = (uint8_t *)calloc(reader->header.height, reader->stride);
    if (reader->pixels == NULL) {
        reader->sink.code = CIS_PNG_ERROR_NO_MEMORY;
        png_error(png, "out of memory");
    }
    reader->have_info = 1;
}

static void progressive_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    cis_png_progressive *reader = (cis_png_progressive *)png_get_progressive_ptr(png);
    if (reader->header.interlaced && pass > reader->current_pass) {
        reader->completed_passes = pass;   /* rows of pass N arrive only after passes 0..N-1 */
        reader->current_pass = pass;
    }
    if (new_row == NULL || row >= reader->header.height) return;
    png_progressive_combine_row(png, reader->pixels + (size_t)row * reader->stride, new_row);
}

static void progressive_end(png_structp png, png_infop info) {
    (void)info;
    cis_png_progressive *reader = (cis_png_progressive *)png_get_progressive_ptr(png);
    reader->completed_passes = 7;
    reader->finished = 1;
}

cis_png_progressive *cis_png_progressive_create(uint64_t max_pixels) {
    cis_png_progressive *reader = (cis_png_progressive *)calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->max_pixels = max_pixels;
    reader->sink.message = reader->message;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->sink, on_error, on_warning);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        cis_png_progressive_destroy(reader);
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {   /* png_set_user_limits cannot fail; guard anyway */
        cis_png_progressive_destroy(reader);
        return NULL;
    }
    apply_limits(reader->png, max_pixels);
    png_set_progressive_read_fn(reader->png, reader, progressive_info, progressive_row, progressive_end);
    return reader;
}

void cis_png_progressive_destroy(cis_png_progressive *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader->pixels);
    free(reader);
}

int cis_png_progressive_feed(cis_png_progressive *reader, const uint8_t *data, size_t size, char *message) {
    if (reader->status == CIS_PNG_OK && size > 0) {
        if (setjmp(png_jmpbuf(reader->png))) {
            reader->status = reader->sink.code != 0 ? reader->sink.code : CIS_PNG_ERROR_CORRUPT;
        } else {
            png_process_data(reader->png, reader->info, (png_bytep)data, size);
        }
    }
    if (reader->status != CIS_PNG_OK) copy_message(message, reader->message);
    return reader->status;
}

int cis_png_progressive_info(const cis_png_progressive *reader, cis_png_info *info) {
    if (!reader->have_info) return 0;
    *info = reader->header;
    return 1;
}

int cis_png_progressive_completed_passes(const cis_png_progressive *reader) { return reader->completed_passes; }

int cis_png_progressive_finished(const cis_png_progressive *reader) { return reader->finished; }

void cis_png_progressive_render(const cis_png_progressive *reader, int passes, uint8_t *destination, size_t stride) {
    /* Spacing of the pixels known after 1...7 passes (Adam7). */
    static const int block_width[8] = {8, 8, 4, 4, 2, 2, 1, 1};
    static const int block_height[8] = {8, 8, 8, 4, 4, 2, 2, 1};
    if (!reader->have_info || reader->pixels == NULL) return;
    if (passes < 0) passes = 0;
    if (passes > 7) passes = 7;
    const size_t channels = (size_t)reader->header.output_channels;
    const uint32_t width = reader->header.width, height = reader->header.height;
    const uint32_t x_mask = ~(uint32_t)(block_width[passes] - 1), y_mask = ~(uint32_t)(block_height[passes] - 1);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = reader->pixels + (size_t)(y & y_mask) * reader->stride;
        uint8_t *target = destination + (size_t)y * stride;
        if (x_mask == ~(uint32_t)0) {
            memcpy(target, source, reader->stride);
            continue;
        }
        for (uint32_t x = 0; x < width; x++)
            memcpy(target + x * channels, source + (size_t)(x & x_mask) * channels, channels);
    }
}

/* ---- encoding --------------------------------------------------------------------------- */

typedef struct memory_writer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} memory_writer;

static void write_to_memory(png_structp png, png_bytep bytes, size_t length) {
    memory_writer *writer = (memory_writer *)png_get_io_ptr(png);
    if (length > writer->capacity - writer->size) {
        size_t capacity = writer->capacity ? writer->capacity : 65536;
        while (length > capacity - writer->size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(writer->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, bytes, length);
    writer->size += length;
}

static void flush_memory(png_structp png) { (void)png; }

int cis_png_encode(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height, int channels,
                   int compression_level, uint8_t **output, size_t *output_size, char *message) {
    if (message) message[0] = '\0';
    *output = NULL;
    *output_size = 0;
    error_sink sink = {message, 0};
    memory_writer writer = {NULL, 0, 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        if (png != NULL) png_destroy_write_struct(&png, NULL);
        copy_message(message, "out of memory");
        return CIS_PNG_ERROR_NO_MEMORY;
    }
    int status = CIS_PNG_OK;
    if (setjmp(png_jmpbuf(png))) {
        status = CIS_PNG_ERROR_CORRUPT;
    } else {
        int color_type = channels == 1 ? PNG_COLOR_TYPE_GRAY
                       : channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
        png_set_write_fn(png, &writer, write_to_memory, flush_memory);
        png_set_compression_level(png, compression_level);
        png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        if (channels == 3) png_set_filler(png, 0, PNG_FILLER_AFTER);   /* rows hold RGBA: drop the A */
        for (uint32_t row = 0; row < height; row++) png_write_row(png, pixels + (size_t)row * stride);
        png_write_end(png, NULL);
    }
    png_destroy_write_struct(&png, &info);
    if (status == CIS_PNG_OK) {
        *output = writer.data;
        *output_size = writer.size;
    } else {
        free(writer.data);
    }
    return status;
}

void cis_png_free(void *pointer) { free(pointer); }
