#pragma once

#include <cstddef>

namespace animconv {

// Maps the pages of [data, data + bytes) in one system call before they are filled. Filling tens
// of MB of fresh keyframe storage otherwise takes one page fault per 4 KiB, which on a VM was a
// third of a large import. Only a hint: does nothing where the kernel lacks MADV_POPULATE_WRITE.
void PrefaultForWriting(void* data, size_t bytes);

// Asks for transparent huge pages on the 2 MiB-aligned part of [data, data + bytes), for a large
// buffer about to be filled front to back (a writer's output): one fault per 2 MiB instead of
// per 4 KiB. Only a hint: does nothing where the kernel lacks MADV_HUGEPAGE or THP is off.
void AdviseHugePages(void* data, size_t bytes);

}  // namespace animconv
