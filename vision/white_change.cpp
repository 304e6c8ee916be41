#include "vision/white_change.hpp"

#include <algorithm>
#include <cmath>

#include "vision/stick_middle.hpp"

namespace referee {

double OffWhiteWay(const cv::Vec3d& after, const cv::Vec3d& before, double white_ground_room) {
  const cv::Vec3d change = after - before;
  const cv::Vec3d room = cv::Vec3d(255, 255, 255) - before;
  const double room2 = room.dot(room);
  if (room2 < white_ground_room * white_ground_room) return cv::norm(change);
  const double t = change.dot(room) / room2;
  if (t < 0) return cv::norm(change);
  return cv::norm(change - t * room);
}

double WhiteChangeShare(const cv::Mat& before, const cv::Mat& after, cv::Point2d centre,
                        double radius_px, double min_change_levels, double max_off_share) {
  const int r = static_cast<int>(std::ceil(radius_px));
  const cv::Rect box = cv::Rect(static_cast<int>(std::floor(centre.x)) - r,
                                static_cast<int>(std::floor(centre.y)) - r, 2 * r + 2, 2 * r + 2) &
                       cv::Rect({0, 0}, before.size());
  int changed = 0, white = 0;
  for (int y = box.y; y < box.br().y; ++y) {
    for (int x = box.x; x < box.br().x; ++x) {
      if (std::hypot(x - centre.x, y - centre.y) > radius_px) continue;
      const cv::Vec3b& b = before.at<cv::Vec3b>(y, x);
      const cv::Vec3b& a = after.at<cv::Vec3b>(y, x);
      const cv::Vec3d bd(b[0], b[1], b[2]), ad(a[0], a[1], a[2]);
      const double change = cv::norm(ad - bd);
      if (change < min_change_levels) continue;
      ++changed;
      if (OffWhiteWay(ad, bd) <= max_off_share * change) ++white;
    }
  }
  return changed < 4 ? -1.0 : static_cast<double>(white) / changed;
}

namespace {

// How far `to` moved off the way from `from` to black or to brighter light on the same colour
// (a shade or a shadow scales the channels alike), 8-bit levels.
double OffShadeWay(const cv::Vec3d& to, const cv::Vec3d& from) {
  const cv::Vec3d change = to - from;
  const double n2 = from.dot(from);
  if (n2 < 1e-9) return cv::norm(change);
  return cv::norm(change - (change.dot(from) / n2) * from);
}

// Cotton over `ground` seen in `shown`: the change lies along the way to white, and clearly not
// along the ground's own way to a shade of it (over grey or white ground the two are one way).
bool WhiteMaterialOver(const cv::Vec3d& shown, const cv::Vec3d& ground, double change,
                       double max_off_share, double min_off_shade_share) {
  const double off_white = OffWhiteWay(shown, ground);
  if (off_white > max_off_share * change) return false;
  const double off_shade = OffShadeWay(shown, ground);
  return off_shade >= min_off_shade_share * change && off_shade >= 2.0 * off_white;
}

}  // namespace

WhiteWayCounts CountWhiteWay(const cv::Mat& before, const cv::Mat& after, cv::Point2d a,
                             cv::Point2d b, double half_width_px, double min_change_levels,
                             double max_off_share, double min_off_shade_share) {
  WhiteWayCounts out;
  ForEachStickMiddlePixel(before.size(), a, b, half_width_px, 1.0, [&](cv::Point p, double) {
    const cv::Vec3b& pb = before.at<cv::Vec3b>(p);
    const cv::Vec3b& pa = after.at<cv::Vec3b>(p);
    const cv::Vec3d bd(pb[0], pb[1], pb[2]), ad(pa[0], pa[1], pa[2]);
    const double change = cv::norm(ad - bd);
    if (change < min_change_levels) return;
    ++out.changed;
    if (WhiteMaterialOver(ad, bd, change, max_off_share, min_off_shade_share)) {
      ++out.into_after;
    } else if (WhiteMaterialOver(bd, ad, change, max_off_share, min_off_shade_share)) {
      ++out.into_before;
    }
  });
  return out;
}

}  // namespace referee
