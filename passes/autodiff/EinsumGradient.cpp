//===- EinsumGradient.cpp - The gradients of aten::einsum -----------------===//
//
// For operand k with subscripts s_k, the output's subscripts o and the
// other operands' s_j, the gradient is einsum("o,s_j...->s_k", grad,
// others...). An index of s_k that neither o nor another operand has was
// summed over operand k alone: it is left out of the einsum's output and
// the result is broadcast back along it. The result is summed to the
// operand's sizes last, which undoes einsum's broadcasting of size-1 dims
// and of an ellipsis.
//
//===----------------------------------------------------------------------===//

#include "EinsumGradient.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/EinsumEquation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

FailureOr<SmallVector<Value>> tsir::autodiff::buildEinsumGradients(
    OpBuilder &builder, Location loc, StringRef text, ValueRange operands,
    Value gradient, std::string &why) {
  std::optional<aten::EinsumEquation> equation =
      aten::EinsumEquation::parse(text);
  if (!equation || equation->inputs.size() != operands.size()) {
    why = "its equation '" + text.str() + "' does not match its " +
          std::to_string(operands.size()) + " operands";
    return failure();
  }
  MLIRContext *context = builder.getContext();
  Type tensor = prim::TensorType::get(context);
  Type i64 = builder.getI64Type();
  auto intValue = [&](int64_t value) -> Value {
    return prim::ConstantOp::create(builder, loc, i64,
                                    builder.getI64IntegerAttr(value));
  };
  SmallVector<Value> gradients;
  for (auto [k, operand] : llvm::enumerate(operands)) {
    const std::string &term = equation->inputs[k];
    // What the other terms and the output have.
    std::string others = equation->output;
    SmallVector<Value> otherOperands = {gradient};
    std::string inputsOfGradient = equation->output;
    for (auto [j, other] : llvm::enumerate(equation->inputs)) {
      if (j == k)
        continue;
      others += other;
      inputsOfGradient += "," + other;
      otherOperands.push_back(operands[j]);
    }
    std::string target;
    SmallVector<int64_t> dropped;
    for (auto [position, c] : llvm::enumerate(term)) {
      if (c != '.' && llvm::count(term, c) > 1) {
        why = "the index '" + std::string(1, c) + "' repeats within operand " +
              std::to_string(k) + " of '" + text.str() +
              "' (a diagonal), whose gradient is not an einsum";
        return failure();
      }
      if (llvm::is_contained(others, c))
        target += c;
      else
        dropped.push_back(position);
    }
    if (!dropped.empty() && llvm::is_contained(term, '.')) {
      why = "operand " + std::to_string(k) + " of '" + text.str() +
            "' has an ellipsis and indices only it has";
      return failure();
    }
    // A 0-d output's gradient has no subscripts: it scales the einsum of
    // the other operands instead of taking part in it.
    bool scalarOutput = equation->output.empty();
    if (scalarOutput) {
      otherOperands.erase(otherOperands.begin());
      inputsOfGradient = inputsOfGradient.substr(
          std::min<size_t>(1, inputsOfGradient.size()));
    }
    Value result;
    if (otherOperands.empty() ||
        (otherOperands.size() == 1 && !scalarOutput &&
         target == equation->output)) {
      result = gradient;
    } else {
      std::string gradientEquation =
          aten::EinsumEquation::spell(inputsOfGradient) + "->" +
          aten::EinsumEquation::spell(target);
      Value equationValue = prim::ConstantOp::create(
          builder, loc, prim::StrType::get(context),
          builder.getStringAttr(gradientEquation));
      Value list = prim::ListConstructOp::create(
          builder, loc, prim::ListType::get(context, tensor), otherOperands);
      Value none = prim::ConstantOp::create(
          builder, loc, prim::NoneType::get(context), builder.getUnitAttr());
      result = aten::EinsumOp::create(builder, loc, tensor, equationValue,
                                      list, none);
      if (scalarOutput)
        result = aten::MulTensorOp::create(builder, loc, tensor, result,
                                           gradient);
    }
    // The indices summed over this operand alone, broadcast back.
    for (int64_t position : dropped)
      result = aten::UnsqueezeOp::create(builder, loc, tensor, result,
                                         intValue(position));
    if (!dropped.empty())
      result = aten::ExpandAsOp::create(builder, loc, tensor, result, operand);
    Value sizes = aten::SizeOp::create(
        builder, loc, prim::ListType::get(context, i64), operand);
    gradients.push_back(prim::GenericOp::create(builder, loc,
                                                TypeRange{tensor},
                                                "aten::sum_to_size",
                                                ValueRange{result, sizes},
                                                DictionaryAttr(),
                                                /*blocksCount=*/0)
                            .getResult(0));
  }
  return gradients;
}
