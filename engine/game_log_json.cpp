// One game-log line <-> one GameEvent. Written by hand (no ADL to_json for shared types such as
// Vec2) so that this file cannot clash with conversions others define.
#include <stdexcept>
#include <type_traits>

#include "engine/game_log.hpp"

namespace referee {
namespace {

using nlohmann::json;

[[noreturn]] void Bad(const std::string& field, const std::string& what) {
  throw std::invalid_argument(field + ": " + what);
}

// Optional field with a default; a present field of the wrong type is an error.
template <class T>
T Get(const json& j, const char* key, T fallback = T{}) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    Bad(key, "has the wrong type (" + std::string(it->type_name()) + ")");
  }
}

json Object(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return json::object();
  return *it;
}

json PointToJson(Vec2 p) { return json::array({p.x, p.y}); }

Vec2 PointFromJson(const json& j, const char* key) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number())
    Bad(key, "must be [x_in, y_in]");
  return {j[0].get<double>(), j[1].get<double>()};
}

std::optional<Vec2> OptPoint(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return PointFromJson(*it, key);
}

template <class T>
struct TypeName;
#define REFEREE_EVENT_NAME(T, name)            \
  template <>                                  \
  struct TypeName<T> {                         \
    static constexpr const char* kName = name; \
  };
REFEREE_EVENT_NAME(GameStart, "game_start")
REFEREE_EVENT_NAME(Calibration, "calibration")
REFEREE_EVENT_NAME(Snapshot, "snapshot")
REFEREE_EVENT_NAME(ShotArmed, "shot_armed")
REFEREE_EVENT_NAME(ShotVerdict, "verdict")
REFEREE_EVENT_NAME(FirerChoice, "firer_choice")
REFEREE_EVENT_NAME(DiceRoll, "dice")
REFEREE_EVENT_NAME(CoinFlip, "coin_flip")
REFEREE_EVENT_NAME(Musketry, "musketry")
REFEREE_EVENT_NAME(Melee, "melee")
REFEREE_EVENT_NAME(CasualtiesRemoved, "casualties_removed")
REFEREE_EVENT_NAME(TurnChange, "turn_change")
REFEREE_EVENT_NAME(Correction, "correction")
REFEREE_EVENT_NAME(Undo, "undo")
REFEREE_EVENT_NAME(GameEnd, "game_end")
#undef REFEREE_EVENT_NAME

// ---- payload -> fields ----
void Put(json& j, const GameStart& e) {
  j["game_id"] = e.game_id;
  j["ruleset"] = e.ruleset;
  j["scenario"] = e.scenario;
  json players = json::array();
  for (const auto& p : e.players)
    players.push_back({{"name", p.name}, {"side", p.side}, {"army", p.army}});
  j["players"] = players;
  j["board"] = {{"cols", e.board_cols}, {"rows", e.board_rows}, {"square_in", e.square_in}};
}
void Put(json& j, const Calibration& e) {
  j["calibration"] = e.calibration;
  j["frame"] = e.frame;
}
void Put(json& j, const Snapshot& e) {
  json stands = json::array();
  for (const auto& s : e.stands) stands.push_back(StandToJson(s));
  j["stands"] = stands;
  j["frame"] = e.frame;
}
void Put(json& j, const ShotArmed& e) {
  j["shot_id"] = e.shot_id;
  j["side"] = e.side;
  j["player"] = e.player;
  j["unit"] = e.unit;
  j["stand_id"] = e.stand_id;
  j["weapon"] = e.weapon;
  j["before_frame"] = e.before_frame;
}
void Put(json& j, const ShotVerdict& e) {
  j["shot_id"] = e.shot_id;
  j["after_frame"] = e.after_frame;
  j["impact_in"] = e.impact_in ? PointToJson(*e.impact_in) : json(nullptr);
  j["hit_stand_ids"] = e.hit_stand_ids;
  j["evidence"] = e.evidence;
  j["verdict"] = e.verdict;
  json check = json::array();
  for (const auto& c : e.check) {
    check.push_back({{"reason", c.reason},
                     {"side", c.side},
                     {"point", PointToJson(c.point_in)},
                     {"area_mm2", c.area_mm2},
                     {"length_mm", c.length_mm}});
  }
  j["check"] = std::move(check);
}
void Put(json& j, const FirerChoice& e) {
  j["shot_id"] = e.shot_id;
  j["side"] = e.side;
  j["choice"] = e.choice;
  j["details"] = e.details;
}
void Put(json& j, const DiceRoll& e) {
  j["purpose"] = e.purpose;
  j["side"] = e.side;
  j["faces"] = e.faces;
  j["results"] = e.results;
  j["modifier"] = e.modifier;
  j["total"] = e.total;
}
void Put(json& j, const CoinFlip& e) {
  j["purpose"] = e.purpose;
  j["side"] = e.side;
  j["result"] = e.heads ? "heads" : "tails";
}
void Put(json& j, const Musketry& e) {
  j["side"] = e.side;
  j["unit"] = e.unit;
  j["target_unit"] = e.target_unit;
  j["result"] = e.result;
}
void Put(json& j, const Melee& e) {
  j["units"] = e.units;
  j["mdis"] = e.mdis;
  j["result"] = e.result;
}
void Put(json& j, const CasualtiesRemoved& e) {
  j["side"] = e.side;
  j["unit"] = e.unit;
  j["stand_ids"] = e.stand_ids;
  j["points"] = e.points;
  j["scored_by"] = e.scored_by;
  j["cause"] = e.cause;
  j["cause_seq"] = e.cause_seq;
}
void Put(json& j, const TurnChange& e) {
  j["turn"] = e.turn;
  j["side"] = e.side;
  j["phase"] = e.phase;
}
void Put(json& j, const Correction& e) {
  j["subject"] = e.subject;
  j["target_seq"] = e.target_seq;
  j["value"] = e.value;
  j["note"] = e.note;
}
void Put(json& j, const Undo& e) {
  j["target_seq"] = e.target_seq;
  j["note"] = e.note;
}
void Put(json& j, const GameEnd& e) {
  j["winner"] = e.winner;
  j["reason"] = e.reason;
  j["points"] = e.points;
}

