#include "vision/washed_side_refit.hpp"

#include <algorithm>
#include <cstddef>

#include "vision/blurred_ring_fit.hpp"
#include "vision/side_washout.hpp"

namespace referee {

std::optional<WashedSides> RefitWashedSides(const SideColorModel& colors, const cv::Mat& chroma,
                                            const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                                            const std::vector<std::vector<PxRect>>& rects,
                                            const std::vector<bool>& fitted,
                                            const cv::Mat& solid_terrain, double band_px,
                                            const WashedSideOptions& options) {
  const WashoutOptions washout;
  const std::vector<cv::Mat> toward = TowardSidesMasks(chroma, valid, mat_chroma, colors.sides(),
                                                       washout.min_fraction, washout.cone);
  WashedSides washed{colors, std::vector<bool>(colors.sides().size(), false)};
  bool any = false;
  for (size_t s = 0; s < rects.size() && s < fitted.size() && s < toward.size(); ++s) {
    if (fitted[s] || rects[s].size() < static_cast<size_t>(options.min_bases)) continue;
    washed.refitted[s] = RefitFromBorderBands(washed.colors, s, chroma, rects[s], band_px,
                                              toward[s], options.min_pixels, solid_terrain);
    any = any || washed.refitted[s];
  }
  if (!any) return std::nullopt;
  return washed;
}

void DropRingsOffSideLine(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                          const std::vector<SideColor>& sides,
                          const std::vector<std::vector<PxRect>>& before, double mm_per_px,
                          double blur_mm, double border_mm, double max_off_line_ratio,
                          std::vector<std::vector<PxRect>>& rects) {
  for (size_t s = 0; s < rects.size() && s < sides.size(); ++s) {
    const size_t first_new = s < before.size() ? before[s].size() : 0;
    if (rects[s].size() <= first_new) continue;
    const cv::Vec2f side(sides[s].mean);
    const cv::Mat along = DepartureToward(chroma, valid, mat_chroma, side);
    const cv::Mat across = OffLineDeparture(chroma, valid, mat_chroma, side);
    const auto off_line = [&](const PxRect& r) {
      const double a = ScoreBlurredRing(along, r, mm_per_px, blur_mm, border_mm).band;
      const double x = ScoreBlurredRing(across, r, mm_per_px, blur_mm, border_mm).band;
      return !(a > 0 && x <= max_off_line_ratio * a);
    };
    rects[s].erase(std::remove_if(rects[s].begin() + static_cast<std::ptrdiff_t>(first_new),
                                  rects[s].end(), off_line),
                   rects[s].end());
  }
}

}  // namespace referee
