//===- SafetensorsTest.cpp - Tests of the safetensors reader and writer ---===//
//
// Round trips through files (mapped) and buffers, metadata, the layout the
// writer produces, and every malformed-header and out-of-range error,
// including JSON nested far deeper than the parser allows.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Safetensors.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {
/// A safetensors image with header `json` and data section `data`.
std::string image(const std::string &json, const std::string &data = "") {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
  return out + json + data;
}

::testing::AssertionResult failsWith(const std::string &bytes,
                                     const std::string &expected) {
  return failedOnBuffer(parseSafetensors(bytes.data(), bytes.size()).status(),
                        expected);
}

NamedTensors sampleTensors() {
  return {
      {"weight", makeTensor({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float32)},
      {"bias", makeTensor({-1, 1}, {2}, DType::Float16)},
      {"step", makeTensor({42}, {}, DType::Int64)},
      {"mask", makeTensor({1, 0, 1}, {3}, DType::Bool)},
      {"bf", makeTensor({0.5, 2}, {1, 2}, DType::BFloat16)},
      {"empty", Tensor::zeros({0, 4}, DType::Int32)},
  };
}

void expectSame(const NamedTensors &actual, const NamedTensors &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i].first, expected[i].first);
    EXPECT_EQ(actual[i].second.dtype(), expected[i].second.dtype());
    EXPECT_EQ(actual[i].second.sizes(), expected[i].second.sizes());
    EXPECT_EQ(bytesOf(actual[i].second), bytesOf(expected[i].second))
        << actual[i].first;
  }
}
} // namespace

TEST(SafetensorsTest, BufferRoundTripWithMetadata) {
  NamedTensors tensors = sampleTensors();
  SafetensorsMetadata metadata = {{"format", "pt"}, {"note", "a \"quoted\"\n"}};
  StatusOr<std::string> bytes = encodeSafetensors(tensors, metadata);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  SafetensorsMetadata readMetadata;
  StatusOr<NamedTensors> back =
      parseSafetensors(bytes->data(), bytes->size(), &readMetadata);
  ASSERT_TRUE(back.ok()) << back.status().message();
  expectSame(*back, tensors);
  EXPECT_EQ(readMetadata, metadata);
}

TEST(SafetensorsTest, WriterLayout) {
  std::string bytes =
      *encodeSafetensors({{"b", makeTensor({1}, {1}, DType::UInt8)},
                          {"a", makeTensor({2, 3}, {2}, DType::Float64)}});
  uint64_t headerSize;
  std::memcpy(&headerSize, bytes.data(), 8);
  EXPECT_EQ(headerSize % 8, 0u);
  EXPECT_EQ(bytes.size(), 8 + headerSize + 17);
  std::string header = bytes.substr(8, headerSize);
  // Header order is the caller's; data is ordered by element size so the
  // doubles come first and stay aligned.
  EXPECT_EQ(header.rfind(
                "{\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[16,"
                "17]},\"a\":{\"dtype\":\"F64\",\"shape\":[2],\"data_offsets\":"
                "[0,16]}}",
                0),
            0u);
  double first;
  std::memcpy(&first, bytes.data() + 8 + headerSize, 8);
  EXPECT_EQ(first, 2);
}

TEST(SafetensorsTest, FileRoundTripMapsTheFile) {
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::string path = dir.path("model.safetensors");
  NamedTensors tensors = sampleTensors();
  // A non-contiguous tensor is written in logical order.
  tensors.emplace_back("transposed", *tensors[0].second.transpose(0, 1));
  ASSERT_TRUE(writeSafetensors(path, tensors, {{"k", "v"}}).isOk());
  std::string original = readBytes(path);
  {
    SafetensorsMetadata metadata;
    StatusOr<NamedTensors> back = readSafetensors(path, &metadata);
    ASSERT_TRUE(back.ok()) << back.status().message();
    expectSame(*back, tensors);
    EXPECT_EQ(metadata.at("k"), "v");
    // Aligned tensors point into the mapping instead of being copied.
    for (const auto &[name, tensor] : *back)
      EXPECT_EQ(tensor.storage()->allocator(), nullptr) << name;
    // Writes go to a private copy, never to the file.
    Tensor weight = (*back)[0].second;
    back = Status::error("dropped");
    weight.dataAs<float>()[0] = 100;
    EXPECT_EQ(weight.dataAs<float>()[0], 100);
    EXPECT_EQ(valuesOf(weight)[1], 2); // Still readable after the others died.
  }
  EXPECT_EQ(readBytes(path), original);
}

