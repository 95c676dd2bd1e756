# ptx.py - the PTX of the gpu.binary ops that tsir-lower-to-nvvm{format=isa}
# printed, for FileCheck and ptxas.
#
#   ptx.py < module.mlir              prints every kernel module's PTX
#   ptx.py --ptxas PTXAS ARCH DIR < module.mlir
#                                     writes each to DIR and runs
#                                     `PTXAS -arch=ARCH` on it; exits 1 on
#                                     the first rejection, with ptxas's error
import os
import re
import subprocess
import sys

ASSEMBLY = re.compile(r'assembly = "((?:[^"\\]|\\.)*)"')


def unescape(text):
    # MLIR prints non-printable and special characters as \XX hex escapes.
    return re.sub(r"\\([0-9A-Fa-f]{2})",
                  lambda m: chr(int(m.group(1), 16)), text)


def main():
    modules = [unescape(m) for m in ASSEMBLY.findall(sys.stdin.read())]
    if not modules:
        sys.exit("ptx.py: no gpu.binary with PTX assembly in the input")
    if len(sys.argv) == 1:
        for i, ptx in enumerate(modules):
            print(f"// ptx.py module {i}")
            print(ptx)
        return
    _, flag, ptxas, arch, folder = sys.argv
    assert flag == "--ptxas"
    os.makedirs(folder, exist_ok=True)
    for i, ptx in enumerate(modules):
        path = os.path.join(folder, f"module{i}.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        result = subprocess.run([ptxas, f"-arch={arch}", path, "-o",
                                 os.devnull], capture_output=True, text=True)
        if result.returncode:
            sys.exit(f"ptxas rejected {path}:\n{result.stderr}")
    print(f"ptxas accepted {len(modules)} modules")


if __name__ == "__main__":
    main()
