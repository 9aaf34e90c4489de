#!/usr/bin/env python3
"""ptxcc test-suite harness: build every program every way this machine can, run, verify, report.

Commands (python3 test-suite/harness/harness.py COMMAND --help for options):
  run       build all versions it can here, run them in the chosen classes, verify, write the report
  quick     class S, ptxcc versions on the emulator (OMP_TARGET_OFFLOAD=MANDATORY, PTXRT_DEVICE=emu), or with
            --ptxsim through libptxrt's CUDA path on ptxsim (the PTX simulated: ptx-sim/README.md) and
            GCC's versions there too (where gcc-12 offloads to nvptx; the programs marked sim_quick), plus
            the serial reference, and nvcc's versions there too (where nvcc is found: PATH, $NVCC,
            .cuda-venv/cuda/bin from scripts/setup-cuda-tools.sh; built with -cudart shared, libptxsim.so as
            their libcudart.so.13); exits non-zero on a wrong answer, crash, timeout or build failure
            (UNSUPPORTED, which the compiler reports for a feature still in an open issue, is allowed)
  build     only build
  pack      build here, then put executables, the shared libraries they need, the .cu sources and this
            harness in one folder to copy to a GPU node
  gpu-run   on the GPU node, inside a packed folder: build the .cu versions with nvcc, run everything,
            write the report (--ptxsim: a rehearsal without a GPU, ptxsim as the node's libcuda)
  report    rewrite report.md and charts from an existing report.csv

Versions ("variants"):
  serial      <name>_serial.c  clang -O2 (CPU baseline and reference answer)
  ptxcc-omp   <name>_omp.c     ptxcc -fopenmp -O2
  ptxcc-acc   <name>_acc.c     ptxcc -fopenacc -O2
  gcc-omp     <name>_omp.c     gcc-12 -fopenmp -foffload=nvptx-none -O2   (only where GCC offloads to nvptx;
  gcc-acc     <name>_acc.c     gcc-12 -fopenacc -foffload=nvptx-none -O2   on a GPU, or on ptxsim with --ptxsim)
  clang-omp   <name>_omp.c     clang-19 -fopenmp --offload-arch=sm_90 -O2 (Clang's own offloading: LLVM's DeviceRTL
                                and libomptarget; scripts/clang-ptxsim, on ptxsim only, with --ptxsim)
  nvcc        <name>.cu        nvcc -O3 -arch=sm_XX                      (only where nvcc exists; on a GPU, or on
                                                                          ptxsim with --ptxsim: + -cudart shared)
 and, with --dev, checks of the test programs themselves that need neither ptxcc nor a GPU:
  clang-omp-host  <name>_omp.c  clang -fopenmp -O2 (target regions fall back to the host)
  gcc-acc-host    <name>_acc.c  gcc-12 -fopenacc -O2 (no offload target: runs on the host)
  cuda-cpu        <name>.cu     clang++ with common/cuda_cpu_shim.h (CUDA semantics on the CPU)
"""

import argparse
import concurrent.futures
import csv
import datetime
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isa  # noqa: E402  (isa.py beside this file: instruction counts of the reduction loops)

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)  # test-suite/
REPO = os.path.dirname(SUITE)
COMMON = os.path.join(SUITE, "common")
CLANG_PTXSIM = os.path.join(REPO, "scripts", "clang-ptxsim")
CLASSES = "SWABC"

# Program families (one chart each), the extra argument sets a program runs with, and whether `quick --ptxsim`
# runs GCC's versions (sim_quick: those that take seconds there; GCC's code runs every non-SIMD instruction in all
# 32 lanes of a warp, so on a simulator its versions cost about ten times ptxcc's; `run --ptxsim` runs them all).
PROGRAMS = {
    "stream": dict(family="stream", args=[[]], sim_quick=True),
    "stream2d": dict(family="stream2d", args=[["w=4"], ["w=16"]], quick_args=[["w=16"]]),
    "saxpy": dict(family="blas", args=[[]], sim_quick=True),
    "matmul": dict(family="blas", args=[[]], sim_quick=True),
    "pi": dict(family="reduction", args=[[]], sim_quick=True),
    "jacobi2d": dict(family="stencil", args=[[]]),
    "himeno": dict(family="stencil", args=[[]]),
    "nbody": dict(family="nbody", args=[[]]),
    "cg": dict(family="npb", args=[[]]),
    "ep": dict(family="npb", args=[[]]),
    "is": dict(family="npb", args=[[]], sim_quick=True),
    "dot": dict(family="reduction", args=[[]], sim_quick=True),
    "maxred": dict(family="reduction", args=[[]], sim_quick=True),
    "pi_float": dict(family="reduction", args=[[]], sim_quick=True),
}

# Compiler messages that mean "this feature is not implemented yet" and the issue that tracks it.
UNSUPPORTED_PATTERNS = [
    (re.compile(r"does not support reduction", re.I), "issue 5 (reductions)"),
    (re.compile(r"does not support .*atomic|atomic.* (is )?not (yet )?supported", re.I), "issue 5 (atomics)"),
    (re.compile(r"openacc.*not (yet )?supported|does not support openacc|-fopenacc.*not", re.I), "issue 4 (OpenACC)"),
    (re.compile(r"does not support|not (yet )?supported|unsupported", re.I), None),
]

# Peak memory bandwidth in GB/s by device-name substring (checked in order).
PEAK_BW = [
    ("H200", 4800.0),
    ("H100 NVL", 3900.0),
    ("H100 PCIe", 2000.0),
    ("H100", 3350.0),  # SXM5 (HBM3)
    ("GH200", 4000.0),
    ("A100-SXM4-80GB", 2039.0),
    ("A100 80GB PCIe", 1935.0),
    ("A100", 1555.0),
    ("V100", 900.0),
    ("L40S", 864.0),
    ("A10", 600.0),
    ("T4", 320.0),
]

VARIANT_SOURCE = {
    "serial": "serial.c",
    "ptxcc-omp": "omp.c",
    "ptxcc-acc": "acc.c",
    "gcc-omp": "omp.c",
    "gcc-acc": "acc.c",
    "clang-omp": "omp.c",
    "nvcc": ".cu",
    "clang-omp-host": "omp.c",
    "gcc-acc-host": "acc.c",
    "cuda-cpu": ".cu",
}
PTXCC_VARIANTS = ("ptxcc-omp", "ptxcc-acc")
GCC_VARIANTS = ("gcc-omp", "gcc-acc")
# Clang 19's own OpenMP offloading (DeviceRTL, libomptarget), built by scripts/clang-ptxsim to run on ptxsim only.
CLANG_VARIANTS = ("clang-omp",)
DEV_VARIANTS = ("clang-omp-host", "gcc-acc-host", "cuda-cpu")
ALL_VARIANTS = ("serial", "ptxcc-omp", "ptxcc-acc", "gcc-omp", "gcc-acc", "clang-omp", "nvcc") + DEV_VARIANTS


def log(msg):
    print(msg, flush=True)


def which(*names):
    for n in names:
        if not n:
            continue
        if os.path.sep in n:
            if os.path.isfile(n) and os.access(n, os.X_OK):
                return n
        else:
            p = shutil.which(n)
            if p:
                return p
    return None


def source_of(prog, variant):
    suffix = VARIANT_SOURCE[variant]
    name = prog + suffix if suffix == ".cu" else "%s_%s" % (prog, suffix)
    return os.path.join(SUITE, prog, name)


def discover_programs(only=None):
    progs = []
    for d in sorted(os.listdir(SUITE)):
        if os.path.isfile(os.path.join(SUITE, d, d + "_serial.c")):
            progs.append(d)
    order = list(PROGRAMS)
    progs.sort(key=lambda p: (order.index(p) if p in order else len(order), p))
    if only:
        want = [p.strip() for p in only.split(",") if p.strip()]
        missing = [p for p in want if p not in progs]
        if missing:
            sys.exit("unknown program(s): %s (have: %s)" % (", ".join(missing), ", ".join(progs)))
        progs = [p for p in progs if p in want]
    return progs


