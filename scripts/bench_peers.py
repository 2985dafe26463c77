#!/usr/bin/env python3
"""Helper for scripts/bench.sh: workload files, peer runs, timing/peak-RSS and the results table.

  bench_peers.py workload SHARED OUTDIR POINTS     make OUTDIR/big.gpx (reused when its stamp,
                                                   size and sha256 still match); prints its path
  bench_peers.py measure [--set K=V]... -- CMD...  run CMD once under /usr/bin/time -v (when
                                                   present); CMD's last stdout line is a JSON
                                                   object, printed back with wall time, peak RSS
                                                   and the K=V fields added
  bench_peers.py gpxpy FILE [--repeat N]           gpxpy parse + length_2d + get_moving_data +
                                                   get_uphill_downhill + get_bounds, each run a
                                                   fresh process, best of N; one JSON line
  bench_peers.py gpsbabel FILE [--repeat N]        gpsbabel -i gpx -f FILE -o geojson -F /dev/null
  bench_peers.py runnect-stats BIN FILE [--repeat N]
                                                   BIN stats --json FILE, each run a fresh process,
                                                   best of N (process wall time); one JSON line
  bench_peers.py cpubusy [SECONDS]                 share of all cores busy over SECONDS (default 1)
  bench_peers.py table JSONL [--machine LINE]...   markdown table of the JSON lines in JSONL

Peak RSS: /usr/bin/time -v's "Maximum resident set size" when /usr/bin/time exists, else the
child's own rusage from os.wait4 (the per-child form of getrusage(RUSAGE_CHILDREN)).
Only the standard library is used here; gpxpy is imported in the child process only.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

TIME_BIN = "/usr/bin/time"

# big.gpx as gen_workloads.py wrote it when the table in PEERS.md and runnect's commit
# messages were measured. A different file (another generator version) is still benchmarked,
# but its figures are not comparable with those, so the script says so.
REFERENCE = {
    200_000: (70_022_299, "6176fb178b9efd94ef1fa341d01b72a8b223d780d4621a8948c901b8eeb68703"),
    20_000: (7_000_095, "dce1cc6186d4e71befbd4355acff3b731897fb93a6f1b628f97844d4e612eaf2"),
}


def log(message):
    print(message, file=sys.stderr, flush=True)


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def stamp_path(gpx):
    return gpx + ".stamp.json"


# ----------------------------------------------------------------------------------------------
# workload
# ----------------------------------------------------------------------------------------------

def cmd_workload(args):
    generator = os.path.join(args.shared, "bench", "gen_workloads.py")
    if not os.path.isfile(generator):
        log("bench: %s not found" % generator)
        return 2
    os.makedirs(args.outdir, exist_ok=True)
    gpx = os.path.join(args.outdir, "big.gpx")
    generator_sha = sha256_file(generator)

    stamp = None
    try:
        with open(stamp_path(gpx)) as handle:
            stamp = json.load(handle)
    except (OSError, ValueError):
        pass
    if (stamp and os.path.isfile(gpx) and stamp.get("points") == args.points
            and stamp.get("generator_sha256") == generator_sha
            and os.path.getsize(gpx) == stamp.get("bytes")):
        actual = sha256_file(gpx)
        if actual == stamp.get("sha256"):
            log("workload: reusing %s (%d points, %.1f MB, sha256 %s… ok)"
                % (gpx, args.points, stamp["bytes"] / 1e6, actual[:16]))
            check_reference(args.points, stamp["bytes"], actual)
            print(gpx)
            return 0
        log("workload: %s has the right size but sha256 %s… != %s…; regenerating"
            % (gpx, actual[:16], stamp["sha256"][:16]))
    elif os.path.exists(gpx):
        log("workload: %s is stale or has no valid stamp; regenerating" % gpx)

    sys.path.insert(0, os.path.dirname(generator))
    sys.dont_write_bytecode = True  # leave no __pycache__ in shared/
    import gen_workloads  # noqa: E402  (found through SHARED)

    log("workload: generating %s (%d points)…" % (gpx, args.points))
    started = time.monotonic()
    if os.path.exists(stamp_path(gpx)):
        os.remove(stamp_path(gpx))
    record = gen_workloads.gen_big(args.outdir, args.points)  # returns the sha256 it recomputed
    size = os.path.getsize(gpx)
    if size != record["bytes"]:
        log("workload: %s is %d bytes, generator said %d" % (gpx, size, record["bytes"]))
        return 1
    record.update({"points": args.points, "generator_sha256": generator_sha})
    with open(stamp_path(gpx), "w") as handle:
        json.dump(record, handle, indent=1)
        handle.write("\n")
    log("workload: wrote %s: %.1f MB, %d points, sha256 %s… in %.1f s"
        % (gpx, size / 1e6, args.points, record["sha256"][:16], time.monotonic() - started))
    check_reference(args.points, size, record["sha256"])
    print(gpx)
    return 0


def check_reference(points, size, sha):
    reference = REFERENCE.get(points)
    if reference and reference != (size, sha):
        log("workload: WARNING: this big.gpx (%d bytes, sha256 %s…) differs from the reference "
            "file (%d bytes, sha256 %s…); figures are not comparable with earlier ones"
            % (size, sha[:16], reference[0], reference[1][:16]))


def workload_points(gpx):
    try:
        with open(stamp_path(gpx)) as handle:
            return int(json.load(handle)["points"])
    except (OSError, ValueError, KeyError):
        with open(gpx, "rb") as handle:
            return handle.read().count(b"<trkpt ")


# ----------------------------------------------------------------------------------------------
# running one process with wall time and peak RSS
# ----------------------------------------------------------------------------------------------

def run_measured(argv, capture_stdout=True):
    """Runs argv once. Returns (exit code, stdout text, wall seconds, peak RSS MiB, rss source,
    wait4 peak RSS MiB). Its stderr passes through."""
    report = None
    command = list(argv)
    if os.access(TIME_BIN, os.X_OK):
        handle, report = tempfile.mkstemp(prefix="bench-time-", suffix=".txt")
        os.close(handle)
        command = [TIME_BIN, "-v", "-o", report] + command
    stdout_file = tempfile.TemporaryFile() if capture_stdout else subprocess.DEVNULL
    try:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=stdout_file)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        text = ""
        if capture_stdout:
            stdout_file.seek(0)
            text = stdout_file.read().decode("utf-8", "replace")
        wait4_mib = usage.ru_maxrss / 1024  # KiB on Linux; includes /usr/bin/time's child
        rss, source = wait4_mib, "wait4"
        if report:
            with open(report) as handle:
                found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", handle.read())
            if found:
                rss, source = int(found.group(1)) / 1024, "/usr/bin/time -v"
        return process.returncode, text, wall, rss, source, wait4_mib
    finally:
        if capture_stdout:
            stdout_file.close()
        if report:
            os.remove(report)


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in output: %r" % text[-300:])


def emit(record):
    print(json.dumps(record, separators=(",", ":")), flush=True)


def cmd_measure(args):
    argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    if not argv:
        log("measure: no command")
        return 64
    code, text, wall, rss, source, wait4_mib = run_measured(argv)
    if code != 0:
        log("measure: %s exited with %d" % (argv[0], code))
        return 1
    record = last_json(text)
    for assignment in args.set:
        key, _, value = assignment.partition("=")
        record[key] = int(value) if value.isdigit() else value
    record.update({"process_seconds": round(wall, 3), "max_rss_mib": round(rss, 3),
                   "max_rss_source": source, "max_rss_mib_wait4": round(wait4_mib, 3)})
    own = record.get("peak_rss_mib")
    if own and abs(own - rss) > max(2.0, 0.05 * rss):
        log("measure: note: the process says peak %.1f MiB, %s says %.1f MiB" % (own, source, rss))
    emit(record)
    return 0


# ----------------------------------------------------------------------------------------------
# peers
# ----------------------------------------------------------------------------------------------

def cmd_gpxpy_child(args):
    """What PEERS.md measures for gpxpy: parse + length_2d + moving + up/down + bounds."""
    import gpxpy  # imported before the clock starts

    started = time.perf_counter()
    with open(args.file, encoding="utf-8") as handle:
        gpx = gpxpy.parse(handle)
    parsed = time.perf_counter()
    length = gpx.length_2d()
    moving = gpx.get_moving_data()
    updown = gpx.get_uphill_downhill()
    bounds = gpx.get_bounds()
    ended = time.perf_counter()
    emit({"seconds": round(ended - started, 4), "parse_seconds": round(parsed - started, 4),
          "points": gpx.get_track_points_no(), "distance_m": round(length, 3),
          "moving_seconds": moving.moving_time, "uphill_m": round(updown.uphill, 3),
          "bounds": [bounds.min_latitude, bounds.min_longitude,
                     bounds.max_latitude, bounds.max_longitude],
          "version": getattr(gpxpy, "__version__", "?")})
    return 0


def peer_record(tool, version, work, gpx, best, runs, rss_runs, source, extra):
    size = os.path.getsize(gpx)
    points = extra.pop("points", None) or workload_points(gpx)
    record = {"tool": tool, "version": version, "work": work, "file": gpx, "bytes": size,
              "points": points, "repeat": len(runs), "seconds": round(best, 4),
              "runs_seconds": [round(r, 4) for r in runs],
              "mb_per_s": round(size / 1e6 / best, 3), "points_per_s": round(points / best, 3),
              "peak_rss_mib": round(max(rss_runs), 3), "max_rss_source": source}
    record.update(extra)
    return record


def cmd_gpxpy(args):
    runs, rss_runs, best, process_runs = [], [], {}, []
    argv = [sys.executable, os.path.abspath(__file__), "_gpxpy_child", args.file]
    for index in range(args.repeat):
        code, text, wall, rss, source, _ = run_measured(argv)
        if code != 0:
            log("gpxpy: run failed with exit code %d" % code)
            return 1
        run = last_json(text)
        run["process_seconds"] = round(wall, 3)
        if not best or run["seconds"] < best["seconds"]:
            best = run
        runs.append(run["seconds"])
        process_runs.append(wall)
        rss_runs.append(rss)
        log("gpxpy: run %d/%d: %.2f s in-process (%.2f s process), peak %.0f MiB"
            % (index + 1, args.repeat, run["seconds"], wall, rss))
    extra = {k: best[k] for k in ("points", "parse_seconds", "distance_m", "moving_seconds",
                                  "uphill_m", "bounds", "process_seconds")}
    extra["timing"] = "in-process: open+parse+stats, interpreter start and import excluded"
    extra["best_process_seconds"] = round(min(process_runs), 4)
    record = peer_record("gpxpy", best.get("version", "?"), "parse+length_2d+moving+updown+bounds",
                         args.file, min(runs), runs, rss_runs, source, extra)
    log("gpxpy: best %.2f s: %.1f MB/s, %.0f points/s, peak %.0f MiB"
        % (record["seconds"], record["mb_per_s"], record["points_per_s"], record["peak_rss_mib"]))
    emit(record)
    return 0


def cmd_gpsbabel(args):
    version = "?"
    try:
        found = re.search(r"Version\s+(\S+)", subprocess.run(
            ["gpsbabel", "-V"], capture_output=True, text=True).stdout)
        version = found.group(1) if found else "?"
    except OSError:
        pass
    argv = ["gpsbabel", "-i", "gpx", "-f", args.file, "-o", "geojson", "-F", "/dev/null"]
    runs, rss_runs, source = [], [], "?"
    for index in range(args.repeat):
        code, _, wall, rss, source, _ = run_measured(argv, capture_stdout=False)
        if code != 0:
            log("gpsbabel: run failed with exit code %d" % code)
            return 1
        runs.append(wall)
        rss_runs.append(rss)
        log("gpsbabel: run %d/%d: %.2f s, peak %.0f MiB" % (index + 1, args.repeat, wall, rss))
    record = peer_record("gpsbabel", version, "gpx->geojson (/dev/null)", args.file, min(runs),
                         runs, rss_runs, source,
                         {"timing": "process wall time", "command": " ".join(argv)})
    log("gpsbabel: best %.2f s: %.1f MB/s, %.0f points/s, peak %.0f MiB"
        % (record["seconds"], record["mb_per_s"], record["points_per_s"], record["peak_rss_mib"]))
    emit(record)
    return 0


def cmd_runnect_stats(args):
    """The whole `runnect stats --json FILE` process, beside the peers' processes."""
    argv = [args.binary, "stats", "--json", args.file]
    runs, rss_runs, source, distance = [], [], "?", None
    for index in range(args.repeat):
        code, text, wall, rss, source, _ = run_measured(argv)
        if code != 0:
            log("runnect stats: run failed with exit code %d" % code)
            return 1
        distance = last_json(text).get("distance_m")
        runs.append(wall)
        rss_runs.append(rss)
        log("runnect stats: run %d/%d: %.3f s, peak %.0f MiB" % (index + 1, args.repeat, wall, rss))
    record = peer_record("runnect", "", "stats-process", args.file, min(runs), runs, rss_runs, source,
                         {"timing": "process wall time", "command": " ".join(argv),
                          "distance_m": distance})
    log("runnect stats: best %.3f s: %.1f MB/s, %.0f points/s, peak %.0f MiB"
        % (record["seconds"], record["mb_per_s"], record["points_per_s"], record["peak_rss_mib"]))
    emit(record)
    return 0


