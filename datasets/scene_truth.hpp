// A scene's layout together with its ground truth, before any image is rendered: shared by the
// still images (GenerateScene) and the shot sequences, so both describe the same table.
#pragma once

#include "datasets/scene_layout.hpp"
#include "datasets/synth_scene.hpp"

namespace referee {

struct LaidOutScene {
  SceneLayout layout;
  SynthScene truth;  // everything but the images
  SynthRandom rng;   // the scene's random stream, positioned after layout and truth
};

// Throws InputError naming the scenario file when a stand kind is unknown.
LaidOutScene LayOutScene(const Scenario& scenario, const SynthOptions& options, int index);

}  // namespace referee
