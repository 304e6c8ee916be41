// The generator's random source: one std::mt19937_64 per scene, seeded from (seed, index), with
// its own distributions so a seed gives the same scene on every standard library.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>

namespace referee {

class SynthRandom {
 public:
  SynthRandom(uint64_t seed, uint64_t stream) {
    std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                      static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32), 0x5eedu};
    engine_.seed(seq);
  }

  uint64_t Bits() { return engine_(); }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Unit(); }
  double Uniform(std::pair<double, double> r) { return Uniform(r.first, r.second); }
  // Uniform integer in [lo, hi].
  int Int(int lo, int hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int>(engine_() % span);
  }
  bool Chance(double p) { return Unit() < p; }
  double Normal(double mean = 0.0, double sigma = 1.0) {
    // Box-Muller, fixed so results do not depend on the library's normal_distribution.
    const double u1 = 1.0 - Unit();
    const double u2 = Unit();
    return mean + sigma * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  // A child stream for one independent part (e.g. one image's sensor noise).
  SynthRandom Fork() { return SynthRandom(engine_(), engine_()); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace referee
