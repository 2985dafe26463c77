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

// Legs measured by the formula below in one go: on the stack, and long enough that the loop over
// them runs in vector registers.
constexpr size_t kLegBlock = 256;

// The mid-latitude (Gauss) formula on the ellipsoid, for the legs from point j to point j + 1 of
// contiguous latitudes and longitudes (j < count): the leg as the hypotenuse of its meridian and
// parallel components, measured with the radii of curvature at the mean latitude. `legs[j]` is
// NaN where the leg is outside the range where it agrees with GeographicLib to the nanometre (or a
// coordinate is not a position): the caller asks GeographicLib for those.
//
// Written without a branch or a call so that the compiler runs it two or four legs at a time
// (SSE2 is enough): the sine and cosine of the mean latitude come from their series at half the
// angle (|φ/2| ≤ π/4; the terms left out are below 5e-17), the square roots from
// __builtin_elementwise_sqrt (std::sqrt may set errno, which keeps a loop scalar).
void short_legs(const double *lat, const double *lon, size_t count, double *legs) {
    for (size_t j = 0; j < count; ++j) {
        const double lat1 = lat[j], lat2 = lat[j + 1];
        double dlon = lon[j + 1] - lon[j];
        // The short way round across the antimeridian (as remainder(dlon, 360) for |dlon| < 540).
        const bool inRange = std::fabs(lat1) <= 90 & std::fabs(lat2) <= 90 & std::fabs(dlon) < 540;
        dlon -= 360 * (double(dlon > 180) - double(dlon < -180));
        const double y = (lat1 + lat2) * (0.25 * kRadiansPerDegree);  // half the mean latitude
        const double y2 = y * y;
        const double sinY =
            y * (1 + y2 * (-1.0 / 6 + y2 * (1.0 / 120 + y2 * (-1.0 / 5040 + y2 * (1.0 / 362880
            + y2 * (-1.0 / 39916800 + y2 * (1.0 / 6227020800 + y2 * (-1.0 / 1307674368000))))))));
        const double cosY =
            1 + y2 * (-1.0 / 2 + y2 * (1.0 / 24 + y2 * (-1.0 / 720 + y2 * (1.0 / 40320 + y2 * (-1.0 / 3628800
            + y2 * (1.0 / 479001600 + y2 * (-1.0 / 87178291200 + y2 * (1.0 / 20922789888000))))))));
        const double sinPhi = 2 * sinY * cosY;
        const double cosPhi = (cosY - sinY) * (cosY + sinY);
        const double w2 = 1 - kEccentricitySquared * sinPhi * sinPhi;
        const double r = 1 / __builtin_elementwise_sqrt(w2);
        const double primeVertical = kEquatorialRadius * r;
        const double meridian = kEquatorialRadius * (1 - kEccentricitySquared) * (r * r * r);
        const double north = meridian * (lat2 - lat1) * kRadiansPerDegree;
        const double east = primeVertical * cosPhi * dlon * kRadiansPerDegree;
        const double d2 = north * north + east * east;
        const double d = __builtin_elementwise_sqrt(d2);
        const bool isShort = inRange & (d2 * d <= kShortLegLimit * cosPhi * cosPhi);  // NaN: false
        legs[j] = isShort ? d : NAN;
    }
}

// Whether a point is a position: finite coordinates, latitude within ±90°.
inline bool is_position(double lat, double lon) { return std::fabs(lat) <= 90 && std::isfinite(lon); }

