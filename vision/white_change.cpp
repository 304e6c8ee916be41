#include "vision/white_change.hpp"

#include <algorithm>
#include <cmath>

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

}  // namespace referee
