#include "vision/shell_model.hpp"
#include "engine/order_statistics.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// rg chromaticity of a BGR colour: brightness divided out, so a shadow or a darker side keeps
// the colour of what it falls on.
cv::Vec2f Chroma(const cv::Vec3f& bgr) {
  const float s = bgr[0] + bgr[1] + bgr[2] + 3.0f;
  return {(bgr[2] + 1.0f) / s, (bgr[1] + 1.0f) / s};
}

float Brightness(const cv::Vec3f& bgr) { return (bgr[0] + bgr[1] + bgr[2]) / 3.0f; }

}  // namespace

std::variant<ShellFit, ShellRefusal> FitShell(const cv::Mat& top_before, const cv::Mat& top_after,
                                              const cv::Mat& change_mask,
                                              const std::vector<cv::Point>& pixels,
                                              double mm_per_px, cv::Point2d sweep_px,
                                              const ShellModelOptions& opt) {
  const double mm = mm_per_px;
  if (pixels.empty()) return ShellRefusal{"no change to fit a shell to"};
  const int grow = static_cast<int>(std::ceil(0.5 * opt.side_mm / mm)) + 2;
  const cv::Rect box =
      (cv::boundingRect(pixels) + cv::Size(2 * grow, 2 * grow) - cv::Point(grow, grow)) &
      cv::Rect({0, 0}, top_after.size());
  cv::Mat before, after;
  top_before(box).convertTo(before, CV_32FC3);
  top_after(box).convertTo(after, CV_32FC3);

  // The shell's colour: the middle of the changed region (away from its blurred outline), less
  // its darkest part (the dot).
  cv::Mat blob(box.size(), CV_8U, cv::Scalar(0));
  for (const cv::Point& p : pixels) {
    if (box.contains(p)) blob.at<uchar>(p - box.tl()) = 255;
  }
  const int close_r = std::max(1, static_cast<int>(std::lround(1.0 / mm)));
  cv::morphologyEx(
      blob, blob, cv::MORPH_CLOSE,
      cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * close_r + 1, 2 * close_r + 1}));
  cv::Mat dist;
  cv::distanceTransform(blob, dist, cv::DIST_L2, 3);
  double max_dist = 0;
  cv::minMaxLoc(dist, nullptr, &max_dist);
  const double core_px = std::min(1.5 / mm, 0.5 * max_dist);
  std::vector<cv::Vec3f> core;
  std::vector<double> core_v, core_d;  // brightness, change from `before`
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (dist.at<float>(y, x) >= core_px && dist.at<float>(y, x) > 0) {
        core.push_back(after.at<cv::Vec3f>(y, x));
        core_v.push_back(Brightness(core.back()));
        core_d.push_back(cv::norm(core.back() - before.at<cv::Vec3f>(y, x)));
      }
    }
  }
  if (core.size() < 4) return ShellRefusal{"shell-sized change too thin to be a shell"};
  // Blur mixes the middle with the surface around it too: of the rest, the half that changed
  // most from what was there is nearest the shell's own colour.
  const double dark_cut = Percentile(core_v, 0.3);
  std::vector<double> core_change;
  for (size_t i = 0; i < core.size(); ++i) core_change.push_back(core_d[i]);
  const double change_cut = Percentile(core_change, 0.5);
  cv::Vec3f top(0, 0, 0);
  {
    std::vector<float> ch[3];
    for (size_t i = 0; i < core.size(); ++i) {
      if (core_v[i] < dark_cut || core_d[i] < change_cut) continue;
      for (int c = 0; c < 3; ++c) ch[c].push_back(core[i][c]);
    }
    for (int c = 0; c < 3; ++c) {
      if (ch[c].empty()) return ShellRefusal{"shell-sized change too thin to be a shell"};
      auto mid = ch[c].begin() + static_cast<long>(ch[c].size() / 2);
      std::nth_element(ch[c].begin(), mid, ch[c].end());
      top[c] = *mid;
    }
  }
  const cv::Vec2f top_chroma = Chroma(top);

  // Silhouette: nearer the shell's chromaticity than the old surface's; where the two are alike
  // the change mask decides.
  const cv::Mat changed = change_mask(box);
  cv::Mat shell(box.size(), CV_8U, cv::Scalar(0));
  for (int y = 0; y < box.height; ++y) {
    const auto* b = before.ptr<cv::Vec3f>(y);
    const auto* a = after.ptr<cv::Vec3f>(y);
    const auto* k = changed.ptr<uchar>(y);
    auto* s = shell.ptr<uchar>(y);
    for (int x = 0; x < box.width; ++x) {
      const cv::Vec2f cb = Chroma(b[x]);
      bool in = false;
      if (cv::norm(top_chroma - cb) >= opt.min_chroma_separation) {
        // How far the pixel went from the old surface toward the shell's colour: a blurred
        // outline pixel is a mix, in from half way (so blur grows no side more than another);
        // a shadow or the dark dot goes the other way.
        const cv::Vec3f to_top = top - b[x];
        const double alpha = (a[x] - b[x]).dot(to_top) / std::max(1.0f, to_top.dot(to_top));
        in = alpha >= 0.5;
      } else {
        in = k[x] != 0;
      }
      s[x] = in ? 255 : 0;
    }
  }
  cv::morphologyEx(shell, shell, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
  // The part that holds the middle of the change; its holes (the dot) filled.
  cv::Mat labels;
  const int n = cv::connectedComponents(shell, labels, 8, CV_32S);
  std::vector<int> votes(static_cast<size_t>(n), 0);
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (dist.at<float>(y, x) >= core_px && dist.at<float>(y, x) > 0)
        ++votes[static_cast<size_t>(labels.at<int>(y, x))];
    }
  }
  int best = 0;
  for (int i = 1; i < n; ++i) {
    if (votes[static_cast<size_t>(i)] > votes[static_cast<size_t>(best)]) best = i;
  }
  if (best == 0) return ShellRefusal{"shell-sized change but nothing of one colour in it"};
  cv::Mat part = labels == best;
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(part.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
  if (contours.empty()) return ShellRefusal{"shell-sized change but nothing of one colour in it"};
  const auto largest = std::max_element(
      contours.begin(), contours.end(),
      [](const auto& a, const auto& b) { return cv::contourArea(a) < cv::contourArea(b); });
  part.setTo(0);
  cv::drawContours(part, contours, static_cast<int>(largest - contours.begin()), cv::Scalar(255),
                   cv::FILLED);

  ShellFit fit;
  const cv::Moments m = cv::moments(part, true);
  if (m.m00 <= 0) return ShellRefusal{"shell-sized change but nothing of one colour in it"};
  fit.silhouette_px = cv::Point2d(m.m10 / m.m00 + box.x, m.m01 / m.m00 + box.y);
  fit.area_mm2 = m.m00 * mm * mm;
  const cv::RotatedRect rr = cv::minAreaRect(*largest);
  fit.short_side_mm = (std::min(rr.size.width, rr.size.height) + 1.0) * mm;
  fit.long_side_mm = (std::max(rr.size.width, rr.size.height) + 1.0) * mm;
  cv::convexHull(*largest, fit.outline);
  for (cv::Point& p : fit.outline) p += box.tl();
  bool touches_box = false;
  for (const cv::Point& p : *largest) {
    touches_box |= p.x <= 0 || p.y <= 0 || p.x >= box.width - 1 || p.y >= box.height - 1;
  }

  const double side = opt.side_mm, tol = opt.size_tolerance, sweep = cv::norm(sweep_px) * mm;
  const bool square = !touches_box && fit.short_side_mm >= (1 - tol) * side &&
                      fit.short_side_mm <= (1 + tol) * side + sweep &&
                      fit.long_side_mm <= (1 + tol) * side + sweep + mm &&
                      fit.area_mm2 >= (1 - tol) * (1 - tol) * side * side &&
                      fit.area_mm2 <= (1 + tol) * (1 + tol) * side * side + 1.5 * side * sweep &&
                      fit.area_mm2 >= 0.7 * fit.short_side_mm * fit.long_side_mm;
  if (!square) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "a change of one colour of %.0f x %.0f mm (%.0f mm^2) is not a %.0f mm shell: "
                  "not adjudicated",
                  fit.short_side_mm, fit.long_side_mm, fit.area_mm2, side);
    return ShellRefusal{buf};
  }

  // The dot: the darkest spot (smoothed) inside the silhouette near where the top's centre is
  // seen (the silhouette's centre moved half the sweep outward), not as far out as the top's
  // edge, where the darker sides begin.
  cv::Mat gray, smooth;
  cv::cvtColor(top_after(box), gray, cv::COLOR_BGR2GRAY);
  cv::GaussianBlur(gray, smooth, {3, 3}, 0);
  cv::Mat inner;
  const int in_r = std::max(1, static_cast<int>(std::lround(1.0 / mm)));
  cv::erode(part, inner,
            cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * in_r + 1, 2 * in_r + 1}));
  const cv::Point2d mid = fit.silhouette_px + 0.5 * sweep_px - cv::Point2d(box.tl());
  const double reach_px = 0.25 * side / mm;
  std::vector<double> g;
  cv::Point darkest;
  double darkest_v = 256;
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (!inner.at<uchar>(y, x)) continue;
      g.push_back(gray.at<uchar>(y, x));
      if (cv::norm(cv::Point2d(x, y) - mid) > reach_px) continue;
      if (smooth.at<uchar>(y, x) < darkest_v) darkest_v = smooth.at<uchar>(y, x), darkest = {x, y};
    }
  }
  const double surface = Percentile(g, 0.75);
  const double contrast = surface - darkest_v;
  fit.dot_seen = false;
  if (darkest_v < 256 && contrast >= opt.min_dot_contrast * std::max(1.0, surface)) {
    const double level = darkest_v + 0.5 * contrast;
    const double dot_r_px = (0.5 * opt.dot_diameter_mm + 1.0) / mm;
    double sw = 0, sx = 0, sy = 0;
    for (int y = 0; y < box.height; ++y) {
      for (int x = 0; x < box.width; ++x) {
        if (!part.at<uchar>(y, x) || cv::norm(cv::Point(x, y) - darkest) > dot_r_px) continue;
        const double w = level - gray.at<uchar>(y, x);
        if (w <= 0) continue;
        sw += w;
        sx += w * x;
        sy += w * y;
      }
    }
    if (sw > 0) {
      fit.dot_seen = true;
      fit.centre_px = {sx / sw + box.x, sy / sw + box.y};
      fit.centre_height_mm = opt.thickness_mm;
    }
  }
  if (!fit.dot_seen) {
    // Too little contrast left for the darkest spot: the blurred dot fitted on the top's shading.
    cv::Mat gray_f;
    gray.convertTo(gray_f, CV_32F);
    const ShellDotMatch dot = MatchShellDot(gray_f, mid, mm, opt.dot_diameter_mm, opt.dot);
    if (dot.found) {
      fit.dot_seen = true;
      fit.centre_px = dot.centre_px + cv::Point2d(box.tl());
      fit.centre_height_mm = opt.thickness_mm;
    }
  }
  if (!fit.dot_seen) {
    fit.centre_px = fit.silhouette_px;
    fit.centre_height_mm = 0.5 * opt.thickness_mm;
  }
  return fit;
}

}  // namespace referee
