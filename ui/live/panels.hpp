// The side panels of the live overlay (calibration wizard, shot flow, overrule tools, help) and
// the status bar. They show the session's state and turn clicks into the same Commands the
// keyboard shortcuts give (ui/live/shortcuts.hpp).
#pragma once

#include <functional>
#include <string>

#include <imgui.h>

#include "ui/live/live_session.hpp"
#include "ui/live/shortcuts.hpp"

namespace referee::live {

struct PanelContext {
  LiveSession& session;
  std::function<void(Command)> run;  // performs a command exactly like its shortcut
  std::string source;                // what frames come from (status bar)
  double fps = 0;
  double vision_ms = 0;
  ImFont* big_font = nullptr;
  std::string selected_stand;  // clicked on the table (firing arc, overrules)
};

void DrawCalibrationPanel(PanelContext& ctx);
void DrawShotPanel(PanelContext& ctx);
void DrawOverrulePanel(PanelContext& ctx);
void DrawHelpWindow(PanelContext& ctx);
void DrawStatusBar(PanelContext& ctx, ImVec2 pos, ImVec2 size);

}  // namespace referee::live
