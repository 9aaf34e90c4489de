#!/usr/bin/env python3
"""Static instruction counts of the reduction benchmarks' loops: ptxcc's PTX and SASS next to nvcc's.

    python3 test-suite/harness/harness.py isa [--out FILE.md] [--keep DIR]

For each kernel in ISA_KERNELS it builds
  ptxcc-omp   ptxcc -fopenmp -O2 --emit=ptx <name>_omp.c      (and ptxcc-acc: -fopenacc, <name>_acc.c)
  nvcc        nvcc -ptx -arch=sm_90 -O3 <name>.cu
and, where ptxas and cuobjdump are installed, turns each PTX into a cubin (ptxas -arch=sm_90 -O3, the
same for both compilers) and disassembles it (cuobjdump -sass).

Method (the same for PTX and SASS, both read in layout order):
  - instructions: every statement of the kernel's body except labels, directives (.reg, .pragma, ...),
    braces and, in SASS, NOP padding; a PTX line `{ .reg .b32 t; mov.b64 {t, %r1}, %rd2; }` counts 1;
  - a loop is a branch to a label (an address, in SASS) laid out before it — a back edge; its body is
    every instruction from that label to the branch, both included;
  - innermost loops are those whose body contains no other loop's body;
  - the main loop is the innermost loop holding the most "marker" instructions: the operation each
    source iteration does a known number of times (global loads for dot and max, the reciprocal or
    division for pi), so that the remainder loop of an unrolled loop and the small copy loops of a
    reduction epilogue are not picked;
  - unroll = markers in the main loop / markers per source iteration; per iteration = body / unroll.
The count is static: it says how much code each iteration runs, not how fast it runs (latency, the
slow path of a division, memory bandwidth); the GPU run gives the time.
"""

import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
COMMON = os.path.join(SUITE, "common")

# one load of an element from memory that is not local, shared, param or const (PTX); width of a vector
PTX_LOAD = r"^ld(\.global)?(\.nc)?(\.v(?P<w>[24]))?\.[busf]\d+$"
SASS_LOAD = r"^(LDG|LD)(\.|$)"

# (program, kernel function name in every version, PTX marker, SASS marker, markers per source iteration)
ISA_KERNELS = [
    ("dot", "dot_kernel", PTX_LOAD, SASS_LOAD, 2),
    ("maxred", "max_double", PTX_LOAD, SASS_LOAD, 1),
    ("maxred", "max_int", PTX_LOAD, SASS_LOAD, 1),
    ("pi", "pi_kernel", r"^div\.(rn|full|approx)\.f64$|^rcp\.(rn|approx)(\.ftz)?\.f64$", r"^MUFU\.RCP64H$", 1),
    ("pi_float", "pi_float_kernel", r"^div\.(rn|full|approx)(\.ftz)?\.f32$|^rcp\.(rn|approx)(\.ftz)?\.f32$",
     r"^MUFU\.RCP$", 1),
]
MARKER_TEXT = {"dot_kernel": "2 loads", "max_double": "1 load", "max_int": "1 load", "pi_kernel": "1 f64 division",
               "pi_float_kernel": "1 f32 division"}

VERSIONS = ("ptxcc-omp", "ptxcc-acc", "nvcc")


# ---------------------------------------------------------------------------------------------- parsing

