// The interface every ruleset offers the referee, gridded (de Gre/Sweet now, Bob Cordery's
// later) or measured (Close Fire & European Order later). The UI and the game log talk to this;
// how a ruleset resolves fire and close combat behind it is its own business.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry.hpp"
#include "engine/grid.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/ruleset_data.hpp"

namespace referee::rules {

enum class Geometry {
  kGridded,   // moves, ranges and contact counted in squares
  kMeasured,  // moves and ranges measured in table inches (or yards at the ruleset's scale)
};

// Where a unit stands, in whichever terms the ruleset counts: a square and one of the eight
// facings (gridded) or a position and heading on the table (measured). Both may be filled.
struct Placement {
  std::optional<Square> square;
  Facing facing = Facing::kN;
  std::optional<Vec2> position_in;  // table inches
  double heading_deg = 0;           // from +x toward +y, like NearestFacing
};

class Ruleset {
 public:
  virtual ~Ruleset() = default;
  virtual std::string Name() const = 0;
  virtual std::string Title() const = 0;
  virtual Geometry geometry() const = 0;
  // The phases of one turn, in order, by name ("artillery", "musketry", ...).
  virtual std::vector<std::string> TurnPhases() const = 0;
  // Range between two placements in the ruleset's own unit (squares, diagonal 1.5; or inches).
  virtual double Range(const Placement& from, const Placement& to) const = 0;
  // Can a unit of `unit_type` at `from` shoot at `to` (arc only; range and screens elsewhere)?
  virtual bool InFireArc(const std::string& unit_type, const Placement& from,
                         const Placement& to) const = 0;
  virtual std::vector<std::string> ArmyNames() const = 0;
  virtual double ArmyPoints(const std::string& army) const = 0;
  virtual double PrintedArmyPoints(const std::string& army) const = 0;
};

// The de Gre/Sweet rulesets: everything comes from their JSON (RulesetData); games are played
// through Game (engine/rules/game.hpp).
class DeGreSweetRuleset : public Ruleset {
 public:
  explicit DeGreSweetRuleset(RulesetData data) : data_(std::move(data)) {}
  std::string Name() const override { return data_.name; }
  std::string Title() const override { return data_.title; }
  Geometry geometry() const override { return Geometry::kGridded; }
  std::vector<std::string> TurnPhases() const override { return data_.turn_sequence; }
  double Range(const Placement& from, const Placement& to) const override;
  bool InFireArc(const std::string& unit_type, const Placement& from,
                 const Placement& to) const override;
  std::vector<std::string> ArmyNames() const override;
  double ArmyPoints(const std::string& army) const override;
  double PrintedArmyPoints(const std::string& army) const override;

  const RulesetData& data() const { return data_; }
  // A new game on this ruleset; the Game keeps a reference to data(), so keep *this alive.
  Game NewGame(GameSetup setup) const { return Game(data_, std::move(setup)); }

 private:
  RulesetData data_;
};

// "napoleonic", "ancient", or a path to a club's ruleset JSON. Throws InputError.
std::unique_ptr<DeGreSweetRuleset> MakeRuleset(const std::string& name_or_path);

}  // namespace referee::rules
