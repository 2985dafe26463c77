// A C-shaped shim over C++ GeographicLib's WGS84 geodesic (Karney 2013).
//
// This header is the only thing Swift sees; it is not a stable API. Every function catches C++
// exceptions at the boundary and reports failure through its return value. Nothing is allocated
// here that the caller must free.
#ifndef CGEOGRAPHICLIB_H
#define CGEOGRAPHICLIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Inverse problem on WGS84: distance (metres) and azimuths (degrees) between two points.
/// Returns 0 on success, -1 when GeographicLib failed or produced a non-finite distance.
int rk_geod_inverse(double lat1, double lon1, double lat2, double lon2,
                    double *s12, double *azi1, double *azi2);

/// Direct problem on WGS84: the point reached from (lat1, lon1) along azimuth azi1 after s12 metres.
/// Returns 0 on success, -1 on failure.
int rk_geod_direct(double lat1, double lon1, double azi1, double s12,
                   double *lat2, double *lon2, double *azi2);

/// Leg lengths of a path in one call: for i in 1..<count, legs[i-1] = s12(point[i-1], point[i]).
///
/// Latitudes and longitudes are read from `lat` and `lon` advancing `stride_bytes` per point, so an
/// array of structs can be passed without copying. `legs` may be NULL when only the total is needed;
/// otherwise it holds count-1 doubles. Returns the sum of the legs (0 for count < 2), or NaN when a
/// leg could not be computed (its entry in `legs` is then NaN too).
///
/// A leg short enough (d³ ≤ 24 R² · 1 nm · cos²φ at its mean latitude φ: up to 99 m at the
/// equator, 62 m at 60°, 20 m at 85°, under a metre within 12 km of a pole) is measured with the
/// mid-latitude formula on the ellipsoid (meridian and prime-vertical radii of curvature at the
/// mean latitude), which agrees with GeographicLib's inverse to the nanometre there
/// (`rk_geod_check_short_legs`, tested on 10 million legs per class); every other leg by
/// GeographicLib. The formula runs over blocks of 256 legs without a branch or a call (its sine
/// and cosine from their series), so the compiler measures two or more legs at a time.
double rk_geod_path_legs(const double *lat, const double *lon, size_t stride_bytes, size_t count,
                         double *legs);

/// `rk_geod_path_legs` with GeographicLib for every leg: the reference the fast path is held to.
double rk_geod_path_legs_exact(const double *lat, const double *lon, size_t stride_bytes, size_t count,
                               double *legs);

/// The short-leg formula alone (the code the path sums run, on one leg): 0 and the length in `s12`
/// when the leg is in its range, -1 when it is not (the caller then asks GeographicLib).
int rk_geod_short_leg(double lat1, double lon1, double lat2, double lon2, double *s12);

/// Holds the short-leg formula against GeographicLib on `count` seeded random legs: first points
/// uniform over the area of the latitude band |lat| in [min_abs_lat, max_abs_lat] (either
/// hemisphere) and longitudes lon_center ± lon_spread (wrapped), lengths uniform in
/// [min_length, max_length] metres, any azimuth, measured in blocks by the code the path sums
/// run. Writes the largest |formula − GeographicLib|
/// over the legs the formula takes, and how many it took. Returns 0, or -1 on failure.
int rk_geod_check_short_legs(uint64_t seed, size_t count, double min_length, double max_length,
                             double min_abs_lat, double max_abs_lat, double lon_center, double lon_spread,
                             double *max_error, size_t *fast_count);

/// The shortest distance on WGS84 from the point (lat, lon) to the geodesic leg from (lat1, lon1)
/// to (lat2, lon2): to the closest point ON the leg, which may lie between its ends. Writes that
/// point to (*near_lat, *near_lon) when they are not NULL. Returns the distance in metres, or NaN when
/// GeographicLib failed (a latitude outside -90...90, a non-finite coordinate).
///
/// Solved as Karney's "interception" problem: the gnomonic projection centred at the current
/// estimate maps geodesics through the centre to straight lines with their true azimuths, so the
/// foot of the perpendicular from the point to the projected leg converges to the point of the leg
/// where the geodesic to the point meets it at right angles (a few iterations), clamped to the
/// leg's ends. Where the projection cannot hold the three points (more than about a quarter of the
/// earth apart), a golden-section search along the leg takes over.
double rk_geod_point_leg_distance(double lat, double lon, double lat1, double lon1, double lat2, double lon2,
                                  double *near_lat, double *near_lon);

/// The shortest distance on WGS84 from (lat, lon) to a path of geodesic legs between consecutive
/// points (read as `rk_geod_path_legs` reads them; one point: the distance to it).
///
/// Only the legs that could be closer than both `cutoff` and the best leg so far are solved
/// exactly (`rk_geod_point_leg_distance`), in the order of a lower bound that costs a few
/// multiplications: the straight-line (chord) distance in space from the point to the leg's
/// chord, less the most a geodesic of the leg's length can bow away from its chord. Returns the
/// exact distance when it is at most `cutoff` (pass INFINITY for always), else some value above
/// `cutoff`; writes the index of the closest leg (or 0) to `*leg` when `leg` is not NULL. Returns
/// NaN on failure, +INFINITY for count 0.
double rk_geod_point_path_distance(double lat, double lon, const double *plat, const double *plon,
                                   size_t stride_bytes, size_t count, double cutoff, size_t *leg);

#ifdef __cplusplus
}
#endif

#endif
