//===- RunSupport.cpp - What the run tools share --------------------------===//
//
// See RunSupport.h.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/RunSupport.h"
#include "tsir-runtime/Npy.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <sys/stat.h>

namespace tsir::rt {

namespace {
bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool fileExists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

/// Creates `path` and its parents.
Status makeDirectories(const std::string &path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/')
      continue;
    std::string prefix = path.substr(0, at);
    if (mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return Status::error("cannot create " + prefix);
  }
  return Status::ok();
}

/// An output as the array the corpus stores for it.
StatusOr<Tensor> asArray(const Value &value) {
  if (value.isTensor())
    return value.toTensor();
  if (value.isInt()) {
    // Not through Tensor::scalar's double: an int beyond 2^53 would round.
    Tensor array = Tensor::empty({}, DType::Int64);
    *array.dataAs<int64_t>() = value.toInt();
    return array;
  }
  if (value.isDouble())
    return Tensor::scalar(value.toDouble(), DType::Float64);
  if (value.isBool())
    return Tensor::scalar(value.toBool() ? 1 : 0, DType::Bool);
  return Status::error(std::string("cannot write a ") + value.kindName() +
                       " output as .npy");
}

Status appendArrays(const Value &value, std::vector<Tensor> &arrays) {
  if (value.isList() || value.isTuple()) {
    for (const Value &element : value.isList() ? value.toList() : value.toTuple())
      if (Status status = appendArrays(element, arrays); !status.isOk())
        return status;
    return Status::ok();
  }
  // A dict's values in insertion order (a detection model's
  // `{"boxes": ..., "scores": ..., "labels": ...}`); the keys are the
  // graph's to know.
  if (value.isDict()) {
    for (const auto &entry : value.toDict())
      if (Status status = appendArrays(entry.second, arrays); !status.isOk())
        return status;
    return Status::ok();
  }
  StatusOr<Tensor> array = asArray(value);
  if (!array.ok())
    return array.status();
  arrays.push_back(*array);
  return Status::ok();
}
} // namespace

/// The elements of `[a, b, [c, d]]` (without its brackets), split at the
/// commas outside nested brackets; nullopt if the brackets do not match.
static std::optional<std::vector<std::string>>
splitListElements(const std::string &inner) {
  std::vector<std::string> elements;
  int depth = 0;
  std::string current;
  for (char c : inner) {
    if (c == ',' && depth == 0) {
      elements.push_back(current);
      current.clear();
      continue;
    }
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (depth < 0)
      return std::nullopt;
    current += c;
  }
  if (depth != 0)
    return std::nullopt;
  if (!elements.empty() || current.find_first_not_of(' ') != std::string::npos)
    elements.push_back(current);
  for (std::string &element : elements) {
    size_t first = element.find_first_not_of(' ');
    size_t last = element.find_last_not_of(' ');
    element = first == std::string::npos ? ""
                                         : element.substr(first, last - first + 1);
  }
  return elements;
}

StatusOr<Value> parseInputArgument(const std::string &text, size_t index) {
  std::string where = "input " + std::to_string(index) + " ('" + text + "')";
  // A list, `[a.npy, b.npy]` (a detection model's `List[Tensor]` of
  // images), of any of these, nested too.
  if (!text.empty() && text.front() == '[') {
    std::optional<std::vector<std::string>> elements =
        text.back() == ']' ? splitListElements(text.substr(1, text.size() - 2))
                           : std::nullopt;
    if (!elements)
      return Status::error(where + ": a list input is `[a, b, ...]` with "
                                   "matching brackets");
    std::vector<Value> values;
    for (const std::string &element : *elements) {
      StatusOr<Value> value = parseInputArgument(element, index);
      if (!value.ok())
        return value.status();
      values.push_back(*value);
    }
    return Value::list(std::move(values));
  }
  if (endsWith(text, ".npy")) {
    StatusOr<Tensor> tensor = readNpy(text);
    if (!tensor.ok())
      return tensor.status().withContext(where);
    return Value(*tensor);
  }
  if (text == "true" || text == "True")
    return Value(true);
  if (text == "false" || text == "False")
    return Value(false);
  if (text == "None")
    return Value::none();
  if (!text.empty()) {
    char *end = nullptr;
    errno = 0;
    long long integer = std::strtoll(text.c_str(), &end, 10);
    if (*end == '\0' && errno == 0)
      return Value(int64_t(integer));
    errno = 0;
    double real = std::strtod(text.c_str(), &end);
    if (*end == '\0' && errno == 0)
      return Value(real);
  }
  if (fileExists(text))
    return Status::error(where + ": only .npy files can be inputs");
  return Status::error(where + ": not a .npy file, an int, a float, "
                               "true/false or None (no such file)");
}

Value scalarFromArray(const Value &value, const std::string &type) {
  if (!value.isTensor() || value.toTensor().dim() != 0)
    return value;
  const Tensor &t = value.toTensor();
  if (type == "int" && t.dtype() == DType::Int64)
    return Value(*t.dataAs<int64_t>());
  if (type == "float" && t.dtype() == DType::Float64)
    return Value(*t.dataAs<double>());
  if (type == "bool" && t.dtype() == DType::Bool)
    return Value(*t.dataAs<uint8_t>() != 0);
  return value;
}

StatusOr<std::vector<Value>>
parseInputArguments(const std::vector<std::string> &texts,
                    const std::vector<std::string> &types) {
  std::vector<Value> values;
  for (size_t i = 0; i < texts.size(); ++i) {
    StatusOr<Value> value = parseInputArgument(texts[i], i);
    if (!value.ok())
      return value.status();
    values.push_back(i < types.size() ? scalarFromArray(*value, types[i])
                                      : *value);
  }
  return values;
}

StatusOr<std::vector<std::string>>
writeOutputArrays(const std::vector<Value> &outputs,
                  const std::string &directory) {
  if (Status made = makeDirectories(directory); !made.isOk())
    return made;
  std::vector<Tensor> arrays;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (Status status = appendArrays(outputs[i], arrays); !status.isOk())
      return status.withContext("output " + std::to_string(i));
  std::vector<std::string> lines;
  for (size_t i = 0; i < arrays.size(); ++i) {
    std::string path = directory + (endsWith(directory, "/") ? "" : "/") +
                       "out" + std::to_string(i) + ".npy";
    if (Status written = writeNpy(path, arrays[i]); !written.isOk())
      return written;
    lines.push_back("out" + std::to_string(i) + ": " + arrays[i].toString() +
                    " -> " + path);
  }
  return lines;
}

double median(std::vector<double> &samples) {
  if (samples.empty())
    return 0;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

} // namespace tsir::rt
