#!/usr/bin/python3
"""zoo.py - torchvision's models, as a user has them, through tsir-run.

    zoo.py TSIR_RUN [--model NAME ...] [--keep DIR] [--table FILE] [--bench N]

Each model is built by torchvision 0.14 with seeded random weights (nothing
is downloaded), scripted and frozen by torch (traced where scripting gives
another output, as for the segmentation models' dicts), printed as text
with its weights in a safetensors file, run by tsir-run at batch 1 and one
thread, and compared with eager torch. One line per model: PASS, FAIL with
tsir's error, or WRONG with the largest difference. --table writes the
results as a markdown table (tsir and eager milliseconds, compile seconds).
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402
from run_models import export  # noqa: E402

# Every classification family of torchvision 0.14 at its smallest member,
# then segmentation, video and optical flow.
CLASSIFICATION = [
    "alexnet", "vgg11_bn", "resnet18", "resnet50", "resnext50_32x4d",
    "wide_resnet50_2", "densenet121", "squeezenet1_1", "shufflenet_v2_x1_0",
    "mnasnet0_5", "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large",
    "efficientnet_b0", "efficientnet_v2_s", "regnet_x_400mf",
    "regnet_y_400mf", "googlenet", "inception_v3", "convnext_tiny",
    "vit_b_16", "swin_t", "swin_v2_t", "maxvit_t",
]
SEGMENTATION = ["fcn_resnet50", "deeplabv3_mobilenet_v3_large",
                "lraspp_mobilenet_v3_large"]
VIDEO = ["r3d_18", "mc3_18", "r2plus1d_18", "s3d", "mvit_v1_b"]
OPTICAL_FLOW = ["raft_small"]
DETECTION = ["ssdlite320_mobilenet_v3_large", "ssd300_vgg16",
             "retinanet_resnet50_fpn", "fcos_resnet50_fpn",
             "fasterrcnn_mobilenet_v3_large_320_fpn", "maskrcnn_resnet50_fpn",
             "keypointrcnn_resnet50_fpn"]
# How wide a detection head's random weights are drawn: wide enough that
# the scores differ, narrow enough that they do not all saturate at 1
# (SSD's VGG has no batch norm, and its features are large).
HEAD_STD = {"ssdlite320_mobilenet_v3_large": 0.1, "ssd300_vgg16": 0.01,
            "retinanet_resnet50_fpn": 0.005, "fcos_resnet50_fpn": 0.05,
            # Two stages: the proposals' objectness, then the classes.
            "fasterrcnn_mobilenet_v3_large_320_fpn": {"rpn.head": 1e-3,
                                                      "roi_heads": 3e-3},
            "maskrcnn_resnet50_fpn": {"rpn.head": 1e-3, "roi_heads": 3e-3},
            "keypointrcnn_resnet50_fpn": {"rpn.head": 1e-3,
                                          "roi_heads": 3e-3}}
# How far a detection may be from torch's (score, and box relatively).
# Faster R-CNN with random weights is ill-conditioned: its boxes in float64
# differ from float32 torch's by up to 0.1 pixel (the proposals move, and
# roi_align and the box coder carry it), more than tsir's differ from
# torch's; 1e-3 holds for the one-stage models.
DETECTION_TOL = {"fasterrcnn_mobilenet_v3_large_320_fpn": 1e-2,
                 "maskrcnn_resnet50_fpn": 1e-2,
                 "keypointrcnn_resnet50_fpn": 1e-2}
# Scripted, these return something other than eager mode does (GoogLeNet's
# and Inception's namedtuple with None aux outputs): traced, as a user
# deploying them would.
TRACED = ["googlenet", "inception_v3"]


class DictToTuple(torch.nn.Module):
    """A segmentation model's OrderedDict output as a tuple, in key order:
    tracing (which the dict needs) returns tuples."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return tuple(self.model(x).values())


