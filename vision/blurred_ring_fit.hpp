// Bases whose border the frame's blur has spread into the mat. Under defocus and motion blur a
// 3-5 mm border keeps only a fifth to a third of its colour's distance from the mat, below every
// colour gate, yet its shape stays: a band along a catalogue-sized rectangle, blurred by the
// blur the frame shows at the bases found. Per side, the map of each pixel's departure from the
// mat toward the side's colour (0 = mat, 1 = the side's colour) is matched against that blurred
// band, with a free gain and offset, for every catalogue size both ways round, at positions and
// angles seeded where the departure left once the found bases are taken away stands out of its
// noise (a seed larger than any base, bases standing close or one across a road a shade toward
// the colour, searched a tile at a time, each fit kept only with its centre in its tile). A fit is
// claimed only when it stands out of what the same template scores on this frame's bare mat
// (measured at random places), when it beats every other size and the same size turned 90 degrees
// by more than that spread, each pair scored on the same pixels (those either ring looks at, less
// those inside either's band: figures may wear the side's colour), so a smaller ring along part of
// a larger base's border is held to the border it leaves unexplained (hand-painted borders are 3-5
// mm: the nominal width first, a wider one only where it explains nothing), when its sides moved
// one by one to where each fits best leave its centre in place and its angle within the search's
// step (a side the tallest figures are seen past, whose band their colours spread outward beyond
// that search, is placed by its opposite side at the catalogue size; where they turn it further,
// the pose they give is fitted again and must explain the band at least as well, still stand
// out of the bare mat, show a band on every side and be left in place by its own edges), and when
// its inside is no more toward the side's colour than its band and the colour ends at its band
// (the mat around it is mat, or the band stands clearly above a sheet of paper or tinted mat).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

