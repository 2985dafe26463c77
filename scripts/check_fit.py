#!/usr/bin/env python3
"""Independent reading of `runnect export fit` output with fitparse (run by the Swift tests).

    check_fit.py FILE.fit...

Decodes each file with python-fitparse, CRCs checked (the header's and the file's: a mismatch is
an error), and prints one JSON object per file:
  {"file", "file_type", "counts": {message name: count}, "records", "records_with_position",
   "first": [lat_semicircles, lon_semicircles], "last": [...], "course_name",
   "course_points": [names], "lap_distances_m", "session_distance_m", "event_types"}
Exits 1 with the reason on the first file fitparse refuses.
"""
import json
import sys
from collections import Counter

import fitparse


def check(path):
    fit = fitparse.FitFile(path, check_crc=True)
    counts = Counter()
    summary = {"file": path, "records": 0, "records_with_position": 0, "first": None, "last": None,
               "course_name": None, "course_points": [], "lap_distances_m": [],
               "session_distance_m": None, "event_types": [], "file_type": None}
    for message in fit.get_messages():
        counts[message.name] += 1
        values = message.get_values()
        if message.name == "file_id":
            summary["file_type"] = values.get("type")
        elif message.name == "course":
            summary["course_name"] = values.get("name")
        elif message.name == "course_point":
            summary["course_points"].append(values.get("name"))
        elif message.name == "lap":
            summary["lap_distances_m"].append(values.get("total_distance"))
        elif message.name == "session":
            summary["session_distance_m"] = values.get("total_distance")
        elif message.name == "event":
            summary["event_types"].append(values.get("event_type"))
        elif message.name == "record":
            summary["records"] += 1
            lat, lon = values.get("position_lat"), values.get("position_long")
            if lat is not None and lon is not None:
                summary["records_with_position"] += 1
                if summary["first"] is None:
                    summary["first"] = [lat, lon]
                summary["last"] = [lat, lon]
    summary["counts"] = dict(counts)
    return summary


def main():
    for path in sys.argv[1:]:
        try:
            summary = check(path)
        except Exception as error:  # fitparse's FitParseError, FitCRCError, FitEOFError
            print(f"check_fit: FAIL: {path}: {type(error).__name__}: {error}", file=sys.stderr)
            sys.exit(1)
        print(json.dumps(summary, sort_keys=True, default=str))


if __name__ == "__main__":
    main()
