// Whether a change is white material: white cotton (a Q-tip's stick and heads) over any ground
// moves each channel by the same share of its room below white, while paint or plasticine moves
// the view toward its own colour. Read against the ground in `before`, this holds under any
// light and colour cast that the two frames share, where a colour read in `after` alone is
// mostly what lies under a small blurred object.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

// How far `after` moved off the way from `before` to white, 8-bit levels (BGR means with the
// lighting change divided out). All of the change counts where the view darkened or `before`
// is already within white_ground_room of white (a dark head over white paper is paint).
double OffWhiteWay(const cv::Vec3d& after, const cv::Vec3d& before,
                   double white_ground_room = 20.0);

// Of the pixels within `radius_px` of `centre` (top-view px) that changed by at least
// `min_change_levels`, the share whose change lies along the way to white (off it by at most
// `max_off_share` of the change): 0..1, or -1 when fewer than 4 pixels changed. `after` should
// have the lighting change divided out. Top views, BGR 8-bit, same size.
double WhiteChangeShare(const cv::Mat& before, const cv::Mat& after, cv::Point2d centre,
                        double radius_px, double min_change_levels = 15.0,
                        double max_off_share = 0.35);

// Along a Q-tip's stick (0.2 to 0.95 of the way from its tip `a` to its plain end `b`, within
// `half_width_px` of the axis), the pixels that changed by at least `min_change_levels`, and of
// them those whose change is white material come into `after` over the ground `before` shows
// (`into_after`) or white material in `before` over the ground `after` shows (`into_before`:
// the object was picked up). A change counts when it lies along the way to white (off it by at
// most `max_off_share` of the change) and clearly off the ground's way to a shade of itself (by
// at least `min_off_shade_share` of the change and twice as far as off the way to white): over
// grey or white ground cotton and a shade or shadow move the channels alike and count neither
// way. `after` should have the lighting change divided out. Top views, BGR 8-bit, same size.
struct WhiteWayCounts {
  int changed = 0, into_after = 0, into_before = 0;
};
WhiteWayCounts CountWhiteWay(const cv::Mat& before, const cv::Mat& after, cv::Point2d a,
                             cv::Point2d b, double half_width_px, double min_change_levels = 15.0,
                             double max_off_share = 0.35, double min_off_shade_share = 0.25);

}  // namespace referee
