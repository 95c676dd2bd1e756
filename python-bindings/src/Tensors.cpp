//===- Tensors.cpp - Runtime values to and from numpy and DLPack ----------===//
//
// How Python data crosses into tsir's runtime and back. numpy arrays (and
// torch tensors, which arrive as the numpy arrays `Tensor.numpy()` gives:
// the same memory) are wrapped without a copy through the buffer
// protocol's pointer and strides; the runtime tensor's storage keeps a
// reference to the array. Outputs become numpy arrays over the runtime's
// memory, kept alive by a capsule. numpy has no bfloat16, so bfloat16
// crosses as DLPack capsules (torch's `to_dlpack`/`from_dlpack`).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <pybind11/numpy.h>

#include <cstring>

using namespace tsir::python;
namespace rt = tsir::rt;

//===----------------------------------------------------------------------===//
// DLPack (the ABI of dlpack.h v0.x, which torch 1.13 speaks)
//===----------------------------------------------------------------------===//

namespace {
struct DLDevice {
  int32_t device_type; // kDLCPU = 1
  int32_t device_id;
};
struct DLDataType {
  uint8_t code; // kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; // in elements; null means row-major
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

/// What a capsule made here owns.
struct ExportedTensor {
  rt::Tensor tensor;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLManagedTensor managed;
};

constexpr int32_t kDLCPU = 1;
constexpr const char *kCapsuleName = "dltensor";
constexpr const char *kUsedCapsuleName = "used_dltensor";
} // namespace

static std::optional<rt::DType> dtypeFromDLPack(DLDataType type) {
  if (type.lanes != 1)
    return std::nullopt;
  switch (type.code) {
  case 0: // int
    switch (type.bits) {
    case 8:
      return rt::DType::Int8;
    case 16:
      return rt::DType::Int16;
    case 32:
      return rt::DType::Int32;
    case 64:
      return rt::DType::Int64;
    }
    break;
  case 1: // uint
    if (type.bits == 8)
      return rt::DType::UInt8;
    break;
  case 2: // float
    switch (type.bits) {
    case 16:
      return rt::DType::Float16;
    case 32:
      return rt::DType::Float32;
    case 64:
      return rt::DType::Float64;
    }
    break;
  case 4: // bfloat
    if (type.bits == 16)
      return rt::DType::BFloat16;
    break;
  case 6: // bool (DLPack 0.8)
    if (type.bits == 8)
      return rt::DType::Bool;
    break;
  }
  return std::nullopt;
}

static DLDataType dtypeToDLPack(rt::DType dtype) {
  uint8_t bits = static_cast<uint8_t>(rt::dtypeSize(dtype) * 8);
  switch (dtype) {
  case rt::DType::Float32:
  case rt::DType::Float64:
  case rt::DType::Float16:
    return {2, bits, 1};
  case rt::DType::BFloat16:
    return {4, bits, 1};
  case rt::DType::UInt8:
    return {1, bits, 1};
  case rt::DType::Bool:
    return {6, bits, 1};
  default:
    return {0, bits, 1};
  }
}

/// Takes over a DLPack capsule's tensor (the capsule is renamed
/// "used_dltensor", as the protocol asks, so that its producer does not
/// free it); the tensor's storage calls the producer's deleter.
static rt::Tensor tensorFromDLPack(py::capsule capsule) {
  if (std::strcmp(capsule.name(), kCapsuleName) != 0)
    throw py::type_error("a DLPack capsule can be consumed only once");
  auto *managed = capsule.get_pointer<DLManagedTensor>();
  const DLTensor &dl = managed->dl_tensor;
  if (dl.device.device_type != kDLCPU)
    throw Error("tsir runs on the CPU: move the tensor there first");
  std::optional<rt::DType> dtype = dtypeFromDLPack(dl.dtype);
  if (!dtype)
    throw py::type_error("unsupported DLPack dtype");
  std::vector<int64_t> sizes(dl.shape, dl.shape + dl.ndim);
  std::vector<int64_t> strides =
      dl.strides ? std::vector<int64_t>(dl.strides, dl.strides + dl.ndim)
                 : rt::contiguousStrides(sizes);
  int64_t extent = 1; // elements from the first to one past the last
  for (int64_t i = 0; i < dl.ndim; ++i) {
    if (sizes[i] == 0)
      extent = 0;
    if (strides[i] < 0)
      throw Error("tensors with negative strides are not supported");
  }
  if (extent)
    for (int64_t i = 0; i < dl.ndim; ++i)
      extent += (sizes[i] - 1) * strides[i];
  char *first = static_cast<char *>(dl.data) + dl.byte_offset;
  rt::Ref<rt::Storage> storage =
      rt::Storage::adopt(first, first, extent * rt::dtypeSize(*dtype),
                         rt::Device::cpu(), [managed](void *) {
                           // The producer's deleter may drop Python objects
                           // (torch's does).
                           if (!managed->deleter || !Py_IsInitialized())
                             return;
                           py::gil_scoped_acquire gil;
                           managed->deleter(managed);
                         });
  PyCapsule_SetName(capsule.ptr(), kUsedCapsuleName);
  return rt::Tensor(storage, sizes, strides, 0, *dtype);
}

py::capsule tsir::python::dlpackFromTensor(const rt::Tensor &tensor) {
  auto *exported = new ExportedTensor{tensor, tensor.sizes(), tensor.strides(),
                                      DLManagedTensor{}};
  DLTensor &dl = exported->managed.dl_tensor;
  dl.data = tensor.data();
  dl.device = {kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(tensor.dim());
  dl.dtype = dtypeToDLPack(tensor.dtype());
  dl.shape = exported->shape.data();
  dl.strides = exported->strides.data();
  dl.byte_offset = 0;
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = [](DLManagedTensor *self) {
    delete static_cast<ExportedTensor *>(self->manager_ctx);
  };
  // An unconsumed capsule frees the tensor itself.
  return py::capsule(&exported->managed, kCapsuleName, [](PyObject *object) {
    if (!PyCapsule_IsValid(object, kCapsuleName))
      return;
    auto *managed = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(object, kCapsuleName));
    managed->deleter(managed);
  });
}

//===----------------------------------------------------------------------===//
// numpy
//===----------------------------------------------------------------------===//

static std::optional<rt::DType> dtypeFromNumpy(const py::dtype &dtype) {
  char kind = dtype.kind();
  ssize_t size = dtype.itemsize();
  switch (kind) {
  case 'f':
    if (size == 4)
      return rt::DType::Float32;
    if (size == 8)
      return rt::DType::Float64;
    if (size == 2)
      return rt::DType::Float16;
    break;
  case 'i':
    if (size == 8)
      return rt::DType::Int64;
    if (size == 4)
      return rt::DType::Int32;
    if (size == 2)
      return rt::DType::Int16;
    if (size == 1)
      return rt::DType::Int8;
    break;
  case 'u':
    if (size == 1)
      return rt::DType::UInt8;
    break;
  case 'b':
    return rt::DType::Bool;
  case 'V':
    // The runtime's .npy files hold bfloat16 as 2-byte voids ("<V2").
    if (size == 2)
      return rt::DType::BFloat16;
    break;
  }
  return std::nullopt;
}

static const char *numpyName(rt::DType dtype) {
  switch (dtype) {
  case rt::DType::Float32:
  case rt::DType::BFloat16: // converted, see arrayFromTensor
    return "float32";
  case rt::DType::Float64:
    return "float64";
  case rt::DType::Float16:
    return "float16";
  case rt::DType::Int64:
    return "int64";
  case rt::DType::Int32:
    return "int32";
  case rt::DType::Int16:
    return "int16";
  case rt::DType::Int8:
    return "int8";
  case rt::DType::UInt8:
    return "uint8";
  case rt::DType::Bool:
    return "bool";
  }
  return "float32";
}

static rt::Tensor tensorFromArray(py::array array) {
  std::optional<rt::DType> dtype = dtypeFromNumpy(array.dtype());
  if (!dtype)
    throw py::type_error("unsupported array dtype " +
                         std::string(py::str(array.dtype())) +
                         ": tsir takes float16/32/64, bfloat16, int8/16/32/64, "
                         "uint8 and bool");
  size_t elementSize = rt::dtypeSize(*dtype);
  bool nativeOrder = array.dtype().attr("isnative").cast<bool>();
  bool wrappable = nativeOrder && array.writeable();
  for (ssize_t i = 0; i < array.ndim(); ++i)
    wrappable &= array.strides(i) >= 0 &&
                 array.strides(i) % static_cast<ssize_t>(elementSize) == 0;
  if (!wrappable) {
    // A read-only array could not take the graph's in-place writes; other
    // layouts the runtime cannot describe. Both run on a copy.
    py::module_ numpy = py::module_::import("numpy");
    py::dtype native = array.dtype().attr("newbyteorder")("=");
    py::array copy =
        numpy.attr("array")(array, py::arg("dtype") = native,
                            py::arg("order") = "C", py::arg("copy") = true);
    return tensorFromArray(copy);
  }

  std::vector<int64_t> sizes, strides;
  int64_t extent = 1;
  for (ssize_t i = 0; i < array.ndim(); ++i) {
    sizes.push_back(array.shape(i));
    strides.push_back(array.strides(i) / static_cast<ssize_t>(elementSize));
    if (sizes.back() == 0)
      extent = 0;
  }
  if (extent)
    for (size_t i = 0; i < sizes.size(); ++i)
      extent += (sizes[i] - 1) * strides[i];
  void *data = array.mutable_data();
  // The storage holds a reference to the array; dropping it needs the GIL,
  // which the last owner may not hold (the executor runs without it).
  PyObject *owner = array.ptr();
  Py_INCREF(owner);
  rt::Ref<rt::Storage> storage = rt::Storage::adopt(
      data, data, extent * elementSize, rt::Device::cpu(), [owner](void *) {
        if (!Py_IsInitialized())
          return;
        py::gil_scoped_acquire gil;
        Py_DECREF(owner);
      });
  return rt::Tensor(storage, sizes, strides, 0, *dtype);
}

rt::Tensor tsir::python::tensorFromPython(py::handle object) {
  if (PyCapsule_CheckExact(object.ptr()))
    return tensorFromDLPack(py::reinterpret_borrow<py::capsule>(object));
  if (!py::isinstance<py::array>(object))
    throw py::type_error("expected a numpy array, got " +
                         std::string(py::str(object.get_type())));
  return tensorFromArray(py::reinterpret_borrow<py::array>(object));
}

py::object tsir::python::arrayFromTensor(const rt::Tensor &tensor) {
  if (!tensor.defined())
    return py::none();
  rt::Tensor held = tensor.dtype() == rt::DType::BFloat16
                        ? tensor.to(rt::DType::Float32)
                        : tensor;
  std::vector<ssize_t> shape, strides;
  for (int64_t i = 0; i < held.dim(); ++i) {
    shape.push_back(held.size(i));
    strides.push_back(held.stride(i) *
                      static_cast<ssize_t>(held.elementSize()));
  }
  auto *owner = new rt::Tensor(held);
  py::capsule base(
      owner, [](void *pointer) { delete static_cast<rt::Tensor *>(pointer); });
  py::dtype dtype(numpyName(held.dtype()));
  if (!held.data()) {
    // An empty tensor may have no memory at all; numpy then allocates.
    return py::array(dtype, shape, strides);
  }
  return py::array(dtype, shape, strides, held.data(), base);
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

rt::Value tsir::python::valueFromPython(py::handle object) {
  if (object.is_none())
    return rt::Value::none();
  // bool before int: Python's bool is an int.
  if (PyBool_Check(object.ptr()))
    return rt::Value(object.cast<bool>());
  if (PyLong_Check(object.ptr())) {
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
    if (overflow)
      throw Error("integer " + std::string(py::str(object)) +
                  " does not fit TorchScript's int (64 bits)");
    return rt::Value(static_cast<int64_t>(value));
  }
  if (PyFloat_Check(object.ptr()))
    return rt::Value(object.cast<double>());
  if (py::isinstance<py::str>(object))
    return rt::Value(object.cast<std::string>());
  if (py::isinstance<py::array>(object) || PyCapsule_CheckExact(object.ptr()))
    return rt::Value(tensorFromPython(object));
  if (py::isinstance<py::list>(object) || py::isinstance<py::tuple>(object)) {
    std::vector<rt::Value> elements;
    for (py::handle element : object)
      elements.push_back(valueFromPython(element));
    if (py::isinstance<py::tuple>(object))
      return rt::Value::tuple(std::move(elements));
    return rt::Value::list(std::move(elements));
  }
  throw py::type_error("cannot pass a " +
                       std::string(py::str(object.get_type())) +
                       " to a graph: give numpy arrays, torch tensors, "
                       "ints, floats, bools, str, None, or lists of them");
}

py::object tsir::python::valueToPython(const rt::Value &value,
                                       bool bfloat16AsDLPack) {
  switch (value.kind()) {
  case rt::Value::Kind::None:
    return py::none();
  case rt::Value::Kind::Tensor:
    if (bfloat16AsDLPack && value.toTensor().dtype() == rt::DType::BFloat16)
      return dlpackFromTensor(value.toTensor());
    return arrayFromTensor(value.toTensor());
  case rt::Value::Kind::Int:
    return py::int_(value.toInt());
  case rt::Value::Kind::Double:
    return py::float_(value.toDouble());
  case rt::Value::Kind::Bool:
    return py::bool_(value.toBool());
  case rt::Value::Kind::String:
    return py::str(value.toStringRef());
  case rt::Value::Kind::Device:
    return py::str(value.toDevice().toString());
  case rt::Value::Kind::List: {
    py::list result;
    for (const rt::Value &element : value.toList())
      result.append(valueToPython(element, bfloat16AsDLPack));
    return result;
  }
  case rt::Value::Kind::Tuple: {
    py::list result;
    for (const rt::Value &element : value.toTuple())
      result.append(valueToPython(element, bfloat16AsDLPack));
    return py::tuple(result);
  }
  case rt::Value::Kind::Dict: {
    py::dict result;
    for (const auto &[key, entry] : value.toDict())
      result[valueToPython(key, bfloat16AsDLPack)] =
          valueToPython(entry, bfloat16AsDLPack);
    return result;
  }
  }
  return py::none();
}
