#include "engine/resumed_stands.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>

namespace referee {

namespace {

std::string StringField(const nlohmann::json& v, const char* key) {
  if (!v.is_object() || !v.contains(key) || !v[key].is_string()) return "";
  return v[key].get<std::string>();
}

template <typename Map>
void SwapKeys(Map& m, const std::string& a, const std::string& b) {
  auto na = m.extract(a);
  auto nb = m.extract(b);
  if (!na.empty()) {
    na.key() = b;
    m.insert(std::move(na));
  }
  if (!nb.empty()) {
    nb.key() = a;
    m.insert(std::move(nb));
  }
}

}  // namespace

std::vector<ResumedStand> StandsToResume(std::span<const GameEvent> events) {
  const std::set<int64_t> undone = UndoneSeqs(events);
  std::map<std::string, ResumedStand> table;
  for (const auto& e : events) {
    if (undone.contains(e.seq) || e.As<Undo>()) continue;
    if (const auto* snap = e.As<Snapshot>()) {
      std::map<std::string, ResumedStand> next;
      for (const auto& s : snap->stands) {
        ResumedStand r{s, KindSource::kSize};
        // A snapshot writes the kind the players gave: it stays theirs while it is that kind.
        if (auto it = table.find(s.id); it != table.end() &&
                                        it->second.kind_source == KindSource::kUser &&
                                        it->second.stand.kind == s.kind) {
          r.kind_source = KindSource::kUser;
        }
        next[s.id] = std::move(r);
      }
      table = std::move(next);
    } else if (const auto* removed = e.As<CasualtiesRemoved>()) {
      for (const auto& id : removed->stand_ids) table.erase(id);
    } else if (const auto* c = e.As<Correction>()) {
      const nlohmann::json& v = c->value;
      if (c->subject == "stand" && v.is_object()) {
        try {
          SnapshotStand s = StandFromJson(v);
          auto& r = table[s.id];
          const bool same_kind = r.stand.kind == s.kind;
          r.stand = std::move(s);
          if (!same_kind) r.kind_source = KindSource::kSize;
        } catch (const std::exception&) {
          // A malformed value changes nothing, as in FoldGameLog.
        }
      } else if (c->subject == "remove_stand") {
        table.erase(StringField(v, "id"));
      } else if (c->subject == "stand_kind") {
        const std::string kind = StringField(v, "kind");
        if (auto it = table.find(StringField(v, "stand")); it != table.end() && !kind.empty()) {
          it->second.stand.kind = kind;
          it->second.kind_source = KindSource::kUser;
        }
      } else if (c->subject == "stand_identity") {
        const std::string from = StringField(v, "stand"), to = StringField(v, "is");
        if (from.empty() || to.empty() || from == to) continue;
        SwapKeys(table, from, to);
        if (auto it = table.find(to); it != table.end()) it->second.stand.id = to;
        if (auto it = table.find(from); it != table.end()) it->second.stand.id = from;
      }
    }
  }
  std::vector<ResumedStand> out;
  out.reserve(table.size());
  for (auto& [id, r] : table) out.push_back(std::move(r));
  return out;
}

}  // namespace referee
