#include "calibration/frame_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace referee {

void KeepFreedFrameMemory() {
#if defined(__GLIBC__)
  // glibc's largest allowed threshold on 64-bit (half its 64 MB arena heap): a 1080p colour
  // float map or a 4K colour frame (25 MB each) comes from the heap, not a mapping of its own.
  constexpr int kMmapThresholdBytes = 32 * 1024 * 1024;
  // The freed top of the heap is kept up to this much. At 64 MB the shot analyses of
  // tests/vision/white_change_test still gave most of it back and faulted it in again (48 s on
  // this project's 2-core machine, 30 s at 256 MB, 41 s with glibc's defaults).
  constexpr int kTrimThresholdBytes = 256 * 1024 * 1024;
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
  mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
#endif
}

}  // namespace referee
