#include "ui/live/turn_flow.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "engine/rules/action_json.hpp"

namespace referee::live {

namespace {

// Draws of the program's dice a resumed game plays again at most: far past any game's (each
// turn draws tens), short enough that a damaged count is refused, not replayed for hours.
constexpr std::uint64_t kMaxResumedDraws = 10'000'000;

// Dice typed by the players for one attempt at an action. Running short throws the engine's
// DiceExhausted (so the game restores its state) after noting whether a die or a coin is due.
class TypedDice : public rules::DiceSource {
 public:
  TypedDice(const std::vector<int>& dice, const std::vector<int>& coins)
      : dice_(dice), coins_(coins) {}
  bool missing_coin() const { return missing_coin_; }

 protected:
  int NextDie(const std::string& purpose) override {
    if (next_die_ >= dice_.size()) {
      missing_coin_ = false;
      throw rules::DiceExhausted(purpose);
    }
    return dice_[next_die_++];
  }
  int NextCoin(const std::string& purpose) override {
    if (next_coin_ >= coins_.size()) {
      missing_coin_ = true;
      throw rules::DiceExhausted(purpose);
    }
    return coins_[next_coin_++];
  }

 private:
  const std::vector<int>& dice_;
  const std::vector<int>& coins_;
  size_t next_die_ = 0;
  size_t next_coin_ = 0;
  bool missing_coin_ = false;
};

std::string CauseName(int cause) {
  static const char* kNames[] = {"musketry", "melee", "canister", "move", "morale", "shot"};
  return kNames[cause];
}

// One king step at a time from `from` to `to` (the squares entered, not `from`).
std::vector<Square> StraightPath(Square from, Square to) {
  std::vector<Square> path;
  Square cur = from;
  while (cur != to) {
    cur.col += (to.col > cur.col) - (to.col < cur.col);
    cur.row += (to.row > cur.row) - (to.row < cur.row);
    path.push_back(cur);
  }
  return path;
}

}  // namespace

std::string MeleeRoleName(MeleeRole role) {
  return role == MeleeRole::kAttacker ? "attacker" : "defender";
}

TurnFlow::TurnFlow(const rules::DeGreSweetRuleset& ruleset, std::uint64_t seed)
    : ruleset_(ruleset), seed_(seed), program_dice_(seed) {}

bool TurnFlow::Refuse(std::string why) {
  notice_ = std::move(why);
  return false;
}

bool TurnFlow::Start(TableSetup setup, int first_attacker) {
  if (started()) return Refuse("the game has already started");
  if (setup.setup.units.empty()) {
    return Refuse(setup.problems.empty() ? "no units on the table" : setup.problems.front());
  }
  std::set<std::string> sides;
  for (const auto& u : setup.setup.units) sides.insert(u.side);
  if (sides.size() != 2 || setup.setup.sides[0].name == setup.setup.sides[1].name) {
    return Refuse("a game needs units of two sides on the table");
  }
  if (first_attacker != 0 && first_attacker != 1) return Refuse("first attacker is side 0 or 1");
  setup.setup.first_attacker = first_attacker;
  stand_ids_ = std::move(setup.stand_ids);
  initial_stand_ids_ = stand_ids_;
  initial_ = setup.setup;
  history_.clear();
  game_ = std::make_unique<rules::Game>(ruleset_.data(), std::move(setup.setup));
  EmitSetup();
  Emit(TurnChange{game_->turn(), game_->attacker(), rules::PhaseName(game_->phase())});
  last_results_ = {"turn " + std::to_string(game_->turn()) + ": " + game_->attacker() +
                   " attacks, " + game_->defender() + " defends"};
  notice_.clear();
  return true;
}

void TurnFlow::EmitSetup() {
  Emit(FirerChoice{"",
                   initial_.sides[initial_.first_attacker == 1 ? 1 : 0].name,
                   "game_setup",
                   {{"ruleset", ruleset_.data().name},
                    {"setup", rules::SetupToJson(initial_)},
                    {"stand_ids", initial_stand_ids_},
                    {"dice_seed", seed_}}});
}

bool TurnFlow::Resume(const Board& board, std::span<const GameEvent> events) {
  if (started()) return Refuse("the game has already started");
  const std::set<int64_t> undone = UndoneSeqs(events);
  const FirerChoice* setup = nullptr;
  std::vector<size_t> actions;  // indices into events
  for (size_t i = 0; i < events.size(); ++i) {
    if (undone.contains(events[i].seq)) continue;
    const auto* c = events[i].As<FirerChoice>();
    if (c && c->choice == "game_setup") setup = c;
    if (c && c->choice == "turn_action") actions.push_back(i);
  }
  if (!setup) return Refuse("the log holds no started game");
  // How far the program's dice stream had gone: every draw counts, undone actions' too (an
  // undo does not give the dice back). Logs older than "program_draws" count the logged values.
  std::uint64_t drawn = 0, drawn_logged = 0;
  for (const GameEvent& e : events) {
    const auto* c = e.As<FirerChoice>();
    if (!c || c->choice != "turn_action") continue;
    const nlohmann::json& a = c->details;
    if (const auto draws = a.find("program_draws"); draws != a.end()) {
      // Each draw is played again below: a damaged count must not run on for hours.
      if (!draws->is_number_integer() || draws->get<std::uint64_t>() > kMaxResumedDraws)
        return Refuse("the log's seq " + std::to_string(e.seq) +
                      " has no valid program_draws (a count of the dice drawn so far)");
      drawn = std::max(drawn, draws->get<std::uint64_t>());
    } else {
      for (const char* key : {"dice", "coins"}) {
        if (const auto values = a.find(key); values != a.end() && values->is_array())
          drawn_logged += values->size();
      }
    }
  }
  drawn = std::max(drawn, drawn_logged);
  std::unique_ptr<rules::Game> game;
  std::vector<Played> history;
  std::map<std::string, std::vector<std::string>> ids;
  rules::GameSetup initial;
  std::map<std::string, std::vector<std::string>> initial_ids;
  size_t at = 0;  // the action being played again, for the message
  try {
    const nlohmann::json& d = setup->details;
    if (d.value("ruleset", "") != ruleset_.data().name) {
      return Refuse("the log's game is played with " + d.value("ruleset", std::string("?")) +
                    ", not " + ruleset_.data().name);
    }
    initial = rules::SetupFromJson(d.at("setup"), board);
    initial_ids = d.at("stand_ids").get<std::map<std::string, std::vector<std::string>>>();
    game = std::make_unique<rules::Game>(ruleset_.data(), initial);  // throws off the board
    ids = initial_ids;
    for (; at < actions.size(); ++at) {
      const GameEvent& e = events[actions[at]];
      const nlohmann::json& a = e.As<FirerChoice>()->details;
      Played p;
      p.action = rules::ActionFromJson(a.at("action"));
      p.cause = static_cast<Cause>(a.at("cause").get<int>());
      p.dice = a.at("dice").get<std::vector<int>>();
      p.coins = a.at("coins").get<std::vector<int>>();
      p.shot_stand = a.at("shot_stand").get<std::string>();
      p.shot_id = a.at("shot_id").get<std::string>();
      p.ids_before = ids;
      p.turn = game->turn();
      TypedDice dice(p.dice, p.coins);
      const rules::ActionResult r = game->Apply(p.action, dice);
      if (!r.ok) throw std::invalid_argument(r.refusal);
      ids = a.at("stand_ids").get<std::map<std::string, std::vector<std::string>>>();
      // The action's own events were logged just before it, one after the other.
      const auto own = static_cast<size_t>(std::max(0, a.at("events").get<int>()));
      for (size_t k = actions[at] - std::min(own, actions[at]); k <= actions[at]; ++k)
        p.logged_seqs.push_back(events[k].seq);
      history.push_back(std::move(p));
    }
  } catch (const rules::DiceExhausted&) {
    return Refuse("the log's turn action " + std::to_string(at + 1) +
                  " no longer plays: it needs more dice than were logged");
  } catch (const std::exception& e) {
    if (at < actions.size() && game) {
      return Refuse("the log's turn action " + std::to_string(at + 1) + " (seq " +
                    std::to_string(events[actions[at]].seq) + ") no longer plays: " + e.what());
    }
    return Refuse(std::string("the log's game set-up cannot be played again: ") + e.what());
  }
  // The game's own dice stream, moved on past what it drew before the log was cut (each value
  // is one draw of the generator but for its ~1e-18 rejection chance).
  if (const auto seed = setup->details.find("dice_seed");
      seed != setup->details.end() && seed->is_number_integer())
    seed_ = seed->get<std::uint64_t>();
  program_dice_ = rules::SeededDice(seed_);
  for (std::uint64_t k = 0; k < drawn; ++k) program_dice_.RollDie("drawn before the resume");
  initial_ = std::move(initial);
  initial_stand_ids_ = std::move(initial_ids);
  stand_ids_ = std::move(ids);
  history_ = std::move(history);
  game_ = std::move(game);
  table_changes_.clear();
  last_results_ = {"game resumed from the log: turn " + std::to_string(game_->turn()) + ", " +
                   PhaseName() + ", " + game_->attacker() + " attacks; " +
                   std::to_string(history_.size()) + " actions played again"};
  notice_.clear();
  return true;
}

void TurnFlow::SetDiceMode(DiceMode mode) {
  if (mode == dice_mode_) return;
  CancelWaiting();
  dice_mode_ = mode;
}

std::string TurnFlow::PhaseName() const { return game_ ? rules::PhaseName(game_->phase()) : ""; }
int TurnFlow::turn() const { return game_ ? game_->turn() : 0; }
std::string TurnFlow::attacker() const { return game_ ? game_->attacker() : ""; }
std::string TurnFlow::defender() const { return game_ ? game_->defender() : ""; }

bool TurnFlow::EndPhase() {
  if (!game_) return Refuse("start the game first");
  return Run(rules::EndPhase{}, Cause::kPhase);
}

// --- the one path every action takes ---

bool TurnFlow::Run(const rules::Action& action, Cause cause) {
  if (!game_) return Refuse("start the game first");
  if (waiting_) return Refuse("finish typing the dice for the waiting action (or cancel it)");
  waiting_ = action;
  waiting_cause_ = cause;
  typed_dice_.clear();
  typed_coins_.clear();
  return Retry();
}

bool TurnFlow::Retry() {
  const rules::Action action = *waiting_;
  const auto before = game_->units();
  const int turn_before = game_->turn();
  const rules::Phase phase_before = game_->phase();
  rules::ActionResult result;
  Played played{action,      waiting_cause_,    {}, {}, stand_ids_, {}, casualty_stand_,
                turn_before, declaring_shot_id_};
  // Every value the engine drew, in the order drawn, so the action can be replayed exactly.
  auto keep_draws = [&](const rules::DiceSource& d, size_t from) {
    for (size_t i = from; i < d.Events().size(); ++i) {
      const auto& e = d.Events()[i];
      (e.kind == rules::DiceEvent::Kind::kCoin ? played.coins : played.dice).push_back(e.value);
    }
  };
  if (dice_mode_ == DiceMode::kProgram) {
    const size_t from = program_dice_.Events().size();
    result = game_->Apply(action, program_dice_);
    keep_draws(program_dice_, from);
  } else {
    TypedDice dice(typed_dice_, typed_coins_);
    try {
      result = game_->Apply(action, dice);
      keep_draws(dice, 0);
    } catch (const rules::DiceExhausted& e) {
      needed_ = NeededRoll{dice.missing_coin(), e.purpose()};
      notice_ =
          std::string(dice.missing_coin() ? "flip a coin" : "roll a die") + " for " + e.purpose();
      return false;
    }
  }
  waiting_.reset();
  needed_.reset();
  typed_dice_.clear();
  typed_coins_.clear();
  if (!result.ok) return Refuse(result.refusal);
  notice_.clear();
  history_.push_back(std::move(played));
  recording_ = static_cast<int>(history_.size()) - 1;
  Record(action, waiting_cause_, result, before, turn_before, phase_before);
  recording_ = -1;
  return true;
}

void TurnFlow::Emit(EventPayload payload) { events_.push_back({std::move(payload), recording_}); }

void TurnFlow::NoteLogged(int action, int64_t seq) {
  if (action >= 0 && action < static_cast<int>(history_.size()) && seq > 0) {
    history_[static_cast<size_t>(action)].logged_seqs.push_back(seq);
  }
}

bool TurnFlow::Undo(size_t index) {
  if (!game_ || index >= history_.size()) return Refuse("no such action to undo");
  if (waiting_) return Refuse("finish or cancel the waiting action first");
  // The engine has no undo: play the game again from the start without that action, each
  // action with the very dice it drew. If a later action no longer plays the same way, the
  // undo is refused and nothing changes.
  auto replay = std::make_unique<rules::Game>(ruleset_.data(), initial_);
  for (size_t i = 0; i < history_.size(); ++i) {
    if (i == index) continue;
    TypedDice dice(history_[i].dice, history_[i].coins);
    try {
      if (!replay->Apply(history_[i].action, dice).ok) {
        return Refuse("cannot undo: later actions depend on it (undo them first)");
      }
    } catch (const rules::DiceExhausted&) {
      return Refuse("cannot undo: later actions depend on it (undo them first)");
    }
  }
  const Played undone = history_[index];
  for (auto it = undone.logged_seqs.rbegin(); it != undone.logged_seqs.rend(); ++it) {
    Emit(referee::Undo{*it,
                       "turn action undone by the players: " + rules::ActionName(undone.action)});
  }
  if (index + 1 == history_.size()) stand_ids_ = undone.ids_before;
  history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(index));
  game_ = std::move(replay);
  // Units that got a stand back hold a placeholder id until the table is read again
  // (RefreshStandIds); the list stays parallel to the unit's stands either way.
  for (const auto& u : game_->units()) {
    auto& ids = stand_ids_[u.id];
    ids.resize(std::min(ids.size(), u.stands.size()));
    for (size_t k = ids.size(); k < u.stands.size(); ++k) ids.push_back(u.id + ":" + u.stands[k]);
  }
  table_changes_.clear();
  melee_.reset();
  mdi_[0].reset();
  mdi_[1].reset();
  firer_.clear();
  target_.clear();
  last_results_ = {"undone: " + rules::ActionName(undone.action)};
  notice_.clear();
  return true;
}

