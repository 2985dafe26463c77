// libstdc++'s std::from_chars for double (the fast_float algorithm, GCC 12), in the shape
// DecimalParser has: for runnect-bench's comparison of the two (`runnect-bench numbers`).
#ifndef CFROMCHARS_H
#define CFROMCHARS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Parses [p, p + n) as DecimalParser does: XML whitespace around it, an optional sign, a
/// decimal number with an optional exponent; no inf, nan or hex. Returns 0 and the value in
/// `out`, or -1.
int rk_from_chars_double(const char *p, size_t n, double *out);

#ifdef __cplusplus
}
#endif

#endif