# ---------------------------------------------------------------------------------------------- toolchains

def probe_build(argv):
    """Builds a program of one OpenMP target region with `argv(src, exe)`, in a temporary folder: does this
    toolchain offload here? Returns the finished process."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.c")
        with open(src, "w") as f:
            f.write("int main(void){int x=0;\n#pragma omp target map(tofrom:x)\nx=1;\nreturn !x;}\n")
        return subprocess.run(argv(src, os.path.join(d, "t")), capture_output=True, text=True)


class Toolchains:
    """Finds the compilers; each variant gets a command-line builder or a reason why it is unavailable."""

    def __init__(self, args):
        self.args = args
        self.cc = which(os.environ.get("TS_CC"), "clang-19", "/usr/lib/llvm-19/bin/clang", "clang")
        self.cxx = which(os.environ.get("TS_CXX"), "clang++-19", "/usr/lib/llvm-19/bin/clang++", "clang++")
        self.ptxcc = which(getattr(args, "ptxcc", None), os.environ.get("PTXCC"),
                           os.path.join(REPO, "target", "release", "ptxcc"), "ptxcc")
        self.gcc = which(os.environ.get("TS_GCC"), "gcc-12", "gcc")
        self.nvcc = which(os.environ.get("NVCC"), "nvcc", os.path.join(REPO, ".cuda-venv", "cuda", "bin", "nvcc"),
                          "/usr/local/cuda/bin/nvcc")
        self.arch = getattr(args, "arch", None) or os.environ.get("TS_ARCH") or "sm_90"
        self._gcc_offload = None
        self._clang_offload = None
        self._lock = threading.Lock()

    def gcc_offload(self):
        """True when gcc can compile with -foffload=nvptx-none (gcc-12-offload-nvptx installed)."""
        with self._lock:
            return self._probe_gcc_offload()

    def clang_offload(self):
        """None when scripts/clang-ptxsim builds an offloading program here, else why not (its message)."""
        with self._lock:
            if self._clang_offload is None:
                r = probe_build(lambda src, exe: [CLANG_PTXSIM, "-O2", src, "-o", exe])
                self._clang_offload = "" if r.returncode == 0 else \
                    ((r.stderr.strip().splitlines() or ["scripts/clang-ptxsim failed"])[-1])
            return self._clang_offload or None

    def _probe_gcc_offload(self):
        if self._gcc_offload is None:
            self._gcc_offload = False
            if self.gcc:
                r = probe_build(lambda src, exe: [self.gcc, "-fopenmp", "-foffload=nvptx-none", "-O2", src, "-o", exe])
                self._gcc_offload = r.returncode == 0
        return self._gcc_offload

    def command(self, variant, src, exe):
        """(argv, None) or (None, reason it cannot be built here)."""
        inc = ["-I", COMMON]
        if variant == "serial":
            if not self.cc:
                return None, "no clang"
            return [self.cc, "-O2"] + inc + [src, "-o", exe, "-lm"], None
        if variant in PTXCC_VARIANTS:
            if not self.ptxcc:
                return None, "ptxcc not built (cargo build --release)"
            model = "-fopenmp" if variant == "ptxcc-omp" else "-fopenacc"
            extra = ["--offload-arch=" + self.arch] if getattr(self.args, "pass_arch", False) else []
            extra += getattr(self.args, "ptxcc_flag", None) or []
            return [self.ptxcc, model, "-O2"] + extra + inc + [src, "-o", exe, "-lm"], None
        if variant in ("gcc-omp", "gcc-acc"):
            if not self.gcc:
                return None, "no gcc"
            if not self.gcc_offload():
                return None, "gcc has no nvptx offload (apt install gcc-12-offload-nvptx)"
            model = "-fopenmp" if variant == "gcc-omp" else "-fopenacc"
            return [self.gcc, model, "-foffload=nvptx-none", "-foffload-options=nvptx-none=-lm",
                    "-foffload-options=nvptx-none=-latomic", "-O2"] + inc + \
                [src, "-o", exe, "-lm"], None
        if variant in CLANG_VARIANTS:
            if not getattr(self.args, "ptxsim", False):
                return None, "Clang's offloading is built for ptxsim only (--ptxsim)"
            why = self.clang_offload()
            if why:
                return None, why
            return [CLANG_PTXSIM, "-O2"] + inc + [src, "-o", exe, "-lm"], None
        if variant == "nvcc":
            if not self.nvcc:
                return None, "no nvcc (scripts/setup-cuda-tools.sh installs NVIDIA's from PyPI)"
            # On ptxsim the program's runtime is ptxsim's libcudart.so.13; -arch=sm_XX embeds compute_XX PTX too.
            shared = ["-cudart", "shared"] if getattr(self.args, "ptxsim", False) else []
            return [self.nvcc, "-O3", "-arch=" + self.arch] + shared + inc + [src, "-o", exe], None
        if variant == "clang-omp-host":
            if not self.cc:
                return None, "no clang"
            return [self.cc, "-fopenmp", "-O2"] + inc + [src, "-o", exe, "-lm"], None
        if variant == "gcc-acc-host":
            if not self.gcc:
                return None, "no gcc"
            return [self.gcc, "-fopenacc", "-foffload=disable", "-O2"] + inc + [src, "-o", exe, "-lm"], None
        if variant == "cuda-cpu":
            if not self.cxx:
                return None, "no clang++"
            return ["CUDA-CPU", src, exe], None
        return None, "unknown variant"

    def describe(self):
        return {
            "clang": self.cc, "ptxcc": self.ptxcc, "gcc": self.gcc,
            "gcc_nvptx_offload": bool(self.gcc_offload()), "nvcc": self.nvcc, "arch": self.arch,
        }


def build_cuda_cpu(tc, src, exe):
    """Compiles a .cu file for the CPU with cuda_cpu_shim.h (development check of the CUDA versions)."""
    text = open(src).read()
    pat = re.compile(r"([A-Za-z_]\w*)\s*<<<(.*?)>>>\s*\((.*?)\)\s*;", re.S)
    text = pat.sub(lambda m: "ts_cuda_launch(%s, [&] { %s(%s); });" % (m.group(2), m.group(1), m.group(3)), text)
    tmp = exe + ".shim.cpp"
    with open(tmp, "w") as f:
        f.write('#line 1 "%s"\n' % src)
        f.write(text)
    cmd = [tc.cxx, "-x", "c++", "-std=c++17", "-O2", "-I", os.path.dirname(src), "-I", COMMON,
           "-include", os.path.join(COMMON, "cuda_cpu_shim.h")]
    if "__syncthreads" not in text:
        cmd.append("-DTS_SHIM_NO_BARRIERS")
    cmd += [tmp, "-o", exe, "-lm"]
    return cmd


def classify_build_failure(stderr):
    for pat, issue in UNSUPPORTED_PATTERNS:
        m = pat.search(stderr)
        if m:
            line = next((l for l in stderr.splitlines() if pat.search(l)), m.group(0))
            return "UNSUPPORTED", line.strip()[:300] + (" [%s]" % issue if issue else "")
    lines = [l for l in stderr.splitlines() if "error" in l.lower()] or stderr.splitlines()
    return "BUILD-FAIL", (lines[0].strip() if lines else "compiler failed without a message")[:300]


def build_one(tc, prog, variant, outdir, timeout):
    src = source_of(prog, variant)
    rec = dict(program=prog, variant=variant, source=os.path.relpath(src, SUITE), exe=None, status="", message="",
               build_s=0.0)
    if not os.path.isfile(src):
        rec.update(status="NO-SOURCE", message="no %s" % os.path.basename(src))
        return rec
    exe = os.path.join(outdir, variant, prog)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd, why = tc.command(variant, src, exe)
    if cmd is None:
        rec.update(status="SKIPPED", message=why)
        return rec
    if cmd[0] == "CUDA-CPU":
        cmd = build_cuda_cpu(tc, src, exe)
    rec["command"] = " ".join(shlex.quote(c) for c in cmd)
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=os.path.dirname(src))
        out = (r.stdout or "") + (r.stderr or "")
        rc = r.returncode
    except subprocess.TimeoutExpired:
        out, rc = "compiler timed out after %d s" % timeout, -1
    rec["build_s"] = round(time.time() - t0, 2)
    rec["build_log"] = out[-4000:]
    if rc == 0 and os.path.isfile(exe):
        rec.update(status="BUILT", exe=exe)
    else:
        status, msg = classify_build_failure(out)
        if rc == 0:
            status, msg = "BUILD-FAIL", "compiler exited 0 but wrote no %s" % os.path.basename(exe)
        if rc == -1:
            status, msg = "BUILD-FAIL", out
        rec.update(status=status, message=msg)
    return rec


def build_all(tc, progs, variants, outdir, jobs, timeout=600):
    tasks = [(p, v) for p in progs for v in variants]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {ex.submit(build_one, tc, p, v, outdir, timeout): (p, v) for p, v in tasks}
        for fut in concurrent.futures.as_completed(futs):
            rec = fut.result()
            results[futs[fut]] = rec
            if rec["status"] not in ("SKIPPED", "NO-SOURCE"):
                log("  build %-9s %-15s %-11s %s" % (rec["program"], rec["variant"], rec["status"],
                                                     rec["message"] or "(%.1f s)" % rec["build_s"]))
    with open(os.path.join(outdir, "builds.json"), "w") as f:
        json.dump([results[t] for t in tasks], f, indent=1)
    return results


# ------------------------------------------------------------------------------------------------ running

RESULT_RE = re.compile(r"^RESULT (.*)$", re.M)
TIME_RE = re.compile(r"([0-9.]+)\s*(ns|us|µs|ms|s)\b")


def parse_result_lines(stdout):
    out = []
    for m in RESULT_RE.finditer(stdout):
        d = {}
        for kv in m.group(1).split():
            if "=" in kv:
                k, v = kv.split("=", 1)
                d[k] = v
        out.append(d)
    return out


def to_seconds(text):
    m = TIME_RE.search(text)
    if not m:
        return None
    v, unit = float(m.group(1)), m.group(2)
    return v * {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def parse_profile(stderr):
    """PTXRT_PROFILE=1 output -> list of dict(name, source, launches, total, mean, min, max) (seconds)."""
    kernels = []
    lines = stderr.splitlines()
    in_kernels = False
    cur = None
    for line in lines:
        s = line.strip()
        if s.startswith("ptxrt profile"):
            in_kernels = False
            continue
        if s == "kernels:":
            in_kernels = True
            continue
        if s == "data:":
            in_kernels = False
            continue
        if not in_kernels:
            continue
        if s.startswith("launches:"):
            if cur is None:
                continue
            fields = dict(re.findall(r"(launches|total|mean|min|max):\s*([0-9.]+\s*(?:ns|us|µs|ms|s)?)", s))
            cur["launches"] = int(float(fields.get("launches", "0").split()[0] or 0))
            for k in ("total", "mean", "min", "max"):
                if k in fields:
                    cur[k] = to_seconds(fields[k])
            kernels.append(cur)
            cur = None
        else:
            # "file.c:LINE:COL: kernel_name"
            src, _, name = s.rpartition(": ")
            cur = dict(source=src, name=name or s)
    return kernels


def parse_sim_stats(text):
    """The document PTXSIM_STATS=json:PATH writes -> its list of kernels (dicts with name, launches,
    thread_instructions, warp_instructions, global_load_sectors, …, est_time_s: ptx-sim/README.md), the kernels
    that ran on ptxsim; [] when the text is not such a document (the program died before ptxsim wrote it)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    ks = doc.get("kernels") if isinstance(doc, dict) else None
    return [k for k in ks if isinstance(k, dict) and "name" in k] if isinstance(ks, list) else []


