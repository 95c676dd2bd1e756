//===- GatherKernels.cpp - Builtin kernels that move elements by index ----===//
//
// take, put, take_along_dim, masked_scatter, max_unpool2d/3d,
// embedding_bag and embedding_renorm(_): ops that read or write elements
// at positions held in index (or mask) tensors, which tsir has no compiled
// form for. Indices are checked with torch's messages before use; elements
// move byte-exact (put with accumulate and the embedding ops compute
// through Float64).
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tsir::rt {

using namespace data;

namespace {

/// Flat indices with negatives wrapped, or torch's take/put error.
StatusOr<std::vector<int64_t>> flatIndices(const Tensor &index, int64_t numel) {
  if (index.dtype() != DType::Int64)
    return Status::error(std::string("take(): Expected a long tensor for "
                                     "index, but got ") +
                         dtypeTorchName(index.dtype()));
  std::vector<int64_t> idx = toInt64s(index);
  for (int64_t &i : idx) {
    if (i < -numel || i >= numel)
      return Status::error("out of range: tried to access index " +
                           std::to_string(i) + " on a tensor of " +
                           std::to_string(numel) + " elements.");
    if (i < 0)
      i += numel;
  }
  return idx;
}

StatusOr<Tensor> take(Tensor self, Tensor index) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> idx,
                           flatIndices(index, self.numel()));
  Tensor src = self.contiguous();
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out,
                           Tensor::tryEmpty(index.sizes(), self.dtype()));
  for (size_t k = 0; k < idx.size(); ++k)
    moveElement(out, k, src, idx[k]);
  return out;
}

StatusOr<Tensor> put(Tensor self, Tensor index, Tensor source,
                     bool accumulate) {
  if (source.dtype() != self.dtype())
    return Status::error(std::string("put_(): self and source expected to "
                                     "have the same dtype, but got self.dtype "
                                     "= ") +
                         dtypeTorchName(self.dtype()) + " and source.dtype = " +
                         dtypeTorchName(source.dtype()));
  if (source.numel() != index.numel())
    return Status::error("put_(): Expected source and index to have the same "
                         "number of elements, but got source.numel() = " +
                         std::to_string(source.numel()) +
                         ", index.numel() = " + std::to_string(index.numel()));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> idx,
                           flatIndices(index, self.numel()));
  if (accumulate) {
    std::vector<double> out = toDoubles(self), src = toDoubles(source);
    for (size_t k = 0; k < idx.size(); ++k)
      out[idx[k]] += src[k];
    TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                             fromDoubles(out, self.sizes(), self.dtype()));
    return result;
  }
  Tensor out = self.clone(), src = source.contiguous();
  for (size_t k = 0; k < idx.size(); ++k)
    moveElement(out, idx[k], src, k);
  return out;
}

/// torch.gather on contiguous `self` with `index` of the same rank.
StatusOr<Tensor> gather(const Tensor &self, int64_t dim, const Tensor &index) {
  std::vector<int64_t> idx = toInt64s(index);
  const std::vector<int64_t> &outSizes = index.sizes();
  std::vector<int64_t> selfStrides = contiguousStrides(self.sizes());
  int64_t rank = index.dim();
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, Tensor::tryEmpty(outSizes, self.dtype()));
  Tensor src = self.contiguous();
  std::vector<int64_t> at(rank, 0);
  int64_t size = rank == 0 ? self.numel() : self.size(dim);
  for (size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] < 0 || idx[k] >= size)
      return Status::error("index " + std::to_string(idx[k]) +
                           " is out of bounds for dimension " +
                           std::to_string(dim) + " with size " +
                           std::to_string(size));
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += (d == dim ? idx[k] : at[d]) * selfStrides[d];
    moveElement(out, k, src, rank == 0 ? idx[k] : from);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++at[d] < outSizes[d])
        break;
      at[d] = 0;
    }
  }
  return out;
}