bool TurnFlow::CorrectStandKind(const std::string& stand_id, const std::string& kind) {
  if (!game_) return Refuse("start the game first");
  if (waiting_) return Refuse("finish or cancel the waiting action first");
  const auto held = StandInGame(stand_id);
  if (!held.first) return Refuse(stand_id + " is in no unit of the game");
  const std::string unit_id = held.first->id;
  const std::string type = held.first->type;
  const std::string old_kind = held.second;
  if (old_kind == kind) return true;
  if (!ruleset_.data().Unit(type).stands.contains(kind)) {
    return Refuse(unit_id + " has no " + kind + " in its organisation (" + type + ")");
  }
  rules::GameSetup fixed = initial_;
  bool found = false;
  for (auto& u : fixed.units) {
    if (u.id != unit_id || !initial_stand_ids_.contains(u.id)) continue;
    const auto& ids = initial_stand_ids_.at(u.id);
    for (size_t i = 0; i < ids.size() && i < u.stands.size(); ++i) {
      if (ids[i] == stand_id) {
        u.stands[i] = kind;
        found = true;
      }
    }
  }
  if (!found) return Refuse(stand_id + " was not on the table when the game started");
  // Like Undo: the engine has no edit, so the game is played again with the corrected kind.
  auto replay = std::make_unique<rules::Game>(ruleset_.data(), fixed);
  std::string why = "cannot make ";
  why += stand_id;
  why += " a ";
  why += kind;
  why += ": the game's actions no longer play the same way";
  for (const auto& played : history_) {
    TypedDice dice(played.dice, played.coins);
    try {
      if (!replay->Apply(played.action, dice).ok) return Refuse(why);
    } catch (const rules::DiceExhausted&) {
      return Refuse(why);
    }
  }
  initial_ = std::move(fixed);
  game_ = std::move(replay);
  EmitSetup();  // a resumed game starts from the corrected set-up
  last_results_ = {stand_id + " is a " + kind + " (was " + old_kind + "), " + unit_id};
  notice_.clear();
  return true;
}