def ptx_functions(text):
    """{entry name: [item]} where an item is ('label', name) or ('insn', opcode, full statement)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    funcs = {}
    for m in re.finditer(r"\.entry\s+([\w$.]+)\s*\(", text):
        name = m.group(1)
        start = text.find("{", text.find(")", m.end()))
        # the body ends at the brace that closes the one opening it
        depth, i = 0, start
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        funcs[name] = ptx_items(text[start + 1:i])
    return funcs


def ptx_items(body):
    items = []
    for line in body.splitlines():
        line = line.split("//", 1)[0].strip()
        if not line:
            continue
        m = re.match(r"^([\w$.]+):\s*(.*)$", line)
        if m and not line.startswith("@"):
            items.append(("label", m.group(1)))
            line = m.group(2).strip()
            if not line:
                continue
        if line.startswith("{") and line.endswith("}"):
            line = line[1:-1]
        elif line in ("{", "}"):
            continue
        for stmt in line.split(";"):
            stmt = stmt.strip()
            if not stmt or stmt.startswith("."):
                continue
            s = re.sub(r"^@!?%\w+\s+", "", stmt)
            op = s.split()[0] if s.split() else s
            items.append(("insn", op, stmt))
    return items


def ptx_branch_target(stmt):
    m = re.match(r"^(@!?%\w+\s+)?bra(\.uni)?\s+([\w$.]+)$", stmt)
    return m.group(3) if m else None


UNDECODED = "?"  # an instruction the disassembler printed only as its encoding


def sass_functions(text):
    """{function name: [item]} from cuobjdump -sass; an item is ('insn', opcode, statement, address)."""
    funcs, cur, last = {}, None, None
    for line in text.splitlines():
        m = re.match(r"\s*Function\s*:\s*(\S+)", line)
        if m:
            cur, last = funcs.setdefault(m.group(1), []), None
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            addr = int(m.group(1), 16)
            # CUDA 11.8's disassemblers print no text for a few sm_90 instructions (the integer
            # max, for one), only their encoding: every 16 bytes is one instruction, so a gap in the
            # addresses is that many instructions we cannot name
            if last is not None:
                for a in range(last + 16, addr, 16):
                    cur.append(("insn", UNDECODED, UNDECODED, a))
            last = addr
            stmt = m.group(2).strip()
            s = re.sub(r"^@!?U?P\w+\s+", "", stmt)
            op = s.split()[0]
            cur.append(("insn", op, stmt, addr))
    return funcs


def sass_branch_target(stmt):
    m = re.match(r"^(@!?U?P\w+\s+)?BRA(\.\S+)?\s+(?:`\()?(0x[0-9a-f]+)", stmt)
    return int(m.group(3), 16) if m else None


# -------------------------------------------------------------------------------------------- analysis

def insns_of(items):
    return [it for it in items if it[0] == "insn" and it[1] != "NOP"]


def loops(items, kind):
    """Back edges as (start index, end index) into the instruction list (both included)."""
    insns = insns_of(items)
    out = []
    if kind == "ptx":
        # label -> index of the first instruction after it
        pos, n = {}, 0
        for it in items:
            if it[0] == "label":
                pos[it[1]] = n
            elif it[1] != "NOP":
                n += 1
        for j, it in enumerate(insns):
            t = ptx_branch_target(it[2])
            if t is not None and t in pos and pos[t] <= j:
                out.append((pos[t], j))
    else:
        addr = {it[3]: i for i, it in enumerate(insns)}
        for j, it in enumerate(insns):
            t = sass_branch_target(it[2])
            if t is not None and t <= it[3] and t in addr:
                if addr[t] == j:  # `BRA self` after EXIT: the padding trap, not a loop
                    continue
                out.append((addr[t], j))
    return insns, out


def innermost(lps):
    return [l for l in lps if not any(o != l and l[0] <= o[0] and o[1] <= l[1] for o in lps)]


def marker_weight(op, marker):
    m = re.match(marker, op)
    if not m:
        return 0
    w = m.groupdict().get("w") if m.groupdict() else None
    return int(w) if w else 1


def analyse(items, kind, marker, per_iter):
    """dict(body, markers, unroll, per_iter, loops, total, ...) for one kernel, or None without a loop."""
    insns, lps = loops(items, kind)
    inner = innermost(lps)
    best = None
    for (a, b) in inner:
        body = insns[a:b + 1]
        mk = sum(marker_weight(it[1], marker) for it in body)
        key = (mk, len(body))
        if best is None or key > best[0]:
            best = (key, a, b, body)
    res = dict(total=len(insns), loops=len(lps), innermost=len(inner))
    if best is None or best[0][0] == 0:
        res.update(body=None)
        return res
    (mk, n), a, b, body = best
    unroll = mk / float(per_iter)
    res.update(body=n, markers=mk, unroll=unroll, per_iter=n / unroll if unroll else None,
               listing=[it[2] for it in body], undecoded=sum(1 for it in body if it[1] == UNDECODED))
    return res


def kernel_stats(items, kind):
    """Counts over the whole kernel: shuffles, barriers, atomics, local-memory accesses, calls."""
    ops = [it[1] for it in insns_of(items)]
    if kind == "ptx":
        pats = dict(shfl=r"^shfl\.", bar=r"^(bar|barrier)\.", atom=r"^(atom|red)\.", local=r"^(ld|st)\.local\.",
                    call=r"^call")
    else:
        pats = dict(shfl=r"^SHFL\.", bar=r"^BAR\.", atom=r"^(ATOM|ATOMG|RED|ATOMS)\.", local=r"^(LDL|STL)(\.|$)",
                    call=r"^CALL\.", undecoded=r"^\?$")
    return {k: sum(1 for o in ops if re.match(p, o)) for k, p in pats.items()}


def function_name(symbol):
    """The source function of a kernel symbol: ptxcc's __omp_offloading_<dev>_<file>_<func>_l<line>,
    nvcc's Itanium-mangled _Z<len><name>..., or the symbol itself."""
    m = re.match(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_(.*)_l\d+$", symbol)
    if m:
        return m.group(1)
    m = re.match(r"^_Z(\d+)(\w+)", symbol)
    if m:
        return m.group(2)[:int(m.group(1))]
    return symbol


def find_kernel(funcs, kernel):
    names = [n for n in funcs if function_name(n) == kernel]
    return (names[0], funcs[names[0]]) if names else (None, None)


# ------------------------------------------------------------------------------------------------ tools

class Tools:
    def __init__(self, ptxcc=None, nvcc=None, arch="sm_90"):
        self.ptxcc = which(ptxcc, os.environ.get("PTXCC"), os.path.join(os.path.dirname(SUITE), "target", "release",
                                                                         "ptxcc"), "ptxcc")
        # NVIDIA's tools: on PATH, else the PyPI wheels of .cuda-venv (scripts/setup-cuda-tools.sh), else a toolkit
        venv = os.path.join(os.path.dirname(SUITE), ".cuda-venv", "cuda", "bin")
        self.nvcc = which(nvcc, os.environ.get("NVCC"), "nvcc", os.path.join(venv, "nvcc"), "/usr/local/cuda/bin/nvcc")
        self.ptxas = which(os.environ.get("PTXAS"), "ptxas", os.path.join(venv, "ptxas"), "/usr/local/cuda/bin/ptxas")
        self.cuobjdump = which(os.environ.get("CUOBJDUMP"), "cuobjdump", os.path.join(venv, "cuobjdump"),
                               "/usr/local/cuda/bin/cuobjdump")
        self.arch = arch

    def versions(self):
        def ver(tool, flag="--version"):
            if not tool:
                return None
            try:
                out = subprocess.run([tool, flag], capture_output=True, text=True, timeout=60).stdout
            except (OSError, subprocess.TimeoutExpired):
                return tool
            lines = [l for l in out.splitlines() if l.strip()]
            return "%s (%s)" % (tool, lines[-1].strip() if lines else "?")
        built = None
        if self.ptxcc:
            built = "%s (built %s)" % (self.ptxcc, datetime.datetime.fromtimestamp(
                os.path.getmtime(self.ptxcc)).isoformat(timespec="minutes"))
        return dict(ptxcc=built, nvcc=ver(self.nvcc), ptxas=ver(self.ptxas), cuobjdump=ver(self.cuobjdump))


def which(*names):
    for n in names:
        if n and os.path.sep in n:
            if os.path.isfile(n) and os.access(n, os.X_OK):
                return n
        elif n and shutil.which(n):
            return shutil.which(n)
    return None


def run(cmd, cwd=None):
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=600)
    return r.returncode, (r.stdout or "") + (r.stderr or "")


