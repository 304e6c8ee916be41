// Scripted input for the live window (`referee live --input-script FILE`): a test or a demo
// presses shortcut keys and clicks named widgets and stands the way a player would. Each frame
// the script says where the mouse is, whether its left button is down and which key is down;
// the window writes that into ImGui's input exactly where the GLFW backend writes the real
// mouse and keyboard, so buttons, shortcuts and table clicks run through their normal code.
//
// One step a line; '#' starts a comment:
//   key NAME            press and release a shortcut key, named as in the help panel
//                       (Space, Enter, Esc, Tab, Backspace, F1, A-Z, 1-6)
//   click NAME          click the widget of that name at the centre of its rect on screen
//                       (a button's label without its "[key]", a panel header, "is really",
//                       "is really ID" for an entry of that list), scrolled into view first
//   click-stand ID      click the centre of the tracked stand ID where it is drawn
//   wait N              let N frames pass
//   wait-phase NAME     until the shot flow is in phase NAME (ready, armed, verdict, ...)
//   wait-grid           until the grid has been found (calibrating, waiting for Enter)
//   wait-stands         until at least one stand is drawn
//   screenshot NAME     save NAME.png and its notes (needs --screenshot-dir)
// A click or a wait that does not come true within `timeout_frames` fails the script.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ui/live/shortcuts.hpp"

namespace referee::live {

struct ScreenPoint {
  double x = 0, y = 0;
};

// What the window drew in the frame just rendered, for the script to aim at.
struct ScriptView {
  std::map<std::string, std::pair<ScreenPoint, ScreenPoint>> items;  // name -> min, max (px)
  std::map<std::string, ScreenPoint> stands;                         // stand id -> centre (px)
  std::string phase;                                                 // PhaseName()
  bool grid_found = false;
  double display_w = 0, display_h = 0;
};

// The input for one frame.
struct ScriptInput {
  std::optional<ScreenPoint> mouse;  // none: leave the real pointer alone
  bool mouse_down = false;
  std::optional<Key> key_down;
};

class InputScript {
 public:
  // Throws InputError(file, "line N", what) on a line it cannot read.
  static InputScript Load(const std::filesystem::path& file);
  static InputScript Parse(const std::string& text, const std::string& source_name);

  // Input for the frame about to start.
  ScriptInput Input() const;
  // After the frame is drawn: moves on when the current step is done. Returns the name of a
  // screenshot to save now, if the step asks for one.
  std::optional<std::string> Advance(const ScriptView& view);

  bool done() const { return next_ >= steps_.size(); }
  // The widget the current step is about to click, until it has been aimed at (none otherwise):
  // the window scrolls it into view first, as a player scrolls the panel to a button below it.
  std::optional<std::string> PendingClick() const;
  // The script line of the step being played (0 once done).
  int current_line() const { return done() ? 0 : steps_[next_].line; }
  const std::string& failure() const { return failure_; }  // empty while all is well
  int timeout_frames = 150;  // frames a click target or a wait may take to appear

 private:
  enum class Kind { kKey, kClick, kClickStand, kWait, kWaitPhase, kWaitGrid, kWaitStands, kShot };
  struct Step {
    Kind kind;
    std::string arg;
    Key key = Key::kSpace;
    int frames = 0;
    int line = 0;
  };
  void Fail(const Step& s, const std::string& what);
  void Next();

  std::vector<Step> steps_;
  std::string source_;
  size_t next_ = 0;
  int stage_ = 0;   // within the current step: key down/up, mouse move/down/up
  int waited_ = 0;  // frames spent on the current step
  std::optional<ScreenPoint> mouse_;
  std::string failure_;
};

}  // namespace referee::live
