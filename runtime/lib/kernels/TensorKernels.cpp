//===- TensorKernels.cpp - Builtin kernels on tensors: nonzero, random ----===//
//
// aten::nonzero, split by sizes known only at run time, tensor_split by a
// tensor of indices or a count, sum_to_size of a tensor whose sizes are
// known only at run time (a gradient after a kernel), and meshgrid of
// tensors made at run time (views, as torch's are), and the random ops:
// rand and randn
// (with and without a None generator), rand_like, randn_like,
// randint (both overloads), randperm, bernoulli (tensor and p), uniform_
// and normal_. Random values come from one process-wide std::mt19937_64
// seeded once; generator, layout, device and pin_memory are ignored.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <mutex>
#include <numeric>
#include <random>

namespace tsir::rt {

namespace {
std::mutex &rngMutex() {
  static std::mutex mutex;
  return mutex;
}

std::mt19937_64 &rng() {
  static std::mt19937_64 engine(std::random_device{}());
  return engine;
}

/// A tensor of `sizes` and `dtype` filled, through a Float64 buffer, by
/// `draw()` per element.
template <class Draw>
StatusOr<Tensor> fillDouble(const std::vector<int64_t> &sizes, DType dtype,
                            Draw draw) {
  TSIR_RT_ASSIGN_OR_RETURN(Tensor buffer, Tensor::tryEmpty(sizes, DType::Float64));
  double *data = buffer.dataAs<double>();
  int64_t n = buffer.numel();
  {
    std::lock_guard<std::mutex> lock(rngMutex());
    for (int64_t i = 0; i < n; ++i)
      data[i] = draw(rng());
  }
  return buffer.to(dtype);
}

/// The `.generator` overloads' generator, which must be None: tsir draws
/// from its own engine.
Status requireNoGenerator(const Value &generator) {
  if (!generator.isNone())
    return Status::error("a Generator argument is not supported; pass "
                         "generator=None");
  return Status::ok();
}

/// rand/randn (`normal`): a tensor of `size` and `dtype` (Float32 for
/// None) of uniform or normal draws.
StatusOr<Tensor> randomTensor(const std::vector<int64_t> &size,
                              std::optional<DType> dtypeArg, bool normal) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, nonNegativeSizes(size));
  DType dtype = dtypeArg.value_or(DType::Float32);
  if (!isFloating(dtype))
    return Status::error(std::string(normal ? "randn" : "rand") +
                         " is not implemented for an integral dtype");
  StatusOr<Tensor> result =
      normal ? fillDouble(sizes, dtype,
                          [](std::mt19937_64 &g) {
                            return std::normal_distribution<double>()(g);
                          })
             : fillDouble(sizes, dtype, [](std::mt19937_64 &g) {
                 return std::uniform_real_distribution<double>()(g);
               });
  return result;
}

/// rand(size, *, dtype, layout, device, pin_memory); layout, device and
/// pin_memory are ignored, as for every op here.
StatusOr<Tensor> randKernel(std::vector<int64_t> size,
                            std::optional<DType> dtype, Value layout,
                            Value device, Value pinMemory) {
  return randomTensor(size, dtype, /*normal=*/false);
}

StatusOr<Tensor> randnKernel(std::vector<int64_t> size,
                             std::optional<DType> dtype, Value layout,
                             Value device, Value pinMemory) {
  return randomTensor(size, dtype, /*normal=*/true);
}

StatusOr<Tensor> randGenerator(std::vector<int64_t> size, Value generator,
                               std::optional<DType> dtype, Value layout,
                               Value device, Value pinMemory) {
  TSIR_RT_RETURN_IF_ERROR(requireNoGenerator(generator));
  return randomTensor(size, dtype, /*normal=*/false);
}

StatusOr<Tensor> randnGenerator(std::vector<int64_t> size, Value generator,
                                std::optional<DType> dtype, Value layout,
                                Value device, Value pinMemory) {
  TSIR_RT_RETURN_IF_ERROR(requireNoGenerator(generator));
  return randomTensor(size, dtype, /*normal=*/true);
}