bool TurnFlow::UndoLast() {
  if (history_.empty()) return Refuse("nothing to undo in this game");
  return Undo(history_.size() - 1);
}

bool TurnFlow::UndoShotCasualties(const std::vector<std::string>& stand_ids) {
  bool any = false;
  for (size_t i = history_.size(); i-- > 0;) {
    const auto* a = std::get_if<rules::ArtilleryCasualty>(&history_[i].action);
    if (!a || history_[i].shot_stand.empty() ||
        std::ranges::find(stand_ids, history_[i].shot_stand) == stand_ids.end()) {
      continue;
    }
    if (!Undo(i)) return false;
    any = true;
  }
  return any;
}

bool TurnFlow::EnterDie(int face) {
  if (!waiting_ || !needed_) return Refuse("no roll is waited for");
  if (needed_->coin) return Refuse("a coin flip is due, not a die");
  if (face < 1 || face > 6) return Refuse("a die shows 1 to 6");
  typed_dice_.push_back(face);
  return Retry();
}

bool TurnFlow::EnterCoin(bool heads) {
  if (!waiting_ || !needed_) return Refuse("no flip is waited for");
  if (!needed_->coin) return Refuse("a die roll is due, not a coin");
  typed_coins_.push_back(heads ? 1 : 0);
  return Retry();
}

bool TurnFlow::CancelWaiting() {
  if (!waiting_) return false;
  waiting_.reset();
  needed_.reset();
  typed_dice_.clear();
  typed_coins_.clear();
  notice_.clear();
  return true;
}

// --- musketry ---

std::vector<std::string> TurnFlow::Shooters() const {
  std::vector<std::string> out;
  if (!game_) return out;
  for (const auto& u : game_->units()) {
    if (!TargetsOf(u.id).empty()) out.push_back(u.id);
  }
  return out;
}

std::vector<std::string> TurnFlow::TargetsOf(const std::string& firer) const {
  std::vector<std::string> out;
  if (!game_) return out;
  const rules::GameUnit* f = game_->FindUnit(firer);
  if (!f || f->status != rules::UnitStatus::kOnTable) return out;
  for (const auto& t : game_->units()) {
    if (t.side == f->side || t.status != rules::UnitStatus::kOnTable) continue;
    if (game_->phase() == rules::Phase::kMusketry) {
      if (!game_->WhyCannotFire(rules::FireMusketry{f->id, t.id})) out.push_back(t.id);
    } else if (game_->phase() == rules::Phase::kArtillery) {
      if (!ruleset_.data().Unit(f->type).battery.empty() && AreAdjacent(f->square, t.square) &&
          EngineAccepts(rules::FireCanister{f->id, t.square, t.id})) {
        out.push_back(t.id);
      }
    } else if (game_->phase() == rules::Phase::kHeldCanister && f->holding_canister &&
               AreAdjacent(f->square, t.square)) {
      out.push_back(t.id);
    }
  }
  return out;
}

bool TurnFlow::FireMusketry(const std::string& firer, const std::string& target) {
  if (!game_) return Refuse("start the game first");
  if (game_->phase() == rules::Phase::kHeldCanister || game_->phase() == rules::Phase::kArtillery) {
    const rules::GameUnit* t = game_->FindUnit(target);
    if (!t) return Refuse("no such target " + target);
    return Run(rules::FireCanister{firer, t->square, target}, Cause::kCanister);
  }
  return Run(rules::FireMusketry{firer, target}, Cause::kMusketry);
}

bool TurnFlow::SelectFirer(const std::string& unit) {
  const auto targets = TargetsOf(unit);
  if (targets.empty()) return Refuse(unit + " has nothing to fire at");
  firer_ = unit;
  target_ = targets.front();
  return true;
}

