#include "calibration/marker_detection.hpp"

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>
#include <set>

namespace referee {

cv::Point2d MarkerCornerTable(const Grid& board, int id, int k, double marker_size_in,
                              double offset_in) {
  const double w = board.Width(), h = board.Height();
  const cv::Point2d centres[4] = {{-offset_in, -offset_in},
                                  {w + offset_in, -offset_in},
                                  {w + offset_in, h + offset_in},
                                  {-offset_in, h + offset_in}};
  const double s = marker_size_in / 2;
  const cv::Point2d offsets[4] = {{-s, -s}, {s, -s}, {s, s}, {-s, s}};
  return centres[id] + offsets[k];
}

MarkerCorners DetectCornerMarkers(const cv::Mat& image, const Grid& board) {
  cv::Mat gray = image;
  if (image.channels() == 3) cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  auto params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(gray, dict, corners, ids, params);
  MarkerCorners out;
  std::set<int> seen, duplicated;
  for (int id : ids) (seen.count(id) ? duplicated : seen).insert(id);
  for (size_t i = 0; i < ids.size(); ++i) {
    const int id = ids[i];
    if (id < 0 || id > 3 || duplicated.count(id)) continue;  // a duplicate is not trusted
    out.ids.push_back(id);
    for (int k = 0; k < 4; ++k) {
      out.table_in.push_back(MarkerCornerTable(board, id, k));
      out.px.emplace_back(corners[i][k].x, corners[i][k].y);
    }
  }
  return out;
}

}  // namespace referee
