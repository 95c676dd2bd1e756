//===- MemRefTest.cpp - Tests of the memref descriptor bridge -------------===//
//
// The descriptor layout against MLIR's StridedMemRefType for ranks 0 to 4,
// adopting buffers returned by compiled code (freed exactly once, after the
// last view), and views of memrefs that alias an existing storage.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/MemRef.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {
/// mlir/ExecutionEngine/CRunnerUtils.h's StridedMemRefType, restated.
template <class T, int N> struct StridedMemRefType {
  T *basePtr;
  T *data;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
template <class T> struct StridedMemRefType<T, 0> {
  T *basePtr;
  T *data;
  int64_t offset;
};

template <int N> void checkLayout(const Tensor &tensor) {
  MemRefDescriptor descriptor = MemRefDescriptor::fromTensor(tensor);
  ASSERT_EQ(descriptor.rank(), N);
  EXPECT_EQ(MemRefDescriptor::sizeInBytes(N),
            sizeof(StridedMemRefType<float, N>));
  auto *memref = static_cast<StridedMemRefType<float, N> *>(descriptor.get());
  EXPECT_EQ(memref->basePtr, tensor.storage()->base());
  EXPECT_EQ(memref->data, tensor.storage()->data());
  EXPECT_EQ(memref->offset, tensor.storageOffset());
  EXPECT_EQ(memref->data + memref->offset, tensor.data());
  if constexpr (N > 0) {
    for (int d = 0; d < N; ++d) {
      EXPECT_EQ(memref->sizes[d], tensor.sizes()[d]);
      EXPECT_EQ(memref->strides[d], tensor.strides()[d]);
      EXPECT_EQ(descriptor.size(d), tensor.sizes()[d]);
      EXPECT_EQ(descriptor.stride(d), tensor.strides()[d]);
    }
  }
  EXPECT_EQ(descriptor.allocated(), tensor.storage()->base());
  EXPECT_EQ(descriptor.aligned(), tensor.storage()->data());
  UnrankedMemRef unranked = descriptor.unranked();
  EXPECT_EQ(unranked.rank, N);
  EXPECT_EQ(unranked.descriptor, descriptor.get());
}
} // namespace

TEST(MemRefTest, LayoutMatchesStridedMemRefType) {
  checkLayout<0>(Tensor::scalar(1));
  checkLayout<1>(Tensor::zeros({5}, DType::Float32));
  checkLayout<2>(*Tensor::zeros({4, 6}, DType::Float32).slice(1, 2, 6, 2));
  checkLayout<3>(*Tensor::zeros({2, 3, 4}, DType::Float32).permute({2, 0, 1}));
  checkLayout<4>(*Tensor::zeros({2, 3, 4, 5}, DType::Float32)
                      .select(0, 1)
                      ->unsqueeze(1)
                      ->expand({3, 7, 4, 5}));
  EXPECT_EQ(MemRefDescriptor::sizeInBytes(0), 24u);
  EXPECT_EQ(MemRefDescriptor::sizeInBytes(4), 88u);
}

TEST(MemRefTest, CompiledCodeReadsThroughTheDescriptor) {
  // What generated code does with a memref: index aligned + offset +
  // sum(i * stride).
  Tensor base = makeTensor({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4},
                           DType::Float32);
  Tensor view = *(*base.transpose(0, 1)).slice(0, 1, 3); // [2, 3]
  MemRefDescriptor descriptor = MemRefDescriptor::fromTensor(view);
  auto *memref = static_cast<StridedMemRefType<float, 2> *>(descriptor.get());
  std::vector<double> read;
  for (int64_t i = 0; i < memref->sizes[0]; ++i)
    for (int64_t j = 0; j < memref->sizes[1]; ++j)
      read.push_back(memref->data[memref->offset + i * memref->strides[0] +
                                  j * memref->strides[1]]);
  EXPECT_EQ(read, valuesOf(view));
  EXPECT_EQ(read, (std::vector<double>{1, 5, 9, 2, 6, 10}));
}

