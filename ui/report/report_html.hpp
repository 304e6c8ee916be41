// The game report: one self-contained HTML file (inline CSS, pictures as base64 data URIs)
// with the result, a heat map of impacts, artillery accuracy per player, casualties and
// points by side and unit, every shot's evidence, and the timeline by turn and phase.
#pragma once

#include <string>

#include "engine/game_log.hpp"

namespace referee::report {

struct ReportOptions {
  // Frames wider than this are scaled down before embedding (px; default 560). Raise it for
  // sharper evidence at the cost of a bigger file.
  int max_frame_width_px = 560;
  int jpeg_quality = 85;  // re-encoding quality for scaled frames (0-100)
};

// Frames and evidence pictures are read from the log's frame store (FramesDirFor(log.path)).
std::string RenderReportHtml(const GameLog& log, const ReportOptions& options = {});

}  // namespace referee::report
