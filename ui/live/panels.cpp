#include "ui/live/panels.hpp"

#include <cstdio>
#include <string>

namespace referee::live {

namespace {

// A button labelled with its shortcut, e.g. "Arm  [Space]".
bool CommandButton(PanelContext& ctx, const char* label, Command c, bool enabled = true) {
  const std::string text = std::string(label) + "  [" + std::string(ShortcutFor(c).key_label) + "]";
  if (!enabled) ImGui::BeginDisabled();
  const bool pressed = ImGui::Button(text.c_str());
  if (!enabled) ImGui::EndDisabled();
  if (pressed) ctx.run(c);
  return pressed;
}

std::string Describe(const std::string& battery) {
  return battery.empty() ? "infer (nearest gun facing the impact)" : battery;
}

}  // namespace

void DrawCalibrationPanel(PanelContext& ctx) {
  auto& st = ctx.session.state();
  const bool calibrating = st.phase() == Phase::kCalibrating;
  ImGui::SetNextItemOpen(calibrating, ImGuiCond_Always);
  if (!ImGui::CollapsingHeader("Calibration")) {
    return;
  }
  const auto& last = ctx.session.last_calibration();
  if (!last) {
    ImGui::TextWrapped("Looking for the grid...");
  } else if (const auto* cal = std::get_if<TableCalibration>(&*last)) {
    const auto& q = cal->quality;
    ImGui::Text("Grid found: %d x %d squares of %.2f\"", cal->board.cols, cal->board.rows,
                cal->board.square_size_in);
    ImGui::Text("Crossings: %d of %d (coverage %.0f%%)", q.intersections_found,
                q.intersections_total, 100 * q.coverage);
    ImGui::Text("Residual: %.2f px RMS, %.2f mm RMS, %.2f mm max", q.rms_px, q.rms_mm, q.max_mm);
    ImGui::Text("Lens: %s; markers: %s", cal->lens_from_file ? "from file" : "estimated",
                cal->markers_used ? "used" : "grid only");
  } else {
    const auto& r = std::get<CalibrationRefusal>(*last);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 100, 255));
    ImGui::TextWrapped("Not accepted (%s): %s", r.code.c_str(), r.message.c_str());
    ImGui::PopStyleColor();
  }
  CommandButton(ctx, "Accept", Command::kAcceptCalibration, calibrating && st.calibration());
  ImGui::SameLine();
  CommandButton(ctx, "Retry", Command::kRetryCalibration, calibrating);
  if (!calibrating) {
    ImGui::SameLine();
    CommandButton(ctx, "Recalibrate", Command::kRecalibrate);
  }
  ImGui::TextWrapped("Side colours: hover a base border and press %s to sample.",
                     std::string(ShortcutFor(Command::kSampleSideColour).key_label).c_str());
  for (const auto& [side, rgb] : ctx.session.board().side_colors_srgb) {
    auto it = st.side_colours().find(side);
    const auto c = it != st.side_colours().end() ? it->second : rgb;
    ImGui::ColorButton(side.c_str(), ImVec4(c[0] / 255.f, c[1] / 255.f, c[2] / 255.f, 1));
    ImGui::SameLine();
    ImGui::Text("%s %s", side.c_str(),
                it != st.side_colours().end() ? "(sampled)" : "(board file)");
  }
}

