#include "ui/live/live_session.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/front_edge_facing.hpp"
#include "engine/gun_shot_kind.hpp"
#include "engine/input_error.hpp"
#include "engine/stand_fold.hpp"
#include "vision/close_call_check.hpp"
#include "vision/impact_placement.hpp"
#include "vision/rest_height_check.hpp"
#include "vision/shot_analysis.hpp"
#include "vision/unfound_base_check.hpp"

namespace referee::live {

namespace {

CalibrationSummary Summarize(const CalibrationQuality& q) {
  return {q.rms_px, q.rms_mm, q.coverage, q.intersections_found, q.intersections_total};
}

bool IsGunLike(const StandKindCatalog& catalog, const Stand& s) {
  const StandKind* k = catalog.Find(s.kind);
  return k && (k->category == StandCategory::kGun || k->category == StandCategory::kCatapult);
}

// Without the ruleset's allowances any move on the board keeps an identity.
MoveAllowance AnyMove(const Grid& grid) {
  MoveAllowance a;
  a.unknown_kind_squares = 1.5 * (grid.cols + grid.rows);
  return a;
}

// The checks raised on a ruling in the log's words, as the panel lists them: unfound side colours,
// then the deciding height, then a stand too close to call.
std::vector<VerdictCheck> LoggedChecks(const ShotAnalysis& found) {
  std::vector<VerdictCheck> out;
  for (const UnfoundBaseCheck& c : found.unfound) {
    out.push_back({c.reason, c.side, c.point, c.area_mm2, c.length_mm});
  }
  if (const auto& c = found.height_check) out.push_back({c->reason, "", c->point_there, 0.0, 0.0});
  if (const auto& c = found.close_call) out.push_back({c->reason, "", c->point_there, 0.0, 0.0});
  return out;
}

}  // namespace

LiveSession::LiveSession(SessionConfig config)
    : config_(std::move(config)),
      tracker_(config_.board.board.grid, config_.catalog,
               config_.move_allowance.value_or(AnyMove(config_.board.board.grid)),
               config_.tracker) {
  std::vector<std::string> sides;
  for (const auto& [side, rgb] : config_.board.side_colors_srgb) sides.push_back(side);
  state_.SetSides(sides);
  state_.SetArmCheck([this] { return DeclareArmedShot(); });
  std::vector<std::string> kinds;
  for (ShotKind k : config_.shot.allowed_kinds) kinds.push_back(ShotKindName(k));
  state_.SetShotTypes(kinds);
  if (config_.log_path) {
    if (config_.resume) {
      auto resumed = ResumeGameLog(*config_.log_path);
      events_written_ = static_cast<int64_t>(resumed.log.events.size());
      writer_ = std::make_unique<GameLogWriter>(std::move(resumed.writer));
      for (const auto& e : resumed.log.events) {
        if (e.As<ShotArmed>()) ++shot_counter_;
      }
      // The stands the game left, under their ids and with the kinds the players gave them: the
      // first detection matches them by position like any earlier snapshot.
      for (const FoldedStand& r : FoldStands(resumed.log.events)) {
        const SnapshotStand& s = r.stand;
        tracker_.Restore({s.id, s.side, s.kind, s.footprint, s.facing_known, {}}, r.kind_source,
                         r.told_facing);
      }
      resumed_events_ = std::move(resumed.log.events);
    } else {
      if (std::filesystem::exists(*config_.log_path)) {
        throw InputError(config_.log_path->string(), "",
                         "already exists: use --resume to continue it, or choose a new --log");
      }
      writer_ = std::make_unique<GameLogWriter>(*config_.log_path);
    }
    log_frames_.emplace(*config_.log_path);
  }
}

bool LiveSession::ResumeGame() {
  if (!turn_ || resumed_events_.empty()) return false;
  const std::vector<GameEvent> events = std::move(resumed_events_);
  resumed_events_.clear();
  if (!turn_->Resume(config_.board.board, events)) return false;
  const GameState folded = FoldGameLog(events);
  if (folded.shots.empty()) return true;
  const ShotRecord& last = folded.shots.back();
  const bool unjudged = last.verdict_seq == 0;
  const bool never_removed =
      !unjudged && last.Hit() && std::ranges::none_of(folded.casualties, [&](const auto& c) {
        return c.removed.cause_seq == last.verdict_seq;
      });
  if (!unjudged && !never_removed) return true;
  // The laptop went down mid-shot: the shot is fired again, as if cancelled before it flew.
  if (never_removed) AppendEvent(Undo{last.verdict_seq, "resumed: the hit was never taken off"});
  turn_->TakeBackShot(last.shot_id);
  turn_->AddResultLine(
      last.shot_id + (unjudged ? " was armed but never judged" : " hit but nothing was taken off") +
      " when the log stopped: fire it again (arm the battery)");
  return true;
}

void LiveSession::OnFrame(const FrameResult& result) {
  if (!result.frame.empty()) last_frame_ = result.frame;
  if (result.calibration) {
    last_calibration_ = result.calibration;
    if (const auto* cal = std::get_if<TableCalibration>(&*result.calibration)) {
      pending_ = *cal;
      state_.OnCalibrationFound(Summarize(cal->quality));
    } else {
      pending_.reset();
      state_.OnCalibrationFailed(std::get<CalibrationRefusal>(*result.calibration).message);
    }
  }
  if (accepted_ && result.calibrated) {
    // The pipeline repeats its last detection on every frame; only a new one is tracked.
    if (result.stands_fresh && result.stand_search && result.stand_search_view) {
      OnStandSearch(result.stand_search, result.stand_search_view);
    } else if (result.stands_fresh || (detected_.empty() && !result.stands.empty())) {
      OnStandsSeen(result.stands);
    }
    RebuildShown();
    RefreshBatteries();
  }
  const ShotWatch& w = result.shot;
  const bool watching = state_.phase() == Phase::kArmed || state_.phase() == Phase::kWaitingForRest;
  // A hand over the table pauses everything, armed or not.
  state_.SetHandInFrame(result.hand_in_frame || (watching && w.armed && w.hand_in_frame));
  if (result.bump && accepted_) {
    last_bump_ = result.bump;
    if (result.bump->reliable) state_.SetCameraBumped(result.bump->bumped);
  }
  if (result.recalibrated && accepted_) recal_offer_ = result.recalibrated;
  if (!watching || !w.armed) return;
  shot_refusal_ = w.refusal;
  if (w.moving) state_.OnProjectileMoving();
  if (w.rest) {
    projectile_ = *w.rest;
    shot_after_ = result.frame;
    OnProjectileAtRest(w.rest->point);
  }
}

void LiveSession::OnStandSearch(std::shared_ptr<const StandDetection> search,
                                std::shared_ptr<const TopView> view) {
  if (!search) return;
  OnStandsSeen(search->stands);
  stand_search_ = std::move(search);
  stand_search_view_ = std::move(view);
}

void LiveSession::OnStandsSeen(const std::vector<DetectedStand>& seen) {
  stand_search_.reset();  // stands without their search: nothing to check them against
  stand_search_view_.reset();
  std::vector<Stand> observed;
  observed.reserve(seen.size());
  for (const auto& d : seen) observed.push_back(d.stand);
  last_tracking_ = tracker_.Update(observed);
  detected_ = seen;
  for (size_t i = 0; i < detected_.size(); ++i) detected_[i].stand = last_tracking_.stands[i];
  ResolveKinds();
  RebuildShown();
  RefreshBatteries();
}

void LiveSession::ResolveKinds() {
  if (!turn_ || detected_.empty()) return;
  const rules::RulesetData& rules = turn_->ruleset().data();
  if (!stacking_ || stacking_->ruleset != rules.name) {
    try {
      stacking_ = LoadSquareStacking(rules.name);
    } catch (const InputError&) {
      return;  // no stacking rules for this ruleset: kinds stay as the sizes say
    }
  }
  const bool started = turn_->started();
  std::vector<Stand> stands;
  std::vector<KindSource> sources, given;
  std::vector<size_t> at;  // index into detected_
  for (size_t i = 0; i < detected_.size(); ++i) {
    Stand s = detected_[i].stand;
    if (state_.removed_stands().contains(s.id)) continue;
    if (auto it = state_.moved_stands().find(s.id); it != state_.moved_stands().end()) {
      s.footprint = it->second;
    }
    const KindSource source = tracker_.KindSourceOf(s.id);
    given.push_back(source);
    // The game was set up with the kinds of the stands in it: only the players change them now.
    const bool in_game = started && !turn_->UnitOfStand(s.id).empty();
    sources.push_back(in_game ? KindSource::kUser : source);
    stands.push_back(std::move(s));
    at.push_back(i);
  }
  const KindResolution r =
      ResolveKindsByOrganisation(config_.board.board.grid, stands, sources, config_.catalog, rules,
                                 *stacking_, KindPreference(rules.name));
  for (size_t k = 0; k < stands.size(); ++k) {
    const KindSource source = sources[k] == KindSource::kUser ? given[k] : r.sources[k];
    if (r.stands[k].kind == stands[k].kind && source == given[k]) continue;
    tracker_.SetKind(stands[k].id, r.stands[k].kind, source);
    detected_[at[k]].stand.kind = r.stands[k].kind;
  }
}

std::vector<std::string> LiveSession::KindsFor(const std::string& id) const {
  const ShownStand* s = FindStand(id);
  if (!s) return {};
  // Its own base size, then each other size the camera could not rule out.
  std::vector<std::string> sizes{s->stand.kind};
  for (const OtherOutline& o : s->stand.other_outlines) sizes.push_back(o.kind);
  std::vector<std::string> out;
  for (const std::string& of : sizes) {
    std::vector<std::string> same;
    if (turn_) {
      same = KindsOfSameBase(of, config_.catalog, turn_->ruleset().data());
    } else {
      const StandKind* k = config_.catalog.Find(of);
      for (const auto& [name, other] : config_.catalog.kinds) {
        if (k && std::abs(other.width_mm - k->width_mm) < 0.5 &&
            std::abs(other.depth_mm - k->depth_mm) < 0.5) {
          same.push_back(name);
        }
      }
    }
    for (auto& k : same) {
      if (std::ranges::find(out, k) == out.end()) out.push_back(std::move(k));
    }
  }
  return out;
}

bool LiveSession::SetStandKind(const std::string& id, const std::string& kind) {
  const ShownStand* s = FindStand(id);
  if (!s) return false;
  const std::string from = s->stand.kind;
  const auto kinds = KindsFor(id);
  if (std::ranges::find(kinds, kind) == kinds.end()) {
    return state_.RefuseKind(id + " cannot be a " + kind + ": its base is the size of " + [&] {
      std::string list;
      for (const auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
      return list;
    }());
  }
  if (from == kind && s->kind_source == KindSource::kUser) return false;
  if (turn_ && turn_->started() && from != kind && !turn_->CorrectStandKind(id, kind)) {
    return state_.RefuseKind(turn_->notice());
  }
  tracker_.SetKind(id, kind, KindSource::kUser);
  bool outline_named = false;
  for (auto& d : detected_) {
    if (d.stand.id != id) continue;
    // A size the camera could not tell: the base takes the outline of the kind named.
    outline_named = tracker_.AdoptOutlineOf(d.stand, kind) || outline_named;
    d.stand.kind = kind;
  }
  state_.SetStandKind(id, from, kind);
  // The ruling on screen measured the size reported: ruled again at the size named.
  if (outline_named) state_.RuleAgain();
  ResolveKinds();  // the other bases of its square follow (those not in a started game)
  RebuildShown();
  RefreshBatteries();
  return true;
}

std::vector<std::string> LiveSession::FacingsFor(const std::string& id) const {
  std::vector<std::string> out;
  const ShownStand* s = FindStand(id);
  if (!s) return out;
  for (Facing f : FacingsItMayPresent(s->stand, config_.catalog.Find(s->stand.kind)))
    out.push_back(FacingName(f));
  return out;
}

std::string LiveSession::FacingLabel(const std::string& id) const {
  const ShownStand* s = FindStand(id);
  if (!s) return "";
  const std::string name = FacingName(FacingOf(s->stand.footprint));
  if (tracker_.ToldFacingOf(id)) return name + " (the players)";
  return s->stand.facing_known ? name + " (front stripe)" : name + "?";
}

bool LiveSession::SetStandFacing(const std::string& id, const std::string& facing) {
  const ShownStand* s = FindStand(id);
  if (!s) return false;
  const std::string from = s->stand.facing_known ? FacingName(FacingOf(s->stand.footprint)) : "?";
  const std::optional<Facing> f = ParseFacing(facing);
  if (!f || !tracker_.SetFacing(id, *f)) {
    std::string may;
    for (const auto& n : FacingsFor(id)) may += (may.empty() ? "" : ", ") + n;
    return state_.RefuseKind(id + " cannot face " + facing + ": its base may face " + may);
  }
  if (!state_.SetStandFacing(id, from, FacingName(*f))) return false;
  // The ruling on screen measured from the edge the camera's outline put first: again.
  state_.RuleAgain();
  RebuildShown();
  return true;
}

bool LiveSession::ReassignStandId(const std::string& current_id, const std::string& true_id) {
  const ShownStand* s = FindStand(current_id);
  if (!s || true_id.empty() || true_id == current_id) return false;
  // The tracker refuses an id held by the other side.
  if (!tracker_.Reassign(current_id, true_id)) return false;
  for (auto& d : detected_) {
    if (d.stand.id == current_id) {
      d.stand.id = true_id;
    } else if (d.stand.id == true_id) {
      d.stand.id = current_id;
    }
  }
  state_.RenameStand(current_id, true_id);
  RebuildShown();
  RefreshBatteries();
  return true;
}

std::vector<std::string> LiveSession::IdsOfSide(const std::string& side) const {
  std::vector<std::string> ids;
  for (const auto& t : tracker_.tracks()) {
    if (t.stand.side == side) ids.push_back(t.id);
  }
  return ids;
}

void LiveSession::OnProjectileAtRest(Vec2 impact_in) { state_.OnRest(impact_in); }

void LiveSession::SetAim(const std::string& unit) {
  aim_ = unit;
  state_.ClearArmRefusal();
}

std::optional<std::string> LiveSession::DeclareArmedShot() {
  shot_declared_ = false;
  verdict_refusal_.clear();
  const std::string& gun = state_.battery();
  if (!turn_ || !turn_->started() || gun.empty()) return std::nullopt;
  const auto options = turn_->AimOptions(gun);
  const auto chosen = std::ranges::find(options, aim_, &TurnFlow::AimOption::unit);
  const TurnFlow::AimOption* aim = chosen != options.end() ? &*chosen
                                   : options.empty()       ? nullptr
                                                           : &options.front();
  if (!aim) {
    // No enemy to aim at: the engine's reason about the gun itself, if it has one.
    const auto why = turn_->WhyCannotDeclareShot(gun, {-1, -1});
    return why && why->find("off the board") == std::string::npos
               ? *why
               : std::string("no enemy unit to aim ") + gun + " at";
  }
  if (!aim->refusal.empty()) return aim->unit + ": " + aim->refusal;
  // The id the shot_armed event about to be written gets (Append numbers shots in order).
  const std::string shot_id = "shot-" + std::to_string(shot_counter_ + 1);
  if (!turn_->DeclareShot(gun, aim->square, writer_ ? shot_id : "")) return turn_->notice();
  shot_declared_ = true;
  return std::nullopt;
}

std::optional<std::string> LiveSession::DeclareInferredShot(const Shot& shot) {
  if (!turn_ || !turn_->started() || shot_declared_ || !state_.battery().empty() || !shot.gun_id) {
    return std::nullopt;
  }
  const auto square = config_.board.board.grid.SquareOf(shot.point);
  if (!square) return std::nullopt;  // off the board: nothing to hit, nothing to declare
  if (auto why = turn_->WhyCannotDeclareShot(*shot.gun_id, *square)) return why;
  if (!turn_->DeclareShot(*shot.gun_id, *square, writer_ ? shot_id_ : "")) return turn_->notice();
  shot_declared_ = true;
  return std::nullopt;
}

bool LiveSession::AcceptRecalibration(VisionWorker& worker) {
  if (!recal_offer_ || !accepted_) return false;
  accepted_ = std::move(recal_offer_);
  recal_offer_.reset();
  last_bump_.reset();
  worker.SetCalibration(*accepted_);
  state_.SetCameraBumped(false);
  // The frame the new grid was found on, so a report shows what the camera saw after the bump.
  AppendEvent(Calibration{CalibrationToLog(*accepted_),
                          log_frames_ ? log_frames_->PutFrame(last_frame_) : std::string()});
  snapshot_due_ = true;
  return true;
}

int64_t LiveSession::AppendEvent(const EventPayload& payload) {
  if (!writer_) return 0;
  const int64_t seq = writer_->Append(payload);
  ++events_written_;
  return seq;
}

bool LiveSession::AcceptCalibration(VisionWorker& worker) {
  if (!pending_) return state_.AcceptCalibration();
  if (!state_.AcceptCalibration()) return false;
  accepted_ = pending_;
  worker.SetCalibration(*accepted_);
  return true;
}

const ShownStand* LiveSession::FindStand(const std::string& id) const {
  for (const auto& s : shown_) {
    if (s.stand.id == id) return &s;
  }
  return nullptr;
}

void LiveSession::RebuildShown() {
  std::vector<Stand> stands;
  for (const auto& d : detected_) {
    Stand s = d.stand;
    if (auto it = state_.moved_stands().find(s.id); it != state_.moved_stands().end()) {
      s.footprint = it->second;
    }
    // A base the players said faces a way (also moved by hand since): it faces that way.
    if (const auto told = tracker_.ToldFacingOf(s.id)) {
      if (auto turned = TurnedToFace(s, config_.catalog.Find(s.kind), *told))
        s = *std::move(turned);
    }
    stands.push_back(std::move(s));
  }
  // Moved stands vision lost track of still stand where the human put them.
  for (const auto& moved : state_.moved_stands()) {
    // Not a structured binding: clang (clang-tidy) cannot capture one in a lambda.
    const std::string& id = moved.first;
    const OrientedRect& rect = moved.second;
    if (std::ranges::none_of(stands, [&](const Stand& s) { return s.id == id; })) {
      for (const auto& old : shown_) {
        if (old.stand.id == id) {
          Stand s = old.stand;
          s.footprint = rect;
          stands.push_back(s);
        }
      }
    }
  }
  std::map<std::string, std::string> unit_of;
  const UnitGrouping grouping =
      GroupStandsIntoUnits(config_.board.board.grid, stands, config_.catalog);
  for (const auto& u : grouping.units) {
    const std::string label = u.side + " " + UnitTypeName(u.type) + " " + SquareName(u.square);
    for (const auto& id : u.stand_ids) unit_of[id] = label;
    if (u.commander_id) unit_of[*u.commander_id] = label;
  }
  std::vector<ShownStand> shown;
  for (auto& s : stands) {
    ShownStand v;
    v.unit = unit_of.contains(s.id) ? unit_of[s.id] : s.side;
    if (auto it = state_.unit_overrides().find(s.id); it != state_.unit_overrides().end()) {
      v.unit = it->second;
      v.corrected = true;
    }
    v.corrected = v.corrected || state_.moved_stands().contains(s.id);
    v.removed = state_.removed_stands().contains(s.id);
    // What the detector asked the players to check, until they move the stand.
    if (!state_.moved_stands().contains(s.id)) {
      for (const DetectedStand& d : detected_) {
        if (d.stand.id != s.id) continue;
        v.partly_hidden = v.partly_hidden || d.partly_hidden;
        v.faint_border = v.faint_border || d.faint_border;
      }
    }
    v.kind_source = tracker_.KindSourceOf(s.id);
    v.stand = std::move(s);
    shown.push_back(std::move(v));
  }
  shown_ = std::move(shown);
}

void LiveSession::FollowBatteryShotType() {
  const ShownStand* gun = state_.battery().empty() ? nullptr : FindStand(state_.battery());
  const StandKind* kind = gun ? config_.catalog.Find(gun->stand.kind) : nullptr;
  const std::pair<std::string, std::string> now = {state_.battery(), gun ? gun->stand.kind : ""};
  if (now == battery_kind_) return;  // only a new choice or a new kind; T still cycles freely
  battery_kind_ = now;
  if (!kind) return;
  if (const auto shot = ShotKindOfGun(*kind)) state_.SelectShotType(ShotKindName(*shot));
}

void LiveSession::RefreshBatteries() {
  std::vector<std::string> guns = {""};  // "" = infer from the nearest gun
  for (const auto& s : shown_) {
    if (!s.removed && IsGunLike(config_.catalog, s.stand)) guns.push_back(s.stand.id);
  }
  if (guns != state_.batteries()) {
    const std::string keep = state_.battery();
    state_.SetBatteries(guns);
    for (size_t i = 0; i < guns.size() && state_.battery() != keep; ++i) state_.NextBattery();
  }
  FollowBatteryShotType();
}

std::optional<Square> LiveSession::fire_square() const {
  if (!engine_verdict_ || !engine_verdict_->fire_roll) return std::nullopt;
  return engine_verdict_->fire_square;
}

bool LiveSession::FireRollOffered() const {
  const bool rolled = fire_rolled_at_ && engine_verdict_ &&
                      fire_rolled_at_->x == engine_verdict_->point.x &&
                      fire_rolled_at_->y == engine_verdict_->point.y;
  return turn_ && turn_->started() && fire_square() && firing_stand() && !rolled &&
         verdict_refusal_.empty();
}

bool LiveSession::RollForFire() {
  if (!FireRollOffered()) return false;
  if (!turn_->FireRoll(*firing_stand(), *fire_square())) return false;
  fire_rolled_at_ = engine_verdict_->point;
  return true;
}

std::optional<std::string> LiveSession::firing_stand() const {
  if (!state_.battery().empty()) return state_.battery();
  if (!state_.impact()) return std::nullopt;
  // The gun that fired is the one nearest the impact among those whose front faces it (a
  // perception guess, shown to the players, who can pick the battery instead).
  const Vec2 p = *state_.impact();
  std::optional<std::string> best;
  double best_score = std::numeric_limits<double>::infinity();
  for (const auto& s : shown_) {
    if (s.removed || !IsGunLike(config_.catalog, s.stand)) continue;
    const Vec2 to = p - s.stand.footprint.center;
    const double dist = Norm(to);
    const bool faces =
        dist > 0 && Dot(to, s.stand.footprint.FacingDir()) / dist > std::cos(DegToRad(45));
    const double score = dist + (faces ? 0.0 : 1000.0);
    if (score < best_score) {
      best_score = score;
      best = s.stand.id;
    }
  }
  return best;
}

VerdictView LiveSession::MakeView(const Verdict& v) const {
  VerdictView view;
  view.impact_in = v.point;
  view.circle_radius_in = v.hit_radius_in;
  for (const auto& s : v.stands_near) {
    const ShownStand* shown = FindStand(s.id);
    view.candidates.push_back(
        {s.id, shown ? shown->unit : s.side, s.distance_in, s.candidate || s.destroyed});
  }
  view.must_remove = v.destroyed_equipment;
  view.must_remove.insert(view.must_remove.end(), v.destroyed_crew.begin(), v.destroyed_crew.end());
  if (v.reading == CasualtyReading::kEveryStandInCircle) {
    view.must_remove.insert(view.must_remove.end(), v.candidates.begin(), v.candidates.end());
  } else {
    view.firer_chooses = v.casualties_required;
  }
  if (v.shot_void) {
    view.ruling = "shot void: the gun was screened by friends";
    view.must_remove.clear();
    view.firer_chooses = 0;
  } else if (v.over_water) {
    view.ruling = "in the water: no effect";
  } else if (v.candidates.empty() && view.must_remove.empty()) {
    view.ruling = "MISS: nothing within " + std::to_string(v.hit_radius_in).substr(0, 3) + "\"";
  } else {
    view.ruling = "HIT: " + std::to_string(v.candidates.size()) + " stand(s) under the circle";
    if (view.firer_chooses > 0) {
      view.ruling += ", firer removes " + std::to_string(view.firer_chooses);
    }
    if (!v.destroyed_equipment.empty()) view.ruling += ", equipment destroyed";
  }
  if (v.fire_roll) view.ruling += "; fire roll";
  // No front stripe seen and the front edge decides: the players say which way it faces
  // (and overrule the ruling when it is not the way the camera's outline put it).
  for (const auto& s : v.stands_near) {
    if (!s.facing_decides) continue;
    std::string facings;
    for (const auto& f : s.hit_if_facing) facings += (facings.empty() ? "" : " or ") + f;
    view.ruling += "; CONFIRM FACING: " + s.id + " is hit only if it faces " + facings;
  }
  // The camera could not tell a base's size and the size decides: the players say which.
  for (const auto& s : v.stands_near) {
    if (!s.size_decides) continue;
    std::string sizes;
    for (const auto& o : s.hit_if_outline) sizes += (sizes.empty() ? "" : " or ") + o;
    view.ruling += "; CONFIRM SIZE: " + s.id + " is hit only if it is " + sizes;
  }
  return view;
}

std::vector<UnfoundBaseCheck> LiveSession::CheckForUnfoundBases(const Verdict& v) const {
  if (!stand_search_ || !stand_search_view_) return {};
  // Only what the search saw in that picture explains its colour; a stand the players moved by
  // hand also explains the colour where they put it.
  StandDetection search = *stand_search_;  // the pictures are shared, not copied
  for (const auto& s : shown_) {
    if (!state_.moved_stands().contains(s.stand.id)) continue;
    DetectedStand moved;
    moved.stand = s.stand;
    search.stands.push_back(std::move(moved));
  }
  return FindUnfoundBases(*stand_search_view_, search, v.point, v.hit_radius_in,
                          &config_.board.board);
}

bool LiveSession::ImpactFromCamera() const {
  // One the players placed by hand is where they say it is.
  return projectile_ && stand_search_view_ && state_.impact() &&
         Distance(*state_.impact(), projectile_->point) <= 1e-9;
}

std::optional<RestHeightCheck> LiveSession::CheckShotHeight(const std::vector<Stand>& stands,
                                                            const Shot& shot) const {
  if (!ImpactFromCamera()) return std::nullopt;
  StandDetectorOptions stand_opt;
  ProjectileOptions proj_opt;
  ApplyBoardKit(config_.board, stand_opt, proj_opt);
  return CheckRulingHeight(*projectile_, *stand_search_view_, config_.board.board, stands, shot,
                           config_.catalog, config_.shot, RestHeightCheckOptionsFor(proj_opt));
}

std::optional<CloseCallCheck> LiveSession::CheckCloseCall(const std::vector<Stand>& stands,
                                                          const Shot& shot) const {
  if (!ImpactFromCamera()) return std::nullopt;
  return CheckRulingCloseCall(*projectile_, *stand_search_view_, config_.board.board, stands, shot,
                              config_.catalog, config_.shot,
                              stand_search_ ? stand_search_->blur_mm : 0.0,
                              CloseCallOptionsFor(config_.board));
}

void LiveSession::Step() {
  FollowBatteryShotType();
  if (state_.needs_ruling() && state_.impact() && !state_.paused()) {
    std::vector<Stand> stands;
    for (const auto& s : shown_) {
      if (!s.removed) stands.push_back(s.stand);
    }
    Shot shot;
    shot.kind = ParseShotKind(state_.shot_type()).value_or(ShotKind::kField);
    shot.point = *state_.impact();
    if (auto gun = firing_stand()) {
      if (const ShownStand* g = FindStand(*gun)) {
        shot.gun_id = *gun;
        shot.gun_center = g->stand.footprint.center;
        shot.firer_side = g->stand.side;
      }
    }
    shot_found_ = ShotAnalysis();
    try {
      engine_verdict_ =
          AdjudicateShot(config_.board.board, stands, shot, config_.catalog, config_.shot);
      verdict_firer_side_ = shot.firer_side;
      VerdictView view = MakeView(*engine_verdict_);
      if (ImpactFromCamera()) {
        shot_found_.projectile = projectile_;
        view.impact_note = ImpactPlacedNote(*projectile_);
      }
      // The ruling stands, but a base the camera missed may lie under the circle: once per
      // shot (not per frame), say where to look.
      shot_found_.unfound = CheckForUnfoundBases(*engine_verdict_);
      shot_found_.height_check = CheckShotHeight(stands, shot);
      shot_found_.close_call = CheckCloseCall(stands, shot);
      for (const auto& c : LoggedChecks(shot_found_)) {
        view.checks.push_back({c.side, c.reason, c.point_in});
      }
      verdict_refusal_.clear();
      if (auto why = DeclareInferredShot(shot)) {
        // The rules do not let that gun fire there: nothing is removed.
        verdict_refusal_ = *why;
        view.ruling = "SHOT NOT ALLOWED: " + *why;
        view.must_remove.clear();
        view.firer_chooses = 0;
        for (auto& c : view.candidates) c.hit = false;
      }
      state_.OnVerdict(view);
    } catch (const InputError& e) {
      state_.OnVerdict({shot.point,
                        config_.shot.hit_radius_in,
                        {},
                        {},
                        0,
                        std::string("no ruling: ") + e.what(),
                        {},
                        {}});
    }
  }
  if (state_.phase() != Phase::kVerdict && state_.phase() != Phase::kChooseCasualty &&
      state_.phase() != Phase::kConfirmRemoval && !state_.needs_ruling()) {
    engine_verdict_.reset();
  }
  RebuildShown();
  WriteEvents();
  if (writer_ && snapshot_due_ && !shown_.empty()) {
    Snapshot snap;
    for (const auto& s : shown_) {
      if (s.removed) continue;
      snap.stands.push_back(SnapshotStandFrom(s.stand, s.unit));
      snap.stands.back().partly_hidden = s.partly_hidden;
      snap.stands.back().faint_border = s.faint_border;
    }
    snap.frame = log_frames_->PutFrame(last_frame_);
    writer_->Append(snap);
    ++events_written_;
    snapshot_due_ = false;
  }
}

bool LiveSession::MoveStandTo(const std::string& id, Vec2 center_in) {
  const ShownStand* s = FindStand(id);
  if (!s) return false;
  OrientedRect to = s->stand.footprint;
  to.center = center_in;
  const bool ok = state_.MoveStand(id, s->stand.footprint, to);
  RebuildShown();
  return ok;
}

bool LiveSession::CycleUnit(const std::string& id) {
  const ShownStand* s = FindStand(id);
  if (!s) return false;
  std::vector<std::string> units;
  for (const auto& o : shown_) {
    if (o.stand.side == s->stand.side && std::ranges::find(units, o.unit) == units.end()) {
      units.push_back(o.unit);
    }
  }
  if (units.size() < 2) return false;
  auto it = std::ranges::find(units, s->unit);
  const std::string next =
      (it == units.end() || std::next(it) == units.end()) ? units.front() : *std::next(it);
  const bool ok = state_.ReassignUnit(id, s->unit, next);
  RebuildShown();
  return ok;
}

std::string LiveSession::ExpectedProjectile() const {
  const auto kind = ParseShotKind(state_.shot_type());
  if (!kind) return "any";
  return IsQtipShot(*kind) ? "qtip" : "shell";
}

std::string LiveSession::log_status() const {
  if (!writer_) return "no game log (--log FILE to keep one)";
  return config_.log_path->filename().string() + ": " + std::to_string(events_written_) +
         " events, " + (state_.log_dirty() ? "unsaved" : "saved");
}

void LiveSession::WriteEvents() {
  auto events = state_.TakeEvents();
  for (const auto& e : events) {
    // A shot cancelled before it flew was not fired: take its declaration back.
    if (e.type == "shot_cancelled" && shot_declared_ && turn_) {
      turn_->UndoDeclaredShot();
      shot_declared_ = false;
    }
  }
  if (!writer_) return;
  for (const auto& e : events) Append(e);
  state_.MarkLogSaved();
}

void LiveSession::Append(const LiveEvent& e) {
  auto sides_of = [&](const std::vector<std::string>& ids) {
    std::string side;
    for (const auto& id : ids) {
      if (const ShownStand* s = FindStand(id)) side = s->stand.side;
    }
    return side;
  };
  auto write = [&](const EventPayload& p) {
    const int64_t seq = writer_->Append(p);
    log_seq_of_[e.seq] = seq;
    ++events_written_;
    return seq;
  };
  const auto& d = e.data;
  if (e.type == "calibration_accepted" && accepted_) {
    write(Calibration{CalibrationToLog(*accepted_), log_frames_->PutFrame(last_frame_)});
    snapshot_due_ = true;  // once the stands have been seen through the new calibration
  } else if (e.type == "shot_armed") {
    shot_id_ = "shot-" + std::to_string(++shot_counter_);
    ShotArmed a;
    a.shot_id = shot_id_;
    a.stand_id = d.value("battery", "");
    if (const ShownStand* g = FindStand(a.stand_id)) {
      a.side = g->stand.side;
      a.unit = g->unit;
    }
    a.weapon = d.value("shot_type", "");
    shot_before_ = last_frame_;  // the table as it was when the shot was armed
    shot_after_.release();
    a.before_frame = log_frames_->PutFrame(shot_before_);
    write(a);
  } else if (e.type == "verdict") {
    ShotVerdict v;
    v.shot_id = shot_id_;
    v.impact_in = Vec2{d["impact"]["x_in"].get<double>(), d["impact"]["y_in"].get<double>()};
    v.hit_stand_ids = d["hits"].get<std::vector<std::string>>();
    v.verdict = engine_verdict_ ? VerdictToJson(*engine_verdict_) : d;
    if (shot_after_.empty()) shot_after_ = last_frame_;  // impact placed by hand, no rest seen
    v.after_frame = log_frames_->PutFrame(shot_after_);
    if (engine_verdict_ && accepted_) {
      std::vector<Stand> ruled_on;  // the stands the engine was given (Step)
      for (const auto& s : shown_) {
        if (!s.removed) ruled_on.push_back(s.stand);
      }
      v.evidence = log_frames_->PutEvidence(*accepted_, shot_before_, shot_after_, ruled_on,
                                            *engine_verdict_, shot_found_);
    }
    if (!verdict_refusal_.empty()) v.verdict["rules_refusal"] = verdict_refusal_;
    if (engine_verdict_) v.check = LoggedChecks(shot_found_);
    write(v);
  } else if (e.type == "arm_overruled") {
    write(Correction{"shot",
                     0,
                     {{"shot_id", shot_id_},
                      {"battery", d["battery"]},
                      {"shot_type", d["shot_type"]},
                      {"refusal", d["refusal"]}},
                     "shot armed against the rules' refusal: " + d["refusal"].get<std::string>()});
  } else if (e.type == "casualty_chosen") {
    FirerChoice c;
    c.shot_id = shot_id_;
    c.side = verdict_firer_side_;
    c.choice = "remove_stand";
    c.details = {{"stand", d["stand"]}};
    write(c);
  } else if (e.type == "stands_removed") {
    CasualtiesRemoved r;
    r.stand_ids = d["stands"].get<std::vector<std::string>>();
    r.side = sides_of(r.stand_ids);
    r.scored_by = verdict_firer_side_;
    r.cause = "shot";
    const int verdict_seq = d["verdict_seq"].get<int>();
    r.cause_seq = log_seq_of_.contains(verdict_seq) ? log_seq_of_[verdict_seq] : 0;
    removal_log_seq_of_[verdict_seq] = write(r);
    snapshot_due_ = true;
  } else if (e.type == "verdict_undone") {
    const int target = d["undoes"].get<int>();
    if (auto it = removal_log_seq_of_.find(target); it != removal_log_seq_of_.end()) {
      write(Undo{it->second, "casualties restored: verdict undone by the players"});
    }
    if (auto it = log_seq_of_.find(target); it != log_seq_of_.end()) {
      write(Undo{it->second, "verdict undone by the players"});
    }
  } else if (e.type == "stand_moved" || e.type == "unit_reassigned") {
    const std::string id = d["stand"].get<std::string>();
    const ShownStand* s = FindStand(id);
    if (!s) return;
    Stand moved = s->stand;
    std::string unit = s->unit;
    if (e.type == "stand_moved") {
      moved.footprint.center = {d["to"]["x_in"].get<double>(), d["to"]["y_in"].get<double>()};
      moved.footprint.angle_deg = d["to"]["angle_deg"].get<double>();
    } else {
      unit = d["to"].get<std::string>();
    }
    write(Correction{"stand", 0, StandToJson(SnapshotStandFrom(moved, unit)),
                     e.type == "stand_moved" ? "stand moved by hand" : "unit re-assigned by hand"});
  } else if (e.type == "stand_renamed") {
    const std::string to = d["to"].get<std::string>();
    nlohmann::json value = {{"stand", d["stand"]}, {"is", to}};
    if (const ShownStand* s = FindStand(to))
      value["footprint"] = StandToJson(SnapshotStandFrom(s->stand, s->unit));
    write(Correction{"stand_identity", 0, value, "stand identity re-assigned by hand"});
  } else if (e.type == "stand_kind_set") {
    write(Correction{"stand_kind",
                     0,
                     {{"stand", d["stand"]}, {"kind", d["to"]}, {"from", d["from"]}},
                     "stand kind set by hand"});
  } else if (e.type == "stand_facing_set") {
    nlohmann::json value = {{"stand", d["stand"]}, {"faces", d["to"]}, {"from", d["from"]}};
    if (const ShownStand* s = FindStand(d["stand"].get<std::string>()))
      value["footprint"] = StandToJson(SnapshotStandFrom(s->stand, s->unit));
    write(Correction{"stand_facing", 0, value,
                     d["stand"].get<std::string>() + " faces " + d["to"].get<std::string>() +
                         ": stand facing set by hand"});
  } else if (e.type == "impact_changed") {
    const int verdict_seq = d["verdict_seq"].get<int>();
    write(Correction{"shot",
                     log_seq_of_.contains(verdict_seq) ? log_seq_of_[verdict_seq] : 0,
                     {{"shot_id", shot_id_}, {"impact_in", {d["to"]["x_in"], d["to"]["y_in"]}}},
                     "impact point moved by hand"});
  }
  // side colours, bumps, rests and cancels are shown on screen; the log keeps game facts.
}

}  // namespace referee::live
