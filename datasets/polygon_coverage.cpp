#include "datasets/polygon_coverage.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace referee {

namespace {

// Signed-area accumulation (the scheme of font renderers such as font-rs): every edge adds, to
// the cells it crosses, the change in covered area it causes toward the right; a running sum
// along each row then gives each pixel's winding-weighted coverage. Coordinates here are local
// with pixel corners at integers: cell i of a row covers [i, i + 1).
class Accumulator {
 public:
  Accumulator(int width, int height)
      : w_(width), h_(height), acc_(static_cast<size_t>(width + 2) * height, 0.0) {}

  // Adds the edge (ax, ay) -> (bx, by); x must already lie in [0, w].
  void Line(double ax, double ay, double bx, double by) {
    if (std::abs(ay - by) < 1e-12) return;
    double dir = 1.0;
    if (ay > by) {
      std::swap(ax, bx);
      std::swap(ay, by);
      dir = -1.0;
    }
    const double dxdy = (bx - ax) / (by - ay);
    double x = ax;
    if (ay < 0) x -= ay * dxdy;
    const int y_begin = std::max(0, static_cast<int>(std::floor(ay)));
    const int y_end = std::min(h_, static_cast<int>(std::ceil(by)));
    for (int y = y_begin; y < y_end; ++y) {
      const double dy = std::min(y + 1.0, by) - std::max(static_cast<double>(y), ay);
      const double x_next = x + dxdy * dy;
      const double d = dy * dir;
      const double x0 = std::clamp(std::min(x, x_next), 0.0, static_cast<double>(w_));
      const double x1 = std::clamp(std::max(x, x_next), 0.0, static_cast<double>(w_));
      double* row = &acc_[static_cast<size_t>(y) * (w_ + 2)];
      const double x0_floor = std::floor(x0);
      const int x0i = static_cast<int>(x0_floor);
      const double x1_ceil = std::ceil(x1);
      const int x1i = static_cast<int>(x1_ceil);
      if (x1i <= x0i + 1) {
        const double xm = 0.5 * (x0 + x1) - x0_floor;
        row[x0i] += d - d * xm;
        row[x0i + 1] += d * xm;
      } else {
        const double s = 1.0 / (x1 - x0);
        const double x0f = x0 - x0_floor;
        const double a0 = 0.5 * s * (1.0 - x0f) * (1.0 - x0f);
        const double x1f = x1 - x1_ceil + 1.0;
        const double am = 0.5 * s * x1f * x1f;
        row[x0i] += d * a0;
        if (x1i == x0i + 2) {
          row[x0i + 1] += d * (1.0 - a0 - am);
        } else {
          const double a1 = s * (1.5 - x0f);
          row[x0i + 1] += d * (a1 - a0);
          for (int xi = x0i + 2; xi < x1i - 1; ++xi) row[xi] += d * s;
          const double a2 = a1 + (x1i - x0i - 3) * s;
          row[x1i - 1] += d * (1.0 - a2 - am);
        }
        row[x1i] += d * am;
      }
      x = x_next;
    }
  }

  cv::Mat Alpha() const {
    cv::Mat out(h_, w_, CV_32F);
    for (int y = 0; y < h_; ++y) {
      const double* row = &acc_[static_cast<size_t>(y) * (w_ + 2)];
      auto* o = out.ptr<float>(y);
      double sum = 0.0;
      for (int x = 0; x < w_; ++x) {
        sum += row[x];
        o[x] = static_cast<float>(std::min(1.0, std::abs(sum)));
      }
    }
    return out;
  }

 private:
  int w_, h_;
  std::vector<double> acc_;
};

}  // namespace