TEST(SafetensorsTest, UnalignedDataIsCopied) {
  // A Float32 tensor at data offset 1: not 4-byte aligned in the mapping.
  float value = 1.25f;
  std::string data = "x" + std::string(reinterpret_cast<char *>(&value), 4);
  std::string json = "{\"u8\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":"
                     "[0,1]},\"f\":{\"dtype\":\"F32\",\"shape\":[1],"
                     "\"data_offsets\":[1,5]}}";
  // Data then starts at a multiple of 8, so "f" sits at 1 mod 8.
  json.append((8 - json.size() % 8) % 8, ' ');
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::string path = dir.path("unaligned.safetensors");
  writeBytes(path, image(json, data));
  StatusOr<NamedTensors> tensors = readSafetensors(path);
  ASSERT_TRUE(tensors.ok()) << tensors.status().message();
  const Tensor &f = (*tensors)[1].second;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data()) % 4, 0u);
  EXPECT_EQ(f.storage()->allocator(), &cpuAllocator());            // A copy.
  EXPECT_EQ((*tensors)[0].second.storage()->allocator(), nullptr); // Mapped.
  EXPECT_EQ(f.dataAs<float>()[0], 1.25f);
  EXPECT_EQ((*tensors)[0].second.dataAs<uint8_t>()[0], 'x');
}

TEST(SafetensorsTest, EmptyFileAndUnicodeNames) {
  StatusOr<std::string> bytes = encodeSafetensors({});
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(parseSafetensors(bytes->data(), bytes->size())->empty());
  std::string json = "{\"caf\\u00e9 \\ud83d\\ude00\":{\"dtype\":\"I8\","
                     "\"shape\":[2],\"data_offsets\":[0,2]}}";
  std::string withUnicode = image(json, "\x01\x02");
  NamedTensors tensors =
      *parseSafetensors(withUnicode.data(), withUnicode.size());
  ASSERT_EQ(tensors.size(), 1u);
  EXPECT_EQ(tensors[0].first, "caf\xc3\xa9 \xf0\x9f\x98\x80");
}

TEST(SafetensorsTest, MalformedContainers) {
  EXPECT_TRUE(failsWith("", "file is 0 bytes, too short for the 8-byte "
                            "header length"));
  EXPECT_TRUE(failsWith("1234567", "file is 7 bytes"));
  std::string tooLong(8, '\0');
  tooLong[0] = 100;
  EXPECT_TRUE(failsWith(tooLong + "{}",
                        "header length 100 exceeds the 2 bytes after it"));
  std::string huge(8, '\xff');
  EXPECT_TRUE(failsWith(huge, "header length 18446744073709551615 exceeds"));
  EXPECT_TRUE(failsWith(image("[]"), "the top level must be an object"));
  EXPECT_TRUE(failsWith(image(""), "bad header: JSON error at byte 0: "
                                   "unexpected end of input"));
}

TEST(SafetensorsTest, MalformedJson) {
  EXPECT_TRUE(
      failsWith(image("{\"a\" 1}"), "expected ':' after an object key"));
  EXPECT_TRUE(failsWith(image("{\"a\":1,}"), "expected a string key"));
  EXPECT_TRUE(failsWith(image("{\"a\":[1 2]}"), "expected ',' or ']'"));
  EXPECT_TRUE(failsWith(image("{\"a\":tru}"), "unexpected character 't'"));
  EXPECT_TRUE(failsWith(image("{\"a\":\"x}"), "unterminated string"));
  EXPECT_TRUE(failsWith(image("{\"a\":\"\\q\"}"), "unknown escape '\\q'"));
  EXPECT_TRUE(
      failsWith(image("{\"a\":\"\\ud800\"}"), "unpaired high surrogate"));
  EXPECT_TRUE(
      failsWith(image("{\"a\":\"\\udc00\"}"), "unpaired low surrogate"));
  EXPECT_TRUE(failsWith(image("{\"a\":\"\\u12g4\"}"), "bad hex digit"));
  EXPECT_TRUE(failsWith(image("{\"a\":\"\x01\"}"), "control character"));
  EXPECT_TRUE(failsWith(image("{\"a\":01}"), "leading zero"));
  EXPECT_TRUE(failsWith(image("{\"a\":1.}"), "expected digits after '.'"));
  EXPECT_TRUE(failsWith(image("{\"a\":-}"), "expected digits in a number"));
  EXPECT_TRUE(failsWith(image("{\"a\":1e}"), "expected digits in a number's "
                                             "exponent"));
  EXPECT_TRUE(
      failsWith(image("{} {}"), "unexpected text after the JSON value"));
  EXPECT_TRUE(failsWith(image("{\"a\":\x80}"), "unexpected character '\\x80'"));
}

