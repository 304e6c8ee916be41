#include "ui/live/panels.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules/ruleset_data.hpp"
#include "ui/live/overlay.hpp"

namespace referee::live {

namespace {

// A button labelled with its shortcut, e.g. "Arm  [Space]".
bool CommandButton(PanelContext& ctx, const char* label, Command c, bool enabled = true) {
  const std::string text = std::string(label) + "  [" + std::string(ShortcutFor(c).key_label) + "]";
  if (!enabled) ImGui::BeginDisabled();
  const bool pressed = ImGui::Button(text.c_str());
  if (ctx.note_item) ctx.note_item(label);
  if (!enabled) ImGui::EndDisabled();
  if (pressed) ctx.run(c);
  return pressed;
}

// Whether the vision knows the table before deployment, and the button that takes it.
void DrawEmptyTableLine(PanelContext& ctx) {
  ImGui::TextWrapped(
      ctx.empty_table_known
          ? "Empty table: remembered (a base where nothing changed since is dropped)."
          : "Empty table: not remembered. Before deploying, with the terrain in "
            "place and no stand on the table:");
  if (!ctx.remember_empty_table) return;
  const bool pressed = ImGui::SmallButton("Remember the empty table");
  if (ctx.note_item) ctx.note_item("Remember the empty table");
  if (pressed) ctx.remember_empty_table();
}

std::string Describe(const std::string& battery) {
  return battery.empty() ? "infer (nearest gun facing the impact)" : battery;
}

}  // namespace

namespace {

// Run-time camera controls. Resolution and fps change the picture's geometry or timing, so they
// are offered only before the calibration is accepted (a new size needs a new calibration).
void DrawCameraControls(PanelContext& ctx, bool calibrating) {
  CameraSettings& c = *ctx.camera;
  ImGui::Checkbox("Lock exposure", &c.lock_exposure);
  if (c.lock_exposure) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::InputDouble("exposure (device units, <0 keeps)", &c.exposure, 1.0, 10.0, "%.1f");
  }
  ImGui::Checkbox("Lock white balance", &c.lock_white_balance);
  ImGui::Checkbox("Lock focus", &c.lock_focus);
  static constexpr std::array<std::array<int, 2>, 4> kSizes = {
      {{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}}};
  ImGui::BeginDisabled(!calibrating);
  const std::string current = std::to_string(c.width_px) + "x" + std::to_string(c.height_px);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo("resolution", current.c_str())) {
    for (const auto& [w, h] : kSizes) {
      const std::string label = std::to_string(w) + "x" + std::to_string(h);
      if (ImGui::Selectable(label.c_str(), w == c.width_px && h == c.height_px)) {
        c.width_px = w;
        c.height_px = h;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::InputDouble("fps", &c.fps, 5.0, 10.0, "%.0f");
  ImGui::EndDisabled();
  if (!calibrating) ImGui::TextDisabled("resolution and fps: recalibrate first");
  if (ImGui::Button("Apply to the camera") && ctx.apply_camera) ctx.apply_camera(c);
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
  if (const auto& offer = ctx.session.recalibration_offer()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 200, 80, 255));
    ImGui::TextWrapped(
        "The camera moved and the grid was found again (%.2f px RMS, %.0f%% "
        "coverage).",
        offer->quality.rms_px, 100 * offer->quality.coverage);
    ImGui::PopStyleColor();
    CommandButton(ctx, "Use the new calibration", Command::kAcceptCalibration);
  }
  ImGui::TextWrapped(
      "Side colours: hover a base border and press %s (or click the side's "
      "button, then the base) to sample.",
      std::string(ShortcutFor(Command::kSampleSideColour).key_label).c_str());
  for (const auto& [side, rgb] : ctx.session.board().side_colors_srgb) {
    auto it = st.side_colours().find(side);
    const auto c = it != st.side_colours().end() ? it->second : rgb;
    ImGui::ColorButton(side.c_str(),
                       ImVec4(static_cast<float>(c[0]) / 255.f, static_cast<float>(c[1]) / 255.f,
                              static_cast<float>(c[2]) / 255.f, 1));
    ImGui::SameLine();
    ImGui::Text("%s %s", side.c_str(),
                it != st.side_colours().end() ? "(sampled)" : "(board file)");
    if (ctx.sample_side) {
      ImGui::SameLine();
      std::string label = "click a " + side;
      label += " base##sample_";
      label += side;
      if (ImGui::SmallButton(label.c_str())) {
        ctx.sample_side(side);
      }
    }
  }
  DrawEmptyTableLine(ctx);
}

void DrawCameraPanel(PanelContext& ctx) {
  if (!ImGui::CollapsingHeader("Camera settings")) return;
  const bool calibrating = ctx.session.state().phase() == Phase::kCalibrating;
  if (ctx.camera) DrawCameraControls(ctx, calibrating);
  if (ctx.camera_settings.empty()) {
    ImGui::TextWrapped(
        "Not a webcam: exposure, white balance and focus are whatever the recording had.");
  }
  for (const auto& line : ctx.camera_settings) ImGui::BulletText("%s", line.c_str());
}

namespace {

// What the chosen battery aims at, once the game has started: the rules check arc, range and
// screening against it when the shot is armed.
void DrawAim(PanelContext& ctx, bool ready) {
  const std::string& gun = ctx.session.state().battery();
  if (!ctx.turn || !ctx.turn->started() || gun.empty()) return;
  const auto options = ctx.turn->AimOptions(gun);
  if (options.empty()) {
    ImGui::TextDisabled("Aim: no enemy unit to aim %s at", gun.c_str());
    return;
  }
  auto label = [](const TurnFlow::AimOption& o) {
    return o.unit + " (" + SquareName(o.square) + ")" + (o.refusal.empty() ? "" : " - refused");
  };
  const auto chosen = std::ranges::find(options, ctx.session.aim(), &TurnFlow::AimOption::unit);
  const auto& current = chosen != options.end() ? *chosen : options.front();
  ImGui::BeginDisabled(!ready);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::BeginCombo("aim at##shot", label(current).c_str())) {
    for (const auto& o : options) {
      if (ImGui::Selectable(label(o).c_str(), o.unit == current.unit)) ctx.session.SetAim(o.unit);
      if (!o.refusal.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.refusal.c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
}

}  // namespace

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
  DrawAim(ctx, ready);
  CommandButton(ctx, "Arm", Command::kArm, ready && !st.paused() && !st.camera_bumped());
  ImGui::SameLine();
  CommandButton(ctx, "Cancel", Command::kCancelShot,
                st.phase() == Phase::kArmed || st.phase() == Phase::kWaitingForRest);
  if (!st.arm_refusal().empty() && ready) {
    // The rules engine refused the shot (3E screening, arc, range, shots left, limbered,
    // catapult manning): it is not armed unless the players overrule.
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 100, 255));
    ImGui::TextWrapped("Not allowed: %s", st.arm_refusal().c_str());
    ImGui::PopStyleColor();
    const bool overrule = ImGui::Button("Arm anyway (overrule, logged)");
    if (ctx.note_item) ctx.note_item("Arm anyway");
    if (overrule) st.ArmOverruled();
  }
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
    for (const auto& c : v->checks) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0, 1, 1));
      ImGui::TextWrapped("%s", CheckLine(c).c_str());
      ImGui::PopStyleColor();
    }
    ImGui::Text("Impact (%.2f\", %.2f\"), circle %.2f\"", v->impact_in.x, v->impact_in.y,
                v->circle_radius_in);
    if (!v->impact_note.empty()) {
      // The camera did not see the impact's mark: the point is looser than it looks.
      ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 255, 0, 255));
      ImGui::TextWrapped("(%s)", v->impact_note.c_str());
      ImGui::PopStyleColor();
    }
    if (ImGui::BeginTable("candidates", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
      // The stand column takes what the numbers leave and wraps: unit names are long.
      ImGui::TableSetupColumn("stand", ImGuiTableColumnFlags_WidthStretch);
      const float em = ImGui::GetFontSize();
      ImGui::TableSetupColumn("distance", ImGuiTableColumnFlags_WidthFixed, em * 4.5f);
      ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, em * 2.5f);
      ImGui::TableHeadersRow();
      for (const auto& c : v->candidates) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const bool sel = c.stand_id == st.selected_candidate();
        ImGui::TextWrapped("%s%s (%s)", sel ? "> " : "", c.stand_id.c_str(), c.unit.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.2f\"", c.distance_in);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(c.hit ? "HIT" : "clear");
      }
      ImGui::EndTable();
    }
    if (const auto* ev = ctx.session.engine_verdict() ? &*ctx.session.engine_verdict() : nullptr) {
      // CONFIRM FACING answered where it is asked: a button per front the base may present
      // (the same answer as Overrule > faces; logged, and the shot ruled again).
      for (const auto& n : ev->stands_near) {
        if (!n.facing_decides) continue;
        const std::string id = n.id;  // a copy: the answer rebuilds the verdict
        ImGui::TextUnformatted((id + " faces:").c_str());
        bool answered = false;
        for (const auto& f : ctx.session.FacingsFor(id)) {
          const bool hit = std::ranges::find(n.hit_if_facing, f) != n.hit_if_facing.end();
          std::string label = f;
          label += hit ? " (hit)##" : " (clear)##";
          label += id;
          label += f;
          ImGui::SameLine();
          const bool picked = ImGui::SmallButton(label.c_str());
          std::string noted = id;
          noted += " faces ";
          noted += f;
          if (ctx.note_item) ctx.note_item(noted);
          if (picked) answered = ctx.session.SetStandFacing(id, f);
        }
        if (answered) break;
      }
      // Wrapped: the rule lines are longer than the panel is wide on a laptop or at 1080p.
      for (const auto& line : ev->explanation) {
        ImGui::Bullet();
        ImGui::TextWrapped("%s", line.c_str());
      }
    }
    if (ctx.session.FireRollOffered()) {
      // 6D: the tip touches woods, a house or a bridge: the rules roll for fire.
      const std::string label = "Roll for fire in " + SquareName(*ctx.session.fire_square());
      const bool roll = ImGui::Button(label.c_str());
      if (ctx.note_item) ctx.note_item("Roll for fire");
      if (roll) ctx.session.RollForFire();
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
  if (ctx.selected_stand.empty()) return;
  const ShownStand* s = ctx.session.FindStand(ctx.selected_stand);
  if (!s) return;
  // Copies: a correction rebuilds the session's stands, and `s` with them.
  const std::string id = s->stand.id;
  const std::string kind = s->stand.kind;
  const std::string side = s->stand.side;
  const KindSource source = s->kind_source;
  ImGui::TextWrapped("Selected: %s (%s, %s)", id.c_str(), kind.c_str(), s->unit.c_str());
  if (source == KindSource::kOrganisation) {
    // Bases of one size look alike: which one is the gun is a guess the players should check.
    ImGui::TextWrapped("kind inferred from its unit's organisation: check it");
  } else if (source == KindSource::kUser) {
    ImGui::TextWrapped("kind set by the players");
  }
  // The tracker's identity of this stand, corrected by hand (logged as stand_identity).
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  const bool open = ImGui::BeginCombo("is really", id.c_str());
  if (!open && ctx.note_item) ctx.note_item("is really");
  if (open) {
    for (const auto& other : ctx.session.IdsOfSide(side)) {
      if (other == id) continue;
      const bool picked = ImGui::Selectable(other.c_str());
      if (ctx.note_item) ctx.note_item("is really " + other);
      if (picked) {
        // The physical stand the user selected is now called `other`: the selection
        // follows it (the window reads selected_stand back).
        if (ctx.session.ReassignStandId(id, other)) ctx.selected_stand = other;
        break;
      }
    }
    ImGui::EndCombo();
  }
  // What the base is, among the kinds its size fits (logged as stand_kind).
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  const bool kinds_open = ImGui::BeginCombo("is a", kind.c_str());
  if (!kinds_open && ctx.note_item) ctx.note_item("is a");
  if (kinds_open) {
    for (const auto& k : ctx.session.KindsFor(id)) {
      const bool picked = ImGui::Selectable(k.c_str(), k == kind);
      if (ctx.note_item) ctx.note_item("is a " + k);
      if (picked) {
        ctx.session.SetStandKind(id, k);
        break;
      }
    }
    ImGui::EndCombo();
  }
  // Which way it faces, among the fronts its base may present (logged as stand_facing): the
  // players' answer to CONFIRM FACING when no front stripe was seen.
  const std::string facing = ctx.session.FacingLabel(id);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  const bool facings_open = ImGui::BeginCombo("faces", facing.c_str());
  if (!facings_open && ctx.note_item) ctx.note_item("faces");
  if (facings_open) {
    for (const auto& f : ctx.session.FacingsFor(id)) {
      const bool picked = ImGui::Selectable(f.c_str());
      if (ctx.note_item) ctx.note_item("faces " + f);
      if (picked) {
        ctx.session.SetStandFacing(id, f);
        break;
      }
    }
    ImGui::EndCombo();
  }
}

