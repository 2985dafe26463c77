// A C-shaped shim over C++ GeographicLib's WGS84 geodesic (Karney 2013).
//
// This header is the only thing Swift sees; it is not a stable API. Every function catches C++
// exceptions at the boundary and reports failure through its return value. Nothing is allocated
// here that the caller must free.
#ifndef CGEOGRAPHICLIB_H
#define CGEOGRAPHICLIB_H

#include <stddef.h>

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
double rk_geod_path_legs(const double *lat, const double *lon, size_t stride_bytes, size_t count,
                         double *legs);

#ifdef __cplusplus
}
#endif

#endif
