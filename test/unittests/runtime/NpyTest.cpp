//===- NpyTest.cpp - Tests of the .npy reader and writer ------------------===//
//
// Round trips of every dtype, 0-d and empty arrays, Fortran order,
// big-endian data, format versions, every malformed-input error, a prefix
// and mutation sweep that must never crash, and interoperation with numpy
// when /usr/bin/python3 has it.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Npy.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {
/// An .npy image with header dict `dict` (unpadded) and payload `data`.
std::string npyImage(const std::string &dict, const std::string &data,
                     int major = 1) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  size_t length = dict.size();
  int lengthBytes = major == 1 ? 2 : 4;
  for (int i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((length >> (8 * i)) & 0xff);
  return out + dict + data;
}

std::string dictFor(const std::string &descr, const std::string &shape,
                    bool fortran = false) {
  return "{'descr': '" + descr +
         "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }\n";
}

template <class T> std::string rawBytes(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

::testing::AssertionResult failsWith(const std::string &image,
                                     const std::string &expected) {
  return failedOnBuffer(parseNpy(image.data(), image.size()).status(),
                        expected);
}
} // namespace

TEST(NpyTest, EveryDTypeRoundTrips) {
  std::vector<double> values = {0, 1, 2, 3, 100, 127};
  for (DType type : kAllDTypes) {
    Tensor tensor = makeTensor(values, {2, 3}, type);
    StatusOr<std::string> image = encodeNpy(tensor);
    ASSERT_TRUE(image.ok());
    StatusOr<Tensor> back = parseNpy(image->data(), image->size());
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(back->dtype(), type);
    EXPECT_EQ(back->sizes(), tensor.sizes());
    EXPECT_TRUE(back->isContiguous());
    EXPECT_EQ(bytesOf(*back), bytesOf(tensor)) << dtypeTorchName(type);
  }
}

TEST(NpyTest, SpecialFloatsKeepTheirBits) {
  std::vector<float> values = {NAN,   INFINITY, -INFINITY,
                               -0.0f, 1e-40f,   3.4e38f};
  Tensor tensor = Tensor::fromBlob(values.data(), {6}, DType::Float32);
  std::string image = *encodeNpy(tensor);
  Tensor back = *parseNpy(image.data(), image.size());
  EXPECT_EQ(bytesOf(back), rawBytes(values));
}

TEST(NpyTest, HeaderLayout) {
  std::string image = *encodeNpy(Tensor::zeros({2, 3}, DType::Float32));
  ASSERT_GE(image.size(), 10u);
  EXPECT_EQ(image.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t headerSize = static_cast<unsigned char>(image[8]) |
                      static_cast<unsigned char>(image[9]) << 8;
  EXPECT_EQ((10 + headerSize) % 64, 0u);
  EXPECT_EQ(image.size(), 10 + headerSize + 24);
  std::string header = image.substr(10, headerSize);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2, 3), }",
                         0),
            0u);
  EXPECT_EQ(header.back(), '\n');
  auto headerOf = [](const Tensor &tensor) {
    std::string image = *encodeNpy(tensor);
    return image.substr(10, image.find('}') - 9);
  };
  EXPECT_EQ(headerOf(Tensor::zeros({3}, DType::Int64)),
            "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_EQ(headerOf(Tensor::scalar(1, DType::Bool)),
            "{'descr': '|b1', 'fortran_order': False, 'shape': (), }");
  EXPECT_EQ(headerOf(Tensor::zeros({1}, DType::BFloat16)),
            "{'descr': '<V2', 'fortran_order': False, 'shape': (1,), }");
}

