// A short frame sequence of one shot, for rest detection, hand refusal and the overlay demo:
// the table with its stands, the projectile flying in, bouncing, sliding and coming to rest,
// then a hand reaching in and out. The final layout is the same as the still scene of the same
// (scenario, seed, index), so its truth.json applies to the frames at rest.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "datasets/scenario.hpp"
#include "datasets/synth_scene.hpp"

namespace referee {

struct SequenceOptions {
  double fps = 15.0;       // frames per second of the written sequence
  double lead_in_s = 0.6;  // still table before the projectile appears
  double rest_s = 1.2;     // projectile at rest before the hand comes in
  double hand_s = 1.6;     // hand in, hold, out
  double tail_s = 0.8;     // at rest again after the hand left
  bool with_hand = true;   // a hand reaches in (always, regardless of hand_probability)
  bool video = false;      // also write sequence.avi (MJPG)
  int jpeg_quality = 85;
};

// Per-frame truth written to frames.json.
struct SequenceFrame {
  int index = 0;
  double t_s = 0.0;
  std::string phase;  // "before", "flying", "bouncing", "sliding", "rest", "hand"
  bool projectile_visible = false;
  bool at_rest = false;  // projectile at its final pose
  bool hand_in_view = false;
  Vec2 point;  // current tip / dot position, table inches
  double height_in = 0.0;
};

// Writes frame_0000.jpg ..., frames.json, truth.json (final pose) and optionally
// sequence.avi into dir; returns the number of frames.
int WriteShotSequence(const Scenario& scenario, const SynthOptions& options, int index,
                      const SequenceOptions& seq, const std::filesystem::path& dir);

}  // namespace referee
