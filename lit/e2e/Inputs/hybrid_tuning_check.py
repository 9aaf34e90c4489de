"""Checks a hybrid loop's tuned share in a PTXRT_PROFILE=json document.

hybrid_tuning_check.py FILE TRIPS RUNS [--below X]

The share the runtime reports must be the one split/tune.rs's rule gives from the last run it
reports: the share that run used (its host iterations over TRIPS, to rounding) moved half way
toward the share that would have made both sides finish together. That holds whatever the
machine's speed, so the check cannot fail on a loaded machine, only on a runtime that measures
one side wrongly or does not learn from what it measured. --below X also asks that the share
ended below X: only for a test whose host is made slow by construction.
"""
import json
import sys

DAMPING, MIN_SHARE, MAX_SHARE = 0.5, 0.01, 0.99

path, trips, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
below = float(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--below" else None
h = json.load(open(path))["hybrid"][0]
print("share", h["cpu_share"], "runs", h["runs"], "tuned", h["tuned_runs"])
assert h["runs"] == runs and h["tuned_runs"] == runs, h
hi, di = h["last_host_iterations"], h["last_device_iterations"]
assert hi > 0 and di > 0 and hi + di == trips, h
host_rate = hi / max(h["last_host_time_s"], 1e-9)
dev_rate = di / max(h["last_device_time_s"], 1e-9)
target = host_rate / (host_rate + dev_rate)


def rule(prev):
    return min(max(prev + DAMPING * (target - prev), MIN_SHARE), MAX_SHARE)


# The last run took round(TRIPS * share) host iterations: its share is within half an iteration.
lo, hi_ = rule((hi - 0.5) / trips), rule((hi + 0.5) / trips)
ok = lo - 1e-9 <= h["cpu_share"] <= hi_ + 1e-9
print("balanced %.4f, rule gives %.4f..%.4f: %s" % (target, lo, hi_, ok))
assert ok, h
if below is not None:
    assert h["cpu_share"] < below, h
