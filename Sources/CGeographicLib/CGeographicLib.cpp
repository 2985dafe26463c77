#include "CGeographicLib.h"

#include <GeographicLib/Geodesic.hpp>

#include <cmath>
#include <cstdint>

using GeographicLib::Geodesic;

int rk_geod_inverse(double lat1, double lon1, double lat2, double lon2,
                    double *s12, double *azi1, double *azi2) {
    try {
        Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, *s12, *azi1, *azi2);
        return std::isfinite(*s12) ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

int rk_geod_direct(double lat1, double lon1, double azi1, double s12,
                   double *lat2, double *lon2, double *azi2) {
    try {
        Geodesic::WGS84().Direct(lat1, lon1, azi1, s12, *lat2, *lon2, *azi2);
        return std::isfinite(*lat2) && std::isfinite(*lon2) ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

namespace {

// WGS84, as GeographicLib's Geodesic::WGS84().
constexpr double kEquatorialRadius = 6378137.0;
constexpr double kFlattening = 1 / 298.257223563;
constexpr double kEccentricitySquared = kFlattening * (2 - kFlattening);
constexpr double kRadiansPerDegree = M_PI / 180;
// The mid-latitude formula's error grows as d³·tan²φ / (24 R²) (measured, see the header); it is
// used where d³·(1 + tan²φ) ≤ 24 R² × 1 nm, i.e. d³ ≤ kShortLegLimit · cos²φ.
constexpr double kShortLegLimit = 24 * kEquatorialRadius * kEquatorialRadius * 1e-9;

// The mid-latitude (Gauss) formula on the ellipsoid: the leg as the hypotenuse of its meridian
// and parallel components, measured with the radii of curvature at the mean latitude. False when
// the leg is outside the range where it agrees with GeographicLib to the nanometre.
inline bool short_leg(double lat1, double lon1, double lat2, double lon2, double &s12) {
    if (!(std::fabs(lat1) <= 90 && std::fabs(lat2) <= 90)) return false;
    double dlon = lon2 - lon1;
    if (std::fabs(dlon) > 180) dlon = std::remainder(dlon, 360.0);
    const double phi = (lat1 + lat2) * (0.5 * kRadiansPerDegree);
    double sinPhi, cosPhi;
    ::sincos(phi, &sinPhi, &cosPhi);  // one call for both (glibc); the compiler will not fuse them under errno
    const double w2 = 1 - kEccentricitySquared * sinPhi * sinPhi;
    const double primeVertical = kEquatorialRadius / std::sqrt(w2);
    const double meridian = primeVertical * (1 - kEccentricitySquared) / w2;
    const double north = meridian * (lat2 - lat1) * kRadiansPerDegree;
    const double east = primeVertical * cosPhi * dlon * kRadiansPerDegree;
    const double d2 = north * north + east * east;
    const double d = std::sqrt(d2);
    if (!(d2 * d <= kShortLegLimit * cosPhi * cosPhi)) return false;  // NaN: false
    s12 = d;
    return true;
}

template <bool Fast>
double path_legs(const double *lat, const double *lon, size_t stride_bytes, size_t count, double *legs) {
    if (count < 2) return 0.0;
    try {
        const Geodesic &g = Geodesic::WGS84();
        const char *plat = reinterpret_cast<const char *>(lat);
        const char *plon = reinterpret_cast<const char *>(lon);
        double lat1 = *lat, lon1 = *lon, total = 0.0;
        for (size_t i = 1; i < count; ++i) {
            double lat2 = *reinterpret_cast<const double *>(plat + i * stride_bytes);
            double lon2 = *reinterpret_cast<const double *>(plon + i * stride_bytes);
            double s12;
            if (lat1 == lat2 && lon1 == lon2) {
                s12 = 0.0;  // a stationary fix: GeographicLib gives 0 too, without the work
            } else if (!Fast || !short_leg(lat1, lon1, lat2, lon2, s12)) {
                g.Inverse(lat1, lon1, lat2, lon2, s12);
            }
            if (legs) legs[i - 1] = s12;
            total += s12;
            lat1 = lat2;
            lon1 = lon2;
        }
        return total;
    } catch (...) {
        return NAN;
    }
}

}  // namespace

double rk_geod_path_legs(const double *lat, const double *lon, size_t stride_bytes, size_t count,
                         double *legs) {
    return path_legs<true>(lat, lon, stride_bytes, count, legs);
}

double rk_geod_path_legs_exact(const double *lat, const double *lon, size_t stride_bytes, size_t count,
                               double *legs) {
    return path_legs<false>(lat, lon, stride_bytes, count, legs);
}

int rk_geod_short_leg(double lat1, double lon1, double lat2, double lon2, double *s12) {
    return short_leg(lat1, lon1, lat2, lon2, *s12) ? 0 : -1;
}

namespace {
// SplitMix64, for the check below: the same legs on every machine for a seed.
struct SplitMix {
    uint64_t state;
    double unit() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return double((z ^ (z >> 31)) >> 11) * 0x1p-53;
    }
};
}  // namespace

int rk_geod_check_short_legs(uint64_t seed, size_t count, double min_length, double max_length,
                             double min_abs_lat, double max_abs_lat, double lon_center, double lon_spread,
                             double *max_error, size_t *fast_count) {
    try {
        const Geodesic &g = Geodesic::WGS84();
        SplitMix random{seed};
        const double sinMin = std::sin(min_abs_lat * kRadiansPerDegree);
        const double sinMax = std::sin(max_abs_lat * kRadiansPerDegree);
        double worst = 0;
        size_t fast = 0;
        for (size_t i = 0; i < count; ++i) {
            // Uniform over the sphere's area within the band, either hemisphere.
            const double sinLat = sinMin + (sinMax - sinMin) * random.unit();
            const double lat1 = std::asin(sinLat) / kRadiansPerDegree * (random.unit() < 0.5 ? -1 : 1);
            double lon1 = lon_center + lon_spread * (2 * random.unit() - 1);
            lon1 = std::remainder(lon1, 360.0);
            const double azimuth = 2 * M_PI * random.unit();
            const double length = min_length + (max_length - min_length) * random.unit();
            // The second point a leg of about `length` away (on a sphere of the equatorial radius;
            // the exact length does not matter, only its class), wrapped like a device would.
            const double lat2 = std::fmin(90.0, std::fmax(-90.0,
                lat1 + length * std::cos(azimuth) / kEquatorialRadius / kRadiansPerDegree));
            const double cosLat = std::fmax(std::cos(lat1 * kRadiansPerDegree), 1e-12);
            const double lon2 = std::remainder(
                lon1 + length * std::sin(azimuth) / (kEquatorialRadius * cosLat) / kRadiansPerDegree, 360.0);
            double s12;
            if (!short_leg(lat1, lon1, lat2, lon2, s12)) continue;
            double exact;
            g.Inverse(lat1, lon1, lat2, lon2, exact);
            worst = std::fmax(worst, std::fabs(s12 - exact));
            ++fast;
        }
        *max_error = worst;
        *fast_count = fast;
        return 0;
    } catch (...) {
        return -1;
    }
}
