// `referee adjudicate-scene SCENE.json [--ruleset napoleonic|ancient] [--json]`: the engine's
// ruling on one shot in a scene file, as readable text or as JSON.
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/input_error.hpp"
#include "engine/scene.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "engine/verdict.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct AdjudicateSceneOptions {
  std::string scene_path;
  std::string ruleset;  // empty: the scene's "ruleset", else napoleonic
  bool json = false;
  std::string reading;  // empty: the ruleset's default (one stand, firer's choice)
  std::optional<double> touch_tolerance_mm;

  void Check() const {
    if (scene_path.empty()) throw InputError("command line", "SCENE", "missing scene file");
    if (!ruleset.empty() && ruleset != "napoleonic" && ruleset != "ancient") {
      throw InputError("command line", "--ruleset",
                       "unknown ruleset '" + ruleset + "' (napoleonic, ancient)");
    }
    if (!reading.empty() && !ParseCasualtyReading(reading)) {
      throw InputError("command line", "--reading", "expected one or every");
    }
    if (touch_tolerance_mm && !(*touch_tolerance_mm >= 0.0 && *touch_tolerance_mm < 100.0)) {
      throw InputError("command line", "--touch-tolerance-mm", "must be in [0, 100) mm");
    }
  }
};

}  // namespace

int RunAdjudicateScene(const std::vector<std::string>& args) {
  AdjudicateSceneOptions opt;
  double tolerance = -1.0;
  po::options_description desc(
      "usage: referee adjudicate-scene SCENE.json [--ruleset napoleonic|ancient] [--json]");
  desc.add_options()("help,h", "show this help")(
      "ruleset", po::value(&opt.ruleset),
      "napoleonic | ancient (default: the scene's \"ruleset\", else napoleonic)")(
      "json", po::bool_switch(&opt.json), "print the verdict as JSON")(
      "reading", po::value(&opt.reading),
      "one | every: one stand in the circle dies (firer's choice, default) or every one")(
      "touch-tolerance-mm", po::value(&tolerance),
      "how close the tip must be to a gun or wagon to destroy it (default 1 mm)")(
      "scene", po::value(&opt.scene_path), "SCENE.json");
  po::positional_options_description pos;
  pos.add("scene", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  if (vm.count("touch-tolerance-mm")) opt.touch_tolerance_mm = tolerance;
  opt.Check();

  const StandKindCatalog catalog = LoadStandKinds();
  const Scene scene = LoadScene(opt.scene_path, catalog);
  if (!scene.shot) throw InputError(opt.scene_path, "shot", "missing: nothing to adjudicate");
  std::string ruleset = !opt.ruleset.empty() ? opt.ruleset : scene.ruleset;
  if (ruleset.empty()) ruleset = "napoleonic";
  if (ruleset != "napoleonic" && ruleset != "ancient") {
    throw InputError(opt.scene_path, "ruleset",
                     "unknown ruleset '" + ruleset + "' (napoleonic, ancient)");
  }
  ShotOptions options = LoadShotOptions(ruleset);
  if (!opt.reading.empty()) options.reading = *ParseCasualtyReading(opt.reading);
  if (opt.touch_tolerance_mm) options.equipment_touch_tolerance_mm = *opt.touch_tolerance_mm;

  Verdict verdict;
  try {
    verdict = AdjudicateShot(scene.board, scene.stands, *scene.shot, catalog, options);
  } catch (const InputError& e) {
    // The engine does not know the file name; the user needs it.
    const std::string prefix = e.file() + ": " + (e.field().empty() ? "" : e.field() + ": ");
    throw InputError(opt.scene_path, e.field(), std::string(e.what()).substr(prefix.size()));
  }
  if (opt.json) {
    std::cout << VerdictToJson(verdict).dump(2) << "\n";
  } else {
    std::cout << VerdictToText(verdict);
  }
  return 0;
}

}  // namespace referee::cli