bool TurnFlow::SelectTarget(const std::string& unit) {
  const auto targets = TargetsOf(firer_);
  if (std::ranges::find(targets, unit) == targets.end()) {
    return Refuse(unit + " is not a target of " + (firer_.empty() ? "nobody" : firer_));
  }
  target_ = unit;
  return true;
}

namespace {
template <class T>
const T& After(const std::vector<T>& v, const T& current) {
  auto it = std::ranges::find(v, current);
  return (it == v.end() || std::next(it) == v.end()) ? v.front() : *std::next(it);
}
}  // namespace

void TurnFlow::NextFirer() {
  if (!game_) return;
  if (game_->phase() == rules::Phase::kMelees) {
    const auto melees = PendingMelees();
    if (!melees.empty()) SelectMelee(melee_ ? After(melees, *melee_) : melees.front());
    return;
  }
  const auto shooters = Shooters();
  if (shooters.empty()) {
    firer_.clear();
    target_.clear();
    Refuse("no unit can fire now");
    return;
  }
  SelectFirer(After(shooters, firer_));
}

void TurnFlow::NextTarget() {
  const auto targets = TargetsOf(firer_);
  if (!targets.empty()) target_ = After(targets, target_);
}

bool TurnFlow::Resolve() {
  if (!game_) return Refuse("start the game first");
  if (game_->phase() == rules::Phase::kMelees) return Fight();
  if (firer_.empty() || target_.empty()) return Refuse("choose a firing unit and a target (F, E)");
  const bool ok = FireMusketry(firer_, target_);
  if (ok) {
    // The next unit still able to fire, so the players can go round the table with F/D.
    const auto shooters = Shooters();
    firer_.clear();
    target_.clear();
    if (!shooters.empty()) SelectFirer(shooters.front());
  }
  return ok;
}

// --- guns besides Q-tip shots ---

bool TurnFlow::EngineAccepts(const rules::Action& action) const {
  if (!game_) return false;
  rules::Game probe = *game_;
  rules::PhysicalDice none;
  try {
    return probe.Apply(action, none).ok;
  } catch (const rules::DiceExhausted&) {
    return true;  // every check passed; only the dice are missing
  }
}

std::vector<std::string> TurnFlow::CanHoldCanister() const {
  std::vector<std::string> out;
  if (!game_ || game_->phase() != rules::Phase::kArtillery) return out;
  for (const auto& u : game_->units()) {
    if (u.side == game_->attacker() && u.status == rules::UnitStatus::kOnTable &&
        !ruleset_.data().Unit(u.type).battery.empty() && !u.holding_canister &&
        EngineAccepts(rules::HoldCanister{u.id})) {
      out.push_back(u.id);
    }
  }
  return out;
}

bool TurnFlow::HoldCanister(const std::string& battery) {
  return Run(rules::HoldCanister{battery}, Cause::kCanister);
}

std::vector<std::string> TurnFlow::CanLimber(bool limber) const {
  std::vector<std::string> out;
  if (!game_) return out;
  for (const auto& u : game_->units()) {
    if (u.side == game_->attacker() && u.status == rules::UnitStatus::kOnTable &&
        !game_->WhyCannotLimber(rules::Limber{u.id, limber})) {
      out.push_back(u.id);
    }
  }
  return out;
}

bool TurnFlow::Limber(const std::string& battery, bool limber) {
  return Run(rules::Limber{battery, limber}, Cause::kMove);
}

// --- moves ---

bool TurnFlow::MoveUnit(const std::string& unit, Square to, Facing facing) {
  if (!game_) return Refuse("start the game first");
  const rules::GameUnit* u = game_->FindUnit(unit);
  if (!u) return Refuse("no such unit " + unit);
  return Run(rules::MoveUnit{unit, StraightPath(u->square, to), facing, false, false},
             Cause::kMove);
}

bool TurnFlow::FormSquare(const std::string& unit, const std::vector<std::string>& with) {
  if (!game_) return Refuse("start the game first");
  const rules::GameUnit* u = game_->FindUnit(unit);
  if (!u) return Refuse("no such unit " + unit);
  return Run(rules::MoveUnit{unit, {}, u->facing, true, false, with}, Cause::kMove);
}

bool TurnFlow::BreakSquare(const std::string& unit) {
  if (!game_) return Refuse("start the game first");
  const rules::GameUnit* u = game_->FindUnit(unit);
  if (!u) return Refuse("no such unit " + unit);
  return Run(rules::MoveUnit{unit, {}, u->facing, false, true}, Cause::kMove);
}

std::vector<std::vector<std::string>> TurnFlow::SquareOptions() const {
  std::vector<std::vector<std::string>> out;
  if (!game_ || game_->phase() != rules::Phase::kAttackerMoves) return out;
  const rules::RulesetData& rules = ruleset_.data();
  // 8A: "long rectangular squares are not allowed": k x k blocks unless the ruleset says not.
  const bool blocks_only = !rules.square_formation || rules.square_formation->square_blocks_only;
  std::map<Square, std::string> may_form;  // grid square -> attacker's unit that may join
  for (const auto& o : game_->units()) {
    if (o.status == rules::UnitStatus::kOnTable && o.side == game_->attacker() &&
        !o.formed_square && rules.Unit(o.type).can_form_square && !may_form.contains(o.square)) {
      may_form[o.square] = o.id;
    }
  }
  auto legal = [&](const std::vector<std::string>& members) {
    const std::vector<std::string> with(members.begin() + 1, members.end());
    return !game_->WhyCannotMove(
        rules::MoveUnit{members[0], {}, game_->FindUnit(members[0])->facing, true, false, with});
  };
  const Grid& grid = game_->board().grid;
  // Members of the w x h block whose top-left is `corner`, row by row; empty unless every grid
  // square of it holds a unit that may join.
  auto block = [&](Square corner, int w, int h) {
    std::vector<std::string> members;
    for (int r = 0; r < h; ++r) {
      for (int c = 0; c < w; ++c) {
        const auto it = may_form.find({corner.col + c, corner.row + r});
        if (it == may_form.end()) return std::vector<std::string>{};
        members.push_back(it->second);
      }
    }
    return members;
  };
  for (const auto& [corner, unit] : may_form) {
    for (int h = 1; h <= grid.rows; ++h) {
      if (block(corner, 1, h).empty()) break;
      for (int w = 1; w <= grid.cols; ++w) {
        if (blocks_only && w != h) continue;
        const auto members = block(corner, w, h);
        if (members.empty()) break;
        if (legal(members)) out.push_back(members);
      }
    }
  }
  std::ranges::stable_sort(out, {}, &std::vector<std::string>::size);
  return out;
}

std::vector<std::string> TurnFlow::UnitsInSquare() const {
  std::vector<std::string> out;
  if (!game_) return out;
  for (const auto& u : game_->units()) {
    if (u.status == rules::UnitStatus::kOnTable && u.formed_square) out.push_back(u.id);
  }
  return out;
}