TEST(SafetensorsTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_TRUE(failsWith(image(deep), "bad header: JSON error at byte 64: "
                                     "nesting deeper than 64 levels"));
  EXPECT_TRUE(failsWith(image("{\"a\":" + deep), "nesting deeper than 64 "
                                                 "levels"));
  std::string objects;
  for (int i = 0; i < 100000; ++i)
    objects += "{\"a\":";
  EXPECT_TRUE(failsWith(image(objects), "nesting deeper than 64 levels"));
  // 64 levels are fine.
  std::string ok = "{\"__metadata__\":{}, \"x\":" + std::string(62, '[') +
                   std::string(62, ']') + "}";
  EXPECT_TRUE(failsWith(image(ok), "tensor 'x': entry must be an object"));
}

TEST(SafetensorsTest, BadEntries) {
  auto entry = [](const std::string &body, const std::string &data = "") {
    return image("{\"t\":" + body + "}", data);
  };
  EXPECT_TRUE(failsWith(entry("[]"), "tensor 't': entry must be an object"));
  EXPECT_TRUE(failsWith(entry("{\"shape\":[],\"data_offsets\":[0,0]}"),
                        "tensor 't': missing 'dtype'"));
  EXPECT_TRUE(failsWith(entry("{\"dtype\":\"F32\",\"data_offsets\":[0,0]}"),
                        "tensor 't': missing 'shape'"));
  EXPECT_TRUE(failsWith(entry("{\"dtype\":\"F32\",\"shape\":[]}"),
                        "tensor 't': missing 'data_offsets'"));
  EXPECT_TRUE(
      failsWith(entry("{\"dtype\":32,\"shape\":[],\"data_offsets\":[0,4]}"),
                "tensor 't': dtype must be a string"));
  EXPECT_TRUE(failsWith(
      entry("{\"dtype\":\"F8_E4M3\",\"shape\":[1],\"data_offsets\":[0,1]}",
            "x"),
      "tensor 't': unsupported dtype 'F8_E4M3'"));
  EXPECT_TRUE(failsWith(
      entry("{\"dtype\":\"U8\",\"shape\":[-1],\"data_offsets\":[0,1]}", "x"),
      "tensor 't': shape must hold non-negative integers"));
  EXPECT_TRUE(failsWith(
      entry("{\"dtype\":\"U8\",\"shape\":[1.5],\"data_offsets\":[0,1]}", "x"),
      "shape must hold non-negative integers"));
  EXPECT_TRUE(failsWith(
      entry("{\"dtype\":\"U8\",\"shape\":{},\"data_offsets\":[0,1]}", "x"),
      "tensor 't': shape must be an array, got object"));
  EXPECT_TRUE(failsWith(
      entry("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]}", "x"),
      "tensor 't': data_offsets must have 2 entries"));
  EXPECT_TRUE(
      failsWith(entry("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0, "
                      "99999999999999999999]}",
                      "x"),
                "data_offsets must hold non-negative integers"));
  EXPECT_TRUE(failsWith(
      image("{\"t\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
            "\"t\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}",
            "x"),
      "duplicate entry 't' in the header"));
  EXPECT_TRUE(failsWith(image("{\"__metadata__\":[]}"),
                        "__metadata__ must be an object"));
  EXPECT_TRUE(failsWith(image("{\"__metadata__\":{\"a\":1}}"),
                        "__metadata__ value of 'a' must be a string"));
}

