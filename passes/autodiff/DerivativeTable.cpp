//===- DerivativeTable.cpp - The derivative formulas, read once -----------===//
//
// Splits derivatives.txt at its `derivative SCHEMA`, `decomposition
// SCHEMA` and `nondifferentiable SCHEMA` lines and imports each graph on
// its own (a `nondifferentiable` entry has none). Each piece is padded
// with the blank lines before it, so that an error in a formula names its
// line in derivatives.txt.
//
//===----------------------------------------------------------------------===//

#include "DerivativeTable.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Dialect/Prim/TorchTypeText.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::autodiff;

static constexpr llvm::StringLiteral kDerivativesText =
#include "DerivativesText.inc"
    ;

static constexpr llvm::StringLiteral kFormulaHeader = "derivative ";
static constexpr llvm::StringLiteral kDecompositionHeader = "decomposition ";
static constexpr llvm::StringLiteral kNondifferentiableHeader =
    "nondifferentiable ";

namespace {
/// The kinds of entries, by the word that starts their header line.
enum class EntryKind { None, Formula, Decomposition, Nondifferentiable };
} // namespace

static EntryKind entryKindOf(StringRef line, StringRef &schemas) {
  for (auto [header, kind] :
       {std::pair{kFormulaHeader, EntryKind::Formula},
        std::pair{kDecompositionHeader, EntryKind::Decomposition},
        std::pair{kNondifferentiableHeader, EntryKind::Nondifferentiable}})
    if (line.starts_with(header)) {
      schemas = line.drop_front(header.size()).trim();
      return kind;
    }
  return EntryKind::None;
}

FailureOr<DerivativeTable> DerivativeTable::load(MLIRContext *context) {
  DerivativeTable table;
  table.formulas = std::make_shared<OwningOpRef<ModuleOp>>(
      ModuleOp::create(UnknownLoc::get(context)));
  ModuleOp into = table.formulas->get();
  OpBuilder builder(into.getBodyRegion());

  llvm::SmallVector<StringRef> lines;
  kDerivativesText.split(lines, '\n');
  auto twice = [&](size_t first, StringRef name) {
    return emitError(UnknownLoc::get(context))
           << "derivatives.txt:" << first << ": " << name
           << " has two entries of one kind";
  };
  auto importEntry = [&](StringRef schema, EntryKind kind, size_t first,
                         size_t end) -> LogicalResult {
    // One entry may serve several schemas (`nll_loss nll_loss_nd`).
    llvm::SmallVector<StringRef> names;
    schema.split(names, ' ', -1, /*KeepEmpty=*/false);
    if (kind == EntryKind::Nondifferentiable) {
      for (StringRef name : names)
        if (!table.nondifferentiable.insert(name).second)
          return twice(first, name);
      return success();
    }
    // Blank lines for everything above, so locations are the file's.
    std::string text(first, '\n');
    for (size_t i = first; i < end; ++i)
      if (!lines[i].starts_with("#"))
        text += (lines[i] + "\n").str();
    OwningOpRef<ModuleOp> module =
        prim::importTorchGraphText(context, text, "derivatives.txt");
    if (!module)
      return failure();
    auto graph = module->lookupSymbol<func::FuncOp>("graph");
    if (!graph)
      return emitError(UnknownLoc::get(context))
             << "derivatives.txt:" << first << ": no graph for " << schema;
    bool decomposition = kind == EntryKind::Decomposition;
    auto &entries = decomposition ? table.decompositions : table.bySchema;
    for (StringRef name : names) {
      if (entries.count(name))
        return twice(first, name);
      auto copy = cast<func::FuncOp>(graph->clone());
      copy.setSymName((decomposition ? "decomposition " : "") + name.str());
      builder.insert(copy);
      entries[name] = copy;
    }
    return success();
  };

  StringRef schema;
  EntryKind kind = EntryKind::None;
  size_t first = 0;
  for (size_t i = 0; i <= lines.size(); ++i) {
    StringRef nextSchema;
    EntryKind next = i < lines.size() ? entryKindOf(lines[i], nextSchema)
                                      : EntryKind::None;
    if (i < lines.size() && next == EntryKind::None)
      continue;
    if (kind != EntryKind::None && failed(importEntry(schema, kind, first, i)))
      return failure();
    kind = next;
    schema = nextSchema;
    first = i + 1;
  }
  return table;
}

std::string DerivativeTable::schemaOf(Operation *op) {
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

func::FuncOp DerivativeTable::lookup(Operation *op) const {
  return bySchema.lookup(schemaOf(op));
}

func::FuncOp DerivativeTable::lookupDecomposition(Operation *op) const {
  return decompositions.lookup(schemaOf(op));
}

bool DerivativeTable::isNondifferentiable(Operation *op) const {
  return nondifferentiable.contains(schemaOf(op));
}