std::vector<std::pair<size_t, size_t>> TurnFlow::MatchUnits(const TableSetup& now,
                                                            const std::string& side) const {
  const auto& seen = now.setup.units;
  struct Pair {
    double squares;  // distance in squares, or minus the stand ids shared
    size_t game_index;
    size_t seen_index;
  };
  // The stand tracker's ids survive moves: a unit is where most of its stands are now. Only
  // units none of whose stands are seen fall back to the nearest unit of their type.
  std::vector<Pair> by_ids, by_place;
  const auto& units = game_->units();
  for (size_t g = 0; g < units.size(); ++g) {
    const auto& u = units[g];
    if ((!side.empty() && u.side != side) || u.status != rules::UnitStatus::kOnTable) continue;
    const auto held = stand_ids_.find(u.id);
    for (size_t k = 0; k < seen.size(); ++k) {
      if (seen[k].side != u.side || seen[k].type != u.type) continue;
      double shared = 0;
      if (held != stand_ids_.end()) {
        for (const auto& id : now.stand_ids.at(seen[k].id)) {
          shared += static_cast<double>(std::ranges::count(held->second, id));
        }
      }
      if (shared > 0) by_ids.push_back({-shared, g, k});
      by_place.push_back({RangeSquares(u.square, seen[k].square), g, k});
    }
  }
  std::ranges::stable_sort(by_ids, {}, &Pair::squares);
  std::ranges::stable_sort(by_place, {}, &Pair::squares);
  std::vector<bool> game_done(units.size(), false), seen_done(seen.size(), false);
  std::vector<std::pair<size_t, size_t>> out;
  for (const auto* pairs : {&by_ids, &by_place}) {
    for (const auto& p : *pairs) {
      if (game_done[p.game_index] || seen_done[p.seen_index]) continue;
      game_done[p.game_index] = seen_done[p.seen_index] = true;
      out.emplace_back(p.game_index, p.seen_index);
    }
  }
  return out;
}

std::vector<TurnFlow::SeenMove> TurnFlow::SeenMoves(const std::vector<Stand>& stands,
                                                    const StandKindCatalog& catalog) const {
  std::vector<SeenMove> out;
  if (!game_ || game_->phase() != rules::Phase::kAttackerMoves) return out;
  const TableSetup now = SetupFromTable(ruleset_.data(), game_->board(), stands, catalog, 0);
  for (const auto& [g, k] : MatchUnits(now, game_->attacker())) {
    const auto& u = game_->units()[g];
    const auto& s = now.setup.units[k];
    if (s.square == u.square) continue;
    out.push_back({rules::MoveUnit{u.id, StraightPath(u.square, s.square), s.facing, false, false},
                   now.stand_ids.at(s.id)});
  }
  return out;
}

void TurnFlow::RefreshStandIds(const std::vector<Stand>& stands, const StandKindCatalog& catalog) {
  if (!game_ || stands.empty()) return;
  const TableSetup now = SetupFromTable(ruleset_.data(), game_->board(), stands, catalog, 0);
  for (const auto& [g, k] : MatchUnits(now, "")) {
    const auto& u = game_->units()[g];
    const auto& s = now.setup.units[k];
    if (s.square != u.square || s.stands.size() != u.stands.size()) continue;
    // Same kinds in the same order as the game's list, so the ids stay parallel to it.
    std::vector<std::string> ids;
    std::vector<bool> used(s.stands.size(), false);
    for (const auto& kind : u.stands) {
      for (size_t i = 0; i < s.stands.size(); ++i) {
        if (!used[i] && s.stands[i] == kind) {
          used[i] = true;
          ids.push_back(now.stand_ids.at(s.id)[i]);
          break;
        }
      }
    }
    if (ids.size() == u.stands.size()) stand_ids_[u.id] = std::move(ids);
  }
}

std::vector<rules::MoveUnit> TurnFlow::MovesSeenOnTable(const std::vector<Stand>& stands,
                                                        const StandKindCatalog& catalog) const {
  std::vector<rules::MoveUnit> out;
  for (const auto& m : SeenMoves(stands, catalog)) out.push_back(m.move);
  return out;
}

int TurnFlow::ApplyTableMoves(const std::vector<Stand>& stands, const StandKindCatalog& catalog) {
  int applied = 0;
  auto moves = SeenMoves(stands, catalog);
  if (moves.empty()) return Refuse("no unit of the attacker has moved on the table"), 0;
  // The engine takes moves one at a time and refuses two units of a side in one square, so a
  // unit stepping into a square another one leaves goes after it: retry the refused moves
  // while any move gets through.
  std::map<std::string, std::string> refusals;
  for (bool progress = true; progress && !moves.empty();) {
    progress = false;
    std::vector<SeenMove> left;
    for (auto& m : moves) {
      moving_ids_ = {{m.move.unit, m.stand_ids}};
      const bool ok = Run(m.move, Cause::kMove);
      moving_ids_.clear();
      if (ok) {
        refusals.erase(m.move.unit);
        ++applied;
        progress = true;
      } else {
        refusals[m.move.unit] = notice_;
        left.push_back(std::move(m));
      }
    }
    moves = std::move(left);
    if (progress) continue;
    // Units that changed places (two swapping, or a ring of them): each move ends where another
    // still stands. The rules allow it (1E: friends may pass through each other; 1C: no two
    // units of a side in one square, which holds once all have moved): the engine checks such a
    // ring as one set of moves.
    std::map<Square, size_t> left_at;  // square a refused unit still stands in -> its move
    for (size_t i = 0; i < moves.size(); ++i) {
      if (const rules::GameUnit* u = game_->FindUnit(moves[i].move.unit)) left_at[u->square] = i;
    }
    std::set<size_t> tried;  // members of rings the engine refused
    for (size_t first = 0; first < moves.size() && !progress; ++first) {
      if (tried.contains(first)) continue;
      // Follow each move to the unit standing where it ends, until back at `first`.
      std::vector<size_t> ring = {first};
      bool closed = false;
      while (!closed && !moves[ring.back()].move.path.empty()) {
        const auto it = left_at.find(moves[ring.back()].move.path.back());
        if (it == left_at.end() || std::ranges::find(ring, it->second) != ring.end()) {
          closed = it != left_at.end() && it->second == first;
          break;  // a ring not through `first` is found from one of its own members
        }
        ring.push_back(it->second);
      }
      if (!closed || ring.size() < 2) continue;
      rules::MoveUnits together;
      for (const size_t i : ring) {
        together.moves.push_back(moves[i].move);
        moving_ids_[moves[i].move.unit] = moves[i].stand_ids;
      }
      const bool ok = Run(together, Cause::kMove);
      moving_ids_.clear();
      std::string members;
      for (const size_t i : ring) members += (members.empty() ? "" : ", ") + moves[i].move.unit;
      for (const size_t i : ring) {
        if (ok) {
          refusals.erase(moves[i].move.unit);
        } else {
          refusals[moves[i].move.unit] = "changing places (" + members + "): " + notice_;
        }
      }
      if (!ok) {
        tried.insert(ring.begin(), ring.end());
        continue;
      }
      applied += static_cast<int>(ring.size());
      progress = true;
      std::vector<SeenMove> rest;
      for (size_t i = 0; i < moves.size(); ++i) {
        if (std::ranges::find(ring, i) == ring.end()) rest.push_back(std::move(moves[i]));
      }
      moves = std::move(rest);
    }
  }
  std::string why;
  for (const auto& [unit, line] : refusals) {
    if (!why.empty()) why += "; ";
    why += unit;
    why += ": ";
    why += line;
  }
  notice_ = why;
  return applied;
}

