// Grid lines a few grey levels deep under noise of half that break, pixel by pixel, into
// fragments too short for the Hough transform, or too few among wood grain and paper edges; their
// darkness summed along a stretch of each line keeps their depth while the noise falls. The lines
// are then found on the true grid, a cluttered `hard` table is calibrated, and the same table
// offered as a board one square smaller is still refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <vector>

#include "calibration/grid_lines.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

// A mat of 80 grey with a 12 x 8 grid of lines 4.5 grey levels deep, 3 px wide after a blur,
// under noise of 2.5 grey levels: `hard` seed 61 scene 3's lines against its mat.
cv::Mat FaintGridUnderNoise() {
  cv::Mat img(1080, 1920, CV_32F, cv::Scalar(80));
  for (int c = 0; c <= 12; ++c) {
    const int x = 500 + c * 75;
    cv::line(img, {x, 240}, {x, 840}, cv::Scalar(74.5), 2);
  }
  for (int r = 0; r <= 8; ++r) {
    const int y = 240 + r * 75;
    cv::line(img, {500, y}, {1400, y}, cv::Scalar(74.5), 2);
  }
  cv::GaussianBlur(img, img, {0, 0}, 1.2);
  cv::Mat noise(img.size(), CV_32F);
  cv::theRNG().state = 61;
  cv::randn(noise, 0, 2.5);
  cv::Mat out;
  cv::Mat(img + noise).convertTo(out, CV_8U);
  return out;
}

// Share of the places along the drawn lines (inside the board, away from the crossings) with
// evidence within 2 px across the line, and share of the bare mat's pixels between the lines
// (over 10 px from any) that are evidence.
std::pair<double, double> OnAndOffLine(const cv::Mat& evidence) {
  auto any = [&](int x0, int x1, int y0, int y1) {
    return cv::countNonZero(evidence(cv::Range(y0, y1 + 1), cv::Range(x0, x1 + 1))) > 0;
  };
  double on = 0, on_n = 0;
  for (int k = 0; k <= 12; ++k) {
    const int x = 500 + k * 75;
    for (int y = 240; y < 840; ++y) {
      if ((y - 240) % 75 < 6 || (y - 240) % 75 > 69) continue;
      on += any(x - 2, x + 3, y, y);
      ++on_n;
    }
  }
  for (int k = 0; k <= 8; ++k) {
    const int y = 240 + k * 75;
    for (int x = 500; x < 1400; ++x) {
      if ((x - 500) % 75 < 6 || (x - 500) % 75 > 69) continue;
      on += any(x, x, y - 2, y + 3);
      ++on_n;
    }
  }
  double off = 0, off_n = 0;
  for (int y = 240; y < 840; ++y) {
    for (int x = 500; x < 1400; ++x) {
      const int dx = (x - 500) % 75, dy = (y - 240) % 75;
      if (std::min(dx, 75 - dx) <= 10 || std::min(dy, 75 - dy) <= 10) continue;
      off += evidence.at<uchar>(y, x) != 0;
      ++off_n;
    }
  }
  return {on / on_n, off / off_n};
}

TEST(SummedLineEvidence, FaintLinesUnderNoiseShowWhenSummedAlongThem) {
  const cv::Mat gray = FaintGridUnderNoise();
  GridLineOptions faint;
  faint.min_darkness_grey = 3.0;
  faint.min_relative_darkness = 0.04;
  const auto [on_pixel, off_pixel] = OnAndOffLine(LineEvidence(gray, faint));
  GridLineOptions summed = faint;
  summed.along_line_mean_px = 24;
  const auto [on_summed, off_summed] = OnAndOffLine(LineEvidence(gray, summed));
  // Pixel by pixel the lines show in pieces; summed along them nearly whole, and the bare mat
  // between them stays clear.
  EXPECT_LT(on_pixel, 0.5);
  EXPECT_GT(on_summed, 0.9);
  EXPECT_LT(off_summed, 0.01);
  ASSERT_TRUE(FindGridLines(gray, summed).has_value());
}

// ... and pure noise of the same level summed along every direction is still no line.
TEST(SummedLineEvidence, NoiseAloneSummedAlongLinesIsNoGrid) {
  cv::Mat noise(1080, 1920, CV_8U);
  cv::theRNG().state = 7;
  cv::randn(noise, cv::Scalar(80), cv::Scalar(2.5));
  GridLineOptions summed;
  summed.min_darkness_grey = 3.0;
  summed.min_relative_darkness = 0.04;
  summed.along_line_mean_px = 24;
  EXPECT_FALSE(FindGridLines(noise, summed).has_value());
}

