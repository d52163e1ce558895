#ifndef CIS_JPEG_H
#define CIS_JPEG_H
/*
 * Per-thread TurboJPEG decompressors. A tjhandle is not thread-safe but is cheap to reuse, and
 * creating one per decode costs more than small decodes do. Each thread lazily gets its own
 * decompressor, destroyed when the thread exits. NULL when out of memory.
 *
 * Compressors are deliberately not reused: in TurboJPEG 2.1.5 a handle that has written a
 * progressive JPEG writes corrupt JPEGs afterwards (measured), so the encoder makes a fresh one.
 */
#include <turbojpeg.h>

tjhandle cis_jpeg_thread_decompressor(void);

/* Destroys this thread's handle. Call after a failed TurboJPEG call: TurboJPEG 2.1 does not
   reset libjpeg's marker reader after an error, so the next call on the same handle would
   fail with the previous file's leftover state ("Unsupported marker type"). */
void cis_jpeg_thread_discard_decompressor(void);


#endif
