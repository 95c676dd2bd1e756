//===- ValueTest.cpp - Tests of TorchScript values ------------------------===//
//
// Kinds, accessors, list aliasing, and printing in TorchScript's format
// (repr, operator<< and torch's C++ tensor layout).
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Value.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tsir::rt;

TEST(ValueTest, KindsAndAccessors) {
  EXPECT_TRUE(Value().isNone());
  EXPECT_EQ(Value().kindName(), std::string("None"));
  Value integer(int64_t(7));
  EXPECT_TRUE(integer.isInt());
  EXPECT_EQ(integer.toInt(), 7);
  EXPECT_EQ(integer.kindName(), std::string("int"));
  EXPECT_TRUE(Value(3).isInt());
  Value real(2.5);
  EXPECT_TRUE(real.isDouble());
  EXPECT_EQ(real.toDouble(), 2.5);
  EXPECT_EQ(real.kindName(), std::string("float"));
  Value flag(true);
  EXPECT_TRUE(flag.isBool());
  EXPECT_FALSE(flag.isInt());
  EXPECT_TRUE(flag.toBool());
  // A string literal must not become a bool.
  Value text("hello");
  EXPECT_TRUE(text.isString());
  EXPECT_EQ(text.toStringRef(), "hello");
  EXPECT_EQ(text.kindName(), std::string("str"));
  Value device(Device::cuda(2));
  EXPECT_TRUE(device.isDevice());
  EXPECT_EQ(device.toDevice(), Device::cuda(2));
  Tensor tensor = Tensor::zeros({2}, DType::Float32);
  Value tensorValue(tensor);
  EXPECT_TRUE(tensorValue.isTensor());
  EXPECT_TRUE(tensorValue.toTensor().sharesStorageWith(tensor));
  EXPECT_EQ(tensorValue.kindName(), std::string("Tensor"));
  EXPECT_EQ(Value::list().kindName(), std::string("List"));
  EXPECT_EQ(Value::tuple({}).kindName(), std::string("Tuple"));
  EXPECT_EQ(Value::kindName(Value::Kind::Device), std::string("Device"));
}

TEST(ValueTest, ListsAreSharedByReference) {
  Value list = Value::list({Value(1), Value(2)});
  Value alias = list;
  alias.toList().push_back(Value(3));
  EXPECT_EQ(list.toList().size(), 3u);
  EXPECT_TRUE(list.isAliasOf(alias));
  Value other = Value::list({Value(1), Value(2), Value(3)});
  EXPECT_FALSE(list.isAliasOf(other));
  // A list inside a tuple is still the same list.
  Value tuple = Value::tuple({list});
  tuple.toTuple()[0].toList().pop_back();
  EXPECT_EQ(list.toList().size(), 2u);
}

TEST(ValueTest, ReprFormat) {
  EXPECT_EQ(Value().toString(), "None");
  EXPECT_EQ(Value(-3).toString(), "-3");
  EXPECT_EQ(Value(1.0).toString(), "1.");
  EXPECT_EQ(Value(-0.0).toString(), "-0.");
  EXPECT_EQ(Value(0.1).toString(), "0.10000000000000001");
  EXPECT_EQ(Value(1e20).toString(), "1e+20");
  EXPECT_EQ(Value(INFINITY).toString(), "inf");
  EXPECT_EQ(Value(-INFINITY).toString(), "-inf");
  EXPECT_EQ(Value(NAN).toString(), "nan");
  EXPECT_EQ(Value(false).toString(), "False");
  EXPECT_EQ(Value("a\"b\n").toString(), "\"a\\\"b\\n\"");
  EXPECT_EQ(Value(Device::cpu()).toString(), "cpu");
  EXPECT_EQ(Value::list({Value(1), Value("x")}).toString(), "[1, \"x\"]");
  EXPECT_EQ(Value::tuple({Value(1)}).toString(), "(1,)");
  EXPECT_EQ(Value::tuple({Value(1), Value(2.5)}).toString(), "(1, 2.5)");
  EXPECT_EQ(Value::list().toString(), "[]");
  EXPECT_EQ(Value(Tensor::zeros({2, 3}, DType::Int64)).toString(),
            "Long[2, 3]");
  EXPECT_EQ(Value(Tensor()).toString(), "[ Tensor (undefined) ]");
}

TEST(ValueTest, PrintFormatLeavesStringsRaw) {
  std::string out;
  printValue(out, Value::list({Value("a"), Value::tuple({Value("b")})}),
             /*quoteStrings=*/false, /*tensorData=*/false);
  EXPECT_EQ(out, "[a, (b,)]");
}

TEST(ValueTest, TensorDataLayout) {
  double values[] = {1, 2, 3, 4, 5, 6};
  Tensor matrix =
      Tensor::fromBlob(values, {2, 3}, DType::Float64).to(DType::Float32);
  EXPECT_EQ(formatTensorData(matrix),
            " 1  2  3\n 4  5  6\n[ CPUFloatType{2,3} ]");
  double fractions[] = {0.5, -1.25};
  Tensor vector = Tensor::fromBlob(fractions, {2}, DType::Float64);
  EXPECT_EQ(formatTensorData(vector),
            "  0.5000\n -1.2500\n[ CPUDoubleType{2} ]");
  EXPECT_EQ(formatTensorData(Tensor::scalar(7, DType::Int64)),
            " 7\n[ CPULongType{} ]");
  EXPECT_EQ(formatTensorData(Tensor::zeros({0}, DType::Bool)),
            "[ CPUBoolType{0} ]");
  Tensor cube =
      Tensor::fromBlob(values, {3, 1, 2}, DType::Float64).to(DType::Int32);
  EXPECT_EQ(formatTensorData(cube), "(1,.,.) = \n 1  2\n\n(2,.,.) = \n 3  4\n\n"
                                    "(3,.,.) = \n 5  6\n[ CPUIntType{3,1,2} ]");
  // Non-contiguous tensors print in logical order.
  Tensor transposed = *matrix.transpose(0, 1);
  EXPECT_EQ(formatTensorData(transposed),
            " 1  4\n 2  5\n 3  6\n[ CPUFloatType{3,2} ]");
}

TEST(ValueTest, DictsAreSharedAndKeepInsertionOrder) {
  Value dict = Value::dict({{Value("b"), Value(int64_t(2))},
                            {Value("a"), Value(int64_t(1))}});
  Value alias = dict;
  alias.toDict().emplace_back(Value("c"), Value(3.5));
  EXPECT_TRUE(dict.isDict());
  EXPECT_TRUE(dict.isAliasOf(alias));
  EXPECT_EQ(dict.toDict().size(), 3u);
  EXPECT_EQ(dict.toString(), "{\"b\": 2, \"a\": 1, \"c\": 3.5}");
  EXPECT_STREQ(dict.kindName(), "Dict");
  EXPECT_TRUE(Value::sameKey(Value("a"), Value("a")));
  EXPECT_FALSE(Value::sameKey(Value("a"), Value(int64_t(1))));
  EXPECT_FALSE(Value::sameKey(Value(int64_t(1)), Value(1.0)));
}
