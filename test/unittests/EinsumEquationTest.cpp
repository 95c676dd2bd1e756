//===- EinsumEquationTest.cpp - aten::EinsumEquation against torch's rules ===//
//
// The one reading of an einsum equation that shape refinement, the
// lowering and the gradient share: torch's implicit output (labels used
// once, sorted, after the ellipsis), its errors (a stray '.', two
// ellipses, an output label the inputs lack or repeat), and the ellipsis
// expanded into fresh letters aligned from the right.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/EinsumEquation.h"

#include <gtest/gtest.h>

using tsir::aten::EinsumEquation;

namespace {

std::vector<std::string> inputsOf(const EinsumEquation &equation) {
  return {equation.inputs.begin(), equation.inputs.end()};
}

TEST(EinsumEquationTest, ExplicitOutput) {
  std::optional<EinsumEquation> e = EinsumEquation::parse(" ij, jk -> ik ");
  ASSERT_TRUE(e);
  EXPECT_EQ(inputsOf(*e), (std::vector<std::string>{"ij", "jk"}));
  EXPECT_EQ(e->output, "ik");
}

TEST(EinsumEquationTest, ImplicitOutputIsSortedLabelsUsedOnce) {
  // torch.einsum("ba,cb", ...) has output "ac": 'b' is summed, and upper
  // case sorts before lower case.
  std::optional<EinsumEquation> e = EinsumEquation::parse("ba,cbB");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->output, "Bac");
  // A label repeated within one operand (a trace) is not in the output.
  e = EinsumEquation::parse("ii");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->output, "");
}

TEST(EinsumEquationTest, ImplicitOutputPutsTheEllipsisFirst) {
  std::optional<EinsumEquation> e = EinsumEquation::parse("...ij,jk");
  ASSERT_TRUE(e);
  EXPECT_EQ(inputsOf(*e), (std::vector<std::string>{".ij", "jk"}));
  EXPECT_EQ(e->output, ".ik");
  EXPECT_EQ(e->spell(), "...ij,jk->...ik");
}

TEST(EinsumEquationTest, RejectsWhatTorchRejects) {
  EXPECT_FALSE(EinsumEquation::parse("i..j->ij"));     // not "..."
  EXPECT_FALSE(EinsumEquation::parse("...i...->i"));   // two ellipses
  EXPECT_FALSE(EinsumEquation::parse("ij->ik"));       // 'k' is no input's
  EXPECT_FALSE(EinsumEquation::parse("ij->ii"));       // repeated in output
  EXPECT_FALSE(EinsumEquation::parse("ij->..."));      // no input ellipsis
  EXPECT_FALSE(EinsumEquation::parse("i1,j->ij"));     // not a letter
}

TEST(EinsumEquationTest, EllipsesBecomeFreshLettersAlignedRight) {
  // Ranks 4 and 1: the first ellipsis covers 3 dims, the second 1, which
  // broadcasts with the first's last.
  std::optional<EinsumEquation> e = EinsumEquation::parse("...i,...->...");
  ASSERT_TRUE(e);
  std::optional<EinsumEquation> plain = e->withoutEllipses({4, 1});
  ASSERT_TRUE(plain);
  EXPECT_EQ(inputsOf(*plain), (std::vector<std::string>{"ABCi", "C"}));
  EXPECT_EQ(plain->output, "ABC");
  // A rank that does not fit the term's letters.
  EXPECT_FALSE(e->withoutEllipses({0, 2}));
  EXPECT_FALSE(EinsumEquation::parse("ij")->withoutEllipses({3}));
}

} // namespace
