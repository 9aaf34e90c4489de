#!/usr/bin/env python3
"""One loop over several devices (-fptxcc-multi-device), measured on ptxsim.

Builds each program's OpenMP version with `ptxcc -fopenmp -fptxcc-multi-device -O2`, runs it on
ptxsim with PTXSIM_DEVICES=1, 2, 4 (class S by default) and writes one table row per program and
device count: whether the program verified its answer, the kernel time ptxsim's model estimates
for the split (per kernel, the slowest device's share, summed over kernels: the parts of a launch
run at once), and the bytes each device received from and sent to the host (PTXRT_PROFILE).

    python3 test-suite/harness/multidev.py [--class S] [--devices 1,2,4] [--out DIR] [PROGRAM...]

Every figure is ptxsim's (its counters and its time model, PTXSIM_MODEL, default h100-sxm), not a
GPU's; the transfers are counted, not timed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
REPO = os.path.dirname(SUITE)
DEFAULT_PROGRAMS = ["saxpy", "stream", "jacobi2d", "dot", "maxred", "matmul"]


def build(ptxcc, prog, outdir, flag="-fptxcc-multi-device"):
    src = os.path.join(SUITE, prog, prog + "_omp.c")
    exe = os.path.join(outdir, prog)
    cmd = [ptxcc, "-fopenmp", flag, "-O2", "-I" + os.path.join(SUITE, "common"),
           "-I" + os.path.join(SUITE, prog), src, "-o", exe, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: build failed:\n%s" % (prog, r.stderr[-2000:]))
    return exe


def run(exe, cls, devices, outdir, timeout):
    stats = os.path.join(outdir, "stats-%d.json" % devices)
    profile = os.path.join(outdir, "profile-%d.json" % devices)
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY", PTXSIM_DEVICES=str(devices),
               PTXSIM_STATS="json:" + stats, PTXRT_PROFILE="json:" + profile)
    r = subprocess.run([os.path.join(REPO, "scripts", "ptxsim-run"), exe, cls], capture_output=True, text=True,
                       env=env, timeout=timeout)
    out = r.stdout + r.stderr
    verified = r.returncode == 0 and "verified=1" in out
    with open(stats) as f:
        kernels = json.load(f)["kernels"]
    with open(profile) as f:
        devs = json.load(f)["devices"]
    per_kernel = {}
    for k in kernels:
        per_kernel.setdefault(k["name"], {})[k.get("device", 0)] = k["est_time_s"] or 0.0
    est = sum(max(d.values()) for d in per_kernel.values())
    moved = {d["id"]: (d["h2d_bytes"], d["d2h_bytes"], d["peer_bytes"]) for d in devs}
    return verified, est, moved


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("programs", nargs="*", default=DEFAULT_PROGRAMS)
    ap.add_argument("--class", dest="cls", default="S")
    ap.add_argument("--devices", default="1,2,4")
    ap.add_argument("--out", default=None, help="folder for the table (multidev.md); default: print only")
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args()
    ptxcc = os.path.join(REPO, "target", "release", "ptxcc")
    counts = [int(n) for n in args.devices.split(",")]
    lines = ["| program | devices | verified | est. kernel time (ptxsim model) | vs 1 device | "
             "host→device bytes per device | device→host bytes per device | "
             "peer bytes received per device |",
             "|---|---|---|---|---|---|---|---|"]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for prog in args.programs:
            exe = build(ptxcc, prog, tmp)
            base = None
            for n in counts:
                verified, est, moved = run(exe, args.cls, n, tmp, args.timeout)
                ok &= verified
                base = est if base is None else base
                h2d = ", ".join("%d" % moved[d][0] for d in sorted(moved))
                d2h = ", ".join("%d" % moved[d][1] for d in sorted(moved))
                peer = ", ".join("%d" % moved[d][2] for d in sorted(moved))
                lines.append("| %s | %d | %s | %.3e s | %.2fx | %s | %s | %s |" % (
                    prog, n, "yes" if verified else "NO", est, base / est if est else 0.0, h2d, d2h, peer))
                print(lines[-1], flush=True)
    table = "\n".join(lines) + "\n"
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "multidev.md"), "w") as f:
            f.write("# -fptxcc-multi-device on ptxsim, class %s\n\n" % args.cls)
            f.write("Kernel times are ptxsim's model estimates (PTXSIM_MODEL, default h100-sxm), the slowest "
                    "device's share of each kernel summed over kernels; bytes are PTXRT_PROFILE's counts over the "
                    "whole run (peer bytes: copied from another device's memory, e.g. halo rows of data a data "
                    "region keeps spread over the devices). No GPU was used.\n\n")
            f.write(table)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
