//===- Model.cpp - Loading and running an ahead-of-time compiled model ----===//
//
// See Model.h. Everything goes through the model's C ABI (tsir_model.h):
// the signature JSON says what the inputs are and where the weights live;
// tsir_model_run checks and runs. This file converts runtime values to and
// from tsir_value and keeps the weights it binds alive.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Model.h"
#include "tsir-runtime/AbiValue.h"
#include "tsir-runtime/Cuda.h"
#include "tsir-runtime/RunSupport.h"
#include "tsir-runtime/Safetensors.h"
#include "tsir-runtime/Storage.h"
#include "tsir-runtime/tsir_model.h"

#include "FileIO.h"
#include "Json.h"

#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

namespace tsir::rt {

struct Model::Functions {
  uint32_t (*abiVersion)();
  const char *(*signature)();
  int (*bindWeight)(const char *, const void *, uint64_t);
  int64_t (*run)(const tsir_value *, int64_t, tsir_value *, int64_t);
  const char *(*error)();
  void (*freeOutput)(tsir_value *);
};

// The library closes when the model and every output it returned are gone:
// an output's buffer goes back through the library's tsir_model_free (its
// buffer cache), so the output holds the library open.
Model::~Model() = default;

namespace {
/// Resolves `name` in the model, or says which function is missing.
template <class F>
Status resolve(void *handle, const std::string &path, const char *name,
               F &function) {
  function = reinterpret_cast<F>(dlsym(handle, name));
  if (!function)
    return Status::error(path + ": not a tsir model (no " + name + ")");
  return Status::ok();
}

const detail::JsonValue *member(const detail::JsonValue &object,
                                const char *key, detail::JsonValue::Kind kind) {
  const detail::JsonValue *found = object.find(key);
  return found && found->kind == kind ? found : nullptr;
}
} // namespace

namespace {
/// Whether `mapped` (the model `path`) is a whole 64-bit ELF file: the
/// dynamic loader maps a truncated library's segments past the end of the
/// file and the process dies of SIGBUS, so a damaged model must be refused
/// before dlopen.
Status checkElfFile(const detail::MappedFile &mapped, const std::string &path) {
  const char *bytes = mapped.data();
  uint64_t size = mapped.size();
  Elf64_Ehdr header;
  if (size < sizeof(header) ||
      std::memcmp(bytes, ELFMAG, SELFMAG) != 0)
    return Status::error("cannot load the model " + path +
                         ": not a shared library (no ELF header)");
  std::memcpy(&header, bytes, sizeof(header));
  auto damaged = [&](uint64_t needed) {
    return Status::error("cannot load the model " + path +
                         ": the file is truncated or damaged (it has " +
                         std::to_string(size) + " bytes, its contents reach " +
                         std::to_string(needed) + "): compile it again");
  };
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_phentsize != sizeof(Elf64_Phdr))
    return Status::error("cannot load the model " + path +
                         ": not a 64-bit shared library");
  uint64_t headersEnd =
      header.e_phoff + uint64_t(header.e_phnum) * sizeof(Elf64_Phdr);
  if (header.e_phoff > size || headersEnd > size)
    return damaged(headersEnd);
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, bytes + header.e_phoff + i * sizeof(Elf64_Phdr),
                sizeof(segment));
    uint64_t end = segment.p_offset + segment.p_filesz;
    if (segment.p_type == PT_LOAD &&
        (segment.p_offset > size || end > size || end < segment.p_offset))
      return damaged(end);
  }
  uint64_t sectionsEnd =
      header.e_shoff + uint64_t(header.e_shnum) * header.e_shentsize;
  if (header.e_shoff > size || sectionsEnd > size)
    return damaged(sectionsEnd);
  return Status::ok();
}

/// What dlopen last said went wrong.
std::string loaderError() {
  const char *error = dlerror();
  return error ? error : "unknown error";
}

/// dlopen of `file` (whose bytes are `mapped`), as a library of its own.
/// The dynamic loader hands out one handle per file, and a model's weights
/// are bound in its library: two Models of one file with different weights
/// would share them. So when the file is loaded already, this loads a
/// private copy, from a memfd that stays open (its unique inode and /proc
/// path keep the loader from matching it to another) until the library is
/// closed.
std::shared_ptr<void> openLibrary(const std::string &file,
                                  const detail::MappedFile &mapped,
                                  std::string &why) {
  if (void *loaded = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
    dlclose(loaded);
    int copy = memfd_create("tsir-model", MFD_CLOEXEC);
    if (copy < 0 || write(copy, mapped.data(), mapped.size()) !=
                        static_cast<ssize_t>(mapped.size())) {
      if (copy >= 0)
        close(copy);
      why = "cannot make a private copy of the model";
      return nullptr;
    }
    std::string procPath = "/proc/self/fd/" + std::to_string(copy);
    void *handle = dlopen(procPath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      why = loaderError();
      close(copy);
      return nullptr;
    }
    return std::shared_ptr<void>(handle, [copy](void *h) {
      dlclose(h);
      close(copy);
    });
  }
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    why = loaderError();
    return nullptr;
  }
  return std::shared_ptr<void>(handle, dlclose);
}
} // namespace