/// rand_like/randn_like (`normal`): draws shaped as `self`, in `dtype`
/// (self's for None).
StatusOr<Tensor> randomLike(const Tensor &self, std::optional<DType> dtypeArg,
                            bool normal) {
  DType dtype = dtypeArg.value_or(self.dtype());
  if (!isFloating(dtype))
    return Status::error(std::string(normal ? "randn_like" : "rand_like") +
                         " is not implemented for an integral dtype");
  StatusOr<Tensor> result =
      normal ? fillDouble(self.sizes(), dtype,
                          [](std::mt19937_64 &g) {
                            return std::normal_distribution<double>()(g);
                          })
             : fillDouble(self.sizes(), dtype, [](std::mt19937_64 &g) {
                 return std::uniform_real_distribution<double>()(g);
               });
  return result;
}

StatusOr<Tensor> randLike(Tensor self, std::optional<DType> dtype, Value layout,
                          Value device, Value pinMemory, Value memoryFormat) {
  return randomLike(self, dtype, /*normal=*/false);
}

StatusOr<Tensor> randnLike(Tensor self, std::optional<DType> dtype,
                           Value layout, Value device, Value pinMemory,
                           Value memoryFormat) {
  return randomLike(self, dtype, /*normal=*/true);
}

StatusOr<Tensor> randintTensor(int64_t low, int64_t high,
                               const std::vector<int64_t> &size,
                               std::optional<DType> dtypeArg) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, nonNegativeSizes(size));
  DType dtype = dtypeArg.value_or(DType::Int64);
  if (high <= low)
    return Status::error("random_ expects 'from' to be less than 'to', but "
                         "got from=" +
                         std::to_string(low) + " >= to=" + std::to_string(high));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor buffer, Tensor::tryEmpty(sizes, DType::Int64));
  int64_t *data = buffer.dataAs<int64_t>();
  int64_t n = buffer.numel();
  std::uniform_int_distribution<int64_t> dist(low, high - 1);
  {
    std::lock_guard<std::mutex> lock(rngMutex());
    for (int64_t i = 0; i < n; ++i)
      data[i] = dist(rng());
  }
  return buffer.to(dtype);
}

StatusOr<Tensor> randint(int64_t high, std::vector<int64_t> size,
                         std::optional<DType> dtype, Value layout, Value device,
                         Value pinMemory) {
  return randintTensor(0, high, size, dtype);
}

StatusOr<Tensor> randintLow(int64_t low, int64_t high,
                            std::vector<int64_t> size,
                            std::optional<DType> dtype, Value layout,
                            Value device, Value pinMemory) {
  return randintTensor(low, high, size, dtype);
}

StatusOr<Tensor> randperm(int64_t n, std::optional<DType> dtypeArg,
                          Value layout, Value device, Value pinMemory) {
  if (n < 0)
    return Status::error("n must be non-negative, got" + std::to_string(n));
  DType dtype = dtypeArg.value_or(DType::Int64);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor buffer, Tensor::tryEmpty({n}, DType::Int64));
  int64_t *data = buffer.dataAs<int64_t>();
  std::iota(data, data + n, int64_t(0));
  {
    std::lock_guard<std::mutex> lock(rngMutex());
    std::shuffle(data, data + n, rng());
  }
  return buffer.to(dtype);
}

StatusOr<Tensor> bernoulli(Tensor self, Value generator) {
  Tensor probs = self.to(DType::Float64);
  const double *p = probs.dataAs<double>();
  int64_t n = probs.numel();
  for (int64_t i = 0; i < n; ++i)
    if (!(p[i] >= 0.0 && p[i] <= 1.0))
      return Status::error("Expected p_in >= 0 && p_in <= 1 to be true");
  TSIR_RT_ASSIGN_OR_RETURN(Tensor buffer,
                           Tensor::tryEmpty(self.sizes(), DType::Float64));
  double *data = buffer.dataAs<double>();
  {
    std::lock_guard<std::mutex> lock(rngMutex());
    std::uniform_real_distribution<double> u;
    for (int64_t i = 0; i < n; ++i)
      data[i] = u(rng()) < p[i] ? 1.0 : 0.0;
  }
  return buffer.to(self.dtype());
}

StatusOr<Tensor> bernoulliP(Tensor self, double p, Value generator) {
  if (!(p >= 0.0 && p <= 1.0))
    return Status::error("bernoulli_ expects p to be in [0, 1], but got p=" +
                         std::to_string(p));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor t, fillDouble(self.sizes(), self.dtype(), [p](std::mt19937_64 &g) {
        return std::uniform_real_distribution<double>()(g) < p ? 1.0 : 0.0;
      }));
  return t;
}

