#!/usr/bin/env python3
"""Independent check of `runnect export geojson` output (run by Tests/RunnectCLITests/ExportCommandTests).

    check_geojson.py OUTPUT.geojson [--input FILE]... [--simplify METRES]

Reads OUTPUT with the `geojson` package (validity) and `shapely` (geometry validity, coordinates,
Hausdorff distance), and each --input file on its own (GPX with xml.etree, tapped points and
GeoJSON with json), in the order the features come:
  * every geometry is valid for geojson and shapely, lines never jump across ±180°;
  * without --simplify: the exported positions are exactly the input's (points inserted at ±180°
    where a line is cut are left out of the comparison), elevations too (to the millimetre);
  * with --simplify: first and last points kept, every input point lies within METRES of the
    exported line (Hausdorff distance in a local equirectangular projection, 1 % slack);
  * the haversine length of the exported line agrees with properties.distance_m (runnect's WGS84
    geodesic) within 0.6 % (sphere against ellipsoid) when nothing was simplified.
Prints one line per feature checked; exits 1 with the reasons on the first failure.
"""
import argparse
import json
import math
import sys
import xml.etree.ElementTree as ET

import geojson
import shapely
from shapely.geometry import LineString, MultiLineString, shape

R = 6371008.8


def fail(message):
    print(f"check_geojson: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def read_input(path):
    """The input's segments as lists of (lon, lat, ele|None), read without runnect."""
    with open(path, "rb") as f:
        data = f.read()
    text = data.lstrip()
    if text.startswith(b"<"):
        root = ET.fromstring(data)
        ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""

        def points(parent, tag):
            out = []
            for p in parent.iter(ns + tag):
                ele = p.find(ns + "ele")
                out.append((float(p.get("lon")), float(p.get("lat")),
                            float(ele.text) if ele is not None else None))
            return out

        segments = [points(seg, "trkpt") for seg in root.iter(ns + "trkseg")]
        segments = [s for s in segments if s]
        if not segments:
            segments = [s for s in (points(rte, "rtept") for rte in root.iter(ns + "rte")) if s]
        return segments
    doc = json.loads(data)
    if isinstance(doc, dict):  # GeoJSON
        if doc.get("type") == "FeatureCollection":
            doc = doc["features"][0]
        if doc.get("type") == "Feature":
            doc = doc["geometry"]
        return [[(c[0], c[1], c[2] if len(c) > 2 else None) for c in doc["coordinates"]]]
    if doc and isinstance(doc[0], dict):
        return [[(p["longitude"], p["latitude"], None) for p in doc]]
    return [[(p[1], p[0], None) for p in doc]]


def haversine(a, b):
    la1, la2 = math.radians(a[1]), math.radians(b[1])
    dl = math.radians(b[0] - a[0])
    if dl > math.pi:
        dl -= 2 * math.pi
    elif dl < -math.pi:
        dl += 2 * math.pi
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def lines_of(geometry):
    if geometry["type"] == "LineString":
        return [geometry["coordinates"]]
    if geometry["type"] == "MultiLineString":
        return geometry["coordinates"]
    return []


def check_feature(feature, source, tolerance):
    geometry = feature["geometry"]
    obj = geojson.loads(json.dumps(geometry))
    if not obj.is_valid:
        fail(f"{source}: geojson says invalid: {obj.errors()}")
    geom = shape(geometry)
    if not geom.is_valid:
        fail(f"{source}: shapely says invalid: {shapely.is_valid_reason(geom)}")
    lines = lines_of(geometry)
    expected_type = LineString if len(lines) == 1 else MultiLineString
    if not isinstance(geom, expected_type):
        fail(f"{source}: shapely read {geom.geom_type}")
    # shapely hands back exactly the coordinates written
    shapely_lines = [geom] if isinstance(geom, LineString) else list(geom.geoms)
    for written, read in zip(lines, shapely_lines):
        if [tuple(c) for c in written] != [tuple(c) for c in read.coords]:
            fail(f"{source}: shapely's coordinates differ from the text")
    for line in lines:
        for a, b in zip(line, line[1:]):
            if abs(b[0] - a[0]) > 180:
                fail(f"{source}: a line jumps across ±180° ({a} -> {b})")

    segments = read_input(source)
    exported = [c for line in lines for c in line]
    # Points inserted where a line is cut at ±180° are not in the input.
    cut = set()
    for i, line in enumerate(lines[:-1]):
        nxt = lines[i + 1]
        if abs(line[-1][0]) == 180 and abs(nxt[0][0]) == 180 and line[-1][1] == nxt[0][1]:
            cut.add(id(line[-1]))
            cut.add(id(nxt[0]))
    original = [c for c in exported if id(c) not in cut]
    inputs = [p for seg in segments for p in seg]
    has_ele = all(len(c) == 3 for c in exported)

    if tolerance is None:
        want = [(p[0], p[1]) for p in inputs]
        got = [(c[0], c[1]) for c in original]
        if want != got:
            first = next((i for i, (w, g) in enumerate(zip(want, got)) if w != g), min(len(want), len(got)))
            fail(f"{source}: positions differ from the input ({len(got)} vs {len(want)}; first at {first})")
        if has_ele:
            for p, c in zip(inputs, original):
                if abs(round(p[2], 3) - c[2]) > 1e-9:
                    fail(f"{source}: elevation {c[2]} where the input has {p[2]}")
        length = sum(haversine(a, b) for line in lines for a, b in zip(line, line[1:]))
        distance = feature["properties"]["distance_m"]
        if abs(length - distance) > 0.006 * distance + 0.01:
            fail(f"{source}: haversine length {length:.1f} m, properties say {distance} m")
        print(f"ok {source}: {geom.geom_type}, {len(original)} positions equal to the input, "
              f"length {length:.1f} m vs distance_m {distance} m")
        return

    # Simplified: ends kept, every input point within the tolerance of the exported line.
    if (original[0][0], original[0][1]) != inputs[0][:2] or (original[-1][0], original[-1][1]) != inputs[-1][:2]:
        fail(f"{source}: first or last point not kept")
    lat0 = math.radians(sum(p[1] for p in inputs) / len(inputs))

    def project(lon, lat):
        return (math.radians(lon) * R * math.cos(lat0), math.radians(lat) * R)

    worst = 0.0
    for seg in segments:
        # the exported line nearest this segment (segments are simplified each on its own)
        seg_line = LineString([project(p[0], p[1]) for p in seg]) if len(seg) > 1 else None
        if seg_line is None:
            continue
        candidates = [LineString([project(c[0], c[1]) for c in line]) for line in lines]
        distance = min(seg_line.hausdorff_distance(c) for c in candidates)
        worst = max(worst, distance)
    if worst > tolerance * 1.01 + 1e-6:
        fail(f"{source}: an input point lies {worst:.3f} m from the simplified line (tolerance {tolerance} m)")
    print(f"ok {source}: simplified to {len(original)} of {len(inputs)} points, "
          f"Hausdorff {worst:.3f} m <= {tolerance} m")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--simplify", type=float)
    args = parser.parse_args()
    with open(args.output) as f:
        doc = json.load(f)
    obj = geojson.loads(json.dumps(doc))
    if not obj.is_valid:
        fail(f"document invalid for geojson: {obj.errors()}")
    features = doc["features"] if doc["type"] == "FeatureCollection" else [doc]
    lines = [f for f in features if f["geometry"] and f["geometry"]["type"] != "Point"]
    if len(lines) != len(args.input):
        fail(f"{len(lines)} line features for {len(args.input)} inputs")
    for feature, source in zip(lines, args.input):
        check_feature(feature, source, args.simplify)


if __name__ == "__main__":
    main()