template <bool Fast>
double path_legs(const double *lat, const double *lon, size_t stride_bytes, size_t count, double *legs) {
    if (count < 2) return 0.0;
    try {
        const Geodesic &g = Geodesic::WGS84();
        const char *plat = reinterpret_cast<const char *>(lat);
        const char *plon = reinterpret_cast<const char *>(lon);
        auto latitude = [&](size_t i) { return *reinterpret_cast<const double *>(plat + i * stride_bytes); };
        auto longitude = [&](size_t i) { return *reinterpret_cast<const double *>(plon + i * stride_bytes); };
        double total = 0.0;
        if (!Fast) {
            for (size_t i = 1; i < count; ++i) {
                double s12;
                g.Inverse(latitude(i - 1), longitude(i - 1), latitude(i), longitude(i), s12);
                if (legs) legs[i - 1] = s12;
                total += s12;
            }
            return total;
        }
        // Block by block: the points copied out of the caller's structs side by side, the short
        // legs measured together, then GeographicLib for the rest.
        double blockLat[kLegBlock + 1], blockLon[kLegBlock + 1], blockLegs[kLegBlock];
        for (size_t first = 0; first + 1 < count; first += kLegBlock) {
            const size_t n = std::min(kLegBlock, count - 1 - first);
            for (size_t j = 0; j <= n; ++j) {
                blockLat[j] = latitude(first + j);
                blockLon[j] = longitude(first + j);
            }
            double *out = legs ? legs + first : blockLegs;
            short_legs(blockLat, blockLon, n, out);
            for (size_t j = 0; j < n; ++j) {
                // Not a position at either end: NaN, without GeographicLib (which would iterate on
                // NaNs to its limit).
                if (std::isnan(out[j]) && is_position(blockLat[j], blockLon[j])
                    && is_position(blockLat[j + 1], blockLon[j + 1])) {
                    g.Inverse(blockLat[j], blockLon[j], blockLat[j + 1], blockLon[j + 1], out[j]);
                }
                total += out[j];
            }
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
    const double lat[2] = {lat1, lat2}, lon[2] = {lon1, lon2};
    short_legs(lat, lon, 1, s12);
    return std::isnan(*s12) ? -1 : 0;
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
        // Legs in blocks, as the path sums measure them: leg k from point 2k to point 2k + 1 (the
        // legs between the pairs are measured too and passed over).
        constexpr size_t kPairs = kLegBlock / 2;
        double lat[2 * kPairs], lon[2 * kPairs], legs[2 * kPairs - 1];
        for (size_t done = 0; done < count; done += kPairs) {
            const size_t pairs = std::min(kPairs, count - done);
            for (size_t k = 0; k < pairs; ++k) {
                // Uniform over the sphere's area within the band, either hemisphere.
                const double sinLat = sinMin + (sinMax - sinMin) * random.unit();
                const double lat1 = std::asin(sinLat) / kRadiansPerDegree * (random.unit() < 0.5 ? -1 : 1);
                double lon1 = lon_center + lon_spread * (2 * random.unit() - 1);
                lon1 = std::remainder(lon1, 360.0);
                const double azimuth = 2 * M_PI * random.unit();
                const double length = min_length + (max_length - min_length) * random.unit();
                // The second point a leg of about `length` away (on a sphere of the equatorial
                // radius; the exact length does not matter, only its class), wrapped like a device
                // would.
                const double lat2 = std::fmin(90.0, std::fmax(-90.0,
                    lat1 + length * std::cos(azimuth) / kEquatorialRadius / kRadiansPerDegree));
                const double cosLat = std::fmax(std::cos(lat1 * kRadiansPerDegree), 1e-12);
                const double lon2 = std::remainder(
                    lon1 + length * std::sin(azimuth) / (kEquatorialRadius * cosLat) / kRadiansPerDegree, 360.0);
                lat[2 * k] = lat1;
                lon[2 * k] = lon1;
                lat[2 * k + 1] = lat2;
                lon[2 * k + 1] = lon2;
            }
            short_legs(lat, lon, 2 * pairs - 1, legs);
            for (size_t k = 0; k < pairs; ++k) {
                if (std::isnan(legs[2 * k])) continue;
                double exact;
                g.Inverse(lat[2 * k], lon[2 * k], lat[2 * k + 1], lon[2 * k + 1], exact);
                worst = std::fmax(worst, std::fabs(legs[2 * k] - exact));
                ++fast;
            }
        }
        *max_error = worst;
        *fast_count = fast;
        return 0;
    } catch (...) {
        return -1;
    }
}

// ---- Distance from a point to a path of geodesic legs ------------------------------------------

#include <GeographicLib/GeodesicLine.hpp>
#include <GeographicLib/Gnomonic.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace {

using GeographicLib::GeodesicLine;
using GeographicLib::Gnomonic;

// The largest normal curvature of WGS84 is at the equator, along the meridian: 1 / (a (1 - e²)).
// No geodesic bends more in space, so a leg of length L stays within L² / (8 · kSmallestRadius) of
// its chord (the circular arc is the extreme case).
constexpr double kSmallestRadius = kEquatorialRadius * (1 - kEccentricitySquared);

struct Vec3 {
    double x, y, z;
};

inline Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Earth-centred, earth-fixed position on the ellipsoid (height 0).
inline Vec3 ecef(double lat, double lon) {
    double sinPhi, cosPhi, sinLambda, cosLambda;
    ::sincos(lat * kRadiansPerDegree, &sinPhi, &cosPhi);
    ::sincos(lon * kRadiansPerDegree, &sinLambda, &cosLambda);
    const double n = kEquatorialRadius / std::sqrt(1 - kEccentricitySquared * sinPhi * sinPhi);
    return {n * cosPhi * cosLambda, n * cosPhi * sinLambda, n * (1 - kEccentricitySquared) * sinPhi};
}

// A lower bound of the geodesic distance from p to any point of the geodesic leg a–b: the chord
// distance from p to the segment a–b (no path on the surface is shorter than the straight line),
// less how far the leg can bow away from that segment.
inline double leg_lower_bound(Vec3 p, Vec3 a, Vec3 b) {
    const Vec3 ab = sub(b, a), ap = sub(p, a);
    const double length2 = dot(ab, ab);
    double t = length2 > 0 ? dot(ap, ab) / length2 : 0;
    t = std::fmin(1.0, std::fmax(0.0, t));
    const Vec3 foot = {a.x + t * ab.x, a.y + t * ab.y, a.z + t * ab.z};
    const Vec3 d = sub(p, foot);
    const double chord = std::sqrt(length2);
    // Past a tenth of the earth the bow bound is loose anyway: no pruning.
    if (chord > 0.1 * kSmallestRadius) return 0;
    // The leg's length exceeds its chord by less than chord³ / (24 R²) ≤ 0.05 % here; 1 % margin.
    const double length = chord * 1.01;
    const double bow = length * length / (8 * kSmallestRadius);
    return std::sqrt(dot(d, d)) - bow - 1e-6;
}

// Golden-section search for the closest point along the leg: slow (about 60 inverse problems),
// only for what the gnomonic projection cannot hold.
double leg_distance_by_search(const Geodesic &g, double lat, double lon, double lat1, double lon1, double lat2,
                              double lon2, double &nearLat, double &nearLon) {
    const GeodesicLine line = g.InverseLine(lat1, lon1, lat2, lon2);
    const double length = line.Distance();
    auto at = [&](double s, double &plat, double &plon) {
        line.Position(s, plat, plon);
        double d;
        g.Inverse(lat, lon, plat, plon, d);
        return d;
    };
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double lo = 0, hi = length;
    double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
    double la, lo1, la2, lo2;
    double f1 = at(x1, la, lo1), f2 = at(x2, la2, lo2);
    for (int i = 0; i < 200 && hi - lo > 1e-4; ++i) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = at(x1, la, lo1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = at(x2, la2, lo2);
        }
    }
    // The best of the bracket and the two ends.
    double best = at(0.5 * (lo + hi), nearLat, nearLon);
    double plat, plon;
    for (double s : {0.0, length}) {
        const double d = at(s, plat, plon);
        if (d < best) {
            best = d;
            nearLat = plat;
            nearLon = plon;
        }
    }
    return best;
}

