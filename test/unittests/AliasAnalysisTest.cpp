//===- AliasAnalysisTest.cpp - TorchScript's alias rules, queried ---------===//
//
// Builds tsir::AliasAnalysis over small graphs and checks its answers: the
// ones every pass relies on (views alias, in-place results alias, graph
// inputs may alias each other, what goes into a list becomes unknown
// memory, loops and ifs merge what flows through them, opaque ops write
// everything) and the ones that keep optimization possible (fresh values
// alias nothing, a write to one fresh value leaves the others unwritten).
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/AliasAnalysis.h"

#include "tsir/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// Parses one function and names its values by the `tag` attribute of the
/// op defining them (`{tag = "z"}`), or `argN` for arguments.
class AliasAnalysisTest : public ::testing::Test {
protected:
  AliasAnalysisTest() {
    DialectRegistry registry;
    tsir::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  func::FuncOp parse(StringRef body, StringRef args) {
    source = ("func.func @f(" + args + ") {\n" + body + "\n  return\n}").str();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << source;
    auto func = cast<func::FuncOp>(module->getBody()->front());
    values.clear();
    for (BlockArgument arg : func.getArguments())
      values["arg" + std::to_string(arg.getArgNumber())] = arg;
    func.walk([&](Operation *op) {
      if (auto tag = op->getAttrOfType<StringAttr>("tag")) {
        ops[tag.getValue()] = op;
        if (op->getNumResults())
          values[tag.getValue()] = op->getResult(0);
      }
    });
    return func;
  }

  Value v(StringRef name) {
    EXPECT_TRUE(values.count(name)) << name.str();
    return values.lookup(name);
  }

  MLIRContext context;
  std::string source;
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<Value> values;
  llvm::StringMap<Operation *> ops;
};

constexpr StringLiteral kTwoTensors =
    "%arg0: !prim.tensor, %arg1: !prim.tensor";

TEST_F(AliasAnalysisTest, FreshValuesAndInPlaceWrites) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %one = prim.Constant {value = 1 : i64} : i64
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.clone %arg0, %none {tag = "w"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %r = aten.add_.Tensor %z, %arg1, %one {tag = "r"} : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %s = aten.add.Tensor %w, %arg1, %one {tag = "s"} : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(aa.mayAlias(v("r"), v("z")));  // the in-place result is z
  EXPECT_FALSE(aa.mayAlias(v("z"), v("w"))); // two fresh clones
  EXPECT_FALSE(aa.mayAlias(v("z"), v("arg0")));
  EXPECT_FALSE(aa.mayAlias(v("s"), v("w"))); // add makes a new tensor
  EXPECT_TRUE(aa.hasWriters(v("z")));
  EXPECT_FALSE(aa.hasWriters(v("w")));
  EXPECT_FALSE(aa.hasWriters(v("arg0")));
  EXPECT_TRUE(aa.writesToAlias(ops["r"], ValueRange{v("z")}));
  EXPECT_FALSE(aa.writesToAlias(ops["r"], ValueRange{v("w")}));
  EXPECT_FALSE(aa.writesMemory(ops["s"]));
  EXPECT_FALSE(aa.mayAliasWildcard(v("z")));
  EXPECT_EQ(aa.aliasesOf(v("z")).size(), 2u); // z and r
}

TEST_F(AliasAnalysisTest, GraphInputsMayAliasEachOther) {
  func::FuncOp func = parse(R"mlir(
  %one = prim.Constant {value = 1 : i64} : i64
  %r = aten.mul_.Tensor %arg0, %arg1 {tag = "r"} : (!prim.tensor, !prim.tensor) -> !prim.tensor
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(aa.mayAlias(v("arg0"), v("arg1")));
  EXPECT_TRUE(aa.mayAliasWildcard(v("arg0")));
  // Writing one input may write the other.
  EXPECT_TRUE(aa.hasWriters(v("arg1")));
}

TEST_F(AliasAnalysisTest, ViewsAliasTheirBase) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %one = prim.Constant {value = 1 : i64} : i64
  %shape = prim.Constant {value = [-1 : i64]} : !prim.list<i64>
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %v = aten.view %z, %shape {tag = "v"} : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %r = aten.add_.Scalar %v, %one, %one {tag = "r"} : (!prim.tensor, i64, i64) -> !prim.tensor
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(aa.mayAlias(v("v"), v("z")));
  EXPECT_TRUE(aa.hasWriters(v("z"))); // written through the view
  EXPECT_FALSE(aa.hasWriters(v("arg0")));
}

TEST_F(AliasAnalysisTest, ListElementsAreUnknownMemory) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.clone %arg0, %none {tag = "w"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %l = prim.ListConstruct %z {tag = "l"} : (!prim.tensor) -> !prim.list<!prim.tensor>
  %l2 = aten.append.t %l, %w {tag = "append"} : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(aa.mayAliasWildcard(v("z")));
  EXPECT_TRUE(aa.mayAliasWildcard(v("w"))); // `t(c -> *)`
  EXPECT_TRUE(aa.mayAlias(v("z"), v("arg0")));
  EXPECT_FALSE(aa.mayAliasWildcard(v("l"))); // the list itself is fresh
  EXPECT_TRUE(aa.hasWriters(v("l")));        // appended to
  EXPECT_TRUE(aa.mayAlias(v("l"), v("append")));
  EXPECT_FALSE(aa.hasWriters(v("z"))); // the append writes the list only
}

TEST_F(AliasAnalysisTest, ControlFlowMergesWhatFlowsThrough) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %true = prim.Constant {value = true} : i1
  %n = prim.Constant {value = 3 : i64} : i64
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.clone %arg0, %none {tag = "w"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %u = aten.clone %arg0, %none {tag = "u"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %i = prim.If %true -> (!prim.tensor) {
    prim.Yield %z : !prim.tensor
  } else {
    prim.Yield %w : !prim.tensor
  } {tag = "if"}
  %l = prim.Loop %n, %true, %u : !prim.tensor -> (!prim.tensor) {
  ^bb0(%it: i64, %c: !prim.tensor):
    %next = aten.relu_ %c {tag = "relu_"} : (!prim.tensor) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  } {tag = "loop"}
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(aa.mayAlias(v("if"), v("z")));
  EXPECT_TRUE(aa.mayAlias(v("if"), v("w")));
  EXPECT_TRUE(aa.mayAlias(v("loop"), v("u")));
  EXPECT_FALSE(aa.mayAlias(v("loop"), v("z")));
  // The write inside the body counts for the loop and reaches its input.
  EXPECT_TRUE(aa.hasWriters(v("u")));
  EXPECT_TRUE(aa.writesMemory(ops["loop"]));
  EXPECT_FALSE(aa.writesMemory(ops["if"]));
  EXPECT_FALSE(aa.hasWriters(v("z")));
}

TEST_F(AliasAnalysisTest, TuplesStandForWhatTheyHold) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.clone %arg0, %none {tag = "w"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %t = prim.TupleConstruct %z {tag = "t"} : (!prim.tensor) -> !prim.tuple<!prim.tensor>
  %e = prim.TupleUnpack %t {tag = "e"} : (!prim.tuple<!prim.tensor>) -> !prim.tensor
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(aa.mayAlias(v("e"), v("z")));
  EXPECT_FALSE(aa.mayAlias(v("e"), v("w")));
  EXPECT_FALSE(aa.mayAliasWildcard(v("e")));
}

TEST_F(AliasAnalysisTest, OpaqueOpsTouchEverything) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.clone %arg0, %none {tag = "w"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %g = prim.Generic "my::magic"(%z) {tag = "g"} : (!prim.tensor) -> !prim.tensor
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_TRUE(tsir::hasSideEffects(ops["g"]));
  EXPECT_TRUE(aa.mayAliasWildcard(v("z")));
  EXPECT_TRUE(aa.mayAliasWildcard(v("g")));
  EXPECT_TRUE(aa.hasWriters(v("z")));
  EXPECT_TRUE(aa.hasWriters(v("arg0")));
  EXPECT_FALSE(aa.hasWriters(v("w"))); // never reached the opaque op
}

TEST_F(AliasAnalysisTest, RandomOpsAreNondeterministic) {
  func::FuncOp func = parse(R"mlir(
  %p = prim.Constant {value = 5.000000e-01 : f64} : f64
  %false = prim.Constant {value = false} : i1
  %true = prim.Constant {value = true} : i1
  %a = aten.dropout %arg0, %p, %false {tag = "eval"} : (!prim.tensor, f64, i1) -> !prim.tensor
  %b = aten.dropout %arg0, %p, %true {tag = "train"} : (!prim.tensor, f64, i1) -> !prim.tensor
  %none = prim.Constant {value} : !prim.none
  %c = aten.rand_like %arg0, %none, %none, %none, %none, %none {tag = "rand"} : (!prim.tensor, !prim.none, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
)mlir",
                            kTwoTensors);
  (void)func;
  EXPECT_TRUE(tsir::isNondeterministic(ops["rand"]));
  EXPECT_FALSE(tsir::isNondeterministic(ops["eval"]));
  EXPECT_TRUE(tsir::isNondeterministic(ops["train"]));
  EXPECT_FALSE(tsir::hasSideEffects(ops["train"]));
}

} // namespace

namespace {

// None holds no memory: the None of an `(out, None)` tuple (torch.norm's
// and F.normalize's out= overloads return one) and a None cast to a
// tensor alias nothing, where they were the wildcard, whose writes reach
// every graph input.
TEST_F(AliasAnalysisTest, NoneAliasesNothing) {
  func::FuncOp func = parse(R"mlir(
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %arg0, %none {tag = "z"} : (!prim.tensor, !prim.none) -> !prim.tensor
  %t = prim.TupleConstruct %z, %none {tag = "t"} : (!prim.tensor, !prim.none) -> !prim.tuple<!prim.tensor, !prim.none>
  %c = prim.unchecked_cast %none {tag = "c"} : (!prim.none) -> !prim.tensor
)mlir",
                            kTwoTensors);
  tsir::AliasAnalysis aa(func);
  EXPECT_FALSE(aa.mayAliasWildcard(v("t")));
  EXPECT_TRUE(aa.mayAlias(v("t"), v("z"))); // the tuple holds z
  EXPECT_FALSE(aa.mayAliasWildcard(v("c")));
  EXPECT_FALSE(aa.mayAlias(v("c"), v("arg0")));
  EXPECT_FALSE(aa.mayAliasWildcard(v("z")));
}

} // namespace