TEST(MemRefTest, AdoptedBuffersAreFreedOnceAfterTheLastView) {
  static int frees;
  static void *freed;
  frees = 0;
  freed = nullptr;
  // As compiled code returns it: a malloc'd block, aligned inside it.
  char *block = static_cast<char *>(std::malloc(64 + 6 * sizeof(int32_t)));
  auto *aligned = reinterpret_cast<int32_t *>(block + 16);
  for (int i = 0; i < 6; ++i)
    aligned[i] = i * 10;
  StridedMemRefType<int32_t, 2> memref = {
      reinterpret_cast<int32_t *>(block), aligned, 0, {2, 3}, {3, 1}};
  Tensor view;
  {
    Tensor tensor =
        tensorFromOwnedMemRef(&memref, 2, DType::Int32, [](void *ptr) {
          ++frees;
          freed = ptr;
          std::free(ptr);
        });
    EXPECT_EQ(tensor.sizes(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(tensor.strides(), (std::vector<int64_t>{3, 1}));
    EXPECT_EQ(tensor.data(), aligned);
    EXPECT_EQ(tensor.storage()->base(), block);
    EXPECT_EQ(tensor.storage()->nbytes(), 24u);
    EXPECT_EQ(valuesOf(tensor), (std::vector<double>{0, 10, 20, 30, 40, 50}));
    view = *tensor.select(1, 2);
  }
  EXPECT_EQ(frees, 0); // The view keeps the buffer alive.
  EXPECT_EQ(valuesOf(view), (std::vector<double>{20, 50}));
  view = Tensor();
  EXPECT_EQ(frees, 1);
  EXPECT_EQ(freed, block);
}

TEST(MemRefTest, AdoptedGeometryWithOffsetAndZeroSizes) {
  static int frees;
  frees = 0;
  auto countingFree = [](void *ptr) {
    ++frees;
    std::free(ptr);
  };
  double *buffer = static_cast<double *>(std::malloc(10 * sizeof(double)));
  for (int i = 0; i < 10; ++i)
    buffer[i] = i;
  StridedMemRefType<double, 1> strided = {buffer, buffer, 2, {3}, {3}};
  Tensor tensor =
      tensorFromOwnedMemRef(&strided, 1, DType::Float64, countingFree);
  EXPECT_EQ(tensor.storageOffset(), 2);
  EXPECT_EQ(tensor.storage()->nbytes(), 9 * sizeof(double));
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{2, 5, 8}));
  tensor = Tensor();
  EXPECT_EQ(frees, 1);

  void *empty = std::malloc(0);
  StridedMemRefType<float, 2> none = {static_cast<float *>(empty),
                                      static_cast<float *>(empty),
                                      0,
                                      {0, 4},
                                      {4, 1}};
  Tensor emptyTensor =
      tensorFromOwnedMemRef(&none, 2, DType::Float32, countingFree);
  EXPECT_EQ(emptyTensor.numel(), 0);
  EXPECT_EQ(emptyTensor.storage()->nbytes(), 0u);
  emptyTensor = Tensor();
  EXPECT_EQ(frees, 2);

  float *scalarBuffer = static_cast<float *>(std::malloc(sizeof(float)));
  *scalarBuffer = 3;
  StridedMemRefType<float, 0> scalar = {scalarBuffer, scalarBuffer, 0};
  Tensor scalarTensor =
      tensorFromOwnedMemRef(&scalar, 0, DType::Float32, countingFree);
  EXPECT_EQ(scalarTensor.dim(), 0);
  EXPECT_EQ(valuesOf(scalarTensor), (std::vector<double>{3}));
  scalarTensor = Tensor();
  EXPECT_EQ(frees, 3);
}

TEST(MemRefTest, ReturnedGlobalsAreCopiedNotFreed) {
  static int frees;
  frees = 0;
  static const int64_t global[4] = {7, 8, 9, 10};
  // memref.get_global's lowering: allocated is 0xdeadbeef.
  StridedMemRefType<const int64_t, 1> memref = {
      static_cast<const int64_t *>(kGlobalMemRefAllocated),
      global,
      1,
      {2},
      {2}};
  Tensor tensor =
      tensorFromOwnedMemRef(&memref, 1, DType::Int64, [](void *) { ++frees; });
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{8, 10}));
  EXPECT_TRUE(tensor.isContiguous());
  EXPECT_NE(tensor.data(), static_cast<const void *>(global + 1));
  tensor = Tensor();
  EXPECT_EQ(frees, 0);
}

TEST(MemRefTest, ViewsOfMemRefsShareTheOwner) {
  Tensor input = makeTensor({0, 1, 2, 3, 4, 5}, {2, 3}, DType::Float32);
  // Compiled code returned input[:, 1:] (aliasing its argument).
  float *data = input.dataAs<float>();
  StridedMemRefType<float, 2> alias = {data, data, 1, {2, 2}, {3, 1}};
  StatusOr<Tensor> view =
      tensorViewOfMemRef(&alias, 2, DType::Float32, input.storage());
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_TRUE(view->sharesStorageWith(input));
  EXPECT_EQ(view->storageOffset(), 1);
  EXPECT_EQ(valuesOf(*view), (std::vector<double>{1, 2, 4, 5}));
  // An aligned pointer inside the storage shifts the offset.
  StridedMemRefType<float, 1> shifted = {data, data + 3, 1, {2}, {1}};
  Tensor tail =
      *tensorViewOfMemRef(&shifted, 1, DType::Float32, input.storage());
  EXPECT_EQ(tail.storageOffset(), 4);
  EXPECT_EQ(valuesOf(tail), (std::vector<double>{4, 5}));

  StridedMemRefType<float, 1> past = {data, data, 4, {3}, {1}};
  StatusOr<Tensor> outside =
      tensorViewOfMemRef(&past, 1, DType::Float32, input.storage());
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("reach past the storage's 6"),
            std::string::npos);
  // A pointer from another allocation is not inside the storage.
  Tensor other = Tensor::zeros({4}, DType::Float32);
  StridedMemRefType<float, 1> foreign = {
      other.dataAs<float>(), other.dataAs<float>(), 0, {1}, {1}};
  EXPECT_FALSE(
      tensorViewOfMemRef(&foreign, 1, DType::Float32, input.storage()).ok());
  StridedMemRefType<float, 1> misaligned = {
      data,
      reinterpret_cast<float *>(reinterpret_cast<char *>(data) + 2),
      0,
      {1},
      {1}};
  EXPECT_EQ(tensorViewOfMemRef(&misaligned, 1, DType::Float32, input.storage())
                .status()
                .message(),
            "tensorViewOfMemRef: the memref's aligned pointer is not an "
            "element of the storage");
  EXPECT_FALSE(tensorViewOfMemRef(&alias, 2, DType::Float32, nullptr).ok());
}
