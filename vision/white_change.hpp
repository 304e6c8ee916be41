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

}  // namespace referee
