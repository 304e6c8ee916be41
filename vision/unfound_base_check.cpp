#include "vision/unfound_base_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <utility>

#include <opencv2/imgproc.hpp>

#include "vision/side_washout.hpp"

namespace referee {

namespace {

// Where the found stands lie as the top view sees them (CV_8U, 255), in `window`: each base's
// outline on the mat, its top and its tallest figures' tops (all lean away from the camera's
// foot), the hull of the three, grown by footprint_margin_mm.
cv::Mat ExplainedMask(const TopView& view, const std::vector<DetectedStand>& stands,
                      cv::Rect window, const UnfoundBaseOptions& o) {
  cv::Mat mask(window.size(), CV_8U, cv::Scalar(0));
  const double base_in = MmToInches(o.base_height_mm);
  const double top_in = MmToInches(o.base_height_mm + o.figure_height_mm);
  for (const DetectedStand& d : stands) {
    std::vector<cv::Point> pts, hull;
    for (const Vec2& corner : d.stand.footprint.Corners()) {
      for (const double h : {0.0, base_in, top_in}) {
        const cv::Point2d p = view.RectifiedFromTable(view.SeenOnMat(corner, h));
        pts.emplace_back(cvRound(p.x) - window.x, cvRound(p.y) - window.y);
      }
    }
    cv::convexHull(pts, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  }
  const int grow =
      std::max(1, static_cast<int>(std::lround(o.footprint_margin_mm / view.MmPerPx())));
  cv::dilate(mask, mask,
             cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * grow + 1, 2 * grow + 1}));
  return mask;
}

// Terrain that may show a shade of a side's colour over more than a piece of border. A roof
// hides what lies under it, so nothing is asked there; water, a bridge over it and a road are
// ground a base may stand on (SideShadeGround).
bool IsRoof(Terrain t) { return t == Terrain::kHouse; }
bool IsSideShadeGround(Terrain t) {
  return t == Terrain::kWater || t == Terrain::kBridge || t == Terrain::kRoad;
}

// Where the board places terrain `which` accepts (CV_8U, 255) in `window`: its squares and
// outlines on the mat, for houses and bridges also as seen at their height (roofs and decks lean
// away from the camera), grown by 2 mm for the blur.
cv::Mat TerrainInWindow(const Board& board, const TopView& view, cv::Rect window,
                        const UnfoundBaseOptions& o, bool (*which)(Terrain)) {
  cv::Mat mask(window.size(), CV_8U, cv::Scalar(0));
  const double tall_in = MmToInches(o.tall_terrain_height_mm);
  const auto fill = [&](const std::vector<Vec2>& outline, Terrain t) {
    const bool tall = t == Terrain::kHouse || t == Terrain::kBridge;
    std::vector<cv::Point> pts, hull;
    for (const Vec2& v : outline) {
      for (const Vec2& q : {v, tall ? view.SeenOnMat(v, tall_in) : v}) {
        const cv::Point2d p = view.RectifiedFromTable(q);
        pts.emplace_back(cvRound(p.x) - window.x, cvRound(p.y) - window.y);
      }
    }
    if (pts.size() < 3) return;
    if (tall) {
      cv::convexHull(pts, hull);
      cv::fillConvexPoly(mask, hull, cv::Scalar(255));
    } else {
      cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(255));
    }
  };
  const Grid& g = board.grid;
  for (int row = 0; row < g.rows; ++row) {
    for (int col = 0; col < g.cols; ++col) {
      const Terrain t = board.TerrainAt({col, row});
      if (!which(t)) continue;
      const double s = g.square_size_in, x = col * s, y = row * s;
      fill({{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}}, t);
    }
  }
  for (const auto& f : board.features) {
    if (which(f.type)) fill(f.outline.vertices, f.type);
  }
  const int grow = std::max(1, static_cast<int>(std::lround(2.0 / view.MmPerPx())));
  cv::dilate(mask, mask, cv::getStructuringElement(cv::MORPH_RECT, {2 * grow + 1, 2 * grow + 1}));
  return mask;
}

// The terrain a patch lies on where the board says water, a bridge or a road: the square's, or
// a feature's whose outline holds the point.
std::string GroundName(const Board& board, Vec2 p) {
  for (const auto& f : board.features) {
    if (IsSideShadeGround(f.type) && PointInPolygon(p, f.outline)) return TerrainName(f.type);
  }
  const auto sq = board.grid.SquareOf(p);
  return sq ? TerrainName(board.TerrainAt(*sq)) : std::string("terrain");
}

