#!/usr/bin/env python3
"""CPU + device hybrid loops (-fptxcc-hybrid, issue 20): the tuned host share against the
devices alone and the host alone.

Builds each program's OpenMP version with `ptxcc -fopenmp -fptxcc-hybrid -O2` and runs it three
ways: PTXRT_CPU_WEIGHT=0 (the device runs every iteration), PTXRT_CPU_WEIGHT=1 (the host's
threads run every iteration, through the region's host version) and tuned (PTXRT_CPU_WEIGHT
unset: the runtime moves the share toward equal finish times run after run). Each row has
whether the program verified its answer, its own time per step (`time_s` of its RESULT line,
the wall time of the timed loop) and, tuned, the share each hybrid loop ended with and how many
runs it learned from (PTXRT_PROFILE=json).

    python3 test-suite/harness/hybrid.py [--device emu|ptxsim] [--class S] [--iters N] [--out DIR] [PROGRAM...]

The "device" here is the emulator (--device emu: the kernels, SIMT-lowered, on the same cores as
the host part) or ptxsim (--device ptxsim: every PTX instruction simulated on those cores); its
times are those of that stand-in, not of a GPU. On a lent GPU the same script with
PTXRT_DEVICE=cuda measures the real balance.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multidev  # noqa: E402  (the build step is the same, with another flag)

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
REPO = os.path.dirname(SUITE)
DEFAULT_PROGRAMS = ["nbody", "himeno"]
MODES = [("device only", "0"), ("host only", "1"), ("tuned", None)]


def build(ptxcc, prog, outdir):
    return multidev.build(ptxcc, prog, outdir, "-fptxcc-hybrid")


def run(exe, args, device, weight, outdir, timeout):
    profile = os.path.join(outdir, "profile.json")
    if os.path.exists(profile):
        os.remove(profile)
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY", PTXRT_PROFILE="json:" + profile)
    env.pop("PTXRT_CPU_WEIGHT", None)
    if weight is not None:
        env["PTXRT_CPU_WEIGHT"] = weight
    cmd = [exe] + args
    if device == "ptxsim":
        cmd = [os.path.join(REPO, "scripts", "ptxsim-run")] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    out = r.stdout + r.stderr
    verified = r.returncode == 0 and "verified=1" in out
    times = [float(t) for t in re.findall(r"RESULT .*?time_s=([0-9.e+-]+)", out)]
    hybrid = []
    if os.path.exists(profile):
        with open(profile) as f:
            hybrid = json.load(f).get("hybrid", [])
    return verified, (times[0] if times else None), hybrid, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", default=DEFAULT_PROGRAMS)
    ap.add_argument("--device", choices=["emu", "ptxsim"], default="emu")
    ap.add_argument("--class", dest="cls", default="S")
    ap.add_argument("--iters", type=int, default=20, help="time steps / sweeps (the tuner learns from each)")
    ap.add_argument("--out", default=None, help="write hybrid.md here")
    ap.add_argument("--timeout", type=int, default=900)
    a = ap.parse_args()
    ptxcc = os.path.join(REPO, "target", "release", "ptxcc")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for prog in a.programs:
            exe = build(ptxcc, prog, tmp)
            args = [a.cls, "iters=%d" % a.iters]
            for label, weight in MODES:
                ok, t, hybrid, out = run(exe, args, a.device, weight, tmp, a.timeout)
                if not ok:
                    sys.stderr.write("%s (%s) did not verify:\n%s\n" % (prog, label, out[-3000:]))
                shares = ", ".join("%.3f (%d runs)" % (h["cpu_share"], h["tuned_runs"]) for h in hybrid
                                   if weight is None)
                rows.append((prog, label, ok, t, shares))
                print("%-8s %-12s verified=%d time_s=%s %s" % (prog, label, ok, t, shares), flush=True)
    lines = ["| program | mode | verified | time per step (s) | vs device only | tuned host share per loop |",
             "|---|---|---|---|---|---|"]
    base = {p: t for p, label, ok, t, s in rows if label == "device only"}
    for prog, label, ok, t, shares in rows:
        speed = "%.2fx" % (base[prog] / t) if t and base.get(prog) else "-"
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            prog, label, "yes" if ok else "NO", "%.4g" % t if t else "-", speed, shares or "-"))
    table = "\n".join(lines) + "\n"
    print(table)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "hybrid-%s.md" % a.device), "w") as f:
            f.write("Device: %s; class %s, %d steps; `time per step` is the program's own timer (wall time), "
                    "`vs device only` its ratio to the device-only run (>1: faster).\n\n" % (
                        "the emulator" if a.device == "emu" else "ptxsim", a.cls, a.iters))
            f.write(table)
    return 0 if all(r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
