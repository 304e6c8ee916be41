#include "engine/rules/action_json.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace referee::rules {

namespace {

using nlohmann::json;

json SquareJson(Square s) { return json::array({s.col, s.row}); }

const json& Field(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw std::invalid_argument(std::string("no ") + key);
  return j.at(key);
}

Square SquareOf(const json& j, const char* key) {
  const json& v = Field(j, key);
  if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
    throw std::invalid_argument(std::string(key) + " is not [col, row]");
  return {v[0].get<int>(), v[1].get<int>()};
}

std::string StringOf(const json& j, const char* key) {
  const json& v = Field(j, key);
  if (!v.is_string()) throw std::invalid_argument(std::string(key) + " is not a string");
  return v.get<std::string>();
}

bool BoolOf(const json& j, const char* key) {
  const json& v = Field(j, key);
  if (!v.is_boolean()) throw std::invalid_argument(std::string(key) + " is not true/false");
  return v.get<bool>();
}

int IntOf(const json& j, const char* key) {
  const json& v = Field(j, key);
  if (!v.is_number_integer()) throw std::invalid_argument(std::string(key) + " is not an integer");
  return v.get<int>();
}

Facing FacingOf(const json& j, const char* key) {
  const auto f = ParseFacing(StringOf(j, key));
  if (!f) throw std::invalid_argument(std::string(key) + " is not a facing");
  return *f;
}

Mdi MdiOf(const json& j, const char* key) {
  const auto m = ParseMdi(StringOf(j, key));
  if (!m) throw std::invalid_argument(std::string(key) + " is not an MDI card");
  return *m;
}

std::vector<std::string> StringsOf(const json& j, const char* key) {
  const json& v = Field(j, key);
  if (!v.is_array()) throw std::invalid_argument(std::string(key) + " is not a list");
  std::vector<std::string> out;
  for (const auto& s : v) {
    if (!s.is_string()) throw std::invalid_argument(std::string(key) + " holds a non-string");
    out.push_back(s.get<std::string>());
  }
  return out;
}

json MoveJson(const MoveUnit& m) {
  json path = json::array();
  for (const Square s : m.path) path.push_back(SquareJson(s));
  return {{"unit", m.unit},
          {"path", path},
          {"facing", FacingName(m.facing)},
          {"form_square", m.form_square},
          {"break_square", m.break_square},
          {"square_with", m.square_with}};
}

MoveUnit MoveOf(const json& j) {
  MoveUnit m;
  m.unit = StringOf(j, "unit");
  const json& path = Field(j, "path");
  if (!path.is_array()) throw std::invalid_argument("path is not a list");
  for (const auto& s : path) m.path.push_back(SquareOf(json{{"square", s}}, "square"));
  m.facing = FacingOf(j, "facing");
  m.form_square = BoolOf(j, "form_square");
  m.break_square = BoolOf(j, "break_square");
  m.square_with = StringsOf(j, "square_with");
  return m;
}

}  // namespace

json ActionToJson(const Action& action) {
  json j = std::visit(
      [](const auto& a) -> json {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, ArtilleryCasualty>) {
          return {{"firer_unit", a.firer_unit},
                  {"target_unit", a.target_unit},
                  {"stand_kind", a.stand_kind}};
        } else if constexpr (std::is_same_v<T, HoldCanister>) {
          return {{"battery_unit", a.battery_unit}};
        } else if constexpr (std::is_same_v<T, FireCanister>) {
          return {{"battery_unit", a.battery_unit},
                  {"target", SquareJson(a.target)},
                  {"target_unit", a.target_unit}};
        } else if constexpr (std::is_same_v<T, FireMusketry>) {
          return {{"firer_unit", a.firer_unit}, {"target_unit", a.target_unit}};
        } else if constexpr (std::is_same_v<T, MoveUnit>) {
          return MoveJson(a);
        } else if constexpr (std::is_same_v<T, DeclareSupport>) {
          return {{"unit", a.unit}, {"contact", SquareJson(a.contact)}};
        } else if constexpr (std::is_same_v<T, FightMelee>) {
          return {{"contact", SquareJson(a.contact)},
                  {"attacker_mdi", MdiName(a.attacker_mdi)},
                  {"defender_mdi", MdiName(a.defender_mdi)}};
        } else if constexpr (std::is_same_v<T, EndPhase>) {
          return json::object();
        } else if constexpr (std::is_same_v<T, Surrender>) {
          return {{"side", a.side}};
        } else if constexpr (std::is_same_v<T, ShellOnInflammable>) {
          return {{"firer_unit", a.firer_unit}, {"square", SquareJson(a.square)}};
        } else if constexpr (std::is_same_v<T, Limber>) {
          return {{"battery_unit", a.battery_unit}, {"limber", a.limber}};
        } else if constexpr (std::is_same_v<T, DestroyEquipment>) {
          return {{"unit", a.unit}, {"stand_kind", a.stand_kind}};
        } else if constexpr (std::is_same_v<T, AttachCommander>) {
          return {{"commander", a.commander}, {"unit", a.unit}};
        } else if constexpr (std::is_same_v<T, FireArtillery>) {
          return {{"firer_unit", a.firer_unit},
                  {"target", SquareJson(a.target)},
                  {"gun_kind", a.gun_kind},
                  {"manned_by", a.manned_by}};
        } else {
          static_assert(std::is_same_v<T, MoveUnits>);
          json moves = json::array();
          for (const auto& m : a.moves) moves.push_back(MoveJson(m));
          return {{"moves", moves}};
        }
      },
      action);
  j["action"] = ActionName(action);
  return j;
}

