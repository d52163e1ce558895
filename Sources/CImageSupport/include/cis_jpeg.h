#ifndef CIS_JPEG_H
#define CIS_JPEG_H
/*
 * Per-thread TurboJPEG handles. A tjhandle is not thread-safe but is cheap to reuse, and
 * creating one per decode costs more than small decodes do. Each thread lazily gets its own
 * decompressor and compressor, destroyed when the thread exits. NULL when out of memory.
 */
#include <turbojpeg.h>

tjhandle cis_jpeg_thread_decompressor(void);
tjhandle cis_jpeg_thread_compressor(void);

#endif