PolygonCoverage CoverPolygon(const std::vector<cv::Point2d>& polygon, cv::Size size) {
  PolygonCoverage out;
  if (polygon.size() < 3) return out;
  // Corner coordinates: pixel x covers [x, x + 1).
  double min_x = 1e300, max_x = -1e300, min_y = 1e300, max_y = -1e300;
  for (const auto& p : polygon) {
    min_x = std::min(min_x, p.x + 0.5);
    max_x = std::max(max_x, p.x + 0.5);
    min_y = std::min(min_y, p.y + 0.5);
    max_y = std::max(max_y, p.y + 0.5);
  }
  if (!(max_x > 0 && max_y > 0 && min_x < size.width && min_y < size.height)) return out;
  const int x0 = std::max(0, static_cast<int>(std::floor(min_x)));
  const int y0 = std::max(0, static_cast<int>(std::floor(min_y)));
  const int x1 = std::min(size.width, static_cast<int>(std::ceil(max_x)));
  const int y1 = std::min(size.height, static_cast<int>(std::ceil(max_y)));
  if (x1 <= x0 || y1 <= y0) return out;
  const int w = x1 - x0, h = y1 - y0;
  Accumulator acc(w, h);
  for (size_t i = 0; i < polygon.size(); ++i) {
    const cv::Point2d a(polygon[i].x + 0.5 - x0, polygon[i].y + 0.5 - y0);
    const cv::Point2d b(polygon[(i + 1) % polygon.size()].x + 0.5 - x0,
                        polygon[(i + 1) % polygon.size()].y + 0.5 - y0);
    // Split where the edge crosses x = 0 or x = w. A piece left of the window only matters
    // through its vertical extent, so it becomes a vertical edge on x = 0 (exact); a piece right
    // of it lands on x = w, outside every pixel of the window.
    std::array<double, 4> ts{0.0, 1.0, 1.0, 1.0};  // 0, the crossings in order, then 1
    int n = 1;
    if (b.x != a.x) {
      for (const double edge : {0.0, static_cast<double>(w)}) {
        const double t = (edge - a.x) / (b.x - a.x);
        if (t > 0.0 && t < 1.0) ts[n++] = t;
      }
    }
    if (n == 3 && ts[1] > ts[2]) std::swap(ts[1], ts[2]);
    ts[n++] = 1.0;
    for (int k = 0; k + 1 < n; ++k) {
      const cv::Point2d p = a + ts[k] * (b - a), q = a + ts[k + 1] * (b - a);
      acc.Line(std::clamp(p.x, 0.0, 1.0 * w), p.y, std::clamp(q.x, 0.0, 1.0 * w), q.y);
    }
  }
  out.roi = cv::Rect(x0, y0, w, h);
  out.alpha = acc.Alpha();
  return out;
}

PolygonCoverage CoverRect(double x0, double y0, double x1, double y1, cv::Size size) {
  PolygonCoverage out;
  // Corner coordinates, clipped to the image.
  const double ax = std::max(0.0, x0 + 0.5), bx = std::min(1.0 * size.width, x1 + 0.5);
  const double ay = std::max(0.0, y0 + 0.5), by = std::min(1.0 * size.height, y1 + 0.5);
  if (bx <= ax || by <= ay) return out;
  const int c0 = static_cast<int>(std::floor(ax)), c1 = static_cast<int>(std::ceil(bx));
  const int r0 = static_cast<int>(std::floor(ay)), r1 = static_cast<int>(std::ceil(by));
  out.roi = cv::Rect(c0, r0, c1 - c0, r1 - r0);
  const auto overlap = [](int i, double lo, double hi) {
    return static_cast<float>(std::max(0.0, std::min(i + 1.0, hi) - std::max(1.0 * i, lo)));
  };
  std::vector<float> fx(out.roi.width);
  for (int x = c0; x < c1; ++x) fx[x - c0] = overlap(x, ax, bx);
  out.alpha.create(out.roi.size(), CV_32F);
  for (int y = r0; y < r1; ++y) {
    const float fy = overlap(y, ay, by);
    auto* o = out.alpha.ptr<float>(y - r0);
    for (int x = 0; x < out.roi.width; ++x) o[x] = fx[x] * fy;
  }
  return out;
}

std::vector<cv::Point2d> ConvexHull(std::vector<cv::Point2d> pts) {
  std::sort(pts.begin(), pts.end(), [](const cv::Point2d& a, const cv::Point2d& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  if (pts.size() < 3) return pts;
  const auto cross = [](const cv::Point2d& o, const cv::Point2d& a, const cv::Point2d& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<cv::Point2d> hull(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, lower = k + 1; i > 0; --i) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0) --k;
    hull[k++] = pts[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}

void BlendCoverage(cv::Mat& img, const PolygonCoverage& cover, const cv::Scalar& colour) {
  if (cover.roi.empty()) return;
  const int channels = img.channels();
  CV_Assert(img.depth() == CV_8U && (channels == 1 || channels == 3));
  cv::Mat roi = img(cover.roi);
  const float c[3] = {static_cast<float>(colour[0]), static_cast<float>(colour[1]),
                      static_cast<float>(colour[2])};
  const auto rows = [&](const cv::Range& range) {
    for (int y = range.start; y < range.end; ++y) {
      uchar* p = roi.ptr<uchar>(y);
      const float* a = cover.alpha.ptr<float>(y);
      for (int x = 0; x < roi.cols; ++x) {
        const float al = a[x];
        if (al <= 0.0f) continue;
        for (int k = 0; k < channels; ++k) {
          uchar& v = p[x * channels + k];
          const auto f = static_cast<float>(v);
          v = cv::saturate_cast<uchar>(f + (c[k] - f) * al);
        }
      }
    }
  };
  // Threads only pay for large areas (the mat, the table), not for the many small solids.
  if (static_cast<double>(roi.rows) * roi.cols > 2e5) {
    cv::parallel_for_(cv::Range(0, roi.rows), rows);
  } else {
    rows(cv::Range(0, roi.rows));
  }
}

}  // namespace referee
