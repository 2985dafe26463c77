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

double rk_geod_path_legs(const double *lat, const double *lon, size_t stride_bytes, size_t count,
                         double *legs) {
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
            } else {
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