def build_ptx(tools, prog, version, work, ptx_from=None):
    """(ptx path, None) or (None, why). ptxcc's PTX comes from ptx_from (a folder kept by an earlier run,
    e.g. the pack's prebuilt/isa on a GPU node without LLVM) when it is there."""
    out = os.path.join(work, "%s.%s.ptx" % (prog, version))
    if version.startswith("ptxcc"):
        kept = os.path.join(ptx_from, os.path.basename(out)) if ptx_from else None
        if kept and os.path.isfile(kept):
            if os.path.abspath(kept) != os.path.abspath(out):
                shutil.copyfile(kept, out)
            return out, None
        if not tools.ptxcc:
            return None, "no ptxcc"
        model, suffix = ("-fopenmp", "omp") if version == "ptxcc-omp" else ("-fopenacc", "acc")
        src = os.path.join(SUITE, prog, "%s_%s.c" % (prog, suffix))
        cmd = [tools.ptxcc, model, "-O2", "--emit=ptx", "--offload-arch=" + tools.arch, "-I", COMMON, src, "-o", out]
    else:
        if not tools.nvcc:
            return None, "no nvcc"
        src = os.path.join(SUITE, prog, prog + ".cu")
        cmd = [tools.nvcc, "-ptx", "-arch=" + tools.arch, "-O3", "-I", COMMON, src, "-o", out]
    if not os.path.isfile(src):
        return None, "no %s" % os.path.basename(src)
    rc, log = run(cmd, cwd=os.path.dirname(src))
    if rc != 0 or not os.path.isfile(out):
        return None, (log.strip().splitlines() or ["failed"])[-1][:200]
    return out, None