Action ActionFromJson(const json& j) {
  const std::string name = StringOf(j, "action");
  if (name == "artillery_casualty")
    return ArtilleryCasualty{StringOf(j, "firer_unit"), StringOf(j, "target_unit"),
                             StringOf(j, "stand_kind")};
  if (name == "hold_canister") return HoldCanister{StringOf(j, "battery_unit")};
  if (name == "fire_canister")
    return FireCanister{StringOf(j, "battery_unit"), SquareOf(j, "target"),
                        StringOf(j, "target_unit")};
  if (name == "fire_musketry")
    return FireMusketry{StringOf(j, "firer_unit"), StringOf(j, "target_unit")};
  if (name == "move") return MoveOf(j);
  if (name == "declare_support") return DeclareSupport{StringOf(j, "unit"), SquareOf(j, "contact")};
  if (name == "fight_melee")
    return FightMelee{SquareOf(j, "contact"), MdiOf(j, "attacker_mdi"), MdiOf(j, "defender_mdi")};
  if (name == "end_phase") return EndPhase{};
  if (name == "surrender") return Surrender{StringOf(j, "side")};
  if (name == "shell_on_inflammable")
    return ShellOnInflammable{StringOf(j, "firer_unit"), SquareOf(j, "square")};
  if (name == "limber") return Limber{StringOf(j, "battery_unit"), BoolOf(j, "limber")};
  if (name == "destroy_equipment")
    return DestroyEquipment{StringOf(j, "unit"), StringOf(j, "stand_kind")};
  if (name == "attach_commander")
    return AttachCommander{StringOf(j, "commander"), StringOf(j, "unit")};
  if (name == "fire_artillery")
    return FireArtillery{StringOf(j, "firer_unit"), SquareOf(j, "target"), StringOf(j, "gun_kind"),
                         StringOf(j, "manned_by")};
  if (name == "move_together") {
    MoveUnits m;
    const json& moves = Field(j, "moves");
    if (!moves.is_array()) throw std::invalid_argument("moves is not a list");
    for (const auto& one : moves) m.moves.push_back(MoveOf(one));
    return m;
  }
  throw std::invalid_argument("unknown action \"" + name + "\"");
}

json SetupToJson(const GameSetup& setup) {
  json units = json::array();
  for (const auto& u : setup.units) {
    units.push_back({{"id", u.id},
                     {"side", u.side},
                     {"type", u.type},
                     {"square", SquareJson(u.square)},
                     {"facing", FacingName(u.facing)},
                     {"stands", u.stands},
                     {"formed_square", u.formed_square},
                     {"square_group", u.square_group},
                     {"limbered", u.limbered},
                     {"attached_to", u.attached_to}});
  }
  json sides = json::array();
  for (const auto& s : setup.sides) sides.push_back({{"name", s.name}, {"home_row", s.home_row}});
  return {{"sides", sides},
          {"units", units},
          {"first_attacker", setup.first_attacker},
          {"agreed_turns", setup.agreed_turns}};
}

GameSetup SetupFromJson(const json& j, const Board& board) {
  GameSetup setup;
  setup.board = board;
  const json& sides = Field(j, "sides");
  if (!sides.is_array() || sides.size() != 2) throw std::invalid_argument("sides is not two sides");
  for (size_t i = 0; i < 2; ++i)
    setup.sides[i] = {StringOf(sides[i], "name"), IntOf(sides[i], "home_row")};
  const json& units = Field(j, "units");
  if (!units.is_array()) throw std::invalid_argument("units is not a list");
  for (const auto& ju : units) {
    GameUnit u;
    u.id = StringOf(ju, "id");
    u.side = StringOf(ju, "side");
    u.type = StringOf(ju, "type");
    u.square = SquareOf(ju, "square");
    u.facing = FacingOf(ju, "facing");
    u.stands = StringsOf(ju, "stands");
    u.formed_square = BoolOf(ju, "formed_square");
    u.square_group = IntOf(ju, "square_group");
    u.limbered = BoolOf(ju, "limbered");
    u.attached_to = StringOf(ju, "attached_to");
    setup.units.push_back(std::move(u));
  }
  setup.first_attacker = IntOf(j, "first_attacker");
  setup.agreed_turns = IntOf(j, "agreed_turns");
  return setup;
}

}  // namespace referee::rules
