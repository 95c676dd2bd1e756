//===- KernelRegistryTest.cpp - Tests of kernels and operator libraries ---===//
//
// Registration and lookup, the builtin kernels, the C entry point compiled
// code uses, and loading custom operator libraries (built next to this test
// as tsir-test-*-ops) with dlopen.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"
#include "TestUtils.h"
#include "tsir-runtime/Stack.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {
Status addOne(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t value, popInt(stack));
  push(stack, value + 1);
  return Status::ok();
}

bool contains(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}
} // namespace

TEST(KernelRegistryTest, RegisterLookupAndCall) {
  KernelRegistry registry;
  ASSERT_TRUE(registry
                  .registerKernel("test::add_one", addOne,
                                  "test::add_one(int x) -> int")
                  .isOk());
  const Kernel *kernel = registry.lookup("test::add_one");
  ASSERT_NE(kernel, nullptr);
  Stack stack = {Value(41)};
  ASSERT_TRUE((*kernel)(stack).isOk());
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toInt(), 42);
  EXPECT_EQ(registry.lookup("test::missing"), nullptr);
  EXPECT_EQ(registry.lookupInfo("test::add_one")->schema,
            "test::add_one(int x) -> int");
  EXPECT_FALSE(registry.lookupInfo("test::add_one")->variadic);
  ASSERT_TRUE(registry.registerKernel("a::b.overload", addOne).isOk());
  EXPECT_EQ(registry.names(),
            (std::vector<std::string>{"a::b.overload", "test::add_one"}));
  StatusOr<std::vector<Value>> results =
      callKernel("test::add_one", {Value(1)}, registry);
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].toInt(), 2);
  EXPECT_EQ(callKernel("test::nope", {}, registry).status().message(),
            "unknown kernel 'test::nope'");
}

TEST(KernelRegistryTest, RegistrationErrors) {
  KernelRegistry registry;
  ASSERT_TRUE(registry.registerKernel("test::k", addOne).isOk());
  EXPECT_EQ(registry.registerKernel("test::k", addOne).message(),
            "kernel 'test::k' is already registered");
  for (const char *bad :
       {"noNamespace", "::x", "a::", "a::b.", "a::b c", "1a::b"})
    EXPECT_EQ(registry.registerKernel(bad, addOne).message(),
              std::string("invalid kernel name '") + bad +
                  "': expected 'namespace::name' or "
                  "'namespace::name.overload'");
  EXPECT_EQ(registry.registerKernel("test::other", addOne, "test::k(int x)")
                .message(),
            "schema 'test::k(int x)' does not declare 'test::other'");
  EXPECT_EQ(registry.registerKernel("test::empty", Kernel()).message(),
            "kernel 'test::empty' is empty");
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"test::k"}));
}

TEST(KernelRegistryTest, KernelErrorsPropagate) {
  KernelRegistry registry;
  ASSERT_TRUE(registry.registerKernel("test::add_one", addOne).isOk());
  EXPECT_EQ(
      callKernel("test::add_one", {Value("x")}, registry).status().message(),
      "expected an argument of type int, got str");
  EXPECT_EQ(callKernel("test::add_one", {}, registry).status().message(),
            "stack underflow: a kernel expected more arguments");
}

TEST(KernelRegistryTest, GlobalHasTheBuiltins) {
  std::vector<std::string> names = KernelRegistry::global().names();
  for (const char *name :
       {"aten::len.t", "aten::append.t", "aten::__getitem__.t", "prim::Print",
        "aten::format", "prim::RaiseException", "aten::warn"})
    EXPECT_TRUE(contains(names, name)) << name;
  EXPECT_TRUE(KernelRegistry::global().lookupInfo("prim::Print")->variadic);
  // A private registry gets them only when asked.
  KernelRegistry registry;
  EXPECT_TRUE(registry.names().empty());
  registerBuiltinKernels(registry);
  // The private registry holds exactly what the global one started with.
  EXPECT_EQ(registry.names(), names);
  for (const char *name : {"aten::extend.t", "aten::nonzero", "aten::rand",
                           "aten::where", "aten::rand.generator",
                           "aten::__getitem__.Dict_str", "aten::_set_item.str",
                           "aten::sum.int", "aten::__contains__.int_list",
                           "aten::special_bessel_j0", "aten::polygamma",
                           "aten::special_zeta", "aten::frexp",
                           "aten::masked_select", "aten::scatter_reduce.two",
                           "aten::median", "aten::cummax", "aten::take",
                           "aten::combinations"})
    EXPECT_TRUE(contains(registry.names(), name)) << name;
  for (const char *name : {"aten::linalg_det", "aten::linalg_svd",
                           "aten::linalg_pinv.atol_rtol_tensor", "aten::norm",
                           "aten::norm.ScalarOpt_dim", "aten::linalg_lstsq"})
    EXPECT_TRUE(contains(registry.names(), name)) << name;
}

