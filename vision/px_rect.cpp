#include "vision/px_rect.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <opencv2/imgproc.hpp>

#include "engine/geometry.hpp"

namespace referee {

std::vector<cv::Point> GrownCorners(const PxRect& r, double grow_px) {
  const double ha = 0.5 * r.len_a + grow_px, hb = 0.5 * r.len_b + grow_px;
  const cv::Point2d b = r.AxisB();
  std::vector<cv::Point> poly;
  poly.reserve(4);
  for (const auto& [sa, sb] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
    const cv::Point2d p = r.center + sa * ha * r.axis_a + sb * hb * b;
    poly.emplace_back(cvRound(p.x), cvRound(p.y));
  }
  return poly;
}

double OverlapAreaPx(const PxRect& a, const PxRect& b) {
  const auto rotated = [](const PxRect& p) {
    return cv::RotatedRect(cv::Point2f(p.center),
                           cv::Size2f(static_cast<float>(p.len_a), static_cast<float>(p.len_b)),
                           static_cast<float>(RadToDeg(std::atan2(p.axis_a.y, p.axis_a.x))));
  };
  std::vector<cv::Point2f> meet;
  if (cv::rotatedRectangleIntersection(rotated(a), rotated(b), meet) == cv::INTERSECT_NONE ||
      meet.size() < 3) {
    return 0.0;
  }
  std::vector<cv::Point2f> hull;
  cv::convexHull(meet, hull);
  return cv::contourArea(hull);
}

bool OverlapTooMuch(const PxRect& a, const PxRect& b) {
  return OverlapAreaPx(a, b) > 0.1 * std::min(a.len_a * a.len_b, b.len_a * b.len_b);
}

bool IsPieceOf(const PxRect& piece, const PxRect& r) {
  return OverlapAreaPx(piece, r) > 0.5 * piece.len_a * piece.len_b;
}

void DropPiecesOf(std::vector<PxRect>& side_rects, size_t& i) {
  // A copy: side_rects may move as entries are erased.
  const PxRect grown = side_rects[i];
  for (size_t j = side_rects.size(); j-- > 0;) {
    if (j != i && IsPieceOf(side_rects[j], grown)) {
      side_rects.erase(side_rects.begin() + static_cast<long>(j));
      if (j < i) --i;
    }
  }
}

bool OverlapsAnother(const PxRect& r, size_t s, const std::vector<std::vector<PxRect>>& rects,
                     const PxRect* self) {
  for (size_t o_side = 0; o_side < rects.size(); ++o_side) {
    for (const PxRect& o : rects[o_side]) {
      if (&o == self || (o_side == s && IsPieceOf(o, r))) continue;
      if (OverlapTooMuch(r, o)) return true;
    }
  }
  return false;
}

std::vector<PxRect> AllRects(const std::vector<std::vector<PxRect>>& rects) {
  std::vector<PxRect> all;
  for (const auto& side_rects : rects) all.insert(all.end(), side_rects.begin(), side_rects.end());
  return all;
}

bool SamePlace(const PxRect& a, const PxRect& b) {
  return cv::norm(a.center - b.center) < 0.5 * std::min({a.len_a, a.len_b, b.len_a, b.len_b});
}

bool AnyBaseAt(const PxRect& r, const std::vector<std::vector<PxRect>>& rects) {
  return std::any_of(rects.begin(), rects.end(), [&](const std::vector<PxRect>& side) {
    return std::any_of(side.begin(), side.end(),
                       [&](const PxRect& o) { return SamePlace(r, o) || OverlapTooMuch(r, o); });
  });
}

bool IsOneOf(const PxRect& r, const std::vector<PxRect>& placed) {
  return std::any_of(placed.begin(), placed.end(), [&](const PxRect& p) {
    return p.center == r.center && p.axis_a == r.axis_a && p.len_a == r.len_a && p.len_b == r.len_b;
  });
}

}  // namespace referee
