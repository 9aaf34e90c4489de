"""Checks the PTXSIM_STATS=json document of lit/e2e/ptxsim-stats.c: ptxsim_stats_check.py FILE N."""
import json
import re
import sys

doc = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
model = doc["model"]
print("model", model["name"])


def kernel(name):
    ks = [k for k in doc["kernels"] if re.search(r"(^|_)%s(_|$)" % name, k["name"])]
    assert len(ks) == 1, (name, [k["name"] for k in doc["kernels"]])
    return ks[0]


unit, strided = kernel("unit"), kernel("strided")
for k in (unit, strided):
    print(k["name"], {f: k[f] for f in ("launches", "global_load_requests", "global_load_sectors",
                                        "global_store_sectors", "dram_bytes", "est_time_s")})
launches = unit["launches"]
unit_per_request = unit["global_load_sectors"] / unit["global_load_requests"]
# 32 lanes reading 8 bytes each: 8 sectors, 9 where the array does not start on a sector (libptxrt
# keeps the host address modulo 64 in device copies, and malloc's arrays start 16 bytes into one).
print("unit: launches %d, lanes %d, load sectors per request 8 or 9: %s, dram >= 2 arrays: %s, est > dram / bw: %s" % (
    launches, round(unit["active_lanes_per_warp_instruction"]), 8 <= unit_per_request <= 9,
    unit["dram_bytes"] >= 2 * launches * n * 8,
    unit["est_time_s"] > unit["dram_bytes"] / model["dram_bytes_per_s"]))
# A stride of 16 doubles: a sector a lane.
print("strided: launches %d, lanes %d, load sectors per request %g" % (
    strided["launches"], round(strided["active_lanes_per_warp_instruction"]),
    strided["global_load_sectors"] / strided["global_load_requests"]))
