#!/usr/bin/python3
"""torchvision_ops_oracle.py - tsir's torchvision operators against torchvision's.

    torchvision_ops_oracle.py TSIR_RUN OPS_LIBRARY WORKDIR

Runs graphs calling torchvision::nms and torchvision::roi_align through
`tsir-run --load-ops OPS_LIBRARY` on random boxes (overlapping, tied
scores, degenerate and empty sets; regions partly outside the feature
map, aligned or not, fixed and adaptive sampling) and compares every
output with torchvision's own kernels. Prints one line per case and `all
match`, or exits non-zero naming the first case that differs.
"""

import os
import sys

import numpy as np
import torch
import torchvision  # noqa: F401  (registers torchvision::nms, roi_align)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
import tsir_run  # noqa: E402

NMS_GRAPH = """graph(%boxes : Tensor, %scores : Tensor, %threshold : float):
  %keep : Tensor = torchvision::nms(%boxes, %scores, %threshold)
  return (%keep)
"""

ROI_ALIGN_GRAPH = """graph(%input : Tensor, %rois : Tensor, %scale : float, %height : int, %width : int, %sampling : int, %aligned : bool):
  %out : Tensor = torchvision::roi_align(%input, %rois, %scale, %height, %width, %sampling, %aligned)
  return (%out)
"""


def random_boxes(generator, count, dtype):
    corner = torch.rand(count, 2, generator=generator, dtype=dtype) * 50
    size = torch.rand(count, 2, generator=generator, dtype=dtype) * 30
    return torch.cat([corner, corner + size], dim=1)


def nms_cases():
    g = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        boxes = random_boxes(g, 60, dtype)
        yield f"nms random {dtype}", boxes, torch.rand(60, generator=g, dtype=dtype), 0.5
    boxes = random_boxes(g, 40, torch.float32)
    scores = torch.rand(8, generator=g).repeat(5)  # ties
    yield "nms tied scores", boxes, scores, 0.3
    degenerate = random_boxes(g, 10, torch.float32)
    degenerate[::2, 2] = degenerate[::2, 0]  # zero width
    yield "nms degenerate boxes", degenerate, torch.rand(10, generator=g), 0.4
    yield "nms no boxes", torch.zeros(0, 4), torch.zeros(0), 0.5


def roi_align_cases():
    g = torch.Generator().manual_seed(1)
    for dtype in (torch.float32, torch.float64):
        features = torch.randn(2, 3, 12, 16, generator=g, dtype=dtype)
        rois = random_boxes(g, 7, dtype) * 0.5 - 4  # some outside the map
        batch = torch.randint(0, 2, (7, 1), generator=g).to(dtype)
        rois = torch.cat([batch, rois], dim=1)
        for scale, size, sampling, aligned in [(0.5, (3, 3), 2, False),
                                               (0.25, (4, 2), 0, True),
                                               (1.0, (2, 5), -1, False)]:
            yield (f"roi_align {dtype} scale={scale} size={size} "
                   f"sampling={sampling} aligned={aligned}",
                   features, rois, scale, size, sampling, aligned)


def main():
    tsir, library, workdir = sys.argv[1:]
    os.makedirs(workdir, exist_ok=True)
    nms_path = os.path.join(workdir, "nms.txt")
    roi_path = os.path.join(workdir, "roi_align.txt")
    open(nms_path, "w").write(NMS_GRAPH)
    open(roi_path, "w").write(ROI_ALIGN_GRAPH)
    extra = ["--load-ops", library, "--quiet"]
    for index, (name, boxes, scores, threshold) in enumerate(nms_cases()):
        expected = torch.ops.torchvision.nms(boxes, scores, threshold)
        out = os.path.join(workdir, f"nms{index}")
        code, output = tsir_run.run(tsir, nms_path,
                                    [boxes.numpy(), scores.numpy(), threshold],
                                    out, extra=extra, threads=None)
        problem = output if code else tsir_run.compare(
            [expected.numpy()], out, 0, 0, threads=None)
        if problem:
            sys.exit(f"{name}: {problem}")
        print(f"{name}: match ({len(expected)} kept of {len(boxes)})")
    for index, (name, features, rois, scale, size, sampling,
                aligned) in enumerate(roi_align_cases()):
        expected = torch.ops.torchvision.roi_align(
            features, rois, scale, size[0], size[1], sampling, aligned)
        out = os.path.join(workdir, f"roi{index}")
        code, output = tsir_run.run(
            tsir, roi_path, [features.numpy(), rois.numpy(), scale, size[0],
                             size[1], sampling, aligned], out, extra=extra,
            threads=None)
        problem = output if code else tsir_run.compare(
            [expected.numpy()], out, 1e-5, 1e-6, threads=None)
        if problem:
            sys.exit(f"{name}: {problem}")
        print(f"{name}: match")
    print("all match")


if __name__ == "__main__":
    main()