void DrawShotPanel(PanelContext& ctx) {
  auto& st = ctx.session.state();
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (!ImGui::CollapsingHeader("Shot")) return;
  const bool ready = st.phase() == Phase::kReady;
  ImGui::Text("Phase: %s", PhaseName(st.phase()).c_str());
  ImGui::Text("Battery: %s", Describe(st.battery()).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("next##battery")) ctx.run(Command::kNextBattery);
  ImGui::Text("Shot type: %s", st.shot_type().c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("next##type")) ctx.run(Command::kNextShotType);
  CommandButton(ctx, "Arm", Command::kArm, ready && !st.paused() && !st.camera_bumped());
  ImGui::SameLine();
  CommandButton(ctx, "Cancel", Command::kCancelShot,
                st.phase() == Phase::kArmed || st.phase() == Phase::kWaitingForRest);
  if (st.phase() == Phase::kArmed) ImGui::TextWrapped("Armed: fire when ready.");
  if ((st.phase() == Phase::kArmed || st.phase() == Phase::kWaitingForRest) &&
      !ctx.session.shot_refusal().empty()) {
    ImGui::TextWrapped("Not adjudicated: %s", ctx.session.shot_refusal().c_str());
  }
  if (st.phase() == Phase::kWaitingForRest) {
    ImGui::TextWrapped(st.needs_ruling() ? "At rest: asking the rules..."
                                         : "In flight: waiting for it to come to rest.");
  }
  if (const auto& v = st.verdict()) {
    ImGui::Separator();
    if (ctx.big_font) ImGui::PushFont(ctx.big_font);
    ImGui::TextWrapped("%s", v->ruling.c_str());
    if (ctx.big_font) ImGui::PopFont();
    ImGui::Text("Impact (%.2f\", %.2f\"), circle %.2f\"", v->impact_in.x, v->impact_in.y,
                v->circle_radius_in);
    if (ImGui::BeginTable("candidates", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn("stand");
      ImGui::TableSetupColumn("distance");
      ImGui::TableSetupColumn("");
      ImGui::TableHeadersRow();
      for (const auto& c : v->candidates) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const bool sel = c.stand_id == st.selected_candidate();
        ImGui::Text("%s%s (%s)", sel ? "> " : "", c.stand_id.c_str(), c.unit.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.2f\"", c.distance_in);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(c.hit ? "HIT" : "clear");
      }
      ImGui::EndTable();
    }
    if (const auto* ev = ctx.session.engine_verdict() ? &*ctx.session.engine_verdict() : nullptr) {
      for (const auto& line : ev->explanation) ImGui::BulletText("%s", line.c_str());
    }
    CommandButton(ctx, "Accept verdict", Command::kAcceptVerdict, st.phase() == Phase::kVerdict);
    if (st.phase() == Phase::kChooseCasualty) {
      ImGui::TextWrapped("Firer: choose %d stand(s) to remove.", v->firer_chooses);
      CommandButton(ctx, "Next candidate", Command::kNextCandidate);
      ImGui::SameLine();
      CommandButton(ctx, "Remove this one", Command::kChooseCasualty);
    }
  }
  if (st.phase() == Phase::kConfirmRemoval) {
    std::string list;
    for (const auto& s : st.PendingRemovals()) list += (list.empty() ? "" : ", ") + s;
    if (ctx.big_font) ImGui::PushFont(ctx.big_font);
    ImGui::TextWrapped("Remove: %s", list.c_str());
    if (ctx.big_font) ImGui::PopFont();
    CommandButton(ctx, "Table matches", Command::kConfirmRemoval);
  }
  CommandButton(ctx, "Undo verdict", Command::kUndoVerdict);
}

void DrawOverrulePanel(PanelContext& ctx) {
  auto& st = ctx.session.state();
  if (!ImGui::CollapsingHeader("Overrule")) return;
  ImGui::TextWrapped("Every correction is written to the game log as a correction.");
  const auto mode = st.overrule_mode();
  auto mode_button = [&](const char* label, Command c, OverruleMode m) {
    if (mode == m) ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(200, 120, 0, 255));
    CommandButton(ctx, label, c);
    if (mode == m) ImGui::PopStyleColor();
  };
  mode_button("Move a stand (drag)", Command::kMoveStandMode, OverruleMode::kMoveStand);
  mode_button("Re-assign unit (click)", Command::kReassignUnitMode, OverruleMode::kReassignUnit);
  mode_button("Change impact (click)", Command::kChangeImpactMode, OverruleMode::kChangeImpact);
  CommandButton(ctx, "Undo last verdict", Command::kUndoVerdict);
  if (!ctx.selected_stand.empty()) {
    if (const ShownStand* s = ctx.session.FindStand(ctx.selected_stand)) {
      ImGui::Text("Selected: %s (%s, %s)", s->stand.id.c_str(), s->stand.kind.c_str(),
                  s->unit.c_str());
    }
  }
}

void DrawHelpWindow(PanelContext& ctx) {
  auto& st = ctx.session.state();
  if (!st.help_visible()) return;
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  bool open = true;
  if (ImGui::Begin("Keyboard shortcuts", &open, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders)) {
      for (const auto& s : Shortcuts()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(std::string(s.key_label).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(std::string(s.description).c_str());
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
  if (!open) ctx.run(Command::kToggleHelp);
}

void DrawStatusBar(PanelContext& ctx, ImVec2 pos, ImVec2 size) {
  auto& st = ctx.session.state();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::Text("%.0f fps | vision %.0f ms | %s", ctx.fps, ctx.vision_ms, ctx.source.c_str());
  ImGui::SameLine();
  if (const auto& cal = ctx.session.accepted_calibration()) {
    ImGui::Text("| calibration %.2f px, %.0f%% coverage", cal->quality.rms_px,
                100 * cal->quality.coverage);
  } else {
    ImGui::TextUnformatted("| not calibrated");
  }
  ImGui::SameLine();
  if (st.camera_bumped()) {
    ImGui::TextColored(ImVec4(1, 0.3f, 0.2f, 1), "| CAMERA BUMPED: recalibrate");
    ImGui::SameLine();
  }
  ImGui::Text("| %s", ctx.session.log_status().c_str());
  if (!st.notice().empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1, 0.8f, 0.2f, 1), "| %s", st.notice().c_str());
  }
  ImGui::SameLine();
  ImGui::TextUnformatted("| F1 help");
  ImGui::End();
}

}  // namespace referee::live
