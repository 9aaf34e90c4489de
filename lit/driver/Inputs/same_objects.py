"""same_objects.py A.o B.o: do two objects have the same instructions, sections and symbols?
Prints 'same instructions, sections and symbols: N instructions; <init/fini sections>' or the
differences (exit status 1). The address-significance table (.llvm_addrsig) is compared too."""
import re
import subprocess
import sys


def tool(name):
    for candidate in (name + "-19", name):
        try:
            subprocess.run([candidate, "--version"], capture_output=True, check=True)
            return candidate
        except (OSError, subprocess.CalledProcessError):
            continue
    sys.exit("same_objects.py: %s not found" % name)


objdump, readelf, nm = tool("llvm-objdump"), tool("llvm-readelf"), tool("llvm-nm")


def view(path):
    dis = subprocess.run([objdump, "-d", "--no-show-raw-insn", path], capture_output=True, text=True,
                         check=True).stdout.splitlines()[2:]
    sections = []
    for line in subprocess.run([readelf, "-S", "-W", path], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S*)", line)
        if m:
            sections.append(" ".join(m.groups()))
    symbols = subprocess.run([nm, path], capture_output=True, text=True, check=True).stdout.splitlines()
    return dis, sections, symbols


a, b = view(sys.argv[1]), view(sys.argv[2])
same = True
for what, x, y in zip(("instructions", "sections", "symbols"), a, b):
    if x != y:
        same = False
        print("%s differ:" % what)
        for line in [l for l in x if l not in y][:5]:
            print("  < " + line)
        for line in [l for l in y if l not in x][:5]:
            print("  > " + line)
if not same:
    sys.exit(1)
structors = sorted({s.split()[0] for s in a[1] if s.split()[0].startswith((".init_array", ".fini_array"))})
instructions = sum(1 for l in a[0] if re.match(r"\s+[0-9a-f]+:\s", l))
print("same instructions, sections and symbols: %d instructions; %s" % (instructions, " ".join(structors)))