TEST(NpyTest, ZeroDimAndEmptyArrays) {
  Tensor scalar = Tensor::scalar(-4.25, DType::Float64);
  std::string image = *encodeNpy(scalar);
  Tensor back = *parseNpy(image.data(), image.size());
  EXPECT_EQ(back.dim(), 0);
  EXPECT_EQ(*back.dataAs<double>(), -4.25);

  Tensor empty = Tensor::zeros({0, 3}, DType::Int16);
  image = *encodeNpy(empty);
  back = *parseNpy(image.data(), image.size());
  EXPECT_EQ(back.sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(back.numel(), 0);

  // A zero, then dimensions whose product overflows: the element count is
  // 0, so the array is valid and empty, as for torch (found by npy-fuzzer:
  // computing its strides overflowed).
  std::string hugeButEmpty =
      npyImage(dictFor("<f4", "(0, 3858878583120, 243146430520)"), "");
  back = *parseNpy(hugeButEmpty.data(), hugeButEmpty.size());
  EXPECT_EQ(back.sizes(),
            (std::vector<int64_t>{0, 3858878583120, 243146430520}));
  EXPECT_EQ(back.numel(), 0);

  std::string handWritten =
      npyImage(dictFor("<i4", "()"), rawBytes<int32_t>({7}));
  back = *parseNpy(handWritten.data(), handWritten.size());
  EXPECT_EQ(back.dim(), 0);
  EXPECT_EQ(*back.dataAs<int32_t>(), 7);
}

TEST(NpyTest, FortranOrder) {
  // Column-major [[0, 2, 4], [1, 3, 5]].
  std::string image = npyImage(dictFor("<f8", "(2, 3)", /*fortran=*/true),
                               rawBytes<double>({0, 1, 2, 3, 4, 5}));
  Tensor tensor = *parseNpy(image.data(), image.size());
  EXPECT_EQ(tensor.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(tensor.strides(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{0, 2, 4, 1, 3, 5}));
  // Writing it back produces C order with the same logical values.
  std::string rewritten = *encodeNpy(tensor);
  EXPECT_NE(rewritten.find("'fortran_order': False"), std::string::npos);
  EXPECT_EQ(valuesOf(*parseNpy(rewritten.data(), rewritten.size())),
            (std::vector<double>{0, 2, 4, 1, 3, 5}));
}

TEST(NpyTest, BigEndianIsByteSwapped) {
  std::string floats =
      npyImage(dictFor(">f4", "(2,)"),
               std::string("\x3f\xc0\x00\x00\xc0\x00\x00\x00", 8));
  EXPECT_EQ(valuesOf(*parseNpy(floats.data(), floats.size())),
            (std::vector<double>{1.5, -2}));
  std::string longs =
      npyImage(dictFor(">i8", "(1,)"),
               std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  EXPECT_EQ(parseNpy(longs.data(), longs.size())->dataAs<int64_t>()[0],
            0x0102030405060708LL);
  std::string halves =
      npyImage(dictFor(">f2", "(1,)"), std::string("\x3c\x00", 2));
  EXPECT_EQ(valuesOf(*parseNpy(halves.data(), halves.size())),
            (std::vector<double>{1}));
  std::string bytes = npyImage(dictFor("|u1", "(2,)"), "\x05\xff");
  EXPECT_EQ(valuesOf(*parseNpy(bytes.data(), bytes.size())),
            (std::vector<double>{5, 255}));
}

TEST(NpyTest, SingleByteAndBoolDescrs) {
  std::string bools =
      npyImage(dictFor("|b1", "(3,)"), std::string("\x01\x00\x01", 3));
  Tensor tensor = *parseNpy(bools.data(), bools.size());
  EXPECT_EQ(tensor.dtype(), DType::Bool);
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{1, 0, 1}));
  std::string chars = npyImage(dictFor("|i1", "(2,)"), "\x80\x7f");
  tensor = *parseNpy(chars.data(), chars.size());
  EXPECT_EQ(tensor.dtype(), DType::Int8);
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{-128, 127}));
  std::string bf16 =
      npyImage(dictFor("|V2", "(1,)"), std::string("\x80\x3f", 2));
  tensor = *parseNpy(bf16.data(), bf16.size());
  EXPECT_EQ(tensor.dtype(), DType::BFloat16);
  EXPECT_EQ(valuesOf(tensor), (std::vector<double>{1}));
}

