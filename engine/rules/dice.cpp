#include "engine/rules/dice.hpp"

#include <algorithm>
#include <stdexcept>

namespace referee::rules {

int DiceSource::RollDie(const std::string& purpose) {
  const int v = NextDie(purpose);
  events_.push_back({DiceEvent::Kind::kDie, v, purpose});
  return v;
}

std::vector<int> DiceSource::RollDice(int n, const std::string& purpose) {
  std::vector<int> out;
  out.reserve(static_cast<size_t>(std::max(0, n)));
  for (int i = 0; i < n; ++i) out.push_back(RollDie(purpose));
  return out;
}

bool DiceSource::FlipCoin(const std::string& purpose) {
  const int v = NextCoin(purpose);
  events_.push_back({DiceEvent::Kind::kCoin, v, purpose});
  return v == 1;
}

int SeededDice::Choose(int n) {
  if (n <= 0) throw std::invalid_argument("Choose(n) needs n > 0");
  // Rejection sampling keeps it unbiased and library-independent.
  const std::uint64_t limit = rng_.max() - (rng_.max() % static_cast<std::uint64_t>(n));
  std::uint64_t v;
  do v = rng_();
  while (v >= limit);
  return static_cast<int>(v % static_cast<std::uint64_t>(n));
}

int SeededDice::NextDie(const std::string&) { return Choose(6) + 1; }
int SeededDice::NextCoin(const std::string&) { return Choose(2); }

PhysicalDice::PhysicalDice(const std::vector<int>& dice, const std::vector<int>& coins) {
  for (int d : dice) AddDie(d);
  for (int c : coins) AddCoin(c);
}

void PhysicalDice::AddDie(int face) {
  if (face < 1 || face > 6)
    throw std::invalid_argument("a die shows 1..6, got " + std::to_string(face));
  dice_.push_back(face);
}

void PhysicalDice::AddCoin(int heads) {
  if (heads != 0 && heads != 1) throw std::invalid_argument("a coin is 1 (heads) or 0 (tails)");
  coins_.push_back(heads);
}

int PhysicalDice::NextDie(const std::string& purpose) {
  if (dice_.empty()) throw DiceExhausted(purpose);
  const int v = dice_.front();
  dice_.pop_front();
  return v;
}

int PhysicalDice::NextCoin(const std::string& purpose) {
  if (coins_.empty()) throw DiceExhausted(purpose);
  const int v = coins_.front();
  coins_.pop_front();
  return v;
}

}  // namespace referee::rules
