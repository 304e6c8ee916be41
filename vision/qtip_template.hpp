// A faint Q-tip found by its whole shape. Under heavy blur and sensor noise the change mask
// keeps only the brightest piece of the stick (a 20 x 7 mm fragment), too short for the shape
// test. The model (one straight object of the Q-tip's known length: stick and both heads) is
// then matched to the before/after difference along axes through that fragment:
//  - per column across the axis, the mean difference in a band as wide as a head (plus blur)
//    minus the mean of the flanks beside it (a local lighting change cancels), normalised by
//    the same band-minus-flanks laid parallel 12-24 mm away (the pair's own noise, JPEG and
//    texture, no projectile there);
//  - the score of a placement: the summed normalised energy over the model's length;
//  - accepted only when most columns of the model stand out of that null, the score beats the
//    typical parallel placement by a clear margin, and the change stops at the model's ends (a
//    long edge or a moved ruler is not a Q-tip).
// The result is the model's footprint, for FitQtip to find the painted head and the tip.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct QtipTemplateOptions {
  // Q-tip dimensions, mm (TABLE_KIT: length 75, heads 5 x 12).
  double length_mm = 75.0;
  double head_diameter_mm = 5.0;
  // Allowed deviation of the length from length_mm, fraction (longer). Default 0.3.
  double size_tolerance = 0.3;
  // Shortest visible length, share of length_mm. Default 0.6: a painted head the colour of
  // the mat shows no change (75 - 12 mm), and noise may eat the ends of the rest.
  double min_length_share = 0.6;
  // Blur allowed on each side of a head in the matched band, mm. Default 1; raise for very
  // soft cameras (the band then takes in more noise).
  double blur_mm = 1.0;
  // Axes searched around the fragment's own axis, degrees either side. Default 10 (a 20 mm
  // fragment's axis is good to a few degrees).
  double angle_search_deg = 10.0;
  // Share of the model's columns whose energy must exceed the null's 90th percentile, 0..1.
  // Default 0.6: a real stick stands out along its whole length; noise does in 10 % of
  // columns, a fragment and noise in ~35 % of a 75 mm model.
  double min_column_share = 0.6;
  // Smallest ratio of the score to the median score of the same model laid parallel 12-24 mm
  // away. Default 3. Lower only after checking pairs without a projectile stay unadjudicated.
  double min_margin = 3.0;
  // Largest share of columns standing out in the 15 mm past each end of the model (over the
  // null's 90 %, or min_own_energy_share of its own when that decided its ends), 0..1.
  // Default 0.5: the change must stop where the model does.
  double max_beyond_share = 0.5;
  // When the change standing out of the null runs on longer than a Q-tip: the share of the
  // model's own median column energy a column must keep to count as the object where its ends
  // and the change past them are measured. Default 1/16, a quarter of its change (as FitQtip's
  // object extent): a grid line under a stick keeps a few levels of residual once the exposure
  // changed, over the plain mat's noise but far under a plain stick's change.
  double min_own_energy_share = 1.0 / 16.0;
};

struct QtipTemplateMatch {
  cv::Point2d end_a_px, end_b_px;    // ends of the change along the matched axis, top-view px
  double length_mm = 0;              // visible length: the run of columns that stand out
  double score = 0;                  // summed normalised energy over the model
  double null_score = 0;             // median score of the model laid parallel beside it
  double column_share = 0;           // share of the model's columns above the null's 90 %
  double beyond_share = 0;           // the larger share of the two 15 mm stretches past its ends
  std::vector<cv::Point> footprint;  // the model's pixels (head-wide band), top-view px
};

struct QtipTemplateResult {
  bool found = false;
  QtipTemplateMatch match;  // the best placement, also when not accepted (for the reason)
  std::string reason;       // why it was not accepted
};

// `difference`: after (lighting corrected) minus before, CV_32FC3, the size of the top view.
// `seed`: the changed pixels of the fragment. `mm_per_px`: the top view's scale.
QtipTemplateResult MatchQtipTemplate(const cv::Mat& difference, const std::vector<cv::Point>& seed,
                                     double mm_per_px, const QtipTemplateOptions& options = {});

}  // namespace referee