def build_sass(tools, ptx):
    if not (tools.ptxas and tools.cuobjdump):
        return None, "no ptxas/cuobjdump"
    cubin = ptx[:-4] + ".cubin"
    rc, log = run([tools.ptxas, "-arch=" + tools.arch, "-O3", ptx, "-o", cubin])
    if rc != 0:
        return None, "ptxas: " + (log.strip().splitlines() or ["failed"])[-1][:200]
    rc, out = run([tools.cuobjdump, "-sass", cubin])
    if rc != 0:
        return None, "cuobjdump: " + out.strip()[:200]
    with open(ptx[:-4] + ".sass", "w") as f:
        f.write(out)
    return out, None


def measure(tools, work, programs=None, ptx_from=None):
    """[dict(program, kernel, version, ptx=analysis|None, sass=analysis|None, notes)]"""
    rows = []
    progs = sorted(set(p for p, *_ in ISA_KERNELS if not programs or p in programs))
    built = {}
    for prog in progs:
        for v in VERSIONS:
            ptx, why = build_ptx(tools, prog, v, work, ptx_from)
            sass, swhy = (build_sass(tools, ptx) if ptx else (None, why))
            built[(prog, v)] = (ptx, why, sass, swhy)
    for prog, kernel, pmark, smark, per in ISA_KERNELS:
        if prog not in progs:
            continue
        for v in VERSIONS:
            ptx, why, sass, swhy = built[(prog, v)]
            row = dict(program=prog, kernel=kernel, version=v, ptx=None, sass=None, ptx_note=why, sass_note=swhy)
            if ptx:
                name, items = find_kernel(ptx_functions(open(ptx).read()), kernel)
                if items is None:
                    row["ptx_note"] = "no kernel %s in the PTX" % kernel
                else:
                    row["symbol"] = name
                    row["ptx"] = analyse(items, "ptx", pmark, per)
                    row["ptx"]["stats"] = kernel_stats(items, "ptx")
            if sass:
                name, items = find_kernel(sass_functions(sass), kernel)
                if items is None:
                    row["sass_note"] = "no kernel %s in the SASS" % kernel
                else:
                    row["sass"] = analyse(items, "sass", smark, per)
                    row["sass"]["stats"] = kernel_stats(items, "sass")
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------- report