TEST(NpyTest, FormatVersionsAndPython2Headers) {
  for (int major : {2, 3}) {
    std::string image =
        npyImage(dictFor("<i2", "(2,)"), rawBytes<int16_t>({-7, 9}), major);
    Tensor tensor = *parseNpy(image.data(), image.size());
    EXPECT_EQ(valuesOf(tensor), (std::vector<double>{-7, 9})) << major;
  }
  std::string python2 =
      npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 2L)}",
               rawBytes<float>({1, 2}));
  EXPECT_EQ(parseNpy(python2.data(), python2.size())->sizes(),
            (std::vector<int64_t>{1, 2}));
  // Double quotes, no trailing comma, keys in another order.
  std::string reordered = npyImage(
      "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i4\"}",
      rawBytes<int32_t>({3, 4}));
  EXPECT_EQ(valuesOf(*parseNpy(reordered.data(), reordered.size())),
            (std::vector<double>{3, 4}));
}

TEST(NpyTest, LongHeadersUseVersion2) {
  // A header over 65535 bytes needs version 2's 4-byte length field.
  std::string dict = dictFor("<f4", "(1,)");
  dict.insert(dict.size() - 1, std::string(70000, ' '));
  std::string image = npyImage(dict, rawBytes<float>({5}), 2);
  EXPECT_EQ(valuesOf(*parseNpy(image.data(), image.size())),
            (std::vector<double>{5}));
  // The writer switches to version 2 when the shape alone is that long.
  Tensor manyDims = Tensor::zeros(std::vector<int64_t>(22000, 1), DType::Int8);
  std::string written = *encodeNpy(manyDims);
  EXPECT_EQ(written[6], '\x02');
  uint32_t length = 0;
  std::memcpy(&length, written.data() + 8, 4);
  EXPECT_GT(length, 65535u);
  EXPECT_EQ((12 + length) % 64, 0u);
  EXPECT_EQ(written.size(), 12 + length + 1);
}

TEST(NpyTest, MalformedPreambles) {
  EXPECT_TRUE(failsWith("", "ends inside the magic string"));
  EXPECT_TRUE(failsWith("\x93NUM", "ends inside the magic string"));
  EXPECT_TRUE(failsWith("PK\x03\x04 not numpy", "bad magic string"));
  EXPECT_TRUE(failsWith("\x93NUMPY", "ends inside the version"));
  EXPECT_TRUE(failsWith(std::string("\x93NUMPY\x01\x00\x10", 9),
                        "ends inside the header length"));
  EXPECT_TRUE(failsWith(std::string("\x93NUMPY\x02\x00\x10\x00", 10),
                        "ends inside the header length"));
  EXPECT_TRUE(failsWith(std::string("\x93NUMPY\x04\x00\x10\x00", 10),
                        "unsupported .npy format version 4.0"));
  EXPECT_TRUE(failsWith(std::string("\x93NUMPY\x01\x01\x10\x00", 10),
                        "unsupported .npy format version 1.1"));
  EXPECT_TRUE(failsWith(std::string("\x93NUMPY\x01\x00\x64\x00{'descr'", 18),
                        "truncated header: 100 header bytes declared, 8 "
                        "present"));
  EXPECT_TRUE(failsWith(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12),
                        "header length 4294967295 is implausibly large"));
}

