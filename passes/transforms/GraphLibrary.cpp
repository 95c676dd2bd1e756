//===- GraphLibrary.cpp - Files of graphs keyed by op schema --------------===//
//
// Splits a library file at its header lines and imports each graph on its
// own through the prim dialect's TorchScript reader. Each piece is padded
// with the blank lines before it, so that an error in a graph names its
// line in the file.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/GraphLibrary.h"

#include "FoldUtils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Dialect/Prim/TorchTypeText.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tsir;

/// The header word `line` starts with, and the schemas after it; an empty
/// word for a line that starts no entry.
static StringRef headerWord(StringRef line, ArrayRef<StringRef> words,
                            StringRef &schemas) {
  for (StringRef word : words)
    if (line.starts_with(word) && line.drop_front(word.size()).starts_with(" ")) {
      schemas = line.drop_front(word.size()).trim();
      return word;
    }
  return {};
}

LogicalResult tsir::readGraphLibrary(
    ModuleOp into, StringRef text, StringRef fileName,
    ArrayRef<StringRef> graphWords, ArrayRef<StringRef> listWords,
    function_ref<LogicalResult(const GraphLibraryEntry &)> onEntry) {
  MLIRContext *context = into.getContext();
  OpBuilder builder(into.getBodyRegion());
  SmallVector<StringRef> words(graphWords.begin(), graphWords.end());
  words.append(listWords.begin(), listWords.end());

  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  auto readEntry = [&](StringRef word, StringRef schemas, size_t first,
                       size_t end) -> LogicalResult {
    GraphLibraryEntry entry;
    entry.word = word;
    entry.line = first;
    schemas.split(entry.schemas, ' ', -1, /*KeepEmpty=*/false);
    if (llvm::is_contained(graphWords, word)) {
      // Blank lines for everything above, so locations are the file's.
      std::string piece(first, '\n');
      for (size_t i = first; i < end; ++i)
        if (!lines[i].starts_with("#"))
          piece += (lines[i] + "\n").str();
      OwningOpRef<ModuleOp> module =
          prim::importTorchGraphText(context, piece, fileName);
      if (!module)
        return failure();
      auto graph = module->lookupSymbol<func::FuncOp>("graph");
      if (!graph)
        return emitError(UnknownLoc::get(context))
               << fileName << ":" << first << ": no graph for " << schemas;
      graph->remove();
      graph.setSymName((word + " " + schemas).str());
      builder.insert(graph);
      entry.graph = graph;
    }
    return onEntry(entry);
  };

  StringRef word, schemas;
  size_t first = 0;
  for (size_t i = 0; i <= lines.size(); ++i) {
    StringRef nextSchemas;
    StringRef next =
        i < lines.size() ? headerWord(lines[i], words, nextSchemas) : "";
    if (i < lines.size() && next.empty())
      continue;
    if (!word.empty() && failed(readEntry(word, schemas, first, i)))
      return failure();
    word = next;
    schemas = nextSchemas;
    first = i + 1;
  }
  return success();
}

llvm::StringSet<> tsir::graphLibrarySchemas(StringRef text,
                                             ArrayRef<StringRef> words) {
  llvm::StringSet<> names;
  SmallVector<StringRef> lines, schemas;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef listed;
    if (headerWord(line, words, listed).empty())
      continue;
    schemas.clear();
    listed.split(schemas, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef schema : schemas)
      names.insert(schema);
  }
  return names;
}

std::string tsir::schemaOf(Operation *op) {
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    std::string schema = generic.getKind().str();
    if (auto overload = op->getAttrOfType<StringAttr>("tsir.overload");
        overload && !overload.getValue().empty())
      schema += "." + overload.getValue().str();
    return schema;
  }
  if (isa_and_nonnull<aten::AtenDialect>(op->getDialect()))
    return ("aten::" + op->getName().stripDialect()).str();
  if (isa_and_nonnull<prim::PrimDialect>(op->getDialect()))
    return ("prim::" + op->getName().stripDialect()).str();
  return op->getName().getStringRef().str();
}

void tsir::cloneGraphBodyAt(OpBuilder &builder, Block &body,
                            IRMapping &mapping, Location loc) {
  for (Operation &inner : body.without_terminator()) {
    Operation *copy = builder.clone(inner, mapping);
    copy->walk([&](Operation *nested) { nested->setLoc(loc); });
  }
}

LogicalResult tsir::inlineGraphAt(RewriterBase &rewriter, Operation *op,
                                  func::FuncOp graph) {
  Block &body = graph.front();
  Operation *terminator = body.getTerminator();
  if (body.getNumArguments() != op->getNumOperands() ||
      terminator->getNumOperands() != op->getNumResults())
    return failure();
  IRMapping mapping;
  mapping.map(body.getArguments(), op->getOperands());
  Location loc = withoutResultNames(op->getLoc());
  rewriter.setInsertionPoint(op);
  cloneGraphBodyAt(rewriter, body, mapping, loc);
  SmallVector<Value> replacements;
  for (auto [result, returned] :
       llvm::zip(op->getResults(), terminator->getOperands())) {
    Value value = mapping.lookupOrDefault(returned);
    Type type = result.getType();
    if (value.getType() != type) {
      // The graph types its values as torch's schemas do (`Tensor`); the
      // result may be refined already. A plain op's copy takes the refined
      // type; anything else (an operand passed through, a prim.If's result,
      // whose branches yield the graph's type) is cast.
      Operation *copied = value.getDefiningOp();
      if (isa<OpResult>(returned) && copied->getNumRegions() == 0)
        rewriter.modifyOpInPlace(copied, [&] { value.setType(type); });
      else
        value = castTo(rewriter, loc, value, type);
    }
    replacements.push_back(value);
  }
  rewriter.replaceOp(op, replacements);
  return success();
}