def cell(a, note=None):
    if not a:
        return "n/a" + (" (%s)" % note if note else "")
    if a.get("body") is None:
        return "no loop"
    u = a["unroll"]
    us = ("%d" % u) if abs(u - round(u)) < 1e-9 else ("%.2f" % u)
    pi = a["per_iter"]
    ps = ("%d" % pi) if abs(pi - round(pi)) < 1e-9 else ("%.2f" % pi)
    return "**%s** (%d / %s)%s" % (ps, a["body"], us, " ?%d" % a["undecoded"] if a.get("undecoded") else "")


def ratio(a, b):
    if a and b and a.get("per_iter") and b.get("per_iter"):
        return "%.2f" % (a["per_iter"] / b["per_iter"])
    return ""


def markdown(rows, tools, title_level="##"):
    lines = ["%s Static instruction counts of the reduction loops (ptxcc vs nvcc)" % title_level, ""]
    try:
        head = subprocess.run(["git", "-C", SUITE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        head = ""
    lines.append("Generated %s by `harness.py isa` (arch %s%s). Tools: %s." % (
        datetime.date.today().isoformat(), tools.arch, ", source tree at " + head if head else "",
        "; ".join("%s %s" % (k, v) for k, v in tools.versions().items() if v)))
    lines.append("")
    lines.append("Each cell: **instructions per source iteration** (instructions in the main loop body / "
                 "unroll factor). PTX from `ptxcc -fopenmp|-fopenacc -O2 --emit=ptx` and `nvcc -ptx -arch=%s`; "
                 "SASS from `ptxas -arch=%s -O3` on each PTX, then `cuobjdump -sass`. Main loop = the innermost "
                 "loop (a branch back to a label laid out before it; body = label to branch) holding the most "
                 "marker operations; unroll = markers in it / markers per source iteration. ratio = ptxcc-omp "
                 "per iteration / nvcc per iteration. `?N`: N of the loop's SASS instructions are ones "
                 "the disassembler prints only as an encoding (CUDA 11.8 cannot name some sm_90 "
                 "instructions, the integer max among them); they are counted from the addresses." % (
                     tools.arch, tools.arch))
    lines.append("")
    lines.append("| program | kernel | marker / iter | PTX ptxcc-omp | PTX ptxcc-acc | PTX nvcc | PTX ratio | "
                 "SASS ptxcc-omp | SASS ptxcc-acc | SASS nvcc | SASS ratio |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    by = {(r["program"], r["kernel"], r["version"]): r for r in rows}
    keys = []
    for r in rows:
        k = (r["program"], r["kernel"])
        if k not in keys:
            keys.append(k)
    for prog, kernel in keys:
        o, a, n = (by.get((prog, kernel, v)) or {} for v in VERSIONS)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            prog, kernel, MARKER_TEXT.get(kernel, ""),
            cell(o.get("ptx"), o.get("ptx_note")), cell(a.get("ptx"), a.get("ptx_note")),
            cell(n.get("ptx"), n.get("ptx_note")), ratio(o.get("ptx"), n.get("ptx")),
            cell(o.get("sass"), o.get("sass_note")), cell(a.get("sass"), a.get("sass_note")),
            cell(n.get("sass"), n.get("sass_note")), ratio(o.get("sass"), n.get("sass"))))
    lines.append("")
    lines.append("Whole kernels (static counts; SASS without NOP padding): instructions, shuffles, barriers, "
                 "atomics, local-memory accesses (ld/st.local, LDL/STL), calls.")
    lines.append("")
    lines.append("| program | kernel | version | PTX instr | shfl | bar | atom | local | call | SASS instr | SHFL | "
                 "BAR | ATOM/RED | LDL/STL | CALL | undecoded |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for prog, kernel in keys:
        for v in VERSIONS:
            r = by.get((prog, kernel, v)) or {}
            p, s = r.get("ptx"), r.get("sass")
            ps = p["stats"] if p else {}
            ss = s["stats"] if s else {}
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                prog, kernel, v, p["total"] if p else "", ps.get("shfl", ""), ps.get("bar", ""), ps.get("atom", ""),
                ps.get("local", ""), ps.get("call", ""), s["total"] if s else "", ss.get("shfl", ""),
                ss.get("bar", ""), ss.get("atom", ""), ss.get("local", ""), ss.get("call", ""),
                ss.get("undecoded", "")))
    lines.append("")
    return lines


