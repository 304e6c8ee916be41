#include "engine/grid.hpp"

#include <gtest/gtest.h>

namespace referee {
namespace {

TEST(Grid, MoveCostCountsDiagonalsAsOneAndAHalfExceptInRetreat) {
  EXPECT_DOUBLE_EQ(MoveCost({0, 0}, {3, 0}), 3.0);
  EXPECT_DOUBLE_EQ(MoveCost({0, 0}, {2, 2}), 3.0);
  EXPECT_DOUBLE_EQ(MoveCost({0, 0}, {3, 1}), 3.5);
  EXPECT_DOUBLE_EQ(MoveCost({0, 0}, {2, 2}, /*retreat=*/true), 2.0);
}

TEST(Grid, SquareOfPointsOnLinesAndOutside) {
  const Grid g{12, 8, 4.0};
  EXPECT_EQ(g.SquareOf({4.0, 0.0}), (Square{1, 0}));
  EXPECT_EQ(g.SquareOf({48.0, 32.0}), (Square{11, 7}));
  EXPECT_FALSE(g.SquareOf({-0.01, 3.0}).has_value());
  EXPECT_EQ(SquareName({0, 0}), "A1");
  EXPECT_EQ(SquareName({27, 4}), "AB5");
}

TEST(Grid, ArcIsPlusMinus45Degrees) {
  EXPECT_TRUE(InArc({5, 5}, Facing::kN, {5, 2}));
  EXPECT_TRUE(InArc({5, 5}, Facing::kN, {7, 3}));   // exactly 45 degrees
  EXPECT_FALSE(InArc({5, 5}, Facing::kN, {8, 4}));  // 71.6 degrees
  EXPECT_TRUE(InArc({5, 5}, Facing::kNE, {8, 5}));  // 45 off the diagonal
  EXPECT_FALSE(InArc({5, 5}, Facing::kNE, {8, 6}));
  EXPECT_TRUE(StraightAhead({5, 5}, Facing::kE, {9, 5}));
  EXPECT_FALSE(StraightAhead({5, 5}, Facing::kE, {9, 4}));
}

TEST(Grid, SquaresBetweenIncludesBothSidesOfACorner) {
  const auto s = SquaresBetween({0, 0}, {2, 2});
  // Through the centre of (1,1), touching corners (0,1)/(1,0) and (1,2)/(2,1).
  EXPECT_EQ(s.size(), 5u);
  const auto straight = SquaresBetween({0, 0}, {0, 3});
  ASSERT_EQ(straight.size(), 2u);
  EXPECT_EQ(straight[0], (Square{0, 1}));
  EXPECT_EQ(straight[1], (Square{0, 2}));
}

}  // namespace
}  // namespace referee
