#include "vision/shot_evidence.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include <opencv2/imgproc.hpp>

#include "vision/impact_placement.hpp"

namespace referee {

namespace {
// The top view around `center`, resampled to the evidence scale.
cv::Mat Crop(const cv::Mat& top, const TopView& view, Vec2 center, const EvidenceOptions& o) {
  const double s = o.px_per_inch / view.px_per_inch();
  const int size = static_cast<int>(2 * o.half_size_in * o.px_per_inch);
  const cv::Point2d c = view.RectifiedFromTable(center);
  // evidence_from_rectified: scale about the impact, which lands in the middle.
  const cv::Matx23d m(s, 0, size / 2.0 - s * c.x, 0, s, size / 2.0 - s * c.y);
  cv::Mat out;
  cv::warpAffine(top, out, m, {size, size}, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  return out;
}

// `text` in `colour` on a black outline, so it reads on any table.
void OutlinedText(cv::Mat& img, const std::string& text, cv::Point at, double scale,
                  const cv::Scalar& colour) {
  cv::putText(img, text, at, cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(0, 0, 0), 3, cv::LINE_AA);
  cv::putText(img, text, at, cv::FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv::LINE_AA);
}
}  // namespace

cv::Mat DrawShotEvidence(const TopView& view, const ShotAnalysis& a, const Verdict& v,
                         const EvidenceOptions& o) {
  const Vec2 center = v.point;
  cv::Mat before = Crop(a.top_before, view, center, o);
  cv::Mat after = Crop(a.top_after, view, center, o);
  const double half = o.half_size_in;
  auto to_px = [&](Vec2 p) {
    return cv::Point(cvRound((p.x - center.x + half) * o.px_per_inch * 16),
                     cvRound((p.y - center.y + half) * o.px_per_inch * 16));
  };
  constexpr int kShift = 4;
  cv::circle(after, to_px(center), cvRound(v.hit_radius_in * o.px_per_inch * 16),
             cv::Scalar(0, 255, 255), 2, cv::LINE_AA, kShift);
  cv::drawMarker(after, to_px(center) / 16, cv::Scalar(0, 255, 255), cv::MARKER_CROSS, 12, 1);
  // A point placed from what lay around its mark is looser: say so under the cross, where the
  // players look to check the camera's placing against the shot on the table.
  if (const std::string placed = a.projectile ? ImpactPlacedNote(*a.projectile) : "";
      !placed.empty()) {
    OutlinedText(after, placed, to_px(center) / 16 + cv::Point(-70, 22), 0.4,
                 cv::Scalar(0, 255, 255));
  }
  for (const auto& near : v.stands_near) {
    const DetectedStand* ds = nullptr;
    for (const auto& s : a.stands.stands) {
      if (s.stand.id == near.id) ds = &s;
    }
    if (!ds) continue;
    std::vector<cv::Point> poly;
    for (const Vec2& k : ds->stand.footprint.Corners()) poly.push_back(to_px(k));
    const cv::Scalar col =
        near.candidate || near.destroyed ? cv::Scalar(0, 0, 255) : cv::Scalar(255, 255, 255);
    cv::polylines(after, poly, true, col, 2, cv::LINE_AA, kShift);
    char label[128];
    std::snprintf(label, sizeof label, "%s %.1fmm %.2fin m%+.1fmm", near.id.c_str(),
                  near.distance_mm, near.distance_in, InchesToMm(near.margin_in));
    const cv::Point at = to_px(ds->stand.footprint.center) / 16;
    const auto write = [&](const char* text, cv::Point offset) {
      OutlinedText(after, text, at + offset, 0.4, col);
    };
    write(label, {-60, 0});
    // Its outline may be short on a side under tall terrain: say so where players look, as the
    // overlay does.
    if (ds->partly_hidden) write("(check: partly hidden)", {-60, 14});
    if (ds->faint_border) write("(check: faint border)", {-60, ds->partly_hidden ? 28 : 14});
    // Within the camera's error of the circle's edge: the players measure it.
    if (a.close_call && std::ranges::find(a.close_call->stands, near.id, &CloseStand::id) !=
                            a.close_call->stands.end()) {
      write("(check: too close, measure)",
            {-60, 14 * (1 + (ds->partly_hidden ? 1 : 0) + (ds->faint_border ? 1 : 0))});
    }
  }
  // Something of a side's colour no found stand explains (a base the search missed?): ringed
  // where it lies nearest the circle's centre, so the players look before accepting a miss.
  for (const UnfoundBaseCheck& c : a.unfound) {
    const cv::Scalar magenta(255, 0, 255);
    const cv::Point at = to_px(c.point);
    cv::circle(after, at, cvRound(0.12 * o.px_per_inch * 16), magenta, 2, cv::LINE_AA, kShift);
    const std::string text = "check: " + c.side + " colour";
    OutlinedText(after, text, at / 16 + cv::Point(-30, -14), 0.45, magenta);
  }
  // Where the shot would lie at the height that changes the ruling (one camera does not measure
  // how high it rests): the players measure.
  if (a.height_check) {
    const cv::Scalar magenta(255, 0, 255);
    const cv::Point at = to_px(a.height_check->point_there);
    cv::circle(after, at, cvRound(0.12 * o.px_per_inch * 16), magenta, 2, cv::LINE_AA, kShift);
    char text[64];
    std::snprintf(text, sizeof text, "check: height %.0f mm", a.height_check->decides_height_mm);
    OutlinedText(after, text, at / 16 + cv::Point(-30, 34), 0.45, magenta);
  }
  cv::putText(before, "before", {8, 20}, cv::FONT_HERSHEY_SIMPLEX, 0.6, cv::Scalar(255, 255, 255),
              2);
  cv::putText(after, "after", {8, 20}, cv::FONT_HERSHEY_SIMPLEX, 0.6, cv::Scalar(255, 255, 255), 2);
  cv::Mat out;
  cv::hconcat(before, after, out);
  return out;
}

}  // namespace referee