namespace {

// Big text for what players read from across the table.
void BigText(PanelContext& ctx, const std::string& text,
             ImU32 colour = IM_COL32(255, 255, 255, 255)) {
  if (ctx.big_font) ImGui::PushFont(ctx.big_font);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
  if (ctx.big_font) ImGui::PopFont();
}

// A game unit as the players find it on the table: its id and the square it stands in.
std::string UnitLabel(const TurnFlow& turn, const std::string& unit) {
  const rules::GameUnit* u = turn.game() ? turn.game()->FindUnit(unit) : nullptr;
  if (!u || u->status != rules::UnitStatus::kOnTable) return unit;
  return unit + " (" + SquareName(u->square) + ")";
}

void DrawStartGame(PanelContext& ctx) {
  TurnFlow& turn = *ctx.turn;
  if (!ctx.preview) {
    ImGui::TextWrapped("Accept the calibration: the game starts from the units on the table.");
    return;
  }
  const TableSetup& p = *ctx.preview;
  ImGui::TextWrapped("%s: %zu unit(s) on the table.", turn.ruleset().Title().c_str(),
                     p.setup.units.size());
  for (const auto& why : p.problems) ImGui::BulletText("%s", why.c_str());
  if (ctx.first_attacker && !p.setup.sides[0].name.empty()) {
    ImGui::TextUnformatted("First attacker:");
    for (int i = 0; i < 2; ++i) {
      ImGui::SameLine();
      ImGui::RadioButton(p.setup.sides[i].name.c_str(), ctx.first_attacker, i);
    }
  }
  CommandButton(ctx, "Start game", Command::kStartGame, !p.setup.units.empty());
}

void DrawDiceEntry(PanelContext& ctx) {
  TurnFlow& turn = *ctx.turn;
  const auto& need = turn.needed();
  if (!need) return;
  ImGui::Separator();
  BigText(ctx, std::string(need->coin ? "FLIP A COIN" : "ROLL A DIE") + " for " + need->purpose,
          IM_COL32(255, 220, 80, 255));
  if (!turn.typed_dice().empty()) {
    std::string typed;
    for (int v : turn.typed_dice()) typed += std::to_string(v) + " ";
    ImGui::Text("Typed so far: %s", typed.c_str());
  }
  if (need->coin) {
    CommandButton(ctx, "Heads", Command::kCoinHeads);
    ImGui::SameLine();
    CommandButton(ctx, "Tails", Command::kCoinTails);
  } else {
    const Command faces[6] = {Command::kDie1, Command::kDie2, Command::kDie3,
                              Command::kDie4, Command::kDie5, Command::kDie6};
    for (int f = 0; f < 6; ++f) {
      if (f > 0) ImGui::SameLine();
      const std::string label = std::to_string(f + 1) + "##die";
      if (ImGui::Button(label.c_str(), ImVec2(ImGui::GetFontSize() * 2.2f, 0))) ctx.run(faces[f]);
    }
  }
  if (ImGui::SmallButton("cancel this action")) turn.CancelWaiting();
}

void DrawFire(PanelContext& ctx) {
  TurnFlow& turn = *ctx.turn;
  const auto shooters = turn.Shooters();
  if (shooters.empty()) {
    ImGui::TextWrapped("No unit can fire now. End the phase when done.");
    return;
  }
  const std::string firer = turn.firer().empty() ? "(choose)" : UnitLabel(turn, turn.firer());
  if (ImGui::BeginCombo("firer##turn", firer.c_str())) {
    for (const auto& u : shooters) {
      if (ImGui::Selectable(UnitLabel(turn, u).c_str(), u == turn.firer())) turn.SelectFirer(u);
    }
    ImGui::EndCombo();
  }
  const std::string target = turn.target().empty() ? "(choose)" : UnitLabel(turn, turn.target());
  if (ImGui::BeginCombo("target##turn", target.c_str())) {
    for (const auto& u : turn.TargetsOf(turn.firer())) {
      if (ImGui::Selectable(UnitLabel(turn, u).c_str(), u == turn.target())) turn.SelectTarget(u);
    }
    ImGui::EndCombo();
  }
  CommandButton(ctx, "Next firer", Command::kNextFirer);
  ImGui::SameLine();
  CommandButton(ctx, "Next target", Command::kNextTarget);
  CommandButton(
      ctx, turn.dice_mode() == DiceMode::kProgram ? "Fire (referee rolls)" : "Fire (type the dice)",
      Command::kRollDice, !turn.firer().empty() && !turn.needed());
}

void MeleeSelector(TurnFlow& turn, const std::vector<Square>& melees) {
  ImGui::TextUnformatted("Melees waiting:");
  for (const auto& sq : melees) {
    ImGui::SameLine();
    const bool sel = turn.melee() == sq;
    if (ImGui::Selectable(SquareName(sq).c_str(), sel, 0,
                          ImVec2(ImGui::CalcTextSize("MMMM").x, 0))) {
      turn.SelectMelee(sq);
    }
  }
}

std::string Joined(const TurnFlow& turn, const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " + ") + UnitLabel(turn, n);
  return out;
}

