//===- GraphLibraryTest.cpp - Files of graphs keyed by op schema ----------===//
//
// Reads small graph library files (the format of derivatives.txt and
// decompositions.txt, GraphLibrary.h) and checks what a reader of them
// relies on: entries come in order with their schemas, words and lines;
// words that take no graph take none; a graph that does not import fails
// with its line in the file; an op's schema names its overload; and
// inlineGraphAt puts a graph in an op's place with the op's result types.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/GraphLibrary.h"

#include "tsir/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class GraphLibraryTest : public ::testing::Test {
protected:
  GraphLibraryTest() {
    DialectRegistry registry;
    tsir::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    library = ModuleOp::create(UnknownLoc::get(&context));
  }

  /// Reads `text`, collecting its entries; the diagnostics go to `errors`.
  LogicalResult read(StringRef text) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      llvm::raw_string_ostream os(errors);
      os << diagnostic.getLocation() << ": " << diagnostic.str() << "\n";
      return success();
    });
    return tsir::readGraphLibrary(
        *library, text, "lib.txt", {"decomposition"}, {"opaque"},
        [&](const tsir::GraphLibraryEntry &entry) {
          entries.push_back(entry);
          return success();
        });
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> library;
  std::vector<tsir::GraphLibraryEntry> entries;
  std::string errors;
};

constexpr StringLiteral kTwoEntries = R"(# a comment
opaque aten::a aten::b

# the identity
decomposition aten::identity
graph(%x : Tensor):
  return (%x)
)";

TEST_F(GraphLibraryTest, ReadsEntriesInOrderWithTheirLines) {
  ASSERT_TRUE(succeeded(read(kTwoEntries))) << errors;
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].word, "opaque");
  ASSERT_EQ(entries[0].schemas.size(), 2u);
  EXPECT_EQ(entries[0].schemas[1], "aten::b");
  EXPECT_EQ(entries[0].line, 2u);
  EXPECT_FALSE(entries[0].graph);
  EXPECT_EQ(entries[1].word, "decomposition");
  EXPECT_EQ(entries[1].line, 5u);
  ASSERT_TRUE(entries[1].graph);
  EXPECT_EQ(entries[1].graph.getNumArguments(), 1u);
  EXPECT_EQ(entries[1].graph->getParentOp(), library->getOperation());
}

TEST_F(GraphLibraryTest, AGraphThatDoesNotImportNamesItsLine) {
  constexpr StringLiteral text = R"(opaque aten::a

decomposition aten::broken
graph(%x : Tensor):
  %y : Tensor = aten::relu(%undefined)
  return (%y)
)";
  EXPECT_TRUE(failed(read(text)));
  EXPECT_NE(errors.find("undefined value '%undefined'"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("\"lib.txt\":5:"), std::string::npos) << errors;
}

TEST_F(GraphLibraryTest, AGraphWordWithoutAGraphIsAnError) {
  EXPECT_TRUE(failed(read("decomposition aten::nothing\n")));
  EXPECT_FALSE(errors.empty());
}

TEST_F(GraphLibraryTest, InlinesAGraphWithTheOpsResultTypes) {
  constexpr StringLiteral text = R"(decomposition aten::double_it
graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::add(%x, %x, %one)
  return (%y)
)";
  ASSERT_TRUE(succeeded(read(text))) << errors;
  constexpr StringLiteral source = R"(
func.func @f(%x: !prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [2]> {
  %0 = prim.Generic "aten::double_it"(%x) {tsir.overload = ""} : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2]>
})";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  Operation *node = &f.front().front();
  EXPECT_EQ(tsir::schemaOf(node), "aten::double_it");
  IRRewriter rewriter(&context);
  ASSERT_TRUE(succeeded(tsir::inlineGraphAt(rewriter, node, entries[0].graph)));
  ASSERT_TRUE(succeeded(verify(*module)));
  Operation *returned = f.front().getTerminator()->getOperand(0).getDefiningOp();
  ASSERT_TRUE(returned);
  EXPECT_EQ(returned->getName().getStringRef(), "aten.add.Tensor");
  EXPECT_EQ(returned->getResult(0).getType(), f.getResultTypes()[0]);
}

TEST_F(GraphLibraryTest, AnArityMismatchChangesNothing) {
  ASSERT_TRUE(succeeded(read(kTwoEntries))) << errors;
  constexpr StringLiteral source = R"(
func.func @f(%x: !prim.tensor, %y: !prim.tensor) -> !prim.tensor {
  %0 = prim.Generic "aten::identity"(%x, %y) : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
})";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  Operation *node = &f.front().front();
  IRRewriter rewriter(&context);
  EXPECT_TRUE(failed(tsir::inlineGraphAt(rewriter, node, entries[1].graph)));
  EXPECT_EQ(&f.front().front(), node);
}

} // namespace
