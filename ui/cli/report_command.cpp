// `referee report LOG --out report.html`: a self-contained HTML report of one game.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "ui/report/report_html.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct ReportCommandOptions {
  std::string log_path;
  std::string out_path;  // default: LOG with .html
  report::ReportOptions report;
  void Check() const {
    if (log_path.empty()) throw InputError("command line", "LOG", "missing game log file");
    if (report.max_frame_width_px < 64 || report.max_frame_width_px > 8192)
      throw InputError("command line", "--frame-width", "must be in [64, 8192] px");
  }
};

}  // namespace

int RunReport(const std::vector<std::string>& args) {
  ReportCommandOptions opt;
  po::options_description desc("usage: referee report LOG.jsonl --out report.html");
  desc.add_options()("help,h", "show this help")("log", po::value(&opt.log_path), "LOG.jsonl")(
      "out,o", po::value(&opt.out_path), "HTML file to write (default: LOG with .html)")(
      "frame-width", po::value(&opt.report.max_frame_width_px),
      "scale embedded frames down to this width in px (default 560)");
  po::positional_options_description pos;
  pos.add("log", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  opt.Check();
  if (opt.out_path.empty())
    opt.out_path = std::filesystem::path(opt.log_path).replace_extension(".html").string();
  const GameLog log = ReadGameLog(opt.log_path);
  for (const auto& p : log.problems)
    std::cerr << opt.log_path << ":" << p.line << ": " << p.what << " (skipped)\n";
  const std::string html = report::RenderReportHtml(log, opt.report);
  std::ofstream out(opt.out_path, std::ios::binary);
  if (!out) throw InputError(opt.out_path, "--out", "cannot write");
  out << html;
  out.close();
  if (!out) throw InputError(opt.out_path, "--out", "write failed");
  std::cout << "wrote " << opt.out_path << " (" << html.size() / 1024 << " KiB, "
            << log.events.size() << " events)\n";
  return 0;
}

}  // namespace referee::cli
