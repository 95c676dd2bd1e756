//===- LinalgKernelsTest.cpp - Tests of the linear algebra kernels --------===//
//
// The LAPACK-backed kernels of runtime/lib/kernels/Linalg*.cpp, called
// through the global registry: small matrices with known answers, batches,
// torch's sign and ordering conventions, and the errors torch raises.
// Every test skips when liblapack.so.3 cannot be loaded (the kernels then
// report a Status error, checked by LapackMissingIsAnError).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "tsir-runtime/KernelRegistry.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cmath>
#include <limits>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {

bool haveLapack() {
  static bool have = [] {
    void *h = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    return h != nullptr;
  }();
  return have;
}

#define REQUIRE_LAPACK()                                                       \
  do {                                                                         \
    if (!haveLapack())                                                         \
      GTEST_SKIP() << "liblapack.so.3 is not installed";                       \
  } while (false)

Tensor mat(const std::vector<double> &values, std::vector<int64_t> sizes,
           DType dtype = DType::Float32) {
  return makeTensor(values, std::move(sizes), dtype);
}

std::vector<Value> call(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> out = callKernel(name, std::move(inputs));
  EXPECT_TRUE(out.ok()) << name << ": " << out.status().message();
  if (!out.ok())
    return {};
  return *out;
}

std::string errorOf(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> out = callKernel(name, std::move(inputs));
  return out.ok() ? "" : out.status().message();
}

void expectNear(const Tensor &t, const std::vector<double> &expected,
                double tol = 1e-5) {
  std::vector<double> got = valuesOf(t);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], tol) << "element " << i;
}

} // namespace