def build(name):
    import torchvision
    torch.manual_seed(0)
    if name in SEGMENTATION:
        model = getattr(torchvision.models.segmentation, name)(
            weights=None, weights_backbone=None, aux_loss=False)
        return model, [torch.randn(1, 3, 224, 224)]
    if name in VIDEO:
        model = getattr(torchvision.models.video, name)(weights=None)
        # S3D pools over 7x7 at the end, and MViT's position embedding is
        # for 16 frames of 224x224: they need their own clip size.
        clip = ((1, 3, 16, 224, 224) if name in ("s3d", "mvit_v1_b")
                else (1, 3, 8, 112, 112))
        return model, [torch.randn(*clip)]
    if name in OPTICAL_FLOW:
        # Two frames, and the number of refinement steps (forward's
        # `num_flow_updates`, an int input of the graph): one flow each.
        model = getattr(torchvision.models.optical_flow, name)(weights=None)
        return model, [torch.randn(1, 3, 128, 128), torch.randn(1, 3, 128, 128),
                       12]
    if name in DETECTION:
        return detection_model(name)
    kwargs = {"init_weights": True} if name in ("googlenet", "inception_v3") else {}
    if name in ("googlenet", "inception_v3"):
        kwargs["aux_logits"] = False
    model = getattr(torchvision.models, name)(weights=None, **kwargs)
    size = 299 if name == "inception_v3" else 224
    return model, [torch.randn(1, 3, size, size)]


def detection_model(name):
    """A detection model whose scores are distinct, so that which boxes it
    keeps (a sort, a top-k, non-maximum suppression) does not hang on ties:
    with seeded random weights and untrained batch-norm statistics every
    activation saturates and all anchors score alike. The statistics are
    measured on random images (batch norm in training mode, cumulative
    averages) and the head's weights drawn wider (HEAD_STD). Input: a list of one
    image, and None for the targets (forward takes `List[Tensor]` and
    `Optional[List[Dict[str, Tensor]]]`)."""
    import torchvision
    torch.manual_seed(0)
    # The R-CNNs, RetinaNet and FCOS resize images to 800 pixels by
    # default; 320 keeps them as small as SSDlite.
    kwargs = ({} if name.startswith("ssd") else
              {"min_size": 320, "max_size": 320})
    model = getattr(torchvision.models.detection, name)(
        weights=None, weights_backbone=None, **kwargs)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.momentum = None
    model.backbone.train()
    with torch.no_grad():
        model.backbone(torch.rand(4, 3, 320, 320))
    model.eval()
    stds = HEAD_STD[name]
    for path, std in (stds.items() if isinstance(stds, dict)
                      else [("head", stds)]):
        head = model.get_submodule(path)
        for parameter in head.parameters():
            torch.nn.init.normal_(parameter, std=std)
    return model, [[torch.rand(3, 320, 320)], None]


def compare_detections(detections, outdir, tol=1e-3):
    """None if tsir's detections are torch's `detections` (a dict of boxes,
    scores and labels per image, written in the dict's order as out0.npy,
    out1.npy, ...), else what differs. Detections come sorted by score,
    and two scores within float rounding of each other (1e-6 apart: eager
    and scripted torch order them differently too) may come in either
    order: each detection must match one of torch's with its score within
    `tol`, its label, and its box (and masks or keypoints) within `tol`
    relatively."""
    import numpy as np
    first = 0
    for image, detection in enumerate(detections):
        keys = list(detection.keys())
        got = {key: np.load(os.path.join(outdir, f"out{first + k}.npy"))
               for k, key in enumerate(keys)}
        want = {key: value.numpy() for key, value in detection.items()}
        first += len(keys)
        if any(got[key].shape != want[key].shape for key in keys):
            return (f"image {image}: shapes "
                    f"{[got[key].shape for key in keys]}, expected "
                    f"{[want[key].shape for key in keys]}")
        boxes, scores, labels = (got["boxes"], got["scores"], got["labels"])
        unmatched = list(range(len(want["scores"])))
        for i in range(len(scores)):
            match = next((j for j in unmatched
                          if abs(scores[i] - want["scores"][j]) <= tol
                          and labels[i] == want["labels"][j]
                          and np.allclose(boxes[i], want["boxes"][j],
                                          rtol=tol, atol=tol * 10)), None)
            if match is None:
                return (f"image {image}: detection {i} (score {scores[i]}, "
                        f"label {labels[i]}, box {boxes[i]}) is not torch's")
            unmatched.remove(match)
            # What the R-CNNs add per detection (masks, keypoints).
            for key in keys:
                if key in ("boxes", "scores", "labels"):
                    continue
                close = np.isclose(got[key][i], want[key][match], rtol=tol,
                                   atol=tol * 10)
                if key == "keypoints":
                    # A keypoint is its heatmap's argmax: where two pixels'
                    # values tie to float rounding (3e-7 apart, seen), torch
                    # and tsir may pick either. Its score, the heatmap's
                    # value there, must still be torch's.
                    tied = np.isclose(got["keypoints_scores"][i],
                                      want["keypoints_scores"][match],
                                      rtol=1e-5, atol=1e-6)
                    close |= tied[:, None]
                if not close.all():
                    return (f"image {image}: detection {i}'s {key} differ "
                            f"from torch's by up to "
                            f"{np.abs(got[key][i] - want[key][match]).max()}")
    return None