struct BlurredRingOptions {
  // Fits are claimed when their correlation with the blurred band and their gain each lie this
  // many robust standard deviations above what the same template scores on the frame's bare
  // mat. Default 6: a search maximises over thousands of placements.
  double min_sigma = 6.0;
  // Where that finds no base at a seed (nor a size tie, see report_size_ties), the hypotheses
  // whose gain lies at least strong_gain_sigma robust standard deviations above the bare mat's are
  // judged again needing a correlation only min_sigma_strong_gain above. The 6 sigma on the
  // correlation guards a search maximising over thousands of placements on mat noise; where the
  // band's amplitude alone is far past any such maximum, the mat is ruled out and the
  // correlation need only show the band's shape, which figures near the border and the blur
  // lower (the band, inside, outside and edge tests still follow). Defaults 12 and 4 (s13: the
  // search's maximum on bare-mat boxes reaches 6 sigma 1 time in 20); 0 turns this off.
  double strong_gain_sigma = 12.0;
  double min_sigma_strong_gain = 4.0;
  // The winning size and angle must beat every other size, and itself turned 90 degrees, by
  // this many standard deviations of the correlation on bare mat. Default 1: the hypotheses
  // are scored on the same pixels, so their difference varies less than one placement's score.
  double winner_margin_sigma = 1.0;
  // Where no size wins by that margin but every hypothesis the leader does not beat is another
  // catalogue size (or the same size turned) over the same base, the leader out of the bare
  // mat's scores, the base is still reported: at the leader's size, with the others it could be
  // (PxRect::other_sizes), for the players to confirm when the size decides a ruling. A blurred
  // 40 x 20 mm band with a weak long side fits 40 x 30 and 40 x 40 nearly as well; dropping the
  // base hid it from the referee altogether. Default on.
  bool report_size_ties = true;
  // ... when the rivals' centres lie within this much of the leader's, mm (catalogue sizes of
  // one base sharing an edge are 5-15 mm apart). Default 12.
  double max_tie_centre_shift_mm = 12.0;
  // ... and at most this many rivals (more is no base the band can size). Default 2.
  size_t max_size_ties = 2;
  // Each side must show at least this fraction of the whole ring's gain (a band along every
  // side, not a stripe or a corner). Default 0.5.
  double min_side_gain_fraction = 0.5;
  // The centre after each side is moved to where it fits best may lie at most this far from
  // the fitted one, mm. Default 1.5.
  double max_refined_shift_mm = 1.5;
  // ... and its edges may turn it by at most this much, degrees; the turn is applied. Default
  // 3: the angle search steps by 2 degrees, so a larger turn says the fit and the edges
  // disagree.
  double max_refined_turn_deg = 3.0;
  // The search tries angles within a few degrees of the seed's mean gradient direction; where
  // no base fits there, also around each other direction its gradients peak at with at least
  // this fraction of the highest peak (a neighbour, figures or a terrain edge in the seed's box
  // can pull the mean tens of degrees off a base's own). Default 0.5.
  double min_angle_peak_fraction = 0.5;
  // ... at least this far (degrees, mod 90) from the mean direction and each other: the search
  // already covers +-5 degrees around each. Default 8.
  double min_angle_peak_apart_deg = 8.0;
  // ... and at most this many of them. Default 2; 0 searches only the mean direction.
  size_t max_extra_angles = 2;
  // A fit's inside more toward the side's colour than its band is still a base's when it is
  // textured: its departure's interquartile range at least this fraction of the band's (figures
  // wearing the side's colour among other colours; a roof, water or another side's base is
  // even). Default 0.5; 0 rejects every such inside.
  double min_inside_spread_fraction = 0.5;
  // ... but not where the board places terrain that may show an even shade toward a side's
  // colour (roads, houses, water, bridges; CV_8U, non-zero there, in the departure map's frame;
  // empty: none known): a ring over a road's blurred edges has its inside's texture too.
  cv::Mat even_shade_terrain;
  // ... and only where the band's median departure is at least this fraction of what a border
  // of the side's full colour reads under the frame's blur: the exception trusts the band's
  // colour, so it must be clearly there (a border in shade or partly under figures keeps more
  // than a third; the edge of a ruler, a paper or a road tinted toward the colour that a ring
  // fits on read at most 0.21 of it on `hard` seeds 29, 37, 47, 59, 89; the bases the exception
  // gained there and on seeds 5-43 0.39 and up). Default 1/3; 0 turns this off.
  double min_band_strength = 1.0 / 3.0;
  // ... and only where figures show the colour: this quantile of the inside's departure at
  // least this far toward it (0.5: nearer the side's colour than the mat). A ruler, a sheet of
  // paper or a road edge tinted toward the colour that a ring fits on reads a little toward it
  // throughout (at most 0.32 on `hard` seeds 29, 37, 47, 59; 0.53 on seed 89, whose band is
  // too faint), coats of the colour reach it (the bases gained: 0.62 and up). Defaults 0.9 and
  // 0.5; a departure below -1 turns this off.
  double coloured_inside_quantile = 0.9;
  double min_coloured_inside_departure = 0.5;
  // ... and only where the band is more this side's colour than another side's: per other
  // side, the two colours' shares of each pixel (ShareOfTwoColours, this side's first; empty:
  // not checked). A base of another side whose figures wear this side's colour has a band of its
  // own colour (toward both from a green mat: its departure toward this one alone does not
  // tell). AddBlurredRingBases fills them when compare_other_sides is on (default).
  std::vector<std::array<cv::Mat, 2>> rival_shares;
  bool compare_other_sides = true;
  // AddBlurredRingBases fits the sides flagged here (indexed as `sides`); empty: every side. A
  // second pass toward refitted colours need not search again the sides it left as they were.
  std::vector<bool> fit_sides;
  // ... and only where the colour ends at the ring: on every side, past the blur, the outside's
  // 90th percentile departs no further toward the colour than the band's median. A 40 x 20 mm
  // ring inside a 40 x 30 mm base whose figures wear its colour (`hard` 5 scene 5 blue-7, placed
  // 7 mm off: 1.03 of the band), or one along a ruler (`hard` 29 scene 4: 1.5), has the colour
  // run on past a side; the bases the exception gains on seeds 5-43 read at most 0.62. Default
  // on.
  bool colour_ends_at_ring = true;
  // The mat just outside the band (past the blur) must read at most a third of the band's
  // departure: a ring fitted inside a larger patch of the colour has the colour around it too.
  // A base on a sheet of paper, a card or a road, or on a mat the light tints, has surroundings
  // a shade toward the colour throughout (white paper reads 0.4-0.5 toward blue from a green
  // mat), yet its band still stands out of them. Such a base is taken when its band stands above
  // its own surroundings, toward the colour, by at least min_local_band_fraction of what a
  // border of the full colour reads under the frame's blur ((band - outside) / (1 - outside),
  // the outside's median), and on each side by at least min_local_side_fraction (the colour ends
  // at the ring all round, not a ring inside a larger patch open on some side). Rings fitted on
  // a patch of the colour, a tinted road or a paper's edge read at most a quarter of a border
  // over what surrounds them (`hard` 5, 7, 31), the bases on paper or a tinted mat there 0.4 to
  // 1.3. Defaults 1/3 (as min_band_strength: a border clearly there) and 1/4; 0 turns this off.
  double min_local_band_fraction = 1.0 / 3.0;
  double min_local_side_fraction = 0.25;
  // Every fit's band must stand above what surrounds it by at least this fraction of what a
  // border of the full colour reads under the frame's blur ((band - outside) / (1 - outside),
  // the outside's median): a base's border is painted in its side's colour, and even blurred,
  // half hidden by figures or read through a webcam's JPEG it keeps a clear part of it. On a
  // sharp frame sent as JPEG the colour's own blur (its halved resolution and coarse
  // quantisation) wakes this search, and rings fitted to the texture of woods, rocks or plain
  // ground, whose bare-mat null the random samples do not reach, read 0.02-0.11 (napoleonic 5
  // at quality 80: four false bases); the 300 fits of true bases on 16 sets, `hard` lossless
  // and at quality 80 included, 0.20 and up. Default 0.15; 0 turns this off.
  double min_band_over_surroundings = 0.15;
  // Where the edges move the fit past max_refined_shift_mm or turn it past max_refined_turn_deg
  // and the pose they give explains the band worse than the search's own, the search's pose is
  // kept when the band is clearly the side's colour: at least min_band_strength of a border of
  // the full colour (as above), and its median departure across the line from the mat to the
  // side's colour (off_line, see OffLineDeparture; empty: never kept) no larger than along it.
  // Under a blur wider than the border, side faces and figures seen past a tilted camera's far
  // sides spread the band unevenly, and each half-side edge, fitted alone, then reads a turn or
  // a shift the band as a whole does not bear out (`hard` 103 scene 10 blue-8: the edges read
  // -10.75 degrees where the base stands 2.6 degrees from the fit; kept, it is found 0.61 mm
  // from its centre). A tinted ruler or paper a ring fits on reads a weak band, or as far across
  // the line as along it (a yellow ruler toward red, `hard` 7 scene 3: 0.99 across, 0.16 along).
  // The edges' own shift is not applied either: it is pulled as their turn is. Only a fallback:
  // a wider border, another angle or the strong-gain pass that fits the seed cleanly is taken
  // first (kept at once, such a fit had pre-empted the later ones that place `hard` 7
  // scene 3 blue-1 within 1.5 mm and scene 8 blue-6 and blue-7). Default on.
  bool keep_search_pose_over_pulled_edges = true;
  cv::Mat off_line;
  // Random placements on the mat measuring the null scores, per size. Default 200.
  int null_samples = 200;
  // Borders are painted by hand, from the nominal width up to this wide, mm. A seed no ring
  // of the nominal width explains is fitted again with borders 1 mm wider, up to this width,
  // each judged against its own scores on bare mat. Default 5 (TABLE_KIT: at least 3; clubs
  // paint 3-5).
  double max_border_mm = 5.0;
  // Figures up to this tall (mm) stand inside the border. A tilted camera sees their tops past
  // the base's sides that face away from its foot (one, or two where it sees the base along its
  // diagonal), so there the border may be hidden: such a side need show only
  // min_far_side_gain_fraction of the ring's gain where the figures' tops can reach past its
  // whole border, the others min_side_gain_fraction. Default 25 (TABLE_KIT).
  double max_figure_height_mm = 25.0;
  // Default 0.25: half what the other sides must show (a band partly hidden, not none).
  double min_far_side_gain_fraction = 0.25;
  // Where a point max_figure_height_mm above the mat at a top-view pixel is seen, as a shift
  // from that pixel (top-view px, away from the camera's foot). Empty: the camera is not known
  // and every side must show min_side_gain_fraction.
  std::function<cv::Point2d(cv::Point2d)> figure_top_shift_px;
};