StatusOr<std::unique_ptr<Model>> Model::open(const std::string &path) {
  // A bare file name means the file here, not a search of the library path.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  StatusOr<std::shared_ptr<detail::MappedFile>> mapped =
      detail::MappedFile::map(file);
  if (!mapped.ok())
    return Status::error("cannot load the model " + path + ": " +
                         mapped.status().message());
  if (Status whole = checkElfFile(**mapped, path); !whole.isOk())
    return whole;
  std::unique_ptr<Model> model(new Model());
  std::string why;
  model->library = openLibrary(file, **mapped, why);
  if (!model->library)
    return Status::error("cannot load the model " + path + ": " + why);
  void *handle = model->library.get();
  model->functions = std::make_unique<Functions>();
  Functions &f = *model->functions;
  for (Status status :
       {resolve(handle, path, "tsir_model_abi_version", f.abiVersion),
        resolve(handle, path, "tsir_model_signature", f.signature),
        resolve(handle, path, "tsir_model_bind_weight", f.bindWeight),
        resolve(handle, path, "tsir_model_run", f.run),
        resolve(handle, path, "tsir_model_error", f.error),
        resolve(handle, path, "tsir_model_free", f.freeOutput)})
    if (!status.isOk())
      return status;
  if (f.abiVersion() != TSIR_MODEL_ABI_VERSION)
    return Status::error(
        path + ": the model was written for ABI version " +
        std::to_string(f.abiVersion()) + ", this runtime reads version " +
        std::to_string(TSIR_MODEL_ABI_VERSION) + ": compile it again");

  model->signatureJson = f.signature();
  StatusOr<detail::JsonValue> parsed = detail::parseJson(model->signatureJson);
  if (!parsed.ok())
    return parsed.status().withContext(path + ": the model's signature");
  using Kind = detail::JsonValue::Kind;
  const detail::JsonValue *device = member(*parsed, "device", Kind::String);
  const detail::JsonValue *spec = member(*parsed, "spec", Kind::String);
  const detail::JsonValue *inputs = member(*parsed, "inputs", Kind::Array);
  const detail::JsonValue *outputs = member(*parsed, "outputs", Kind::Array);
  const detail::JsonValue *weights = member(*parsed, "weights", Kind::Object);
  if (!device || !spec || !inputs || !outputs || !weights)
    return Status::error(path + ": the model's signature lacks device, spec, "
                                "inputs, outputs or weights");
  model->deviceName = device->string;
  if (model->deviceName == "cuda") {
    // Loading ran the model's constructors, which load its kernels; where
    // there is no GPU they recorded an error instead. Say why, plainly.
    if (Status usable = cuda::available(); !usable.isOk()) {
      cuda::takeError().ignoreError();
      return usable.withContext(path + " was compiled for --device cuda");
    }
    if (Status loaded = cuda::takeError(); !loaded.isOk())
      return loaded.withContext("loading the kernels of " + path);
  }
  model->specText = spec->string;
  model->outputCount = outputs->array.size();
  for (const detail::JsonValue &input : inputs->array) {
    const detail::JsonValue *name = member(input, "name", Kind::String);
    const detail::JsonValue *type = member(input, "type", Kind::String);
    const detail::JsonValue *kind = member(input, "kind", Kind::String);
    if (!name || !type || !kind)
      return Status::error(path + ": an input of the signature lacks its "
                                  "name, type or kind");
    ModelInput described{name->string, type->string, ModelInput::Kind::Tensor};
    if (kind->string == "int")
      described.kind = ModelInput::Kind::Int;
    else if (kind->string == "float")
      described.kind = ModelInput::Kind::Float;
    else if (kind->string == "bool")
      described.kind = ModelInput::Kind::Bool;
    model->inputList.push_back(std::move(described));
  }

  const detail::JsonValue *embedded = weights->find("embedded");
  const detail::JsonValue *names = member(*weights, "names", Kind::Array);
  if (embedded && embedded->kind == Kind::Bool && !embedded->boolean && names)
    for (const detail::JsonValue &name : names->array)
      model->externalWeights.push_back(name.string);
  if (const detail::JsonValue *named = member(*weights, "file", Kind::String))
    model->weightsFile = named->string;
  return model;
}

Status Model::bindWeights(const std::map<std::string, Tensor> &tensors,
                          const std::string &source, const std::string &path) {
  for (const std::string &name : externalWeights) {
    auto found = tensors.find(name);
    if (found == tensors.end())
      return Status::error(source + " has no weight '" + name + "', which " +
                           path + " needs");
    Tensor tensor = found->second.contiguous();
    if (functions->bindWeight(name.c_str(), tensor.data(),
                              tensor.numel() * tensor.elementSize()) != 0)
      return Status::error(source + ": " + functions->error());
    boundWeights.insert_or_assign(name, tensor);
  }
  return Status::ok();
}