TEST(NpyTest, MalformedHeaderDicts) {
  std::string data = rawBytes<float>({1, 2});
  auto image = [&](const std::string &dict) { return npyImage(dict, data); };
  EXPECT_TRUE(failsWith(image("'descr': '<f4'}"),
                        "bad header dict: expected '{' at the start"));
  EXPECT_TRUE(failsWith(image("{'descr': '<f4', 'fortran_order': False}"),
                        "missing key 'shape'"));
  EXPECT_TRUE(failsWith(image("{'fortran_order': False, 'shape': (2,)}"),
                        "missing key 'descr'"));
  EXPECT_TRUE(
      failsWith(image("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
                      "'extra': 1}"),
                "unexpected key 'extra'"));
  EXPECT_TRUE(failsWith(
      image("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
            "'shape': (2,)}"),
      "duplicate key 'descr'"));
  EXPECT_TRUE(
      failsWith(image("{'descr': '<f4', 'fortran_order': 1, 'shape': (2,)}"),
                "fortran_order must be True or False"));
  EXPECT_TRUE(failsWith(image(dictFor("<f4", "(2, -3)")),
                        "expected a non-negative integer in the shape"));
  EXPECT_TRUE(failsWith(image("{'descr': '<f4', 'fortran_order': False, "
                              "'shape': (2, 3}"),
                        "expected ',' or ')' in the shape"));
  EXPECT_TRUE(failsWith(image("{'descr': '<f4', 'fortran_order': False, "
                              "'shape': [2]}"),
                        "expected '(' to start the shape tuple"));
  EXPECT_TRUE(failsWith(image("{'descr: '<f4'}"), "expected ':' after a key"));
  EXPECT_TRUE(failsWith(image("{'descr': '<f4"), "unterminated string"));
  EXPECT_TRUE(failsWith(image(dictFor("<f4", "(2,)") + "junk"),
                        "unexpected text after the dict"));
  EXPECT_TRUE(failsWith(image("{'descr': '<f4' 'fortran_order': False}"),
                        "expected ',' or '}' after a value"));
  std::string manyDims = "(";
  for (int i = 0; i < 65; ++i)
    manyDims += "1, ";
  EXPECT_TRUE(failsWith(image(dictFor("<f4", manyDims + ")")),
                        "more than 64 dimensions"));
  // Unprintable bytes in the header are shown as '?'.
  EXPECT_TRUE(failsWith(image("{\x01}"), "'{?}'"));
}

TEST(NpyTest, ShapesThatOverflowOrExceedTheData) {
  auto image = [](const std::string &descr, const std::string &shape,
                  const std::string &data) {
    return npyImage(dictFor(descr, shape), data);
  };
  EXPECT_TRUE(failsWith(image("<f4", "(99999999999999999999,)", ""),
                        "shape dimension does not fit in 64 bits"));
  EXPECT_TRUE(
      failsWith(image("<f4", "(4294967296, 4294967296, 4294967296)", ""),
                "has more elements than fit in 64 bits"));
  EXPECT_TRUE(failsWith(image("<f8", "(2305843009213693952,)", ""),
                        "needs more bytes than fit in 64 bits"));
  EXPECT_TRUE(failsWith(image("<f4", "(10,)", rawBytes<float>({1, 2})),
                        "truncated data: shape [10] of Float needs 40 bytes, "
                        "but 8 follow the header"));
  EXPECT_TRUE(failsWith(image("<i8", "(1000000000000,)", "xyz"),
                        "needs 8000000000000 bytes, but 3 follow"));
}

TEST(NpyTest, UnsupportedDTypes) {
  auto image = [](const std::string &descr) {
    return npyImage(dictFor(descr, "(1,)"), std::string(16, '\0'));
  };
  EXPECT_TRUE(failsWith(image("<c8"), "unsupported dtype '<c8' (complex "
                                      "numbers are not supported)"));
  EXPECT_TRUE(failsWith(image("|O"), "unsupported dtype '|O' (object arrays "
                                     "are not supported)"));
  EXPECT_TRUE(failsWith(image("<U3"), "(string arrays are not supported)"));
  EXPECT_TRUE(failsWith(image("<u2"), "(the only unsigned type is u1)"));
  EXPECT_TRUE(failsWith(image("<f16"), "unsupported dtype '<f16'"));
  EXPECT_TRUE(
      failsWith(npyImage("{'descr': [('a', '<f4')], 'fortran_order': False, "
                         "'shape': (1,)}",
                         std::string(4, '\0')),
                "structured (record) dtypes are not supported"));
}

