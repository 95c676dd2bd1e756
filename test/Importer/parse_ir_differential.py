#!/usr/bin/env python3
"""parse_ir_differential.py - tsir reads what torch's parse_ir reads.

Differential test with Debian's python3-torch (1.13) as the oracle, over the
hand-written graphs in Inputs/parse-ir/ (one per form of the grammar that
torch's own tests write by hand: untyped values, bare statements, shadowed
names, undefined tensor constants, complex literals, attribute kinds, ...).

For each graph that torch._C.parse_ir accepts, tsir-translate must import
it, export it, and parse_ir must accept the export. parse_ir stops after
the main graph's return and never reads the `with` sections that follow
(irparser.cpp), so it cannot see what tsir does with them: the export must
also keep the input's sections, by name and in order, used or not, nested
or not. A graph torch rejects is reported, with what tsir does with it:
tsir may read more than torch does (the forms torch prints but cannot read
back: NamedTuple and Enum types, inline quantized tensors), and then its
export must read back to the same export (tsir is its own oracle there);
where tsir rejects a graph the error must name its place (file:line:col).

    parse_ir_differential.py TSIR_TRANSLATE INPUT_DIR [--every N]

`--every N` checks every Nth graph (in name order), the sanitizer build's
share.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import needs_torch  # noqa: E402,F401 (skips the test without torch)
import torch  # noqa: E402


SECTION = re.compile(r"^with (\S+) = graph\(", re.M)


def torch_parses(text):
    """Whether parse_ir reads the text; tensor constants (`<Tensor>`) are
    allowed, as torch's tests allow them."""
    try:
        torch._C.parse_ir(text, parse_tensor_constants=True)
        return True, ""
    except Exception as error:  # torch raises RuntimeError and others
        # Some messages start with an empty line ("\nunknown type
        # specifier:"); report the first line that says something.
        lines = [line for line in str(error).splitlines() if line.strip()]
        return False, lines[0] if lines else type(error).__name__


def tsir_round_trip(translate, path):
    """(import error or None, exported text)."""
    imported = subprocess.run([translate, "--import-torchscript", str(path),
                               "--mlir-print-debuginfo"],
                              capture_output=True, text=True)
    if imported.returncode:
        return imported.stderr.strip(), None
    exported = subprocess.run([translate, "--export-torchscript"],
                              input=imported.stdout, capture_output=True,
                              text=True)
    if exported.returncode:
        return "export failed: " + exported.stderr.strip(), None
    return None, exported.stdout


def tsir_fixed_point(translate, export):
    """None if tsir reads its own export back to the same export, else
    what went wrong."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as again:
        again.write(export)
        again.flush()
        error, second = tsir_round_trip(translate, again.name)
    if error:
        return "tsir does not read its own export: " + error
    if second != export:
        return f"the export changes on a second round trip:\n{second}"
    return None


def check(translate, path):
    """(verdict, detail) for one graph: ("OK", None) if torch and tsir both
    read it and torch reads tsir's export; ("rejected", what tsir does) if
    torch does not read it and tsir behaves; ("FAIL", why) otherwise. One
    function returns every verdict, so that main() counts and prints each
    the same way."""
    text = path.read_text()
    torch_ok, torch_error = torch_parses(text)
    error, export = tsir_round_trip(translate, path)
    if not torch_ok:
        # Not part of the contract; tsir's errors must still be located.
        if error and not re.search(r":\d+:\d+: error:", error):
            return "FAIL", f"unlocated error: {error}"
        problem = None if error else tsir_fixed_point(translate, export)
        if problem:
            return "FAIL", problem
        state = ("rejects it too" if error else
                 "reads it and reads its export back unchanged")
        return "rejected", f"({torch_error}); tsir {state}"
    if error:
        return "FAIL", f"torch reads it, tsir does not: {error}"
    if SECTION.findall(export) != SECTION.findall(text):
        return "FAIL", (f"the export's `with` sections "
                        f"{SECTION.findall(export)} are not the input's "
                        f"{SECTION.findall(text)}")
    export_ok, export_error = torch_parses(export)
    if not export_ok:
        return "FAIL", (f"parse_ir rejects the export: "
                        f"{export_error}\n{export}")
    return "OK", None


def main():
    translate, inputs = sys.argv[1], pathlib.Path(sys.argv[2])
    every = int(sys.argv[4]) if sys.argv[3:4] == ["--every"] else 1
    accepted = failures = 0
    for path in sorted(inputs.glob("*.txt"))[::every]:
        verdict, detail = check(translate, path)
        if verdict == "FAIL":
            failures += 1
            print(f"FAIL {path.name}: {detail}")
        elif verdict == "rejected":
            print(f"torch rejects {path.name} {detail}")
        else:
            accepted += 1
            print(f"OK {path.name}")
    print(f"{accepted} graphs read by both and exported readably, "
          f"{failures} failures")
    return 1 if failures or accepted == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