// --- melee ---

std::vector<Square> TurnFlow::PendingMelees() const {
  return game_ ? game_->PendingMelees() : std::vector<Square>{};
}

bool TurnFlow::SelectMelee(Square contact) {
  if (!game_) return Refuse("start the game first");
  const auto pending = PendingMelees();
  if (std::ranges::find(pending, contact) == pending.end()) {
    return Refuse("no melee waiting at " + SquareName(contact));
  }
  if (melee_ != contact) {
    melee_ = contact;
    mdi_[0].reset();
    mdi_[1].reset();
  }
  notice_.clear();
  return true;
}

bool TurnFlow::ChooseMdi(MeleeRole role, rules::Mdi card) {
  if (!melee_) return Refuse("select a melee first");
  const int i = role == MeleeRole::kAttacker ? 0 : 1;
  if (mdi_[i]) return Refuse(MeleeRoleName(role) + " has already chosen");
  mdi_[i] = card;
  if (mdi_[0] && mdi_[1]) {
    // Both in: the cards are revealed together, and logged as each player's choice.
    const std::string sides[2] = {game_->attacker(), game_->defender()};
    for (int k = 0; k < 2; ++k) {
      Emit(FirerChoice{"",
                       sides[k],
                       "mdi",
                       {{"contact", SquareName(*melee_)},
                        {"role", k == 0 ? "attacker" : "defender"},
                        {"card", rules::MdiName(*mdi_[k])}}});
    }
  }
  notice_.clear();
  return true;
}

bool TurnFlow::MdiIn(MeleeRole role) const {
  return mdi_[role == MeleeRole::kAttacker ? 0 : 1].has_value();
}

std::optional<std::pair<rules::Mdi, rules::Mdi>> TurnFlow::RevealedMdi() const {
  if (!mdi_[0] || !mdi_[1]) return std::nullopt;
  return std::make_pair(*mdi_[0], *mdi_[1]);
}

bool TurnFlow::Fight() {
  if (!melee_) return Refuse("select a melee first");
  const auto cards = RevealedMdi();
  if (!cards) return Refuse("both players must choose their MDI card first");
  return Run(rules::FightMelee{*melee_, cards->first, cards->second}, Cause::kMelee);
}

std::vector<std::string> TurnFlow::SupportCandidates() const {
  std::vector<std::string> out;
  // The attacker may indicate supports as soon as its charge is in, the defender after the
  // attacker's move (the engine says which).
  if (!game_ || !melee_) return out;
  const auto declared = SupportsDeclared(*melee_);
  for (const auto& u : game_->units()) {
    if (u.status != rules::UnitStatus::kOnTable ||
        std::ranges::find(declared, u.id) != declared.end()) {
      continue;
    }
    if (!game_->WhyCannotSupport(rules::DeclareSupport{u.id, *melee_})) out.push_back(u.id);
  }
  return out;
}

bool TurnFlow::DeclareSupport(const std::string& unit) {
  if (!game_) return Refuse("start the game first");
  if (!melee_) return Refuse("select a melee first (F)");
  return Run(rules::DeclareSupport{unit, *melee_}, Cause::kMelee);
}

std::vector<std::string> TurnFlow::SupportsDeclared(Square contact) const {
  std::vector<std::string> out;
  if (!game_) return out;
  for (const auto& p : history_) {
    const auto* s = std::get_if<rules::DeclareSupport>(&p.action);
    if (s && s->contact == contact && p.turn == game_->turn()) out.push_back(s->unit);
  }
  return out;
}

// --- artillery from the shot flow ---

std::string TurnFlow::UnitOfStand(const std::string& stand_id) const {
  for (const auto& [unit, ids] : stand_ids_) {
    if (std::ranges::find(ids, stand_id) != ids.end()) return unit;
  }
  return "";
}

bool TurnFlow::OnShotCasualties(const std::string& gun_stand_id,
                                const std::vector<std::string>& removed_stand_ids) {
  if (!game_) return false;  // shots before the game starts are not the engine's business
  const std::string firer = UnitOfStand(gun_stand_id);
  if (firer.empty()) return Refuse("the firing gun " + gun_stand_id + " is in no unit");
  bool all = true;
  for (const auto& id : removed_stand_ids) {
    const std::string target = UnitOfStand(id);
    const rules::GameUnit* t = game_->FindUnit(target);
    if (!t) {
      all = Refuse(id + " is in no unit of the game");
      continue;
    }
    // Results keep the first ids of each kind and let the last go: put this one last of its
    // kind, so the id that leaves the game is the stand the players took off.
    auto& ids = stand_ids_[target];
    const size_t at = static_cast<size_t>(std::ranges::find(ids, id) - ids.begin());
    const std::string kind = t->stands[at];
    for (size_t j = ids.size(); j-- > at + 1;) {
      if (t->stands[j] == kind) {
        std::swap(ids[at], ids[j]);
        break;
      }
    }
    casualty_stand_ = id;
    const bool ok = Run(rules::ArtilleryCasualty{firer, target, kind}, Cause::kArtillery);
    casualty_stand_.clear();
    if (ok) {
      history_.back().shot_stand = id;
    } else {
      all = false;
    }
  }
  return all;
}

std::pair<const rules::GameUnit*, std::string> TurnFlow::StandInGame(
    const std::string& stand_id) const {
  const std::string unit = UnitOfStand(stand_id);
  const rules::GameUnit* u = game_ ? game_->FindUnit(unit) : nullptr;
  if (!u) return {nullptr, ""};
  const auto& ids = stand_ids_.at(unit);
  const size_t at = static_cast<size_t>(std::ranges::find(ids, stand_id) - ids.begin());
  return {u, at < u->stands.size() ? u->stands[at] : ""};
}

