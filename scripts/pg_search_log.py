#!/usr/bin/env python3
# Groups a PostgreSQL log of the store's searches by search (the measurement of
# Documentation/Postgres.md, "Schema versions 11 and 12"): run the server with
# `ALTER ROLE bench SET log_min_duration_statement = 0` while `runnect-bench pg search` times the
# queries, then `scripts/pg_search_log.py LOG`: for each search (its first page read's needles,
# initials, scope and order), the median server time and the statements of its median run.
"""Reads a PostgreSQL server log with log_min_duration_statement=0 and prints, per search transaction
(BEGIN..COMMIT of one backend), its statements' durations; then per distinct search (the first
runnect_search_page call's parameters), the median of each step."""
import re, sys, collections, statistics, signal
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
pat = re.compile(r'^\S+ \S+ \S+ \[(\d+)\] (LOG|DETAIL):\s+(.*)$')
txs = collections.defaultdict(list)   # pid -> current statements
done = []
last = {}
for line in open(sys.argv[1], errors='replace'):
    m = pat.match(line.rstrip('\n'))
    if not m:
        continue
    pid, kind, text = m.groups()
    if kind == 'LOG':
        d = re.match(r'duration: ([\d.]+) ms\s+(parse|bind|execute) (\S+): (.*)', text)
        if not d:
            continue
        ms, phase, name, sql = float(d.group(1)), d.group(2), d.group(3), d.group(4)
        entry = [phase, ms, sql, '']
        txs[pid].append(entry)
        last[pid] = entry
        if phase == 'execute' and sql.strip().upper().startswith('COMMIT'):
            done.append(txs.pop(pid))
    elif kind == 'DETAIL' and pid in last and text.startswith('parameters:'):
        last[pid][3] = text[len('parameters: '):]
def key(tx):
    for phase, ms, sql, params in tx:
        if 'runnect_search_page' in sql and phase == 'execute':
            p = dict(re.findall(r"\$(\d+) = ('(?:[^']|'')*'|NULL)", params))
            return (p.get('2'), p.get('3'), p.get('6'), p.get('7'))
    return None
groups = collections.defaultdict(list)
for tx in done:
    k = key(tx)
    if k: groups[k].append(tx)
for k, txl in groups.items():
    totals = [sum(ms for _, ms, _, _ in tx) for tx in txl]
    print(f"\n== needles={k[0]} initials={k[1]} shared={k[2]} sort={k[3]}  n={len(txl)} server total median {statistics.median(totals):.2f} max {max(totals):.2f}")
    # the median transaction
    tx = sorted(txl, key=lambda t: sum(ms for _, ms, _, _ in t))[len(txl)//2]
    for phase, ms, sql, params in tx:
        if ms < 0.05 and phase != 'execute': continue
        p = dict(re.findall(r"\$(\d+) = ('(?:[^']|'')*'|NULL)", params))
        extra = ''
        if 'runnect_search_page' in sql:
            extra = f" clauses={p.get('1','')[:60]} tw={p.get('4')} dw={p.get('5')} walk={p.get('8')} skip={p.get('9')} upto={p.get('10')} after={p.get('11')} "
        print(f"  {phase:7} {ms:7.3f}  {sql[:70]}{extra}")
