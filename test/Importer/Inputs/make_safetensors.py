"""Writes a tiny safetensors file for the importer's --weights tests.

usage: make_safetensors.py OUT [MODE]

MODE (default `good`):
  good       `w` F32 [2, 2] = 1 2 3 4, `b` I64 [2] = 7 -1, `h` F64 [] = 0.5
  truncated  `good`, cut off in the middle of the data
  bad-json   a header that is not JSON
  short      fewer than the 8 bytes of the header length
  offsets    `w` whose data_offsets run past the end of the data
  dtype      `w` of a dtype the importer does not know (`C64`)
  deep       a header nested 100,000 levels deep (a `__metadata__` entry
             of nested arrays), which a recursive parser overflows on
  huge       `w` of shape [2**32, 2**32] over no data: the element count
             wraps to 0 in 64 bits
"""
import json
import struct
import sys

out = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else "good"

tensors = [
    ("w", "F32", [2, 2], struct.pack("<4f", 1, 2, 3, 4)),
    ("b", "I64", [2], struct.pack("<2q", 7, -1)),
    ("h", "F64", [], struct.pack("<d", 0.5)),
]
if mode == "dtype":
    tensors = [("w", "C64", [1], struct.pack("<2f", 1, 2))]
if mode == "huge":
    tensors = [("w", "F32", [2**32, 2**32], b"")]

header, data = {}, b""
for name, dtype, shape, raw in tensors:
    header[name] = {"dtype": dtype, "shape": shape,
                    "data_offsets": [len(data), len(data) + len(raw)]}
    data += raw
if mode == "offsets":
    header["w"]["data_offsets"] = [0, len(data) + 16]
text = json.dumps(header).encode()
if mode == "bad-json":
    text = b"{not json"
if mode == "deep":
    text = b'{"__metadata__":' + b"[" * 100000 + b"]" * 100000 + b"}"
blob = struct.pack("<Q", len(text)) + text + data
if mode == "truncated":
    blob = blob[:len(blob) - 10]
if mode == "short":
    blob = blob[:5]
with open(out, "wb") as f:
    f.write(blob)
