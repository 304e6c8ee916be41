#include "datasets/shot_sequence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"

namespace referee {

namespace {

// The projectile's centre, heading and tilt at one instant (table inches, radians).
struct Pose {
  cv::Point3d centre;  // Q-tip: middle of the axis; shell: the dot
  double yaw = 0.0;    // Q-tip: direction plain -> painted end; shell: rotation
  double pitch = 0.0;  // Q-tip nose-down tilt; shell roll
};

// Flight, one bounce and a slide that end exactly in the final pose.
struct Trajectory {
  Pose rest;
  Vec2 heading;  // direction of travel
  double flight_s, bounce_s, slide_s;
  double flight_in, bounce_in, slide_in;
  double start_height_in, bounce_apex_in;
  double yaw_flight, yaw_bounce;

  Pose At(double t, std::string& phase) const {
    Pose p = rest;
    const auto along = [&](double back_in) {
      return cv::Point3d(rest.centre.x - back_in * heading.x, rest.centre.y - back_in * heading.y,
                         rest.centre.z);
    };
    if (t < flight_s) {
      phase = "flying";
      const double u = t / flight_s;
      p.centre = along(slide_in + bounce_in + (1 - u) * flight_in);
      // Falling from the muzzle height, a shallow arc.
      p.centre.z = rest.centre.z - (1 - u) * start_height_in - 0.8 * u * (1 - u);
      p.yaw = yaw_flight;
      p.pitch = DegToRad(12.0) * (1 - u);
    } else if (t < flight_s + bounce_s) {
      phase = "bouncing";
      const double u = (t - flight_s) / bounce_s;
      p.centre = along(slide_in + (1 - u) * bounce_in);
      p.centre.z = rest.centre.z - 4 * bounce_apex_in * u * (1 - u);
      p.yaw = yaw_flight + u * (yaw_bounce - yaw_flight);
      p.pitch = DegToRad(25.0) * std::sin(kPi * u);
    } else if (t < flight_s + bounce_s + slide_s) {
      phase = "sliding";
      const double u = (t - flight_s - bounce_s) / slide_s;
      const double s = 1 - (1 - u) * (1 - u);  // constant deceleration to a stop
      p.centre = along((1 - s) * slide_in);
      p.yaw = yaw_bounce + s * (rest.yaw - yaw_bounce);
      p.pitch = 0;
    } else {
      phase = "rest";
    }
    return p;
  }
  double Duration() const { return flight_s + bounce_s + slide_s; }
};

std::vector<Solid> ProjectileSolids(const SceneLayout& L, const Pose& p) {
  if (L.projectile_kind == "qtip") {
    const cv::Point3d d(std::cos(p.yaw) * std::cos(p.pitch), std::sin(p.yaw) * std::cos(p.pitch),
                        std::sin(p.pitch));
    QtipPose q;
    q.painted_end = p.centre + 0.5 * kQtipLengthIn * d;
    q.plain_end = p.centre - 0.5 * kQtipLengthIn * d;
    return QtipSolids(q, L.paint_bgr);
  }
  ShellPose s;
  s.dot = p.centre;
  s.dot_offset_in = L.shell.dot_offset_in;
  s.angle_deg = RadToDeg(p.yaw);
  s.tilt_deg = RadToDeg(p.pitch);
  return ShellSolids(s, L.shell_bgr);
}

Vec2 ImpactPoint(const SceneLayout& L, const Pose& p) {
  if (L.projectile_kind != "qtip") return {p.centre.x, p.centre.y};
  const double c = std::cos(p.pitch);
  return {p.centre.x + 0.5 * kQtipLengthIn * c * std::cos(p.yaw),
          p.centre.y + 0.5 * kQtipLengthIn * c * std::sin(p.yaw)};
}

// Does any point of the solids project inside the image?
bool InView(const CameraModel& cam, const std::vector<Solid>& solids) {
  const cv::Rect frame(0, 0, cam.image_size.width, cam.image_size.height);
  for (const auto& s : solids) {
    for (size_t i = 0; i < s.points.size(); i += 7) {
      const cv::Point2d px = cam.ImageFromTable({s.points[i].x, s.points[i].y}, -s.points[i].z);
      if (frame.contains(cv::Point(cvFloor(px.x), cvFloor(px.y)))) return true;
    }
  }
  return false;
}

HandPose Lerp(const HandPose& a, const HandPose& b, double u) {
  HandPose h = b;
  h.palm = a.palm + u * (b.palm - a.palm);
  h.wrist = a.wrist + u * (b.wrist - a.wrist);
  h.shoulder = a.shoulder + u * (b.shoulder - a.shoulder);
  return h;
}

}  // namespace

int WriteShotSequence(const Scenario& scenario, const SynthOptions& options, int index,
                      const SequenceOptions& seq, const std::filesystem::path& dir) {
  LaidOutScene laid = LayOutScene(scenario, options, index);
  const SceneLayout& L = laid.layout;
  SynthRandom rng = laid.rng.Fork();
  std::filesystem::create_directories(dir);

  Trajectory tr;
  if (L.projectile_kind == "qtip") {
    tr.rest.centre = 0.5 * (L.qtip.painted_end + L.qtip.plain_end);
    tr.rest.yaw = std::atan2(L.qtip.painted_end.y - L.qtip.plain_end.y,
                             L.qtip.painted_end.x - L.qtip.plain_end.x);
  } else {
    tr.rest.centre = L.shell.dot;
    tr.rest.yaw = DegToRad(L.shell.angle_deg);
  }
  // A Q-tip flies roughly along its axis (either end first); a shell from any direction.
  const double travel = L.projectile_kind == "qtip"
                            ? tr.rest.yaw + (rng.Chance(0.5) ? 0.0 : kPi) + rng.Uniform(-0.3, 0.3)
                            : rng.Uniform(0, 2 * kPi);
  tr.heading = {std::cos(travel), std::sin(travel)};
  tr.flight_s = rng.Uniform(0.25, 0.4);
  tr.bounce_s = rng.Uniform(0.15, 0.25);
  tr.slide_s = rng.Uniform(0.3, 0.5);
  tr.flight_in = rng.Uniform(10, 20);
  tr.bounce_in = rng.Uniform(1.0, 3.0);
  tr.slide_in = rng.Uniform(0.8, 2.5);
  tr.start_height_in = rng.Uniform(3, 6);
  tr.bounce_apex_in = rng.Uniform(0.3, 0.8);
  tr.yaw_flight = tr.rest.yaw + rng.Uniform(-0.6, 0.6);
  tr.yaw_bounce = tr.rest.yaw + rng.Uniform(-0.25, 0.25);

  const Vec2 target = ImpactPoint(L, tr.rest);
  const HandPose hand_at = L.hand ? *L.hand : SampleHand(L, target, rng);
  HandPose hand_away = hand_at;
  const cv::Point3d out_dir = hand_at.shoulder - hand_at.palm;
  const double out_len = std::hypot(out_dir.x, out_dir.y);
  const cv::Point3d away = (30.0 / std::max(out_len, 1e-6)) * cv::Point3d(out_dir.x, out_dir.y, 0);
  hand_away.palm += away;
  hand_away.wrist += away;
  hand_away.shoulder += away;
  hand_away.palm.z -= 3;
  hand_away.wrist.z -= 3;

  const SceneRenderer renderer(L, options.supersample);
  const std::vector<Solid> statics = StaticSolids(L, true);
  const double t_shot = seq.lead_in_s;
  const double t_rest = t_shot + tr.Duration();
  const double t_hand = t_rest + seq.rest_s;
  const double t_end = t_hand + (seq.with_hand ? seq.hand_s + seq.tail_s : 0.0);
  const int n = static_cast<int>(std::ceil(t_end * seq.fps));
  const double exposure_s = 1.0 / 60.0;  // a webcam's shutter in room light

  cv::VideoWriter video;
  if (seq.video) {
    video.open((dir / "sequence.avi").string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'),
               seq.fps, options.size);
  }
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  const std::vector<int> jpg{cv::IMWRITE_JPEG_QUALITY, seq.jpeg_quality};
  for (int f = 0; f < n; ++f) {
    const double t = f / seq.fps;
    SequenceFrame fr;
    fr.index = f;
    fr.t_s = t;
    fr.phase = "before";
    // Moving things are rendered at a few instants within the exposure and averaged.
    const bool moving = t >= t_shot && t < t_rest;
    const int subframes = moving ? 3 : 1;
    cv::Mat acc;
    for (int k = 0; k < subframes; ++k) {
      const double tk = subframes == 1 ? t : t + exposure_s * (k / (subframes - 1.0) - 0.5);
      std::vector<Solid> solids = statics;
      if (tk >= t_shot) {
        std::string phase;
        const Pose pose = tr.At(tk - t_shot, phase);
        const auto ps = ProjectileSolids(L, pose);
        solids.insert(solids.end(), ps.begin(), ps.end());
        if (k == subframes / 2) {
          fr.phase = phase;
          fr.projectile_visible = InView(L.camera, ps);
          fr.at_rest = phase == "rest";
          fr.point = ImpactPoint(L, pose);
          fr.height_in = L.projectile_kind == "qtip"
                             ? -(pose.centre.z + 0.5 * kQtipLengthIn * std::sin(pose.pitch))
                             : -pose.centre.z;
        }
      }
      if (seq.with_hand && tk >= t_hand && tk < t_hand + seq.hand_s) {
        // In over 40% of the time, hold 20%, out over 40%, eased.
        const double u = (tk - t_hand) / seq.hand_s;
        double reach = u < 0.4 ? u / 0.4 : (u < 0.6 ? 1.0 : (1.0 - u) / 0.4);
        reach = 0.5 - 0.5 * std::cos(kPi * reach);
        const auto hs = HandSolids(Lerp(hand_away, hand_at, reach));
        solids.insert(solids.end(), hs.begin(), hs.end());
        if (k == subframes / 2) {
          fr.hand_in_view = InView(L.camera, hs);
          if (fr.hand_in_view) fr.phase = "hand";
        }
      }
      cv::Mat clean = renderer.RenderClean(solids);
      if (subframes == 1) {
        acc = clean;
      } else {
        if (acc.empty()) acc = cv::Mat::zeros(clean.size(), CV_32FC3);
        cv::Mat cf;
        clean.convertTo(cf, CV_32FC3, 1.0 / subframes);
        acc += cf;
      }
    }
    if (acc.type() != CV_8UC3) acc.convertTo(acc, CV_8UC3);
    SynthRandom frame_rng = rng.Fork();
    const cv::Mat img = renderer.ApplyPhoto(acc, frame_rng);
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.jpg", f);
    if (!cv::imwrite((dir / name).string(), img, jpg)) {
      throw std::runtime_error("cannot write " + (dir / name).string());
    }
    if (video.isOpened()) video.write(img);
    frames.push_back({{"index", f},
                      {"file", name},
                      {"t_s", fr.t_s},
                      {"phase", fr.phase},
                      {"projectile_visible", fr.projectile_visible},
                      {"at_rest", fr.at_rest},
                      {"hand_in_view", fr.hand_in_view},
                      {"point", {fr.point.x, fr.point.y}},
                      {"height_in", fr.height_in}});
  }
  nlohmann::ordered_json j;
  j["format"] = "referee-synth-sequence/1";
  j["fps"] = seq.fps;
  j["frame_count"] = n;
  j["shot_starts_s"] = t_shot;
  j["rest_from_s"] = t_rest;
  j["hand_from_s"] =
      seq.with_hand ? nlohmann::ordered_json(t_hand) : nlohmann::ordered_json(nullptr);
  j["truth"] =
      "truth.json (the final pose; same table as scene index " + std::to_string(index) + ")";
  j["frames"] = frames;
  std::ofstream(dir / "frames.json", std::ios::binary) << j.dump(1) << "\n";
  std::ofstream(dir / "truth.json", std::ios::binary) << TruthJson(laid.truth);
  return n;
}

}  // namespace referee