def torchvision_ops(tsir_run):
    """The library of torchvision's operators (nms, roi_align) built beside
    tsir-run, which the detection models call. Exits with how to build it
    when it is missing (tools/demo.sh builds the tools alone)."""
    path = os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(tsir_run)), "..", "lib",
        "libtsir_torchvision_ops.so"))
    if not os.path.exists(path):
        sys.exit(f"zoo: the detection models need {path}, torchvision's "
                 "operators for tsir-run --load-ops; build it with "
                 "`tools/build.sh TsirTorchvisionOps` (or `tools/build.sh`, "
                 "everything)")
    return path


def as_numpy(value):
    """An input as tsir_run takes it: tensors as arrays, lists of them as
    lists of arrays."""
    if isinstance(value, torch.Tensor):
        return value.numpy()
    if isinstance(value, list):
        return [as_numpy(v) for v in value]
    return value


def eager_ms(model, inputs, runs=5):
    with torch.no_grad():
        model(*inputs)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            model(*inputs)
            times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2] * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tsir_run")
    parser.add_argument("--model", action="append")
    parser.add_argument("--keep")
    parser.add_argument("--table")
    parser.add_argument("--bench", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    work = args.keep or tempfile.mkdtemp(prefix="tsir-zoo-")
    rows, failures = [], 0
    for name in args.model or (CLASSIFICATION + SEGMENTATION + VIDEO +
                               OPTICAL_FLOW + DETECTION):
        workdir = os.path.join(work, name)
        model, inputs = build(name)
        model = model.eval()
        try:
            if name in SEGMENTATION:
                frozen = export(DictToTuple(model), workdir, trace_inputs=inputs)
            elif name in TRACED:
                frozen = export(model, workdir, trace_inputs=inputs)
            else:
                frozen = export(model, workdir)
        except Exception as error:  # torch itself cannot script it
            print(f"SKIP {name}: torch cannot script and freeze it: {error}")
            continue
        try:
            with torch.no_grad():
                # Scripted, a detection model returns (losses, detections):
                # the losses dict is empty in eval mode.
                result = frozen(*inputs)
                expected = torch_cases.flatten(result)
        except Exception as error:  # the input does not suit the model
            print(f"SKIP {name}: eager torch fails on the input: {error}")
            continue
        extra = ["--bench", str(args.bench)] if args.bench else []
        code, output = tsir_run.run(
            args.tsir_run, os.path.join(workdir, "graph.txt"),
            [as_numpy(t) for t in inputs],
            os.path.join(workdir, "out"),
            weights=os.path.join(workdir, "weights.safetensors"),
            # The compile column is a compile, not a load from the
            # persistent plan cache (docs/plan-cache.md).
            extra=["--quiet", "--plan-cache", "off"] + extra +
            (["--load-ops", torchvision_ops(args.tsir_run)]
             if name in DETECTION else []),
            threads=(1,), timeout=900)
        compile_s = re.search(r"^compile: ([0-9.]+) s", output, re.M)
        bench = re.search(r"median ([0-9.]+) ms", output)
        if code != 0:
            failures += 1
            error = next((l for l in output.splitlines() if "error" in l),
                         output.strip()[-300:])
            print(f"FAIL {name}: {error.strip()}")
            rows.append((name, "fails", error.strip()[:120], "", ""))
            continue
        if name in DETECTION:
            problem = compare_detections(result[1],
                                         os.path.join(workdir, "out"),
                                         DETECTION_TOL.get(name, 1e-3))
        else:
            problem = tsir_run.compare(expected, os.path.join(workdir, "out"),
                                       1e-3, 1e-3, threads=(1,))
        status = "WRONG" if problem else "PASS"
        failures += bool(problem)
        eager = eager_ms(frozen, inputs) if args.bench else None
        print(f"{status} {name}" + (f": {problem}" if problem else "") +
              (f" (compile {compile_s.group(1)} s)" if compile_s else ""))
        rows.append((name, "right" if not problem else "wrong",
                     bench.group(1) if bench else "",
                     f"{eager:.1f}" if eager else "",
                     compile_s.group(1) if compile_s else ""))
    print(f"zoo: {len(rows) - failures}/{len(rows)} right")
    if args.table:
        with open(args.table, "w") as f:
            f.write("| model | result | tsir ms | eager ms | compile s |\n")
            f.write("|---|---|---|---|---|\n")
            for row in rows:
                f.write("| " + " | ".join(row) + " |\n")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
