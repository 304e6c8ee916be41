#include "engine/stand_fold.hpp"

#include <set>
#include <utility>

namespace referee {

namespace {

std::string StringField(const nlohmann::json& v, const char* key) {
  if (!v.is_object() || !v.contains(key) || !v[key].is_string()) return "";
  return v[key].get<std::string>();
}

}  // namespace

void StandFold::Apply(const GameEvent& event) {
  if (const auto* snap = event.As<Snapshot>()) {
    std::map<std::string, FoldedStand> next;
    for (const auto& s : snap->stands) {
      FoldedStand f{s, KindSource::kSize, std::nullopt};
      if (auto it = stands_.find(s.id); it != stands_.end()) {
        // A snapshot writes the kind the players gave: it stays theirs while it is that kind.
        if (it->second.kind_source == KindSource::kUser && it->second.stand.kind == s.kind)
          f.kind_source = KindSource::kUser;
        // And the facing they gave, while the base stands where it stood.
        if (it->second.told_facing && StillWhereTold(*it->second.told_facing, s.footprint))
          f.told_facing = it->second.told_facing;
      }
      next[s.id] = std::move(f);
    }
    stands_ = std::move(next);
  } else if (const auto* removed = event.As<CasualtiesRemoved>()) {
    for (const auto& id : removed->stand_ids) stands_.erase(id);
  } else if (const auto* c = event.As<Correction>()) {
    ApplyCorrection(*c);
  }
}

void StandFold::ApplyCorrection(const Correction& c) {
  const nlohmann::json& v = c.value;
  if (c.subject == "stand" && v.is_object()) {
    try {
      SnapshotStand s = StandFromJson(v);
      auto& f = stands_[s.id];
      if (f.stand.kind != s.kind) f.kind_source = KindSource::kSize;
      if (f.told_facing && !StillWhereTold(*f.told_facing, s.footprint)) f.told_facing.reset();
      f.stand = std::move(s);
    } catch (const std::exception&) {
      // A malformed correction value is kept in the log but changes nothing.
    }
  } else if (c.subject == "remove_stand") {
    stands_.erase(StringField(v, "id"));
  } else if (c.subject == "stand_kind") {
    const std::string kind = StringField(v, "kind");
    if (auto it = stands_.find(StringField(v, "stand")); it != stands_.end() && !kind.empty()) {
      it->second.stand.kind = kind;
      it->second.kind_source = KindSource::kUser;
    }
  } else if (c.subject == "stand_facing") {
    const std::optional<Facing> faces = ParseFacing(StringField(v, "faces"));
    auto it = stands_.find(StringField(v, "stand"));
    if (!faces || it == stands_.end()) return;
    try {
      // The base as the players turned it; without one the log says only which way it faces.
      if (v.contains("footprint"))
        it->second.stand.footprint = StandFromJson(v["footprint"]).footprint;
    } catch (const std::exception&) {
      return;  // a malformed value is kept in the log but changes nothing
    }
    it->second.stand.facing_known = true;
    it->second.told_facing = ToldFacing{*faces, it->second.stand.footprint};
  } else if (c.subject == "stand_identity") {
    // The physical bases keep their places and kinds; only their names change.
    const std::string from = StringField(v, "stand"), to = StringField(v, "is");
    if (from.empty() || to.empty() || from == to) return;
    auto a = stands_.extract(from);
    auto b = stands_.extract(to);
    if (!a.empty()) {
      a.key() = to;
      a.mapped().stand.id = to;
      stands_.insert(std::move(a));
    }
    if (!b.empty()) {
      b.key() = from;
      b.mapped().stand.id = from;
      stands_.insert(std::move(b));
    }
  }
}

std::map<std::string, SnapshotStand> StandFold::Positions() const {
  std::map<std::string, SnapshotStand> out;
  for (const auto& [id, f] : stands_) out.emplace(id, f.stand);
  return out;
}

std::vector<FoldedStand> FoldStands(std::span<const GameEvent> events) {
  const std::set<int64_t> undone = UndoneSeqs(events);
  StandFold fold;
  for (const auto& e : events) {
    if (undone.contains(e.seq) || e.As<Undo>()) continue;
    fold.Apply(e);
  }
  std::vector<FoldedStand> out;
  out.reserve(fold.stands().size());
  for (const auto& [id, f] : fold.stands()) out.push_back(f);
  return out;
}

}  // namespace referee