// Per-pixel departure (CV_32F) of chroma (CV_32FC2, see BalancedChroma) from mat_chroma toward
// side_chroma: the projection on the line between them, 0 at the mat, 1 at the side's colour;
// 0 where valid is 0.
cv::Mat DepartureToward(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                        const cv::Vec2f& side_chroma);

// Per-pixel distance (CV_32F) of chroma from the line through mat_chroma and side_chroma, in
// units of their distance (DepartureToward's along it); 0 where valid is 0. A blur mixes a
// border with the mat along that line; another colour lies off it.
cv::Mat OffLineDeparture(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                         const cv::Vec2f& side_chroma);

// The rows of the inverse of the 2 x 2 matrix [first - mat, second - mat]: a chroma c is
// mat_chroma + u (first - mat) + w (second - mat) with u = rows[0] . (c - mat) and
// w = rows[1] . (c - mat). nullopt where the two lie in one direction from the mat.
std::optional<std::array<cv::Vec2f, 2>> TwoColourShareRows(const cv::Vec2f& mat_chroma,
                                                           const cv::Vec2f& first,
                                                           const cv::Vec2f& second);

// Each pixel of chroma (CV_32FC2) as mat_chroma plus shares of two colours (CV_32F each, 0 at
// the mat, 1 at that colour; 0 where valid is 0): {first's, second's}. Empty where the two lie
// in one direction from the mat (no unique split).
std::array<cv::Mat, 2> ShareOfTwoColours(const cv::Mat& chroma, const cv::Mat& valid,
                                         const cv::Vec2f& mat_chroma, const cv::Vec2f& first,
                                         const cv::Vec2f& second);