// Guns besides Q-tip shots: canister at adjacent enemies, holding canister (2H), limbering
// (2G). Each button only when the engine accepts it now.
void DrawGuns(PanelContext& ctx, bool artillery_phase) {
  TurnFlow& turn = *ctx.turn;
  if (artillery_phase && !turn.Shooters().empty()) {
    ImGui::TextUnformatted("Canister at adjacent enemies:");
    DrawFire(ctx);
  }
  if (artillery_phase) {
    for (const auto& u : turn.CanHoldCanister()) {
      if (ImGui::Button(("Hold canister: " + UnitLabel(turn, u) + "##hold" + u).c_str())) {
        turn.HoldCanister(u);
      }
    }
  }
  for (const bool limber : {true, false}) {
    for (const auto& u : turn.CanLimber(limber)) {
      const std::string label =
          (limber ? "Limber: " : "Unlimber: ") + UnitLabel(turn, u) + "##limber" + u;
      if (ImGui::Button(label.c_str())) turn.Limber(u, limber);
    }
  }
}

// Supports of the selected melee (5A): the attacker's after its move, the defender's after.
void DrawSupports(TurnFlow& turn) {
  if (!turn.melee()) return;
  const auto declared = turn.SupportsDeclared(*turn.melee());
  const auto candidates = turn.SupportCandidates();
  if (declared.empty() && candidates.empty()) return;
  ImGui::TextUnformatted("Supports (5A: attacker first, all before any melee):");
  for (const auto& u : declared) ImGui::BulletText("%s supports", UnitLabel(turn, u).c_str());
  for (const auto& u : candidates) {
    if (ImGui::Button(("Support with " + UnitLabel(turn, u) + "##sup" + u).c_str())) {
      turn.DeclareSupport(u);
    }
  }
}

