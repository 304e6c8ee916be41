#include "vision/principal_axis.hpp"

namespace referee {

PrincipalAxis FitPrincipalAxis(const std::vector<cv::Point>& pts) {
  cv::Mat data(static_cast<int>(pts.size()), 2, CV_64F);
  for (size_t i = 0; i < pts.size(); ++i) {
    data.at<double>(static_cast<int>(i), 0) = pts[i].x;
    data.at<double>(static_cast<int>(i), 1) = pts[i].y;
  }
  const cv::PCA pca(data, cv::Mat(), cv::PCA::DATA_AS_ROW);
  return {{pca.mean.at<double>(0), pca.mean.at<double>(1)},
          {pca.eigenvectors.at<double>(0, 0), pca.eigenvectors.at<double>(0, 1)}};
}

}  // namespace referee
