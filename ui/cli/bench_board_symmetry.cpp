#include "ui/cli/bench_board_symmetry.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace referee::cli {

cv::Point2i BoardSymmetry::ToTruth(cv::Point2i crossing) const {
  int c = crossing.x, r = crossing.y;
  if (id & 4) std::swap(c, r);
  if (id & 1) c = grid.cols - c;
  if (id & 2) r = grid.rows - r;
  return {c, r};
}

Vec2 BoardSymmetry::ToTruth(Vec2 p) const {
  if (id & 4) std::swap(p.x, p.y);
  if (id & 1) p.x = grid.Width() - p.x;
  if (id & 2) p.y = grid.Height() - p.y;
  return p;
}

Vec2 BoardSymmetry::FromTruth(Vec2 p) const {
  // The inverse undoes the mirrors first, then the swap (each step is its own inverse).
  if (id & 1) p.x = grid.Width() - p.x;
  if (id & 2) p.y = grid.Height() - p.y;
  if (id & 4) std::swap(p.x, p.y);
  return p;
}

namespace {

// A direction through the linear part of a symmetry (mirrors and swap, no offsets).
double MapAngle(double angle_deg, int id, bool inverse) {
  double dx = std::cos(DegToRad(angle_deg)), dy = std::sin(DegToRad(angle_deg));
  if (!inverse && (id & 4)) std::swap(dx, dy);
  if (id & 1) dx = -dx;
  if (id & 2) dy = -dy;
  if (inverse && (id & 4)) std::swap(dx, dy);
  double out = RadToDeg(std::atan2(dy, dx));
  // Keep the angle in [0, 360) like the detector's and the truth's.
  if (out < 0) out += 360.0;
  return out;
}

}  // namespace

double BoardSymmetry::AngleToTruth(double angle_deg) const {
  return id == 0 ? angle_deg : MapAngle(angle_deg, id, false);
}

double BoardSymmetry::AngleFromTruth(double angle_deg) const {
  return id == 0 ? angle_deg : MapAngle(angle_deg, id, true);
}

bool BoardSymmetry::Mirrors() const { return (((id >> 0) ^ (id >> 1) ^ (id >> 2)) & 1) != 0; }

double BoardSymmetry::RectAngleToTruth(double angle_deg) const {
  // A mirror turns the facing (the width axis turned -90 degrees) to the other side of the
  // mapped width axis.
  const double a = AngleToTruth(angle_deg) + (Mirrors() ? 180.0 : 0.0);
  return a >= 360.0 ? a - 360.0 : a;
}

double BoardSymmetry::RectAngleFromTruth(double angle_deg) const {
  // The inverse of RectAngleToTruth: the mirror's half turn undone, then the direction mapped.
  const double a = AngleFromTruth(angle_deg) + (Mirrors() ? 180.0 : 0.0);
  return a >= 360.0 ? a - 360.0 : a;
}

nlohmann::json StandFromTruth(const nlohmann::json& truth_stand, const BoardSymmetry& symmetry) {
  if (symmetry.IsIdentity()) return truth_stand;
  const auto ours = [&](const nlohmann::json& xy) {
    const Vec2 p = symmetry.FromTruth({xy.at(0).get<double>(), xy.at(1).get<double>()});
    return nlohmann::json::array({p.x, p.y});
  };
  nlohmann::json s = truth_stand;
  s["center"] = ours(truth_stand.at("center"));
  s["angle_deg"] = symmetry.RectAngleFromTruth(truth_stand.at("angle_deg").get<double>());
  if (truth_stand.contains("corners")) {
    s["corners"] = nlohmann::json::array();
    for (const auto& q : truth_stand.at("corners")) s["corners"].push_back(ours(q));
  }
  return s;
}

BoardSymmetry FindBoardSymmetry(const std::vector<IntersectionFix>& found,
                                const std::vector<cv::Point2d>& truth_crossings_px,
                                const Grid& truth_grid) {
  int votes[8] = {0};
  for (const auto& f : found) {
    size_t best = 0;
    double best_d = 1e18;
    for (size_t k = 0; k < truth_crossings_px.size(); ++k) {
      const double d = cv::norm(truth_crossings_px[k] - f.px);
      if (d < best_d) best_d = d, best = k;
    }
    const cv::Point2i truth_label(static_cast<int>(best) % (truth_grid.cols + 1),
                                  static_cast<int>(best) / (truth_grid.cols + 1));
    for (int id = 0; id < 8; ++id) {
      if (BoardSymmetry{id, truth_grid}.ToTruth(cv::Point2i(f.col, f.row)) == truth_label)
        ++votes[id];
    }
  }
  // Ties (nothing found) go to the lowest id, the identity.
  return {static_cast<int>(std::max_element(votes, votes + 8) - votes), truth_grid};
}

BoardSymmetry FindBoardSymmetry(const std::vector<IntersectionFix>& found,
                                const nlohmann::json& truth, const Grid& truth_grid) {
  std::vector<cv::Point2d> truth_crossings_px;
  for (const auto& p : truth.at("grid_intersections_px")) {
    truth_crossings_px.emplace_back(p.at(0).get<double>(), p.at(1).get<double>());
  }
  return FindBoardSymmetry(found, truth_crossings_px, truth_grid);
}

Board BoardFromTruth(const Board& truth_board, const BoardSymmetry& symmetry) {
  if (symmetry.IsIdentity()) return truth_board;
  Board ours = truth_board;
  // Our grid: with a swap our columns run along the truth's rows.
  if (symmetry.id & 4) std::swap(ours.grid.cols, ours.grid.rows);
  ours.terrain.clear();
  for (const auto& [square, terrain] : truth_board.terrain) {
    const Vec2 centre = symmetry.FromTruth(truth_board.grid.Center(square));
    if (const auto s = ours.grid.SquareOf(centre)) ours.terrain[*s] = terrain;
  }
  for (auto& feature : ours.features) {
    for (auto& p : feature.outline.vertices) p = symmetry.FromTruth(p);
  }
  return ours;
}

}  // namespace referee::cli
