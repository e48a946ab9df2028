#pragma once

#include <cstddef>

namespace animconv {

// Maps the pages of [data, data + bytes) in one system call before they are filled. Filling tens
// of MB of fresh keyframe storage otherwise takes one page fault per 4 KiB, which on a VM was a
// third of a large import. Only a hint: does nothing where the kernel lacks MADV_POPULATE_WRITE.
void PrefaultForWriting(void* data, size_t bytes);

}  // namespace animconv