std::optional<std::string> TurnFlow::WhyCannotDeclareShot(const std::string& gun_stand_id,
                                                          Square target) const {
  if (!game_) return std::nullopt;  // shots before the start are not the engine's business
  const auto [unit, kind] = StandInGame(gun_stand_id);
  if (!unit) return "the gun " + gun_stand_id + " is in no unit of the game";
  return game_->WhyCannotFireArtillery(rules::FireArtillery{unit->id, target, kind});
}

bool TurnFlow::DeclareShot(const std::string& gun_stand_id, Square target,
                           const std::string& shot_id, const std::string& manned_by) {
  if (!game_) return Refuse("start the game first");
  const auto [unit, kind] = StandInGame(gun_stand_id);
  if (!unit) return Refuse("the gun " + gun_stand_id + " is in no unit of the game");
  declaring_shot_id_ = shot_id;
  const bool ok = Run(rules::FireArtillery{unit->id, target, kind, manned_by}, Cause::kArtillery);
  declaring_shot_id_.clear();
  return ok;
}

bool TurnFlow::FireRoll(const std::string& gun_stand_id, Square square) {
  if (!game_) return Refuse("start the game first");
  const auto held = StandInGame(gun_stand_id);
  if (!held.first) return Refuse("the gun " + gun_stand_id + " is in no unit of the game");
  return Run(rules::ShellOnInflammable{held.first->id, square}, Cause::kArtillery);
}

bool TurnFlow::UndoDeclaredShot() {
  for (size_t i = history_.size(); i-- > 0;) {
    const auto* f = std::get_if<rules::FireArtillery>(&history_[i].action);
    if (!f) continue;
    for (size_t j = i + 1; j < history_.size(); ++j) {
      const auto* hit = std::get_if<rules::ArtilleryCasualty>(&history_[j].action);
      if (hit && hit->firer_unit == f->firer_unit) {
        return Refuse("the shot of " + f->firer_unit + " has hit: undo its verdict instead");
      }
    }
    return Undo(i);
  }
  return Refuse("no declared shot to take back");
}

bool TurnFlow::TakeBackShot(const std::string& shot_id) {
  for (size_t i = history_.size(); i-- > 0;) {
    const auto* f = std::get_if<rules::FireArtillery>(&history_[i].action);
    if (!f || shot_id.empty() || history_[i].shot_id != shot_id) continue;
    for (size_t j = i + 1; j < history_.size(); ++j) {
      const auto* hit = std::get_if<rules::ArtilleryCasualty>(&history_[j].action);
      if (hit && hit->firer_unit == f->firer_unit) {
        return Refuse("the shot of " + f->firer_unit + " has hit: undo its verdict instead");
      }
    }
    return Undo(i);
  }
  return false;  // not declared (an inferred gun, or no game): nothing to take back
}

std::vector<TurnFlow::AimOption> TurnFlow::AimOptions(const std::string& gun_stand_id) const {
  std::vector<AimOption> out;
  // Not a structured binding: clang (clang-tidy) cannot capture one in a lambda.
  const auto held = StandInGame(gun_stand_id);
  const rules::GameUnit* gun = held.first;
  const std::string& kind = held.second;
  if (!gun) return out;
  for (const auto& t : game_->units()) {
    if (t.side == gun->side || t.status != rules::UnitStatus::kOnTable) continue;
    const auto why = game_->WhyCannotFireArtillery(rules::FireArtillery{gun->id, t.square, kind});
    out.push_back({t.id, t.square, why.value_or("")});
  }
  std::ranges::stable_sort(out, [&](const AimOption& a, const AimOption& b) {
    if (a.refusal.empty() != b.refusal.empty()) return a.refusal.empty();
    return RangeSquares(gun->square, a.square) < RangeSquares(gun->square, b.square);
  });
  return out;
}

// --- results ---

void TurnFlow::RecordDice(const rules::ActionResult& result, const std::string& side) {
  for (const auto& entry : result.entries) {
    for (size_t i = 0; i < entry.dice.size();) {
      const auto& d = entry.dice[i];
      if (d.kind == rules::DiceEvent::Kind::kCoin) {
        Emit(CoinFlip{d.purpose, side, d.value == 1});
        ++i;
        continue;
      }
      // Consecutive dice thrown for one purpose are one roll ("4 dice for musketry").
      DiceRoll roll{d.purpose, side, 6, {}, 0, 0};
      for (; i < entry.dice.size() && entry.dice[i].kind == rules::DiceEvent::Kind::kDie &&
             entry.dice[i].purpose == d.purpose;
           ++i) {
        roll.results.push_back(entry.dice[i].value);
        roll.total += entry.dice[i].value;
      }
      Emit(roll);
    }
  }
}

