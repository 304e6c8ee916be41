// Labelling the grid lines of a steeply tilted, cluttered table: lines counted at half their
// spacing are counted again one by one, and a border line without crossings is told from the
// mat beyond it by its own line profiles. Both tables were refused with the right board.
#include <gtest/gtest.h>

#include <variant>

#include "calibration/calibrate_table.hpp"
#include "calibration/lattice_growth.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

// `hard` seed 29 scene 11: the lines of one direction were indexed at half their spacing (every
// crossing on an even label), so the grid looked 15 lines long and the table was refused as
// wrong_size ("spans more lines than the board's").
TEST(GridLineLabels, LinesIndexedAtHalfTheirSpacingAreCountedOneByOne) {
  const SynthScene s = test::GeneratedTable("hard.json", 29, 11);
  test::ExpectCalibratesWithinMm(s, 0.5);
}

// `hard` seed 29 scene 7: no crossing is measured on column line 12 (under sticks and cards,
// blurred), so the coarse line evidence could not say which end of the 12 lines found the
// board's 13th is; the line profiles find that border line in 30 % of its length and nothing on
// the other side. It was refused as wrong_size ("fewer lines than the board's").
TEST(GridLineLabels, BorderLineWithoutCrossingsIsFoundByItsProfiles) {
  const SynthScene s = test::GeneratedTable("hard.json", 29, 7);
  test::ExpectCalibratesWithinMm(s, 0.5);
  // ... and a board one square smaller is still refused there.
  test::ExpectOneSquareSmallerRefused(s);
}

TEST(GridLineLabels, EveryOtherLabelIsClosedUpAndConsecutiveOnesAreKept) {
  std::vector<LatticeCrossing> skipped{{-4, 3, {}}, {-2, 3, {}}, {0, 4, {}}, {2, 5, {}}};
  ASSERT_TRUE(CloseSkippedLines(skipped));
  EXPECT_EQ(skipped[0].i, -4);
  EXPECT_EQ(skipped[1].i, -3);
  EXPECT_EQ(skipped[3].i, -1);
  EXPECT_EQ(skipped[3].j, 5);
  std::vector<LatticeCrossing> consecutive{{0, 0, {}}, {2, 0, {}}, {3, 1, {}}};
  EXPECT_FALSE(CloseSkippedLines(consecutive));
  EXPECT_EQ(consecutive[2].i, 3);
  // Two lines of a direction alone do not tell what lies between them.
  std::vector<LatticeCrossing> two_lines{{0, 0, {}}, {2, 1, {}}, {0, 2, {}}, {2, 3, {}}};
  EXPECT_FALSE(CloseSkippedLines(two_lines));
  EXPECT_EQ(two_lines[1].i, 2);
}

}  // namespace
}  // namespace referee
