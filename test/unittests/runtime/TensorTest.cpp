//===- TensorTest.cpp - Tests of dtypes, storage and tensors --------------===//
//
// DType tables and 16-bit float conversions, Storage ownership and
// alignment, tensor creation, views sharing storage, and strided copies
// with dtype conversion.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Tensor.h"
#include "tsir-runtime/Cuda.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tsir::rt;
using tsir::rt::test::makeTensor;
using tsir::rt::test::valuesOf;

namespace {
uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// Counts live blocks, to check that storage is freed exactly once.
class CountingAllocator final : public Allocator {
public:
  void *allocate(size_t nbytes) override {
    ++allocations;
    return cpuAllocator().allocate(nbytes);
  }
  void deallocate(void *ptr) override {
    ++deallocations;
    cpuAllocator().deallocate(ptr);
  }
  Device device() const override { return Device::cpu(); }

  int allocations = 0;
  int deallocations = 0;
};
} // namespace

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

TEST(DTypeTest, TablesAreConsistent) {
  EXPECT_EQ(dtypeSize(DType::Float32), 4u);
  EXPECT_EQ(dtypeSize(DType::Float64), 8u);
  EXPECT_EQ(dtypeSize(DType::Float16), 2u);
  EXPECT_EQ(dtypeSize(DType::BFloat16), 2u);
  EXPECT_EQ(dtypeSize(DType::Int64), 8u);
  EXPECT_EQ(dtypeSize(DType::Int32), 4u);
  EXPECT_EQ(dtypeSize(DType::Int16), 2u);
  EXPECT_EQ(dtypeSize(DType::Int8), 1u);
  EXPECT_EQ(dtypeSize(DType::UInt8), 1u);
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  const char *torchNames[] = {"Float", "Double", "Half", "BFloat16", "Long",
                              "Int",   "Short",  "Char", "Byte",     "Bool"};
  const char *safetensorsNames[] = {"F32", "F64", "F16", "BF16", "I64",
                                    "I32", "I16", "I8",  "U8",   "BOOL"};
  // torch's ScalarType numbers (c10/core/ScalarType.h).
  const int64_t scalarTypes[] = {6, 7, 5, 15, 4, 3, 2, 1, 0, 11};
  for (size_t i = 0; i < std::size(kAllDTypes); ++i) {
    DType type = kAllDTypes[i];
    EXPECT_STREQ(dtypeTorchName(type), torchNames[i]);
    EXPECT_EQ(dtypeFromTorchName(torchNames[i]), type);
    EXPECT_STREQ(dtypeSafetensorsName(type), safetensorsNames[i]);
    EXPECT_EQ(dtypeFromSafetensorsName(safetensorsNames[i]), type);
    EXPECT_EQ(dtypeScalarType(type), scalarTypes[i]);
    EXPECT_EQ(dtypeFromScalarType(scalarTypes[i]), type);
    EXPECT_NE(isFloating(type), isIntegral(type) || type == DType::Bool);
  }
  EXPECT_FALSE(dtypeFromTorchName("ComplexFloat"));
  EXPECT_FALSE(dtypeFromSafetensorsName("F8_E4M3"));
  EXPECT_FALSE(dtypeFromScalarType(9)); // ComplexFloat
  EXPECT_STREQ(dtypeNumpyDescr(DType::Float16), "<f2");
  EXPECT_STREQ(dtypeNumpyDescr(DType::BFloat16), "<V2");
  EXPECT_STREQ(dtypeNumpyDescr(DType::Bool), "|b1");
  EXPECT_FALSE(isIntegral(DType::Bool));
  EXPECT_TRUE(isFloating(DType::BFloat16));
}

TEST(DTypeTest, HalfKnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff); // Below the halfway point.
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // Ties to even: infinity.
  EXPECT_EQ(floatToHalf(0.1f), 0x2e66);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // Smallest subnormal.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // Tie to even zero.
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -26)), 0x0001); // Above the tie.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // Smallest normal.
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  uint16_t nan = floatToHalf(NAN);
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x3ff, 0);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_EQ(halfToFloat(0xfc00), -INFINITY);
}

TEST(DTypeTest, HalfRoundTripsEveryEncoding) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = halfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) {
      EXPECT_EQ(bits & 0x7c00, 0x7c00u);
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(value))));
      continue;
    }
    ASSERT_EQ(floatToHalf(value), bits) << "half bits " << bits;
  }
}

