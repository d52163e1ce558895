#ifndef CIS_COMMON_H
#define CIS_COMMON_H
/*
 * CImageSupport: small C shims for calls Swift must not make directly.
 * - libpng (and libjpeg's classic API) report errors with longjmp; a longjmp must never
 *   cross a Swift frame, so every such call is wrapped here and returns an error code.
 * - curl_easy_setopt / curl_multi_setopt are variadic; Swift gets typed wrappers.
 * Each concern has its own header in this folder (the module is an umbrella directory).
 */
#include <stddef.h>
#include <stdint.h>

/* Size of the buffer every shim uses for a library's error message. */
#define CIS_ERROR_MESSAGE_CAPACITY 256

#endif
