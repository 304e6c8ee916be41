// The verdict event from an engine Verdict: hits are the casualty candidates and destroyed
// equipment; a void shot or one over water hits nothing; the full verdict is kept as JSON.
#include <gtest/gtest.h>

#include "engine/game_log_verdict.hpp"

namespace referee {
namespace {

TEST(GameLogVerdict, HitsAreCandidatesAndDestroyedEquipment) {
  Verdict v;
  v.point = {12.5, 7.25};
  v.firer_side = "blue";
  v.candidates = {"r1", "r2"};
  v.destroyed_equipment = {"rg1"};
  v.destroyed_crew = {"rc1"};
  const ShotVerdict e = ShotVerdictFrom("s1", v, "after.jpg", "ev.png");
  EXPECT_EQ(e.shot_id, "s1");
  ASSERT_TRUE(e.impact_in);
  EXPECT_DOUBLE_EQ(e.impact_in->y, 7.25);
  EXPECT_EQ(e.hit_stand_ids, (std::vector<std::string>{"r1", "r2", "rg1", "rc1"}));
  EXPECT_EQ(e.verdict["candidates"].size(), 2u);
  EXPECT_EQ(e.evidence, "ev.png");
}

TEST(GameLogVerdict, VoidOrWaterShotHitsNothing) {
  Verdict v;
  v.candidates = {"r1"};
  v.over_water = true;
  EXPECT_TRUE(ShotVerdictFrom("s", v, "").hit_stand_ids.empty());
  v.over_water = false;
  v.shot_void = true;
  EXPECT_TRUE(ShotVerdictFrom("s", v, "").hit_stand_ids.empty());
}

}  // namespace
}  // namespace referee
