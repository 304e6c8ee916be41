// Property tests: the exact geometry against brute force (dense sampling of boundaries and
// segments) on thousands of random shapes. Every failure prints the seed; rerun it with
// REFEREE_TEST_SEED=<seed>.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "engine/geometry.hpp"
#include "engine/grid.hpp"

namespace referee {
namespace {

uint64_t Seed() {
  if (const char* s = std::getenv("REFEREE_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return 20261121;
}

std::string SeedNote(uint64_t seed, int trial) {
  return "seed=" + std::to_string(seed) + " trial=" + std::to_string(trial) +
         " (rerun with REFEREE_TEST_SEED=" + std::to_string(seed) + ")";
}

// Minimum distance from p to a closed polyline loop, sampled with `per_edge` points per edge;
// also returns the largest sample spacing, which bounds the sampling error by half of it.
std::pair<double, double> SampledLoopDistance(Vec2 p, const std::vector<Vec2>& loop, int per_edge) {
  double best = std::numeric_limits<double>::infinity();
  double spacing = 0.0;
  for (size_t i = 0; i < loop.size(); ++i) {
    const Vec2 a = loop[i], b = loop[(i + 1) % loop.size()];
    spacing = std::max(spacing, Distance(a, b) / per_edge);
    for (int k = 0; k <= per_edge; ++k) {
      const double t = static_cast<double>(k) / per_edge;
      best = std::min(best, Distance(p, a + t * (b - a)));
    }
  }
  return {best, spacing};
}

// Independent inside test for a convex loop: same sign of every edge cross product.
bool InsideConvex(Vec2 p, const std::vector<Vec2>& loop) {
  bool pos = false, neg = false;
  for (size_t i = 0; i < loop.size(); ++i) {
    const double c = Cross(loop[(i + 1) % loop.size()] - loop[i], p - loop[i]);
    pos |= c > 0;
    neg |= c < 0;
  }
  return !(pos && neg);
}

// Independent inside test for any simple polygon: winding number.
int WindingNumber(Vec2 p, const std::vector<Vec2>& v) {
  int wn = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % v.size()];
    const double c = Cross(b - a, p - a);
    if (a.y <= p.y) {
      if (b.y > p.y && c > 0) ++wn;
    } else if (b.y <= p.y && c < 0) {
      --wn;
    }
  }
  return wn;
}

OrientedRect RandomRect(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> c(-10, 10), s(0.05, 5), a(-360, 360);
  return {{c(rng), c(rng)}, s(rng), s(rng), a(rng)};
}

TEST(GeometryProperty, DistanceToRectMatchesDenseBoundarySampling) {
  const uint64_t seed = Seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> off(-8, 8);
  constexpr int kPerEdge = 400;
  for (int trial = 0; trial < 3000; ++trial) {
    const OrientedRect r = RandomRect(rng);
    const Vec2 p = r.center + Vec2{off(rng), off(rng)};
    const auto corners = r.Corners();
    const std::vector<Vec2> loop(corners.begin(), corners.end());
    const auto [sampled, spacing] = SampledLoopDistance(p, loop, kPerEdge);
    const bool inside = InsideConvex(p, loop);
    const double exact = DistanceToRect(p, r);
    SCOPED_TRACE(SeedNote(seed, trial));
    if (inside) {
      ASSERT_EQ(exact, 0.0);
      ASSERT_TRUE(r.Contains(p));
    } else {
      // The exact distance is a lower bound of every sample and within half a spacing of them.
      ASSERT_LE(exact, sampled + 1e-12);
      ASSERT_GE(exact, sampled - 0.5 * spacing - 1e-12);
    }
  }
}

TEST(GeometryProperty, CircleTouchesRectAgreesWithSampledDistance) {
  const uint64_t seed = Seed() + 1;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> off(-6, 6), rad(0.01, 3);
  int touching = 0, apart = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const OrientedRect r = RandomRect(rng);
    const Vec2 p = r.center + Vec2{off(rng), off(rng)};
    const double radius = rad(rng);
    const auto corners = r.Corners();
    const std::vector<Vec2> loop(corners.begin(), corners.end());
    const auto [sampled, spacing] = SampledLoopDistance(p, loop, 400);
    const double d = InsideConvex(p, loop) ? 0.0 : sampled;
    if (std::abs(d - radius) <= spacing) continue;  // too close to call by sampling
    SCOPED_TRACE(SeedNote(seed, trial));
    ASSERT_EQ(CircleTouchesRect(p, radius, r), d <= radius);
    (d <= radius ? touching : apart)++;
  }
  // Both outcomes must actually have been exercised.
  EXPECT_GT(touching, 300);
  EXPECT_GT(apart, 300);
}

TEST(GeometryProperty, CircleTouchesRectIsClosedAtExactlyTheRadius) {
  const OrientedRect r{{10, 10}, 2.0, 1.0, 0.0};
  EXPECT_TRUE(CircleTouchesRect({12.0, 10.0}, 1.0, r));  // 1.0 from the right edge
  EXPECT_FALSE(CircleTouchesRect({12.0 + 1e-9, 10.0}, 1.0, r));
}

std::vector<Vec2> RandomStarPolygon(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> n(3, 12);
  std::uniform_real_distribution<double> ang(0, 2 * kPi), rad(0.3, 5), c(-5, 5);
  const Vec2 center{c(rng), c(rng)};
  std::vector<double> angles(n(rng));
  for (double& a : angles) a = ang(rng);
  std::sort(angles.begin(), angles.end());
  angles.erase(std::unique(angles.begin(), angles.end()), angles.end());
  std::vector<Vec2> v;
  v.reserve(angles.size());
  for (double a : angles) v.push_back(center + rad(rng) * Vec2{std::cos(a), std::sin(a)});
  if (rng() % 2) std::reverse(v.begin(), v.end());  // both windings
  return v;
}

TEST(GeometryProperty, DistanceToPolygonMatchesDenseBoundarySampling) {
  const uint64_t seed = Seed() + 2;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pt(-6, 6);
  int inside_count = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const auto v = RandomStarPolygon(rng);
    if (v.size() < 3) continue;
    const Polygon poly{v};
    Vec2 centroid;
    for (const Vec2 q : v) centroid = centroid + (1.0 / static_cast<double>(v.size())) * q;
    const Vec2 p = centroid + Vec2{pt(rng), pt(rng)};
    const auto [sampled, spacing] = SampledLoopDistance(p, v, 300);
    const bool inside = WindingNumber(p, v) != 0;
    SCOPED_TRACE(SeedNote(seed, trial));
    const double exact = DistanceToPolygon(p, poly);
    if (sampled <= 1e-9) continue;  // on the boundary: either answer is 0 within rounding
    ASSERT_EQ(PointInPolygon(p, poly), inside);
    if (inside) {
      ++inside_count;
      ASSERT_EQ(exact, 0.0);
    } else {
      ASSERT_LE(exact, sampled + 1e-12);
      ASSERT_GE(exact, sampled - 0.5 * spacing - 1e-12);
    }
  }
  EXPECT_GT(inside_count, 100);
}