/// uniform_ (from `a` to `b`) or normal_ (`normal`: mean `a`, std `b`):
/// `self` filled in place, and returned.
StatusOr<Tensor> fillInPlace(Tensor self, double a, double b, bool normal) {
  if (!isFloating(self.dtype()))
    return Status::error(std::string(normal ? "normal_" : "uniform_") +
                         " expects a floating point tensor");
  StatusOr<Tensor> values = Status::ok();
  if (normal) {
    if (!(b >= 0.0))
      return Status::error("normal expects std >= 0.0, but found std " +
                           std::to_string(b));
    values = fillDouble(self.sizes(), DType::Float64,
                        [a, b](std::mt19937_64 &g) {
                          return std::normal_distribution<double>(a, b)(g);
                        });
  } else {
    if (!(a <= b))
      return Status::error("uniform_ expects to return a [from, to) range, "
                           "but found from=" +
                           std::to_string(a) + " > to=" + std::to_string(b));
    values = fillDouble(self.sizes(), DType::Float64,
                        [a, b](std::mt19937_64 &g) {
                          return a + (b - a) *
                                         std::uniform_real_distribution<double>()(g);
                        });
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor source, std::move(values));
  TSIR_RT_RETURN_IF_ERROR(self.copyFrom(source));
  return self;
}

StatusOr<Tensor> uniformInPlace(Tensor self, double from, double to,
                                Value generator) {
  return fillInPlace(self, from, to, /*normal=*/false);
}

StatusOr<Tensor> normalInPlace(Tensor self, double mean, double std,
                               Value generator) {
  return fillInPlace(self, mean, std, /*normal=*/true);
}

/// split(self, split_sizes, dim): views along `dim` of the given sizes,
/// which must add up to the dim's size (torch's check and wording).
StatusOr<Value> splitWithSizes(Tensor self, std::vector<int64_t> splitSizes,
                               int64_t dim) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes,
                           nonNegativeSizes(splitSizes));
  int64_t rank = self.dim();
  if (rank == 0)
    return Status::error("split expects at least a 1-dimensional tensor");
  TSIR_RT_ASSIGN_OR_RETURN(dim, wrapDim(dim, rank));
  int64_t total = 0;
  for (int64_t size : sizes)
    total += size;
  if (total != self.size(dim))
    return Status::error(
        "split_with_sizes expects split_sizes to sum exactly to " +
        std::to_string(self.size(dim)) + " (input tensor's size at dimension " +
        std::to_string(dim) + "), but got split_sizes with sum " +
        std::to_string(total));
  std::vector<Value> pieces;
  int64_t start = 0;
  for (int64_t size : sizes) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor piece, self.slice(dim, start, start + size));
    pieces.emplace_back(std::move(piece));
    start += size;
  }
  return Value::list(std::move(pieces));
}

/// tensor_split(self, Tensor tensor_indices_or_sections, int dim=0): a 0-d
/// tensor is a count of pieces, as even as can be (the first size % count
/// one longer); a 1-d tensor the indices the pieces start at, each piece
/// Python's slice between neighbours (torch's checks and wording).
StatusOr<Value> tensorSplitByTensor(Tensor self, Tensor tensorIndicesOrSections,
                                    int64_t dim) {
  const Tensor &split = tensorIndicesOrSections;
  if (split.dtype() != DType::Int64)
    return Status::error("tensor_split expected tensor_indices_or_sections "
                         "to have dtype of long, but got " +
                         std::string(dtypeTorchName(split.dtype())));
  if (split.dim() > 1)
    return Status::error("tensor_split expected tensor_indices_or_sections "
                         "to be a zero-dimensional or one-dimensional tensor, "
                         "but got a tensor with " +
                         std::to_string(split.dim()) + " dims");
  int64_t rank = self.dim();
  if (rank == 0)
    return Status::error("tensor_split expected at least a 1-dimensional "
                         "tensor, but got a tensor with 0 dims");
  TSIR_RT_ASSIGN_OR_RETURN(dim, wrapDim(dim, rank));
  Tensor values = split.contiguous();
  const int64_t *data = values.dataAs<int64_t>();
  // The piece boundaries: [start_i, start_{i+1}) between 0 and the size.
  std::vector<int64_t> starts;
  int64_t size = self.size(dim);
  if (split.dim() == 0) {
    int64_t sections = data[0];
    if (sections <= 0)
      return Status::error("number of sections must be larger than 0, got " +
                           std::to_string(sections));
    int64_t shortest = size / sections, longer = size % sections;
    int64_t start = 0;
    for (int64_t i = 0; i + 1 < sections; ++i) {
      start += shortest + (i < longer ? 1 : 0);
      starts.push_back(start);
    }
  } else {
    starts.assign(data, data + split.numel());
  }
  std::vector<Value> pieces;
  int64_t start = 0;
  for (int64_t end : starts) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor piece, self.slice(dim, start, end));
    pieces.emplace_back(std::move(piece));
    start = end;
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor last, self.slice(dim, start, size));
  pieces.emplace_back(std::move(last));
  return Value::list(std::move(pieces));
}

