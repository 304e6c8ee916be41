#include "ui/report/report_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace referee::report {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string Num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

BoardExtent BoardOf(const GameState& state) {
  BoardExtent b;
  const GameStart& g = state.start;
  if (g.board_cols > 0 && g.board_rows > 0 && g.square_in > 0) {
    b.width_in = g.board_cols * g.square_in;
    b.height_in = g.board_rows * g.square_in;
    b.square_in = g.square_in;
    return b;
  }
  // Not stated: grow the default board to hold everything seen.
  auto grow = [&b](Vec2 p) {
    b.width_in = std::max(b.width_in, std::ceil(p.x / b.square_in) * b.square_in);
    b.height_in = std::max(b.height_in, std::ceil(p.y / b.square_in) * b.square_in);
  };
  for (const auto& shot : state.shots)
    if (shot.impact_in) grow(*shot.impact_in);
  for (const auto& [id, s] : state.stands) grow(s.footprint.center);
  return b;
}

}  // namespace

std::string EventSummary(const GameEvent& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, GameStart>) {
          std::string players;
          for (const auto& p : e.players)
            players += (players.empty() ? "" : "; ") + p.name + " (" + p.side + ", " + p.army + ")";
          return "game " + e.game_id + " begins, " + e.ruleset + ": " + players;
        } else if constexpr (std::is_same_v<T, Calibration>) {
          return "table calibrated";
        } else if constexpr (std::is_same_v<T, Snapshot>) {
          return "positions of " + std::to_string(e.stands.size()) + " stands recorded";
        } else if constexpr (std::is_same_v<T, ShotArmed>) {
          return e.side + " " + e.weapon + " " + e.stand_id + " armed (shot " + e.shot_id + ")";
        } else if constexpr (std::is_same_v<T, ShotVerdict>) {
          if (!e.impact_in) return "shot " + e.shot_id + ": no projectile found";
          std::ostringstream s;
          s.precision(3);
          s << "shot " << e.shot_id << " at (" << e.impact_in->x << ", " << e.impact_in->y
            << ") in: " << (e.hit_stand_ids.empty() ? "miss" : "hit " + Join(e.hit_stand_ids));
          return s.str();
        } else if constexpr (std::is_same_v<T, FirerChoice>) {
          // The turn flow's own records (what --resume plays again) are not the players' choices.
          if (e.choice == "game_setup") return "turn-flow game set up";
          if (e.choice == "turn_action") {
            const auto action = e.details.find("action");
            const bool named = action != e.details.end() && action->is_object() &&
                               action->contains("action") && (*action)["action"].is_string();
            return e.side + " turn action" +
                   (named ? ": " + (*action)["action"].template get<std::string>() : "");
          }
          return e.side + " chooses " + e.choice +
                 (e.shot_id.empty() ? "" : " (shot " + e.shot_id + ")");
        } else if constexpr (std::is_same_v<T, DiceRoll>) {
          std::string dice;
          for (int r : e.results) dice += (dice.empty() ? "" : " ") + std::to_string(r);
          return e.side + " rolls " + std::to_string(e.results.size()) + "d" +
                 std::to_string(e.faces) + " for " + e.purpose + ": " + dice +
                 (e.modifier
                      ? " " + std::string(e.modifier > 0 ? "+" : "") + std::to_string(e.modifier)
                      : "") +
                 " = " + std::to_string(e.total);
        } else if constexpr (std::is_same_v<T, CoinFlip>) {
          return e.side + " flips a coin for " + e.purpose + ": " + (e.heads ? "heads" : "tails");
        } else if constexpr (std::is_same_v<T, Musketry>) {
          return e.side + " " + e.unit + " fires on " + e.target_unit;
        } else if constexpr (std::is_same_v<T, Melee>) {
          return "melee: " + Join(e.units);
        } else if constexpr (std::is_same_v<T, CasualtiesRemoved>) {
          return e.side + " " + e.unit + " loses " + Join(e.stand_ids) + " (" + Num(e.points) +
                 " pts to " + e.scored_by + ", " + e.cause + ")";
        } else if constexpr (std::is_same_v<T, TurnChange>) {
          return "turn " + std::to_string(e.turn) + ": " + e.side + " " + e.phase;
        } else if constexpr (std::is_same_v<T, Correction>) {
          return "correction of " + e.subject +
                 (e.target_seq ? " (event #" + std::to_string(e.target_seq) + ")" : "") +
                 (e.note.empty() ? "" : ": " + e.note);
        } else if constexpr (std::is_same_v<T, Undo>) {
          return "undo of event #" + std::to_string(e.target_seq) +
                 (e.note.empty() ? "" : ": " + e.note);
        } else {
          return "game over: " + (e.winner.empty() ? std::string("draw") : e.winner + " wins") +
                 (e.reason.empty() ? "" : " (" + e.reason + ")");
        }
      },
      event.payload);
}

std::vector<PlayerAccuracy> ArtilleryAccuracy(const GameState& state) {
  std::map<std::pair<std::string, std::string>, PlayerAccuracy> by_player;
  for (const auto& shot : state.shots) {
    auto& a = by_player[{shot.player, shot.side}];
    a.player = shot.player;
    a.side = shot.side;
    ++a.shots;
    if (shot.verdict_seq == 0 && !shot.corrected) continue;
    ++a.judged;
    a.hits += shot.Hit();
  }
  std::vector<PlayerAccuracy> out;
  out.reserve(by_player.size());
  for (auto& [key, a] : by_player) out.push_back(a);
  return out;
}

ReportModel BuildReportModel(const GameLog& log) {
  ReportModel m;
  m.state = FoldGameLog(log.events);
  std::map<int64_t, int64_t> undone_by;
  {
    // Which undo cancelled what (for the struck-through timeline entries).
    for (const auto& e : log.events)
      if (const auto* u = e.As<Undo>();
          u && m.state.undone_seqs.count(u->target_seq) && !m.state.undone_seqs.count(e.seq))
        undone_by[u->target_seq] = e.seq;
    for (int64_t s : m.state.undone_seqs)
      if (!undone_by.count(s)) undone_by[s] = -1;  // cancelled by an undo itself later undone
  }
  m.timeline.push_back({});
  for (const auto& e : log.events) {
    const auto* turn = e.As<TurnChange>();
    if (turn && !m.state.undone_seqs.count(e.seq)) {
      m.timeline.push_back({turn->turn, turn->side, turn->phase, {}});
    }
    const auto it = undone_by.find(e.seq);
    m.timeline.back().entries.push_back(
        {e.seq, e.time_utc, e.type(), EventSummary(e), it == undone_by.end() ? 0 : it->second});
  }
  if (m.timeline.front().entries.empty()) m.timeline.erase(m.timeline.begin());

  std::map<std::pair<std::string, std::string>, UnitLosses> losses;
  for (const auto& c : m.state.casualties) {
    auto& l = losses[{c.removed.side, c.removed.unit}];
    l.side = c.removed.side;
    l.unit = c.removed.unit;
    l.stands += static_cast<int>(c.removed.stand_ids.size());
    l.points += c.removed.points;
  }
  for (auto& [key, l] : losses) m.losses.push_back(l);
  m.accuracy = ArtilleryAccuracy(m.state);
  m.board = BoardOf(m.state);
  return m;
}

}  // namespace referee::report