// The found stands' tops as the camera sees them (at base height), per side in the model's
// order, for MeasuredWashout.
std::vector<std::vector<PxRect>> FoundTops(const TopView& view, const StandDetection& stands,
                                           const UnfoundBaseOptions& o) {
  const auto& sides = stands.colors.sides();
  std::vector<std::vector<PxRect>> out(sides.size());
  const double base_in = MmToInches(o.base_height_mm);
  for (const DetectedStand& d : stands.stands) {
    const auto side = std::find_if(sides.begin(), sides.end(),
                                   [&](const SideColor& c) { return c.name == d.stand.side; });
    if (side == sides.end()) continue;
    const auto corners = d.stand.footprint.Corners();
    std::array<cv::Point2d, 4> px;
    for (size_t i = 0; i < 4; ++i) {
      px[i] = view.RectifiedFromTable(view.SeenOnMat(corners[i], base_in));
    }
    PxRect r;
    r.center = 0.25 * (px[0] + px[1] + px[2] + px[3]);
    r.len_a = cv::norm(px[1] - px[0]);
    r.len_b = cv::norm(px[3] - px[0]);
    if (r.len_a <= 0 || r.len_b <= 0) continue;
    r.axis_a = (px[1] - px[0]) * (1.0 / r.len_a);
    out[static_cast<size_t>(side - sides.begin())].push_back(r);
  }
  return out;
}

}  // namespace

