// How the process keeps the memory of camera-sized images between frames.
#pragma once

namespace referee {

// Keeps freed blocks up to a 4K colour frame's size in the process for the next frame instead
// of handing each back to the kernel. Every stand search and shot analysis allocates and frees
// many 1080p maps (8 MB grey, 25 MB colour, as floats); by default glibc returns each to the
// kernel when freed and the next one is faulted back in page by page, zeroed. Call once at the
// start of main, before any thread starts. A no-op on C libraries other than glibc.
void KeepFreedFrameMemory();

}  // namespace referee
