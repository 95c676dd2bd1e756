//===- CtcLossKernels.cpp - The connectionist temporal classification loss ===//
//
// aten::ctc_loss (both overloads: lengths as int lists or as tensors): the
// negative log likelihood of each target sequence under the per-step
// class log-probabilities, summed over every alignment by the forward
// (alpha) recursion in log space, as ATen's LossCTC.cpp computes it. The
// target is extended with a blank before, between and after its labels; an
// alignment may stay on a label, step to the next, or skip a blank between
// two different labels. Reductions as ctc_loss's: none, the mean of the
// losses each divided by its target length (at least 1), or the sum;
// zero_infinity turns impossible alignments' infinite losses into 0.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <limits>

namespace tsir::rt {

using namespace data;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// log(exp(a) + exp(b) + exp(c)) without overflow; -inf when all are.
double logSumExp(double a, double b, double c) {
  double top = std::max(a, std::max(b, c));
  if (top == kNegInf)
    return kNegInf;
  return std::log(std::exp(a - top) + std::exp(b - top) + std::exp(c - top)) +
         top;
}

/// A lengths argument: an int list or a 0-d / 1-d integer tensor.
StatusOr<std::vector<int64_t>> lengthsOf(const Value &value,
                                         const char *what) {
  if (!value.isTensor())
    return intList(value, what);
  Tensor tensor = value.toTensor();
  if (!isIntegral(tensor.dtype()) || tensor.dim() > 1)
    return Status::error(std::string("ctc_loss expected ") + what +
                         " to be a 0-d or 1-d tensor of integers, got " +
                         tensor.toString());
  return toInt64s(tensor);
}

/// The negative log likelihood of one target under `logProbs` (T x C,
/// row-major in `lp` from `base`, stride `stepStride` per step).
double negativeLogLikelihood(const std::vector<double> &lp, int64_t base,
                             int64_t stepStride, int64_t steps,
                             const std::vector<int64_t> &labels,
                             int64_t blank) {
  int64_t targetLength = static_cast<int64_t>(labels.size());
  if (steps == 0)
    return targetLength == 0 ? 0.0
                             : std::numeric_limits<double>::infinity();
  // The extended target: blank, l1, blank, l2, ..., blank.
  int64_t extended = 2 * targetLength + 1;
  auto labelAt = [&](int64_t s) { return s % 2 == 0 ? blank : labels[s / 2]; };
  auto logProb = [&](int64_t t, int64_t c) {
    return lp[base + t * stepStride + c];
  };
  std::vector<double> alpha(extended, kNegInf), next(extended);
  alpha[0] = logProb(0, blank);
  if (extended > 1)
    alpha[1] = logProb(0, labelAt(1));
  for (int64_t t = 1; t < steps; ++t) {
    for (int64_t s = 0; s < extended; ++s) {
      double stay = alpha[s];
      double step = s > 0 ? alpha[s - 1] : kNegInf;
      double skip = s > 1 && labelAt(s - 2) != labelAt(s) ? alpha[s - 2]
                                                           : kNegInf;
      next[s] = logSumExp(stay, step, skip) + logProb(t, labelAt(s));
    }
    alpha.swap(next);
  }
  double last = alpha[extended - 1];
  double beforeLast = extended > 1 ? alpha[extended - 2] : kNegInf;
  return -logSumExp(last, beforeLast, kNegInf);
}

/// ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
///          reduction, zero_infinity); the lengths are an int[] or a tensor
/// (the two overloads).
StatusOr<Tensor> ctcLoss(Tensor logProbs, Tensor targets, Value inputLengths,
                         Value targetLengths, int64_t blank, int64_t reduction,
                         bool zeroInfinity) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> inputLens,
                           lengthsOf(inputLengths, "input_lengths"));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> targetLens,
                           lengthsOf(targetLengths, "target_lengths"));
  if (!isFloating(logProbs.dtype()))
    return Status::error("ctc_loss expected log_probs of a floating dtype, "
                         "got " + logProbs.toString());
  if (logProbs.dim() != 2 && logProbs.dim() != 3)
    return Status::error("ctc_loss expected log_probs to be 2-D (unbatched) "
                         "or 3-D (T, N, C), got " + logProbs.toString());
  bool batched = logProbs.dim() == 3;
  int64_t steps = logProbs.size(0);
  int64_t batch = batched ? logProbs.size(1) : 1;
  int64_t classes = logProbs.size(-1);
  if (blank < 0 || blank >= classes)
    return Status::error("blank must be in label range");
  if (static_cast<int64_t>(inputLens.size()) != batch)
    return Status::error("input_lengths must be of size batch_size");
  if (static_cast<int64_t>(targetLens.size()) != batch)
    return Status::error("target_lengths must be of size batch_size");
  if (!isIntegral(targets.dtype()))
    return Status::error("ctc_loss expected targets of an integer dtype, "
                         "got " + targets.toString());

  std::vector<double> lp = toDoubles(logProbs);
  std::vector<int64_t> labels = toInt64s(targets);
  // Where each sample's target starts: rows of a padded (N, S) tensor, or
  // one after another in a concatenated 1-d one.
  bool padded = batched && targets.dim() == 2;
  std::vector<double> losses(batch);
  int64_t concatenated = 0;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t inputLength = inputLens[b], targetLength = targetLens[b];
    if (inputLength < 0 || inputLength > steps)
      return Status::error(
          "Expected input_lengths to have value at most " +
          std::to_string(steps) + ", but got value " +
          std::to_string(inputLength) +
          " (while checking arguments for ctc_loss_cpu)");
    int64_t start = padded ? b * targets.size(1) : concatenated;
    int64_t available = padded ? targets.size(1)
                               : static_cast<int64_t>(labels.size()) - start;
    if (targetLength < 0 || targetLength > available)
      return Status::error("Expected tensor to have size at least " +
                           std::to_string(targetLength) +
                           " at dimension 1, but got size " +
                           std::to_string(available) + " for argument #2 "
                           "'targets' (while checking arguments for "
                           "ctc_loss_cpu)");
    concatenated += targetLength;
    std::vector<int64_t> target(labels.begin() + start,
                                labels.begin() + start + targetLength);
    for (int64_t label : target)
      if (label < 0 || label >= classes)
        return Status::error("ctc_loss: target label " +
                             std::to_string(label) + " is out of range for " +
                             std::to_string(classes) + " classes");
    double loss = negativeLogLikelihood(lp, b * classes, batch * classes,
                                        inputLength, target, blank);
    if (zeroInfinity && std::isinf(loss))
      loss = 0;
    losses[b] = loss;
  }

  DType dtype = logProbs.dtype();
  if (reduction == 0) {
    std::vector<int64_t> sizes;
    if (batched)
      sizes.push_back(batch);
    return fromDoubles(losses, sizes, dtype);
  }
  if (reduction != 1 && reduction != 2)
    return Status::error(std::to_string(reduction) +
                         " is not a valid value for reduction");
  double total = 0;
  for (int64_t b = 0; b < batch; ++b)
    total += reduction == 1
                 ? losses[b] /
                       static_cast<double>(std::max<int64_t>(targetLens[b], 1))
                 : losses[b];
  if (reduction == 1)
    total /= static_cast<double>(batch);
  return fromDoubles({total}, {}, dtype);
}

} // namespace

void registerCtcLossKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] "
           "input_lengths, int[] target_lengths, int blank=0, int reduction=1, "
           "bool zero_infinity=False) -> Tensor",
           bindKernel(ctcLoss)},
          {"aten::ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor "
           "input_lengths, Tensor target_lengths, int blank=0, int "
           "reduction=1, bool zero_infinity=False) -> Tensor",
           bindKernel(ctcLoss)},
      });
}

} // namespace tsir::rt