/// meshgrid(tensors, indexing="ij"|"xy"): each 0-d or 1-d input viewed
/// along its own dim of the grid and expanded to the whole grid; "xy"
/// builds the grid with the first two inputs swapped and swaps the first
/// two outputs back, as ATen does (torch's checks and wording).
StatusOr<Value> meshgridWith(const Value &list, const std::string &indexing) {
  if (!list.isList())
    return Status::error("meshgrid expects a list of tensors");
  if (indexing != "ij" && indexing != "xy")
    return Status::error("torch.meshgrid: indexing must be one of \"xy\" or "
                         "\"ij\", but received: " + indexing);
  std::vector<Tensor> inputs;
  for (const Value &element : list.toList()) {
    TSIR_RT_ASSIGN_OR_RETURN(Tensor tensor, requireTensor(element));
    if (tensor.dim() > 1)
      return Status::error("torch.meshgrid: Expected 0D or 1D tensor in the "
                           "tensor list but got: " + tensor.toString());
    inputs.push_back(tensor);
  }
  if (inputs.empty())
    return Status::error("torch.meshgrid expects a non-empty TensorList");
  for (const Tensor &tensor : inputs)
    if (tensor.dtype() != inputs.front().dtype())
      return Status::error("meshgrid expects all tensors to have the same dtype");
  bool swap = indexing == "xy" && inputs.size() >= 2;
  if (swap)
    std::swap(inputs[0], inputs[1]);
  std::vector<int64_t> grid;
  for (const Tensor &tensor : inputs)
    grid.push_back(tensor.numel());
  std::vector<Value> outputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<int64_t> shape(inputs.size(), 1);
    shape[i] = grid[i];
    TSIR_RT_ASSIGN_OR_RETURN(Tensor viewed, inputs[i].reshape(shape));
    TSIR_RT_ASSIGN_OR_RETURN(Tensor expanded, viewed.expand(grid));
    outputs.emplace_back(std::move(expanded));
  }
  if (swap)
    std::swap(outputs[0], outputs[1]);
  return Value::list(std::move(outputs));
}

StatusOr<Value> meshgrid(Value tensors) { return meshgridWith(tensors, "ij"); }

StatusOr<Value> meshgridIndexing(Value tensors, std::string indexing) {
  return meshgridWith(tensors, indexing);
}

/// sum_to_size(self, size): self summed over its leading dims and the
/// dims where `size` has a 1, as torch's sum_to (`size` must be
/// expandable to self's sizes).
StatusOr<Tensor> sumToSize(Tensor self, std::vector<int64_t> size) {
  const std::vector<int64_t> &target = size;
  const std::vector<int64_t> &sizes = self.sizes();
  int64_t rank = self.dim(), lead = rank - static_cast<int64_t>(target.size());
  bool expandable = lead >= 0;
  for (size_t i = 0; expandable && i < target.size(); ++i)
    expandable = target[i] == sizes[lead + i] || target[i] == 1;
  if (!expandable)
    return Status::error("size {" + sizesToString(target) +
                         "} is not expandable to size {" +
                         sizesToString(sizes) + "}.");
  std::vector<double> values = data::toDoubles(self);
  int64_t total = 1;
  for (int64_t extent : target)
    total *= extent;
  std::vector<double> summed(total, 0.0);
  // Walk self's elements in order, mapping each to its target element.
  std::vector<int64_t> index(rank, 0);
  for (double value : values) {
    int64_t at = 0;
    for (size_t i = 0; i < target.size(); ++i)
      at = at * target[i] + (target[i] == 1 ? 0 : index[lead + i]);
    summed[at] += value;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           data::fromDoubles(summed, target, self.dtype()));
  return result;
}

