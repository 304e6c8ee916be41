// Appending to a game log: one write(2) per event line, then fsync, then acknowledge.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <system_error>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"

namespace referee {
namespace {

// Writes all of `bytes`, retrying short writes and EINTR. Returns false on a real error.
bool WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool SyncFd(int fd) {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

// A new file's directory entry must reach the disk too, or a power cut can lose the file.
void SyncDir(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  SyncFd(fd);
  ::close(fd);
}

}  // namespace

std::string UtcNowIso8601() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms % 1000));
  return out;
}

GameLogWriter::GameLogWriter(const std::filesystem::path& path) : path_(path) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  bool ends_mid_line = false;
  if (existed) {
    const GameLog log = ReadGameLog(path);  // refuses a newer format before we touch it
    next_seq_ = log.last_seq + 1;
    ends_mid_line = log.ends_mid_line;
  } else if (!path.parent_path().empty()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) throw InputError(path.string(), "", "cannot create its folder: " + ec.message());
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw InputError(path.string(), "",
                     std::string("cannot open for append: ") + std::strerror(errno));
  if (!existed) SyncDir(path.parent_path());
  if (ends_mid_line) {
    // The last write was torn by a crash: end that line so ours starts fresh. The torn bytes
    // stay as evidence; readers report them as a bad line.
    if (!WriteAll(fd_, "\n") || !SyncFd(fd_)) mid_line_ = true;
  }
}

GameLogWriter::~GameLogWriter() {
  if (fd_ >= 0) ::close(fd_);
}

GameLogWriter::GameLogWriter(GameLogWriter&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(other.fd_),
      next_seq_(other.next_seq_),
      mid_line_(other.mid_line_) {
  other.fd_ = -1;
}

GameLogWriter& GameLogWriter::operator=(GameLogWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = other.fd_;
    next_seq_ = other.next_seq_;
    mid_line_ = other.mid_line_;
    other.fd_ = -1;
  }
  return *this;
}

int64_t GameLogWriter::Append(const EventPayload& payload) {
  if (fd_ < 0) throw std::runtime_error(path_.string() + ": game log writer is closed");
  GameEvent event;
  event.seq = next_seq_;
  event.time_utc = UtcNowIso8601();
  event.payload = payload;
  std::string line =
      (mid_line_ ? "\n" : "") +
      EventToJson(event).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (!WriteAll(fd_, line) || !SyncFd(fd_)) {
    const std::string why = std::strerror(errno);
    mid_line_ = true;
    ++next_seq_;  // the line may have reached the file: never reuse its seq
    throw std::runtime_error(path_.string() + ": cannot append event " + std::to_string(event.seq) +
                             ": " + why);
  }
  mid_line_ = false;
  return next_seq_++;
}

ResumedGameLog ResumeGameLog(const std::filesystem::path& path) {
  GameLog log = ReadGameLog(path);
  GameLogWriter writer(path);
  return {std::move(log), std::move(writer)};
}

}  // namespace referee
