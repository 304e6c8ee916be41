// Which side's colour a base's border band shows. The looser passes fit rings to a pixel's
// departure from the mat toward one side's colour; from a green mat both red and blue lie the
// same way, so a red border a webcam's JPEG has washed below red's gate departs toward blue
// too, and a blue ring can be fitted on it (napoleonic seed 5 at JPEG quality 80: two red bases
// reported as blue ones). Taken apart into the two colours, the band says whose it is.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

// The medians over the border band of r (from 1 px to 1 + band_px inside its edge) of each
// pixel's share of two colours: chroma - mat = own (own_chroma - mat) + rival (rival_chroma -
// mat). A band of own's full colour reads (1, 0). nullopt when the band holds fewer than
// min_pixels valid pixels or the two colours lie on one line through the mat.
struct BandShares {
  double own = 0;
  double rival = 0;
};
std::optional<BandShares> MeasureBandShares(const cv::Mat& chroma, const cv::Mat& valid,
                                            const cv::Vec2f& mat_chroma,
                                            const cv::Vec2f& own_chroma,
                                            const cv::Vec2f& rival_chroma, const PxRect& r,
                                            double band_px, int min_pixels = 50);

// Each base whose band shows another side's colour more than its own, and clearly (that
// side's share at least min_rival_share), moved to that side's list (the side whose share is
// over its own by the largest margin), at its end: where that side already has the base,
// DropDuplicates keeps the earlier fit. Bases are painted in their side's colour, so a found
// base's band shows it more than any other side's (every true base of 70 napoleonic scenes at
// JPEG quality 80, of 24 `hard` scenes lossless and at quality 80, and of ancient 5 and lamp 5:
// its own share over the rival's by 0.04 and more; the two red bases read as blue: rival 0.61,
// own 0). A band mostly hidden (under a
// canopy, in deep shade) shows neither colour, both shares near or below 0: it tells nothing,
// and its base stays. Returns how many moved.
int MoveBasesToTheirBandsSide(const cv::Mat& chroma, const cv::Mat& valid,
                              const cv::Vec2f& mat_chroma, const std::vector<SideColor>& sides,
                              double band_px, std::vector<std::vector<PxRect>>& rects,
                              double min_rival_share = 1.0 / 3.0);

}  // namespace referee