StatusOr<Tensor> takeAlongDim(Tensor self, Tensor indices,
                              std::optional<int64_t> dimArg) {
  if (indices.dtype() != DType::Int64)
    return Status::error(std::string("torch.take_along_dim(): dtype of "
                                     "indices should be Long but got ") +
                         dtypeTorchName(indices.dtype()));
  if (!dimArg) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor flatSelf, self.reshape({self.numel()}));
    TSIR_RT_ASSIGN_OR_RETURN(Tensor flatIndex,
                             indices.reshape({indices.numel()}));
    TSIR_RT_ASSIGN_OR_RETURN(Tensor out, gather(flatSelf, 0, flatIndex));
    return out;
  }
  TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, wrapDim(*dimArg, self.dim()));
  if (self.dim() != indices.dim())
    return Status::error("torch.take_along_dim(): input and indices should "
                         "have the same number of dimensions, but got " +
                         std::to_string(self.dim()) +
                         " dimensions for input, and " +
                         std::to_string(indices.dim()) +
                         " dimensions for indices");
  if (self.dim() == 0) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor out, gather(self, 0, indices));
    return out;
  }
  std::vector<int64_t> selfSizes = self.sizes();
  selfSizes[dim] = indices.size(dim);
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           broadcastSizes(selfSizes, indices.sizes()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor indexExpanded, indices.expand(shape));
  shape[dim] = self.size(dim);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor selfExpanded, self.expand(shape));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor out, gather(selfExpanded.contiguous(), dim,
                         indexExpanded.contiguous()));
  return out;
}

StatusOr<Tensor> maskedScatter(Tensor self, Tensor mask, Tensor source) {
  if (mask.dtype() != DType::Bool && mask.dtype() != DType::UInt8)
    return Status::error(std::string("masked_scatter_ only supports boolean "
                                     "masks, but got mask with dtype ") +
                         dtypeTorchName(mask.dtype()));
  if (source.dtype() != self.dtype())
    return Status::error(std::string("masked_scatter: expected self and "
                                     "source to have same dtypes but got") +
                         dtypeTorchName(self.dtype()) + " and " +
                         dtypeTorchName(source.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           broadcastSizes(self.sizes(), mask.sizes()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor selfExpanded, self.expand(shape));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor maskExpanded, mask.expand(shape));
  Tensor out = selfExpanded.clone();
  Tensor flags = maskExpanded.to(DType::Bool);
  Tensor src = source.contiguous();
  const uint8_t *m = flags.dataAs<uint8_t>();
  int64_t n = flags.numel(), next = 0, available = src.numel();
  for (int64_t i = 0; i < n; ++i)
    if (m[i]) {
      if (next >= available)
        return Status::error("masked_scatter: Number of elements of source < "
                             "number of ones in mask");
      moveElement(out, i, src, next++);
    }
  return out;
}

/// max_unpool2d / max_unpool3d: scatters each plane's values to the flat
/// positions in `indices` of a zeroed output plane of `outputSize`.
StatusOr<Tensor> maxUnpool(int spatial, const Tensor &self,
                           const Tensor &indices,
                           const std::vector<int64_t> &outputSize) {
  std::string op = spatial == 2 ? "max_unpooling2d" : "max_unpooling3d";
  if (static_cast<int>(outputSize.size()) != spatial)
    return Status::error(
        "There should be exactly " + std::to_string(spatial) +
        " elements (depth, height, width) in output_size, but got " +
        std::to_string(outputSize.size()) + " elements.");
  if (indices.dtype() != DType::Int64)
    return Status::error("elements in indices should be type int64 but got: " +
                         std::string(dtypeTorchName(indices.dtype())));
  if (self.dim() != spatial + 1 && self.dim() != spatial + 2)
    return Status::error("Input to " + op + " should be a " +
                         std::to_string(spatial + 1) + "d or " +
                         std::to_string(spatial + 2) + "d Tensor, but got a " +
                         std::to_string(self.dim()) + "d tensor");
  if (self.sizes() != indices.sizes())
    return Status::error("Expected shape of indices to be same as that of the "
                         "input tensor (" +
                         sizesToString(indices.sizes()) +
                         ") but got indices tensor with shape: " +
                         sizesToString(self.sizes()));
  int64_t planeIn = 1, planeOut = 1;
  for (int i = 0; i < spatial; ++i) {
    planeIn *= self.size(self.dim() - spatial + i);
    planeOut *= outputSize[i];
  }
  int64_t planes = planeIn == 0 ? 0 : self.numel() / planeIn;
  std::vector<int64_t> outSizes(self.sizes().begin(),
                                self.sizes().end() - spatial);
  outSizes.insert(outSizes.end(), outputSize.begin(), outputSize.end());
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out, Tensor::tryEmpty(outSizes, self.dtype()));
  out.fill(0.0);
  Tensor src = self.contiguous();
  std::vector<int64_t> idx = toInt64s(indices);
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < planeIn; ++i) {
      int64_t at = idx[p * planeIn + i];
      if (at < 0 || at >= planeOut) {
        std::string sizes;
        for (int d = 0; d < spatial; ++d)
          sizes += (d ? "x" : "") + std::to_string(outputSize[d]);
        return Status::error("Found an invalid max index: " +
                             std::to_string(at) +
                             " (output volumes are of size " + sizes + ")");
      }
      moveElement(out, p * planeOut + at, src, p * planeIn + i);
    }
  return out;
}

