// Another camera's response applied to a frame (datasets/camera_response): each part does what
// it says on a plain frame, measured on the pixels, and an inactive response changes nothing.
#include "datasets/camera_response.hpp"

#include <gtest/gtest.h>

#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace referee {
namespace {

cv::Mat Grey(int level) { return cv::Mat(120, 160, CV_8UC3, cv::Scalar::all(level)); }

TEST(CameraResponse, InactiveLeavesTheFrameAsItIs) {
  CameraResponse r;
  r.gamma = 0.5;  // set, but not active
  const cv::Mat f = Grey(100);
  EXPECT_EQ(Reshot(f, r, false).data, f.data);
  EXPECT_EQ(r.Describe(), "gamma 0.5");
  EXPECT_EQ(CameraResponse{}.Describe(), "as rendered");
}

TEST(CameraResponse, EachPartChangesThePixelsAsACameraWould) {
  CameraResponse wb;
  wb.active = true;
  wb.white_balance = {0.8, 1.0, 1.2};
  const cv::Vec3b c = Reshot(Grey(100), wb, false).at<cv::Vec3b>(60, 80);
  EXPECT_EQ(c, cv::Vec3b(80, 100, 120));

  CameraResponse tone;
  tone.active = true;
  tone.gamma = 0.5;
  EXPECT_NEAR(Reshot(Grey(64), tone, false).at<cv::Vec3b>(0, 0)[1], 128, 1);

  CameraResponse shade;
  shade.active = true;
  shade.vignette = 0.2;
  const cv::Mat v = Reshot(Grey(200), shade, false);
  EXPECT_NEAR(v.at<cv::Vec3b>(60, 80)[0], 200, 1);      // the centre
  EXPECT_NEAR(v.at<cv::Vec3b>(0, 0)[0], 200 * 0.6, 2);  // a corner: 1 - 0.2 * 2

  CameraResponse grey;
  grey.active = true;
  grey.desaturate = 1.0;
  const cv::Vec3b g =
      Reshot(cv::Mat(4, 4, CV_8UC3, cv::Scalar(30, 60, 210)), grey, false).at<cv::Vec3b>(0, 0);
  EXPECT_EQ(g, cv::Vec3b(100, 100, 100));

  // A soft lens spreads a sharp step; noise of sigma 5 measures 5.
  cv::Mat step = Grey(50);
  step.colRange(80, 160).setTo(cv::Scalar::all(200));
  CameraResponse soft;
  soft.active = true;
  soft.blur_px = 2.0;
  const cv::Mat b = Reshot(step, soft, false);
  EXPECT_GT(b.at<cv::Vec3b>(60, 78)[0], 60);
  EXPECT_LT(b.at<cv::Vec3b>(60, 81)[0], 190);
  CameraResponse noisy;
  noisy.active = true;
  noisy.noise = 5.0;
  cv::Scalar mean, sd;
  cv::meanStdDev(Reshot(Grey(128), noisy, false, 3), mean, sd);
  EXPECT_NEAR(sd[0], 5.0, 0.3);
  EXPECT_NEAR(mean[0], 128.0, 0.3);
  const cv::Mat again = Reshot(Grey(128), noisy, false, 3);
  EXPECT_EQ(cv::norm(again, Reshot(Grey(128), noisy, false, 3), cv::NORM_L1), 0.0)
      << "the same seed, the same frame";
}

// An MJPEG webcam: a lossless frame sent as JPEG at the quality set, 4:2:0 chroma. A thin red
// line on green loses saturation to the halved chroma; a source JPEG is compressed at that
// quality too, not at 92.
TEST(CameraResponse, JpegQualitySendsEveryFrameAsThatJpeg) {
  cv::Mat f(120, 160, CV_8UC3, cv::Scalar(40, 120, 50));
  f.col(80).setTo(cv::Scalar(30, 30, 200));
  CameraResponse mjpeg;
  mjpeg.active = true;
  mjpeg.jpeg_quality = 80;
  EXPECT_EQ(mjpeg.Describe(), "JPEG quality 80");
  std::vector<uchar> buf;
  cv::imencode(".jpg", f, buf, {cv::IMWRITE_JPEG_QUALITY, 80});
  const cv::Mat expected = cv::imdecode(buf, cv::IMREAD_COLOR);
  const cv::Mat sent = Reshot(f, mjpeg, false);
  EXPECT_EQ(cv::norm(sent, expected, cv::NORM_L1), 0.0);
  EXPECT_GT(cv::norm(sent, f, cv::NORM_L1), 0.0);
  const cv::Vec3b line = sent.at<cv::Vec3b>(60, 80);
  EXPECT_LT(line[2] - line[1], 200 - 30 - 40) << "the line keeps less of its red";
  CameraResponse q92;
  q92.active = true;
  q92.desaturate = 0.0;
  EXPECT_GT(cv::norm(Reshot(f, mjpeg, true), Reshot(f, q92, true), cv::NORM_L1), 0.0);
}

}  // namespace
}  // namespace referee