double leg_distance(const Geodesic &g, const Gnomonic &gnomonic, double lat, double lon, double lat1, double lon1,
                    double lat2, double lon2, double &nearLat, double &nearLon) {
    double s;
    if (lat1 == lat2 && lon1 == lon2) {
        g.Inverse(lat, lon, lat1, lon1, s);
        nearLat = lat1;
        nearLon = lon1;
        return s;
    }
    // Start at the middle of the leg (longitudes the short way round).
    double dlon = lon2 - lon1;
    if (std::fabs(dlon) > 180) dlon = std::remainder(dlon, 360.0);
    double lat0 = 0.5 * (lat1 + lat2), lon0 = lon1 + 0.5 * dlon;
    // 0: interior estimate, 1 or 2: clamped to that end.
    int clamped = 0;
    bool converged = false;
    for (int i = 0; i < 30; ++i) {
        double xa, ya, xb, yb, xp, yp;
        gnomonic.Forward(lat0, lon0, lat1, lon1, xa, ya);
        gnomonic.Forward(lat0, lon0, lat2, lon2, xb, yb);
        gnomonic.Forward(lat0, lon0, lat, lon, xp, yp);
        if (!(std::isfinite(xa) && std::isfinite(ya) && std::isfinite(xb) && std::isfinite(yb) && std::isfinite(xp)
              && std::isfinite(yp)))
            break;
        const double dx = xb - xa, dy = yb - ya;
        const double length2 = dx * dx + dy * dy;
        if (!(length2 > 0)) break;
        const double t = ((xp - xa) * dx + (yp - ya) * dy) / length2;
        if (t <= 0 || t >= 1) {
            // Centred at the end itself, the projection keeps the true angle there: the distance
            // grows from that end into the leg, which is as close as the leg comes.
            const int end = t <= 0 ? 1 : 2;
            if (clamped == end) {
                converged = true;
                break;
            }
            clamped = end;
            lat0 = end == 1 ? lat1 : lat2;
            lon0 = end == 1 ? lon1 : lon2;
            continue;
        }
        clamped = 0;
        const double fx = xa + t * dx, fy = ya + t * dy;
        double lat3, lon3;
        gnomonic.Reverse(lat0, lon0, fx, fy, lat3, lon3);
        if (!(std::isfinite(lat3) && std::isfinite(lon3))) break;
        lat0 = lat3;
        lon0 = lon3;
        // The step, in metres near the centre: done below 10 µm.
        if (fx * fx + fy * fy < 1e-10) {
            converged = true;
            break;
        }
    }
    if (!converged) return leg_distance_by_search(g, lat, lon, lat1, lon1, lat2, lon2, nearLat, nearLon);
    g.Inverse(lat, lon, lat0, lon0, s);
    nearLat = lat0;
    nearLon = lon0;
    return s;
}

}  // namespace