def listings(rows):
    """The main loop bodies themselves, for the appendix of the committed report."""
    out = ["### Main loop bodies", ""]
    for r in rows:
        for kind in ("ptx", "sass"):
            a = r.get(kind)
            if a and a.get("listing"):
                out.append("%s %s, %s, %s (%d instructions, unroll %g):" % (r["program"], r["kernel"], r["version"],
                                                                        kind.upper(), a["body"], a["unroll"]))
                out.append("")
                out.append("```")
                out += ["  " + l for l in a["listing"]]
                out.append("```")
                out.append("")
    return out


def write(out, programs=None, ptxcc=None, arch=None, keep=None, ptx_from=None, with_listings=False):
    """Measures, writes the Markdown to `out`; returns the lines."""
    tools = Tools(ptxcc, None, arch or "sm_90")
    work = keep or tempfile.mkdtemp(prefix="ts-isa-")
    os.makedirs(work, exist_ok=True)
    try:
        rows = measure(tools, work, programs, ptx_from)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    lines = markdown(rows, tools)
    if with_listings:
        lines += listings(rows)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def attach(outdir, programs, ptxcc=None, arch=None, keep=None, ptx_from=None, log=print):
    """For the harness's run, pack and gpu-run: writes outdir/isa.md (which report.md then includes) when
    one of the programs has a kernel in ISA_KERNELS; never fails the caller."""
    progs = [p for p in programs if any(p == k[0] for k in ISA_KERNELS)]
    if not progs:
        return None
    out = os.path.join(outdir, "isa.md")
    try:
        write(out, progs, ptxcc, arch, keep, ptx_from)
        log("isa: %s" % out)
        return out
    except Exception as e:  # a missing tool or an odd disassembly must not lose the timings
        log("isa: no instruction counts (%s: %s)" % (type(e).__name__, e))
        return None


def main(args):
    programs = [p.strip() for p in args.programs.split(",")] if getattr(args, "programs", None) else None
    out = getattr(args, "out", None) or os.path.join(SUITE, "results", "isa-%s.md" % datetime.date.today().isoformat())
    lines = write(out, programs, getattr(args, "ptxcc", None), getattr(args, "arch", None), getattr(args, "keep", None),
                  None, getattr(args, "listings", False))
    print("\n".join(markdown_head(lines)))
    print("wrote %s" % out)
    return 0


def markdown_head(lines):
    """The first table (up to its blank line), for the terminal."""
    n = 0
    seen_table = False
    for l in lines:
        n += 1
        if l.startswith("|"):
            seen_table = True
        elif seen_table and not l:
            break
    return lines[:n]


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs")
    ap.add_argument("--ptxcc")
    ap.add_argument("--arch")
    ap.add_argument("--out")
    ap.add_argument("--keep", help="keep the PTX, cubin and SASS files in this folder")
    ap.add_argument("--listings", action="store_true", help="append the main loop bodies")
    sys.exit(main(ap.parse_args()))