StatusOr<Tensor> nonzero(Tensor self) {
  // Every dtype converts to Float64 with zero staying zero (and NaN, being
  // nonzero, staying NaN); int64 values never round to 0.
  Tensor values = self.to(DType::Float64);
  const double *data = values.dataAs<double>();
  int64_t n = values.numel();
  int64_t dims = self.dim();
  const std::vector<int64_t> &sizes = self.sizes();
  std::vector<int64_t> indices;
  std::vector<int64_t> index(dims, 0);
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (data[i] != 0.0) {
      indices.insert(indices.end(), index.begin(), index.end());
      ++count;
    }
    for (int64_t d = dims - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           Tensor::tryEmpty({count, dims}, DType::Int64));
  if (!indices.empty())
    std::copy(indices.begin(), indices.end(), result.dataAs<int64_t>());
  return result;
}
} // namespace

void registerTensorKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::nonzero(Tensor self) -> Tensor", bindKernel(nonzero)},
          {"aten::sum_to_size(Tensor self, int[] size) -> Tensor",
           bindKernel(sumToSize)},
          {"aten::meshgrid(Tensor[] tensors) -> Tensor[]",
           bindKernel(meshgrid)},
          {"aten::meshgrid.indexing(Tensor[] tensors, *, str indexing) -> "
           "Tensor[]",
           bindKernel(meshgridIndexing)},
          {"aten::split.sizes(Tensor(a -> *) self, int[] split_size, int "
           "dim=0) -> Tensor(a)[]",
           bindKernel(splitWithSizes)},
          {"aten::tensor_split.tensor_indices_or_sections(Tensor self, Tensor "
           "tensor_indices_or_sections, int dim=0) -> Tensor[]",
           bindKernel(tensorSplitByTensor)},
          {"aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int "
           "dim=0) -> Tensor(a)[]",
           bindKernel(splitWithSizes)},
          {"aten::rand.generator(int[] size, *, Generator? generator, "
           "ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
           "bool? pin_memory=None) -> Tensor",
           bindKernel(randGenerator)},
          {"aten::randn.generator(int[] size, *, Generator? generator, "
           "ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
           "bool? pin_memory=None) -> Tensor",
           bindKernel(randnGenerator)},
          {"aten::rand(int[] size, *, ScalarType? dtype=None, Layout? "
           "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           bindKernel(randKernel)},
          {"aten::randn(int[] size, *, ScalarType? dtype=None, Layout? "
           "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           bindKernel(randnKernel)},
          {"aten::rand_like(Tensor self, *, ScalarType? dtype=None, Layout? "
           "layout=None, Device? device=None, bool? pin_memory=None, "
           "MemoryFormat? memory_format=None) -> Tensor",
           bindKernel(randLike)},
          {"aten::randn_like(Tensor self, *, ScalarType? dtype=None, Layout? "
           "layout=None, Device? device=None, bool? pin_memory=None, "
           "MemoryFormat? memory_format=None) -> Tensor",
           bindKernel(randnLike)},
          {"aten::randint(int high, int[] size, *, ScalarType? dtype=4, "
           "Layout? layout=None, Device? device=None, bool? pin_memory=None) "
           "-> Tensor",
           bindKernel(randint)},
          {"aten::randint.low(int low, int high, int[] size, *, ScalarType? "
           "dtype=4, Layout? layout=None, Device? device=None, bool? "
           "pin_memory=None) -> Tensor",
           bindKernel(randintLow)},
          {"aten::randperm(int n, *, ScalarType? dtype=4, Layout? layout=None, "
           "Device? device=None, bool? pin_memory=None) -> Tensor",
           bindKernel(randperm)},
          {"aten::bernoulli(Tensor self, *, Generator? generator=None) -> "
           "Tensor",
           bindKernel(bernoulli)},
          {"aten::bernoulli.p(Tensor self, float p, *, Generator? "
           "generator=None) -> Tensor",
           bindKernel(bernoulliP)},
          {"aten::uniform_(Tensor(a!) self, float from=0., float to=1., *, "
           "Generator? generator=None) -> Tensor(a!)",
           bindKernel(uniformInPlace)},
          {"aten::normal_(Tensor(a!) self, float mean=0., float std=1., *, "
           "Generator? generator=None) -> Tensor(a!)",
           bindKernel(normalInPlace)},
      });
}

} // namespace tsir::rt
