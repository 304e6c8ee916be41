// The side panels of the live overlay (calibration wizard, shot flow, overrule tools, help) and
// the status bar. They show the session's state and turn clicks into the same Commands the
// keyboard shortcuts give (ui/live/shortcuts.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "ui/live/live_session.hpp"
#include "ui/live/shortcuts.hpp"
#include "ui/live/table_setup.hpp"
#include "ui/live/turn_flow.hpp"
#include "vision/frame_source.hpp"

namespace referee::live {

struct PanelContext {
  LiveSession& session;
  std::function<void(Command)> run;  // performs a command exactly like its shortcut
  std::string source;                // what frames come from (status bar)
  double fps = 0;
  double vision_ms = 0;
  ImFont* big_font = nullptr;
  std::string selected_stand;  // clicked on the table (firing arc, overrules)
  // The turn flow and what the turn panel needs beside it (owned by the window).
  TurnFlow* turn = nullptr;
  const TableSetup* preview = nullptr;             // units the table shows, before the start
  int* first_attacker = nullptr;                   // index into preview->setup.sides
  std::optional<MeleeRole>* mdi_picker = nullptr;  // whose hidden MDI choice is open
  std::vector<std::string> camera_settings;        // what the webcam accepted (calibration panel)
  // Sample this side's colour at the next click on the picture.
  std::function<void(const std::string&)> sample_side;
  // The webcam's settings as the panel edits them (nullptr: not a camera), and how to send
  // them to the device at run time (the report comes back in camera_settings).
  CameraSettings* camera = nullptr;
  std::function<void(const CameraSettings&)> apply_camera;
  // Told the name of each clickable item just drawn, so scripted input (--input-script) can
  // click it at its screen rect (ImGui::GetItemRectMin/Max). Empty: nothing listens.
  std::function<void(const std::string&)> note_item;
  // Take the camera's next frame as the table before deployment (nullptr: not offered), and
  // whether the vision has such a picture.
  std::function<void()> remember_empty_table;
  bool empty_table_known = false;
};

void DrawCalibrationPanel(PanelContext& ctx);
// Exposure, white balance, focus, resolution and fps of a webcam, changed while it streams.
void DrawCameraPanel(PanelContext& ctx);
void DrawShotPanel(PanelContext& ctx);
void DrawOverrulePanel(PanelContext& ctx);
// Phase, attacker/defender, musketry and melee with dice, MDI cards, results to apply.
void DrawTurnPanel(PanelContext& ctx);
// The hidden MDI choice: one player picks while the other looks away.
void DrawMdiPicker(PanelContext& ctx);
void DrawHelpWindow(PanelContext& ctx);
void DrawStatusBar(PanelContext& ctx, ImVec2 pos, ImVec2 size);

}  // namespace referee::live
