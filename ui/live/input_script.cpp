#include "ui/live/input_script.hpp"

#include <fstream>
#include <sstream>

#include "engine/input_error.hpp"

namespace referee::live {

namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::optional<Key> KeyNamed(const std::string& name) {
  for (const auto& s : Shortcuts()) {
    if (s.key_label == name) return s.key;
  }
  return std::nullopt;
}

bool Inside(ScreenPoint p, const ScriptView& v) {
  return p.x >= 0 && p.y >= 0 && p.x < v.display_w && p.y < v.display_h;
}

}  // namespace

InputScript InputScript::Load(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string(), "", "cannot read the input script");
  std::stringstream text;
  text << in.rdbuf();
  return Parse(text.str(), file.string());
}

InputScript InputScript::Parse(const std::string& text, const std::string& source_name) {
  InputScript script;
  script.source_ = source_name;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = Trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    const auto space = line.find(' ');
    const std::string verb = line.substr(0, space);
    const std::string arg = space == std::string::npos ? "" : Trim(line.substr(space + 1));
    const std::string where = "line " + std::to_string(line_no);
    Step step{Kind::kWait, arg, Key::kSpace, 0, line_no};
    const bool needs_arg = verb != "wait-grid" && verb != "wait-stands";
    if (needs_arg && arg.empty()) throw InputError(source_name, where, verb + " needs an argument");
    if (verb == "key") {
      const auto key = KeyNamed(arg);
      if (!key) throw InputError(source_name, where, "no shortcut key named '" + arg + "'");
      step.kind = Kind::kKey;
      step.key = *key;
    } else if (verb == "click") {
      step.kind = Kind::kClick;
    } else if (verb == "click-stand") {
      step.kind = Kind::kClickStand;
    } else if (verb == "wait") {
      step.kind = Kind::kWait;
      try {
        size_t used = 0;
        step.frames = std::stoi(arg, &used);
        if (used != arg.size() || step.frames < 0) throw std::invalid_argument(arg);
      } catch (const std::exception&) {
        throw InputError(source_name, where, "wait needs a frame count >= 0, not '" + arg + "'");
      }
    } else if (verb == "wait-phase") {
      step.kind = Kind::kWaitPhase;
    } else if (verb == "wait-grid") {
      step.kind = Kind::kWaitGrid;
    } else if (verb == "wait-stands") {
      step.kind = Kind::kWaitStands;
    } else if (verb == "screenshot") {
      step.kind = Kind::kShot;
    } else {
      throw InputError(source_name, where, "unknown step '" + verb + "'");
    }
    script.steps_.push_back(step);
  }
  return script;
}

ScriptInput InputScript::Input() const {
  ScriptInput in;
  in.mouse = mouse_;
  if (done() || !failure_.empty()) return in;
  const Step& s = steps_[next_];
  if (s.kind == Kind::kKey && stage_ == 0) in.key_down = s.key;
  // A click: the pointer arrives (stage 1), the button goes down (2) and up (3), one frame
  // each, so ImGui sees hover, press and release as it does from a real mouse.
  if ((s.kind == Kind::kClick || s.kind == Kind::kClickStand) && stage_ == 2) {
    in.mouse_down = true;
  }
  return in;
}

std::optional<std::string> InputScript::PendingClick() const {
  if (done() || !failure_.empty() || stage_ != 0) return std::nullopt;
  const Step& s = steps_[next_];
  if (s.kind != Kind::kClick) return std::nullopt;
  return s.arg;
}

void InputScript::Fail(const Step& s, const std::string& what) {
  failure_ = source_ + ": line " + std::to_string(s.line) + ": " + what;
}

void InputScript::Next() {
  ++next_;
  stage_ = 0;
  waited_ = 0;
}

std::optional<std::string> InputScript::Advance(const ScriptView& view) {
  if (done() || !failure_.empty()) return std::nullopt;
  const Step& s = steps_[next_];
  ++waited_;
  const auto timed_out = [&](const std::string& what) {
    if (waited_ <= timeout_frames) return false;
    Fail(s, what + " within " + std::to_string(timeout_frames) + " frames");
    return true;
  };
  switch (s.kind) {
    case Kind::kKey:
      if (stage_++ == 1) Next();  // down one frame, up the next
      return std::nullopt;
    case Kind::kClick:
    case Kind::kClickStand: {
      if (stage_ == 0) {
        std::optional<ScreenPoint> target;
        if (s.kind == Kind::kClick) {
          if (const auto it = view.items.find(s.arg); it != view.items.end()) {
            const auto& [lo, hi] = it->second;
            target = ScreenPoint{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
          }
        } else if (const auto it = view.stands.find(s.arg); it != view.stands.end()) {
          target = it->second;
        }
        if (target && !Inside(*target, view)) {
          Fail(s, "'" + s.arg + "' is drawn off the screen (" + std::to_string(target->x) + ", " +
                      std::to_string(target->y) + ")");
          return std::nullopt;
        }
        if (!target) {
          timed_out("'" + s.arg + "' was not drawn");
          return std::nullopt;
        }
        mouse_ = target;
        stage_ = 1;
        return std::nullopt;
      }
      if (stage_++ == 3) Next();
      return std::nullopt;
    }
    case Kind::kWait:
      if (waited_ >= s.frames) Next();
      return std::nullopt;
    case Kind::kWaitPhase:
      if (view.phase == s.arg) {
        Next();
      } else {
        timed_out("phase '" + s.arg + "' (now '" + view.phase + "') not reached");
      }
      return std::nullopt;
    case Kind::kWaitGrid:
      if (view.grid_found) {
        Next();
      } else {
        timed_out("no grid found");
      }
      return std::nullopt;
    case Kind::kWaitStands:
      if (!view.stands.empty()) {
        Next();
      } else {
        timed_out("no stand drawn");
      }
      return std::nullopt;
    case Kind::kShot: {
      std::string name = s.arg;
      Next();
      return name;
    }
  }
  return std::nullopt;
}

}  // namespace referee::live
