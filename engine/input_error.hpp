// Errors in what a user gave us (a scene, a board, an army file): always one line naming the
// file, the field and what is wrong. Thrown at I/O boundaries; the CLI prints it and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace referee {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string field, const std::string& what)
      : std::runtime_error(file + ": " + (field.empty() ? "" : field + ": ") + what),
        file_(std::move(file)),
        field_(std::move(field)) {}
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_;
  std::string field_;
};

}  // namespace referee