StatusOr<Tensor> maxUnpool2d(Tensor self, Tensor indices,
                             std::vector<int64_t> outputSize) {
  return maxUnpool(2, self, indices, outputSize);
}

StatusOr<Tensor> maxUnpool3d(Tensor self, Tensor indices,
                             std::vector<int64_t> outputSize,
                             const std::vector<int64_t> & /*stride*/,
                             const std::vector<int64_t> & /*padding*/) {
  return maxUnpool(3, self, indices, outputSize);
}

/// (output, offset2bag, bag_size, max_indices).
using Bags = std::tuple<Tensor, Tensor, Tensor, Tensor>;

/// embedding_bag.padding_idx and _embedding_bag: the bags as torch's CPU
/// kernel returns them. A negative padding_idx is none to _embedding_bag
/// (`NegativeIsNone`) and counts from the end to embedding_bag.
template <bool NegativeIsNone>
StatusOr<Bags>
embeddingBag(Tensor weight, Tensor indices, std::optional<Tensor> offsetsArg,
             bool /*scaleGradByFreq*/, int64_t mode, bool /*sparse*/,
             std::optional<Tensor> perSampleWeights, bool includeLast,
             std::optional<int64_t> paddingIdxArg) {
  Tensor offsets = offsetsArg.value_or(Tensor());
  Tensor perSample = perSampleWeights.value_or(Tensor());
  int64_t paddingIdx = -1;
  bool hasPadding = false;
  if (paddingIdxArg) {
    paddingIdx = *paddingIdxArg;
    // _embedding_bag spells "no padding" -1; embedding_bag wraps it.
    hasPadding = paddingIdx >= 0 || !NegativeIsNone;
    if (paddingIdx < -weight.size(0) || paddingIdx >= weight.size(0))
      return Status::error("padding_idx must be within the number of "
                           "embeddings, -" +
                           std::to_string(weight.size(0)) + " through " +
                           std::to_string(weight.size(0) - 1) + ", but got " +
                           std::to_string(paddingIdx));
    if (paddingIdx < 0)
      paddingIdx += weight.size(0);
  }
  if (weight.dim() != 2)
    return Status::error("embedding_bag: weight has to be a 2D Tensor");
  if (mode < 0 || mode > 2)
    return Status::error("embedding_bag: mode has to be 0 (sum), 1 (mean) or "
                         "2 (max)");
  if (perSample.defined() && mode != 0)
    return Status::error("embedding_bag: per_sample_weights was not None. "
                         "per_sample_weights is only supported for "
                         "mode='sum' (got mode='" +
                         std::string(mode == 1 ? "mean" : "max") +
                         "'). Please open a feature request on GitHub.");
  int64_t rows = weight.size(0), width = weight.size(1);
  std::vector<int64_t> idx = toInt64s(indices);
  int64_t count = static_cast<int64_t>(idx.size());
  std::vector<int64_t> starts;
  if (indices.dim() == 2) {
    for (int64_t b = 0; b < indices.size(0); ++b)
      starts.push_back(b * indices.size(1));
    starts.push_back(count);
  } else {
    if (!offsets.defined() || offsets.dim() != 1)
      return Status::error("embedding_bag: offsets has to be a 1D Tensor");
    starts = toInt64s(offsets);
    if (!starts.empty() && starts[0] != 0)
      return Status::error("offsets[0] has to be 0, i.e., the first sequence "
                           "in the mini-batch has to start from position 0. "
                           "However, got " +
                           std::to_string(starts[0]));
    if (!starts.empty() && starts.back() > count)
      return Status::error("offsets[-1] can not be greater than input's "
                           "length " +
                           std::to_string(count) + ", but got offsets[-1] of " +
                           std::to_string(starts.back()));
    if (!includeLast)
      starts.push_back(count);
  }
  int64_t bags = std::max<int64_t>(0, static_cast<int64_t>(starts.size()) - 1);
  for (int64_t i : idx)
    if (i < 0 || i >= rows)
      return Status::error("index out of range in self");
  std::vector<double> w = toDoubles(weight), psw;
  if (perSample.defined())
    psw = toDoubles(perSample);
  std::vector<double> out(bags * width, 0.0);
  std::vector<int64_t> offset2bag(count, 0), bagSize(bags, 0),
      maxIndices(mode == 2 ? bags * width : bags, 0);
  for (int64_t b = 0; b < bags; ++b) {
    int64_t begin = std::min(starts[b], count);
    int64_t end = std::min(std::max(starts[b + 1], begin), count);
    int64_t used = 0;
    for (int64_t j = begin; j < end; ++j) {
      offset2bag[j] = b;
      int64_t row = idx[j];
      if (hasPadding && row == paddingIdx)
        continue;
      for (int64_t c = 0; c < width; ++c) {
        double v = w[row * width + c];
        double &o = out[b * width + c];
        if (mode == 2) {
          if (used == 0 || v > o) {
            o = v;
            maxIndices[b * width + c] = row;
          }
        } else {
          o += psw.empty() ? v : v * psw[j];
        }
      }
      ++used;
    }
    bagSize[b] = mode == 0 ? 0 : used;
    if (mode == 1 && used > 0)
      for (int64_t c = 0; c < width; ++c)
        out[b * width + c] /= static_cast<double>(used);
    if (mode == 1)
      maxIndices[b] = used;
  }
  if (mode == 0)
    offset2bag.clear();
  TSIR_RT_ASSIGN_OR_RETURN(Tensor output,
                           fromDoubles(out, {bags, width}, weight.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor offset2bagTensor,
      fromInt64s(offset2bag, {static_cast<int64_t>(offset2bag.size())}));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor bagSizeTensor, fromInt64s(bagSize, {bags}));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor maxIndicesTensor,
      fromInt64s(maxIndices, mode == 2 ? std::vector<int64_t>{bags, width}
                                       : std::vector<int64_t>{bags}));
  return Bags(output, offset2bagTensor, bagSizeTensor, maxIndicesTensor);
}

