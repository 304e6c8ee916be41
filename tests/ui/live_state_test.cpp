// The live referee's flow, driven the way the overlay drives it, with no window.
#include <gtest/gtest.h>

#include <set>

#include "ui/live/referee_state.hpp"
#include "ui/live/shortcuts.hpp"

namespace referee::live {
namespace {

CalibrationSummary GoodGrid() { return {0.4, 0.3, 0.95, 112, 117}; }

RefereeState ReadyState() {
  RefereeState s;
  s.OnCalibrationFound(GoodGrid());
  EXPECT_TRUE(s.AcceptCalibration());
  s.SetBatteries({"", "red_gun_1"});
  s.SetShotTypes({"roundshot", "shell"});
  s.TakeEvents();
  return s;
}

VerdictView TwoHitsFirerPicksOne() {
  VerdictView v;
  v.impact_in = {10.0, 12.0};
  v.circle_radius_in = 1.0;
  v.candidates = {{"b1", "blue_inf_1", 0.0, true},
                  {"b2", "blue_inf_1", 0.6, true},
                  {"b3", "blue_inf_2", 2.5, false}};
  v.firer_chooses = 1;
  v.ruling = "two stands under the circle: firer removes one";
  return v;
}

std::vector<std::string> Types(const std::vector<LiveEvent>& events) {
  std::vector<std::string> out;
  out.reserve(events.size());
  for (const auto& e : events) out.push_back(e.type);
  return out;
}

TEST(LiveState, CalibrationMustBeFoundBeforeAccepting) {
  RefereeState s;
  EXPECT_EQ(s.phase(), Phase::kCalibrating);
  EXPECT_FALSE(s.AcceptCalibration());
  EXPECT_FALSE(s.notice().empty());
  EXPECT_FALSE(s.Arm());
  s.OnCalibrationFound(GoodGrid());
  EXPECT_TRUE(s.RetryCalibration());
  EXPECT_TRUE(s.retry_requested());
  EXPECT_FALSE(s.AcceptCalibration());  // retry threw the grid away
  s.OnCalibrationFound(GoodGrid());
  EXPECT_TRUE(s.Apply(Command::kAcceptCalibration));
  EXPECT_EQ(s.phase(), Phase::kReady);
  const auto events = s.TakeEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "calibration_accepted");
  EXPECT_DOUBLE_EQ(events[0].data["coverage"].get<double>(), 0.95);
  EXPECT_FALSE(events[0].correction);
}

TEST(LiveState, FullShotWithFirersChoice) {
  RefereeState s = ReadyState();
  s.NextBattery();
  s.NextShotType();
  EXPECT_EQ(s.battery(), "red_gun_1");
  EXPECT_EQ(s.shot_type(), "shell");
  ASSERT_TRUE(s.Apply(Command::kArm));
  EXPECT_EQ(s.phase(), Phase::kArmed);
  s.NextBattery();  // choices are frozen once armed
  EXPECT_EQ(s.battery(), "red_gun_1");
  ASSERT_TRUE(s.OnProjectileMoving());
  EXPECT_EQ(s.phase(), Phase::kWaitingForRest);
  EXPECT_FALSE(s.needs_ruling());
  ASSERT_TRUE(s.OnRest({10.0, 12.0}));
  EXPECT_TRUE(s.needs_ruling());
  ASSERT_TRUE(s.OnVerdict(TwoHitsFirerPicksOne()));
  EXPECT_EQ(s.phase(), Phase::kVerdict);
  EXPECT_EQ(s.selected_candidate(), "b1");
  ASSERT_TRUE(s.Apply(Command::kAcceptVerdict));
  EXPECT_EQ(s.phase(), Phase::kChooseCasualty);
  EXPECT_FALSE(s.ChooseCasualty("b3"));  // outside the circle
  EXPECT_EQ(s.phase(), Phase::kChooseCasualty);
  s.Apply(Command::kNextCandidate);
  EXPECT_EQ(s.selected_candidate(), "b2");
  ASSERT_TRUE(s.Apply(Command::kChooseCasualty));
  EXPECT_EQ(s.phase(), Phase::kConfirmRemoval);
  EXPECT_EQ(s.PendingRemovals(), std::vector<std::string>{"b2"});
  ASSERT_TRUE(s.Apply(Command::kConfirmRemoval));
  EXPECT_EQ(s.phase(), Phase::kReady);
  EXPECT_EQ(s.removed_stands(), std::set<std::string>{"b2"});
  const auto events = s.TakeEvents();
  EXPECT_EQ(Types(events), (std::vector<std::string>{"shot_armed", "projectile_at_rest", "verdict",
                                                     "casualty_chosen", "stands_removed"}));
  EXPECT_EQ(events[0].data["battery"], "red_gun_1");
  EXPECT_EQ(events[2].data["hits"], nlohmann::json({"b1", "b2"}));
  for (const auto& e : events) EXPECT_FALSE(e.correction) << e.type;
  for (size_t i = 1; i < events.size(); ++i) EXPECT_EQ(events[i].seq, events[i - 1].seq + 1);
}

// A base size named by the players under a ruling on screen: the engine rules again on the same
// point (nothing new logged by the state: the kind correction is), and only while a ruling is
// on screen.
TEST(LiveState, AStandCorrectedUnderARulingIsRuledAgainOnTheSamePoint) {
  RefereeState s = ReadyState();
  EXPECT_FALSE(s.RuleAgain());  // nothing ruled yet
  ASSERT_TRUE(s.Apply(Command::kArm));
  ASSERT_TRUE(s.OnRest({10.0, 12.0}));
  EXPECT_FALSE(s.RuleAgain());  // not ruled yet
  ASSERT_TRUE(s.OnVerdict(TwoHitsFirerPicksOne()));
  s.TakeEvents();
  ASSERT_TRUE(s.RuleAgain());
  EXPECT_TRUE(s.needs_ruling());
  EXPECT_EQ(s.phase(), Phase::kWaitingForRest);
  ASSERT_TRUE(s.impact().has_value());
  EXPECT_DOUBLE_EQ(s.impact()->x, 10.0);
  EXPECT_TRUE(s.TakeEvents().empty());
  ASSERT_TRUE(s.OnVerdict(TwoHitsFirerPicksOne()));
  EXPECT_EQ(s.phase(), Phase::kVerdict);
}

TEST(LiveState, MissGoesStraightBackToReady) {
  RefereeState s = ReadyState();
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnRest({40.0, 3.0}));  // landed before a moving frame was seen
  VerdictView miss;
  miss.impact_in = {40.0, 3.0};
  miss.candidates = {{"b1", "u", 4.2, false}};
  ASSERT_TRUE(s.OnVerdict(miss));
  ASSERT_TRUE(s.AcceptVerdict());
  EXPECT_EQ(s.phase(), Phase::kReady);
  EXPECT_TRUE(s.removed_stands().empty());
}

TEST(LiveState, RulesRemovalNeedsOnlyConfirmation) {
  RefereeState s = ReadyState();
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnRest({5.0, 5.0}));
  VerdictView v;
  v.impact_in = {5.0, 5.0};
  v.candidates = {{"gun", "blue_bty", 0.2, true}};
  v.must_remove = {"gun"};
  ASSERT_TRUE(s.OnVerdict(v));
  ASSERT_TRUE(s.AcceptVerdict());
  EXPECT_EQ(s.phase(), Phase::kConfirmRemoval);
  EXPECT_FALSE(s.ChooseCasualty("gun"));
  ASSERT_TRUE(s.ConfirmRemoval());
  EXPECT_TRUE(s.removed_stands().contains("gun"));
}

TEST(LiveState, HandInFramePausesEveryAutomaticStep) {
  RefereeState s = ReadyState();
  s.SetHandInFrame(true);
  EXPECT_TRUE(s.paused());
  EXPECT_FALSE(s.Arm());
  EXPECT_NE(s.notice().find("hand"), std::string::npos);
  s.SetHandInFrame(false);
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnProjectileMoving());
  s.SetHandInFrame(true);
  EXPECT_FALSE(s.OnRest({1, 1}));  // a frame with a hand in it is never adjudicated
  EXPECT_EQ(s.phase(), Phase::kWaitingForRest);
  EXPECT_FALSE(s.needs_ruling());
  s.SetHandInFrame(false);
  ASSERT_TRUE(s.OnRest({1, 1}));
  s.SetHandInFrame(true);
  VerdictView v;
  v.impact_in = {1, 1};
  EXPECT_FALSE(s.OnVerdict(v));
  s.SetHandInFrame(false);
  EXPECT_TRUE(s.OnVerdict(v));
  s.SetHandInFrame(true);
  EXPECT_FALSE(s.AcceptVerdict());
  EXPECT_EQ(s.phase(), Phase::kVerdict);
}

TEST(LiveState, BumpedCameraRefusesShotsUntilRecalibrated) {
  RefereeState s = ReadyState();
  s.SetCameraBumped(true);
  s.SetCameraBumped(true);  // reported every frame, logged once
  EXPECT_TRUE(s.camera_bumped());
  EXPECT_FALSE(s.Arm());
  EXPECT_NE(s.notice().find("bumped"), std::string::npos);
  ASSERT_TRUE(s.Apply(Command::kRecalibrate));
  EXPECT_EQ(s.phase(), Phase::kCalibrating);
  EXPECT_TRUE(s.retry_requested());
  s.OnCalibrationFound(GoodGrid());
  ASSERT_TRUE(s.AcceptCalibration());
  EXPECT_FALSE(s.camera_bumped());
  EXPECT_TRUE(s.Arm());
  EXPECT_EQ(Types(s.TakeEvents()),
            (std::vector<std::string>{"camera_bumped", "calibration_accepted", "shot_armed"}));
}

TEST(LiveState, BumpDuringFlightIsNotAdjudicated) {
  RefereeState s = ReadyState();
  ASSERT_TRUE(s.Arm());
  s.SetCameraBumped(true);
  EXPECT_FALSE(s.OnRest({3, 3}));
  EXPECT_FALSE(s.needs_ruling());
}

TEST(LiveState, UndoOnScreenVerdictIsACorrection) {
  RefereeState s = ReadyState();
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnRest({10, 12}));
  ASSERT_TRUE(s.OnVerdict(TwoHitsFirerPicksOne()));
  const auto before = s.TakeEvents();
  const int verdict_seq = before.back().seq;
  ASSERT_TRUE(s.Apply(Command::kUndoVerdict));
  EXPECT_EQ(s.phase(), Phase::kReady);
  EXPECT_FALSE(s.verdict().has_value());
  const auto events = s.TakeEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "verdict_undone");
  EXPECT_TRUE(events[0].correction);
  EXPECT_EQ(events[0].data["undoes"], verdict_seq);
}

TEST(LiveState, UndoAfterRemovalRestoresTheStands) {
  RefereeState s = ReadyState();
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnRest({10, 12}));
  ASSERT_TRUE(s.OnVerdict(TwoHitsFirerPicksOne()));
  ASSERT_TRUE(s.AcceptVerdict());
  ASSERT_TRUE(s.ChooseCasualty("b1"));
  ASSERT_TRUE(s.ConfirmRemoval());
  EXPECT_TRUE(s.removed_stands().contains("b1"));
  ASSERT_TRUE(s.UndoVerdict());
  EXPECT_TRUE(s.removed_stands().empty());
  const auto events = s.TakeEvents();
  EXPECT_EQ(events.back().type, "verdict_undone");
  EXPECT_TRUE(events.back().correction);
  EXPECT_EQ(events.back().data["restored"], nlohmann::json({"b1"}));
  EXPECT_FALSE(s.UndoVerdict());  // only the last verdict, once
}

TEST(LiveState, ChangingTheImpactPointAsksForANewRuling) {
  RefereeState s = ReadyState();
  EXPECT_FALSE(s.ChangeImpactPoint({1, 1}));  // no shot yet
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnRest({10, 12}));
  ASSERT_TRUE(s.OnVerdict(TwoHitsFirerPicksOne()));
  s.TakeEvents();
  ASSERT_TRUE(s.Apply(Command::kChangeImpactMode));
  EXPECT_EQ(s.overrule_mode(), OverruleMode::kChangeImpact);
  ASSERT_TRUE(s.ChangeImpactPoint({11.5, 12.0}));
  EXPECT_EQ(s.overrule_mode(), OverruleMode::kNone);
  EXPECT_TRUE(s.needs_ruling());
  EXPECT_FALSE(s.verdict().has_value());
  EXPECT_DOUBLE_EQ(s.impact()->x, 11.5);
  auto events = s.TakeEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "impact_changed");
  EXPECT_TRUE(events[0].correction);
  EXPECT_DOUBLE_EQ(events[0].data["from"]["x_in"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(events[0].data["to"]["x_in"].get<double>(), 11.5);
  VerdictView v = TwoHitsFirerPicksOne();
  v.impact_in = {11.5, 12.0};
  ASSERT_TRUE(s.OnVerdict(v));
  EXPECT_EQ(s.phase(), Phase::kVerdict);
}

TEST(LiveState, MovingAStandAndReassigningAUnitAreCorrections) {
  RefereeState s = ReadyState();
  const OrientedRect from{{4, 4}, 1.57, 0.79, 0};
  const OrientedRect to{{6, 4}, 1.57, 0.79, 90};
  ASSERT_TRUE(s.MoveStand("r7", from, to));
  ASSERT_TRUE(s.ReassignUnit("r7", "red_inf_1", "red_inf_2"));
  EXPECT_FALSE(s.ReassignUnit("r7", "red_inf_2", "red_inf_2"));
  EXPECT_EQ(s.unit_overrides().at("r7"), "red_inf_2");
  EXPECT_DOUBLE_EQ(s.moved_stands().at("r7").center.x, 6.0);
  const auto events = s.TakeEvents();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, "stand_moved");
  EXPECT_TRUE(events[0].correction);
  EXPECT_DOUBLE_EQ(events[0].data["to"]["angle_deg"].get<double>(), 90.0);
  EXPECT_EQ(events[1].type, "unit_reassigned");
  EXPECT_TRUE(events[1].correction);
  EXPECT_EQ(events[1].data["to"], "red_inf_2");
}

TEST(LiveState, SideColoursAreSampledInOrderAndLogged) {
  RefereeState s;
  s.SetSides({"red", "blue"});
  ASSERT_TRUE(s.SampleSideColour(190, 50, 40));
  ASSERT_TRUE(s.SampleSideColour(40, 70, 190));
  EXPECT_EQ(s.side_colours().at("red")[0], 190);
  EXPECT_EQ(s.side_colours().at("blue")[2], 190);
  EXPECT_EQ(Types(s.TakeEvents()),
            (std::vector<std::string>{"side_colour_sampled", "side_colour_sampled"}));
}

TEST(LiveState, CancelReturnsToReady) {
  RefereeState s = ReadyState();
  EXPECT_FALSE(s.CancelShot());
  ASSERT_TRUE(s.Arm());
  ASSERT_TRUE(s.OnProjectileMoving());
  ASSERT_TRUE(s.Apply(Command::kCancelShot));
  EXPECT_EQ(s.phase(), Phase::kReady);
  EXPECT_FALSE(s.OnRest({1, 1}));  // not armed any more
}

TEST(LiveState, LogDirtyUntilSaved) {
  RefereeState s = ReadyState();
  s.MarkLogSaved();
  EXPECT_FALSE(s.log_dirty());
  ASSERT_TRUE(s.Arm());
  EXPECT_TRUE(s.log_dirty());
  s.TakeEvents();
  EXPECT_TRUE(s.log_dirty());
  s.MarkLogSaved();
  EXPECT_FALSE(s.log_dirty());
}

TEST(Shortcuts, EveryCommandHasExactlyOneDistinctKey) {
  std::set<Key> keys;
  std::set<Command> commands;
  for (const auto& sc : Shortcuts()) {
    EXPECT_TRUE(keys.insert(sc.key).second) << sc.key_label << " is bound twice";
    EXPECT_TRUE(commands.insert(sc.command).second) << sc.description;
    EXPECT_FALSE(sc.description.empty());
    EXPECT_EQ(CommandForKey(sc.key), sc.command);
  }
  EXPECT_EQ(commands.size(), static_cast<size_t>(Command::kQuit) + 1);
  EXPECT_EQ(ShortcutFor(Command::kArm).key_label, "Space");
  EXPECT_FALSE(CommandForKey(static_cast<Key>('9')).has_value());
}

TEST(Shortcuts, ViewAndHelpToggle) {
  RefereeState s;
  EXPECT_FALSE(s.top_view());
  s.Apply(Command::kToggleView);
  EXPECT_TRUE(s.top_view());
  s.Apply(Command::kToggleHelp);
  EXPECT_TRUE(s.help_visible());
  s.Apply(Command::kQuit);
  EXPECT_TRUE(s.quit_requested());
}

}  // namespace
}  // namespace referee::live