// Forming and breaking Squares (8A: it takes the unit's whole move).
void DrawSquares(TurnFlow& turn) {
  const auto options = turn.SquareOptions();
  const auto in_square = turn.UnitsInSquare();
  if (options.empty() && in_square.empty()) return;
  ImGui::TextUnformatted("Squares (8A: takes the whole move):");
  for (size_t i = 0; i < options.size(); ++i) {
    const auto& o = options[i];
    if (ImGui::Button(("Form square: " + Joined(turn, o) + "##sq" + std::to_string(i)).c_str())) {
      turn.FormSquare(o.front(), {o.begin() + 1, o.end()});
    }
  }
  for (const auto& u : in_square) {
    if (ImGui::Button(("Break square: " + UnitLabel(turn, u) + "##brk" + u).c_str())) {
      turn.BreakSquare(u);
    }
  }
}

void DrawMelee(PanelContext& ctx) {
  TurnFlow& turn = *ctx.turn;
  const auto melees = turn.PendingMelees();
  if (melees.empty()) {
    ImGui::TextWrapped("No melee waiting. End the phase when done.");
    return;
  }
  MeleeSelector(turn, melees);
  if (!turn.melee()) {
    CommandButton(ctx, "Choose the first melee", Command::kNextFirer);
    return;
  }
  DrawSupports(turn);
  const auto revealed = turn.RevealedMdi();
  for (MeleeRole role : {MeleeRole::kAttacker, MeleeRole::kDefender}) {
    const std::string side = role == MeleeRole::kAttacker ? turn.attacker() : turn.defender();
    const std::string who = MeleeRoleName(role) + " (" + side + ")";
    if (revealed) {
      const rules::Mdi card = role == MeleeRole::kAttacker ? revealed->first : revealed->second;
      BigText(ctx, who + ": " + rules::MdiName(card));
    } else if (turn.MdiIn(role)) {
      ImGui::Text("%s: card chosen (hidden)", who.c_str());
    } else {
      CommandButton(ctx, (who + ": choose MDI card").c_str(),
                    role == MeleeRole::kAttacker ? Command::kMdiAttacker : Command::kMdiDefender);
    }
  }
  CommandButton(ctx, "Fight", Command::kRollDice, revealed.has_value() && !turn.needed());
}

}  // namespace

