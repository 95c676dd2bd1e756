"""jitdump_names.py DIR - the jitdump files under DIR (LLVM writes
DIR/.debug/jit/.../jit-<pid>.dump) and the function names they hold, one
per line."""
import os
import re
import sys

# os.walk, not glob: the dumps are under a hidden .debug directory.
dumps = [os.path.join(folder, name)
         for folder, _, names in os.walk(sys.argv[1]) for name in names
         if name.startswith("jit-") and name.endswith(".dump")]
print("dumps:", len(dumps))
names = set()
for dump in dumps:
    with open(dump, "rb") as f:
        names.update(re.findall(rb"[A-Za-z_][A-Za-z0-9_.]{3,}", f.read()))
for name in sorted(names):
    print(name.decode())
