#include "CFromChars.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace {
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
}  // namespace

int rk_from_chars_double(const char *p, size_t n, double *out) {
    const char *end = p + n;
    while (p < end && is_space(*p)) ++p;
    while (end > p && is_space(end[-1])) --end;
    if (p < end && *p == '+') {
        ++p;
        if (p < end && *p == '-') return -1;
    }
    // from_chars reads "inf", "nan" and hex only when asked or spelt so: refuse letters other
    // than an exponent up front.
    if (p == end || !(*p == '-' || *p == '.' || (*p >= '0' && *p <= '9'))) return -1;
    const char *digits = *p == '-' ? p + 1 : p;
    if (digits == end || !(*digits == '.' || (*digits >= '0' && *digits <= '9'))) return -1;
    auto result = std::from_chars(p, end, *out, std::chars_format::general);
    if (result.ec != std::errc() || result.ptr != end || !std::isfinite(*out)) return -1;
    return 0;
}
