//===- PrintKernels.cpp - Builtin kernels that print or format ------------===//
//
// prim::Print (values space-separated on stdout), aten::format (Python's
// "{}" substitution) and aten::warn (a message on stderr), printing values
// as torch's operator<< does.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <cstdio>

namespace tsir::rt {

namespace {
/// Removes the top `count` values, first argument first.
std::vector<Value> popN(Stack &stack, int64_t count) {
  std::vector<Value> values(std::make_move_iterator(stack.end() - count),
                            std::make_move_iterator(stack.end()));
  stack.resize(stack.size() - count);
  return values;
}

void print(std::string &out, const Value &value) {
  printValue(out, value, /*quoteStrings=*/false, /*tensorData=*/true);
}

Status printKernel(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t count, popInputCount(stack));
  std::string line;
  for (const Value &value : popN(stack, count)) {
    if (!line.empty())
      line += ' ';
    print(line, value);
  }
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
  return Status::ok();
}

Status formatKernel(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t count, popInputCount(stack));
  if (count < 1)
    return Status::error("missing the format string");
  std::vector<Value> inputs = popN(stack, count);
  if (!inputs[0].isString())
    return Status::error(std::string("the format must be a str, got ") +
                         inputs[0].kindName());
  const std::string &format = inputs[0].toStringRef();
  std::string out;
  size_t begin = 0, used = 1;
  while (true) {
    size_t hole = format.find("{}", begin);
    if (hole == std::string::npos) {
      out.append(format, begin, std::string::npos);
      break;
    }
    out.append(format, begin, hole - begin);
    if (used >= inputs.size())
      return Status::error("too few arguments for format "
                           "string: " +
                           format);
    print(out, inputs[used++]);
    begin = hole + 2;
  }
  push(stack, std::move(out));
  return Status::ok();
}

StatusOr<NoResult> warnKernel(const std::string &message, int64_t stackLevel) {
  (void)stackLevel; // Python's frame to blame; there are no frames here.
  std::string line = "Warning: " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  return NoResult();
}
} // namespace

void registerPrintKernels(KernelRegistry &registry) {
  registerKernelTable(registry,
                      {{"prim::Print(...) -> ()", printKernel},
                       {"aten::format(str self, ...) -> str", formatKernel},
                       {"aten::warn(str message, int stacklevel=2) -> ()",
                        bindKernel(warnKernel)}});
}

} // namespace tsir::rt
