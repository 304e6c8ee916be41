// A faint shell found by its whole shape. A yellow shell on a tan mat or on figures of its own
// colour changes the picture by less than the change threshold: only a speck, or nothing,
// clears it. The model (a disc as wide as the shell's side, the whole slab showing one new
// colour) is then matched to the before/after difference near the faint change:
//  - the energy of a placement: the squared norm of the mean difference inside the disc minus
//    the mean of a ring just outside it (a local lighting change cancels);
//  - the null: the same best energy at placements 20-36 mm around it (the pair's own noise,
//    JPEG and texture there, no projectile);
//  - accepted only when the energy beats every null placement and their median by a clear
//    margin (structure near it, a base's border under a white-balance shift or JPEG's halved
//    colour resolution, makes such changes at several placements, a shell at one);
//  - its centre then: the centroid of the change toward the matched colour in a window of the
//    shell's side around the match (a blurred square is symmetric about its centre, whatever
//    the blur), and it must be about as wide one way as the other (a Q-tip's head is not).
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct ShellTemplateOptions {
  // Shell side, mm (TABLE_KIT: 12).
  double side_mm = 12.0;
  // How far from the faint change's centre the shell's centre is searched, mm. Default 3.
  double search_mm = 3.0;
  // Smallest ratio of the energy to the median null placement's. Default 10.
  double min_margin = 10.0;
  // Smallest ratio of the energy to the largest null placement's. Default 3.
  double min_over_max = 3.0;
  // Largest ratio of the change's long to short spread (weighted second moments). Default 2.
  double max_elongation = 2.0;
};

struct ShellTemplateResult {
  bool found = false;
  cv::Point2d centre_px;   // the centroid of the change there, top-view px
  double elongation = 0;   // ratio of the change's long to short spread
  double score = 0;        // its energy
  double null_median = 0;  // median best energy of the null placements
  double null_max = 0;     // largest of them
  std::string reason;      // why it was not accepted
};

// `difference`: after (lighting corrected) minus before, CV_32FC3, the size of the top view.
// `seed`: the faint change's pixels. `mm_per_px`: the top view's scale.
ShellTemplateResult MatchShellTemplate(const cv::Mat& difference,
                                       const std::vector<cv::Point>& seed, double mm_per_px,
                                       const ShellTemplateOptions& options = {});

}  // namespace referee
