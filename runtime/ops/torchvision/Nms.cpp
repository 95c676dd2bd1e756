//===- Nms.cpp - torchvision::nms -----------------------------------------===//
//
// Non-maximum suppression, as torchvision's CPU kernel
// (torchvision/csrc/ops/cpu/nms_kernel.cpp): boxes in (x1, y1, x2, y2)
// order, visited by descending score; a box is kept unless a kept box
// overlaps it by an IoU above the threshold. Returns the kept boxes'
// indices (Long), best first. Scores that tie keep their input order (a
// stable sort), as torch's CPU sort orders them.
//
//===----------------------------------------------------------------------===//

#include "TorchvisionOps.h"

#include <algorithm>
#include <numeric>

namespace tsir::torchvision {

using rt::DType;
using rt::Status;
using rt::Tensor;

namespace {

template <typename T>
Tensor suppress(const Tensor &boxes, const Tensor &scores, double threshold) {
  int64_t count = boxes.sizes()[0];
  const T *box = boxes.dataAs<T>();
  const T *score = scores.dataAs<T>();
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return score[a] > score[b]; });
  std::vector<T> areas(count);
  for (int64_t i = 0; i < count; ++i)
    areas[i] = (box[4 * i + 2] - box[4 * i]) * (box[4 * i + 3] - box[4 * i + 1]);
  std::vector<char> suppressed(count, 0);
  std::vector<int64_t> kept;
  for (int64_t at = 0; at < count; ++at) {
    int64_t i = order[at];
    if (suppressed[i])
      continue;
    kept.push_back(i);
    const T *a = box + 4 * i;
    for (int64_t next = at + 1; next < count; ++next) {
      int64_t j = order[next];
      if (suppressed[j])
        continue;
      const T *b = box + 4 * j;
      T width = std::max(T(0), std::min(a[2], b[2]) - std::max(a[0], b[0]));
      T height = std::max(T(0), std::min(a[3], b[3]) - std::max(a[1], b[1]));
      T intersection = width * height;
      T iou = intersection / (areas[i] + areas[j] - intersection);
      if (iou > threshold)
        suppressed[j] = 1;
    }
  }
  Tensor result =
      Tensor::empty({static_cast<int64_t>(kept.size())}, DType::Int64);
  std::copy(kept.begin(), kept.end(), result.dataAs<int64_t>());
  return result;
}

} // namespace

rt::StatusOr<Tensor> nms(Tensor boxes, Tensor scores, double threshold) {
  // torchvision's checks, in its words.
  if (boxes.dim() != 2)
    return Status::error("boxes should be a 2d tensor, got " +
                         std::to_string(boxes.dim()) + "D");
  if (boxes.sizes()[1] != 4)
    return Status::error("boxes should have 4 elements in dimension 1, got " +
                         std::to_string(boxes.sizes()[1]));
  if (scores.dim() != 1)
    return Status::error("scores should be a 1d tensor, got " +
                         std::to_string(scores.dim()) + "D");
  if (boxes.sizes()[0] != scores.sizes()[0])
    return Status::error("boxes and scores should have same number of "
                         "elements in dimension 0, got " +
                         std::to_string(boxes.sizes()[0]) + " and " +
                         std::to_string(scores.sizes()[0]));
  if (boxes.dtype() != scores.dtype())
    return Status::error("boxes and scores should have the same type");
  Tensor denseBoxes = boxes.contiguous(), denseScores = scores.contiguous();
  if (boxes.dtype() == DType::Float32)
    return suppress<float>(denseBoxes, denseScores, threshold);
  if (boxes.dtype() == DType::Float64)
    return suppress<double>(denseBoxes, denseScores, threshold);
  return Status::error("nms: boxes must be Float or Double, got " +
                       boxes.toString());
}

} // namespace tsir::torchvision