void DrawTurnPanel(PanelContext& ctx) {
  if (!ctx.turn) return;
  TurnFlow& turn = *ctx.turn;
  ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (!ImGui::CollapsingHeader("Turn")) return;
  if (!turn.started()) {
    DrawStartGame(ctx);
    if (!turn.notice().empty())
      ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", turn.notice().c_str());
    return;
  }
  const rules::Game& game = *turn.game();
  BigText(ctx, "Turn " + std::to_string(turn.turn()) + ": " + turn.PhaseName());
  ImGui::Text("Attacker: %s   Defender: %s", turn.attacker().c_str(), turn.defender().c_str());
  ImGui::Text("Points: %s %.1f, %s %.1f", turn.attacker().c_str(),
              game.PointsOf(turn.attacker()).Score(), turn.defender().c_str(),
              game.PointsOf(turn.defender()).Score());
  ImGui::Text("Dice: %s",
              turn.dice_mode() == DiceMode::kProgram ? "the referee rolls" : "physical, typed in");
  ImGui::SameLine();
  if (ImGui::SmallButton("switch [X]")) ctx.run(Command::kToggleDiceMode);
  CommandButton(ctx, "End phase", Command::kNextPhase, !game.Over() && !turn.needed());
  ImGui::SameLine();
  CommandButton(ctx, "Undo last action", Command::kUndoTurnAction, turn.actions_played() > 0);
  ImGui::Separator();
  // Late in a game the results and table changes outgrow a 768 px screen: they scroll in the
  // height the panel has left (at least 12 lines), under buttons that stay in view.
  const float body_h =
      std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 12.0f);
  ImGui::BeginChild("turn_body", ImVec2(0, body_h), false);
  switch (game.phase()) {
    case rules::Phase::kArtillery:
      ImGui::TextWrapped(
          "Artillery: fire each gun with the shot flow (Space); removed stands count here.");
      DrawGuns(ctx, true);
      break;
    case rules::Phase::kMusketry:
    case rules::Phase::kHeldCanister:
      DrawFire(ctx);
      break;
    case rules::Phase::kAttackerMoves:
      ImGui::TextWrapped("%s moves on the table, then reads the moves in.",
                         turn.attacker().c_str());
      CommandButton(ctx, "Read moves from the table", Command::kReadMoves);
      DrawSquares(turn);
      DrawGuns(ctx, false);
      if (const auto melees = turn.PendingMelees(); !melees.empty()) {
        MeleeSelector(turn, melees);
        DrawSupports(turn);
      }
      break;
    case rules::Phase::kMelees:
      DrawMelee(ctx);
      break;
    case rules::Phase::kEndOfTurn:
      ImGui::TextWrapped("End of turn: morale and reforming, then the sides swap.");
      break;
    case rules::Phase::kGameOver:
      BigText(ctx, "Game over: " + game.Winner() + " (" + game.EndReason() + ")");
      break;
  }
  DrawDiceEntry(ctx);
  if (!turn.notice().empty() && !turn.needed()) {
    ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", turn.notice().c_str());
  }
  if (!turn.last_results().empty()) {
    ImGui::Separator();
    // Wrapped: the engine's lines are long and the panel narrow on a laptop.
    for (const auto& line : turn.last_results()) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", line.c_str());
    }
  }
  if (!turn.table_changes().empty()) {
    ImGui::Separator();
    BigText(ctx, "On the table:", IM_COL32(255, 120, 120, 255));
    for (const auto& c : turn.table_changes()) {
      std::string line = UnitLabel(turn, c.unit) + ":";
      if (!c.remove_stand_ids.empty()) {
        line += " remove";
        for (const auto& id : c.remove_stand_ids) line += " " + id;
      }
      if (c.move_to) line += " retreat to " + SquareName(*c.move_to);
      if (c.destroyed) line += " (destroyed)";
      ImGui::BulletText("%s", line.c_str());
    }
    CommandButton(ctx, "Table matches", Command::kConfirmRemoval);
  }
  ImGui::EndChild();
}

void DrawMdiPicker(PanelContext& ctx) {
  if (!ctx.turn || !ctx.mdi_picker || !*ctx.mdi_picker) return;
  TurnFlow& turn = *ctx.turn;
  const MeleeRole role = **ctx.mdi_picker;
  if (!turn.melee() || turn.MdiIn(role)) {
    ctx.mdi_picker->reset();
    return;
  }
  const std::string side = role == MeleeRole::kAttacker ? turn.attacker() : turn.defender();
  const std::string other = role == MeleeRole::kAttacker ? turn.defender() : turn.attacker();
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  bool open = true;
  const std::string title = "MDI card: " + side + " chooses###mdi";
  if (ImGui::Begin(title.c_str(), &open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    BigText(ctx, side + ": choose your card. " + other + ", look away.");
    const rules::Mdi cards[] = {rules::Mdi::kLine,    rules::Mdi::kColumn,
                                rules::Mdi::kSquare,  rules::Mdi::kFlanking,
                                rules::Mdi::kPincers, rules::Mdi::kWithdrawal};
    for (rules::Mdi card : cards) {
      const std::string label = rules::MdiName(card);
      if (ImGui::Button(label.c_str(), ImVec2(ImGui::GetFontSize() * 12, 0))) {
        turn.ChooseMdi(role, card);
        ctx.mdi_picker->reset();
      }
    }
  }
  ImGui::End();
  if (!open) ctx.mdi_picker->reset();
}

void DrawHelpWindow(PanelContext& ctx) {
  auto& st = ctx.session.state();
  if (!st.help_visible()) return;
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  bool open = true;
  // Two columns of shortcuts, so the whole list fits a laptop's 768 lines as well as 1080p;
  // never larger than the window (it scrolls then).
  const ImVec2 view = ImGui::GetMainViewport()->Size;
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(view.x * 0.95f, view.y * 0.9f));
  if (ImGui::Begin("Keyboard shortcuts", &open, ImGuiWindowFlags_AlwaysAutoResize)) {
    const auto all = Shortcuts();
    const size_t rows = (all.size() + 1) / 2;
    if (ImGui::BeginTable("keys", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders)) {
      for (size_t r = 0; r < rows; ++r) {
        ImGui::TableNextRow();
        for (size_t half = 0; half < 2; ++half) {
          const size_t i = r + half * rows;
          ImGui::TableNextColumn();
          if (i < all.size()) ImGui::TextUnformatted(std::string(all[i].key_label).c_str());
          ImGui::TableNextColumn();
          if (i < all.size()) ImGui::TextUnformatted(std::string(all[i].description).c_str());
        }
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
  const ImVec4 warn(1, 0.3f, 0.2f, 1);
  const ImVec4 ok(0.5f, 1, 0.5f, 1);
  if (st.paused()) {
    ImGui::TextColored(warn, "HAND IN FRAME: paused");
    ImGui::SameLine();
    // A book or ruler left across the board edge pauses the referee until the players say so.
    const bool clear = ImGui::SmallButton("Table is clear (0)");
    if (ctx.note_item) ctx.note_item("Table is clear");
    if (clear) ctx.run(Command::kTableIsClear);
    ImGui::SameLine();
    ImGui::TextUnformatted("|");
    ImGui::SameLine();
  }
  ImGui::Text("%.0f fps | vision %.0f ms | %s", ctx.fps, ctx.vision_ms, ctx.source.c_str());
  ImGui::SameLine();
  if (const auto& cal = ctx.session.accepted_calibration()) {
    const auto& q = cal->quality;
    // Quality in words the players can act on: under ~1 mm RMS the grid fits well.
    const bool good = q.rms_mm < 1.0 && q.coverage > 0.8;
    ImGui::TextColored(good ? ok : ImVec4(1, 0.8f, 0.2f, 1),
                       "| calibration %.2f px / %.2f mm RMS, %.0f%% coverage", q.rms_px, q.rms_mm,
                       100 * q.coverage);
  } else {
    ImGui::TextUnformatted("| not calibrated");
  }
  ImGui::SameLine();
  if (st.camera_bumped()) {
    const auto& b = ctx.session.last_bump();
    ImGui::TextColored(
        warn, "| CAMERA BUMPED (%.1f px)%s", b ? b->median_shift_px : 0.0,
        ctx.session.recalibration_offer() ? ": Enter for the new grid" : ": K to recalibrate");
    ImGui::SameLine();
  }
  if (ctx.turn && ctx.turn->started()) {
    ImGui::Text("| turn %d %s, %s attacks", ctx.turn->turn(), ctx.turn->PhaseName().c_str(),
                ctx.turn->attacker().c_str());
    ImGui::SameLine();
  }
  const bool dirty = st.log_dirty();
  ImGui::TextColored(ctx.session.log_open() ? (dirty ? ImVec4(1, 0.8f, 0.2f, 1) : ok)
                                            : ImVec4(0.7f, 0.7f, 0.7f, 1),
                     "| %s", ctx.session.log_status().c_str());
  if (!st.notice().empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1, 0.8f, 0.2f, 1), "| %s", st.notice().c_str());
  }
  ImGui::SameLine();
  ImGui::TextUnformatted("| F1 help");
  ImGui::End();
}

}  // namespace referee::live
