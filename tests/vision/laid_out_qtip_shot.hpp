// A scene laid out by a test (LayOutScene, then its Q-tip placed by hand) rendered as the
// camera sees it before and after the shot: same lighting and photo noise stream as the
// generator's own pairs.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"

namespace referee {

struct RenderedQtipShot {
  cv::Mat before, after;  // as rendered (`after` not yet JPEG-compressed)
};

inline RenderedQtipShot RenderQtipShot(LaidOutScene& laid, int supersample) {
  const SceneLayout& L = laid.layout;
  const SceneRenderer renderer(L, supersample);
  SynthRandom photo = laid.rng.Fork();
  std::vector<Solid> solids = StaticSolids(L, true);
  RenderedQtipShot out;
  out.before = renderer.Render(solids, photo);
  const auto q = QtipSolids(L.qtip, L.paint_bgr);
  solids.insert(solids.end(), q.begin(), q.end());
  out.after = renderer.Render(solids, photo);
  return out;
}

}  // namespace referee