TEST(SafetensorsTest, OffsetsOutOfRange) {
  auto entry = [](const std::string &shape, const std::string &offsets,
                  const std::string &data) {
    return image("{\"t\":{\"dtype\":\"F32\",\"shape\":" + shape +
                     ",\"data_offsets\":" + offsets + "}}",
                 data);
  };
  std::string eight(8, '\0');
  EXPECT_TRUE(failsWith(entry("[2]", "[0,12]", eight),
                        "tensor 't': data_offsets [0, 12] are out of range "
                        "of the 8-byte data section"));
  EXPECT_TRUE(failsWith(entry("[1]", "[8,4]", eight),
                        "data_offsets [8, 4] are out of range"));
  EXPECT_TRUE(failsWith(entry("[3]", "[0,8]", eight),
                        "tensor 't': F32 shape [3] needs 12 bytes but "
                        "data_offsets span 8"));
  EXPECT_TRUE(failsWith(entry("[4611686018427387904, 4]", "[0,8]", eight),
                        "tensor 't': shape [4611686018427387904, 4] is too "
                        "large"));
  EXPECT_TRUE(failsWith(entry("[1, 0]", "[0,4]", eight),
                        "needs 0 bytes but data_offsets span 4"));
  EXPECT_TRUE(parseSafetensors(entry("[2]", "[0,8]", eight).data(),
                               entry("[2]", "[0,8]", eight).size())
                  .ok());
}

TEST(SafetensorsTest, FileErrorsNameThePath) {
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::string missing = dir.path("missing.safetensors");
  EXPECT_EQ(readSafetensors(missing).status().message(),
            missing + ": cannot open: No such file or directory");
  std::string empty = dir.path("empty.safetensors");
  writeBytes(empty, "");
  EXPECT_EQ(readSafetensors(empty).status().message(),
            empty + ": file is 0 bytes, too short for the 8-byte header "
                    "length");
  std::string deep = dir.path("deep.safetensors");
  writeBytes(deep, image("{\"a\":" + std::string(100000, '[')));
  EXPECT_EQ(readSafetensors(deep).status().message(),
            deep + ": bad header: JSON error at byte 68: nesting deeper "
                   "than 64 levels");
}

TEST(SafetensorsTest, WriterRejectsBadInput) {
  Tensor t = Tensor::zeros({1}, DType::Float32);
  EXPECT_EQ(encodeSafetensors({{"a", t}, {"a", t}}).status().message(),
            "duplicate tensor name 'a'");
  EXPECT_EQ(encodeSafetensors({{"a", Tensor()}}).status().message(),
            "tensor 'a' is undefined");
  EXPECT_EQ(encodeSafetensors({{"__metadata__", t}}).status().message(),
            "'__metadata__' is reserved and cannot name a tensor");
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::string path = dir.path("nodir/x.safetensors");
  EXPECT_EQ(writeSafetensors(path, {{"a", t}}).message(),
            path + ": cannot create: No such file or directory");
}

TEST(SafetensorsTest, MutatedHeadersNeverCrash) {
  std::string original = *encodeSafetensors(sampleTensors(), {{"k", "v"}});
  uint32_t state = 99;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = original;
    for (int f = 0; f < 1 + static_cast<int>(next() % 3); ++f)
      bytes[next() % bytes.size()] = "{}[]\":,0123456789-e.\\ "[next() % 23];
    std::vector<char> heap(bytes.begin(),
                           bytes.begin() + next() % (bytes.size() + 1));
    StatusOr<NamedTensors> tensors = parseSafetensors(heap.data(), heap.size());
    if (!tensors.ok())
      EXPECT_EQ(tensors.status().message().rfind("<buffer>: ", 0), 0u);
  }
}

TEST(SafetensorsTest, PythonReadsTheFiles) {
  if (!hasNumpy())
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
  ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(writeSafetensors(dir.path("m.safetensors"), sampleTensors(),
                               {{"format", "pt"}})
                  .isOk());
  // The format is simple enough to check with json and numpy alone.
  const char *script = R"PY(
import json, struct, sys
import numpy as np
data = open(sys.argv[1], 'rb').read()
n = struct.unpack('<Q', data[:8])[0]
header = json.loads(data[8:8 + n])
body = data[8 + n:]
assert header['__metadata__'] == {'format': 'pt'}
def load(name, descr):
    e = header[name]
    b, end = e['data_offsets']
    return np.frombuffer(body[b:end], dtype=descr).reshape(e['shape'])
assert (load('weight', '<f4') == np.arange(1, 7).reshape(2, 3)).all()
assert (load('bias', '<f2') == [-1, 1]).all()
assert load('step', '<i8') == 42
assert (load('mask', '?') == [True, False, True]).all()
assert (load('bf', '<u2') == [[0x3f00, 0x4000]]).all()
assert load('empty', '<i4').shape == (0, 4)
)PY";
  writeBytes(dir.path("check.py"), script);
  EXPECT_EQ(std::system(("/usr/bin/python3 " + dir.path("check.py") + " " +
                         dir.path("m.safetensors"))
                            .c_str()),
            0);
}