#if defined(__clang__) && defined(__FLT16_MAX__)
TEST(DTypeTest, HalfMatchesCompilerConversions) {
  // The compiler's _Float16 conversions are IEEE round-to-nearest-even.
  uint32_t state = 12345;
  for (int i = 0; i < 300000; ++i) {
    state = state * 1664525u + 1013904223u;
    // Bias toward the half range so rounding cases are exercised.
    uint32_t bits = i % 2 ? state : (state & 0x8fffffff) | 0x30000000;
    float value = floatOf(bits);
    _Float16 reference = static_cast<_Float16>(value);
    uint16_t referenceBits;
    std::memcpy(&referenceBits, &reference, 2);
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(value))));
      continue;
    }
    ASSERT_EQ(floatToHalf(value), referenceBits) << "float bits " << bits;
    ASSERT_EQ(bitsOf(halfToFloat(referenceBits)),
              bitsOf(static_cast<float>(reference)));
  }
}
#endif

TEST(DTypeTest, BFloat16Rounding) {
  EXPECT_EQ(floatToBFloat16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloat16(floatOf(0x3f808000)), 0x3f80); // Tie, even.
  EXPECT_EQ(floatToBFloat16(floatOf(0x3f818000)), 0x3f82); // Tie, odd.
  EXPECT_EQ(floatToBFloat16(floatOf(0x3f808001)), 0x3f81);
  EXPECT_EQ(floatToBFloat16(floatOf(0x7f7fffff)), 0x7f80); // Max -> inf.
  EXPECT_EQ(floatToBFloat16(-INFINITY), 0xff80);
  uint16_t nan = floatToBFloat16(floatOf(0x7f800001)); // Signalling NaN.
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(nan)));
  EXPECT_EQ(bfloat16ToFloat(0x4049), 3.140625f);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = bfloat16ToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(value))
      ASSERT_EQ(floatToBFloat16(value), bits);
  }
}

//===----------------------------------------------------------------------===//
// Device, Storage
//===----------------------------------------------------------------------===//

TEST(DeviceTest, PrintsAndParses) {
  EXPECT_EQ(Device::cpu().toString(), "cpu");
  EXPECT_EQ(Device::cuda(1).toString(), "cuda:1");
  EXPECT_EQ(Device::parse("cuda:3"), Device::cuda(3));
  EXPECT_EQ(Device::parse("cuda"), Device::cuda(0));
  EXPECT_EQ(Device::parse("cpu"), Device::cpu());
  EXPECT_FALSE(Device::parse("cuda:"));
  EXPECT_FALSE(Device::parse("cuda:x"));
  EXPECT_FALSE(Device::parse("tpu"));
}

TEST(StorageTest, CPUAllocationsAre64ByteAligned) {
  for (size_t nbytes : {0, 1, 3, 64, 100, 4096, 1 << 20}) {
    Ref<Storage> storage = Storage::allocate(nbytes, cpuAllocator());
    ASSERT_TRUE(storage);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(storage->data()) % 64, 0u);
    EXPECT_EQ(storage->nbytes(), nbytes);
    EXPECT_EQ(storage->base(), storage->data());
    EXPECT_EQ(storage->allocator(), &cpuAllocator());
  }
  // Zero-byte blocks are distinct, freeable pointers.
  void *a = cpuAllocator().allocate(0);
  void *b = cpuAllocator().allocate(0);
  ASSERT_TRUE(a && b);
  EXPECT_NE(a, b);
  cpuAllocator().deallocate(a);
  cpuAllocator().deallocate(b);
}

TEST(StorageTest, RefCountFreesOnLastReference) {
  CountingAllocator counting;
  {
    Ref<Storage> storage = Storage::allocate(16, counting);
    EXPECT_EQ(storage.useCount(), 1u);
    Ref<Storage> copy = storage;
    EXPECT_EQ(storage.useCount(), 2u);
    Ref<Storage> moved = std::move(copy);
    EXPECT_FALSE(copy);
    EXPECT_EQ(storage.useCount(), 2u);
    moved.reset();
    EXPECT_EQ(storage.useCount(), 1u);
    EXPECT_EQ(counting.deallocations, 0);
  }
  EXPECT_EQ(counting.allocations, 1);
  EXPECT_EQ(counting.deallocations, 1);
}