std::vector<UnfoundBaseCheck> FindUnfoundBases(const TopView& view, const StandDetection& stands,
                                               Vec2 centre, double hit_radius_in,
                                               const Board* board, const UnfoundBaseOptions& o) {
  std::vector<UnfoundBaseCheck> out;
  if (stands.side_masks.empty()) return out;
  const double mm = view.MmPerPx();
  const cv::Point2d c = view.RectifiedFromTable(centre);
  const double near_px = hit_radius_in * view.px_per_inch() + o.reach_mm / mm;
  // Patches are measured whole, also where they run on outside the circle: up to a base's
  // diagonal (40 x 40 mm) beyond it.
  const double window_px = near_px + 60.0 / mm;
  const cv::Rect window = cv::Rect(cvFloor(c.x - window_px), cvFloor(c.y - window_px),
                                   cvCeil(2 * window_px) + 1, cvCeil(2 * window_px) + 1) &
                          cv::Rect({0, 0}, stands.side_masks.front().size());
  if (window.empty()) return out;
  // What found stands explain and what roofs hide are set aside. Water, a bridge and a road
  // may show a side's shade by themselves, so there only the side's strict colour counts; where
  // the ground shows even that, a base of that side on it cannot be told from it by colour, and
  // the players are asked to look (hard 59/8: a blue base on a river of blue's own chroma, only
  // darker, was missed and hit without a word when these squares were left out whole).
  cv::Mat explained = ExplainedMask(view, stands.stands, window, o);
  cv::Mat ground(window.size(), CV_8U, cv::Scalar(0));
  if (board) {
    explained |= TerrainInWindow(*board, view, window, o, IsRoof);
    ground = TerrainInWindow(*board, view, window, o, IsSideShadeGround) & ~explained;
  }
  cv::Mat near(window.size(), CV_8U, cv::Scalar(0));
  cv::circle(near, cv::Point(cvRound(c.x) - window.x, cvRound(c.y) - window.y), cvRound(near_px),
             cv::Scalar(255), cv::FILLED);
  const auto& sides = stands.colors.sides();
  // Per side, its washed colour's evidence at the side's own bar.
  std::vector<cv::Mat> toward;
  if (o.toward_min_fraction < 1.0 && !stands.chroma.empty()) {
    cv::Mat smooth;  // pixel noise would break a washed-out border into dots
    cv::blur(stands.chroma(window), smooth, {3, 3});
    const std::vector<std::vector<PxRect>> tops =
        o.washout_share > 0 ? FoundTops(view, stands, o) : std::vector<std::vector<PxRect>>();
    const double border_px = WashoutOptions().border_band_mm / mm;
    std::vector<std::pair<double, std::vector<cv::Mat>>> by_bar;  // one classification per bar
    for (size_t s = 0; s < sides.size(); ++s) {
      double bar = o.toward_min_fraction;
      if (o.washout_share > 0) {
        // The side's own found borders when 3 or more; else every side's.
        double m = SideWashout(stands.chroma, stands.valid, stands.mat_chroma, sides, tops, s, 0,
                               border_px);
        if (m <= 0) {
          m = MeasuredWashout(stands.chroma, stands.valid, stands.mat_chroma, sides, tops,
                              border_px);
        }
        if (m > 0) bar = std::max(o.washed_min_fraction, std::min(bar, o.washout_share * m));
      }
      auto it =
          std::find_if(by_bar.begin(), by_bar.end(), [&](const auto& b) { return b.first == bar; });
      if (it == by_bar.end()) {
        by_bar.emplace_back(bar, TowardSidesMasks(smooth, stands.valid(window), stands.mat_chroma,
                                                  sides, bar, o.toward_cone));
        it = std::prev(by_bar.end());
      }
      toward.push_back(it->second[s]);
    }
  }
  for (size_t s = 0; s < stands.side_masks.size() && s < sides.size(); ++s) {
    cv::Mat evidence = stands.side_masks[s](window).clone();
    if (s < toward.size()) evidence |= toward[s] & ~ground;
    const cv::Mat unexplained = evidence & ~explained;
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(unexplained, labels, stats, centroids, 8);
    std::vector<std::vector<cv::Point>> pieces(static_cast<size_t>(n));
    std::vector<bool> reaches(static_cast<size_t>(n), false);
    std::vector<size_t> on_ground(static_cast<size_t>(n), 0);
    for (int y = 0; y < labels.rows; ++y) {
      const int* l = labels.ptr<int>(y);
      const uchar* in = near.ptr<uchar>(y);
      const uchar* gr = ground.ptr<uchar>(y);
      for (int x = 0; x < labels.cols; ++x) {
        if (l[x] == 0) continue;
        pieces[static_cast<size_t>(l[x])].emplace_back(x, y);
        if (in[x]) reaches[static_cast<size_t>(l[x])] = true;
        if (gr[x]) ++on_ground[static_cast<size_t>(l[x])];
      }
    }
    std::optional<UnfoundBaseCheck> best;
    for (int k = 1; k < n; ++k) {
      const auto& pts = pieces[static_cast<size_t>(k)];
      if (!reaches[static_cast<size_t>(k)]) continue;
      const double area_mm2 = static_cast<double>(pts.size()) * mm * mm;
      if (area_mm2 < o.min_area_mm2) continue;
      const cv::RotatedRect box = cv::minAreaRect(pts);
      const double length_mm = std::max(box.size.width, box.size.height) * mm;
      if (length_mm < o.min_length_mm) continue;
      if (best && best->area_mm2 >= area_mm2) continue;
      cv::Point nearest = pts.front();
      double nearest_d = 1e300;
      for (const cv::Point& p : pts) {
        const double d = std::hypot(p.x + window.x - c.x, p.y + window.y - c.y);
        if (d < nearest_d) nearest_d = d, nearest = p;
      }
      UnfoundBaseCheck chk;
      chk.side = sides[s].name;
      chk.point = view.TableFromRectified(cv::Point2d(nearest.x + window.x, nearest.y + window.y));
      chk.area_mm2 = area_mm2;
      chk.length_mm = length_mm;
      char buf[260];
      if (board && 2 * on_ground[static_cast<size_t>(k)] >= pts.size()) {
        chk.ground = GroundName(*board, chk.point);
        std::snprintf(buf, sizeof buf,
                      "%s colour (%.0f mm^2, %.0f mm long) on the %s in or beside the hit circle: "
                      "a %s base there cannot be told from it by its colour; look",
                      chk.side.c_str(), area_mm2, length_mm,
                      chk.ground == "bridge" ? "water under the bridge" : chk.ground.c_str(),
                      chk.side.c_str());
      } else {
        std::snprintf(buf, sizeof buf,
                      "%s colour (%.0f mm^2, %.0f mm long) in or beside the hit circle that no "
                      "found stand explains: a base not detected?",
                      chk.side.c_str(), area_mm2, length_mm);
      }
      chk.reason = buf;
      best = chk;
    }
    if (best) out.push_back(*best);
  }
  return out;
}

}  // namespace referee
