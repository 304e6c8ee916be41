// Fields of a logged verdict read as far as they are intact: a value of the wrong type, or a row
// that is no object, reads as its fallback; an intact one reads as written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/logged_json.hpp"

namespace referee {
namespace {

TEST(LoggedJson, IntactFieldsReadAsWrittenDamagedOnesAsTheFallback) {
  const auto row = nlohmann::json::parse(
      R"({"id": "red-3", "distance_in": 2, "margin_in": -0.25, "destroyed": true,
          "side": 7, "candidate": [1], "distance_mm": "eight"})");
  EXPECT_EQ(LoggedString(row, "id", "?"), "red-3");
  EXPECT_DOUBLE_EQ(LoggedNumber(row, "distance_in", -1), 2.0) << "an integer is a number";
  EXPECT_DOUBLE_EQ(LoggedNumber(row, "margin_in", 0), -0.25);
  EXPECT_TRUE(LoggedBool(row, "destroyed", false));

  EXPECT_EQ(LoggedString(row, "side", "?"), "?");
  EXPECT_FALSE(LoggedBool(row, "candidate", false));
  EXPECT_DOUBLE_EQ(LoggedNumber(row, "distance_mm", 1.5), 1.5);
  EXPECT_DOUBLE_EQ(LoggedNumber(row, "absent", 1.5), 1.5);
  EXPECT_TRUE(LoggedBool(row, "id", true)) << "a string is no bool";

  for (const auto& not_an_object :
       {nlohmann::json(5), nlohmann::json::array({1, 2}), nlohmann::json(), nlohmann::json("x")}) {
    EXPECT_DOUBLE_EQ(LoggedNumber(not_an_object, "distance_in", 3.0), 3.0);
    EXPECT_EQ(LoggedString(not_an_object, "id", "none"), "none");
    EXPECT_FALSE(LoggedBool(not_an_object, "destroyed", false));
  }
}

TEST(LoggedJson, StandsNearRowsReadInOrderWithDamagedFieldsAtTheirFallbacks) {
  const auto verdict = nlohmann::json::parse(
      R"({"hit_radius_in": "one", "stands_near": [
            {"id": "blue-6", "side": "blue", "distance_mm": 15.4, "distance_in": 0.61,
             "margin_in": 0.39, "inside_circle": true, "candidate": true},
            {"id": "red-8", "distance_in": "far", "destroyed": [1]},
            5]})");
  const std::vector<LoggedStandNear> rows = LoggedStandsNear(verdict);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "blue-6");
  EXPECT_EQ(rows[0].side, "blue");
  EXPECT_DOUBLE_EQ(rows[0].distance_mm, 15.4);
  EXPECT_DOUBLE_EQ(rows[0].distance_in, 0.61);
  EXPECT_DOUBLE_EQ(rows[0].margin_in, 0.39);
  EXPECT_TRUE(rows[0].inside_circle && rows[0].candidate && !rows[0].destroyed);
  EXPECT_EQ(rows[1].id, "red-8");
  EXPECT_DOUBLE_EQ(rows[1].distance_in, 0.0);
  EXPECT_FALSE(rows[1].destroyed);
  EXPECT_EQ(rows[2].id, "");
  EXPECT_DOUBLE_EQ(LoggedHitRadiusIn(verdict), 1.0) << "the rule books' 1\"";
  EXPECT_DOUBLE_EQ(LoggedHitRadiusIn(nlohmann::json{{"hit_radius_in", 1.5}}), 1.5);
  EXPECT_TRUE(LoggedStandsNear(nlohmann::json{{"stands_near", 3}}).empty());
  EXPECT_TRUE(LoggedStandsNear(nlohmann::json::array()).empty());
}

}  // namespace
}  // namespace referee
