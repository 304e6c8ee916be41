// What every `referee bench` over generated scenes starts with: the scene folders of a
// `referee synth` set, and the side colours the generator paints.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "calibration/camera_model.hpp"
#include "engine/board.hpp"
#include "engine/geometry.hpp"
#include "vision/side_color_model.hpp"

namespace referee::cli {

// Every folder under `dir` (at any depth, so a folder of scenario sets works too) holding
// truth.json and `required_file`, sorted; at most `limit` of them when limit > 0. Throws
// InputError naming `dir` when it is not a folder or holds no such scene.
std::vector<std::filesystem::path> ListSynthScenes(const std::string& dir,
                                                   const std::string& required_file, int limit);

// Readers of a scene's truth.json: a point [x, y], the generator's camera, and the board
// (`file` names truth.json in errors).
Vec2 TruthPoint(const nlohmann::json& xy);
CameraModel TruthCamera(const nlohmann::json& camera);
Board TruthBoard(const nlohmann::json& board, const std::string& file);

// A colour model of the default side colours (the board file's defaults).
SideColorModel DefaultSideColorModel();

}  // namespace referee::cli
