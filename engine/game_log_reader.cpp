// Reading a game log: keep every complete event, report every bad line with its number, and
// refuse (never half-read) a format this build does not know.
#include <fstream>
#include <sstream>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"

namespace referee {
namespace {

// Throws InputError for a line whose format this build does not read; a line that is merely
// bad (not JSON, missing fields) is left to the event parser.
void CheckFormatVersion(const std::filesystem::path& path, int64_t line, const nlohmann::json& j) {
  const std::string where = "line " + std::to_string(line);
  const auto it = j.find("format_version");
  if (it == j.end()) {
    // A JSON object with seq and type but no version is a log from before format_version 1.
    if (j.contains("seq") && j.contains("type"))
      throw InputError(path.string(), where + ": format_version",
                       "missing: written by a referee older than format_version " +
                           std::to_string(kOldestReadableGameLogVersion) +
                           ", which this build cannot read");
    return;
  }
  if (!it->is_number_integer()) return;  // a bad line, reported by the parser
  const int version = it->get<int>();
  if (version > kGameLogFormatVersion)
    throw InputError(path.string(), where + ": format_version",
                     std::to_string(version) +
                         " was written by a newer referee; this build reads " +
                         std::to_string(kOldestReadableGameLogVersion) + ".." +
                         std::to_string(kGameLogFormatVersion) + " (update the referee)");
  if (version < kOldestReadableGameLogVersion)
    throw InputError(path.string(), where + ": format_version",
                     std::to_string(version) + " is older than this build reads (" +
                         std::to_string(kOldestReadableGameLogVersion) + ".." +
                         std::to_string(kGameLogFormatVersion) + ")");
}

}  // namespace

GameLogReader::GameLogReader(const std::filesystem::path& path) : path_(path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "cannot open the game log");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path.string(), "", "cannot read the game log");
  data_ = buffer.str();
  ends_mid_line_ = !data_.empty() && data_.back() != '\n';
}

GameLogReader::~GameLogReader() = default;

std::optional<GameEvent> GameLogReader::Next() {
  while (pos_ < data_.size()) {
    const size_t end = data_.find('\n', pos_);
    const bool complete = end != std::string::npos;
    const std::string text = data_.substr(pos_, (complete ? end : data_.size()) - pos_);
    pos_ = complete ? end + 1 : data_.size();
    ++line_;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank line
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      problems_.push_back({line_, complete ? "not valid JSON (corrupted line)"
                                           : "truncated last line (the write was interrupted)"});
      continue;
    }
    if (j.is_object()) CheckFormatVersion(path_, line_, j);
    GameEvent event;
    try {
      event = EventFromJson(j);
    } catch (const std::exception& e) {
      problems_.push_back({line_, std::string("bad event: ") + e.what()});
      continue;
    }
    if (event.seq <= last_seq_) {
      problems_.push_back({line_, "seq " + std::to_string(event.seq) +
                                      " is not above the previous seq " +
                                      std::to_string(last_seq_) + " (duplicate or out of order)"});
      continue;
    }
    last_seq_ = event.seq;
    return event;
  }
  return std::nullopt;
}

GameLog ReadGameLog(const std::filesystem::path& path) {
  GameLogReader reader(path);
  GameLog log;
  log.path = path;
  while (auto event = reader.Next()) log.events.push_back(std::move(*event));
  log.problems = reader.problems();
  log.ends_mid_line = reader.ends_mid_line();
  log.last_seq = reader.last_seq();
  return log;
}

std::filesystem::path FramesDirFor(const std::filesystem::path& log_path) {
  const auto parent = log_path.parent_path();
  return (parent.empty() ? std::filesystem::path(".") : parent) / "frames";
}

}  // namespace referee