TEST(StorageTest, AdoptCallsDeleterWithBase) {
  int calls = 0;
  void *seen = nullptr;
  char buffer[32];
  {
    Ref<Storage> storage =
        Storage::adopt(buffer, buffer + 8, 24, Device::cpu(), [&](void *base) {
          ++calls;
          seen = base;
        });
    EXPECT_EQ(storage->data(), buffer + 8);
    EXPECT_EQ(storage->base(), buffer);
    EXPECT_EQ(storage->allocator(), nullptr);
    Tensor view(storage, {3}, {1}, 0, DType::Int64);
    storage.reset();
    EXPECT_EQ(calls, 0); // The tensor still holds it.
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, buffer);
}

TEST(StorageTest, TensorsAndViewsReleaseStorage) {
  CountingAllocator counting;
  {
    Tensor tensor = *Tensor::tryEmpty({4, 4}, DType::Float32, counting);
    Tensor view = *tensor.transpose(0, 1);
    EXPECT_EQ(tensor.storage().useCount(), 2u);
    tensor = Tensor();
    EXPECT_EQ(counting.deallocations, 0);
  }
  EXPECT_EQ(counting.deallocations, 1);
}

//===----------------------------------------------------------------------===//
// Creation and geometry
//===----------------------------------------------------------------------===//

