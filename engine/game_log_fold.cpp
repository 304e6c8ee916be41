// Folding the events of a game log into the game as it stands, honouring undo.
#include <algorithm>
#include <type_traits>

#include "engine/game_log.hpp"
#include "engine/stand_fold.hpp"

namespace referee {
namespace {

ShotRecord* FindShot(GameState& state, const std::string& shot_id) {
  for (auto it = state.shots.rbegin(); it != state.shots.rend(); ++it)
    if (it->shot_id == shot_id) return &*it;
  return nullptr;
}

// Corrections of the stands are folded by StandFold (engine/stand_fold.hpp).
void ApplyCorrection(GameState& state, const Correction& c) {
  const auto& v = c.value;
  if (c.subject == "shot" && v.is_object() && v.contains("shot_id") && v["shot_id"].is_string()) {
    ShotRecord* shot = FindShot(state, v["shot_id"].get<std::string>());
    if (!shot) return;
    if (v.contains("hit_stand_ids") && v["hit_stand_ids"].is_array()) {
      shot->hit_stand_ids.clear();
      for (const auto& id : v["hit_stand_ids"])
        if (id.is_string()) shot->hit_stand_ids.push_back(id.get<std::string>());
    }
    if (v.contains("impact_in") && v["impact_in"].is_array() && v["impact_in"].size() == 2 &&
        v["impact_in"][0].is_number() && v["impact_in"][1].is_number())
      shot->impact_in = Vec2{v["impact_in"][0].get<double>(), v["impact_in"][1].get<double>()};
    shot->corrected = true;
  } else if (c.subject == "points" && v.is_object() && v.contains("side") &&
             v["side"].is_string() && v.contains("delta") && v["delta"].is_number()) {
    state.points_by_side[v["side"].get<std::string>()] += v["delta"].get<double>();
  }
}

void Apply(GameState& state, StandFold& stands, const GameEvent& event) {
  // The table's stands: one fold with `referee live --resume` (snapshots, removals, moves,
  // kinds and "is really" swaps).
  stands.Apply(event);
  std::visit(
      [&](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, GameStart>) {
          state.start = e;
        } else if constexpr (std::is_same_v<T, Calibration>) {
          state.calibration = e;
        } else if constexpr (std::is_same_v<T, ShotArmed>) {
          ShotRecord shot;
          shot.shot_id = e.shot_id;
          shot.armed_seq = event.seq;
          shot.turn = state.turn;
          shot.phase = state.phase;
          shot.side = e.side;
          shot.player = e.player.empty() ? state.PlayerOfSide(e.side) : e.player;
          shot.unit = e.unit;
          shot.stand_id = e.stand_id;
          shot.weapon = e.weapon;
          shot.before_frame = e.before_frame;
          state.shots.push_back(std::move(shot));
        } else if constexpr (std::is_same_v<T, ShotVerdict>) {
          ShotRecord* shot = FindShot(state, e.shot_id);
          if (!shot) {  // a verdict without its arming (e.g. the arming was undone)
            state.shots.push_back({});
            shot = &state.shots.back();
            shot->shot_id = e.shot_id;
            shot->turn = state.turn;
            shot->phase = state.phase;
          }
          shot->verdict_seq = event.seq;
          shot->after_frame = e.after_frame;
          shot->impact_in = e.impact_in;
          shot->hit_stand_ids = e.hit_stand_ids;
          shot->evidence = e.evidence;
          shot->verdict = e.verdict;
          shot->check = e.check;
          shot->corrected = false;
        } else if constexpr (std::is_same_v<T, FirerChoice>) {
          if (ShotRecord* shot = FindShot(state, e.shot_id))
            shot->firer_choices.push_back(e.choice);
        } else if constexpr (std::is_same_v<T, CasualtiesRemoved>) {
          state.casualties.push_back({event.seq, state.turn, state.phase, e});
          if (!e.scored_by.empty()) state.points_by_side[e.scored_by] += e.points;
        } else if constexpr (std::is_same_v<T, TurnChange>) {
          state.turn = e.turn;
          state.active_side = e.side;
          state.phase = e.phase;
        } else if constexpr (std::is_same_v<T, Correction>) {
          ApplyCorrection(state, e);
        } else if constexpr (std::is_same_v<T, GameEnd>) {
          state.end = e;
        }
        // Dice, coin flips, musketry, melee and undo change nothing here: their effects reach
        // the state through the casualties, corrections and turn changes they lead to.
      },
      event.payload);
}

}  // namespace

std::string GameState::PlayerOfSide(const std::string& side) const {
  for (const auto& p : start.players)
    if (p.side == side) return p.name;
  return "";
}

std::set<int64_t> UndoneSeqs(std::span<const GameEvent> events) {
  // Backwards: an undo always targets an earlier event, so whether an undo itself counts is
  // known before its target is reached.
  std::set<int64_t> undone;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (undone.count(it->seq)) continue;
    if (const auto* undo = it->As<Undo>(); undo && undo->target_seq < it->seq)
      undone.insert(undo->target_seq);
  }
  return undone;
}

GameState FoldGameLog(std::span<const GameEvent> events) {
  GameState state;
  StandFold stands;
  state.undone_seqs = UndoneSeqs(events);
  for (const auto& event : events) {
    state.last_seq = event.seq;
    if (state.undone_seqs.count(event.seq) || event.As<Undo>()) continue;
    Apply(state, stands, event);
  }
  state.stands = stands.Positions();
  return state;
}

GameState FoldGameLogUpTo(std::span<const GameEvent> events, int64_t upto_seq) {
  const auto end = std::find_if(events.begin(), events.end(),
                                [upto_seq](const GameEvent& e) { return e.seq > upto_seq; });
  return FoldGameLog(events.subspan(0, static_cast<size_t>(end - events.begin())));
}

}  // namespace referee
