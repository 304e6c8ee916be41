#include "vision/blurred_growth.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>

#include "engine/geometry.hpp"
#include "vision/blurred_ring_fit.hpp"
#include "vision/catalogue_extension.hpp"

namespace referee {

namespace {

// Median departure along r's side `side` (BandFraction's numbering), over its middle 80 %.
double SeamDeparture(const cv::Mat& dep, const PxRect& r, int side) {
  const cv::Point2d b = r.AxisB();
  const cv::Point2d outward[4] = {-r.axis_a, r.axis_a, -b, b};
  const cv::Point2d n = outward[side];
  const cv::Point2d t(-n.y, n.x);
  const double half_len = 0.5 * (side < 2 ? r.len_b : r.len_a);
  const double half_other = 0.5 * (side < 2 ? r.len_a : r.len_b);
  std::vector<double> v;
  for (double u = -0.8 * half_len; u <= 0.8 * half_len; u += 1.0) {
    const cv::Point2d p = r.center + half_other * n + u * t;
    const int x = cvRound(p.x), y = cvRound(p.y);
    if (x >= 0 && y >= 0 && x < dep.cols && y < dep.rows) v.push_back(dep.at<float>(y, x));
  }
  if (v.empty()) return 0.0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

void GrowShortBasesOnBlurredBand(const cv::Mat& chroma, const cv::Mat& valid,
                                 const cv::Vec2f& mat_chroma, const std::vector<SideColor>& sides,
                                 double mm, const std::vector<BaseSize>& sizes,
                                 double size_tolerance_mm, double border_mm, double blur_mm,
                                 const BlurredGrowthOptions& options,
                                 std::vector<std::vector<PxRect>>& rects) {
  const int reach_px = std::max(1, static_cast<int>(std::lround(options.centre_search_mm / mm)));
  const std::vector<double> turns{DegToRad(-4.0), DegToRad(-2.0), 0.0, DegToRad(2.0),
                                  DegToRad(4.0)};
  for (size_t s = 0; s < rects.size() && s < sides.size(); ++s) {
    cv::Mat dep;  // toward the side's colour: made once one of its bases has a size to grow to
    for (size_t i = 0; i < rects[s].size(); ++i) {
      PxRect& r = rects[s][i];
      const std::vector<CatalogueExtension> extensions =
          CatalogueExtensions(r, mm, sizes, size_tolerance_mm, 2 * size_tolerance_mm,
                              std::numeric_limits<double>::max());
      if (extensions.empty()) continue;
      if (dep.empty()) dep = DepartureToward(chroma, valid, mat_chroma, cv::Vec2f(sides[s].mean));
      std::optional<PxRect> best;
      double best_rho = ScoreBlurredRing(dep, r, mm, blur_mm, border_mm).rho + options.min_rho_gain;
      for (const CatalogueExtension& e : extensions) {
        // The half's outline is the blob's, not the base's: the grown pose is searched around.
        const auto [pose, score] =
            BestBlurredRingNear(dep, e.grown, mm, blur_mm, border_mm, reach_px, turns);
        // A band along every side; one, where the tallest figures are seen past it, weaker.
        int weak = 0;
        bool every_side = score.gain > 0;
        for (const double g : score.side_gain) {
          if (g < options.min_side_gain_fraction * score.gain) ++weak;
          every_side = every_side && g >= options.min_weak_side_gain_fraction * score.gain;
        }
        // Where the smaller base ended, inside the grown one: a band there is two bases' borders.
        const double seam = SeamDeparture(dep, r, e.far);
        if (score.rho < best_rho || !every_side || weak > 1 ||
            seam > options.max_seam_fraction * score.band || OverlapsAnother(pose, s, rects, &r)) {
          continue;
        }
        best_rho = score.rho;
        best = pose;
      }
      if (!best) continue;
      r = *best;
      DropPiecesOf(rects[s], i);
    }
  }
}

}  // namespace referee
