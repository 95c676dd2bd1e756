//===- DType.h - Element types of runtime tensors ---------------*- C++ -*-===//
//
// The element types a Tensor can hold, their sizes, their names in
// TorchScript, numpy (.npy descr) and safetensors, and the bit-exact
// float16/bfloat16 conversions the runtime uses for them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_DTYPE_H
#define TSIR_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tsir::rt {

/// The scalar types of torch that tsir executes (torch's ScalarType minus
/// complex, quantized and float8 types).
enum class DType : uint8_t {
  Float32,
  Float64,
  Float16,
  BFloat16,
  Int64,
  Int32,
  Int16,
  Int8,
  UInt8,
  Bool,
};

/// Every DType, in declaration order (for tests and loops over types).
inline constexpr DType kAllDTypes[] = {
    DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
    DType::Int64,   DType::Int32,   DType::Int16,   DType::Int8,
    DType::UInt8,   DType::Bool};

/// Bytes per element.
size_t dtypeSize(DType type);

/// torch's name, as printed in graphs ("Float", "Double", "Half", "BFloat16",
/// "Long", "Int", "Short", "Char", "Byte", "Bool").
const char *dtypeTorchName(DType type);
std::optional<DType> dtypeFromTorchName(std::string_view name);

/// torch's ScalarType number (Float32 is 6, Bool 11), as TorchScript passes
/// dtypes to ops and `x.dtype` returns them, and back.
int64_t dtypeScalarType(DType type);
std::optional<DType> dtypeFromScalarType(int64_t scalarType);

bool isFloating(DType type);
/// Integer types, excluding Bool (as torch's isIntegralType(t, false)).
bool isIntegral(DType type);

/// The little-endian numpy descr written to .npy files: "<f4", "<f8",
/// "<f2", "<i8", "<i4", "<i2", "|i1", "|u1", "|b1". numpy has no bfloat16,
/// so BFloat16 is written as the 2-byte void type "<V2": numpy loads it as
/// raw bits (`a.view(np.uint16)` or `a.view(ml_dtypes.bfloat16)` recovers
/// the values), and the runtime reads "<V2"/"|V2" back as BFloat16.
const char *dtypeNumpyDescr(DType type);

/// safetensors' names: "F32", "F64", "F16", "BF16", "I64", "I32", "I16",
/// "I8", "U8", "BOOL".
const char *dtypeSafetensorsName(DType type);
std::optional<DType> dtypeFromSafetensorsName(std::string_view name);

/// IEEE binary16 <-> binary32. Conversions to 16 bits round to nearest,
/// ties to even; NaN stays NaN (quiet), overflow becomes infinity.
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);

/// bfloat16 (the upper half of a binary32) <-> binary32, round to nearest
/// even; NaN stays a quiet NaN.
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_DTYPE_H
