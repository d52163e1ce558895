#include "cis_common.h"
/* Shared definitions live in the header; this file keeps the target non-empty
   when a build includes only some of the shims. */