TEST(NpyTest, EveryPrefixOfAFileIsAnError) {
  std::string image =
      *encodeNpy(test::makeTensor({1, 2, 3, 4, 5, 6}, {3, 2}, DType::Int16));
  for (size_t length = 0; length < image.size(); ++length) {
    StatusOr<Tensor> tensor = parseNpy(image.data(), length);
    ASSERT_FALSE(tensor.ok()) << "prefix of " << length << " bytes parsed";
    EXPECT_FALSE(tensor.status().message().empty());
  }
  EXPECT_TRUE(parseNpy(image.data(), image.size()).ok());
}

TEST(NpyTest, MutatedFilesNeverCrash) {
  std::string original =
      *encodeNpy(test::makeTensor({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32));
  uint32_t state = 7;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string image = original;
    int flips = 1 + next() % 4;
    for (int f = 0; f < flips; ++f) {
      // Mostly within the header, where the parser works.
      size_t at = next() % (i % 3 ? 80 : image.size());
      image[at] = static_cast<char>(next());
    }
    // Heap copies so memory checkers see reads past the end.
    std::vector<char> heap(image.begin(),
                           image.begin() + next() % (image.size() + 1));
    StatusOr<Tensor> tensor = parseNpy(heap.data(), heap.size());
    if (tensor.ok())
      ++parsed;
    else
      EXPECT_NE(tensor.status().message().find("<buffer>: "),
                std::string::npos);
  }
  EXPECT_LT(parsed, 3000);
}