TEST(BuiltinKernelsTest, ListKernels) {
  Value list = Value::list({Value(10), Value(20)});
  EXPECT_EQ((*callKernel("aten::len.t", {list}))[0].toInt(), 2);
  StatusOr<std::vector<Value>> appended =
      callKernel("aten::append.t", {list, Value(30)});
  ASSERT_TRUE(appended.ok());
  // append mutates the caller's list and returns it (an alias).
  EXPECT_EQ(list.toList().size(), 3u);
  EXPECT_TRUE((*appended)[0].isAliasOf(list));
  EXPECT_EQ((*callKernel("aten::__getitem__.t", {list, Value(-1)}))[0].toInt(),
            30);
  EXPECT_EQ((*callKernel("aten::__getitem__.t", {list, Value(0)}))[0].toInt(),
            10);
  EXPECT_EQ(
      callKernel("aten::__getitem__.t", {list, Value(3)}).status().message(),
      "list index out of range (index 3, length 3)");
  EXPECT_EQ(callKernel("aten::len.t", {Value(1)}).status().message(),
            "expected an argument of type List, got int");
}

TEST(BuiltinKernelsTest, RaiseException) {
  Status raised = callKernel("prim::RaiseException",
                             {Value("bad input"), Value("builtins.ValueError")})
                      .status();
  EXPECT_EQ(raised.message(), "builtins.ValueError: bad input");
  // The program's own exception: whoever passes it up adds no name.
  EXPECT_EQ(raised.kind(), ErrorKind::Raised);
  EXPECT_EQ(raised.withContext("prim::RaiseException").message(),
            "builtins.ValueError: bad input");
  EXPECT_EQ(callKernel("prim::RaiseException", {Value("plain"), Value()})
                .status()
                .message(),
            "plain");
  Status misused =
      callKernel("prim::RaiseException", {Value("m"), Value(3)}).status();
  EXPECT_EQ(misused.kind(), ErrorKind::Plain);
  EXPECT_EQ(misused.withContext("prim::RaiseException").message(),
            "prim::RaiseException: the class must be a str or None, got int");
}

TEST(BuiltinKernelsTest, PrintWritesValuesSpaceSeparated) {
  Tensor tensor = makeTensor({1, 2}, {2}, DType::Float32);
  ::testing::internal::CaptureStdout();
  StatusOr<std::vector<Value>> results = callKernel(
      "prim::Print", {Value("loss:"), Value(0.5), Value(3), Value(true),
                      Value(), Value::list({Value("a"), Value(1.0)}), tensor});
  std::string printed = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(results.ok()) << results.status().message();
  EXPECT_TRUE(results->empty());
  EXPECT_EQ(printed, "loss: 0.5 3 True None [a, 1.]  1\n 2\n"
                     "[ CPUFloatType{2} ]\n");
}

TEST(BuiltinKernelsTest, FormatAndWarn) {
  StatusOr<std::vector<Value>> formatted =
      callKernel("aten::format", {Value("{} + {} = {}!"), Value(1), Value(2.5),
                                  Value::list({Value("x")})});
  ASSERT_TRUE(formatted.ok());
  EXPECT_EQ((*formatted)[0].toStringRef(), "1 + 2.5 = [x]!");
  EXPECT_EQ((*callKernel("aten::format", {Value("no holes"), Value(1)}))[0]
                .toStringRef(),
            "no holes");
  EXPECT_EQ(
      callKernel("aten::format", {Value("{} {}"), Value(1)}).status().message(),
      "too few arguments for format string: {} {}");
  EXPECT_EQ(callKernel("aten::format", {Value(1)}).status().message(),
            "the format must be a str, got int");
  ::testing::internal::CaptureStderr();
  StatusOr<std::vector<Value>> warned =
      callKernel("aten::warn", {Value("careful"), Value(2)});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "Warning: careful\n");
  EXPECT_TRUE(warned.ok());
}

