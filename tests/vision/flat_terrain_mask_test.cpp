// Where the board lays flat terrain on the mat (FlatTerrainMask), on a top view drawn straight
// from above: road and water squares whole, drawn road outlines in open squares, and never a
// bridge's square (its deck stands up somewhere in it) or a tall feature's outline.
#include "vision/flat_terrain_mask.hpp"

#include <gtest/gtest.h>

#include "tests/overhead_calibration.hpp"

namespace referee {
namespace {

class FlatTerrainMaskTest : public ::testing::Test {
 protected:
  FlatTerrainMaskTest() : view_(OverheadCalibration(), {.px_per_inch = 20, .margin_in = 1}) {
    board_.grid = Grid{12, 8, 4.0};
  }
  bool FlatAt(const cv::Mat& mask, Vec2 p) const {
    const cv::Point2d q = view_.RectifiedFromTable(p);
    return mask.at<uchar>(cvRound(q.y), cvRound(q.x)) != 0;
  }
  cv::Mat Mask() const { return FlatTerrainMask(board_, view_, view_.size(), 2); }

  TopView view_;
  Board board_;
};

TEST_F(FlatTerrainMaskTest, RoadAndWaterSquaresAreFlatWhole) {
  board_.terrain[{1, 1}] = Terrain::kRoad;
  board_.terrain[{2, 1}] = Terrain::kWater;
  board_.terrain[{3, 1}] = Terrain::kHill;
  const cv::Mat mask = Mask();
  EXPECT_TRUE(FlatAt(mask, {4.3, 4.3}));  // a road square's corner, where no road may run
  EXPECT_TRUE(FlatAt(mask, {10.0, 6.0}));
  EXPECT_FALSE(FlatAt(mask, {14.0, 6.0}));  // a hill stands up
  EXPECT_FALSE(FlatAt(mask, {18.0, 6.0}));  // open mat: the mat's own colour decides there
}

TEST_F(FlatTerrainMaskTest, ABridgeSquareAndTallOutlinesAreNotFlat) {
  board_.terrain[{1, 1}] = Terrain::kBridge;
  board_.terrain[{2, 1}] = Terrain::kRoad;
  // A road drawn on into the open square beside the bridge, and a house drawn into the road.
  board_.features.push_back(
      {"road", Terrain::kRoad, Polygon{{{4.0, 5.5}, {16.0, 5.5}, {16.0, 6.5}, {4.0, 6.5}}}});
  board_.features.push_back(
      {"farm", Terrain::kHouse, Polygon{{{9.0, 6.8}, {11.0, 6.8}, {11.0, 7.8}, {9.0, 7.8}}}});
  const cv::Mat mask = Mask();
  EXPECT_FALSE(FlatAt(mask, {6.0, 6.0}));   // the road across the bridge's square
  EXPECT_FALSE(FlatAt(mask, {6.0, 4.5}));   // and the rest of that square
  EXPECT_FALSE(FlatAt(mask, {10.0, 7.3}));  // the house in the road square
  EXPECT_TRUE(FlatAt(mask, {10.0, 5.0}));
  EXPECT_TRUE(FlatAt(mask, {14.0, 6.0}));   // the drawn road in the open square
  EXPECT_FALSE(FlatAt(mask, {14.0, 7.5}));  // beside it, the open mat
}

}  // namespace
}  // namespace referee
