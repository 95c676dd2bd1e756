#!/usr/bin/env python3
"""fusion_oracle.py - fused graphs still compute what torch computed.

End-to-end check of tsir-create-fusion-groups with Debian's python3-torch as
the oracle. For every corpus case whose original graph torch._C.parse_ir
accepts and that has data, tsir imports the graph, fuses it and exports it.
Torch cannot run a `prim::FusionGroup_N` with its `with ... = graph(...)`
section from text (parse_ir drops the section), so each group is inlined
back first, in two ways:

  - here, textually, from the exported `with` sections: this checks the
    groups' inputs, results and bodies as the exporter prints them;
  - by tsir-opt's prim-inline-subgraphs, when that pass inlines anything
    (until it does, that half reports "inline pass inert" and is skipped).

Each result must parse in torch and reproduce the case's recorded outputs
within its tolerances. The cases in EXPECT_FUSED must form at least one
group, so that the check cannot pass by fusing nothing.
"""

import json
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import needs_torch  # noqa: E402,F401 (skips the test without torch)
import torch  # noqa: E402
from torch_cases import parses, runs_as_recorded  # noqa: E402

EXPECT_FUSED = {"pointwise_chain", "lstm_cell"}

VALUE = re.compile(r"%([A-Za-z0-9_.]+)")
CALL = re.compile(r"^(\s*)(.*?) = prim::FusionGroup_(\d+)\((.*?)\)\s*(#.*)?$")
SECTION = re.compile(r"^with prim::FusionGroup_(\d+) = graph\(")


def split_sections(text):
    """The main graph's lines and, per fusion group number, its params and
    body lines (the return line last)."""
    lines = text.splitlines()
    main, sections, current = [], {}, None
    header = False
    for line in lines:
        match = SECTION.match(line)
        if match:
            current = sections.setdefault(int(match.group(1)),
                                          {"header": line, "body": []})
            header = not line.rstrip().endswith("):")
            continue
        if current is None:
            main.append(line)
        elif header:
            current["header"] += " " + line.strip()
            header = not line.rstrip().endswith("):")
        else:
            current["body"].append(line)
    for section in sections.values():
        section["params"] = VALUE.findall(
            section["header"].split("= graph(", 1)[1])
    return main, sections


def inline_groups(text):
    """The exported graph with every prim::FusionGroup_N call replaced by its
    body: params renamed to the call's arguments, returned values to the
    call's results, every other body value to a fresh name."""
    main, sections = split_sections(text)
    out = []
    for count, line in enumerate(main):
        match = CALL.match(line)
        if not match:
            out.append(line)
            continue
        indent, lhs, number, args = match.group(1, 2, 3, 4)
        section = sections[int(number)]
        results = VALUE.findall(lhs)
        arguments = VALUE.findall(args)
        body = section["body"]
        returned = VALUE.findall(body[-1])
        assert body[-1].strip().startswith("return"), body[-1]
        assert len(results) == len(returned), (results, returned)
        assert len(arguments) == len(section["params"])
        renames = dict(zip(section["params"], arguments))
        renames.update(zip(returned, results))

        def rename(m):
            name = m.group(1)
            return "%" + renames.get(name, f"fg{count}_{name}")

        for statement in body[:-1]:
            out.append(indent + VALUE.sub(rename, statement.strip()))
    return "\n".join(out) + "\n"


def tsir(command):
    result = subprocess.run(command, shell=True, capture_output=True,
                            text=True)
    if result.returncode:
        raise RuntimeError(f"{command}\n{result.stderr}")
    return result.stdout


def main():
    translate, opt, corpus = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    checked = failures = groups = 0
    for case in sorted(p.parent for p in corpus.glob("*/meta.json")):
        meta = json.loads((case / "meta.json").read_text())
        if "parse-only" in meta.get("tags", []):
            continue
        if not parses((case / "graph.txt").read_text()):
            continue
        imported = (f"{translate} --import-torchscript {case / 'graph.txt'} "
                    f"--mlir-print-debuginfo")
        fuse = f"{opt} --tsir-create-fusion-groups --mlir-print-debuginfo"
        export = f"{translate} --export-torchscript"
        try:
            fused = tsir(f"{imported} | {fuse} | {export}")
            inlined = tsir(f"{imported} | {fuse} | {opt} "
                           f"--prim-inline-subgraphs --mlir-print-debuginfo | "
                           f"{export}")
        except RuntimeError as error:
            print(f"FAIL {case.name}: tsir failed: {error}")
            failures += 1
            continue
        made = len(re.findall(r"^with prim::FusionGroup_", fused, re.M))
        groups += made
        if case.name in EXPECT_FUSED and made == 0:
            print(f"FAIL {case.name}: no fusion group formed\n{fused}")
            failures += 1
            continue
        checked += 1
        for how, text in (("textual inline", inline_groups(fused)),
                          ("prim-inline-subgraphs", inlined)):
            if "prim::FusionGroup" in text:
                print(f"skip {case.name} ({how}): inline pass inert")
                continue
            try:
                ok = runs_as_recorded(torch._C.parse_ir(text), case, meta)
            except Exception as error:
                print(f"FAIL {case.name} ({how}): torch rejects it: "
                      f"{error}\n{text}")
                failures += 1
                continue
            if not ok:
                print(f"FAIL {case.name} ({how}): outputs differ\n{text}")
                failures += 1
                continue
            print(f"OK {case.name} ({how}, {made} groups)")
    print(f"{checked} fused graphs with {groups} groups run by torch, "
          f"{failures} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
