#include "ui/live/replay_controller.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "engine/input_error.hpp"
#include "ui/report/report_model.hpp"

namespace referee::live {

namespace {

ReplayBoard BoardOf(const GameLog& log) {
  ReplayBoard b;
  for (const auto& e : log.events) {
    if (const auto* g = e.As<GameStart>();
        g && g->board_cols > 0 && g->board_rows > 0 && g->square_in > 0) {
      return {g->board_cols, g->board_rows, g->square_in};
    }
  }
  // A live game states its board in the calibration it accepted.
  for (const auto& e : log.events) {
    const auto* c = e.As<Calibration>();
    if (!c || !c->calibration.is_object()) continue;
    const auto board = c->calibration.find("board");
    if (board == c->calibration.end() || !board->is_object()) continue;
    const int cols = board->value("cols", 0), rows = board->value("rows", 0);
    const double square = board->value("square_size", 0.0);
    if (cols > 0 && rows > 0 && square > 0) b = {cols, rows, square};
  }
  return b;
}

}  // namespace

ReplayController::ReplayController(GameLog log) : log_(std::move(log)) {
  if (log_.events.empty()) {
    throw InputError(log_.path.string(), "",
                     log_.problems.empty()
                         ? "no event to replay (empty log)"
                         : "no complete event to replay (" + std::to_string(log_.problems.size()) +
                               " bad lines, first at line " +
                               std::to_string(log_.problems.front().line) + ")");
  }
  board_ = BoardOf(log_);
  // Which undo cancels each event: the last undo naming it that itself still counts.
  const std::set<int64_t> undone = UndoneSeqs(log_.events);
  std::map<int64_t, int64_t> by;
  for (const auto& e : log_.events) {
    if (const auto* u = e.As<Undo>(); u && !undone.contains(e.seq)) by[u->target_seq] = e.seq;
  }
  for (const auto& e : log_.events) {
    const auto it = by.find(e.seq);
    undone_by_.push_back(undone.contains(e.seq) && it != by.end() ? it->second : 0);
  }
  Build(0);
}

bool ReplayController::GoTo(size_t index) {
  if (index >= size() || index == step_.index) return false;
  Build(index);
  return true;
}

std::vector<size_t> ReplayController::ShotStops() const {
  std::vector<size_t> stops;
  std::map<std::string, size_t> armed_at;  // shot id -> index of its arming, until a verdict
  std::set<std::string> judged;
  for (size_t i = 0; i < size(); ++i) {
    const GameEvent& e = log_.events[i];
    if (const auto* a = e.As<ShotArmed>()) {
      armed_at[a->shot_id] = i;
    } else if (const auto* v = e.As<ShotVerdict>(); v && !judged.contains(v->shot_id)) {
      judged.insert(v->shot_id);
      stops.push_back(i);
    }
  }
  for (const auto& [id, i] : armed_at) {
    if (!judged.contains(id)) stops.push_back(i);
  }
  std::ranges::sort(stops);
  return stops;
}

std::vector<size_t> ReplayController::TurnStops() const {
  std::vector<size_t> stops;
  for (size_t i = 0; i < size(); ++i) {
    if (log_.events[i].As<TurnChange>()) stops.push_back(i);
  }
  return stops;
}

bool ReplayController::NextIn(const std::vector<size_t>& stops) {
  const auto it = std::ranges::upper_bound(stops, step_.index);
  return it != stops.end() && GoTo(*it);
}

bool ReplayController::PreviousIn(const std::vector<size_t>& stops) {
  const auto it = std::ranges::lower_bound(stops, step_.index);
  return it != stops.begin() && GoTo(*std::prev(it));
}

bool ReplayController::Apply(ReplayCommand command) {
  switch (command) {
    case ReplayCommand::kNextEvent:
      return GoTo(step_.index + 1);
    case ReplayCommand::kPreviousEvent:
      return step_.index > 0 && GoTo(step_.index - 1);
    case ReplayCommand::kNextShot:
      return NextIn(ShotStops());
    case ReplayCommand::kPreviousShot:
      return PreviousIn(ShotStops());
    case ReplayCommand::kNextTurn:
      return NextIn(TurnStops());
    case ReplayCommand::kPreviousTurn:
      return PreviousIn(TurnStops());
    case ReplayCommand::kFirst:
      return GoTo(0);
    case ReplayCommand::kLast:
      return GoTo(size() - 1);
  }
  return false;
}

void ReplayController::Build(size_t index) {
  ReplayStep s;
  s.index = index;
  s.count = size();
  s.event = log_.events[index];
  s.summary = report::EventSummary(s.event);
  s.undone_by = undone_by_[index];
  s.state = FoldGameLogUpTo(log_.events, s.event.seq);
  std::string shot_id;
  std::optional<Calibration> calibration;
  int64_t calibration_seq = 0;
  for (size_t i = 0; i <= index; ++i) {
    const GameEvent& e = log_.events[i];
    auto show = [&](const std::string& name, const char* kind) {
      if (name.empty()) return;
      s.picture = name;
      s.picture_kind = kind;
      s.picture_seq = e.seq;
    };
    auto frame = [&](const std::string& name, const char* kind) {
      show(name, kind);
      if (name.empty()) return;
      s.frame = name;
      s.frame_kind = kind;
      s.frame_seq = e.seq;
      s.frame_calibration = calibration;
      s.frame_calibration_seq = calibration_seq;
    };
    if (const auto* c = e.As<Calibration>()) {
      calibration = *c;
      calibration_seq = e.seq;
      frame(c->frame, "calibration");
    } else if (const auto* snap = e.As<Snapshot>()) {
      frame(snap->frame, "snapshot");
    } else if (const auto* a = e.As<ShotArmed>()) {
      frame(a->before_frame, "before");
      shot_id = a->shot_id;
    } else if (const auto* v = e.As<ShotVerdict>()) {
      frame(v->after_frame, "after");
      show(v->evidence, "evidence");  // the evidence, when stored, explains the after frame
    } else if (e.As<Correction>() || e.As<Undo>()) {
      s.corrections.push_back({e.seq, e.type(), report::EventSummary(e)});
    }
  }
  for (const auto& shot : s.state.shots) {
    if (shot.shot_id == shot_id) s.shot = shot;
  }
  step_ = std::move(s);
}

}  // namespace referee::live
