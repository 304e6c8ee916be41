// The side-colour model a club would set up for a generated scenario: each side's base colour
// as the scenario paints it (sRGB).
#pragma once

#include "datasets/scenario.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

inline SideColorModel ScenarioSideColors(const Scenario& sc) {
  SideColorModel colors;
  for (const auto& side : sc.sides) {
    colors.AddSideFromSrgb(
        side.name, cv::Vec3b(static_cast<uchar>(side.colour[0]), static_cast<uchar>(side.colour[1]),
                             static_cast<uchar>(side.colour[2])));
  }
  return colors;
}

}  // namespace referee