StatusOr<std::unique_ptr<Model>> Model::load(const std::string &path,
                                             const std::string &weightsPath) {
  StatusOr<std::unique_ptr<Model>> model = open(path);
  if (!model.ok() || (*model)->externalWeights.empty())
    return model;
  // Weights left in their file are bound now, memory-mapped.
  std::string file = weightsPath.empty() ? (*model)->weightsFile : weightsPath;
  if (file.empty())
    return Status::error(path + ": the model reads its weights from a file; "
                                "give one (--weights)");
  StatusOr<NamedTensors> tensors = readSafetensors(file);
  if (!tensors.ok())
    return tensors.status().withContext("the weights of " + path);
  std::map<std::string, Tensor> byName;
  for (auto &[name, tensor] : *tensors)
    byName.emplace(name, tensor);
  if (Status bound = (*model)->bindWeights(byName, file, path); !bound.isOk())
    return bound;
  return model;
}

StatusOr<std::unique_ptr<Model>>
Model::load(const std::string &path,
            const std::map<std::string, Tensor> &weights) {
  StatusOr<std::unique_ptr<Model>> model = open(path);
  if (!model.ok())
    return model;
  if (Status bound = (*model)->bindWeights(weights, "the weights given", path);
      !bound.isOk())
    return bound;
  return model;
}

StatusOr<std::vector<Value>>
Model::run(const std::vector<Value> &inputs) const {
  if (inputs.size() != inputList.size())
    return Status::error("the model takes " + std::to_string(inputList.size()) +
                         (inputList.size() == 1 ? " input (" : " inputs (") +
                         specText + ") but " + std::to_string(inputs.size()) +
                         (inputs.size() == 1 ? " was given" : " were given"));
  std::vector<tsir_value> arguments(inputs.size());
  // Contiguous copies of non-contiguous inputs, written back afterwards
  // (the graph may write its inputs in place).
  std::vector<std::pair<Tensor, Tensor>> copies;
  std::vector<Tensor> keepAlive;
  for (size_t i = 0; i < inputs.size(); ++i) {
    // A scalar input's type is "int", "float" or "bool".
    Value value = scalarFromArray(inputs[i], inputList[i].type);
    tsir_value &argument = arguments[i];
    std::memset(&argument, 0, sizeof argument);
    if (value.isTensor()) {
      Tensor tensor = value.toTensor();
      if (!tensor.defined())
        return Status::error("input " + std::to_string(i) +
                             " is an undefined tensor");
      if (tensor.dim() > TSIR_MODEL_MAX_RANK)
        return Status::error("input " + std::to_string(i) + " has rank " +
                             std::to_string(tensor.dim()) +
                             "; models take "
                             "at most " +
                             std::to_string(TSIR_MODEL_MAX_RANK));
      if (!tensor.device().isCPU())
        return Status::error("input " + std::to_string(i) +
                             " must be on the host (the model copies it "
                             "to its device)");
      if (!tensor.isContiguous()) {
        Tensor contiguous = tensor.contiguous();
        copies.emplace_back(tensor, contiguous);
        tensor = contiguous;
      }
      keepAlive.push_back(tensor);
      argument = abiValueOfTensor(tensor);
    } else if (value.isInt()) {
      argument.kind = TSIR_VALUE_INT;
      argument.int_value = value.toInt();
    } else if (value.isDouble()) {
      argument.kind = TSIR_VALUE_FLOAT;
      argument.float_value = value.toDouble();
    } else if (value.isBool()) {
      argument.kind = TSIR_VALUE_BOOL;
      argument.int_value = value.toBool();
    } else {
      return Status::error("input " + std::to_string(i) + " must be " +
                           inputList[i].type + ", got " + value.kindName());
    }
  }
  std::vector<tsir_value> results(outputCount + 1);
  int64_t count = functions->run(arguments.data(), int64_t(arguments.size()),
                                 results.data(), int64_t(results.size()));
  if (count < 0)
    return Status::error(functions->error());
  for (auto &[original, contiguous] : copies)
    if (Status status = original.copyFrom(contiguous); !status.isOk())
      return status;
  // Each output's buffer goes back through the model's tsir_model_free,
  // with the library kept loaded until then.
  auto release = [freeOutput = functions->freeOutput,
                  library = library](void *allocation) {
    tsir_value owner{};
    owner.allocation = allocation;
    freeOutput(&owner);
  };
  std::vector<Value> outputs;
  for (int64_t i = 0; i < count; ++i)
    outputs.push_back(valueOfAbiOutput(results[i], release));
  return outputs;
}

} // namespace tsir::rt
