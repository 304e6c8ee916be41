// A second blurred-ring pass for a side the frame washes below its colour gate. Where blur or a
// webcam's JPEG chroma leave a side's borders a quarter to a third of the way from the mat
// toward its colour, the first pass's colour gate keeps too few border pixels to refit the side
// to this frame, and the blurred-ring fit, judging bands against the side's nominal colour, asks
// of a washed band more than it can show. The bases found so far (washout ladder, ring fits)
// still outline where the side's borders are: their border bands give the side's washed colour,
// and the blurred rings are fitted again toward it. A washed border is the side's colour mixed
// with the mat, so its band lies along the line between them; a ring fitted there on a road or a
// ruler of another hue lies far across it and is dropped.
#pragma once

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

struct WashedSideOptions {
  // Default on; turn off only to measure what it adds.
  bool enabled = true;
  // A side is refitted from at least this many bases found so far (one or two may be a road
  // crossing or figures; several of one hue are bases). Default 3 (WashoutOptions'
  // min_candidates).
  int min_bases = 3;
  // ... and at least this many border pixels toward its colour. Default 50 (the first pass's).
  int min_pixels = 50;
  // A ring fitted toward a washed colour is kept only where its band's median distance from the
  // line between the mat and that colour is at most this many times its median departure along
  // the line (both in units of that colour's distance from the mat; see OffLineDeparture). The
  // bases gained on `hard` seeds 5 and 7 (lossless) and 5 and 31 (JPEG quality 80) read 0.07-1.15;
  // a ring on a yellow road's blurred edges, toward washed red, 6.2 (`hard` 7 scene 3). Default 2.
  double max_off_line_ratio = 2.0;
};

// The side colours with each side not `fitted` by the first pass refitted from the border bands
// (band_px wide, 1 px in) of its bases in `rects`, on the pixels that lie toward its colour from
// the mat (TowardSidesMasks with WashoutOptions' fraction and cone) and off `solid_terrain`
// (CV_8U, may be empty: roads and roofs a shade toward a side), and which sides were refitted.
// Nothing when no side was refitted.
struct WashedSides {
  SideColorModel colors;
  std::vector<bool> refitted;  // indexed as colors.sides()
};
std::optional<WashedSides> RefitWashedSides(const SideColorModel& colors, const cv::Mat& chroma,
                                            const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                                            const std::vector<std::vector<PxRect>>& rects,
                                            const std::vector<bool>& fitted,
                                            const cv::Mat& solid_terrain, double band_px,
                                            const WashedSideOptions& options);

// Drops the rings added to rects since `before` (side s: those past before[s].size()) whose
// blurred band (see ScoreBlurredRing) does not lie along the line from mat_chroma to their
// side's colour in `sides`: its median distance from the line more than max_off_line_ratio
// times its median departure along it. blur_mm, border_mm as FitBlurredRings takes them.
void DropRingsOffSideLine(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                          const std::vector<SideColor>& sides,
                          const std::vector<std::vector<PxRect>>& before, double mm_per_px,
                          double blur_mm, double border_mm, double max_off_line_ratio,
                          std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
