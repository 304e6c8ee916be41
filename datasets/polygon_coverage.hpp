// Exact-area polygon rasterisation: every pixel takes the fraction of its square covered by the
// polygon, as an ideal sensor pixel integrates the light falling on it. Pixel centres sit at
// integer coordinates, so pixel (x, y) covers [x - 0.5, x + 0.5] x [y - 0.5, y + 0.5].
//
// Why not cv::fillPoly: it also paints every pixel its outline passes through, which grows each
// shape by about half a pixel on every side (a measurable outward bias of the truth edges).
#pragma once

#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct PolygonCoverage {
  cv::Rect roi;   // inside the image; empty when the polygon misses it
  cv::Mat alpha;  // CV_32F, roi.size(), covered fraction 0..1 of each pixel
};

// Coverage of a polygon (non-zero winding; any vertex count, may extend past the image) over an
// image of `size`.
PolygonCoverage CoverPolygon(const std::vector<cv::Point2d>& polygon, cv::Size size);

// Coverage of the axis-aligned rectangle [x0, x1] x [y0, y1] (pixel coordinates, centres at
// integers): separable, so cheap even for rectangles as large as the image.
PolygonCoverage CoverRect(double x0, double y0, double x1, double y1, cv::Size size);

// Convex hull (counter-clockwise in y-down pixels, Andrew's monotone chain) in double precision;
// cv::convexHull only takes float or int points.
std::vector<cv::Point2d> ConvexHull(std::vector<cv::Point2d> points);

// img = img * (1 - alpha) + colour * alpha over the coverage's ROI (CV_8UC1 or CV_8UC3).
void BlendCoverage(cv::Mat& img, const PolygonCoverage& cover, const cv::Scalar& colour);

}  // namespace referee
