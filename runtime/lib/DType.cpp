//===- DType.cpp - Element type tables and 16-bit float conversions -------===//
//
// The names and sizes of each DType, and IEEE half / bfloat16 conversions
// written with integer bit manipulation so they round the same on every
// host, whatever its FPU offers.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/DType.h"
#include "tsir-runtime/BFloat16Rounding.h"

#include <cmath>
#include <cstring>

namespace tsir::rt {

namespace {
struct DTypeInfo {
  DType type;
  size_t size;
  const char *torchName;
  const char *numpyDescr;
  const char *safetensorsName;
  int64_t scalarType; // torch's ScalarType number
};

// Indexed by the enum's value.
constexpr DTypeInfo kInfo[] = {
    {DType::Float32, 4, "Float", "<f4", "F32", 6},
    {DType::Float64, 8, "Double", "<f8", "F64", 7},
    {DType::Float16, 2, "Half", "<f2", "F16", 5},
    {DType::BFloat16, 2, "BFloat16", "<V2", "BF16", 15},
    {DType::Int64, 8, "Long", "<i8", "I64", 4},
    {DType::Int32, 4, "Int", "<i4", "I32", 3},
    {DType::Int16, 2, "Short", "<i2", "I16", 2},
    {DType::Int8, 1, "Char", "|i1", "I8", 1},
    {DType::UInt8, 1, "Byte", "|u1", "U8", 0},
    {DType::Bool, 1, "Bool", "|b1", "BOOL", 11},
};

const DTypeInfo &info(DType type) { return kInfo[static_cast<size_t>(type)]; }

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
} // namespace

size_t dtypeSize(DType type) { return info(type).size; }
const char *dtypeTorchName(DType type) { return info(type).torchName; }
const char *dtypeNumpyDescr(DType type) { return info(type).numpyDescr; }
const char *dtypeSafetensorsName(DType type) {
  return info(type).safetensorsName;
}

std::optional<DType> dtypeFromTorchName(std::string_view name) {
  for (const DTypeInfo &entry : kInfo)
    if (name == entry.torchName)
      return entry.type;
  return std::nullopt;
}

int64_t dtypeScalarType(DType type) { return info(type).scalarType; }

std::optional<DType> dtypeFromScalarType(int64_t scalarType) {
  for (const DTypeInfo &entry : kInfo)
    if (entry.scalarType == scalarType)
      return entry.type;
  return std::nullopt;
}

std::optional<DType> dtypeFromSafetensorsName(std::string_view name) {
  for (const DTypeInfo &entry : kInfo)
    if (name == entry.safetensorsName)
      return entry.type;
  return std::nullopt;
}

bool isFloating(DType type) {
  return type == DType::Float32 || type == DType::Float64 ||
         type == DType::Float16 || type == DType::BFloat16;
}

bool isIntegral(DType type) {
  return type == DType::Int64 || type == DType::Int32 || type == DType::Int16 ||
         type == DType::Int8 || type == DType::UInt8;
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24 is exact in binary32.
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return bitsToFloat(sign | floatBits(magnitude));
  }
  if (exponent == 0x1f)
    return bitsToFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsToFloat(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) {
    if (magnitude == 0x7f800000)
      return sign | 0x7c00;
    // NaN: keep the top payload bits, force quiet so it stays a NaN.
    return sign | 0x7e00 | static_cast<uint16_t>((magnitude >> 13) & 0x3ff);
  }
  // 65520 and above round to infinity (65504 is the largest half).
  if (magnitude >= 0x477ff000)
    return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // Below the smallest normal half (2^-14): the result is m * 2^-24 with
    // m = round(|value| * 2^24). The scaling is exact, and nearbyint rounds
    // ties to even in the default rounding mode. m == 1024 is exactly the
    // smallest normal's encoding, so no special case is needed.
    float scaled = bitsToFloat(magnitude) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t exponent = (magnitude >> 23) - 127 + 15;
  uint32_t mantissa = magnitude & 0x7fffff;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  // A carry out of the mantissa correctly bumps the exponent.
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | static_cast<uint16_t>(half);
}

float bfloat16ToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBFloat16(float value) { return tsirBFloat16BitsOf(value); }

} // namespace tsir::rt