def read_sim_stats(path):
    """parse_sim_stats of the file at `path`, [] if there is none."""
    try:
        with open(path) as f:
            return parse_sim_stats(f.read())
    except OSError:
        return []


class kernel_pattern:
    """Matches a function name as a whole identifier component of a kernel's name: ptxcc's
    __omp_offloading_…_NAME_l7, GCC's NAME$_omp_fn$0 and nvcc's C++ name _Z<length>NAME<parameters>, whose
    identifier (the <length> characters after the length) is matched as a plain name: `nbody` matches
    _Z12nbody_forces… as it matches ptxcc's __omp_offloading_…_nbody_forces_l10."""

    MANGLED = re.compile(r"^_Z(\d+)")

    def __init__(self, sub):
        self.pat = re.compile(r"(^|_)%s(_|\$|$)" % re.escape(sub))

    def search(self, name):
        m = self.MANGLED.match(name)
        if m:
            name = name[m.end():m.end() + int(m.group(1))]
        return self.pat.search(name)


def sim_total(stats, res, *keys):
    """The sum of ptxsim's counters `keys` over the kernels of one RESULT line (all their launches), or None."""
    sub = res.get("kernel") or res.get("name")
    if not stats or not sub:
        return None
    pat = kernel_pattern(sub)
    ks = [k for k in stats if pat.search(k["name"])]
    try:
        return sum(k[key] for k in ks for key in keys) if ks else None
    except (KeyError, TypeError):
        return None


def sim_instructions(stats, res):
    """PTX instructions ptxsim executed in the kernels of one RESULT line (every thread's, all launches), or None."""
    return sim_total(stats, res, "thread_instructions")


# The row's columns from ptxsim's counters: column -> the counters summed (totals over the run).
SIM_COLUMNS = [("sim_instructions", ("thread_instructions",)),
               ("sim_warp_instructions", ("warp_instructions",)),
               ("sim_sectors", ("global_load_sectors", "global_store_sectors")),
               ("sim_dram_bytes", ("dram_bytes",))]


def sim_fields(stats, res):
    """The sim_* columns of one RESULT line: the counters' totals, and sim_est_time_s, the model's estimated kernel
    time per call (as kernel_time_s: the estimate of all the kernels' launches / calls)."""
    row = {col: sim_total(stats, res, *keys) for col, keys in SIM_COLUMNS}
    est = sim_total(stats, res, "est_time_s")
    try:
        calls = int(res.get("calls") or 0)
    except ValueError:
        calls = 0
    row["sim_est_time_s"] = est / calls if est is not None and calls > 0 else est
    return {k: ("" if v is None else v) for k, v in row.items()}


def kernel_time(profile, res):
    """Kernel time per iteration from the profile, or None."""
    if not profile:
        return None
    sub = res.get("kernel") or res.get("name")
    try:
        calls = int(res.get("calls") or 0)
    except ValueError:
        calls = 0
    if calls <= 0:
        return None
    # match the function name as a whole identifier component of the kernel's name
    pat = kernel_pattern(sub)
    ks = [k for k in profile if pat.search(k["name"]) and k.get("total") is not None]
    if not ks:
        return None
    if res.get("stat") == "min" and len(ks) == 1 and ks[0].get("min") is not None and ks[0]["launches"] == calls:
        return ks[0]["min"]
    return sum(k["total"] for k in ks) / calls


def run_one(exe, args, env, timeout, cwd):
    t0 = time.time()
    try:
        r = subprocess.run([exe] + args, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd,
                           errors="replace")
        return r.returncode, r.stdout, r.stderr, time.time() - t0, False
    except subprocess.TimeoutExpired as e:
        so = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        se = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return None, so, se, time.time() - t0, True