TEST(KernelCABITest, CallAndLastError) {
  ASSERT_TRUE(KernelRegistry::global()
                  .registerKernel("cabi_test::add_one", addOne)
                  .isOk());
  Value input(int64_t(9)), output;
  Value *inputs[] = {&input};
  Value *outputs[] = {&output};
  ASSERT_EQ(tsir_rt_call_kernel("cabi_test::add_one", inputs, 1, outputs, 1),
            0);
  EXPECT_EQ(output.toInt(), 10);

  EXPECT_NE(tsir_rt_call_kernel("cabi_test::missing", inputs, 1, outputs, 1),
            0);
  EXPECT_STREQ(tsir_rt_last_error(), "unknown kernel 'cabi_test::missing'");
  EXPECT_NE(tsir_rt_call_kernel("cabi_test::add_one", inputs, 1, outputs, 0),
            0);
  EXPECT_STREQ(tsir_rt_last_error(), "kernel 'cabi_test::add_one' returned 1 "
                                     "values, the caller expected 0");
  Value text("s");
  Value *badInputs[] = {&text};
  EXPECT_NE(tsir_rt_call_kernel("cabi_test::add_one", badInputs, 1, outputs, 1),
            0);
  // The kernel's own message, named once by the C entry point.
  EXPECT_STREQ(tsir_rt_last_error(),
               "cabi_test::add_one: expected an argument of type int, got str");
  Value *nullInputs[] = {nullptr};
  EXPECT_NE(
      tsir_rt_call_kernel("cabi_test::add_one", nullInputs, 1, outputs, 1), 0);
  EXPECT_STREQ(tsir_rt_last_error(),
               "tsir_rt_call_kernel: input 0 of 'cabi_test::add_one' is null");
  EXPECT_NE(tsir_rt_call_kernel(nullptr, inputs, 1, outputs, 1), 0);
  // Variadic kernels get their input count pushed for them.
  Value format("{}-{}"), a(1), b("z"), formatted;
  Value *formatInputs[] = {&format, &a, &b};
  Value *formatOutputs[] = {&formatted};
  ASSERT_EQ(
      tsir_rt_call_kernel("aten::format", formatInputs, 3, formatOutputs, 1),
      0);
  EXPECT_EQ(formatted.toStringRef(), "1-z");
  Value message("stop"), none;
  Value *raiseInputs[] = {&message, &none};
  EXPECT_NE(
      tsir_rt_call_kernel("prim::RaiseException", raiseInputs, 2, nullptr, 0),
      0);
  EXPECT_STREQ(tsir_rt_last_error(), "stop");
}

TEST(OperatorLibraryTest, LoadsStaticRegistrations) {
  ASSERT_EQ(KernelRegistry::global().lookup("my_ns::magic"), nullptr);
  Status status = loadOperatorLibrary(TSIR_TEST_MAGIC_OPS_PATH);
  ASSERT_TRUE(status.isOk()) << status.message();
  const KernelInfo *info = KernelRegistry::global().lookupInfo("my_ns::magic");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->schema, "my_ns::magic(Tensor x) -> Tensor");
  // Called the way compiled code calls it.
  Value input(makeTensor({0, 1.5, -2}, {3}, DType::Float32)), output;
  Value *inputs[] = {&input};
  Value *outputs[] = {&output};
  ASSERT_EQ(tsir_rt_call_kernel("my_ns::magic", inputs, 1, outputs, 1), 0)
      << tsir_rt_last_error();
  EXPECT_EQ(valuesOf(output.toTensor()), (std::vector<double>{1, 4, -3}));
  Value ints(makeTensor({1}, {1}, DType::Int32));
  Value *intInputs[] = {&ints};
  EXPECT_NE(tsir_rt_call_kernel("my_ns::magic", intInputs, 1, outputs, 1), 0);
  EXPECT_STREQ(tsir_rt_last_error(),
               "my_ns::magic: expects a Float tensor, got Int[1]");
  // Loading again is a no-op, not a duplicate.
  EXPECT_TRUE(loadOperatorLibrary(TSIR_TEST_MAGIC_OPS_PATH).isOk());
  // Its static registrations ran once, into the global registry.
  KernelRegistry other;
  EXPECT_EQ(loadOperatorLibrary(TSIR_TEST_MAGIC_OPS_PATH, other).message(),
            std::string("operator library '") + TSIR_TEST_MAGIC_OPS_PATH +
                "': it is already loaded into another registry, and only "
                "tsir_register_kernels can register it into a second one");
  EXPECT_NE(KernelRegistry::global().lookup("my_ns::magic"), nullptr);
}