// Median distance (px) from the found line to the true grid line x = at_in (on_col) or y = at_in
// as the scene's camera draws it, over its points in view.
double DistanceToTrueLine(const SynthScene& s, const IndexedLine& l, bool on_col, double at_in) {
  const Grid& g = s.board.grid;
  std::vector<double> d;
  for (int k = 0; k <= 40; ++k) {
    const double f = (on_col ? g.Height() : g.Width()) * k / 40;
    const cv::Point2d p = s.camera.ImageFromTable(on_col ? Vec2{at_in, f} : Vec2{f, at_in});
    if (p.x < 0 || p.y < 0 || p.x >= s.empty.cols || p.y >= s.empty.rows) continue;
    d.push_back(std::abs(p.x * std::cos(l.theta) + p.y * std::sin(l.theta) - l.rho));
  }
  if (d.empty()) return 1e9;
  std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
  return d[d.size() / 2];
}

// Lines found on a true grid line (within 3 px): at least `min_per_direction` of each direction
// and at least `min_share` of all found, each direction's on lines of one direction of the board,
// numbered as the board numbers them (up to a shift and a reversal).
void ExpectFoundLinesOnTheTrueGrid(const SynthScene& s, const GridLineFamilies& fam,
                                   size_t min_per_direction, double min_share) {
  const Grid& g = s.board.grid;
  size_t found = 0, on_grid = 0;
  for (const auto* family : {&fam.a, &fam.b}) {
    std::vector<std::pair<int, int>> index_and_true;  // (found index, true line number)
    std::optional<bool> on_col;
    for (const IndexedLine& l : *family) {
      ++found;
      int best_index = -1;
      bool best_col = false;
      double best = 1e9;
      for (bool col : {true, false}) {
        for (int i = 0; i <= (col ? g.cols : g.rows); ++i) {
          const double d = DistanceToTrueLine(s, l, col, i * g.square_size_in);
          if (d < best) {
            best = d;
            best_index = i;
            best_col = col;
          }
        }
      }
      if (best >= 3.0) continue;
      if (!on_col) on_col = best_col;
      EXPECT_EQ(*on_col, best_col) << "line " << l.index << " is of the other direction";
      index_and_true.emplace_back(l.index, best_index);
    }
    on_grid += index_and_true.size();
    EXPECT_GE(index_and_true.size(), min_per_direction);
    if (index_and_true.size() < 2) continue;
    const auto [i0, t0] = index_and_true.front();
    const auto [i1, t1] = index_and_true[1];
    const int sign = (t1 - t0) * (i1 - i0) > 0 ? 1 : -1;
    for (const auto& [i, t] : index_and_true) {
      EXPECT_EQ(t - t0, sign * (i - i0)) << "line " << i << " numbered wrongly";
    }
  }
  EXPECT_GE(static_cast<double>(on_grid), min_share * static_cast<double>(found));
}

// `hard` seed 61 scene 3: lines 4.4 grey levels deep against 2.2 of noise, papers and rulers over
// a small turned board; pixel by pixel no lines were found at all. Summed along them, lines of
// both directions are found where the board's lines run, numbered right (2 of 17 found lie on
// the paper and ruler edges beside the grid, at an index the grid's spacing allows; the camera
// fit's robust homography drops their crossings). (The table is still
// refused: papers and rulers hide all but 0.32 of the board's lines even through the true camera,
// under the 0.4 asked.)
TEST(SummedLineEvidence, FaintHardTableLinesAreFoundOnTheTrueGrid) {
  const SynthScene s = test::GeneratedTable("hard.json", 61, 3);
  cv::Mat gray;
  cv::cvtColor(s.empty, gray, cv::COLOR_BGR2GRAY);
  GridLineOptions faint;
  faint.min_darkness_grey = 3.0;
  faint.min_relative_darkness = 0.04;
  EXPECT_FALSE(FindGridLines(gray, faint).has_value());
  GridLineOptions summed = faint;
  summed.along_line_mean_px = 24;
  const auto fam = FindGridLines(gray, summed);
  ASSERT_TRUE(fam.has_value());
  ExpectFoundLinesOnTheTrueGrid(s, *fam, 5, 0.75);
}

// `hard` seed 41 scene 7: the faint attempt found 3 x 8 lines, numbered at a multiple of their
// spacing among wood grain and paper edges, and the table was refused; with the darkness summed
// along the lines it is found and placed within 0.5 mm.
TEST(SummedLineEvidence, HardTableWithLinesAmongClutterCalibrates) {
  test::ExpectCalibratesWithinMm(test::GeneratedTable("hard.json", 41, 7), 0.5);
}

TEST(SummedLineEvidence, HardTableWithLinesAmongClutterOfABoardOneSquareSmallerIsRefused) {
  test::ExpectOneSquareSmallerRefused(test::GeneratedTable("hard.json", 41, 7));
}

}  // namespace
}  // namespace referee