double rk_geod_point_leg_distance(double lat, double lon, double lat1, double lon1, double lat2, double lon2,
                                  double *near_lat, double *near_lon) {
    try {
        if (!(std::fabs(lat) <= 90 && std::fabs(lat1) <= 90 && std::fabs(lat2) <= 90 && std::isfinite(lon)
              && std::isfinite(lon1) && std::isfinite(lon2)))
            return NAN;
        static const Gnomonic gnomonic(Geodesic::WGS84());
        double nearLat, nearLon;
        const double s =
            leg_distance(Geodesic::WGS84(), gnomonic, lat, lon, lat1, lon1, lat2, lon2, nearLat, nearLon);
        if (near_lat) *near_lat = nearLat;
        if (near_lon) *near_lon = nearLon;
        return std::isfinite(s) ? s : NAN;
    } catch (...) {
        return NAN;
    }
}

double rk_geod_point_path_distance(double lat, double lon, const double *plat, const double *plon,
                                   size_t stride_bytes, size_t count, double cutoff, size_t *leg) {
    if (leg) *leg = 0;
    if (count == 0) return INFINITY;
    try {
        if (!(std::fabs(lat) <= 90 && std::isfinite(lon))) return NAN;
        const Geodesic &g = Geodesic::WGS84();
        static const Gnomonic gnomonic(Geodesic::WGS84());
        const char *la = reinterpret_cast<const char *>(plat);
        const char *lo = reinterpret_cast<const char *>(plon);
        auto latAt = [&](size_t i) { return *reinterpret_cast<const double *>(la + i * stride_bytes); };
        auto lonAt = [&](size_t i) { return *reinterpret_cast<const double *>(lo + i * stride_bytes); };
        for (size_t i = 0; i < count; ++i) {
            if (!(std::fabs(latAt(i)) <= 90 && std::isfinite(lonAt(i)))) return NAN;
        }
        if (count == 1) {
            double s;
            g.Inverse(lat, lon, latAt(0), lonAt(0), s);
            return s;
        }
        // Lower bounds of every leg, then the legs solved best bound first until none can beat
        // the best distance found (or the cutoff).
        thread_local std::vector<std::pair<double, size_t>> bounds;
        bounds.clear();
        const Vec3 p = ecef(lat, lon);
        Vec3 a = ecef(latAt(0), lonAt(0));
        for (size_t i = 1; i < count; ++i) {
            const Vec3 b = ecef(latAt(i), lonAt(i));
            const double bound = leg_lower_bound(p, a, b);
            if (bound <= cutoff) bounds.emplace_back(bound, i - 1);
            a = b;
        }
        if (bounds.empty()) return INFINITY;
        std::sort(bounds.begin(), bounds.end());
        double best = INFINITY;
        size_t bestLeg = 0;
        for (const auto &[bound, i] : bounds) {
            if (bound > best) break;
            double nearLat, nearLon;
            const double s = leg_distance(g, gnomonic, lat, lon, latAt(i), lonAt(i), latAt(i + 1), lonAt(i + 1),
                                          nearLat, nearLon);
            if (!std::isfinite(s)) return NAN;
            if (s < best || (s == best && i < bestLeg)) {
                best = s;
                bestLeg = i;
            }
        }
        if (leg) *leg = bestLeg;
        return best;
    } catch (...) {
        return NAN;
    }
}