def ptxsim_env(ptxcc, then=None):
    """The environment that makes libptxrt's CUDA path, and GCC's libgomp nvptx plugin, load ptxsim (libptxsim.so next
    to ptxcc, as libcuda.so.1 in a folder of its own). The library path has that folder first, then `then` (default:
    this process's LD_LIBRARY_PATH)."""
    lib = os.path.join(os.path.dirname(os.path.abspath(ptxcc)), "libptxsim.so")
    if not os.path.exists(lib):
        sys.exit("--ptxsim: %s is not built (cargo build --release)" % lib)
    driver = os.path.join(os.path.dirname(lib), "ptxsim-driver")
    os.makedirs(driver, exist_ok=True)
    for name in ("libcuda.so", "libcuda.so.1", "libcudart.so.13"):
        link = os.path.join(driver, name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(lib, link)
    path = os.environ.get("LD_LIBRARY_PATH") if then is None else then
    return {"LD_LIBRARY_PATH": driver + (os.pathsep + path if path else ""), "PTXRT_DEVICE": "cuda",
            "PTXSIM_STATS": "1", "PTXSIM_RACECHECK": "1"}


def run_env(variant, mode, base, ptxsim=None):
    """The environment of one run; `ptxsim` is ptxsim_env()'s, when the ptxcc and GCC versions run there."""
    env = dict(base)
    env.setdefault("OMP_WAIT_POLICY", "passive")
    if variant in PTXCC_VARIANTS:
        env["PTXRT_PROFILE"] = "1"
        env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
        if ptxsim:
            env.update(ptxsim)
        elif mode == "quick" or mode == "emu":
            env["PTXRT_DEVICE"] = "emu"
    elif variant in GCC_VARIANTS:
        env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
        env["ACC_DEVICE_TYPE"] = "nvidia"
        if ptxsim:
            # libgomp's nvptx plugin opens libcuda.so.1: ptxsim's. (With no device at all, GCC 12 runs target
            # regions on the host even under MANDATORY: result_rows checks that kernels ran on ptxsim.)
            env.update(ptxsim)
    elif variant in CLANG_VARIANTS and ptxsim:
        # libomptarget's CUDA plugin opens libcuda.so: ptxsim's
        env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
        env.update(ptxsim)
    elif variant == "nvcc" and ptxsim:
        # built with -cudart shared: its libcudart.so.13 is ptxsim's; a runtime call ptxsim lacks is named at start
        env.update(ptxsim)
        env["LD_BIND_NOW"] = "1"
    elif variant == "cuda-cpu":
        env["OMP_DYNAMIC"] = "false"
    return env


def result_rows(prog, variant, cls, argset, build, rc, stdout, stderr, wall, timed_out, on_sim=False, sim_stats=None):
    """One row per RESULT line (or one row describing the failure). `on_sim`: the run's kernels were to run on
    ptxsim, whose counters (`sim_stats`, parse_sim_stats's list) give each row its sim_* columns; a GCC version that
    launched nothing there ran on the host, which is a failure."""
    base = dict(program=prog, family=PROGRAMS.get(prog, {}).get("family", prog), variant=variant, cls=cls,
                args=" ".join(argset), wall_s=round(wall, 3))
    results = parse_result_lines(stdout)
    profile = parse_profile(stderr) if variant in PTXCC_VARIANTS else []
    stats = (sim_stats or []) if on_sim else []
    failed_verif = "VERIFICATION FAILED" in stdout
    tail = (stderr.strip().splitlines() or [""])
    # a short message: the first error-looking stderr line, else the last one
    errline = next((l for l in stderr.splitlines() if re.search(r"error|not present|fault|abort", l, re.I)), tail[-1])
    if timed_out:
        return [dict(base, name=prog, status="TIMEOUT", message="ran past %.0f s" % wall)]
    if not results:
        if rc is not None and rc < 0:
            msg = "killed by signal %d; %s" % (-rc, errline)
        else:
            msg = "exit %s without a RESULT line; %s" % (rc, errline)
        status = "UNSUPPORTED" if re.search(r"does not support|not (yet )?supported", stderr, re.I) else "CRASH"
        return [dict(base, name=prog, status=status, message=msg.strip()[:300])]
    rows = []
    for r in results:
        row = dict(base)
        row["name"] = r.get("name", prog)
        for k in ("iters", "calls", "metric", "bytes", "flops", "bwbound", "verified", "rtol", "checksum", "kernel",
                  "stat"):
            row[k] = r.get(k, "")
        try:
            row["time_s"] = float(r.get("time_s", "nan"))
            row["value"] = float(r.get("value", "nan"))
        except ValueError:
            row["time_s"], row["value"] = float("nan"), float("nan")
        kt = kernel_time(profile, r)
        row["kernel_time_s"] = kt if kt is not None else ""
        if variant == "nvcc" or variant == "cuda-cpu":
            row["time_source"] = "cuda events"
            row["kernel_time_s"] = row["time_s"]
        elif kt is not None:
            row["time_source"] = "PTXRT_PROFILE"
        else:
            row["time_source"] = "program timer"
        best = kt if kt else row["time_s"]
        row["best_time_s"] = best
        # metrics are all work/time: rescale to the best time
        row["best_value"] = row["value"] * row["time_s"] / best if best and best > 0 else row["value"]
        row.update(sim_fields(stats, r))
        ok = r.get("verified") == "1" and not failed_verif and rc == 0
        row["status"] = "PASS" if ok else "FAIL"
        if ok and on_sim and (variant in GCC_VARIANTS or variant in CLANG_VARIANTS) \
                and not any(k.get("launches") for k in stats):
            row["status"] = "FAIL"
            row["message"] = "ran on the host: no kernel launched on ptxsim (the OpenMP runtime fell back to the host)"
        elif not ok:
            why = next((l.strip() for l in stdout.splitlines()
                        if re.search(r"expected|reference|differ|wrong|nan|out of order|error", l, re.I)
                        and not l.startswith("RESULT")), "")
            row["message"] = ("wrong answer: %s" % why if why else "verified=%s exit=%s %s" % (
                r.get("verified"), rc, errline if rc else "")).strip()[:300]
        rows.append(row)
    return rows


def cross_check(rows):
    """Compares every checksum with the serial version's of the same result, class and arguments."""
    ref = {(r["program"], r["name"], r["cls"], r["args"]): r for r in rows
           if r["variant"] == "serial" and r["status"] == "PASS"}
    for r in rows:
        if r["variant"] == "serial" or r["status"] != "PASS":
            continue
        s = ref.get((r["program"], r["name"], r["cls"], r["args"]))
        if not s:
            continue
        try:
            a, b = float(r["checksum"]), float(s["checksum"])
            tol = max(float(r.get("rtol") or 0), float(s.get("rtol") or 0), 1e-15)
        except (TypeError, ValueError):
            continue
        r["serial_checksum"] = s["checksum"]
        if not (abs(a - b) <= tol * max(abs(a), abs(b)) or abs(a - b) < 1e-300):
            r["status"] = "FAIL"
            r["message"] = "checksum %.15g differs from serial %.15g (rtol %g)" % (a, b, tol)


def peak_bandwidth(device):
    for key, bw in PEAK_BW:
        if device and key.lower() in device.lower():
            return bw
    return None


def add_ratios(rows, device):
    peak = peak_bandwidth(device)
    by = {(r["program"], r["name"], r["cls"], r["args"], r["variant"]): r for r in rows if r["status"] == "PASS"}
    for r in rows:
        r.setdefault("ratio_vs_nvcc", "")
        r.setdefault("ratio_vs_gcc", "")
        r.setdefault("gbps", "")
        r.setdefault("pct_peak_bw", "")
        if r["status"] != "PASS":
            continue
        key = (r["program"], r["name"], r["cls"], r["args"])
        t = r["best_time_s"]
        nv = by.get(key + ("nvcc",))
        if nv and r["variant"] != "nvcc" and nv["best_time_s"]:
            r["ratio_vs_nvcc"] = t / nv["best_time_s"]
        model = "omp" if r["variant"].endswith("omp") else ("acc" if r["variant"].endswith("acc") else None)
        g = by.get(key + ("gcc-" + model,)) if model else None
        if g and r["variant"] != g["variant"] and g["best_time_s"]:
            r["ratio_vs_gcc"] = t / g["best_time_s"]
        r.setdefault("instr_vs_gcc", "")
        if g and r["variant"] != g["variant"] and r.get("sim_instructions") not in ("", None) \
                and g.get("sim_instructions") not in ("", None, 0):
            r["instr_vs_gcc"] = float(r["sim_instructions"]) / float(g["sim_instructions"])
        # The model's estimated times on ptxsim, against those of nvcc's, GCC's and Clang's code (where those ran
        # there too; Clang's for the OpenMP versions).
        c = by.get(key + ("clang-omp",)) if model == "omp" else None
        for col, ref in (("est_vs_nvcc", nv), ("est_vs_gcc", g), ("est_vs_clang", c)):
            r.setdefault(col, "")
            if ref and r["variant"] != ref["variant"] and r.get("sim_est_time_s") not in ("", None) \
                    and ref.get("sim_est_time_s") not in ("", None, 0):
                r[col] = float(r["sim_est_time_s"]) / float(ref["sim_est_time_s"])
        try:
            b = float(r.get("bytes") or 0)
        except ValueError:
            b = 0
        if b > 0 and t > 0:
            r["gbps"] = b / t / 1e9
            if peak and r.get("bwbound") == "1" and r["variant"] not in ("serial", "clang-omp-host", "gcc-acc-host",
                                                                         "cuda-cpu"):
                r["pct_peak_bw"] = 100.0 * r["gbps"] / peak


GPU_ONLY_VARIANTS = ("nvcc", "gcc-omp", "gcc-acc", "clang-omp")


def run_all(tc, builds, progs, variants, classes, mode, timeout, outdir, extra_env=None, arg_override=None,
            device="emu", ptxsim=None):
    rows = []
    env0 = dict(os.environ)
    if extra_env:
        env0.update(extra_env)
    for prog in progs:
        meta = PROGRAMS.get(prog, {})
        for cls in classes:
            argsets = arg_override or (meta.get("quick_args") if mode == "quick" else None) or meta.get("args") or [[]]
            for argset in argsets:
                for v in variants:
                    b = builds.get((prog, v))
                    if not b:
                        continue
                    if b["status"] != "BUILT":
                        if b["status"] in ("SKIPPED", "NO-SOURCE"):
                            continue
                        rows.append(dict(program=prog, family=meta.get("family", prog), variant=v, cls=cls,
                                         args=" ".join(argset), name=prog, status=b["status"], message=b["message"]))
                        continue
                    on_sim = bool(ptxsim) and (v in PTXCC_VARIANTS or v in GCC_VARIANTS or v in CLANG_VARIANTS
                                               or v == "nvcc")
                    if device == "emu" and v in GPU_ONLY_VARIANTS and not on_sim:
                        rows.append(dict(program=prog, family=meta.get("family", prog), variant=v, cls=cls,
                                         args=" ".join(argset), name=prog, status="SKIPPED",
                                         message="built; no GPU here to run it"))
                        continue
                    if on_sim and v in GCC_VARIANTS and mode == "quick" and not meta.get("sim_quick"):
                        rows.append(dict(program=prog, family=meta.get("family", prog), variant=v, cls=cls,
                                         args=" ".join(argset), name=prog, status="SKIPPED",
                                         message="not in quick mode on ptxsim (run --ptxsim runs it)"))
                        continue
                    env = run_env(v, mode, env0, ptxsim)
                    logname = os.path.join(outdir, "logs", "%s-%s-%s%s.log" % (prog, v, cls,
                                                                               "-" + "-".join(argset) if argset else ""))
                    os.makedirs(os.path.dirname(logname), exist_ok=True)
                    stats_path = logname[:-len(".log")] + ".ptxsim.json"
                    if on_sim:
                        # ptxsim's counters and estimated times of this run's kernels, written at exit
                        if os.path.exists(stats_path):
                            os.remove(stats_path)
                        env["PTXSIM_STATS"] = "json:" + os.path.abspath(stats_path)
                    rc, so, se, wall, to = run_one(b["exe"], [cls] + argset, env, timeout, outdir)
                    rs = result_rows(prog, v, cls, argset, b, rc, so, se, wall, to, on_sim=on_sim,
                                     sim_stats=read_sim_stats(stats_path) if on_sim else None)
                    with open(logname, "w") as f:
                        f.write("$ %s %s\n# exit %s, %.2f s%s\n--- stdout\n%s\n--- stderr\n%s\n" % (
                            b["exe"], " ".join([cls] + argset), rc, wall, " (TIMEOUT)" if to else "", so, se))
                    for r in rs:
                        r["log"] = os.path.relpath(logname, outdir)
                    rows.extend(rs)
                    st = sorted(set(r["status"] for r in rs))
                    log("  run   %-9s %-15s %s %-8s %-12s %6.2f s %s" % (
                        prog, v, cls, " ".join(argset), "/".join(st), wall,
                        next((r.get("message", "") for r in rs if r.get("message")), "")[:120]))
    cross_check(rows)
    return rows


# ------------------------------------------------------------------------------------------------ reports

CSV_FIELDS = ["program", "family", "name", "cls", "args", "variant", "status", "iters", "calls", "time_s",
              "kernel_time_s", "time_source", "best_time_s", "metric", "value", "best_value", "bytes", "gbps",
              "pct_peak_bw", "ratio_vs_nvcc", "ratio_vs_gcc", "sim_instructions", "instr_vs_gcc",
              "sim_warp_instructions", "sim_sectors", "sim_dram_bytes", "sim_est_time_s", "est_vs_nvcc", "est_vs_gcc",
              "est_vs_clang", "verified",
              "checksum", "serial_checksum", "rtol", "wall_s", "message", "log"]


def fmt(v, spec):
    if v in ("", None):
        return ""
    try:
        return spec % float(v)
    except (TypeError, ValueError):
        return str(v)


def fmt_time(t):
    if t in ("", None):
        return ""
    t = float(t)
    if t != t:
        return ""
    if t < 1e-3:
        return "%.1f us" % (t * 1e6)
    if t < 1:
        return "%.3f ms" % (t * 1e3)
    return "%.3f s" % t


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("time_s", "best_time_s", "value", "best_value"):
            try:
                r[k] = float(r[k]) if r.get(k) not in ("", None) else ""
            except ValueError:
                pass
    return rows


def write_markdown(rows, meta, path, chart_note):
    lines = ["# ptxcc test-suite report", ""]
    lines.append("- device: %s" % meta.get("device"))
    lines.append("- date: %s, host: %s, mode: %s, classes: %s" % (meta.get("date"), meta.get("host"), meta.get("mode"),
                                                                  meta.get("classes")))
    for k, v in sorted(meta.get("toolchains", {}).items()):
        lines.append("- %s: %s" % (k, v))
    if meta.get("peak_bw"):
        lines.append("- peak memory bandwidth used for %% of peak: %.0f GB/s" % meta["peak_bw"])
    lines.append("- time/iter is the kernel time per iteration (PTXRT_PROFILE for ptxcc, CUDA events for nvcc) where "
                 "available, else the program's own timer; ratios are time / time of the nvcc or GCC version "
                 "(above 1 = slower)")
    if chart_note:
        lines.append("- charts: %s" % chart_note)
    sim = any(r.get("sim_instructions") not in ("", None) for r in rows)
    if sim:
        lines.append("- PTX instr. is what ptxsim executed in the result's kernels over the whole run (every thread's "
                     "instructions; GCC's code runs its non-SIMD instructions in all 32 lanes of a warp); vs GCC "
                     "there is that count / the GCC version's; on ptxsim times are the simulator's")
        lines.append("- ptxsim's counters over the whole run: warp instr. (issued by warps), sectors (32-byte sectors "
                     "of global loads and stores), DRAM bytes (under ptxsim's L2 model); est. time is the model's "
                     "estimated kernel time per call on the device ptxsim models (PTXSIM_MODEL, ptx-sim/README.md), "
                     "est. vs nvcc / GCC / Clang that time / the nvcc, GCC or Clang (clang-omp, for the OpenMP versions) "
                     "version's estimate")
    lines.append("")
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    lines.append("Status counts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    lines.append("")
    summary = ratio_summary(rows)
    if summary:
        lines += summary + [""]
    head = ("| program | result | class | args | version | status | time/iter | source | metric | % peak BW | vs nvcc | "
            "vs GCC |")
    if sim:
        head += (" PTX instr. | instr. vs GCC | warp instr. | sectors | DRAM bytes | est. time | est. vs nvcc |"
                 " est. vs GCC | est. vs Clang |")
    lines.append(head + " note |")
    lines.append("|---" * (head.count("|") - 1) + "|---|")
    order = {v: i for i, v in enumerate(ALL_VARIANTS)}
    for r in sorted(rows, key=lambda r: (list(PROGRAMS).index(r["program"]) if r["program"] in PROGRAMS else 99,
                                         CLASSES.find(r["cls"]), r.get("args", ""), r["name"],
                                         order.get(r["variant"], 99))):
        metric = ""
        if r.get("best_value") not in ("", None):
            metric = "%s %s" % (fmt(r["best_value"], "%.4g"), r.get("metric", ""))
        note = (r.get("message") or "").replace("|", "\\|")
        cells = [r["program"], r["name"], r["cls"], r.get("args", ""), r["variant"], r["status"],
                 fmt_time(r.get("best_time_s")), r.get("time_source", ""), metric, fmt(r.get("pct_peak_bw"), "%.1f%%"),
                 fmt(r.get("ratio_vs_nvcc"), "%.2f"), fmt(r.get("ratio_vs_gcc"), "%.2f")]
        if sim:
            cells += [fmt(r.get("sim_instructions"), "%.4g"), fmt(r.get("instr_vs_gcc"), "%.2f"),
                      fmt(r.get("sim_warp_instructions"), "%.4g"), fmt(r.get("sim_sectors"), "%.4g"),
                      fmt(r.get("sim_dram_bytes"), "%.4g"), fmt_time(r.get("sim_est_time_s")),
                      fmt(r.get("est_vs_nvcc"), "%.2f"), fmt(r.get("est_vs_gcc"), "%.2f"),
                      fmt(r.get("est_vs_clang"), "%.2f")]
        lines.append("| " + " | ".join(str(c) for c in cells + [note[:200]]) + " |")
    lines.append("")
    isa_md = os.path.join(os.path.dirname(path), "isa.md")  # written by isa.attach (run, gpu-run)
    if os.path.isfile(isa_md):
        lines += [open(isa_md).read()]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def ratio_summary(rows):
    """Geometric means of the time ratios of each version to nvcc and to GCC, and the results more than
    10% slower than nvcc."""
    import math
    out = []
    for key, ref in (("ratio_vs_nvcc", "nvcc"), ("ratio_vs_gcc", "GCC")):
        by = {}
        for r in rows:
            v = r.get(key)
            if v not in ("", None) and r["status"] == "PASS":
                by.setdefault((r["variant"], r["cls"]), []).append(float(v))
        for (variant, cls), vals in sorted(by.items()):
            gm = math.exp(sum(math.log(x) for x in vals) / len(vals))
            out.append("- %s / %s, class %s: geometric mean time ratio %.2f over %d results (%d slower by more "
                       "than 10%%)" % (variant, ref, cls, gm, len(vals), sum(x > 1.1 for x in vals)))
    slow = sorted((r for r in rows if r.get("ratio_vs_nvcc") not in ("", None) and float(r["ratio_vs_nvcc"]) > 1.1
                   and r["variant"].startswith("ptxcc")), key=lambda r: -float(r["ratio_vs_nvcc"]))
    if slow:
        out.append("- slower than nvcc by more than 10%: " + ", ".join(
            "%s %s %s (%.2fx)" % (r["name"], r["cls"], r["variant"], float(r["ratio_vs_nvcc"])) for r in slow[:40]))
    return (["## ptxcc against nvcc and GCC", ""] + out) if out else []


def write_charts(rows, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install matplotlib); no charts"
    made = []
    fams = sorted(set(r["family"] for r in rows))
    for fam in fams:
        for cls in CLASSES:
            rs = [r for r in rows if r["family"] == fam and r["cls"] == cls and r["status"] == "PASS"
                  and r.get("best_value") not in ("", None)]
            if not rs:
                continue
            names = []
            for r in rs:
                lab = r["name"] + ((" " + r["args"]) if r.get("args") and r["args"].replace("=", "") not in r["name"] else "")
                if lab not in names:
                    names.append(lab)
            variants = [v for v in ALL_VARIANTS if any(r["variant"] == v for r in rs)]
            fig, ax = plt.subplots(figsize=(min(18, max(6, 0.3 * len(names) * max(1, len(variants)) + 2)), 4.5))
            width = 0.8 / max(1, len(variants))
            for vi, v in enumerate(variants):
                xs, ys = [], []
                for ni, lab in enumerate(names):
                    for r in rs:
                        l2 = r["name"] + ((" " + r["args"]) if r.get("args") and r["args"].replace("=", "") not in r["name"] else "")
                        if l2 == lab and r["variant"] == v:
                            xs.append(ni + vi * width)
                            ys.append(float(r["best_value"]))
                ax.bar(xs, ys, width, label=v)
            ax.set_xticks([i + 0.4 - width / 2 for i in range(len(names))])
            ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
            metrics = sorted(set(r.get("metric", "") for r in rs))
            ax.set_ylabel(" / ".join(metrics))
            ax.set_title("%s, class %s" % (fam, cls))
            ax.legend(fontsize=8)
            fig.tight_layout()
            fn = os.path.join(outdir, "%s-%s.png" % (fam, cls))
            fig.savefig(fn, dpi=100)
            plt.close(fig)
            made.append(os.path.basename(fn))
    return "%d PNG charts (%s)" % (len(made), ", ".join(made)) if made else "no passing results to chart"


def detect_device(mode):
    if mode in ("quick", "emu"):
        return "emu"
    smi = which("nvidia-smi")
    if smi:
        try:
            r = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True,
                               timeout=30)
            names = [l.strip() for l in r.stdout.splitlines() if l.strip()]
            if names:
                return names[0]
        except (OSError, subprocess.TimeoutExpired):
            pass
    return "emu"


def results_dir(device, explicit):
    if explicit:
        return explicit
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", device).strip("-") or "unknown"
    return os.path.join(SUITE, "results", "%s-%s" % (slug, datetime.date.today().isoformat()))


def finish(rows, meta, outdir):
    add_ratios(rows, meta["device"])
    meta["peak_bw"] = peak_bandwidth(meta["device"])
    os.makedirs(outdir, exist_ok=True)
    write_csv(rows, os.path.join(outdir, "report.csv"))
    note = write_charts(rows, outdir)
    write_markdown(rows, meta, os.path.join(outdir, "report.md"), note)
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    log("report: %s (%s)" % (os.path.join(outdir, "report.md"), note))


def summarize(rows):
    bad = [r for r in rows if r["status"] in ("FAIL", "CRASH", "TIMEOUT", "BUILD-FAIL")]
    uns = [r for r in rows if r["status"] == "UNSUPPORTED"]
    log("")
    log("%d results: %d pass, %d unsupported, %d bad" % (len(rows), sum(r["status"] == "PASS" for r in rows),
                                                        len(uns), len(bad)))
    seen = set()
    for r in uns:
        k = (r["program"], r["variant"])
        if k not in seen:
            seen.add(k)
            log("  UNSUPPORTED %s %s: %s" % (r["program"], r["variant"], r.get("message", "")))
    for r in bad:
        log("  %s %s %s %s %s: %s" % (r["status"], r["program"], r["variant"], r["cls"], r["name"], r.get("message", "")))
    return bad


# ------------------------------------------------------------------------------------------------ commands

def parse_list(s, allowed, what):
    items = [x.strip() for x in s.split(",") if x.strip()]
    for x in items:
        if x not in allowed:
            sys.exit("unknown %s %r (choose from %s)" % (what, x, ", ".join(allowed)))
    return items


def default_variants(args, mode):
    if args.variants:
        return parse_list(args.variants, ALL_VARIANTS, "variant")
    if mode == "quick":
        vs = ["serial", "ptxcc-omp", "ptxcc-acc"]
        if getattr(args, "ptxsim", False):
            # GCC's, Clang's and nvcc's versions run on ptxsim too, where gcc offloads to nvptx, clang-tools-19 is
            # installed and nvcc is found (else their builds are SKIPPED, with the reason in the log)
            vs += list(GCC_VARIANTS) + list(CLANG_VARIANTS) + ["nvcc"]
    else:
        vs = ["serial", "ptxcc-omp", "ptxcc-acc", "gcc-omp", "gcc-acc", "nvcc"]
        if getattr(args, "ptxsim", False):
            vs += list(CLANG_VARIANTS)
    if args.dev:
        vs += list(DEV_VARIANTS)
    return vs


def cmd_build(args):
    tc = Toolchains(args)
    progs = discover_programs(args.programs)
    vs = default_variants(args, "build")
    outdir = args.build_dir
    log("building %s × %s in %s" % (",".join(progs), ",".join(vs), outdir))
    builds = build_all(tc, progs, vs, outdir, args.jobs)
    bad = [b for b in builds.values() if b["status"] == "BUILD-FAIL"]
    return 1 if bad else 0


def cmd_run(args, mode=None):
    mode = mode or ("emu" if args.emu else "full")
    tc = Toolchains(args)
    sim = ptxsim_env(tc.ptxcc) if getattr(args, "ptxsim", False) else None
    progs = discover_programs(args.programs)
    vs = default_variants(args, mode)
    classes = list(args.classes.replace(",", "")) if mode != "quick" else ["S"]
    for c in classes:
        if c not in CLASSES:
            sys.exit("unknown class %s" % c)
    device = "ptxsim" if sim else detect_device(mode)
    outdir = results_dir(device, args.out)
    os.makedirs(outdir, exist_ok=True)
    log("device %s; programs %s; versions %s; classes %s" % (device, ",".join(progs), ",".join(vs), ",".join(classes)))
    builds = build_all(tc, progs, vs, args.build_dir, args.jobs)
    for v in sorted(set(b["variant"] for b in builds.values() if b["status"] == "SKIPPED")):
        log("%s versions skipped: %s" % (v, next(b["message"] for b in builds.values()
                                                 if b["variant"] == v and b["status"] == "SKIPPED")))
    rows = run_all(tc, builds, progs, vs, classes, mode, args.timeout, outdir,
                   arg_override=[a.split() for a in args.args] if args.args else None,
                   device="emu" if sim else device, ptxsim=sim)
    meta = dict(device=device, date=datetime.datetime.now().isoformat(timespec="seconds"), host=os.uname().nodename,
                mode=mode, classes="".join(classes), toolchains=tc.describe())
    if mode != "quick" and not sim:
        isa.attach(outdir, progs, tc.ptxcc, tc.arch, log=log)
    finish(rows, meta, outdir)
    bad = summarize(rows)
    if mode == "quick":
        if args.strict and any(r["status"] == "UNSUPPORTED" for r in rows):
            return 1
        return 1 if bad else 0
    return 1 if bad else 0


def cmd_quick(args):
    args.classes = "S"
    return cmd_run(args, mode="quick")


def needed_libs(exe):
    """Shared libraries an executable needs that are not part of the base system (libc, libm, ...)."""
    try:
        out = subprocess.run(["ldd", exe], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    libs = []
    system = ("libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "ld-linux", "linux-vdso", "libgcc_s.so",
              "libstdc++.so")
    for line in out.splitlines():
        m = re.match(r"\s*(\S+)\s*=>\s*(\S+)", line)
        if m and os.path.isfile(m.group(2)) and not m.group(1).startswith(system):
            libs.append(m.group(2))
    return libs


def cmd_pack(args):
    tc = Toolchains(args)
    progs = discover_programs(args.programs)
    # nvcc builds too where nvcc exists here: a fallback for a GPU node without nvcc (gpu-run rebuilds
    # the .cu versions when it has one)
    vs = [v for v in default_variants(args, "pack") if v not in DEV_VARIANTS]
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    builds = build_all(tc, progs, vs, os.path.join(out, "prebuilt"), args.jobs)
    strip = which("strip")
    if strip:  # debug info of the runtime makes each executable ~10 MB
        for b in builds.values():
            if b["status"] == "BUILT":
                subprocess.run([strip, "--strip-debug", b["exe"]], capture_output=True)
    libdir = os.path.join(out, "lib")
    os.makedirs(libdir)
    copied = set()
    for b in builds.values():
        if b["status"] == "BUILT":
            for lib in needed_libs(b["exe"]):
                name = os.path.basename(lib)
                if name not in copied:
                    shutil.copy2(lib, os.path.join(libdir, name))
                    copied.add(name)
    # GCC's nvptx plugin is opened at run time (dlopen), so ldd does not list it
    if tc.gcc and tc.gcc_offload():
        for pat in ("libgomp-plugin-nvptx.so*",):
            for d in ("/usr/lib/x86_64-linux-gnu", os.path.dirname(subprocess.run(
                    [tc.gcc, "-print-file-name=libgomp.so"], capture_output=True, text=True).stdout.strip())):
                for lib in glob.glob(os.path.join(d, pat)):
                    shutil.copy2(lib, os.path.join(libdir, os.path.basename(lib)))
                    copied.add(os.path.basename(lib))
    # sources (the .cu versions are built on the GPU node) and this harness
    shutil.copytree(SUITE, os.path.join(out, "test-suite"),
                    ignore=shutil.ignore_patterns("build", "results", "__pycache__", "*.o"))
    with open(os.path.join(out, "prebuilt", "pack.json"), "w") as f:
        json.dump(dict(date=datetime.datetime.now().isoformat(timespec="seconds"), host=os.uname().nodename,
                       toolchains=tc.describe(), libs=sorted(copied)), f, indent=1)
    with open(os.path.join(out, "README.txt"), "w") as f:
        f.write("ptxcc test-suite pack. On the GPU node (needs nvcc for the CUDA versions, python3):\n"
                "  python3 test-suite/harness/harness.py gpu-run [--classes SWA] [--arch sm_90]\n"
                "The report lands in test-suite/results/<device>-<date>/.\n")
    isa.attach(os.path.join(out, "prebuilt"), progs, tc.ptxcc, tc.arch, keep=os.path.join(out, "prebuilt", "isa"),
               log=log)
    log("packed %d executables and %d libraries into %s" % (
        sum(b["status"] == "BUILT" for b in builds.values()), len(copied), out))
    bad = [b for b in builds.values() if b["status"] == "BUILD-FAIL"]
    for b in bad:
        log("  BUILD-FAIL %s %s: %s" % (b["program"], b["variant"], b["message"]))
    return 0


def cmd_gpu_run(args):
    pack = os.path.dirname(SUITE)
    pre = os.path.join(pack, "prebuilt")
    if not os.path.isdir(pre):
        sys.exit("gpu-run works inside a folder made by `harness pack` (no %s)" % pre)
    tc = Toolchains(args)
    progs = discover_programs(args.programs)
    classes = list(args.classes.replace(",", ""))
    libdir = os.path.join(pack, "lib")
    env = {"LD_LIBRARY_PATH": libdir + ((":" + os.environ["LD_LIBRARY_PATH"]) if os.environ.get("LD_LIBRARY_PATH")
                                        else "")}
    # --ptxsim: a rehearsal on a machine without a GPU, with ptxsim (next to --ptxcc) as the node's libcuda, before
    # the pack's libraries (libgomp and its plugin, libomp)
    sim = ptxsim_env(tc.ptxcc, then=env["LD_LIBRARY_PATH"]) if args.ptxsim else None
    device = "ptxsim" if sim else detect_device("full")
    outdir = results_dir(device, args.out)
    os.makedirs(outdir, exist_ok=True)
    # prebuilt executables
    builds = {}
    for p in progs:
        for v in ALL_VARIANTS:
            exe = os.path.join(pre, v, p)
            if os.path.isfile(exe):
                builds[(p, v)] = dict(program=p, variant=v, status="BUILT", exe=exe, message="")
    try:
        for rec in json.load(open(os.path.join(pre, "builds.json"))):
            k = (rec["program"], rec["variant"])
            if k not in builds and rec["status"] in ("UNSUPPORTED", "BUILD-FAIL"):
                builds[k] = rec
    except (OSError, ValueError):
        pass
    # the CUDA versions, here (or the ones built with the pack where this node has no nvcc)
    if tc.nvcc:
        cu = build_all(tc, progs, ["nvcc"], os.path.join(pack, "gpu-build"), args.jobs)
        builds.update({k: v for k, v in cu.items() if v["status"] != "SKIPPED"})
    else:
        log("no nvcc on this node: using the CUDA versions built with the pack, if any")
    vs = [v for v in ALL_VARIANTS if any(k[1] == v for k in builds)]
    if args.variants:
        vs = [v for v in vs if v in parse_list(args.variants, ALL_VARIANTS, "variant")]
    log("device %s; versions %s; classes %s" % (device, ",".join(vs), ",".join(classes)))
    rows = run_all(tc, builds, progs, vs, classes, "full", args.timeout, outdir, extra_env=env,
                   device="emu" if sim else device, ptxsim=sim)
    meta = dict(device=device, date=datetime.datetime.now().isoformat(timespec="seconds"), host=os.uname().nodename,
                mode="gpu-run", classes="".join(classes), toolchains=dict(tc.describe(), pack=json.load(
                    open(os.path.join(pre, "pack.json"))).get("toolchains") if os.path.isfile(
                    os.path.join(pre, "pack.json")) else None))
    # the counts again with this node's nvcc, ptxas and cuobjdump on ptxcc's packed PTX, else the packed ones
    if not (tc.nvcc and isa.attach(outdir, progs, None, tc.arch, ptx_from=os.path.join(pre, "isa"), log=log)) \
            and os.path.isfile(os.path.join(pre, "isa.md")):
        shutil.copyfile(os.path.join(pre, "isa.md"), os.path.join(outdir, "isa.md"))
    finish(rows, meta, outdir)
    summarize(rows)
    return 0


def recount_sim(rows, path):
    """The sim_* columns of `rows` again from the run's own records (each row's log's RESULT line and the
    ptxsim counters written next to it), and their ratios: for a report made before the harness matched
    kernels as it does now. Rows without those records keep what they have."""
    for r in rows:
        log_path = os.path.join(path, r.get("log") or "")
        stats_path = log_path[:-len(".log")] + ".ptxsim.json" if log_path.endswith(".log") else ""
        if r.get("status") != "PASS" or not os.path.exists(stats_path):
            continue
        with open(log_path) as f:
            stdout = f.read().split("\n--- stdout\n", 1)[-1].split("\n--- stderr\n", 1)[0]
        res = next((x for x in parse_result_lines(stdout) if x.get("name") == r.get("name")), None)
        if res is None:
            continue
        r.update(sim_fields(read_sim_stats(stats_path), res))
        for col in ("instr_vs_gcc", "est_vs_nvcc", "est_vs_gcc", "est_vs_clang"):
            r[col] = ""


def cmd_report(args):
    path = args.dir
    rows = read_csv(os.path.join(path, "report.csv"))
    meta = json.load(open(os.path.join(path, "meta.json")))
    if args.recount:
        recount_sim(rows, path)
        add_ratios(rows, meta["device"])
        write_csv(rows, os.path.join(path, "report.csv"))
        log("recounted ptxsim's columns of %s from its logs" % os.path.join(path, "report.csv"))
    note = write_charts(rows, path)
    write_markdown(rows, meta, os.path.join(path, "report.md"), note)
    log("rewrote %s" % os.path.join(path, "report.md"))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, classes=True):
        p.add_argument("--programs", help="comma-separated subset (default: all)")
        p.add_argument("--variants", help="comma-separated versions (default: all this machine can build)")
        p.add_argument("--dev", action="store_true", help="also the host-only checks of the programs themselves")
        p.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel builds")
        p.add_argument("--build-dir", default=os.path.join(SUITE, "build"),
                       help="where executables go (default test-suite/build; 'tmp': a private temporary folder)")
        p.add_argument("--ptxcc", help="path of ptxcc (default target/release/ptxcc, then PATH)")
        p.add_argument("--ptxcc-flag", action="append", metavar="FLAG",
                       help="one more flag for the ptxcc versions' builds, e.g. --ptxcc-flag=-fptxcc-multi-device "
                            "(repeatable)")
        p.add_argument("--arch", help="GPU architecture for nvcc (default sm_90)")
        p.add_argument("--timeout", type=int, default=900, help="seconds per run")
        p.add_argument("--out", help="results folder (default test-suite/results/<device>-<date>)")
        if classes:
            p.add_argument("--classes", default="SWA", help="classes to run, e.g. SWA (default SWA)")

    p = sub.add_parser("run", help="build, run, verify, report")
    common(p)
    p.add_argument("--emu", action="store_true", help="force the emulator for the ptxcc versions")
    p.add_argument("--ptxsim", action="store_true",
                   help="run the ptxcc versions through libptxrt's CUDA path on ptxsim, and GCC's through its nvptx "
                        "plugin there (no GPU needed)")
    p.add_argument("--args", action="append", help="argument set to run every program with, e.g. 'iters=3'")
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("quick", help="class S on the emulator with verification (what CI runs)")
    common(p, classes=False)
    p.add_argument("--strict", action="store_true", help="UNSUPPORTED fails too")
    p.add_argument("--ptxsim", action="store_true",
                   help="run the ptxcc versions through libptxrt's CUDA path on ptxsim instead of the emulator, and "
                        "GCC's (the sim_quick programs) through its nvptx plugin there")
    p.set_defaults(fn=cmd_quick, timeout=180, args=None, emu=True)
    p = sub.add_parser("build", help="only build")
    common(p, classes=False)
    p.set_defaults(fn=cmd_build)
    p = sub.add_parser("pack", help="build here and pack for a GPU node")
    common(p, classes=False)
    p.set_defaults(fn=cmd_pack, out=os.path.join(SUITE, "build", "pack"))
    p = sub.add_parser("gpu-run", help="inside a pack on the GPU node: build .cu with nvcc, run all, report")
    common(p)
    p.add_argument("--ptxsim", action="store_true",
                   help="rehearse on a machine without a GPU: ptxsim (libptxsim.so next to --ptxcc) is the node's "
                        "libcuda, for the ptxcc versions and GCC's")
    p.set_defaults(fn=cmd_gpu_run)
    p = sub.add_parser("isa", help="static instruction counts of the reduction loops, ptxcc vs nvcc (PTX, SASS)")
    p.add_argument("--programs", help="comma-separated subset (default: all with a kernel in isa.ISA_KERNELS)")
    p.add_argument("--ptxcc", help="path of ptxcc (default target/release/ptxcc, then PATH)")
    p.add_argument("--arch", help="GPU architecture (default sm_90)")
    p.add_argument("--out", help="Markdown file (default test-suite/results/isa-<date>.md)")
    p.add_argument("--keep", help="keep the PTX, cubin and SASS files in this folder")
    p.add_argument("--listings", action="store_true", help="append the main loop bodies")
    p.set_defaults(fn=isa.main)
    p = sub.add_parser("report", help="rewrite report.md and charts from report.csv")
    p.add_argument("dir")
    p.add_argument("--recount", action="store_true",
                   help="first redo report.csv's ptxsim columns (sim_*, est_vs_*) from the run's logs and counters")
    p.set_defaults(fn=cmd_report)
    args = ap.parse_args(argv)
    tmp = None
    if getattr(args, "build_dir", None) == "tmp":
        # a private build folder, removed at the end: concurrent runs in one checkout (several lit
        # invocations share Output/) must not delete each other's executables
        tmp = args.build_dir = tempfile.mkdtemp(prefix="ts-build-")
    try:
        return args.fn(args)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
