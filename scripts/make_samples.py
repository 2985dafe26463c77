#!/usr/bin/env python3
"""Generate the project's own sample courses in SampleTracks/.

    python3 scripts/make_samples.py            # (re)write every sample, then validate
    python3 scripts/make_samples.py --check    # only validate what is on disk

Standard library only and deterministic: every file has its own
random.Random(fixed seed), so running this twice gives byte-identical files.

Every course is built from hand-placed anchor points along real paths in Seoul
(Han river parks, Namsan, Olympic Park, Seokchon Lake, Cheonggyecheon,
Gyeongui Line Forest Park). The anchors are approximate (placed from memory
of the map, good to a few tens of metres), and the "recorded" runs are
simulated on top of them: densified along a smooth curve, 1 Hz (or 2 s)
timestamps, correlated GPS noise of about +-1.5 m, a smooth elevation profile,
and heart rate / cadence / temperature that follow the simulated effort.
None of this is a recording of a real person.
"""

import datetime as dt
import json
import math
import os
import random
import sys
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape as _xml_escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "SampleTracks")

EARTH_R = 6371008.8  # mean Earth radius (m); only for this generator's sanity numbers

# --------------------------------------------------------------------------
# small geometry helpers (a local flat projection is plenty for a few km)
# --------------------------------------------------------------------------


class LocalFrame:
    """Equirectangular projection around a reference point, metres east/north."""

    def __init__(self, lat0, lon0):
        self.lat0 = lat0
        self.lon0 = lon0
        self.k_lat = math.pi / 180.0 * EARTH_R
        self.k_lon = self.k_lat * math.cos(math.radians(lat0))

    def xy(self, lat, lon):
        return ((lon - self.lon0) * self.k_lon, (lat - self.lat0) * self.k_lat)

    def latlon(self, x, y):
        return (self.lat0 + y / self.k_lat, self.lon0 + x / self.k_lon)


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_R * math.asin(min(1.0, math.sqrt(a)))


def polyline_length(latlons):
    return sum(haversine(a[0], a[1], b[0], b[1]) for a, b in zip(latlons, latlons[1:]))


def bearing(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(y, x)) + 360.0) % 360.0


def _catmull_rom(p0, p1, p2, p3, n):
    """Centripetal Catmull-Rom from p1 to p2 (n samples, p1 included, p2 excluded)."""

    def tj(ti, a, b):
        d = math.hypot(b[0] - a[0], b[1] - a[1])
        return ti + max(d, 1e-6) ** 0.5

    t0 = 0.0
    t1 = tj(t0, p0, p1)
    t2 = tj(t1, p1, p2)
    t3 = tj(t2, p2, p3)
    out = []
    for i in range(n):
        t = t1 + (t2 - t1) * i / n

        def lerp(a, b, ta, tb):
            wa = (tb - t) / (tb - ta)
            wb = (t - ta) / (tb - ta)
            return (wa * a[0] + wb * b[0], wa * a[1] + wb * b[1])

        a1 = lerp(p0, p1, t0, t1)
        a2 = lerp(p1, p2, t1, t2)
        a3 = lerp(p2, p3, t2, t3)
        b1 = lerp(a1, a2, t0, t2)
        b2 = lerp(a2, a3, t1, t3)
        out.append(lerp(b1, b2, t1, t2))
    return out


