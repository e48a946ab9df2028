// Assimp's importers and its scene destructor recurse once per node level (the FBX converter
// overflowed the main thread's 8 MiB stack between 6,000 and 8,000 nested models, under our
// 10,000-level depth limit, docs/reliability.md). A file cannot be pre-checked for every format
// Assimp reads, so the reader runs Assimp on a thread whose stack fits the depth limit instead;
// our own walk of the scene then refuses what is past the limit, located and clean.
#pragma once

#include <cstddef>
#include <functional>

namespace animconv {

// The stack the Assimp reader runs on for hierarchies up to `max_depth` levels: 4 KiB a level
// (measured: about 1.2 KiB a level in Assimp 5.2's FBX converter) plus 8 MiB, at most 4 GiB.
// Thread stacks are mapped lazily, so only what a file uses is touched.
size_t AssimpStackBytes(size_t max_depth);

// Runs `work` on a new thread with a stack of `stack_bytes`, waits for it, and rethrows what it
// threw. Throws Error(kInternal) when no such thread can be made.
void RunOnStack(size_t stack_bytes, const std::function<void()>& work);

}  // namespace animconv
