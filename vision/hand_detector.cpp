#include "vision/hand_detector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/order_statistics.hpp"
#include "vision/block_shrink.hpp"
#include "vision/change_meter.hpp"
#include "vision/hand_texture.hpp"

namespace referee {

namespace {

constexpr float kInvalid = std::numeric_limits<float>::quiet_NaN();

// Where each pixel of `px` meets the mat plane (table inches; NaN where the ray misses it),
// in one batch: undistortPoints per point would cost ~100x more.
std::vector<cv::Point2f> TableFromImageBatch(const CameraModel& cam,
                                             const std::vector<cv::Point2f>& px) {
  std::vector<cv::Point2f> norm;
  cv::undistortPoints(px, norm, cam.camera_matrix, cam.distortion);
  cv::Matx33d r;
  cv::Rodrigues(cam.rvec_cam_from_table, r);
  const cv::Matx33d rt = r.t();
  const cv::Vec3d c = cam.CameraCenterTable();
  std::vector<cv::Point2f> out(px.size(), cv::Point2f(kInvalid, kInvalid));
  for (size_t i = 0; i < norm.size(); ++i) {
    const cv::Vec3d d = rt * cv::Vec3d(norm[i].x, norm[i].y, 1.0);
    if (std::abs(d[2]) < 1e-9) continue;
    const double s = -c[2] / d[2];
    if (s <= 0) continue;  // the ray leaves the camera away from the table
    out[i] = cv::Point2f(static_cast<float>(c[0] + s * d[0]), static_cast<float>(c[1] + s * d[1]));
  }
  return out;
}

// Signed distance of a table point from the rectangle [0,w] x [0,h], inches: + outside.
float SignedDistanceIn(cv::Point2f p, double w, double h) {
  const double dx = std::max({-static_cast<double>(p.x), p.x - w, 0.0});
  const double dy = std::max({-static_cast<double>(p.y), p.y - h, 0.0});
  if (dx > 0 || dy > 0) return static_cast<float>(std::hypot(dx, dy));
  return -static_cast<float>(
      std::min({static_cast<double>(p.x), w - p.x, static_cast<double>(p.y), h - p.y}));
}

// Brightest channel of each cell.
cv::Mat MaxChannel(const cv::Mat& bgr) {
  std::vector<cv::Mat> ch;
  cv::split(bgr, ch);
  cv::Mat m = cv::max(ch[0], ch[1]);
  return cv::max(m, ch[2]);
}

// Cells whose change says nothing: clipped in one picture where the other is bright too (auto
// exposure pushing a light mat or a marker into saturation is not an object coming in).
cv::Mat Unreliable(const cv::Mat& before, const cv::Mat& after) {
  constexpr double kClipped = 250, kBright = 190;
  const cv::Mat b = MaxChannel(before), a = MaxChannel(after);
  return ((b >= kClipped) & (a >= kBright)) | ((a >= kClipped) & (b >= kBright));
}

// The connected regions of `weak` that hold at least one `strong` cell (both CV_8U 0/255).
cv::Mat Hysteresis(const cv::Mat& weak, const cv::Mat& strong) {
  cv::Mat labels;
  const int n = cv::connectedComponents(weak, labels, 8, CV_32S);
  std::vector<uchar> keep(static_cast<size_t>(n), 0);
  for (int y = 0; y < labels.rows; ++y) {
    const auto* l = labels.ptr<int>(y);
    const auto* s = strong.ptr<uchar>(y);
    for (int x = 0; x < labels.cols; ++x) {
      if (s[x] != 0) keep[static_cast<size_t>(l[x])] = 255;
    }
  }
  keep[0] = 0;
  cv::Mat out(weak.size(), CV_8U);
  for (int y = 0; y < labels.rows; ++y) {
    const auto* l = labels.ptr<int>(y);
    auto* o = out.ptr<uchar>(y);
    for (int x = 0; x < labels.cols; ++x) o[x] = keep[static_cast<size_t>(l[x])];
  }
  return out;
}

}  // namespace

// One connected changed region, as the hand test sees it.
struct HandDetector::Crossing {
  double area_mm2 = 0;                                     // colour-changed cells
  double texture_area_mm2 = 0;                             // colour- or texture-changed cells
  float out_in = -std::numeric_limits<float>::infinity();  // farthest outside the outline
  float in_in = -std::numeric_limits<float>::infinity();   // farthest inside it
  bool at_picture_edge = false;  // outside the board, at the edge of the picture
  cv::Rect box_px;
  bool from_outside = false;  // large and reaching in from outside
  bool hand = false;          // ... and over the board
};

HandDetector::HandDetector(const TableCalibration& cal, HandOptions options)
    : options_(options), image_size_(cal.camera.image_size) {
  factor_ = std::max(1, static_cast<int>(std::lround(static_cast<double>(image_size_.width) /
                                                     std::max(1, options_.work_width))));
  cells_ = {std::max(1, image_size_.width / factor_), std::max(1, image_size_.height / factor_)};
  // The table under every cell corner, in one batch.
  const int cw = cells_.width + 1;
  const int ch = cells_.height + 1;
  std::vector<cv::Point2f> corners_px;
  corners_px.reserve(static_cast<size_t>(cw) * static_cast<size_t>(ch));
  for (int y = 0; y < ch; ++y) {
    for (int x = 0; x < cw; ++x) {
      corners_px.emplace_back(static_cast<float>(x * factor_) - 0.5f,
                              static_cast<float>(y * factor_) - 0.5f);
    }
  }
  const std::vector<cv::Point2f> table = TableFromImageBatch(cal.camera, corners_px);
  const double w = cal.board.Width(), h = cal.board.Height();
  outside_in_ = cv::Mat(cells_, CV_32F, cv::Scalar(kInvalid));
  area_mm2_ = cv::Mat(cells_, CV_32F, cv::Scalar(0));
  watched_ = cv::Mat(cells_, CV_8U, cv::Scalar(0));
  border_ = cv::Mat(cells_, CV_8U, cv::Scalar(0));
  const auto at = [&](int x, int y) {
    return table[static_cast<size_t>(y) * static_cast<size_t>(cw) + static_cast<size_t>(x)];
  };
  for (int y = 0; y < cells_.height; ++y) {
    for (int x = 0; x < cells_.width; ++x) {
      const cv::Point2f a = at(x, y), b = at(x + 1, y), c = at(x + 1, y + 1), d = at(x, y + 1);
      if (std::isnan(a.x) || std::isnan(b.x) || std::isnan(c.x) || std::isnan(d.x)) continue;
      const cv::Point2f centre = 0.25f * (a + b + c + d);
      // Shoelace area of the cell's quadrilateral on the mat.
      const double area_in2 = 0.5 * std::abs((a.x * b.y - b.x * a.y) + (b.x * c.y - c.x * b.y) +
                                             (c.x * d.y - d.x * c.y) + (d.x * a.y - a.x * d.y));
      const float dist = SignedDistanceIn(centre, w, h);
      outside_in_.at<float>(y, x) = dist;
      area_mm2_.at<float>(y, x) = static_cast<float>(area_in2 * kMmPerInch * kMmPerInch);
      if (dist > options_.band_out_in) continue;
      watched_.at<uchar>(y, x) = 255;
      const bool edge = x == 0 || y == 0 || x == cells_.width - 1 || y == cells_.height - 1;
      if (edge && dist > 0) border_.at<uchar>(y, x) = 255;
    }
  }
  std::vector<double> sides_in;
  for (int y = 0; y < cells_.height; ++y) {
    for (int x = 0; x < cells_.width; ++x) {
      if (outside_in_.at<float>(y, x) < 0) {
        sides_in.push_back(std::sqrt(area_mm2_.at<float>(y, x)) / static_cast<float>(kMmPerInch));
      }
    }
  }
  if (!sides_in.empty()) cell_in_ = std::max(1e-3, Median(std::move(sides_in)));
  tremor_ = TremorWatch(TremorOptions{.significance = options_.tremor_significance});
  if (options_.border_hidden_in > 0) {
    border_line_ = BorderLineWatch(cal);
  } else {
    clear_seen_ = true;
  }
}

void HandDetector::Reset() {
  clear_seen_ = true;  // the user (or a bump) says: what is in the picture now is the table
  reference_.release();
  reference_texture_.release();
  previous_.release();
  tremor_.Clear();
  candidate_still_since_ = -1;
}

void HandDetector::AnchorTremor(const cv::Mat& frame_bgr, const cv::Rect& box_px) {
  if (options_.tremor_blocks <= 0) return;
  // The hand over the board and the arm outside it, their outlines and shadows, lie round the
  // stretch of border (or the region's box) they were seen by.
  constexpr double kZoneIn = 4.0;
  const int grow = static_cast<int>(std::lround(kZoneIn * factor_ / cell_in_));
  tremor_.Anchor(frame_bgr, cv::Rect(box_px.x - grow, box_px.y - grow, box_px.width + 2 * grow,
                                     box_px.height + 2 * grow));
}

bool HandDetector::Trembles(const cv::Mat& frame_bgr) const {
  return options_.tremor_blocks > 0 && tremor_.ShiftedBlocks(frame_bgr) >= options_.tremor_blocks;
}

HandDetector::Crossing HandDetector::Largest(const cv::Mat& changed, const cv::Mat& colour,
                                             const cv::Mat& textured) const {
  Crossing best;
  if (cv::countNonZero(changed) == 0) return best;
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(changed, labels, stats, centroids, 8, CV_32S);
  std::vector<Crossing> regions(static_cast<size_t>(n));
  for (int y = 0; y < labels.rows; ++y) {
    const auto* l = labels.ptr<int>(y);
    const auto* dist = outside_in_.ptr<float>(y);
    const auto* area = area_mm2_.ptr<float>(y);
    const auto* border = border_.ptr<uchar>(y);
    const uchar* by_colour = colour.empty() ? nullptr : colour.ptr<uchar>(y);
    const uchar* by_texture = textured.empty() ? nullptr : textured.ptr<uchar>(y);
    for (int x = 0; x < labels.cols; ++x) {
      if (l[x] <= 0) continue;
      Crossing& r = regions[static_cast<size_t>(l[x])];
      if (by_colour == nullptr || by_colour[x] != 0) r.area_mm2 += area[x];
      if (by_texture != nullptr && by_texture[x] != 0) r.texture_area_mm2 += area[x];
      r.out_in = std::max(r.out_in, dist[x]);
      r.in_in = std::max(r.in_in, -dist[x]);
      r.at_picture_edge = r.at_picture_edge || border[x] != 0;
    }
  }
  // The largest region, preferring a hand, then anything come in from outside.
  const auto rank = [](const Crossing& r) { return (r.hand ? 2 : 0) + (r.from_outside ? 1 : 0); };
  for (int i = 1; i < n; ++i) {
    Crossing& r = regions[static_cast<size_t>(i)];
    r.box_px = cv::Rect(stats.at<int>(i, cv::CC_STAT_LEFT) * factor_,
                        stats.at<int>(i, cv::CC_STAT_TOP) * factor_,
                        stats.at<int>(i, cv::CC_STAT_WIDTH) * factor_,
                        stats.at<int>(i, cv::CC_STAT_HEIGHT) * factor_);
    const bool large =
        r.area_mm2 >= options_.min_area_mm2 || r.texture_area_mm2 >= options_.texture_min_area_mm2;
    r.from_outside = large && (r.out_in >= options_.reach_out_in || r.at_picture_edge);
    r.hand = r.from_outside && r.in_in >= options_.reach_in_in;
    if (rank(r) > rank(best) || (rank(r) == rank(best) && r.area_mm2 > best.area_mm2)) best = r;
  }
  return best;
}

HandReport HandDetector::Update(const cv::Mat& frame_bgr, double t_s) {
  HandReport report;
  if (frame_bgr.size() != image_size_ || frame_bgr.type() != CV_8UC3) return report;
  cv::Mat small, texture;
  if (options_.texture_level > 0) {
    // Twice the cells' resolution for the edges, then the cells from it (the same block means).
    cv::Mat fine;
    if (factor_ % 2 == 0) {
      fine = ShrinkByBlocks(frame_bgr, factor_ / 2);
    } else {
      cv::resize(frame_bgr(cv::Rect(0, 0, cells_.width * factor_, cells_.height * factor_)), fine,
                 cells_ * 2, 0, 0, cv::INTER_AREA);
    }
    small = ShrinkByBlocks(fine, 2);
    texture = EdgeContrastCells(fine);
  } else {
    small = ShrinkByBlocks(frame_bgr, factor_);
  }
  if (previous_.empty()) {
    last_motion_t_ = t_s;
  } else {
    const Crossing motion = Largest(ChangedCells(previous_, small, options_.level) & watched_);
    report.moving = motion.area_mm2 > options_.still_area_mm2;
    if (report.moving) last_motion_t_ = t_s;
  }
  previous_ = small;
  if (!clear_seen_) {
    // No picture of the clear table yet: one with the border line hidden over a hand's width
    // is not taken for it (a hand already over the table when the referee starts).
    const BorderCover cover = border_line_.Covered(frame_bgr);
    if (cover.longest_in >= options_.border_hidden_in) {
      report.hand = true;
      report.box_px = cover.box_px;
      // Moving, or trembling since it came to rest (a hand: terrain does not), starts the
      // stillness again.
      if (report.moving || candidate_still_since_ < 0 || Trembles(frame_bgr)) {
        candidate_still_since_ = t_s;
        AnchorTremor(frame_bgr, cover.box_px);
      }
      report.still_s = t_s - candidate_still_since_;
      // Not moved at all for scenery_after_s: terrain or something left across the edge (a
      // hand held perfectly still that long at start-up is taken for the table).
      if (report.still_s < options_.scenery_after_s) return report;
      report.hand = false;
    }
    clear_seen_ = true;
    candidate_still_since_ = -1;
    reference_.release();
  }
  if (reference_.empty()) {  // the first clear frame, until a settled one
    reference_ = small;
    reference_texture_ = texture;
  }
  const cv::Mat counted = watched_ & ~Unreliable(reference_, small);
  cv::Mat strong = ChangedCells(reference_, small, options_.level) & counted;
  cv::Mat colour_cells = strong.clone();  // what a region's area counts
  cv::Mat texture_cells;  // ... with the texture: not the gaps closed between pieces
  if (!texture.empty() && reference_texture_.size() == texture.size()) {
    // A hand of the table's colour: its outline and the grid lines it hides, joined up.
    // (Only the texture cells are closed: closing the colour cells too would join up the
    // scattered cells an exposure change leaves.)
    texture_cells = TextureChangedCells(reference_texture_, texture, options_.texture_level);
    cv::Mat joined;
    cv::morphologyEx(texture_cells, joined, cv::MORPH_CLOSE,
                     cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
    texture_cells = (texture_cells & counted) | strong;
    strong |= joined & counted;
  }
  cv::Mat mask = strong;
  if (options_.grow_level < options_.level) {
    // Growth only through cells that are not bright in either picture: near saturation a
    // cell's average does not follow an exposure change, and a faint change there says nothing.
    constexpr double kBright = 200;
    const cv::Mat weak = ChangedCells(reference_, small, options_.grow_level) & counted &
                         (MaxChannel(reference_) < kBright) & (MaxChannel(small) < kBright);
    mask = Hysteresis(weak | strong, strong);
    colour_cells = mask & (weak | colour_cells);
    if (!texture_cells.empty()) texture_cells |= colour_cells;
  }
  const Crossing r = Largest(mask, colour_cells, texture_cells);
  if (r.from_outside) {
    report.hand = r.hand;
    report.area_mm2 = r.area_mm2;
    report.out_in = r.out_in;
    report.in_in = r.in_in;
    report.box_px = r.box_px;
  }
  const auto take_reference = [&] {
    reference_ = small;
    reference_texture_ = texture;
  };
  // Still: not moving, and not trembling since it came to rest (a hand held still does).
  const bool still =
      r.from_outside && !report.moving && (candidate_still_since_ < 0 || !Trembles(frame_bgr));
  if (still) {
    if (candidate_still_since_ < 0) {
      candidate_still_since_ = t_s;
      AnchorTremor(frame_bgr, r.box_px);
    }
    report.still_s = t_s - candidate_still_since_;
    // Something put down away from the board is scenery soon; what reaches to the board is a
    // hand held still until it leaves (its arm may be the colour of the table: not required).
    const bool held = r.in_in >= options_.held_reach_in_in;
    const double scenery_s = held ? options_.held_scenery_after_s : options_.scenery_after_s;
    if (report.still_s >= scenery_s) {
      // Perfectly still for long: something put down, not a hand.
      take_reference();
      candidate_still_since_ = -1;
      const bool moving = report.moving;
      report = HandReport{};
      report.moving = moving;
    }
  } else {
    candidate_still_since_ = -1;
    if (!r.from_outside && t_s - last_motion_t_ >= options_.settle_s) take_reference();
  }
  return report;
}

}  // namespace referee
