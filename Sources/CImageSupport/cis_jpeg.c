/* Per-thread TurboJPEG handles: see include/cis_jpeg.h. TurboJPEG keeps its own setjmp
   inside each call, so no longjmp reaches the caller. */
#include "cis_jpeg.h"

#include <pthread.h>

static pthread_key_t decompressor_key;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void destroy_handle(void *handle) { if (handle != NULL) tjDestroy((tjhandle)handle); }

static void make_keys(void) {
    pthread_key_create(&decompressor_key, destroy_handle);
}

static tjhandle thread_handle(pthread_key_t *key, tjhandle (*create)(void)) {
    pthread_once(&keys_once, make_keys);
    tjhandle handle = (tjhandle)pthread_getspecific(*key);
    if (handle == NULL) {
        handle = create();
        if (handle != NULL && pthread_setspecific(*key, handle) != 0) {
            tjDestroy(handle);
            handle = NULL;
        }
    }
    return handle;
}

tjhandle cis_jpeg_thread_decompressor(void) { return thread_handle(&decompressor_key, tjInitDecompress); }

static void discard(pthread_key_t *key) {
    pthread_once(&keys_once, make_keys);
    tjhandle handle = (tjhandle)pthread_getspecific(*key);
    if (handle != NULL) {
        pthread_setspecific(*key, NULL);
        tjDestroy(handle);
    }
}

void cis_jpeg_thread_discard_decompressor(void) { discard(&decompressor_key); }
