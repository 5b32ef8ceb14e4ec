#ifndef TEAMSKETCH_CZLIB_SHIM_H
#define TEAMSKETCH_CZLIB_SHIM_H

#include <zlib.h>

// zlib's init functions are macros around the versioned *_ variants.
static inline int ts_deflate_init_gzip(z_stream *s, int level) {
    return deflateInit2(s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
static inline int ts_inflate_init_auto(z_stream *s) {
    return inflateInit2(s, 15 + 32);
}

#endif