TEST(OperatorLibraryTest, StaticRegistrationsGoToTheLoadingRegistry) {
  // The C-hook library can be loaded into several registries.
  KernelRegistry first, second;
  ASSERT_TRUE(loadOperatorLibrary(TSIR_TEST_CENTRY_OPS_PATH, first).isOk());
  ASSERT_TRUE(loadOperatorLibrary(TSIR_TEST_CENTRY_OPS_PATH, second).isOk());
  EXPECT_NE(second.lookup("my_ns::add_ints"), nullptr);
  EXPECT_NE(first.lookup("my_ns::add_ints"), nullptr);
}

TEST(OperatorLibraryTest, LoadsTheCRegistrationHook) {
  KernelRegistry registry;
  Status status = loadOperatorLibrary(TSIR_TEST_CENTRY_OPS_PATH, registry);
  ASSERT_TRUE(status.isOk()) << status.message();
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"my_ns::add_ints"}));
  StatusOr<std::vector<Value>> sum =
      callKernel("my_ns::add_ints", {Value(40), Value(2)}, registry);
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ((*sum)[0].toInt(), 42);
  EXPECT_EQ(KernelRegistry::global().lookup("my_ns::add_ints"), nullptr);
}

TEST(OperatorLibraryTest, DuplicateNamesFailAndRollBack) {
  ASSERT_TRUE(KernelRegistry::global()
                  .registerKernel("my_ns::dup_taken", addOne)
                  .isOk());
  Status status = loadOperatorLibrary(TSIR_TEST_DUPLICATE_OPS_PATH);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(),
            std::string("operator library '") + TSIR_TEST_DUPLICATE_OPS_PATH +
                "': kernel 'my_ns::dup_taken' is already registered");
  // The library's other kernel was removed with it; ours stays.
  EXPECT_EQ(KernelRegistry::global().lookup("my_ns::dup_unique"), nullptr);
  EXPECT_NE(KernelRegistry::global().lookup("my_ns::dup_taken"), nullptr);
}

TEST(OperatorLibraryTest, LoadErrors) {
  Status missing = loadOperatorLibrary("/nonexistent/libnothing.so");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.message(),
            "cannot load operator library '/nonexistent/libnothing.so': "
            "/nonexistent/libnothing.so: cannot open shared object file: No "
            "such file or directory");
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::string notALibrary = dir.path("fake.so");
  writeBytes(notALibrary, "not an ELF file");
  Status invalid = loadOperatorLibrary(notALibrary);
  ASSERT_FALSE(invalid.isOk());
  EXPECT_NE(invalid.message().find("cannot load operator library '" +
                                   notALibrary + "': "),
            std::string::npos);
  // A real library that registers nothing.
  KernelRegistry registry;
  EXPECT_EQ(loadOperatorLibrary("libm.so.6", registry).message(),
            "operator library 'libm.so.6': it registered no kernels (define "
            "tsir_register_kernels or use tsir::rt::RegisterKernels)");
  EXPECT_TRUE(registry.names().empty());
}

TEST(KernelRegistryTest, DictKernelsReadAndWriteSharedDicts) {
  Value dict = Value::dict({{Value("a"), Value(int64_t(1))}});
  ASSERT_TRUE(callKernel("aten::_set_item.str",
                         {dict, Value("b"), Value(int64_t(2))})
                  .ok());
  ASSERT_TRUE(callKernel("aten::_set_item.str",
                         {dict, Value("a"), Value(int64_t(5))})
                  .ok());
  auto item = callKernel("aten::__getitem__.Dict_str", {dict, Value("a")});
  ASSERT_TRUE(item.ok());
  EXPECT_EQ((*item)[0].toInt(), 5);
  auto contains = callKernel("aten::__contains__.str", {dict, Value("z")});
  ASSERT_TRUE(contains.ok());
  EXPECT_FALSE((*contains)[0].toBool());
  auto keys = callKernel("aten::keys.str", {dict});
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ((*keys)[0].toString(), "[\"a\", \"b\"]");
  auto missing = callKernel("aten::__getitem__.Dict_str", {dict, Value("z")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "KeyError: \"z\"");
  EXPECT_FALSE(callKernel("aten::len.Dict_str", {Value::list()}).ok());
}
