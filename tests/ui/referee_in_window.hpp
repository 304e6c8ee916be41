// Runs the real `referee` binary in a virtual X display (xvfb-run) for the window tests, and
// reads back what it wrote.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace referee::testing {

inline bool HaveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

inline std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `referee ARGS` with its stdout and stderr in `out`, under xvfb-run when `display`, and
// returns the referee's own exit status. xvfb-run removes its temporary folder before it stops
// the X server and exits 5 when that races with the server, after the referee has finished
// (seen under load in CI), so the status is written from inside the display by a script, and
// xvfb-run's own status counts only when the referee never ran.
inline int RunRefereeInWindow(const std::string& args, const std::filesystem::path& out,
                              bool display = true) {
  const std::string run = std::string(REFEREE_BINARY) + " " + args + " >" + out.string() + " 2>&1";
  if (!display) {
    const int rc = std::system(run.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  const std::filesystem::path script = out.string() + ".sh", status = out.string() + ".status";
  std::filesystem::remove(status);
  std::ofstream(script) << run << "\necho $? >" << status.string() << "\n";
  const std::string cmd = "xvfb-run -a -s \"-screen 0 1920x1080x24\" sh " + script.string() + " >" +
                          out.string() + ".xvfb 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(status);
  int referee_rc = -1;
  if (in >> referee_rc) return referee_rc;
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace referee::testing