TEST(LinalgKernelsTest, Determinants) {
  REQUIRE_LAPACK();
  // det [[1, 2], [3, 4]] = -2; a batch with a singular matrix.
  Tensor A = mat({1, 2, 3, 4, 2, 0, 0, 3, 1, 2, 2, 4}, {3, 2, 2});
  std::vector<Value> det = call("aten::linalg_det", {A});
  ASSERT_EQ(det.size(), 1u);
  EXPECT_EQ(det[0].toTensor().sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(det[0].toTensor().dtype(), DType::Float32);
  expectNear(det[0].toTensor(), {-2, 6, 0});
  std::vector<Value> slog = call("aten::linalg_slogdet", {A});
  ASSERT_EQ(slog.size(), 2u);
  expectNear(slog[0].toTensor(), {-1, 1, 0});
  std::vector<double> logabs = valuesOf(slog[1].toTensor());
  EXPECT_NEAR(logabs[0], std::log(2.0), 1e-6);
  EXPECT_NEAR(logabs[1], std::log(6.0), 1e-6);
  EXPECT_EQ(logabs[2], -std::numeric_limits<double>::infinity());
  // logdet: NaN for a negative determinant.
  std::vector<double> logdet =
      valuesOf(call("aten::logdet", {A})[0].toTensor());
  EXPECT_TRUE(std::isnan(logdet[0]));
  EXPECT_NEAR(logdet[1], std::log(6.0), 1e-6);
  // Float64 in, Float64 out; 0x0 matrices have determinant 1.
  Tensor D = mat({4, 1, 2, 3}, {2, 2}, DType::Float64);
  Tensor d = call("aten::det", {D})[0].toTensor();
  EXPECT_EQ(d.dtype(), DType::Float64);
  expectNear(d, {10}, 1e-12);
  expectNear(call("aten::linalg_det", {Tensor::zeros({0, 0}, DType::Float32)})[0]
                 .toTensor(),
             {1});
}

TEST(LinalgKernelsTest, DeterminantErrors) {
  REQUIRE_LAPACK();
  EXPECT_EQ(errorOf("aten::linalg_det", {Tensor::zeros({2, 3}, DType::Float32)}),
            "linalg.det: A must be batches of square matrices, but they are 2 "
            "by 3 matrices");
  EXPECT_EQ(errorOf("aten::linalg_det", {Tensor::zeros({2, 2}, DType::Int64)}),
            "linalg.det: Expected a floating point or complex tensor as input. "
            "Got Long");
  EXPECT_EQ(errorOf("aten::linalg_det", {Tensor::zeros({2}, DType::Float32)}),
            "linalg.det: The input tensor A must have at least 2 dimensions.");
}

TEST(LinalgKernelsTest, InverseAndSolve) {
  REQUIRE_LAPACK();
  Tensor A = mat({4, 7, 2, 6}, {2, 2});
  expectNear(call("aten::linalg_inv", {A})[0].toTensor(),
             {0.6, -0.7, -0.2, 0.4});
  // inv_ex reports a singular matrix in info (Int32) instead of failing.
  Tensor S = mat({4, 7, 2, 6, 1, 2, 2, 4}, {2, 2, 2});
  std::vector<Value> ex = call("aten::linalg_inv_ex", {S, Value(false)});
  ASSERT_EQ(ex.size(), 2u);
  EXPECT_EQ(ex[1].toTensor().dtype(), DType::Int32);
  expectNear(ex[1].toTensor(), {0, 2});
  EXPECT_EQ(errorOf("aten::linalg_inv", {S}),
            "linalg.inv: (Batch element 1): The diagonal element 2 is zero, "
            "the inversion could not be completed because the input matrix "
            "is singular.");
  // A x = b for a vector b, and X A = B (left=False).
  Tensor b = mat({1, 2}, {2});
  Tensor x = call("aten::linalg_solve", {A, b, Value(true)})[0].toTensor();
  EXPECT_EQ(x.sizes(), (std::vector<int64_t>{2}));
  expectNear(x, {0.6 - 1.4, -0.2 + 0.8});
  Tensor B = mat({1, 0, 0, 1}, {2, 2});
  expectNear(call("aten::linalg_solve", {A, B, Value(false)})[0].toTensor(),
             {0.6, -0.7, -0.2, 0.4});
  // A batch of A broadcast against one B ([2, 2] would be a batch of
  // vectors, as in torch).
  Tensor A2 = mat({2, 0, 0, 2, 1, 0, 0, 4}, {2, 2, 2});
  Tensor B1 = mat({1, 0, 0, 1}, {1, 2, 2});
  expectNear(call("aten::linalg_solve", {A2, B1, Value(true)})[0].toTensor(),
             {0.5, 0, 0, 0.5, 1, 0, 0, 0.25});
  EXPECT_EQ(errorOf("aten::linalg_solve", {mat({1, 2, 2, 4}, {2, 2}), b,
                                           Value(true)}),
            "torch.linalg.solve: The solver failed because the input matrix "
            "is singular.");
  std::vector<Value> sx =
      call("aten::linalg_solve_ex", {mat({1, 2, 2, 4}, {2, 2}), B, Value(true),
                                     Value(false)});
  expectNear(sx[1].toTensor(), {2});
}

TEST(LinalgKernelsTest, Cholesky) {
  REQUIRE_LAPACK();
  // [[4, 2], [2, 3]] = L L^T with L = [[2, 0], [1, sqrt(2)]].
  Tensor A = mat({4, 2, 2, 3}, {2, 2});
  double r2 = std::sqrt(2.0);
  expectNear(call("aten::linalg_cholesky", {A, Value(false)})[0].toTensor(),
             {2, 0, 1, r2});
  expectNear(call("aten::linalg_cholesky", {A, Value(true)})[0].toTensor(),
             {2, 1, 0, r2});
  Tensor notPd = mat({1, 2, 2, 1}, {2, 2});
  EXPECT_EQ(errorOf("aten::linalg_cholesky", {notPd, Value(false)}),
            "linalg.cholesky: The factorization could not be completed "
            "because the input is not positive-definite (the leading minor "
            "of order 2 is not positive-definite).");
  std::vector<Value> ex =
      call("aten::linalg_cholesky_ex", {notPd, Value(false), Value(false)});
  expectNear(ex[1].toTensor(), {2});
  // cholesky_solve and cholesky_inverse recover A^-1.
  Tensor L = call("aten::cholesky", {A, Value(false)})[0].toTensor();
  Tensor inv = mat({0.375, -0.25, -0.25, 0.5}, {2, 2});
  expectNear(call("aten::cholesky_solve",
                  {mat({1, 0, 0, 1}, {2, 2}), L, Value(false)})[0]
                 .toTensor(),
             valuesOf(inv));
  expectNear(call("aten::cholesky_inverse", {L, Value(false)})[0].toTensor(),
             valuesOf(inv));
}

TEST(LinalgKernelsTest, QrFollowsTorchSigns) {
  REQUIRE_LAPACK();
  // geqrf's Householder convention: R's diagonal is -||column|| here.
  Tensor A = mat({3, 1, 4, 2}, {2, 2});
  std::vector<Value> qr = call("aten::linalg_qr", {A, Value("reduced")});
  ASSERT_EQ(qr.size(), 2u);
  expectNear(qr[0].toTensor(), {-0.6, -0.8, -0.8, 0.6});
  expectNear(qr[1].toTensor(), {-5, -2.2, 0, 0.4});
  // complete and r modes on a 3x2 matrix.
  Tensor T = mat({1, 2, 3, 4, 5, 6}, {3, 2});
  std::vector<Value> full = call("aten::linalg_qr", {T, Value("complete")});
  EXPECT_EQ(full[0].toTensor().sizes(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(full[1].toTensor().sizes(), (std::vector<int64_t>{3, 2}));
  std::vector<Value> r = call("aten::linalg_qr", {T, Value("r")});
  EXPECT_EQ(r[0].toTensor().sizes(), (std::vector<int64_t>{0}));
  EXPECT_EQ(r[1].toTensor().sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(errorOf("aten::linalg_qr", {T, Value("bad")}),
            "qr received unrecognized mode 'bad' but expected one of "
            "'reduced' (default), 'r', or 'complete'");
}

TEST(LinalgKernelsTest, SvdAndEigh) {
  REQUIRE_LAPACK();
  Tensor A = mat({3, 0, 0, -2}, {2, 2});
  std::vector<Value> svd = call("aten::linalg_svd", {A, Value(true), Value()});
  ASSERT_EQ(svd.size(), 3u);
  expectNear(svd[1].toTensor(), {3, 2});
  expectNear(call("aten::linalg_svdvals", {A, Value()})[0].toTensor(), {3, 2});
  // U diag(S) Vh reproduces A.
  std::vector<double> U = valuesOf(svd[0].toTensor()),
                      S = valuesOf(svd[1].toTensor()),
                      Vh = valuesOf(svd[2].toTensor());
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      double sum = 0;
      for (int l = 0; l < 2; ++l)
        sum += U[i * 2 + l] * S[l] * Vh[l * 2 + j];
      EXPECT_NEAR(sum, valuesOf(A)[i * 2 + j], 1e-5);
    }
  // Eigenvalues ascending; a batch of two.
  Tensor H = mat({2, 1, 1, 2, 5, 0, 0, 1}, {2, 2, 2});
  std::vector<Value> eigh = call("aten::linalg_eigh", {H, Value("L")});
  expectNear(eigh[0].toTensor(), {1, 3, 1, 5});
  EXPECT_EQ(eigh[1].toTensor().sizes(), (std::vector<int64_t>{2, 2, 2}));
  expectNear(call("aten::linalg_eigvalsh", {H, Value("U")})[0].toTensor(),
             {1, 3, 1, 5});
  EXPECT_EQ(errorOf("aten::linalg_eigh", {mat({1, 2, 3, 4, 5, 6}, {2, 3}),
                                          Value("L")}),
            "linalg.eigh: A must be batches of square matrices, but they are "
            "2 by 3 matrices");
}

TEST(LinalgKernelsTest, LeastSquaresPinvRank) {
  REQUIRE_LAPACK();
  // Fit y = x exactly through (0,0), (1,1), (2,2) with columns [1, x].
  Tensor A = mat({1, 0, 1, 1, 1, 2}, {3, 2});
  Tensor b = mat({0, 1, 2}, {3, 1});
  std::vector<Value> ls =
      call("aten::linalg_lstsq", {A, b, Value(), Value()});
  ASSERT_EQ(ls.size(), 4u);
  expectNear(ls[0].toTensor(), {0, 1});
  EXPECT_EQ(ls[2].toTensor().dtype(), DType::Int64);
  expectNear(ls[2].toTensor(), {2});
  // pinv of a rank-1 matrix, and its rank.
  Tensor R = mat({1, 2, 2, 4}, {2, 2});
  expectNear(call("aten::linalg_pinv", {R, Value(), Value(), Value(false)})[0]
                 .toTensor(),
             {0.04, 0.08, 0.08, 0.16});
  Tensor rank = call("aten::linalg_matrix_rank",
                     {R, Value(), Value(), Value(false)})[0]
                    .toTensor();
  EXPECT_EQ(rank.dtype(), DType::Int64);
  expectNear(rank, {1});
}

TEST(LinalgKernelsTest, LuFamily) {
  REQUIRE_LAPACK();
  Tensor A = mat({1, 2, 3, 4}, {2, 2});
  std::vector<Value> lu = call("aten::linalg_lu_factor", {A, Value(true)});
  ASSERT_EQ(lu.size(), 2u);
  // Row 2 pivots first: LU = [[3, 4], [1/3, 2/3]].
  expectNear(lu[0].toTensor(), {3, 4, 1.0 / 3, 2.0 / 3});
  EXPECT_EQ(lu[1].toTensor().dtype(), DType::Int32);
  expectNear(lu[1].toTensor(), {2, 2});
  std::vector<Value> plu = call("aten::linalg_lu", {A, Value(true)});
  expectNear(plu[0].toTensor(), {0, 1, 1, 0});
  Tensor b = mat({5, 6}, {2, 1});
  expectNear(call("aten::linalg_lu_solve",
                  {lu[0], lu[1], b, Value(true), Value(false)})[0]
                 .toTensor(),
             {-4, 4.5});
}

TEST(LinalgKernelsTest, Norms) {
  REQUIRE_LAPACK();
  Tensor A = mat({1, -2, 3, -4}, {2, 2});
  expectNear(call("aten::linalg_vector_norm",
                  {A, Value(2), Value(), Value(false), Value()})[0]
                 .toTensor(),
             {std::sqrt(30.0)});
  expectNear(call("aten::linalg_vector_norm",
                  {A, Value(1), Value::list({Value(1)}), Value(true), Value()})[0]
                 .toTensor(),
             {3, 7});
  expectNear(call("aten::linalg_matrix_norm",
                  {A, Value(1.0), Value::list({Value(-2), Value(-1)}),
                   Value(false), Value()})[0]
                 .toTensor(),
             {6});
  expectNear(call("aten::linalg_matrix_norm",
                  {A, Value("fro"), Value::list({Value(-2), Value(-1)}),
                   Value(false), Value()})[0]
                 .toTensor(),
             {std::sqrt(30.0)});
  // The bare aten::norm picks its overload by the argument count.
  expectNear(call("aten::norm", {A, Value(std::numeric_limits<double>::infinity()),
                                 Value::list({Value(0)}), Value(false)})[0]
                 .toTensor(),
             {3, 4});
  EXPECT_EQ(errorOf("aten::linalg_matrix_norm",
                    {A, Value(3.0), Value::list({Value(-2), Value(-1)}),
                     Value(false), Value()}),
            "linalg.matrix_norm: Order 3. not supported.");
  EXPECT_EQ(errorOf("aten::linalg_vector_norm",
                    {Tensor::zeros({2}, DType::Int64), Value(2), Value(),
                     Value(false), Value()}),
            "linalg.vector_norm: Expected a floating point or complex tensor "
            "as input. Got Long");
}

TEST(LinalgKernelsTest, Composites) {
  REQUIRE_LAPACK();
  Tensor A = mat({1, 1, 0, 1}, {2, 2});
  expectNear(call("aten::linalg_matrix_power", {A, Value(3)})[0].toTensor(),
             {1, 3, 0, 1});
  expectNear(call("aten::linalg_matrix_power", {A, Value(-2)})[0].toTensor(),
             {1, -2, 0, 1});
  // exp of a nilpotent matrix: I + N.
  Tensor N = mat({0, 1, 0, 0}, {2, 2});
  expectNear(call("aten::linalg_matrix_exp", {N})[0].toTensor(), {1, 1, 0, 1});
  Tensor x = mat({1, 0, 0}, {3}), y = mat({0, 1, 0}, {3});
  expectNear(call("aten::linalg_cross", {x, y, Value(-1)})[0].toTensor(),
             {0, 0, 1});
  expectNear(call("aten::linalg_vecdot", {x, x, Value(-1)})[0].toTensor(), {1});
  Tensor v = mat({1, 2}, {2});
  expectNear(call("aten::linalg_multi_dot",
                  {Value::list({Value(v), Value(A), Value(v)})})[0]
                 .toTensor(),
             {1 * 1 + 1 * 2 + 2 * 2});
}

TEST(LinalgKernelsTest, LapackMissingIsAnError) {
  // With LAPACK the kernel works; without it the error names the library.
  StatusOr<std::vector<Value>> out =
      callKernel("aten::linalg_det", {mat({2}, {1, 1})});
  if (haveLapack()) {
    ASSERT_TRUE(out.ok());
  } else {
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.status().message().find("liblapack.so.3"), std::string::npos);
  }
}