// Bases in departure (CV_32F, one side's) whose blurred border fits. found: the bases found
// already (every side's); nothing is fitted over them or their blurred edges, nor over
// `excluded` (CV_8U, may be empty: terrain that may show a side's colour, whose blurred edge
// is a faint band of it too). blur_mm: the frame's 10-90 % edge rise (see
// vision/edge_blur.hpp); border_mm: the border's nominal (narrowest) width, see
// BlurredRingOptions::max_border_mm. Returns the rectangles (catalogue sizes, the centre and
// angle their edges give).
std::vector<PxRect> FitBlurredRings(const cv::Mat& departure, const std::vector<PxRect>& found,
                                    const cv::Mat& excluded, double mm_per_px,
                                    const std::vector<BaseSize>& sizes, double blur_mm,
                                    double border_mm, const BlurredRingOptions& options = {});

// How well a base's blurred border at r explains departure (CV_32F, DepartureToward): the
// correlation of the four sides' profiles with the blurred band (as FitBlurredRings scores a
// pose), the band's gain, each side's gain (sides -a, +a, -b, +b) and the band's median
// departure. blur_mm, border_mm as FitBlurredRings takes them.
struct BlurredRingScore {
  double rho = -2, gain = 0, band = 0;
  std::array<double, 4> side_gain{0, 0, 0, 0};
};
BlurredRingScore ScoreBlurredRing(const cv::Mat& departure, const PxRect& r, double mm_per_px,
                                  double blur_mm, double border_mm);

// The pose near r (its centre moved up to reach_px each way, 1 px steps, and turned by each
// of turns_rad) whose blurred ring correlates best with departure, with its score.
std::pair<PxRect, BlurredRingScore> BestBlurredRingNear(const cv::Mat& departure, const PxRect& r,
                                                        double mm_per_px, double blur_mm,
                                                        double border_mm, int reach_px,
                                                        const std::vector<double>& turns_rad);

// Each side's blurred-ring bases (FitBlurredRings on its DepartureToward map) added to rects
// (per side, as in sides), each clear of every base found before it and of terrain (see
// FitBlurredRings). Only run when blur_mm reaches border_mm: a sharper frame keeps part of
// every border inside the colour gates, and the colour blobs and ring fits see it.
void AddBlurredRingBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                         const cv::Mat& terrain, const std::vector<SideColor>& sides,
                         double mm_per_px, const std::vector<BaseSize>& sizes, double blur_mm,
                         double border_mm, std::vector<std::vector<PxRect>>& rects,
                         const BlurredRingOptions& options = {});

}  // namespace referee
