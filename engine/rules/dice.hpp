// Dice and coins. Every roll and flip is an event with its purpose, so the game log can store
// it and a replay can feed the same values back. Two sources: a seeded generator for
// automation and self-play, and "physical dice" where the players type what they rolled.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace referee::rules {

struct DiceEvent {
  enum class Kind { kDie, kCoin };
  Kind kind = Kind::kDie;
  int value = 0;        // die face 1..6; coin 1 = heads (the extra loss is taken), 0 = tails
  std::string purpose;  // e.g. "musketry: red line_infantry#2 at blue guards_cavalry#1"
};

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  int RollDie(const std::string& purpose);
  std::vector<int> RollDice(int n, const std::string& purpose);
  bool FlipCoin(const std::string& purpose);  // true = heads
  const std::vector<DiceEvent>& Events() const { return events_; }
  void ClearEvents() { events_.clear(); }

 protected:
  virtual int NextDie(const std::string& purpose) = 0;   // 1..6
  virtual int NextCoin(const std::string& purpose) = 0;  // 0 or 1

 private:
  std::vector<DiceEvent> events_;
};

// Deterministic for a given seed (std::mt19937_64; the distribution is done by hand so the
// sequence does not depend on the standard library's distribution implementation).
class SeededDice : public DiceSource {
 public:
  explicit SeededDice(std::uint64_t seed) : rng_(seed) {}
  // Uniform integer in [0, n) from the same stream (for self-play choices, not logged).
  int Choose(int n);

 protected:
  int NextDie(const std::string& purpose) override;
  int NextCoin(const std::string& purpose) override;

 private:
  std::mt19937_64 rng_;
};

// Values typed in by the players. Running out throws DiceExhausted naming the purpose, so a UI
// can ask for the next value and retry.
class DiceExhausted : public std::runtime_error {
 public:
  explicit DiceExhausted(const std::string& purpose)
      : std::runtime_error("need another physical roll for: " + purpose), purpose_(purpose) {}
  const std::string& purpose() const { return purpose_; }

 private:
  std::string purpose_;
};

class PhysicalDice : public DiceSource {
 public:
  PhysicalDice() = default;
  PhysicalDice(const std::vector<int>& dice, const std::vector<int>& coins);
  void AddDie(int face);    // throws std::invalid_argument outside 1..6
  void AddCoin(int heads);  // 1 heads, 0 tails
  size_t DiceLeft() const { return dice_.size(); }

 protected:
  int NextDie(const std::string& purpose) override;
  int NextCoin(const std::string& purpose) override;

 private:
  std::deque<int> dice_;
  std::deque<int> coins_;
};

}  // namespace referee::rules
