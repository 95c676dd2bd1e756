//===- EinsumEquation.cpp - aten::einsum's equation, read once ------------===//
//
// torch.einsum's reading of an equation (include/tsir/Dialect/Aten/
// EinsumEquation.h), as torch 1.13's aten/src/ATen/native/Linear.cpp
// parses it: spaces dropped, "..." as one token, the implicit output
// sorted.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/EinsumEquation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tsir::aten;

std::optional<EinsumEquation> EinsumEquation::parse(llvm::StringRef text) {
  // Spaces dropped, each "..." as '.'; a lone '.' or "..", an error.
  std::string compact;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (llvm::isSpace(c))
      continue;
    if (c == '.') {
      if (!text.substr(i).starts_with("..."))
        return std::nullopt;
      i += 2;
    }
    compact += c;
  }
  llvm::StringRef rest(compact);
  auto [left, right] = rest.split("->");
  bool explicitOutput = rest.contains("->");
  auto valid = [](llvm::StringRef term) {
    return llvm::all_of(term, [](char c) { return llvm::isAlpha(c) || c == '.'; }) &&
           llvm::count(term, '.') <= 1;
  };
  EinsumEquation equation;
  llvm::SmallVector<llvm::StringRef> terms;
  left.split(terms, ',');
  bool ellipsis = false;
  for (llvm::StringRef term : terms) {
    if (!valid(term))
      return std::nullopt;
    ellipsis |= hasEllipsis(term);
    equation.inputs.push_back(term.str());
  }
  auto uses = [&](char c) {
    unsigned count = 0;
    for (const std::string &input : equation.inputs)
      count += llvm::count(input, c);
    return count;
  };
  if (explicitOutput) {
    if (!valid(right))
      return std::nullopt;
    for (char c : right)
      if (llvm::count(right, c) != 1 || (c == '.' ? !ellipsis : !uses(c)))
        return std::nullopt;
    equation.output = right.str();
    return equation;
  }
  std::string once;
  for (const std::string &input : equation.inputs)
    for (char c : input)
      if (c != '.' && uses(c) == 1)
        once += c;
  std::sort(once.begin(), once.end());
  equation.output = (ellipsis ? "." : "") + once;
  return equation;
}

std::optional<EinsumEquation>
EinsumEquation::withoutEllipses(llvm::ArrayRef<int64_t> ranks) const {
  if (ranks.size() != inputs.size())
    return std::nullopt;
  // The letters no term uses, for the ellipsis dims.
  std::string fresh;
  auto used = [&](char c) {
    return llvm::any_of(inputs, [&](const std::string &input) {
      return llvm::is_contained(input, c);
    });
  };
  for (char c = 'A'; c <= 'Z'; ++c)
    if (!used(c))
      fresh += c;
  for (char c = 'a'; c <= 'z'; ++c)
    if (!used(c))
      fresh += c;
  // Each operand's ellipsis width; the widest's letters, of which the
  // others take the last (aligned from the right).
  llvm::SmallVector<int64_t> widths;
  int64_t widest = 0;
  for (auto [input, rank] : llvm::zip(inputs, ranks)) {
    bool ellipsis = hasEllipsis(input);
    int64_t letters = input.size() - (ellipsis ? 1 : 0);
    int64_t width = rank - letters;
    if (width < 0 || (!ellipsis && width != 0))
      return std::nullopt;
    widths.push_back(width);
    widest = std::max(widest, width);
  }
  if (widest > static_cast<int64_t>(fresh.size()))
    return std::nullopt;
  std::string letters = fresh.substr(0, widest);
  auto replaced = [](std::string term, llvm::StringRef by) {
    if (size_t at = term.find('.'); at != std::string::npos)
      term.replace(at, 1, by.str());
    return term;
  };
  EinsumEquation result;
  for (auto [input, width] : llvm::zip(inputs, widths))
    result.inputs.push_back(
        replaced(input, llvm::StringRef(letters).take_back(width)));
  result.output = replaced(output, letters);
  return result;
}

std::string EinsumEquation::spell(llvm::StringRef term) {
  std::string text;
  for (char c : term)
    text += c == '.' ? std::string("...") : std::string(1, c);
  return text;
}

std::string EinsumEquation::spell() const {
  std::string text;
  for (auto [index, input] : llvm::enumerate(inputs))
    text += (index ? "," : "") + spell(input);
  return text + "->" + spell(output);
}