// ---- fields -> payload ----
void Take(const json& j, GameStart& e) {
  e.game_id = Get<std::string>(j, "game_id");
  e.ruleset = Get<std::string>(j, "ruleset");
  e.scenario = Get<std::string>(j, "scenario");
  const json players = Object(j, "players");
  if (!players.is_array() && !players.empty()) Bad("players", "must be an array");
  for (const auto& p : players) {
    if (!p.is_object()) Bad("players", "each entry must be an object");
    e.players.push_back(
        {Get<std::string>(p, "name"), Get<std::string>(p, "side"), Get<std::string>(p, "army")});
  }
  const json board = Object(j, "board");
  if (!board.is_object()) Bad("board", "must be an object");
  e.board_cols = Get<int>(board, "cols");
  e.board_rows = Get<int>(board, "rows");
  e.square_in = Get<double>(board, "square_in");
}
void Take(const json& j, Calibration& e) {
  e.calibration = Object(j, "calibration");
  e.frame = Get<std::string>(j, "frame");
}
void Take(const json& j, Snapshot& e) {
  const json stands = Object(j, "stands");
  if (!stands.is_array() && !stands.empty()) Bad("stands", "must be an array");
  for (const auto& s : stands) e.stands.push_back(StandFromJson(s));
  e.frame = Get<std::string>(j, "frame");
}
void Take(const json& j, ShotArmed& e) {
  e.shot_id = Get<std::string>(j, "shot_id");
  if (e.shot_id.empty()) Bad("shot_id", "missing");
  e.side = Get<std::string>(j, "side");
  e.player = Get<std::string>(j, "player");
  e.unit = Get<std::string>(j, "unit");
  e.stand_id = Get<std::string>(j, "stand_id");
  e.weapon = Get<std::string>(j, "weapon");
  e.before_frame = Get<std::string>(j, "before_frame");
}
void Take(const json& j, ShotVerdict& e) {
  e.shot_id = Get<std::string>(j, "shot_id");
  if (e.shot_id.empty()) Bad("shot_id", "missing");
  e.after_frame = Get<std::string>(j, "after_frame");
  e.impact_in = OptPoint(j, "impact_in");
  e.hit_stand_ids = Get<std::vector<std::string>>(j, "hit_stand_ids");
  e.evidence = Get<std::string>(j, "evidence");
  e.verdict = Object(j, "verdict");
  if (const auto it = j.find("check"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) Bad("check", "must be an array");
    for (const json& c : *it) {
      if (!c.is_object()) Bad("check", "must hold objects");
      e.check.push_back({Get<std::string>(c, "reason"), Get<std::string>(c, "side"),
                         PointFromJson(c.contains("point") ? c["point"] : json(), "check.point"),
                         Get<double>(c, "area_mm2", 0.0), Get<double>(c, "length_mm", 0.0)});
    }
  }
}
void Take(const json& j, FirerChoice& e) {
  e.shot_id = Get<std::string>(j, "shot_id");
  e.side = Get<std::string>(j, "side");
  e.choice = Get<std::string>(j, "choice");
  e.details = Object(j, "details");
}
void Take(const json& j, DiceRoll& e) {
  e.purpose = Get<std::string>(j, "purpose");
  e.side = Get<std::string>(j, "side");
  e.faces = Get<int>(j, "faces", 6);
  e.results = Get<std::vector<int>>(j, "results");
  e.modifier = Get<int>(j, "modifier");
  e.total = Get<int>(j, "total");
}
void Take(const json& j, CoinFlip& e) {
  e.purpose = Get<std::string>(j, "purpose");
  e.side = Get<std::string>(j, "side");
  const auto result = Get<std::string>(j, "result");
  if (result != "heads" && result != "tails") Bad("result", "must be \"heads\" or \"tails\"");
  e.heads = result == "heads";
}
void Take(const json& j, Musketry& e) {
  e.side = Get<std::string>(j, "side");
  e.unit = Get<std::string>(j, "unit");
  e.target_unit = Get<std::string>(j, "target_unit");
  e.result = Object(j, "result");
}
void Take(const json& j, Melee& e) {
  e.units = Get<std::vector<std::string>>(j, "units");
  e.mdis = Object(j, "mdis");
  e.result = Object(j, "result");
}
void Take(const json& j, CasualtiesRemoved& e) {
  e.side = Get<std::string>(j, "side");
  e.unit = Get<std::string>(j, "unit");
  e.stand_ids = Get<std::vector<std::string>>(j, "stand_ids");
  e.points = Get<double>(j, "points");
  e.scored_by = Get<std::string>(j, "scored_by");
  e.cause = Get<std::string>(j, "cause");
  e.cause_seq = Get<int64_t>(j, "cause_seq");
}
void Take(const json& j, TurnChange& e) {
  e.turn = Get<int>(j, "turn", 1);
  e.side = Get<std::string>(j, "side");
  e.phase = Get<std::string>(j, "phase");
}
void Take(const json& j, Correction& e) {
  e.subject = Get<std::string>(j, "subject");
  if (e.subject.empty()) Bad("subject", "missing");
  e.target_seq = Get<int64_t>(j, "target_seq");
  e.value = Object(j, "value");
  e.note = Get<std::string>(j, "note");
}
void Take(const json& j, Undo& e) {
  e.target_seq = Get<int64_t>(j, "target_seq");
  if (e.target_seq <= 0) Bad("target_seq", "must be the seq of an earlier event");
  e.note = Get<std::string>(j, "note");
}
void Take(const json& j, GameEnd& e) {
  e.winner = Get<std::string>(j, "winner");
  e.reason = Get<std::string>(j, "reason");
  e.points = Get<std::map<std::string, double>>(j, "points");
}