TEST(TensorTest, EmptyIsContiguous) {
  Tensor tensor = Tensor::empty({2, 3, 4}, DType::Float32);
  EXPECT_TRUE(tensor.defined());
  EXPECT_EQ(tensor.dim(), 3);
  EXPECT_EQ(tensor.numel(), 24);
  EXPECT_EQ(tensor.sizes(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(tensor.strides(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(tensor.storageOffset(), 0);
  EXPECT_EQ(tensor.nbytes(), 96u);
  EXPECT_EQ(tensor.storage()->nbytes(), 96u);
  EXPECT_TRUE(tensor.isContiguous());
  EXPECT_EQ(tensor.device(), Device::cpu());
  EXPECT_EQ(tensor.toString(), "Float[2, 3, 4]");
  EXPECT_EQ(tensor.size(-1), 4);
  EXPECT_EQ(tensor.stride(0), 12);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.data()) % 64, 0u);
}

TEST(TensorTest, ZeroDimAndEmptyTensors) {
  Tensor scalar = Tensor::scalar(2.5, DType::Float64);
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(*scalar.dataAs<double>(), 2.5);
  EXPECT_EQ(scalar.toString(), "Double[]");
  Tensor empty = Tensor::zeros({0, 3}, DType::Int32);
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_TRUE(empty.isContiguous());
  EXPECT_EQ(empty.strides(), (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(empty.clone().defined());
}

TEST(TensorTest, ZerosAndFromBlob) {
  for (DType type : kAllDTypes) {
    Tensor zeros = Tensor::zeros({3, 5}, type);
    EXPECT_EQ(valuesOf(zeros), std::vector<double>(15, 0.0))
        << dtypeTorchName(type);
  }
  int32_t data[] = {1, 2, 3, 4, 5, 6};
  Tensor tensor = Tensor::fromBlob(data, {2, 3}, DType::Int32);
  data[0] = 100; // fromBlob copied.
  EXPECT_EQ(tensor.dataAs<int32_t>()[0], 1);
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(TensorTest, InvalidSizesAreErrors) {
  StatusOr<Tensor> negative = Tensor::tryEmpty({2, -1}, DType::Float32);
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().message().find("negative size -1"),
            std::string::npos);
  StatusOr<Tensor> huge =
      Tensor::tryEmpty({1 << 30, 1 << 30, 1 << 30}, DType::Float32);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("64 bits"), std::string::npos);
  // A CUDA tensor where there is no GPU says why.
  StatusOr<Tensor> cuda = Tensor::tryEmpty({2}, DType::Float32, Device::cuda());
  EXPECT_EQ(cuda.ok(), cuda::available().isOk());
  if (!cuda.ok())
    EXPECT_NE(cuda.status().message().find("CUDA is not available"),
              std::string::npos)
        << cuda.status().message();
}

TEST(TensorTest, UndefinedTensor) {
  Tensor undefined;
  EXPECT_FALSE(undefined.defined());
  EXPECT_EQ(undefined.data(), nullptr);
  EXPECT_EQ(undefined.numel(), 0);
  EXPECT_EQ(undefined.toString(), "Undefined");
  EXPECT_FALSE(undefined.sharesStorageWith(undefined));
  EXPECT_FALSE(undefined.view({1}).ok());
  EXPECT_FALSE(undefined.clone().defined());
  Tensor target = Tensor::empty({1}, DType::Float32);
  Status status = target.copyFrom(undefined);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "copyFrom: source tensor is undefined");
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

TEST(TensorViewTest, ViewSharesStorageAndWritesShowThrough) {
  Tensor base = makeTensor({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Float32);
  Tensor flat = *base.view({-1});
  EXPECT_TRUE(flat.sharesStorageWith(base));
  EXPECT_EQ(flat.sizes(), (std::vector<int64_t>{6}));
  EXPECT_EQ(base.storage().useCount(), 2u);
  flat.dataAs<float>()[4] = 40;
  EXPECT_EQ(valuesOf(base), (std::vector<double>{0, 1, 2, 3, 40, 5}));
  Tensor threeByTwo = *base.view({3, -1});
  EXPECT_EQ(threeByTwo.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(threeByTwo.strides(), (std::vector<int64_t>{2, 1}));
}

TEST(TensorViewTest, ViewErrors) {
  Tensor base = Tensor::zeros({2, 3}, DType::Float32);
  StatusOr<Tensor> wrong = base.view({4, 2});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message(),
            "view: shape '[4, 2]' is invalid for input of size 6");
  EXPECT_EQ(base.view({-1, -1}).status().message(),
            "view: only one dimension can be inferred");
  // A transpose is not contiguous: flattening it crosses chunks.
  Tensor transposed = *base.transpose(0, 1);
  StatusOr<Tensor> flat = transposed.view({6});
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.status().message().find("use reshape instead"),
            std::string::npos);
  // Splitting a dimension of a non-contiguous tensor is still a view.
  Tensor wide = Tensor::zeros({4, 6}, DType::Float32);
  Tensor columns = *wide.slice(1, 0, 4); // [4, 4] with row stride 6.
  Tensor split = *columns.view({4, 2, 2});
  EXPECT_EQ(split.strides(), (std::vector<int64_t>{6, 2, 1}));
  EXPECT_TRUE(split.sharesStorageWith(wide));
}

TEST(TensorViewTest, ReshapeCopiesOnlyWhenNeeded) {
  Tensor base = makeTensor({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Int64);
  EXPECT_TRUE(base.reshape({3, 2})->sharesStorageWith(base));
  Tensor transposed = *base.transpose(0, 1);
  Tensor flat = *transposed.reshape({-1});
  EXPECT_FALSE(flat.sharesStorageWith(base));
  EXPECT_EQ(valuesOf(flat), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(TensorViewTest, PermuteAndTranspose) {
  Tensor base = Tensor::zeros({2, 3, 4}, DType::Float32);
  Tensor permuted = *base.permute({2, 0, 1});
  EXPECT_EQ(permuted.sizes(), (std::vector<int64_t>{4, 2, 3}));
  EXPECT_EQ(permuted.strides(), (std::vector<int64_t>{1, 12, 4}));
  EXPECT_FALSE(permuted.isContiguous());
  EXPECT_TRUE(permuted.sharesStorageWith(base));
  Tensor negative = *base.permute({-1, 0, 1});
  EXPECT_EQ(negative.strides(), permuted.strides());
  EXPECT_EQ(base.permute({0, 0, 1}).status().message(),
            "permute: repeated dim 0 in [0, 0, 1]");
  EXPECT_FALSE(base.permute({0, 1}).ok());
  EXPECT_FALSE(base.permute({0, 1, 3}).ok());
  Tensor transposed = *base.transpose(0, -1);
  EXPECT_EQ(transposed.sizes(), (std::vector<int64_t>{4, 3, 2}));
  EXPECT_EQ(transposed.strides(), (std::vector<int64_t>{1, 4, 12}));
  EXPECT_EQ(base.transpose(0, 3).status().message(),
            "transpose: dimension out of range (expected to be in range of "
            "[-3, 2], but got 3)");
}

TEST(TensorViewTest, SliceAndSelect) {
  std::vector<double> values(20);
  for (int i = 0; i < 20; ++i)
    values[i] = i;
  Tensor base = makeTensor(values, {4, 5}, DType::Int32);
  Tensor rows = *base.slice(0, 1, 4, 2);
  EXPECT_EQ(rows.sizes(), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(rows.strides(), (std::vector<int64_t>{10, 1}));
  EXPECT_EQ(rows.storageOffset(), 5);
  EXPECT_EQ(valuesOf(rows),
            (std::vector<double>{5, 6, 7, 8, 9, 15, 16, 17, 18, 19}));
  Tensor tail = *base.slice(1, -2);
  EXPECT_EQ(tail.sizes(), (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(tail.storageOffset(), 3);
  Tensor clamped = *base.slice(1, -100, 100);
  EXPECT_EQ(clamped.sizes(), base.sizes());
  Tensor empty = *base.slice(1, 3, 1);
  EXPECT_EQ(empty.sizes(), (std::vector<int64_t>{4, 0}));
  EXPECT_EQ(base.slice(0, 0, 4, 0).status().message(),
            "slice: step must be positive, got 0");

  Tensor column = *base.select(1, -1);
  EXPECT_EQ(column.sizes(), (std::vector<int64_t>{4}));
  EXPECT_EQ(column.strides(), (std::vector<int64_t>{5}));
  EXPECT_EQ(column.storageOffset(), 4);
  EXPECT_EQ(valuesOf(column), (std::vector<double>{4, 9, 14, 19}));
  column.dataAs<int32_t>()[5] = -1; // Element [1] of the column.
  EXPECT_EQ(base.dataAs<int32_t>()[9], -1);
  EXPECT_EQ(base.select(0, 4).status().message(),
            "select: index 4 out of range for dimension 0 of size 4");
  Tensor scalar = *column.select(0, 0);
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_FALSE(scalar.select(0, 0).ok());
}

TEST(TensorViewTest, ExpandUsesStrideZero) {
  Tensor base = makeTensor({1, 2, 3}, {3, 1}, DType::Float32);
  Tensor expanded = *base.expand({2, 3, 4});
  EXPECT_EQ(expanded.sizes(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(expanded.strides(), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_TRUE(expanded.sharesStorageWith(base));
  std::vector<double> values = valuesOf(expanded);
  EXPECT_EQ(values[0], 1);
  EXPECT_EQ(values[5], 2);  // [0][1][1]
  EXPECT_EQ(values[23], 3); // [1][2][3]
  Tensor same = *base.expand({-1, 5});
  EXPECT_EQ(same.sizes(), (std::vector<int64_t>{3, 5}));
  StatusOr<Tensor> bad = base.expand({4, 4});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "expand: the expanded size of the tensor (4) must match the "
            "existing size (3) at non-singleton dimension 0. Target sizes: "
            "[4, 4]. Tensor sizes: [3, 1]");
  EXPECT_FALSE(base.expand({3}).ok());
  EXPECT_FALSE(base.expand({-1, 3, 1}).ok());
}

TEST(TensorViewTest, AsStridedChecksBounds) {
  Tensor base = Tensor::zeros({10}, DType::Int16);
  Tensor window = *base.asStrided({3, 3}, {1, 1}, 2);
  EXPECT_EQ(window.storageOffset(), 2);
  EXPECT_TRUE(base.asStrided({2, 2}, {4, 1}, 4).ok()); // Last element 9.
  StatusOr<Tensor> past = base.asStrided({2, 2}, {4, 1}, 5);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("reach past the storage's 10"),
            std::string::npos);
  EXPECT_FALSE(base.asStrided({2}, {1, 1}, 0).ok());
  EXPECT_FALSE(base.asStrided({2}, {-1}, 5).ok());
  EXPECT_FALSE(base.asStrided({2}, {1}, -1).ok());
  EXPECT_TRUE(base.asStrided({0}, {1}, 10).ok());
  EXPECT_FALSE(base.asStrided({1LL << 62, 4}, {4, 1LL << 62}, 0).ok());
}

TEST(TensorViewTest, SqueezeAndUnsqueeze) {
  Tensor base = Tensor::zeros({1, 3, 1, 2}, DType::Float32);
  Tensor squeezed = base.squeeze();
  EXPECT_EQ(squeezed.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(squeezed.strides(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(base.squeeze(2)->sizes(), (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(base.squeeze(1)->sizes(), base.sizes()); // Not size 1.
  Tensor unsqueezed = *squeezed.unsqueeze(1);
  EXPECT_EQ(unsqueezed.sizes(), (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(unsqueezed.strides(), (std::vector<int64_t>{2, 2, 1}));
  Tensor last = *squeezed.unsqueeze(-1);
  EXPECT_EQ(last.sizes(), (std::vector<int64_t>{3, 2, 1}));
  EXPECT_EQ(last.strides(), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_FALSE(squeezed.unsqueeze(3).ok());
  Tensor scalar = Tensor::scalar(1);
  EXPECT_EQ(scalar.unsqueeze(0)->sizes(), (std::vector<int64_t>{1}));
  EXPECT_EQ(scalar.squeeze(0)->dim(), 0);
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

TEST(TensorCopyTest, ContiguousCopiesOnlyWhenNeeded) {
  Tensor base = makeTensor({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Float32);
  EXPECT_TRUE(base.contiguous().sharesStorageWith(base));
  Tensor transposed = *base.transpose(0, 1);
  Tensor dense = transposed.contiguous();
  EXPECT_FALSE(dense.sharesStorageWith(base));
  EXPECT_TRUE(dense.isContiguous());
  EXPECT_EQ(dense.sizes(), (std::vector<int64_t>{3, 2}));
  const float *data = dense.dataAs<float>();
  EXPECT_EQ(std::vector<float>(data, data + 6),
            (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(TensorCopyTest, CloneIsIndependent) {
  Tensor base = makeTensor({1, 2, 3}, {3}, DType::Int8);
  Tensor copy = base.clone();
  EXPECT_FALSE(copy.sharesStorageWith(base));
  copy.dataAs<int8_t>()[0] = 9;
  EXPECT_EQ(base.dataAs<int8_t>()[0], 1);
}

TEST(TensorCopyTest, CopyBetweenLayouts) {
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i)
    values[i] = i;
  Tensor source = makeTensor(values, {2, 3, 4}, DType::Float64);
  // Destination: a permuted view of a [4, 2, 3] buffer.
  Tensor buffer = Tensor::zeros({4, 2, 3}, DType::Float64);
  Tensor destination = *buffer.permute({1, 2, 0});
  ASSERT_TRUE(destination.copyFrom(source).isOk());
  EXPECT_EQ(valuesOf(destination), values);
  // Source: a sliced, stepped view.
  Tensor stepped = *source.slice(2, 0, 4, 2); // [2, 3, 2]
  Tensor target = Tensor::empty({2, 3, 2}, DType::Float64);
  ASSERT_TRUE(target.copyFrom(stepped).isOk());
  EXPECT_EQ(valuesOf(target),
            (std::vector<double>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
}

TEST(TensorCopyTest, EveryDTypePairConverts) {
  // Values every dtype holds exactly; Bool holds their truth.
  std::vector<double> values = {0, 1, 2, 3, 100, 127, 64, 5};
  for (DType from : kAllDTypes) {
    Tensor source = makeTensor(values, {2, 4}, from);
    std::vector<double> expectedSource = values;
    if (from == DType::Bool)
      for (double &v : expectedSource)
        v = v != 0;
    for (DType to : kAllDTypes) {
      // A transposed destination so the strided path runs too.
      Tensor buffer = Tensor::empty({4, 2}, to);
      Tensor destination = *buffer.transpose(0, 1);
      ASSERT_TRUE(destination.copyFrom(source).isOk());
      std::vector<double> expected = expectedSource;
      if (to == DType::Bool)
        for (double &v : expected)
          v = v != 0;
      EXPECT_EQ(valuesOf(destination), expected)
          << dtypeTorchName(from) << " -> " << dtypeTorchName(to);
    }
  }
}

TEST(TensorCopyTest, ConversionRules) {
  Tensor floats =
      makeTensor({2.7, -2.7, 300, -1, 0.5, NAN}, {6}, DType::Float32);
  EXPECT_EQ(valuesOf(floats.to(DType::Int32)),
            (std::vector<double>{2, -2, 300, -1, 0, 0}));
  // Integer narrowing wraps like a C++ cast (torch's behaviour).
  Tensor ints = makeTensor({300, -1, 128, -129}, {4}, DType::Int64);
  EXPECT_EQ(valuesOf(ints.to(DType::UInt8)),
            (std::vector<double>{44, 255, 128, 127}));
  EXPECT_EQ(valuesOf(ints.to(DType::Int8)),
            (std::vector<double>{44, -1, -128, 127}));
  // Anything to Bool is `!= 0`; NaN is true.
  EXPECT_EQ(valuesOf(floats.to(DType::Bool)),
            (std::vector<double>{1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(
      valuesOf(
          makeTensor({0, -0.0, 0.25}, {3}, DType::Float16).to(DType::Bool)),
      (std::vector<double>{0, 0, 1}));
  // Half and bfloat16 round to nearest even.
  Tensor half = makeTensor({0.1, 65520, 1e-8}, {3}, DType::Float16);
  EXPECT_EQ(half.dataAs<uint16_t>()[0], 0x2e66);
  EXPECT_EQ(half.dataAs<uint16_t>()[1], 0x7c00);
  EXPECT_EQ(half.dataAs<uint16_t>()[2], 0x0000);
  Tensor bf16 = makeTensor({1.00390625, 3.14159}, {2}, DType::BFloat16);
  EXPECT_EQ(bf16.dataAs<uint16_t>()[0], 0x3f80);
  EXPECT_EQ(bf16.dataAs<uint16_t>()[1], 0x4049);
  EXPECT_EQ(valuesOf(half.to(DType::BFloat16)),
            (std::vector<double>{0.10009765625, INFINITY, 0}));
  // int64 -> int64 copies stay exact beyond 2^53.
  int64_t big[] = {(1LL << 62) + 1, -(1LL << 60) - 3};
  Tensor longs = Tensor::fromBlob(big, {2}, DType::Int64);
  Tensor column = *Tensor::empty({2, 1}, DType::Int64).view({2});
  ASSERT_TRUE(column.copyFrom(longs).isOk());
  EXPECT_EQ(column.dataAs<int64_t>()[0], big[0]);
  EXPECT_EQ(column.dataAs<int64_t>()[1], big[1]);
  EXPECT_EQ(longs.to(DType::Int32).dataAs<int32_t>()[0], 1);
  // Double -> int64 saturates instead of invoking undefined behaviour.
  Tensor huge = makeTensor({1e30, -1e30}, {2}, DType::Float64);
  EXPECT_EQ(huge.to(DType::Int64).dataAs<int64_t>()[0],
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(huge.to(DType::Int64).dataAs<int64_t>()[1],
            std::numeric_limits<int64_t>::min());
}

TEST(TensorCopyTest, BroadcastingAndErrors) {
  Tensor row = makeTensor({1, 2, 3}, {3}, DType::Float32);
  Tensor matrix = Tensor::zeros({2, 3}, DType::Int32);
  ASSERT_TRUE(matrix.copyFrom(row).isOk());
  EXPECT_EQ(valuesOf(matrix), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  Tensor wrong = Tensor::zeros({2, 4}, DType::Float32);
  Status status = wrong.copyFrom(row);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "copyFrom: source Float[3] does not broadcast to "
                              "destination Float[2, 4]");
}

TEST(TensorCopyTest, OverlappingCopyUsesTheOldValues) {
  Tensor base = makeTensor({0, 1, 2, 3, 4, 5, 6, 7}, {8}, DType::Int16);
  Tensor front = *base.slice(0, 0, 6);
  Tensor back = *base.slice(0, 2, 8);
  ASSERT_TRUE(back.copyFrom(front).isOk());
  EXPECT_EQ(valuesOf(base), (std::vector<double>{0, 1, 0, 1, 2, 3, 4, 5}));
  // In place through a transpose of itself.
  Tensor square = makeTensor({1, 2, 3, 4}, {2, 2}, DType::Float32);
  ASSERT_TRUE(square.copyFrom(*square.transpose(0, 1)).isOk());
  EXPECT_EQ(valuesOf(square), (std::vector<double>{1, 3, 2, 4}));
}

TEST(TensorCopyTest, ToAndFill) {
  Tensor base = makeTensor({1.5, -2.5}, {2}, DType::Float32);
  EXPECT_TRUE(base.to(DType::Float32).sharesStorageWith(base));
  Tensor doubles = base.to(DType::Float64);
  EXPECT_EQ(doubles.dtype(), DType::Float64);
  EXPECT_EQ(valuesOf(doubles), (std::vector<double>{1.5, -2.5}));
  Tensor matrix = Tensor::empty({3, 3}, DType::BFloat16);
  (*matrix.slice(1, 1)).fill(2);
  (*matrix.slice(1, 0, 1)).fill(-1);
  EXPECT_EQ(valuesOf(matrix),
            (std::vector<double>{-1, 2, 2, -1, 2, 2, -1, 2, 2}));
}
