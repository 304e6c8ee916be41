// Side colour classification as free functions over a list of side Gaussians (what
// SideColorModel::ClassifyChroma runs), so that a model moved toward the mat for one frame
// (WashedToward) is classified exactly as the model itself.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/side_color_model.hpp"

namespace referee {

// Per side, a CV_8U mask (255 = this side) of the valid pixels of `chroma` (balanced
// log-chroma, CV_32FC2): each pixel goes to the nearest side within gate_sigma (Mahalanobis),
// or to none. With a mat chroma, a pixel must also be nearer the side than the mat (in the
// side's metric), so a blurred edge splits at the half-way mix.
std::vector<cv::Mat> ClassifySides(const cv::Mat& chroma, const cv::Mat& valid,
                                   const std::vector<SideColor>& sides, double gate_sigma,
                                   const cv::Vec2f* mat_chroma = nullptr);

// Same, where part of a base's border may lie in a figure's shadow. brightness: CV_8U, each
// pixel's largest channel. A shadow scales the border's light, not its chroma, but what the
// blur mixes in from a lit neighbour (mat, figure) then weighs 1/s as much against it (s the
// shadow's fraction of the lit brightness), so a border pixel darker than its side's lit
// borders may stray from the side's chroma by up to lit/brightness times the gate (at most
// kMaxShadowGateScale). Only pixels darker than the surface around them (the mat's local
// brightness) count as shadowed: a lit border blurred into a lit mat is never that dark, so
// unshadowed edges keep the plain gate. Each side's lit brightness is measured in this frame: the
// median over the pixels the plain gate takes. Only a side fitted to this frame (spread near the
// noise floor) is widened. The mat test stays unwidened: the pixel must still be nearer the side
// than the mat, and a shadowed pixel is kept only where it joins the plain gate's pixels.
std::vector<cv::Mat> ClassifySides(const cv::Mat& chroma, const cv::Mat& valid,
                                   const cv::Mat& brightness, const std::vector<SideColor>& sides,
                                   double gate_sigma, const cv::Vec2f* mat_chroma);

// The sides washed toward the mat: each mean moved to mat + factor * (mean - mat), the spread
// scaled by factor (each axis not below min_sigma). Mixing a colour with the mat (blur across a
// narrow border, a camera that desaturates) moves it along this line in log-chroma whatever
// the exposure and white balance, since those shift the mat and the border alike.
std::vector<SideColor> WashedToward(const std::vector<SideColor>& sides,
                                    const cv::Vec2f& mat_chroma, double factor, double min_sigma);

}  // namespace referee