template <size_t I = 0>
EventPayload PayloadFromJson(const std::string& type, const json& j) {
  if constexpr (I == std::variant_size_v<EventPayload>) {
    Bad("type", "unknown event type \"" + type + "\"");
  } else {
    using T = std::variant_alternative_t<I, EventPayload>;
    if (type == TypeName<T>::kName) {
      T payload;
      Take(j, payload);
      return payload;
    }
    return PayloadFromJson<I + 1>(type, j);
  }
}

}  // namespace

std::string EventTypeName(const EventPayload& payload) {
  return std::visit(
      [](const auto& p) { return std::string(TypeName<std::decay_t<decltype(p)>>::kName); },
      payload);
}

json StandToJson(const SnapshotStand& s) {
  return {{"id", s.id},
          {"side", s.side},
          {"kind", s.kind},
          {"unit", s.unit},
          {"center_in", PointToJson(s.footprint.center)},
          {"width_in", s.footprint.width_in},
          {"depth_in", s.footprint.depth_in},
          {"angle_deg", s.footprint.angle_deg},
          {"facing_known", s.facing_known},
          {"partly_hidden", s.partly_hidden},
          {"faint_border", s.faint_border}};
}

SnapshotStand StandFromJson(const json& j) {
  if (!j.is_object()) Bad("stands", "each stand must be an object");
  SnapshotStand s;
  s.id = Get<std::string>(j, "id");
  if (s.id.empty()) Bad("stands.id", "missing");
  s.side = Get<std::string>(j, "side");
  s.kind = Get<std::string>(j, "kind");
  s.unit = Get<std::string>(j, "unit");
  const auto center = OptPoint(j, "center_in");
  if (!center) Bad("stands.center_in", "missing");
  s.footprint.center = *center;
  s.footprint.width_in = Get<double>(j, "width_in");
  s.footprint.depth_in = Get<double>(j, "depth_in");
  s.footprint.angle_deg = Get<double>(j, "angle_deg");
  s.facing_known = Get<bool>(j, "facing_known", true);
  s.partly_hidden = Get<bool>(j, "partly_hidden", false);
  s.faint_border = Get<bool>(j, "faint_border", false);
  return s;
}

SnapshotStand SnapshotStandFrom(const Stand& stand, std::string unit) {
  return {stand.id, stand.side, stand.kind, std::move(unit), stand.footprint, stand.facing_known};
}

json EventToJson(const GameEvent& event) {
  json j = json::object();
  j["seq"] = event.seq;
  j["time_utc"] = event.time_utc;
  j["type"] = event.type();
  j["format_version"] = event.format_version;
  std::visit([&j](const auto& p) { Put(j, p); }, event.payload);
  return j;
}

GameEvent EventFromJson(const json& j) {
  if (!j.is_object()) Bad("line", "is not a JSON object");
  GameEvent event;
  if (!j.contains("seq") || !j["seq"].is_number_integer()) Bad("seq", "missing or not an integer");
  event.seq = j["seq"].get<int64_t>();
  if (event.seq <= 0) Bad("seq", "must be positive");
  event.time_utc = Get<std::string>(j, "time_utc");
  if (!j.contains("format_version") || !j["format_version"].is_number_integer())
    Bad("format_version", "missing or not an integer");
  event.format_version = j["format_version"].get<int>();
  const auto type = Get<std::string>(j, "type");
  if (type.empty()) Bad("type", "missing");
  event.payload = PayloadFromJson(type, j);
  return event;
}

}  // namespace referee
