// Where the lamp does not reach the solids' own faces: the shadows other solids cast onto a
// base top, a figure's top, a roof or a shell (planar projection from the point lamp onto each
// face's plane, clipped to the face), and whole faces turned away from the lamp. The mat's
// shadows are made by the renderer itself; this is the same lamp falling on everything above it.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "datasets/scene_layout.hpp"

namespace referee {

// One shadowed region on a face of a solid: a planar convex polygon, table inches (z = -height),
// edges subdivided so a lens bends them like the face's own edges.
using ShadowPolygon = std::vector<cv::Point3d>;

// The first face (index <= f) lying in the same plane as face f (within 1e-3 in of its plane):
// faces in one plane are layers, drawn in their listed order.
size_t FirstCoplanarFace(const std::vector<Solid::Face>& faces, size_t f);

// For each solid (same order as `solids`), the shadowed parts of its faces that the camera at
// `camera_center` sees, and of the mid-height footprint of a solid that receives_on_midplane. Only
// the first face of each plane receives (later faces in that plane are layers painted on it: a
// base's interior and stripe, a shell's dot). A solid does not shadow its own faces (all are
// convex); solids with casts_shadow off cast nothing.
std::vector<std::vector<ShadowPolygon>> ShadowsOnSolids(const std::vector<Solid>& solids,
                                                        const cv::Point3d& lamp,
                                                        const cv::Vec3d& camera_center);

}  // namespace referee