/// embedding_bag without padding_idx.
StatusOr<Bags> embeddingBagUnpadded(Tensor weight, Tensor indices,
                                    std::optional<Tensor> offsets,
                                    bool scaleGradByFreq, int64_t mode,
                                    bool sparse,
                                    std::optional<Tensor> perSampleWeights,
                                    bool includeLast) {
  return embeddingBag<false>(weight, indices, offsets, scaleGradByFreq, mode,
                             sparse, perSampleWeights, includeLast,
                             std::nullopt);
}

/// embedding_renorm_ (in place) and embedding_renorm: each distinct row
/// of `self` named in `indices` whose norm_type-norm exceeds max_norm is
/// scaled to max_norm / (norm + 1e-7), as torch's CPU kernel does.
template <bool InPlace>
StatusOr<Tensor> embeddingRenorm(Tensor self, Tensor indices, double maxNorm,
                                 double normType) {
  if (self.dim() != 2)
    return Status::error("embedding_renorm_(): expected self to be a 2-D "
                         "tensor");
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    return Status::error("embedding_renorm_(): Expected dtype int32/int64 for "
                         "indices");
  int64_t rows = self.size(0), width = self.size(1);
  std::vector<int64_t> idx = toInt64s(indices);
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  for (int64_t i : idx)
    if (i < 0 || i >= rows)
      return Status::error("index out of range in self");
  std::vector<double> w = toDoubles(self);
  for (int64_t i : idx) {
    double norm = 0;
    double *row = w.data() + i * width;
    if (std::isinf(normType)) {
      for (int64_t c = 0; c < width; ++c)
        norm = std::max(norm, std::fabs(row[c]));
    } else if (normType == 0) {
      for (int64_t c = 0; c < width; ++c)
        norm += row[c] != 0;
    } else {
      for (int64_t c = 0; c < width; ++c)
        norm += std::pow(std::fabs(row[c]), normType);
      norm = std::pow(norm, 1.0 / normType);
    }
    if (norm > maxNorm) {
      double scale = maxNorm / (norm + 1e-7);
      for (int64_t c = 0; c < width; ++c)
        row[c] *= scale;
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           fromDoubles(w, self.sizes(), self.dtype()));
  if (InPlace) {
    TSIR_RT_RETURN_IF_ERROR(self.copyFrom(result));
    result = self;
  }
  return result;
}

} // namespace

void registerGatherKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::take(Tensor self, Tensor index) -> Tensor", bindKernel(take)},
          {"aten::put(Tensor self, Tensor index, Tensor source, bool "
           "accumulate=False) -> Tensor",
           bindKernel(put)},
          {"aten::take_along_dim(Tensor self, Tensor indices, int? dim=None) "
           "-> Tensor",
           bindKernel(takeAlongDim)},
          {"aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> "
           "Tensor",
           bindKernel(maskedScatter)},
          {"aten::max_unpool2d(Tensor self, Tensor indices, int[2] "
           "output_size) -> Tensor",
           bindKernel(maxUnpool2d)},
          {"aten::max_unpool3d(Tensor self, Tensor indices, int[3] "
           "output_size, int[3] stride, int[3] padding) -> Tensor",
           bindKernel(maxUnpool3d)},
          // Bare name: reads both the 8-argument and the padding_idx overload.
          {"aten::embedding_bag",
           byArgumentCount(9, bindKernel(embeddingBag<false>),
                           bindKernel(embeddingBagUnpadded))},
          {"aten::_embedding_bag(Tensor weight, Tensor indices, Tensor "
           "offsets, bool scale_grad_by_freq=False, int mode=0, bool "
           "sparse=False, Tensor? per_sample_weights=None, bool "
           "include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, "
           "Tensor, Tensor)",
           bindKernel(embeddingBag<true>)},
          {"aten::embedding_renorm_(Tensor(a!) self, Tensor indices, float "
           "max_norm, float norm_type) -> Tensor(a!)",
           bindKernel(embeddingRenorm<true>)},
          {"aten::embedding_renorm(Tensor self, Tensor indices, float "
           "max_norm, float norm_type) -> Tensor",
           bindKernel(embeddingRenorm<false>)},
      });
}

} // namespace tsir::rt