// The closed unit cells (grid squares) holding p, on lines both sides.
std::set<Square> CellsHolding(Vec2 p) {
  std::set<Square> out;
  const int c = static_cast<int>(std::floor(p.x)), r = static_cast<int>(std::floor(p.y));
  for (int dc = -1; dc <= 1; ++dc) {
    for (int dr = -1; dr <= 1; ++dr) {
      const double x0 = c + dc, y0 = r + dr;
      if (p.x >= x0 && p.x <= x0 + 1 && p.y >= y0 && p.y <= y0 + 1) out.insert({c + dc, r + dr});
    }
  }
  return out;
}

// Does the segment a-b meet the closed cell, expanded by eps (Liang-Barsky clipping)?
bool SegmentMeetsCell(Vec2 a, Vec2 b, Square s, double eps) {
  double t0 = 0, t1 = 1;
  const Vec2 d = b - a;
  const double lo[2] = {s.col - eps, s.row - eps}, hi[2] = {s.col + 1 + eps, s.row + 1 + eps};
  const double p0[2] = {a.x, a.y}, dd[2] = {d.x, d.y};
  for (int k = 0; k < 2; ++k) {
    if (dd[k] == 0) {
      if (p0[k] < lo[k] || p0[k] > hi[k]) return false;
      continue;
    }
    double ta = (lo[k] - p0[k]) / dd[k], tb = (hi[k] - p0[k]) / dd[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

TEST(GeometryProperty, SquaresBetweenMatchesDenseSegmentSampling) {
  const uint64_t seed = Seed() + 3;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> cell(0, 14);
  constexpr int kSamples = 8000;
  for (int trial = 0; trial < 1000; ++trial) {
    const Square a{cell(rng), cell(rng)}, b{cell(rng), cell(rng)};
    const Vec2 pa{a.col + 0.5, a.row + 0.5}, pb{b.col + 0.5, b.row + 0.5};
    const auto got_v = SquaresBetween(a, b);
    const std::set<Square> got(got_v.begin(), got_v.end());
    SCOPED_TRACE(SeedNote(seed, trial) + " a=" + SquareName(a) + " b=" + SquareName(b));
    ASSERT_EQ(got.size(), got_v.size()) << "duplicates";
    ASSERT_FALSE(got.count(a));
    ASSERT_FALSE(got.count(b));
    // Every cell a sample of the segment lies in is reported...
    for (int k = 0; k <= kSamples; ++k) {
      const double t = static_cast<double>(k) / kSamples;
      for (const Square s : CellsHolding(pa + t * (pb - pa))) {
        if (s == a || s == b) continue;
        ASSERT_TRUE(got.count(s)) << "missed " << SquareName(s) << " at t=" << t;
      }
    }
    // ...and every reported cell is really met by the segment.
    for (const Square s : got) {
      ASSERT_TRUE(SegmentMeetsCell(pa, pb, s, 1e-9)) << "extra " << SquareName(s);
    }
  }
}

TEST(GeometryProperty, SquaresBetweenThroughExactCornersTakesBothSides) {
  // (0,0)->(3,3): centres of (1,1),(2,2); corners shared with (1,0),(0,1),(2,1),(1,2),(3,2),(2,3).
  const auto s = SquaresBetween({0, 0}, {3, 3});
  const std::set<Square> got(s.begin(), s.end());
  const std::set<Square> want = {{1, 1}, {2, 2}, {1, 0}, {0, 1}, {2, 1}, {1, 2}, {3, 2}, {2, 3}};
  EXPECT_EQ(got, want);
}

TEST(GeometryProperty, RectPenetrationDepthMatchesSampledOverlap) {
  const uint64_t seed = Seed() + 4;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> off(-4, 4);
  for (int trial = 0; trial < 1500; ++trial) {
    const OrientedRect a = RandomRect(rng);
    OrientedRect b = RandomRect(rng);
    b.center = a.center + Vec2{off(rng), off(rng)};
    // Sample a's interior on a grid; any sample strictly inside b proves an overlap.
    const auto cb = b.Corners();
    const std::vector<Vec2> lb(cb.begin(), cb.end());
    bool sample_inside = false;
    for (int i = 1; i < 60 && !sample_inside; ++i) {
      for (int j = 1; j < 60 && !sample_inside; ++j) {
        const Vec2 p = a.center + (i / 60.0 - 0.5) * a.width_in * a.AxisX() +
                       (j / 60.0 - 0.5) * a.depth_in * a.AxisY();
        sample_inside = InsideConvex(p, lb) && DistanceToRect(p, b) == 0.0;
      }
    }
    SCOPED_TRACE(SeedNote(seed, trial));
    const double depth = RectPenetrationDepth(a, b);
    ASSERT_EQ(depth, RectPenetrationDepth(b, a));
    // A shared interior point means they overlap; a separating gap means no shared sample.
    if (sample_inside) {
      ASSERT_GT(depth, 0.0);
    }
    if (depth < -1e-9) {
      ASSERT_FALSE(sample_inside);
    }
  }
}

}  // namespace
}  // namespace referee
