#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro Swift cannot call; windowBits 15 + 16 reads gzip framing only.
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif
