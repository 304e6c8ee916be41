// The input script that drives the live window in the click tests: what it reads, what input
// it gives frame by frame (hover, press, release; key down then up), and how it fails.
#include <gtest/gtest.h>

#include "engine/input_error.hpp"
#include "ui/live/input_script.hpp"

namespace referee::live {
namespace {

ScriptView ViewWith(const std::string& item, ScreenPoint lo, ScreenPoint hi) {
  ScriptView v;
  v.display_w = 1600;
  v.display_h = 900;
  v.phase = "ready";
  v.items[item] = {lo, hi};
  return v;
}

TEST(InputScript, KeyIsDownForOneFrameThenUp) {
  InputScript s = InputScript::Parse("key Space\nkey F1  # help\n", "t");
  ScriptView v = ViewWith("Arm", {0, 0}, {1, 1});
  ASSERT_EQ(s.Input().key_down, Key::kSpace);
  s.Advance(v);
  EXPECT_FALSE(s.Input().key_down.has_value());
  s.Advance(v);
  EXPECT_EQ(s.Input().key_down, Key::kF1);
  s.Advance(v);
  s.Advance(v);
  EXPECT_TRUE(s.done());
  EXPECT_TRUE(s.failure().empty());
}

TEST(InputScript, ClickHoversThenPressesThenReleasesAtTheWidgetCentre) {
  InputScript s = InputScript::Parse("click Undo last verdict\n", "t");
  ScriptView v = ViewWith("Undo last verdict", {1200, 300}, {1400, 340});
  EXPECT_FALSE(s.Input().mouse.has_value());  // the real pointer until there is a target
  s.Advance(v);
  ScriptInput in = s.Input();
  ASSERT_TRUE(in.mouse.has_value());
  EXPECT_DOUBLE_EQ(in.mouse->x, 1300);
  EXPECT_DOUBLE_EQ(in.mouse->y, 320);
  EXPECT_FALSE(in.mouse_down);
  s.Advance(v);
  EXPECT_TRUE(s.Input().mouse_down);
  s.Advance(v);
  EXPECT_FALSE(s.Input().mouse_down);
  EXPECT_FALSE(s.done());
  s.Advance(v);
  EXPECT_TRUE(s.done());
  EXPECT_DOUBLE_EQ(s.Input().mouse->x, 1300);  // the pointer stays where it clicked
}

// The window scrolls the widget a click waits for into view (s60): it asks which one that is
// until the click has aimed at it, and never for a key or a stand.
TEST(InputScript, ItSaysWhichWidgetItIsWaitingToClick) {
  InputScript s = InputScript::Parse("key Space\nclick Change impact\nclick-stand b3\n", "t");
  ScriptView v = ViewWith("Arm", {0, 0}, {1, 1});
  EXPECT_FALSE(s.PendingClick().has_value());  // a key
  s.Advance(v);
  s.Advance(v);
  EXPECT_EQ(s.PendingClick(), "Change impact");
  s.Advance(v);  // not drawn yet (scrolled out of the panel): still waiting for it
  EXPECT_EQ(s.PendingClick(), "Change impact");
  v.items["Change impact"] = {{1200, 700}, {1400, 730}};
  s.Advance(v);  // aimed
  EXPECT_FALSE(s.PendingClick().has_value());
  s.Advance(v);
  s.Advance(v);
  EXPECT_FALSE(s.PendingClick().has_value());  // a stand
}

TEST(InputScript, ClickStandAimsAtTheStandCentre) {
  InputScript s = InputScript::Parse("wait-stands\nclick-stand b3\n", "t");
  ScriptView v = ViewWith("Arm", {0, 0}, {1, 1});
  s.Advance(v);  // no stands yet: still waiting
  EXPECT_FALSE(s.done());
  v.stands["b3"] = {640.5, 300.25};
  s.Advance(v);
  s.Advance(v);
  ASSERT_TRUE(s.Input().mouse.has_value());
  EXPECT_DOUBLE_EQ(s.Input().mouse->x, 640.5);
  EXPECT_DOUBLE_EQ(s.Input().mouse->y, 300.25);
}

TEST(InputScript, WaitsAndScreenshotsInOrder) {
  InputScript s = InputScript::Parse("wait 2\nwait-phase verdict\nscreenshot after\n", "t");
  ScriptView v = ViewWith("Arm", {0, 0}, {1, 1});
  EXPECT_FALSE(s.Advance(v).has_value());
  EXPECT_FALSE(s.Advance(v).has_value());
  EXPECT_FALSE(s.Advance(v).has_value());  // phase is "ready"
  v.phase = "verdict";
  EXPECT_FALSE(s.Advance(v).has_value());
  EXPECT_EQ(s.Advance(v).value_or(""), "after");
  EXPECT_TRUE(s.done());
}

TEST(InputScript, AWidgetNeverDrawnOrDrawnOffScreenFailsNamingTheLine) {
  InputScript s = InputScript::Parse("\n# comment\nclick Fire\n", "t.txt");
  s.timeout_frames = 3;
  ScriptView v = ViewWith("Arm", {0, 0}, {1, 1});
  for (int i = 0; i < 5; ++i) s.Advance(v);
  EXPECT_EQ(s.failure(), "t.txt: line 3: 'Fire' was not drawn within 3 frames");

  InputScript off = InputScript::Parse("click Arm\n", "t.txt");
  off.Advance(ViewWith("Arm", {1500, 950}, {1700, 990}));
  EXPECT_NE(off.failure().find("off the screen"), std::string::npos) << off.failure();
}

TEST(InputScript, BadLinesAreInputErrorsNamingFileAndLine) {
  try {
    InputScript::Parse("key Space\nkey Banana\n", "s.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.txt: line 2: no shortcut key named 'Banana'");
  }
  EXPECT_THROW(InputScript::Parse("jump 3\n", "s.txt"), InputError);
  EXPECT_THROW(InputScript::Parse("wait x\n", "s.txt"), InputError);
  EXPECT_THROW(InputScript::Parse("click\n", "s.txt"), InputError);
  EXPECT_THROW(InputScript::Load("/nonexistent/script.txt"), InputError);
}

}  // namespace
}  // namespace referee::live
