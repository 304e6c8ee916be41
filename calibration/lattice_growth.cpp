#include "calibration/lattice_growth.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <opencv2/calib3d.hpp>
#include <set>

#include "calibration/predicted_crossing.hpp"

namespace referee {

namespace {

using Label = std::pair<int, int>;

std::optional<CameraFit> Fit(const std::map<Label, cv::Point2d>& found, double square_in,
                             cv::Size image_size, const std::optional<LensModel>& lens,
                             const CameraFitOptions& options) {
  std::vector<cv::Point2d> tin, px;
  for (const auto& [ij, p] : found) {
    tin.emplace_back(ij.first * square_in, ij.second * square_in);
    px.push_back(p);
  }
  return FitCamera(tin, px, image_size, lens, options);
}

// Chebyshev distance (squares) to the nearest measured crossing, searched up to `limit`.
int NearestFound(const std::map<Label, cv::Point2d>& found, Label ij, int limit) {
  for (int r = 1; r <= limit; ++r) {
    for (int di = -r; di <= r; ++di) {
      for (int dj = -r; dj <= r; ++dj) {
        if (std::max(std::abs(di), std::abs(dj)) == r &&
            found.count({ij.first + di, ij.second + dj})) {
          return r;
        }
      }
    }
  }
  return limit + 1;
}

}  // namespace

std::optional<GrownLattice> GrowLattice(const cv::Mat& gray,
                                        const std::vector<LatticeCrossing>& seeds, double square_in,
                                        cv::Rect bounds, cv::Size image_size,
                                        const std::optional<LensModel>& lens,
                                        const CameraFitOptions& fit_options,
                                        const RefineOptions& refine_options,
                                        const LatticeGrowthOptions& options) {
  std::map<Label, cv::Point2d> found;
  for (const auto& c : seeds) found[{c.i, c.j}] = c.px;
  auto fit = Fit(found, square_in, image_size, lens, fit_options);
  if (!fit) return std::nullopt;
  // Each wave tries the unmeasured crossings within `reach` squares of a measured one; when a
  // wave adds nothing the reach widens, so the lattice also crosses a band hidden by terrain
  // to the visible grid beyond it. Any crossing added brings the reach back to one square.
  int reach = 1;
  for (int wave = 0; wave < options.max_waves && reach <= options.max_reach_squares; ++wave) {
    std::vector<Label> cand;
    for (int i = bounds.x; i < bounds.x + bounds.width; ++i) {
      for (int j = bounds.y; j < bounds.y + bounds.height; ++j) {
        if (found.count({i, j})) continue;
        if (NearestFound(found, {i, j}, reach) <= reach) cand.push_back({i, j});
      }
    }
    if (cand.empty()) break;
    const auto measured_px =
        MeasurePredictedCrossings(gray, fit->camera, cand, square_in, refine_options);
    std::map<Label, cv::Point2d> fresh;
    for (size_t k = 0; k < cand.size(); ++k) {
      if (measured_px[k]) fresh[cand[k]] = *measured_px[k];
    }
    const size_t before = found.size();
    // Local test: the camera refitted with the new crossings must explain each of them; one that
    // it cannot (a stand's edge, a road's border taken for a line) is dropped and the rest refit.
    std::map<Label, cv::Point2d> all = found;
    all.insert(fresh.begin(), fresh.end());
    for (int round = 0; round < 4 && !fresh.empty(); ++round) {
      auto f2 = Fit(all, square_in, image_size, lens, fit_options);
      if (!f2) return std::nullopt;
      std::map<Label, double> fresh_res;
      size_t k = 0;
      for (const auto& ij : all) {
        const double r = f2->residual_px[k++];
        if (fresh.count(ij.first)) fresh_res[ij.first] = r;
      }
      double worst = 0;
      for (const auto& [ij, r] : fresh_res) worst = std::max(worst, r);
      if (worst <= options.accept_residual_px) {
        fit = f2;
        found = all;
        break;
      }
      // The far-off ones first (several at once when several are), then refit.
      const double cut = std::max(options.accept_residual_px, 0.5 * worst);
      for (const auto& [ij, r] : fresh_res) {
        if (r > cut) {
          fresh.erase(ij);
          all.erase(ij);
        }
      }
    }
    reach = found.size() > before ? 1 : reach + 1;
  }
  GrownLattice out;
  out.camera = fit->camera;
  for (const auto& [ij, px] : found) out.crossings.push_back({ij.first, ij.second, px});
  return out;
}

bool CloseSkippedLines(std::vector<LatticeCrossing>& crossings) {
  std::set<int> is, js;
  for (const auto& c : crossings) {
    is.insert(c.i);
    js.insert(c.j);
  }
  // The common step of a direction's labels; a direction seen on two lines only says nothing
  // about the lines between them.
  auto step = [](const std::set<int>& labels) {
    if (labels.size() < 3) return 1;
    int g = 0;
    for (int l : labels) g = std::gcd(g, l - *labels.begin());
    return std::max(g, 1);
  };
  const int gi = step(is), gj = step(js);
  if (gi == 1 && gj == 1) return false;
  for (auto& c : crossings) {
    c.i = *is.begin() + (c.i - *is.begin()) / gi;
    c.j = *js.begin() + (c.j - *js.begin()) / gj;
  }
  return true;
}

}  // namespace referee