TEST(NpyTest, FilesRoundTripAndErrorsNameThePath) {
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  // A non-contiguous tensor is written in logical order.
  Tensor base = test::makeTensor({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32);
  std::string path = dir.path("t.npy");
  ASSERT_TRUE(writeNpy(path, *base.transpose(0, 1)).isOk());
  StatusOr<Tensor> back = readNpy(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(valuesOf(*back), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(readBytes(path), *encodeNpy(*base.transpose(0, 1)));

  std::string missing = dir.path("missing.npy");
  EXPECT_EQ(readNpy(missing).status().message(),
            missing + ": cannot open: No such file or directory");
  EXPECT_EQ(readNpy(dir.root()).status().message(),
            dir.root() + ": not a regular file");
  std::string truncated = dir.path("truncated.npy");
  std::string bytes = readBytes(path);
  writeBytes(truncated, bytes.substr(0, bytes.size() - 4));
  EXPECT_EQ(readNpy(truncated).status().message(),
            truncated + ": truncated data: shape [3, 2] of Float needs 24 "
                        "bytes, but 20 follow the header");
  std::string garbage = dir.path("garbage.npy");
  writeBytes(garbage, "hello");
  EXPECT_EQ(readNpy(garbage).status().message(),
            garbage + ": not an .npy file (bad magic string)");
  std::string empty = dir.path("empty.npy");
  writeBytes(empty, "");
  EXPECT_EQ(readNpy(empty).status().message(),
            empty + ": truncated: the file ends inside the magic string");

  std::string unwritable = dir.path("no-such-dir/x.npy");
  Status status = writeNpy(unwritable, base);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(),
            unwritable + ": cannot create: No such file or directory");
  EXPECT_EQ(writeNpy(path, Tensor()).message(),
            path + ": cannot write an undefined tensor");
  EXPECT_FALSE(encodeNpy(Tensor()).ok());
}

TEST(NpyTest, NumpyReadsAndWritesTheSameFiles) {
  if (!hasNumpy())
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::vector<double> values = {0, 1, 2, 3, 4, 5};
  for (DType type : kAllDTypes)
    ASSERT_TRUE(writeNpy(dir.path(std::string(dtypeTorchName(type)) + ".npy"),
                         makeTensor(values, {2, 3}, type))
                    .isOk());
  ASSERT_TRUE(writeNpy(dir.path("scalar.npy"), Tensor::scalar(2.5)).isOk());
  ASSERT_TRUE(
      writeNpy(dir.path("empty.npy"), Tensor::zeros({0, 3}, DType::Int32))
          .isOk());
  ASSERT_TRUE(
      writeNpy(dir.path("transposed.npy"),
               *makeTensor(values, {2, 3}, DType::Int64).transpose(0, 1))
          .isOk());
  const char *script = R"PY(
import sys
import numpy as np
d = sys.argv[1]
expected = np.arange(6).reshape(2, 3)
for name, descr in [('Float', '<f4'), ('Double', '<f8'), ('Half', '<f2'),
                    ('Long', '<i8'), ('Int', '<i4'), ('Short', '<i2'),
                    ('Char', '|i1'), ('Byte', '|u1')]:
    a = np.load(d + '/' + name + '.npy')
    assert a.dtype == np.dtype(descr), (name, a.dtype)
    assert a.shape == (2, 3), (name, a.shape)
    assert (a == expected.astype(descr)).all(), name
b = np.load(d + '/Bool.npy')
assert b.dtype == np.bool_ and (b == (expected != 0)).all()
bf = np.load(d + '/BFloat16.npy')
assert bf.dtype.itemsize == 2 and bf.shape == (2, 3)
assert (bf.view('<u2') == (expected.astype('<f4').view('<u4') >> 16)).all()
s = np.load(d + '/scalar.npy')
assert s.shape == () and s.dtype == np.float32 and s == 2.5
e = np.load(d + '/empty.npy')
assert e.shape == (0, 3) and e.dtype == np.int32
t = np.load(d + '/transposed.npy')
assert (t == expected.T).all()
np.save(d + '/np_fortran.npy',
        np.asfortranarray(np.arange(12, dtype='<f8').reshape(3, 4)))
np.save(d + '/np_big.npy', np.arange(5, dtype='>i4') - 2)
np.save(d + '/np_bool.npy', np.array([True, False, True]))
np.save(d + '/np_half.npy', np.array([0.1, -2, 65504], dtype='<f2'))
np.save(d + '/np_scalar.npy', np.float32(3.5))
with open(d + '/np_v2.npy', 'wb') as f:
    np.lib.format.write_array(f, np.array([[1, 2]], dtype='<i2'),
                              version=(2, 0))
)PY";
  writeBytes(dir.path("check.py"), script);
  ASSERT_EQ(std::system(
                ("/usr/bin/python3 " + dir.path("check.py") + " " + dir.root())
                    .c_str()),
            0)
      << "numpy rejected a file the runtime wrote";

  Tensor fortran = *readNpy(dir.path("np_fortran.npy"));
  EXPECT_EQ(fortran.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_FALSE(fortran.isContiguous());
  std::vector<double> range(12);
  for (int i = 0; i < 12; ++i)
    range[i] = i;
  EXPECT_EQ(valuesOf(fortran), range);
  Tensor big = *readNpy(dir.path("np_big.npy"));
  EXPECT_EQ(big.dtype(), DType::Int32);
  EXPECT_EQ(valuesOf(big), (std::vector<double>{-2, -1, 0, 1, 2}));
  Tensor bools = *readNpy(dir.path("np_bool.npy"));
  EXPECT_EQ(bools.dtype(), DType::Bool);
  EXPECT_EQ(valuesOf(bools), (std::vector<double>{1, 0, 1}));
  Tensor halves = *readNpy(dir.path("np_half.npy"));
  EXPECT_EQ(halves.dtype(), DType::Float16);
  EXPECT_EQ(halves.dataAs<uint16_t>()[0], floatToHalf(0.1f));
  EXPECT_EQ(valuesOf(halves)[2], 65504);
  Tensor scalar = *readNpy(dir.path("np_scalar.npy"));
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(valuesOf(scalar), (std::vector<double>{3.5}));
  Tensor v2 = *readNpy(dir.path("np_v2.npy"));
  EXPECT_EQ(valuesOf(v2), (std::vector<double>{1, 2}));
}