class Path:
    """A smooth curve through anchor points, sampled every ~0.5 m, addressed by arc length."""

    def __init__(self, anchors, frame):
        self.frame = frame
        pts = [frame.xy(a[0], a[1]) for a in anchors]
        ext = [pts[0]] + pts + [pts[-1]]
        dense = []
        self.anchor_index = []
        for i in range(len(pts) - 1):
            seg = math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1])
            n = max(2, int(math.ceil(seg / 0.5)))
            self.anchor_index.append(len(dense))
            dense.extend(_catmull_rom(ext[i], ext[i + 1], ext[i + 2], ext[i + 3], n))
        self.anchor_index.append(len(dense))
        dense.append(pts[-1])
        self.xy = dense
        self.s = [0.0]
        for a, b in zip(dense, dense[1:]):
            self.s.append(self.s[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
        self.length = self.s[-1]
        self.anchor_s = [self.s[i] for i in self.anchor_index]

    def _locate(self, s):
        s = min(max(s, 0.0), self.length)
        lo, hi = 0, len(self.s) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.s[mid] <= s:
                lo = mid
            else:
                hi = mid
        return lo, s

    def point(self, s):
        """(x, y, ux, uy): position and unit tangent (direction of increasing s)."""
        i, s = self._locate(s)
        a, b = self.xy[i], self.xy[i + 1]
        span = self.s[i + 1] - self.s[i]
        f = 0.0 if span <= 0 else (s - self.s[i]) / span
        x = a[0] + f * (b[0] - a[0])
        y = a[1] + f * (b[1] - a[1])
        j0 = max(0, i - 6)
        j1 = min(len(self.xy) - 1, i + 7)
        ux = self.xy[j1][0] - self.xy[j0][0]
        uy = self.xy[j1][1] - self.xy[j0][1]
        norm = math.hypot(ux, uy) or 1.0
        return x, y, ux / norm, uy / norm


def smooth_profile(path, anchor_values, window=60.0, step=5.0):
    """A function s -> value: linear between anchors, then a moving average over `window` m."""
    s_a = path.anchor_s

    def linear(s):
        if s <= s_a[0]:
            return anchor_values[0]
        for k in range(len(s_a) - 1):
            if s <= s_a[k + 1]:
                span = s_a[k + 1] - s_a[k]
                f = 0.0 if span <= 0 else (s - s_a[k]) / span
                return anchor_values[k] + f * (anchor_values[k + 1] - anchor_values[k])
        return anchor_values[-1]

    n = int(path.length // step) + 2
    grid = [linear(i * step) for i in range(n)]
    half = int(window / step / 2)
    sm = []
    for i in range(n):
        j0, j1 = max(0, i - half), min(n - 1, i + half)
        sm.append(sum(grid[j0:j1 + 1]) / (j1 - j0 + 1))

    def f(s):
        u = min(max(s, 0.0), path.length) / step
        i = min(int(u), n - 2)
        r = u - i
        return sm[i] * (1 - r) + sm[i + 1] * r

    return f


class GpsNoise:
    """Correlated horizontal GPS error (metres), kept within +-limit."""

    def __init__(self, rng, sigma=0.7, phi=0.985, limit=1.5):
        self.rng = rng
        self.phi = phi
        self.innov = sigma * math.sqrt(1 - phi * phi)
        self.limit = limit
        self.ex = rng.gauss(0, sigma * 0.5)
        self.ey = rng.gauss(0, sigma * 0.5)

    def step(self):
        self.ex = max(-self.limit, min(self.limit, self.phi * self.ex + self.rng.gauss(0, self.innov)))
        self.ey = max(-self.limit, min(self.limit, self.phi * self.ey + self.rng.gauss(0, self.innov)))
        return self.ex, self.ey


# --------------------------------------------------------------------------
# output helpers
# --------------------------------------------------------------------------


def xml_text(s):
    return _xml_escape(s)


def xml_attr(s):
    return _xml_escape(s, {'"': "&quot;"})


def write_text(name, text):
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return path


def fmt_coord(v, places=7):
    return "%.*f" % (places, v)


def utc_z(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def kst_frac(t):
    """2025-05-03T06:30:00.500+09:00 (milliseconds, numeric offset)."""
    ms = t.microsecond // 1000
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%03d" % ms + t.strftime("%z")[:3] + ":" + t.strftime("%z")[3:]


def json_dump(value, indent=2):
    """Pretty JSON like a real export: 2-space indent, arrays of numbers kept on one line."""

    def leaf_array(v):
        return isinstance(v, list) and all(isinstance(x, (int, float)) for x in v)

    def enc(v, level):
        pad = " " * (indent * level)
        pad_in = " " * (indent * (level + 1))
        if isinstance(v, dict):
            if not v:
                return "{}"
            items = [pad_in + json.dumps(k, ensure_ascii=False) + ": " + enc(x, level + 1) for k, x in v.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(v, list):
            if leaf_array(v):
                return "[" + ", ".join(json.dumps(x) for x in v) + "]"
            items = [pad_in + enc(x, level + 1) for x in v]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"
        return json.dumps(v, ensure_ascii=False)

    return enc(value, 0) + "\n"


def jitter_taps(anchors, rng, metres=2.5):
    """Map taps never land exactly on round numbers: nudge each anchor a little, round to 6 places."""
    out = []
    for lat, lon in anchors:
        dlat = rng.uniform(-metres, metres) / (math.pi / 180.0 * EARTH_R)
        dlon = rng.uniform(-metres, metres) / (math.pi / 180.0 * EARTH_R * math.cos(math.radians(lat)))
        out.append((round(lat + dlat, 6), round(lon + dlon, 6)))
    return out


# --------------------------------------------------------------------------
# 1. Banpo Hangang Park night 10K (GPX 1.1, Garmin TrackPointExtension v2)
# --------------------------------------------------------------------------

# South-bank riverside path (반포·서래 한강변 산책로), west -> east.
BANPO_PATH = [
    (37.50455, 126.97905),  # 동작역 한강 쪽, 동작대교 서쪽
    (37.50515, 126.98150),  # 동작대교 남단 아래
    (37.50590, 126.98440),
    (37.50675, 126.98740),  # 서래섬 서쪽 다리
    (37.50765, 126.99030),  # 서래섬 동쪽
    (37.50860, 126.99300),
    (37.50940, 126.99490),  # 세빛섬 입구
    (37.51000, 126.99650),  # 반포대교·잠수교 남단 아래 (달빛무지개분수)
    (37.51100, 126.99850),
    (37.51250, 127.00100),
    (37.51400, 127.00350),
    (37.51570, 127.00580),  # 반포한강공원 동쪽 (신반포)
    (37.51750, 127.00800),
    (37.51950, 127.01000),
    (37.52150, 127.01190),
    (37.52430, 127.01450),  # 한남대교 남단 아래
    (37.52560, 127.01650),  # 잠원한강공원
    (37.52680, 127.01880),
    (37.52800, 127.02150),
    (37.52890, 127.02420),  # 동호대교 남단 아래
    (37.52985, 127.02700),  # 압구정 쪽 강변 (반환점 부근)
]
BANPO_FOUNTAIN = 7   # anchor index: start / finish, 달빛무지개분수 앞
BANPO_HANNAM = 15    # anchor index: 한남대교 아래 (GPS multipath spike)
BANPO_DONGJAK = 1    # anchor index: 동작대교 아래 (turnaround + auto-pause)


def simulate_run(rng, path, legs, events, speed_fn, ele_fn, dt_s=1.0,
                 keep_right=1.2, hr0=112.0, hr_fn=None, atemp_fn=None, noise=None):
    """Run along `legs` [(s_from, s_to), ...] on `path`; returns a list of point dicts.

    events: dict with optional keys
        'spike_d'   : plan distance of a single off-path point, with 'spike_m' offset (left of the path)
        'stop'      : list of (plan distance, seconds) where the runner stands still (recorded at 1 Hz)
        'autopause' : list of (plan distance, gap seconds) where the watch stops recording
    """
    frame = path.frame
    noise = noise or GpsNoise(rng)
    plan = []
    acc = 0.0
    for a, b in legs:
        plan.append((acc, a, b))
        acc += abs(b - a)
    total = acc

    def where(d):
        for start, a, b in reversed(plan):
            if d >= start or start == 0.0:
                direction = 1.0 if b >= a else -1.0
                local = min(d - start, abs(b - a))
                s = a + direction * local
                to_end = abs(b - a) - local
                from_start = local
                return s, direction, to_end, from_start
        raise AssertionError

    turn_ds = [p[0] for p in plan[1:]]
    stops = sorted(events.get("stop", []))
    autos = sorted(events.get("autopause", []))
    spike_d = events.get("spike_d")
    spike_done = spike_d is None

    pts = []
    t = 0.0
    d = 0.0
    v = 0.0
    hr = hr0
    moving = 0.0
    pace_wobble = 0.0

    def emit(d_here, v_here, extra_xy=(0.0, 0.0), resting=False, rest_noise=None):
        nonlocal hr
        s, direction, to_end, from_start = where(d_here)
        x, y, ux, uy = path.point(s)
        # keep right of the direction of travel; fade across the path at turnarounds
        fade = min(1.0, min(to_end, from_start) / 8.0) if (to_end < 8 or from_start < 8) else 1.0
        if d_here <= 0.0 or d_here >= total:
            fade = 1.0
        off = keep_right * direction * fade
        x += uy * off          # (uy, -ux) is the right-hand normal of +s travel
        y += -ux * off
        ex, ey = noise.step()
        if rest_noise is not None:
            ex, ey = rest_noise
        x += ex + extra_xy[0]
        y += ey + extra_xy[1]
        lat, lon = frame.latlon(x, y)
        target = hr_fn(t, moving, v_here, s, resting)
        tau = 22.0 if target > hr else 30.0
        hr += (target - hr) * (1.0 - math.exp(-dt_s / tau))
        if v_here < 0.4:
            cad = 0
        else:
            cad = int(round(max(76.0, 84.0 + (v_here - 2.6) * 7.0) + rng.choice((-1, 0, 0, 1))))
            cad = min(cad, 90)
        pts.append({
            "lat": lat, "lon": lon, "t": t, "ele": ele_fn(s) + rng.gauss(0, 0.12),
            "hr": int(round(hr + rng.gauss(0, 0.6))), "cad": cad,
            "atemp": atemp_fn(t) if atemp_fn else 18.0, "v": v_here, "s": s,
        })
        return lat, lon

    emit(0.0, 0.0)
    while d < total - 1e-6:
        pace_wobble = 0.9 * pace_wobble + rng.gauss(0, 0.035)
        s_here = where(d)[0]
        target = speed_fn(d, s_here, total) + pace_wobble
        # slow for U-turns
        for td in turn_ds:
            gap = abs(td - d)
            if gap < 40:
                target = min(target, 1.5 + 0.045 * gap)
        # slow to a stop before stops / auto-pauses
        upcoming = [sd for sd, _ in stops + autos if sd > d - 1e-6]
        if upcoming:
            gap = min(upcoming) - d
            target = min(target, math.sqrt(2 * 0.55 * max(gap, 0.0)) + 0.25)
        target = min(target, total - d + 0.3)
        v = min(v + 0.55 * dt_s, target) if target > v else max(target, v - 1.0 * dt_s)
        v = max(v, 0.25)
        nd = d + v * dt_s
        t += dt_s
        moving += dt_s
        # stop events
        hit_stop = next((e for e in stops if d < e[0] <= nd), None)
        hit_auto = next((e for e in autos if d < e[0] <= nd), None)
        if hit_stop:
            d = hit_stop[0]
            emit(d, 0.6)
            v = 0.0
            spot_noise = noise.step()
            drift = [0.0, 0.0]
            for _ in range(int(hit_stop[1])):
                t += dt_s
                drift[0] = 0.9 * drift[0] + rng.gauss(0, 0.12)
                drift[1] = 0.9 * drift[1] + rng.gauss(0, 0.12)
                rx = max(-0.9, min(0.9, drift[0]))
                ry = max(-0.9, min(0.9, drift[1]))
                emit(d, 0.0, resting=True, rest_noise=(spot_noise[0] + rx, spot_noise[1] + ry))
            stops.remove(hit_stop)
            continue
        if hit_auto:
            d = hit_auto[0]
            emit(d, 0.3)
            # the watch auto-pauses: nothing is recorded, then it resumes where it stopped
            rest = hit_auto[1]
            for _ in range(int(rest)):
                target_hr = hr_fn(t, moving, 0.0, where(d)[0], True)
                hr += (target_hr - hr) * (1.0 - math.exp(-1.0 / 30.0))
            t += rest   # the next point is `rest` seconds after the last one
            v = 0.0
            # same spot, a few decimetres of drift
            noise.ex += rng.uniform(-0.3, 0.3)
            noise.ey += rng.uniform(-0.3, 0.3)
            emit(d + 0.2, 0.4)
            d += 0.2
            autos.remove(hit_auto)
            continue
        d = min(nd, total)
        extra = (0.0, 0.0)
        if not spike_done and d >= spike_d:
            s, direction, _, _ = where(d)
            _, _, ux, uy = path.point(s)
            m = events.get("spike_m", 60.0)
            extra = (-uy * m, ux * m)   # left of +s: the river side of the south bank
            spike_done = True
        emit(d, v, extra_xy=extra)
    return pts


def make_banpo():
    rng = random.Random(20250502)
    frame = LocalFrame(37.515, 127.0)
    path = Path(BANPO_PATH, frame)
    s_start = path.anchor_s[BANPO_FOUNTAIN] + 25.0
    s_west = path.anchor_s[BANPO_DONGJAK] - 150.0  # just past the bridge, 동작역 쪽
    target_total = 9990.0   # the spike and the GPS wobble add ~0.1 km on top
    east = (target_total - 2 * (s_start - s_west)) / 2
    s_east = s_start + east
    assert s_east < path.length - 20, (s_east, path.length)
    legs = [(s_start, s_east), (s_east, s_west), (s_west, s_start)]
    d_hannam = path.anchor_s[BANPO_HANNAM] - s_start + 6.0
    d_store = 2 * east + 45.0                  # passing the start going west: 편의점 (GS25) stop
    d_auto = 2 * east + (s_start - s_west) - 0.5  # just before the Dongjak turnaround

    def ele(s):
        return (14.2 + 1.3 * math.sin(2 * math.pi * s / 1750.0 + 0.4)
                + 0.7 * math.sin(2 * math.pi * s / 530.0 + 1.9)
                - 1.6 * math.exp(-((s - path.anchor_s[BANPO_FOUNTAIN]) / 60.0) ** 2)   # down to the fountain deck
                - 1.2 * math.exp(-((s - path.anchor_s[BANPO_HANNAM]) / 45.0) ** 2))    # under Hannam bridge

    def speed(d, s, total_):
        base = 3.02 + 0.08 * math.sin(d / 900.0)
        if d < 700:
            base = 2.65 + (base - 2.65) * d / 700.0   # warm-up
        if d > total_ - 1000:
            base += 0.28 * (d - (total_ - 1000)) / 1000.0  # last-km push
        return base

    def hr_fn(t, moving, v, s, resting):
        if resting:
            return 112.0
        effort = min(1.0, moving / 3300.0)
        return 121.0 + 44.0 * effort ** 0.85 + 14.0 * (max(v, 2.6) - 3.0) + (4.0 if moving > 3150 else 0.0)

    def atemp(t):
        return float(round(18.4 - 0.8 * t / 3600.0))

    start = dt.datetime(2025, 5, 2, 12, 4, 31, tzinfo=dt.timezone.utc)  # 21:04:31 KST
    pts = simulate_run(rng, path, legs,
                       {"spike_d": d_hannam, "spike_m": 60.0,
                        "stop": [(d_store, 90)], "autopause": [(d_auto, 60)]},
                       speed, ele, hr0=112.0, hr_fn=hr_fn, atemp_fn=atemp)

    name = "반포 한강공원 달빛 러닝 10K"
    desc = ("반포대교 달빛무지개분수에서 출발해 잠원한강공원까지 갔다가 서래섬·동작대교에서 "
            "반환하는 야간 10K (Banpo & Seorae riverside path, out and back). "
            "편의점 앞 90초 정지, 동작대교 아래 자동 일시정지, 한남대교 아래 GPS 튐 1회 포함. "
            "샘플 데이터 — scripts/make_samples.py가 생성, 실제 기록 아님.")
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="Forerunner 265" xmlns="http://www.topografix.com/GPX/1/1"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        ' xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"'
        ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd'
        ' http://www.garmin.com/xmlschemas/TrackPointExtension/v2'
        ' http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">',
        "  <metadata>",
        "    <name>%s</name>" % xml_text(name),
        "    <desc>%s</desc>" % xml_text(desc),
        "    <time>%s</time>" % utc_z(start),
        "  </metadata>",
        "  <trk>",
        "    <name>%s</name>" % xml_text(name),
        "    <type>running</type>",
        "    <trkseg>",
    ]
    for p in pts:
        t = start + dt.timedelta(seconds=p["t"])
        lines += [
            '      <trkpt lat="%s" lon="%s">' % (fmt_coord(p["lat"]), fmt_coord(p["lon"])),
            "        <ele>%.1f</ele>" % p["ele"],
            "        <time>%s</time>" % utc_z(t),
            "        <extensions>",
            "          <gpxtpx:TrackPointExtension>",
            "            <gpxtpx:atemp>%.1f</gpxtpx:atemp>" % p["atemp"],
            "            <gpxtpx:hr>%d</gpxtpx:hr>" % p["hr"],
            "            <gpxtpx:cad>%d</gpxtpx:cad>" % p["cad"],
            "          </gpxtpx:TrackPointExtension>",
            "        </extensions>",
            "      </trkpt>",
        ]
    lines += ["    </trkseg>", "  </trk>", "</gpx>", ""]
    write_text("banpo_hangang_night_run.gpx", "\n".join(lines))


# --------------------------------------------------------------------------
# 2. Namsan circular road, two segments (GPX 1.1, TrackPointExtension v1 as ns3:, +09:00 times)
# --------------------------------------------------------------------------

# Segment 1: 장충단공원 -> 국립극장 -> 남산공원길(남측 순환로) 오르막 -> N서울타워 동쪽 광장.
NAMSAN_SEG1 = [
    (37.55880, 127.00585, 58.0),   # 장충단공원
    (37.55700, 127.00520, 62.0),
    (37.55520, 127.00450, 71.0),
    (37.55360, 127.00380, 84.0),   # 국립극장 앞
    (37.55260, 127.00220, 94.0),   # 남산공원길 입구
    (37.55190, 127.00010, 106.0),
    (37.55080, 126.99850, 119.0),
    (37.54980, 126.99680, 131.0),
    (37.54920, 126.99480, 143.0),
    (37.54945, 126.99300, 156.0),  # 굽잇길
    (37.55030, 126.99180, 168.0),
    (37.54970, 126.99050, 181.0),
    (37.54900, 126.98920, 193.0),
    (37.54950, 126.98780, 206.0),
    (37.55030, 126.98700, 218.0),
    (37.55070, 126.98800, 228.0),
    (37.55085, 126.98930, 233.0),  # N서울타워 동쪽 광장 (버스 정류장)
]
# Segment 2: N서울타워 서쪽(팔각정) -> 남산도서관 -> 백범광장 -> 케이블카 -> 북측순환로 -> 국립극장.
NAMSAN_SEG2 = [
    (37.55140, 126.98770, 234.0),  # 팔각정 옆
    (37.55205, 126.98690, 230.0),
    (37.55160, 126.98590, 223.0),
    (37.55080, 126.98540, 214.0),
    (37.54990, 126.98500, 204.0),
    (37.54920, 126.98420, 194.0),
    (37.54900, 126.98310, 185.0),  # 남서쪽 굽잇길 (해방촌 위)
    (37.54900, 126.98190, 177.0),
    (37.54970, 126.98130, 169.0),
    (37.55060, 126.98180, 160.0),
    (37.55120, 126.98300, 151.0),
    (37.55180, 126.98420, 142.0),  # 되돌아 내려가는 굽잇길
    (37.55240, 126.98400, 133.0),
    (37.55250, 126.98300, 124.0),
    (37.55230, 126.98200, 115.0),
    (37.55280, 126.98120, 107.0),
    (37.55330, 126.98150, 101.0),  # 남산도서관 앞
    (37.55430, 126.98170, 97.0),
    (37.55530, 126.98220, 94.0),   # 백범광장
    (37.55620, 126.98300, 92.0),   # 한양도성 성곽길
    (37.55700, 126.98410, 88.0),
    (37.55740, 126.98520, 90.0),   # 남산케이블카 승강장 옆, 북측순환로 서쪽 입구
    (37.55700, 126.98670, 96.0),
    (37.55650, 126.98870, 100.0),
    (37.55600, 126.99070, 104.0),
    (37.55560, 126.99260, 106.0),
    (37.55570, 126.99460, 108.0),  # 남산골한옥마을 위
    (37.55530, 126.99650, 109.0),
    (37.55470, 126.99850, 107.0),
    (37.55430, 127.00020, 103.0),
    (37.55360, 127.00180, 97.0),
    (37.55330, 127.00300, 90.0),   # 국립극장 (finish)
]


def make_namsan():
    rng = random.Random(20250503)
    frame = LocalFrame(37.553, 126.994)
    tz = dt.timezone(dt.timedelta(hours=9))
    start = dt.datetime(2025, 5, 3, 6, 30, 0, 500000, tzinfo=tz)
    segments = []
    t_offset = 0.0
    hr_state = 108.0
    noise = GpsNoise(rng)
    info = {}
    moving_total = [0.0]
    for idx, anchors in enumerate((NAMSAN_SEG1, NAMSAN_SEG2)):
        path = Path([(a[0], a[1]) for a in anchors], frame)
        ele_s = smooth_profile(path, [a[2] for a in anchors], window=70.0)

        def grade(s, ele_s=ele_s, path=path):
            a, b = max(0.0, s - 15), min(path.length, s + 15)
            return (ele_s(b) - ele_s(a)) / max(1.0, b - a)

        def speed(d, s, total_, grade=grade):
            g = grade(s)
            v = 3.05 - 9.0 * g
            if idx == 0 and d < 400:
                v = min(v, 2.6 + d / 400.0 * 0.4)
            return max(2.05, min(3.45, v))

        base_moving = moving_total[0]

        def hr_fn(t, moving, v, s, resting, grade=grade, base_moving=base_moving):
            if resting:
                return 110.0
            warm = min(1.0, (moving + base_moving) / 900.0)
            return 118.0 + 22.0 * warm + 330.0 * max(-0.05, grade(s)) + 6.0 * (max(v, 2.2) - 2.8)

        def atemp(t):
            return 17.0 + (1.0 if (t + t_offset) > 1500 else 0.0)

        pts = simulate_run(rng, path, [(0.0, path.length)], {}, speed, ele_s,
                           hr0=hr_state, hr_fn=hr_fn, atemp_fn=atemp, noise=noise, keep_right=1.0)
        for p in pts:
            p["t"] += t_offset
        hr_state = max(112.0, pts[-1]["hr"] - 28.0)
        moving_total[0] += pts[-1]["t"] - pts[0]["t"]
        segments.append(pts)
        if idx == 0:
            t_offset = pts[-1]["t"] + 183.0   # watch paused ~3 minutes at the tower
            noise = GpsNoise(rng)
    info["gap_s"] = segments[1][0]["t"] - segments[0][-1]["t"]
    info["gap_m"] = haversine(segments[0][-1]["lat"], segments[0][-1]["lon"],
                              segments[1][0]["lat"], segments[1][0]["lon"])

    name = "남산 순환로 아침 러닝"
    desc = ("장충단공원 → 국립극장 → 남산공원길 오르막 → N서울타워 (사진 찍느라 일시정지) → "
            "남산도서관 → 백범광장 → 북측순환로 → 국립극장. Namsan circular road, two segments. "
            "샘플 데이터 — scripts/make_samples.py가 생성, 실제 기록 아님.")
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="Garmin Connect" xmlns="http://www.topografix.com/GPX/1/1"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        ' xmlns:ns2="http://www.garmin.com/xmlschemas/GpxExtensions/v3"'
        ' xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"'
        ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd'
        ' http://www.garmin.com/xmlschemas/GpxExtensions/v3 http://www.garmin.com/xmlschemas/GpxExtensionsv3.xsd'
        ' http://www.garmin.com/xmlschemas/TrackPointExtension/v1'
        ' http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd">',
        "  <metadata>",
        "    <name>%s</name>" % xml_text(name),
        "    <desc>%s</desc>" % xml_text(desc),
        "    <time>%s</time>" % kst_frac(start),
        "  </metadata>",
        "  <trk>",
        "    <name>%s</name>" % xml_text(name),
        "    <type>running</type>",
    ]
    for seg in segments:
        lines.append("    <trkseg>")
        for p in seg:
            t = start + dt.timedelta(seconds=p["t"])
            lines += [
                '      <trkpt lat="%s" lon="%s">' % (fmt_coord(p["lat"]), fmt_coord(p["lon"])),
                "        <ele>%.1f</ele>" % p["ele"],
                "        <time>%s</time>" % kst_frac(t),
                "        <extensions>",
                "          <ns3:TrackPointExtension>",
                "            <ns3:atemp>%.1f</ns3:atemp>" % p["atemp"],
                "            <ns3:hr>%d</ns3:hr>" % p["hr"],
                "            <ns3:cad>%d</ns3:cad>" % p["cad"],
                "          </ns3:TrackPointExtension>",
                "        </extensions>",
                "      </trkpt>",
            ]
        lines.append("    </trkseg>")
    lines += ["  </trk>", "</gpx>", ""]
    write_text("namsan_loop_two_segments.gpx", "\n".join(lines))
    return info


# --------------------------------------------------------------------------
# 3. Olympic Park perimeter, planned route (GPX 1.1 <rte> + two <wpt>)
# --------------------------------------------------------------------------

OLYMPIC_ROUTE = [
    (37.51860, 127.11480, "평화의 문 (World Peace Gate)"),
    (37.51745, 127.11430, "몽촌토성역 방면 입구"),
    (37.51625, 127.11500, "남서쪽 모퉁이"),
    (37.51555, 127.11700, "한성백제역 방면"),
    (37.51515, 127.11930, "남2문"),
    (37.51495, 127.12180, "남쪽 둘레길"),
    (37.51485, 127.12430, "남쪽 둘레길"),
    (37.51500, 127.12680, "남1문"),
    (37.51540, 127.12920, "남동쪽 모퉁이"),
    (37.51610, 127.13110, "동2문 (올림픽공원역)"),
    (37.51770, 127.13190, "동쪽 둘레길"),
    (37.51950, 127.13230, "동1문"),
    (37.52120, 127.13200, "동쪽 둘레길"),
    (37.52280, 127.13110, "북동쪽 모퉁이"),
    (37.52370, 127.12920, "북2문"),
    (37.52420, 127.12680, "북쪽 둘레길 (성내천)"),
    (37.52440, 127.12420, "북쪽 둘레길"),
    (37.52450, 127.12170, "북1문"),
    (37.52410, 127.11930, "북쪽 둘레길"),
    (37.52330, 127.11720, "북서쪽 모퉁이"),
    (37.52220, 127.11560, "서쪽 둘레길"),
    (37.52100, 127.11470, "서쪽 둘레길"),
    (37.51980, 127.11440, "평화의 광장"),
    (37.51905, 127.11455, "평화의 문 앞"),
    (37.51865, 127.11485, "평화의 문 (도착)"),
]
OLYMPIC_WPTS = [
    (37.51862, 127.11492, 32.0, "평화의 문", "출발 · World Peace Gate"),
    (37.52030, 127.11960, 44.0, "몽촌토성", "Mongchontoseong fortress, 둘레길 안쪽"),
]


def make_olympic():
    rng = random.Random(19880917)
    route = []
    for lat, lon, label in OLYMPIC_ROUTE:
        (la, lo), = jitter_taps([(lat, lon)], rng, metres=1.5)
        route.append((la, lo, label))
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="Runnect" xmlns="http://www.topografix.com/GPX/1/1"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
        "  <metadata>",
        "    <name>올림픽공원 둘레길</name>",
        "    <desc>%s</desc>" % xml_text(
            "평화의 문에서 시작해 올림픽공원 바깥 둘레를 시계 반대 방향으로 한 바퀴 도는 계획 코스 "
            "(Olympic Park perimeter, planned route — no times). 샘플 데이터."),
        "  </metadata>",
    ]
    for lat, lon, ele, nm, ds in OLYMPIC_WPTS:
        lines += [
            '  <wpt lat="%s" lon="%s">' % (fmt_coord(lat, 6), fmt_coord(lon, 6)),
            "    <ele>%.1f</ele>" % ele,
            "    <name>%s</name>" % xml_text(nm),
            "    <desc>%s</desc>" % xml_text(ds),
            "    <sym>Flag, Blue</sym>",
            "  </wpt>",
        ]
    lines += ["  <rte>", "    <name>올림픽공원 둘레길</name>"]
    for lat, lon, label in route:
        lines += [
            '    <rtept lat="%s" lon="%s">' % (fmt_coord(lat, 6), fmt_coord(lon, 6)),
            "      <name>%s</name>" % xml_text(label),
            "    </rtept>",
        ]
    lines += ["  </rte>", "</gpx>", ""]
    write_text("olympic_park_route.gpx", "\n".join(lines))


# --------------------------------------------------------------------------
# 4-6. Tapped courses (the service's JSON, [lat, lon] pairs, GeoJSON)
# --------------------------------------------------------------------------

# Around both lakes: 동호 (east) first, under 송파대로 (잠실호수교), then 서호 (west, 매직아일랜드).
SEOKCHON_TAPS = [
    (37.51030, 127.10420),  # 동호 북서, 잠실호수교 옆
    (37.51045, 127.10580),
    (37.51010, 127.10740),
    (37.50950, 127.10890),
    (37.50860, 127.11000),  # 동호 동쪽 끝
    (37.50770, 127.10980),
    (37.50720, 127.10850),
    (37.50740, 127.10680),
    (37.50800, 127.10530),
    (37.50870, 127.10400),  # 동호 남서, 다리 아래로
    (37.50860, 127.10260),  # 서호 남동
    (37.50800, 127.10120),
    (37.50750, 127.09950),
    (37.50760, 127.09770),
    (37.50840, 127.09650),  # 서호 서쪽 끝
    (37.50950, 127.09660),
    (37.51040, 127.09780),  # 매직아일랜드 북쪽, 롯데월드
    (37.51080, 127.09950),
    (37.51080, 127.10120),
    (37.51035, 127.10300),  # 다리 아래로, 출발점 옆
]

# Yeouido Hangang Park: riverside path east, park's inner path back west, riverside again.
YEOUIDO_TAPS = [
    (37.52890, 126.93300),  # 물빛광장 / 여의나루역 앞
    (37.52800, 126.93560),  # 마포대교 남단 아래
    (37.52680, 126.93850),
    (37.52570, 126.94080),  # 원효대교 방면 반환
    (37.52480, 126.94000),
    (37.52590, 126.93770),
    (37.52710, 126.93480),
    (37.52840, 126.93180),
    (37.52970, 126.92900),
    (37.53120, 126.92620),  # 서강대교 방면
    (37.53220, 126.92680),
    (37.52935, 126.93215),  # 출발점 옆으로 돌아옴
]

# Cheonggyecheon from 청계광장 east along the stream-side walk.
CHEONGGYE_TAPS = [
    (37.56925, 126.97810),  # 청계광장
    (37.56915, 126.97960),  # 모전교
    (37.56905, 126.98170),  # 광교
    (37.56885, 126.98430),  # 장통교
    (37.56880, 126.98650),  # 삼일교 부근
    (37.56890, 126.99150),  # 세운교
    (37.56960, 126.99650),  # 배오개다리 (광장시장)
    (37.56970, 127.00250),  # 마전교
    (37.56905, 127.00730),  # 오간수교 (동대문)
    (37.56940, 127.01120),  # 맑은내다리
    (37.57010, 127.01550),  # 영도교
    (37.57080, 127.01950),  # 황학교
    (37.57155, 127.02320),  # 비우당교
    (37.57100, 127.02700),  # 무학교
    (37.56980, 127.03060),  # 두물다리
]


def make_tapped():
    rng = random.Random(20250405)
    seok = jitter_taps(SEOKCHON_TAPS, rng)
    write_text("seokchon_lake_tapped.json",
               json_dump([{"latitude": la, "longitude": lo} for la, lo in seok]))
    yeo = jitter_taps(YEOUIDO_TAPS, rng)
    write_text("yeouido_tapped_pairs.json", json_dump([[la, lo] for la, lo in yeo]))
    cg = jitter_taps(CHEONGGYE_TAPS, rng)
    feature = {
        "type": "Feature",
        "properties": {"title": "청계천 따라 달리기", "departure": "서울 중구 태평로1가 청계광장"},
        "geometry": {"type": "LineString", "coordinates": [[lo, la] for la, lo in cg]},
    }
    write_text("cheonggyecheon_tapped.geojson", json_dump(feature))


# --------------------------------------------------------------------------
# 7. Gyeongui Line Forest Park, GPX 1.0 with <speed>/<course>, 2 s recording
# --------------------------------------------------------------------------

GYEONGUI_PATH = [
    (37.56400, 126.91950, 31.0),  # 연남동 구간 북쪽 (가좌 방면)
    (37.56280, 126.92050, 30.0),
    (37.56150, 126.92180, 29.0),
    (37.55920, 126.92360, 27.0),
    (37.55780, 126.92500, 26.0),  # 홍대입구역 3번 출구
    (37.55580, 126.92750, 27.0),  # 와우교 아래
    (37.55400, 126.93050, 25.0),
    (37.55230, 126.93480, 23.0),  # 서강대역
    (37.55050, 126.93780, 22.0),
    (37.54900, 126.94000, 21.0),
    (37.54780, 126.94220, 20.0),  # 대흥역
    (37.54650, 126.94480, 19.0),  # 염리동 구간 (공덕 방면)
]


def make_gyeongui():
    rng = random.Random(20250413)
    frame = LocalFrame(37.556, 126.930)
    path = Path([(a[0], a[1]) for a in GYEONGUI_PATH], frame)
    ele_s = smooth_profile(path, [a[2] for a in GYEONGUI_PATH], window=120.0)
    s_hongik = path.anchor_s[4]

    def speed(d, s, total_):
        if d < 120:
            return 1.45                        # walking out of the alley
        if s_hongik - 40 < s < s_hongik + 90:
            return 1.35                        # crowd and the crossing at 홍대입구역
        return 2.75 + 0.1 * math.sin(d / 400.0)

    def hr_fn(t, moving, v, s, resting):
        return 100.0 + 45.0 * min(1.0, moving / 900.0) * (1.0 if v > 2 else 0.6)

    start = dt.datetime(2025, 4, 12, 22, 10, 5, tzinfo=dt.timezone.utc)  # 07:10 KST, Sunday
    pts = simulate_run(rng, path, [(0.0, path.length)], {}, speed, ele_s, dt_s=2.0,
                       hr0=95.0, hr_fn=hr_fn, keep_right=1.0)
    lats = [p["lat"] for p in pts]
    lons = [p["lon"] for p in pts]
    name = "경의선숲길 아침 산책런"
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.0" creator="GPSLogger for Android"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        ' xmlns="http://www.topografix.com/GPX/1/0"'
        ' xsi:schemaLocation="http://www.topografix.com/GPX/1/0 http://www.topografix.com/GPX/1/0/gpx.xsd">',
        "  <name>%s</name>" % xml_text(name),
        "  <desc>%s</desc>" % xml_text(
            "연남동 → 홍대입구역 → 서강대역 → 대흥역 → 염리동, 경의선숲길 (Gyeongui Line Forest Park) 3 km. "
            "샘플 데이터 — scripts/make_samples.py가 생성, 실제 기록 아님."),
        "  <time>%s</time>" % utc_z(start),
        '  <bounds minlat="%s" minlon="%s" maxlat="%s" maxlon="%s"/>' % (
            fmt_coord(min(lats), 6), fmt_coord(min(lons), 6), fmt_coord(max(lats), 6), fmt_coord(max(lons), 6)),
        "  <trk>",
        "    <name>%s</name>" % xml_text(name),
        "    <trkseg>",
    ]
    for i, p in enumerate(pts):
        t = start + dt.timedelta(seconds=p["t"])
        j0, j1 = max(0, i - 1), min(len(pts) - 1, i + 1)
        crs = bearing(pts[j0]["lat"], pts[j0]["lon"], pts[j1]["lat"], pts[j1]["lon"])
        spd = max(0.0, p["v"] + rng.gauss(0, 0.12)) if i else 0.0
        lines += [
            '      <trkpt lat="%s" lon="%s">' % (fmt_coord(p["lat"], 7), fmt_coord(p["lon"], 7)),
            "        <ele>%.1f</ele>" % p["ele"],
            "        <time>%s</time>" % utc_z(t),
            "        <course>%.1f</course>" % crs,
            "        <speed>%.2f</speed>" % spd,
            "      </trkpt>",
        ]
    lines += ["    </trkseg>", "  </trk>", "</gpx>", ""]
    write_text("gyeongui_line_forest_gpx10.gpx", "\n".join(lines))


# --------------------------------------------------------------------------
# README and validation
# --------------------------------------------------------------------------

README = """# SampleTracks

The project's own sample courses in Seoul, generated by `scripts/make_samples.py`
(`python3 scripts/make_samples.py`; standard library only, seeded, byte-identical on every run).

The coordinates are hand-placed anchor points along real paths (Han river parks, Namsan,
Olympic Park, Seokchon Lake, Cheonggyecheon, Gyeongui Line Forest Park), densified along a
smooth curve with seeded GPS noise (about ±1.5 m), a plausible elevation profile and simulated
heart rate / cadence / temperature. The anchors are approximate (tens of metres), and none of
these files is a recording of a real person.

| File | Course | What it exercises | Points | Approx. distance |
|------|--------|-------------------|-------:|-----------------:|
{rows}

Recorded runs, as measured by the generator's own check:

{details}

Distances above are the generator's spherical (haversine) sanity numbers over the raw points,
spike and noise included; the project itself measures with exact geodesics.
"""

EXERCISES = {
    "banpo_hangang_night_run.gpx":
        "GPX 1.1 like a Garmin watch, one `<trkseg>`, 1 Hz UTC `Z` times, Garmin TrackPointExtension v2 "
        "(`gpxtpx:` atemp/hr/cad); a 90 s standing stop (1 Hz points within ~2 m), a 60 s auto-pause "
        "time gap, one ~60 m GPS spike under Hannam bridge; XML escaping (`&amp;` in `<desc>`)",
    "namsan_loop_two_segments.gpx":
        "GPX 1.1 with TWO `<trkseg>` (~3 min / ~150 m watch pause at N Seoul Tower), TrackPointExtension v1 "
        "under the `ns3:` prefix, `+09:00` times with milliseconds, a 60 m → 240 m climb",
    "olympic_park_route.gpx":
        "GPX 1.1 planned course: `<rte>`/`<rtept>` with names and no times, plus two `<wpt>` (평화의 문, 몽촌토성)",
    "seokchon_lake_tapped.json":
        "the service's tapped-course JSON `[{\"latitude\": …, \"longitude\": …}]`, a loop around both lakes",
    "yeouido_tapped_pairs.json":
        "tapped points as `[[lat, lon], …]` pairs",
    "cheonggyecheon_tapped.geojson":
        "GeoJSON (RFC 7946) `Feature` + `LineString` in `[lon, lat]` order, `title`/`departure` properties",
    "gyeongui_line_forest_gpx10.gpx":
        "GPX 1.0 (`<name>`/`<time>` under `<gpx>`, `<bounds>`), `<course>`/`<speed>` per point, 2 s recording, no extensions",
}

COURSES = {
    "banpo_hangang_night_run.gpx": "반포 한강공원 달빛 러닝 10K — Banpo/Seorae riverside path, out and back",
    "namsan_loop_two_segments.gpx": "남산 순환로 — 장충단공원 → N서울타워 → 남산도서관 → 북측순환로 → 국립극장",
    "olympic_park_route.gpx": "올림픽공원 둘레길 (planned)",
    "seokchon_lake_tapped.json": "석촌호수 동호 + 서호 (tapped)",
    "yeouido_tapped_pairs.json": "여의도 한강공원 (tapped)",
    "cheonggyecheon_tapped.geojson": "청계천 따라 달리기 — 청계광장 → 두물다리 (tapped)",
    "gyeongui_line_forest_gpx10.gpx": "경의선숲길 — 연남동 → 홍대입구 → 대흥",
}

ORDER = [
    "banpo_hangang_night_run.gpx",
    "namsan_loop_two_segments.gpx",
    "olympic_park_route.gpx",
    "seokchon_lake_tapped.json",
    "yeouido_tapped_pairs.json",
    "cheonggyecheon_tapped.geojson",
    "gyeongui_line_forest_gpx10.gpx",
]

# (min points, max points, min metres, max metres)
TARGETS = {
    "banpo_hangang_night_run.gpx": (3000, 4200, 9700, 10600),
    "namsan_loop_two_segments.gpx": (1800, 3200, 6000, 7000),
    "olympic_park_route.gpx": (22, 28, 4200, 4900),
    "seokchon_lake_tapped.json": (18, 22, 2500, 3000),
    "yeouido_tapped_pairs.json": (10, 14, 2000, 3500),
    "cheonggyecheon_tapped.geojson": (13, 17, 4000, 5000),
    "gyeongui_line_forest_gpx10.gpx": (400, 800, 2700, 3300),
}


def parse_time(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def load(name):
    """-> dict(points=[(lat, lon, time|None)], segments=[[...]], extra=...)"""
    path = os.path.join(OUT, name)
    with open(path, "rb") as fh:
        raw = fh.read()
    assert not raw.startswith(b"\xef\xbb\xbf"), name + ": BOM"
    assert b"\r" not in raw, name + ": CR line endings"
    raw.decode("utf-8")
    if name.endswith(".gpx"):
        root = ET.fromstring(raw)
        ns = root.tag[1:].split("}")[0]
        q = lambda tag: "{%s}%s" % (ns, tag)
        segs = []
        for seg in root.iter(q("trkseg")):
            pts = []
            for p in seg.findall(q("trkpt")):
                tm = p.find(q("time"))
                pts.append((float(p.get("lat")), float(p.get("lon")), parse_time(tm.text) if tm is not None else None, p))
            segs.append(pts)
        if not segs:
            pts = [(float(p.get("lat")), float(p.get("lon")), None, p) for p in root.iter(q("rtept"))]
            segs = [pts]
        return {"segments": segs, "root": root, "ns": ns}
    data = json.loads(raw.decode("utf-8"))
    if name.endswith(".geojson"):
        assert data["type"] == "Feature" and data["geometry"]["type"] == "LineString"
        pts = [(c[1], c[0], None, None) for c in data["geometry"]["coordinates"]]
    elif isinstance(data[0], dict):
        pts = [(o["latitude"], o["longitude"], None, None) for o in data]
    else:
        pts = [(a[0], a[1], None, None) for a in data]
    return {"segments": [pts], "data": data}


def describe_recorded(name, segs):
    """Durations, stops, gaps and speed extremes of a recorded file."""
    out = []
    allp = [p for s in segs for p in s]
    t0, t1 = allp[0][2], allp[-1][2]
    out.append("elapsed %s" % (t1 - t0))
    # timer (moving-clock) time: sum of in-segment intervals <= 10 s
    timer = 0.0
    gaps = []
    for s in segs:
        for a, b in zip(s, s[1:]):
            d = (b[2] - a[2]).total_seconds()
            if d <= 10:
                timer += d
            else:
                gaps.append((a, b, d))
    out.append("time without gaps > 10 s %s" % dt.timedelta(seconds=round(timer)))
    for a, b, d in gaps:
        out.append("in-segment time gap %.0f s, moved %.2f m (at %s)" % (
            d, haversine(a[0], a[1], b[0], b[1]), a[2].isoformat()))
    for s1, s2 in zip(segs, segs[1:]):
        a, b = s1[-1], s2[0]
        out.append("between segments: %.1f s, %.0f m" % ((b[2] - a[2]).total_seconds(),
                                                         haversine(a[0], a[1], b[0], b[1])))
    # standing still: >= 60 consecutive 1 Hz points within 2 m of their first point
    for s in segs:
        i = 0
        while i < len(s):
            j = i
            while j + 1 < len(s) and haversine(s[i][0], s[i][1], s[j + 1][0], s[j + 1][1]) <= 2.0 \
                    and (s[j + 1][2] - s[j][2]).total_seconds() <= 2:
                j += 1
            if (s[j][2] - s[i][2]).total_seconds() >= 60:
                out.append("standing stop %.0f s (%d points within 2 m) at %s" % (
                    (s[j][2] - s[i][2]).total_seconds(), j - i + 1, s[i][2].isoformat()))
                i = j + 1
            else:
                i += 1
    speeds = []
    for s in segs:
        for a, b in zip(s, s[1:]):
            d = (b[2] - a[2]).total_seconds()
            if 0 < d <= 10:
                speeds.append(haversine(a[0], a[1], b[0], b[1]) / d)
    srt = sorted(speeds)
    out.append("raw max speed %.1f m/s, 99th pct %.2f m/s, median %.2f m/s" % (
        srt[-1], srt[int(0.99 * (len(srt) - 1))], srt[len(srt) // 2]))
    return out


def validate():
    ok = True
    rows = []
    details = []
    for name in ORDER:
        info = load(name)
        segs = info["segments"]
        n = sum(len(s) for s in segs)
        length = sum(polyline_length([(p[0], p[1]) for p in s]) for s in segs)
        lo_n, hi_n, lo_m, hi_m = TARGETS[name]
        good = lo_n <= n <= hi_n and lo_m <= length <= hi_m
        for s in segs:
            for p in s:
                if not (37.4 < p[0] < 37.7 and 126.8 < p[1] < 127.2):
                    good = False
        size = os.path.getsize(os.path.join(OUT, name))
        if size > 1_500_000:
            good = False
        ok &= good
        print("%-34s %5d points %6.2f km %8d bytes  %s" % (name, n, length / 1000, size, "ok" if good else "OUT OF TARGET"))
        if segs[0] and segs[0][0][2] is not None:
            lines = describe_recorded(name, segs)
            details.append("- `%s`: %s" % (name, "; ".join(lines)))
            for line in lines:
                print("    " + line)
            hrs = [int(e.text) for e in info["root"].iter() if e.tag.endswith("}hr")]
            cads = [int(e.text) for e in info["root"].iter() if e.tag.endswith("}cad")]
            eles = [float(p[3].find("{%s}ele" % info["ns"]).text) for s in segs for p in s]
            if hrs:
                moving_cad = [c for c in cads if c > 0]
                print("    hr %d..%d, cadence %d..%d (moving median %d), ele %.1f..%.1f m" % (
                    min(hrs), max(hrs), min(moving_cad), max(moving_cad),
                    sorted(moving_cad)[len(moving_cad) // 2], min(eles), max(eles)))
            else:
                print("    ele %.1f..%.1f m" % (min(eles), max(eles)))
        rows.append("| `%s` | %s | %s | %d | %.1f km |" % (name, COURSES[name], EXERCISES[name], n, length / 1000))
    return ok, rows, details


def main():
    if "--check" not in sys.argv[1:]:
        os.makedirs(OUT, exist_ok=True)
        make_banpo()
        make_namsan()
        make_olympic()
        make_tapped()
        make_gyeongui()
    ok, rows, details = validate()
    if "--check" not in sys.argv[1:]:
        write_text("README.md", README.replace("{rows}", "\n".join(rows)).replace("{details}", "\n".join(details)))
    if not ok:
        print("some samples are out of their target ranges", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