void TurnFlow::Record(const rules::Action& action, Cause cause, const rules::ActionResult& result,
                      const std::vector<rules::GameUnit>& before, int turn_before,
                      rules::Phase phase_before) {
  last_results_.clear();
  for (const auto& e : result.entries) last_results_.push_back(e.text);
  nlohmann::json lines = last_results_;
  // A move read on the table: its units' stands are the ones seen where they now stand.
  for (const auto& [unit, ids] : moving_ids_) stand_ids_[unit] = ids;

  std::string acting_side;
  if (const auto* f = std::get_if<rules::FireMusketry>(&action)) {
    if (const auto* u = game_->FindUnit(f->firer_unit)) acting_side = u->side;
  } else if (const auto* c = std::get_if<rules::FireCanister>(&action)) {
    if (const auto* u = game_->FindUnit(c->battery_unit)) acting_side = u->side;
  }
  RecordDice(result, acting_side);

  // What changed on the table: stands lost, units retreated or gone.
  std::vector<TableChange> changes;
  nlohmann::json changes_json = nlohmann::json::array();
  for (const auto& was : before) {
    const rules::GameUnit* now = game_->FindUnit(was.id);
    if (!now) continue;
    TableChange ch;
    ch.unit = was.id;
    ch.side = was.side;
    ch.cause = cause == Cause::kPhase ? "morale" : CauseName(static_cast<int>(cause));
    // Keep the table ids parallel to the unit's remaining kinds; the rest leave the table.
    std::vector<std::string> pool =
        stand_ids_.contains(was.id) ? stand_ids_[was.id] : std::vector<std::string>{};
    pool.resize(was.stands.size());
    for (size_t i = 0; i < pool.size(); ++i) {
      if (pool[i].empty()) pool[i] = was.id + ":" + was.stands[i];
    }
    std::vector<bool> used(pool.size(), false);
    std::vector<std::string> kept;
    const bool gone =
        now->status != rules::UnitStatus::kOnTable && was.status == rules::UnitStatus::kOnTable;
    for (const auto& kind : now->stands) {
      for (size_t i = 0; i < pool.size(); ++i) {
        if (!used[i] && was.stands[i] == kind) {
          used[i] = true;
          kept.push_back(pool[i]);
          break;
        }
      }
    }
    double points = 0;
    for (size_t i = 0; i < pool.size(); ++i) {
      if (!used[i] || gone) {
        ch.remove_stand_ids.push_back(pool[i]);
        if (!used[i]) points += ruleset_.data().Stand(was.stands[i]).points;
      }
    }
    if (stand_ids_.contains(was.id)) stand_ids_[was.id] = kept;
    ch.destroyed =
        now->status == rules::UnitStatus::kDestroyed && was.status != rules::UnitStatus::kDestroyed;
    if (now->status == rules::UnitStatus::kOnTable && now->square != was.square &&
        cause != Cause::kMove) {
      ch.move_to = now->square;
    }
    if (ch.remove_stand_ids.empty() && !ch.move_to && !ch.destroyed) continue;
    if (!ch.remove_stand_ids.empty() && cause != Cause::kArtillery) {
      // Artillery losses were logged by the shot flow already.
      const std::string enemy =
          was.side == game_->attacker() ? game_->defender() : game_->attacker();
      Emit(CasualtiesRemoved{was.side, was.id, ch.remove_stand_ids, points, enemy, ch.cause, 0});
    }
    changes_json.push_back({{"unit", ch.unit},
                            {"remove", ch.remove_stand_ids},
                            {"move_to", ch.move_to ? SquareName(*ch.move_to) : ""},
                            {"destroyed", ch.destroyed}});
    if (cause != Cause::kArtillery) changes.push_back(std::move(ch));
  }
  table_changes_.insert(table_changes_.end(), changes.begin(), changes.end());

  const nlohmann::json outcome = {{"entries", lines}, {"changes", changes_json}};
  if (const auto* f = std::get_if<rules::FireMusketry>(&action)) {
    Emit(Musketry{acting_side, f->firer_unit, f->target_unit, outcome});
  } else if (const auto* c = std::get_if<rules::FireCanister>(&action)) {
    nlohmann::json r = outcome;
    r["canister"] = true;
    Emit(Musketry{acting_side, c->battery_unit, c->target_unit, r});
  } else if (const auto* fa = std::get_if<rules::FireArtillery>(&action)) {
    const rules::GameUnit* u = game_->FindUnit(fa->firer_unit);
    Emit(FirerChoice{declaring_shot_id_,
                     u ? u->side : "",
                     "fire_artillery",
                     {{"unit", fa->firer_unit},
                      {"target", SquareName(fa->target)},
                      {"gun_kind", fa->gun_kind},
                      {"manned_by", fa->manned_by},
                      {"entries", lines}}});
  } else if (const auto* h = std::get_if<rules::HoldCanister>(&action)) {
    const rules::GameUnit* u = game_->FindUnit(h->battery_unit);
    Emit(FirerChoice{
        "", u ? u->side : "", "hold_canister", {{"unit", h->battery_unit}, {"entries", lines}}});
  } else if (const auto* l = std::get_if<rules::Limber>(&action)) {
    const rules::GameUnit* u = game_->FindUnit(l->battery_unit);
    Emit(FirerChoice{"",
                     u ? u->side : "",
                     l->limber ? "limber" : "unlimber",
                     {{"unit", l->battery_unit}, {"entries", lines}}});
  } else if (const auto* sup = std::get_if<rules::DeclareSupport>(&action)) {
    const rules::GameUnit* u = game_->FindUnit(sup->unit);
    Emit(FirerChoice{
        "",
        u ? u->side : "",
        "support",
        {{"unit", sup->unit}, {"contact", SquareName(sup->contact)}, {"entries", lines}}});
  } else if (const auto* mv = std::get_if<rules::MoveUnit>(&action);
             mv && (mv->form_square || mv->break_square)) {
    const rules::GameUnit* u = game_->FindUnit(mv->unit);
    std::vector<std::string> members = {mv->unit};
    members.insert(members.end(), mv->square_with.begin(), mv->square_with.end());
    Emit(FirerChoice{"",
                     u ? u->side : "",
                     mv->form_square ? "form_square" : "break_square",
                     {{"units", members}, {"entries", lines}}});
  } else if (const auto* m = std::get_if<rules::FightMelee>(&action)) {
    std::vector<std::string> units;
    for (const auto& u : before) {
      if (u.square == m->contact && u.status == rules::UnitStatus::kOnTable) units.push_back(u.id);
    }
    Emit(Melee{
        units,
        {{"contact", SquareName(m->contact)},
         {"attacker", {{"side", game_->attacker()}, {"mdi", rules::MdiName(m->attacker_mdi)}}},
         {"defender", {{"side", game_->defender()}, {"mdi", rules::MdiName(m->defender_mdi)}}}},
        outcome});
    melee_.reset();
    mdi_[0].reset();
    mdi_[1].reset();
  }
  if (game_->turn() != turn_before || game_->phase() != phase_before) {
    firer_.clear();
    target_.clear();
    Emit(TurnChange{game_->turn(), game_->attacker(), rules::PhaseName(game_->phase())});
    melee_.reset();
    mdi_[0].reset();
    mdi_[1].reset();
  }
  if (game_->Over()) {
    GameEnd end;
    end.winner = game_->Winner() == "draw" ? "" : game_->Winner();
    end.reason = game_->EndReason();
    for (const auto& s : {game_->attacker(), game_->defender()}) {
      end.points[s] = game_->PointsOf(s).Score();
    }
    Emit(end);
  }
  // Last, the action itself, to play the game again from the log (Resume).
  const Played& played = history_.at(static_cast<size_t>(recording_));
  const auto own = std::ranges::count(events_, recording_, &TurnEvent::action);
  Emit(FirerChoice{"",
                   acting_side,
                   "turn_action",
                   {{"action", rules::ActionToJson(action)},
                    {"cause", static_cast<int>(cause)},
                    {"dice", played.dice},
                    {"coins", played.coins},
                    {"shot_stand", played.shot_stand},
                    {"shot_id", played.shot_id},
                    {"stand_ids", stand_ids_},
                    {"events", own},
                    // Where the program's dice stream stands after it (undone or not), so a
                    // resumed game goes on with the rolls the uninterrupted game would make.
                    {"program_draws", program_dice_.Events().size()}}});
}

bool TurnFlow::ConfirmTableMatches() {
  if (table_changes_.empty()) return Refuse("nothing to change on the table");
  table_changes_.clear();
  notice_.clear();
  return true;
}

std::vector<EventPayload> TurnFlow::TakeEvents() {
  std::vector<EventPayload> out;
  for (auto& e : events_) out.push_back(std::move(e.payload));
  events_.clear();
  return out;
}

std::vector<TurnFlow::TurnEvent> TurnFlow::TakeTurnEvents() {
  std::vector<TurnEvent> out;
  out.swap(events_);
  return out;
}

}  // namespace referee::live
