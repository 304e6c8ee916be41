// The `--camera-*` options of the benches over generated scenes: the scenes re-shot as another
// camera would have shot them (datasets/camera_response.hpp), bound in one place.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "datasets/camera_response.hpp"

namespace referee::cli {

// Holds what the command line said until Parse turns it into a CameraResponse.
struct CameraResponseArgs {
  std::string white_balance;  // "B,G,R"
  CameraResponse response;

  void AddTo(boost::program_options::options_description& desc);
  // The response the options set (inactive when none was given). Throws InputError naming the
  // option on a value out of range.
  CameraResponse Parse(const boost::program_options::variables_map& vm) const;
};

}  // namespace referee::cli