def cpu_ticks():
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields[:8]), idle


def cmd_cpubusy(args):
    """Share of all cores busy over SECONDS (from /proc/stat): other work that would disturb a run.
    (The load average is no use for this on some VMs, where it sits near 2 on an idle machine.)"""
    try:
        total0, idle0 = cpu_ticks()
        time.sleep(args.seconds)
        total1, idle1 = cpu_ticks()
    except (OSError, ValueError, IndexError):
        print("?")
        return 0
    total = total1 - total0
    print("%.0f %%" % (100.0 * (total - (idle1 - idle0)) / total) if total > 0 else "?")
    return 0


# ----------------------------------------------------------------------------------------------
# table
# ----------------------------------------------------------------------------------------------

def number(value, digits=1):
    return "—" if value is None else "{:,.{}f}".format(value, digits)


def cmd_table(args):
    records = []
    with open(args.jsonl) as handle:
        for line in handle:
            if line.strip():
                records.append(json.loads(line))
    rows = []
    runnect_distance = gpxpy_distance = None
    # Whole processes on big.gpx, and runnect-bench's in-process parse+stats/parse-only: the
    # issue's ratios, printed under the table.
    process = {}
    in_process = None
    for r in records:
        name = os.path.basename(r.get("file", "")) or "big.gpx"
        tool, work = r.get("tool", "?"), r.get("work", "?")
        if r.get("skipped"):
            rows.append((tool, "skipped: " + r["skipped"], None, None, None))
        elif tool == "runnect" and work in ("parse+stats", "points-json parse+stats"):
            if work == "parse+stats":
                runnect_distance = r.get("distance_m")
            label = "runnect " + args.commit if args.commit else "runnect"
            if r.get("role") == "single":
                time_v = ""
                if r.get("max_rss_source") == "/usr/bin/time -v":
                    time_v = "; in-process getrusage %s MiB" % number(r.get("peak_rss_mib"))
                rows.append((label, "%s: parse + full stats (splits), 1 run: peak RSS of exactly "
                             "one parse (%s%s)" % (name, r.get("max_rss_source", "getrusage"), time_v),
                             r.get("mb_per_s"), r.get("points_per_s"),
                             r.get("max_rss_mib", r.get("peak_rss_mib"))))
            else:
                repeat = r.get("repeat", "N")
                rows.append((label, "%s: parse + full stats (splits), best of %s in one process"
                             % (name, repeat), r.get("mb_per_s"), r.get("points_per_s"),
                             r.get("peak_rss_mib")))
                # points/s from parse_mb_per_s, which runnect-bench computed before rounding
                # parse_seconds to milliseconds
                parse_mbs = r.get("parse_mb_per_s")
                parse_pps = (r["points"] * parse_mbs / (r["bytes"] / 1e6)
                             if parse_mbs and r.get("bytes") else None)
                if work == "parse+stats" and parse_mbs and r.get("mb_per_s"):
                    in_process = (r["mb_per_s"], parse_mbs)
                rows.append((label, "%s: parse only (same runs), best of %s" % (name, repeat),
                             parse_mbs, parse_pps, None))
        elif tool == "runnect" and work == "stats-process":
            process["runnect"] = r["seconds"]
            rows.append(("runnect " + args.commit if args.commit else "runnect",
                         "%s: runnect stats --json, the whole process, best of %s (process wall "
                         "time: %.3f s)" % (name, r.get("repeat"), r.get("seconds")),
                         r.get("mb_per_s"), r.get("points_per_s"), r.get("peak_rss_mib")))
        elif tool == "runnect" and work.startswith("write-"):
            rows.append(("runnect " + args.commit if args.commit else "runnect",
                         "%s: written as %s (a %s) into %s, streamed, best of %s in one process "
                         "(MB/s = %s MB written)"
                         % (name, work[len("write-"):].upper(), r.get("kind"), os.path.basename(r.get("output", "")),
                            r.get("repeat"), number(r.get("bytes", 0) / 1e6)),
                         r.get("mb_per_s"), r.get("points_per_s"), r.get("max_rss_mib", r.get("peak_rss_mib"))))
        elif tool == "runnect" and work == "geodesic-path":
            rows.append(("runnect " + args.commit if args.commit else "runnect",
                         "geodesic path length, %s legs in one batch call (points/s = legs/s)"
                         % number(r.get("legs"), 0), None, r.get("legs_per_s"),
                         r.get("max_rss_mib")))
        elif tool == "runnect" and work == "index-export":
            rows.append(("runnect " + args.commit if args.commit else "runnect",
                         "discovery-index export (runnect index --all) of %s stored courses of %s "
                         "points: %.2f s = %s courses/s on one thread (CPU %.2f s, %.2f s of it in the "
                         "kernel); re-run, every file unchanged: %.2f s (MB/s = output written)"
                         % (number(r.get("courses"), 0), r.get("points_per_course"), r.get("seconds", 0),
                            number(r.get("courses_per_s"), 0), r.get("cpu_seconds", -1),
                            r.get("system_seconds", -1), r.get("rerun_seconds", 0)),
                         r["bytes"] / 1e6 / r["seconds"] if r.get("seconds") else None, None,
                         r.get("max_rss_mib", r.get("peak_rss_mib"))))
        elif tool == "runnect" and work == "import":
            rows.append(("runnect " + args.commit if args.commit else "runnect",
                         "runnect import of %s generated GPX files of %s points (read, hash, measure, "
                         "store; %s jobs): %.2f s = %s files/s (points/s = files/s)"
                         % (number(r.get("files"), 0), r.get("points_per_file"), r.get("jobs"),
                            r.get("seconds", 0), number(r.get("courses_per_s"), 0)),
                         r.get("mb_per_s"), r.get("courses_per_s"), r.get("max_rss_mib", r.get("peak_rss_mib"))))
        elif tool == "gpxpy":
            gpxpy_distance = r.get("distance_m")
            process["gpxpy"] = r.get("best_process_seconds", r.get("process_seconds"))
            rows.append(("gpxpy %s" % r.get("version", ""),
                         "%s: parse + length_2d + get_moving_data + get_uphill_downhill + "
                         "get_bounds, best of %s (in-process time; process %.2f s)"
                         % (name, r.get("repeat"), r.get("process_seconds", 0)),
                         r.get("mb_per_s"), r.get("points_per_s"), r.get("peak_rss_mib")))
        elif tool == "gpsbabel":
            process["gpsbabel"] = r.get("seconds")
            rows.append(("GPSBabel %s" % r.get("version", ""),
                         "%s: GPX → GeoJSON to /dev/null, best of %s (process wall time)"
                         % (name, r.get("repeat")),
                         r.get("mb_per_s"), r.get("points_per_s"), r.get("peak_rss_mib")))
        else:
            rows.append((tool, work, r.get("mb_per_s"), r.get("points_per_s"),
                         r.get("peak_rss_mib")))

    out = ["| tool | work | MB/s | points/s | peak RSS MiB |", "|---|---|---:|---:|---:|"]
    for tool, work, mbs, pps, rss in rows:
        if work.startswith("skipped"):
            out.append("| %s | %s | — | — | — |" % (tool, work))
        else:
            out.append("| %s | %s | %s | %s | %s |"
                       % (tool, work, number(mbs), number(pps, 0), number(rss)))
    out.append("")
    for line in args.machine:
        out.append("- " + line)
    out.append("- MB/s = file bytes / 10^6 / seconds; peak RSS = maximum resident set size of the "
               "whole process (for peers, the largest over their runs).")
    ratios = []
    for peer, label, target in (("gpsbabel", "GPSBabel (GPX → GeoJSON)", 12), ("gpxpy", "gpxpy", 60)):
        if process.get("runnect") and process.get(peer):
            ratios.append("%.1f× faster than %s (%.3f s against %.2f s; target ≥ %d×)"
                          % (process[peer] / process["runnect"], label, process["runnect"],
                             process[peer], target))
    if ratios:
        out.append("- Whole processes on big.gpx, best of each: runnect stats --json " + ", ".join(ratios) + ".")
    if in_process:
        out.append("- In process (runnect-bench gpx): parse + full stats runs at %.1f %% of the parse-only "
                   "throughput (%s against %s MB/s; target ≥ 90 %%)."
                   % (100 * in_process[0] / in_process[1], number(in_process[0]), number(in_process[1])))
    if runnect_distance and gpxpy_distance:
        out.append("- Track length: runnect %s m (geodesic), gpxpy length_2d %s m (%+.3f %%, "
                   "flat-earth)." % (number(runnect_distance), number(gpxpy_distance),
                                     100 * (gpxpy_distance / runnect_distance - 1)))
    print("\n".join(out))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("workload")
    p.add_argument("shared")
    p.add_argument("outdir")
    p.add_argument("points", type=int)
    p.set_defaults(func=cmd_workload)
    p = sub.add_parser("measure")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="add a field to the JSON line")
    p.add_argument("argv", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_measure)
    for name, func in (("gpxpy", cmd_gpxpy), ("gpsbabel", cmd_gpsbabel)):
        p = sub.add_parser(name)
        p.add_argument("file")
        p.add_argument("--repeat", type=int, default=1)
        p.set_defaults(func=func)
    p = sub.add_parser("runnect-stats")
    p.add_argument("binary")
    p.add_argument("file")
    p.add_argument("--repeat", type=int, default=1)
    p.set_defaults(func=cmd_runnect_stats)
    p = sub.add_parser("_gpxpy_child")
    p.add_argument("file")
    p.set_defaults(func=cmd_gpxpy_child)
    p = sub.add_parser("cpubusy")
    p.add_argument("seconds", type=float, nargs="?", default=1.0)
    p.set_defaults(func=cmd_cpubusy)
    p = sub.add_parser("table")
    p.add_argument("jsonl")
    p.add_argument("--machine", action="append", default=[])
    p.add_argument("--commit", default="")
    p.set_defaults(func=cmd_table)
    args = parser.parse_args()
    if getattr(args, "repeat", 1) < 1:
        parser.error("--repeat must be at least 1")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
