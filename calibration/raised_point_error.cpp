#include "calibration/raised_point_error.hpp"

#include <algorithm>

namespace referee {

RaisedPointError MeasureRaisedPointError(const CameraModel& truth, const TableCalibration& cal,
                                         double raised_mm,
                                         const std::function<Vec2(Vec2)>& to_truth) {
  const double h_in = MmToInches(raised_mm);
  const Grid& b = cal.board;
  RaisedPointError e;
  int n = 0;
  for (double y = 0; y <= b.Height() + 1e-9; y += 1.0) {
    for (double x = 0; x <= b.Width() + 1e-9; x += 1.0) {
      const Vec2 ours = to_truth(cal.TableFromImage(truth.ImageFromTable({x, y}, h_in), h_in));
      const double d_mm = InchesToMm(Distance(ours, {x, y}));
      e.mean_mm += d_mm;
      e.max_mm = std::max(e.max_mm, d_mm);
      ++n;
    }
  }
  if (n > 0) e.mean_mm /= n;
  return e;
}

}  // namespace referee
