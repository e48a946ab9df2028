// File access with the project's safety rules (docs/reliability.md): bounded reads, atomic writes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

constexpr uint64_t kDefaultMaxInputBytes = 2048ull << 20;  // 2 GiB, `--max-input-mb`

// Reads a whole file. Throws Error(kIo) when it cannot be opened or read, Error(kBadInput) when
// it is larger than `max_bytes` (checked before allocating).
std::string ReadFile(const std::string& path, uint64_t max_bytes = kDefaultMaxInputBytes);

// Writes `bytes` to a temporary file in the target's folder, flushes it to disk, then renames it
// over `path`. On any failure the temporary file is removed and an existing `path` is untouched.
// Afterwards, removes the temporaries of `path` a killed process left (RemoveStaleTemporaryFiles).
void WriteFileAtomic(const std::string& path, std::string_view bytes);
// The same for bytes given as pieces in order (TextPieces::Pieces), written without joining them.
void WriteFileAtomic(const std::string& path, const std::vector<std::string_view>& pieces);

class PieceSink;  // animconv/text_pieces.h

// The same for an output written while it is made (docs/performance.md, "Writing while
// formatting"): `produce` hands the pieces to the sink in order (from any thread, one call at a
// time), and another thread writes them to the temporary file as they come. Each piece given by
// Publish must stay valid until this returns; one given by PublishOwned is freed once written. When
// produce throws, the temporary is removed and its exception goes on; when the write fails, the
// sink's Publish throws to stop the producer and the write's error is reported. Where there are no
// threads (WebAssembly), the pieces are written after produce.
void WriteFileAtomicStreamed(const std::string& path,
                             const std::function<void(PieceSink&)>& produce);

// Removes the `.NAME.XXXXXXXX.tmp` files of the output `path` that no running process is writing
// (a writer holds a lock on its temporary; the kernel releases it when the writer dies, SIGKILL
// included), left by a process killed mid-write. Each folder is listed once per process, at the
// first call for it; errors are ignored. `batch --skip-existing` calls it for the outputs it skips.
void RemoveStaleTemporaryFiles(const std::string& path) noexcept;

// Removes the temporary files of every WriteFileAtomic still in progress, in any thread. Only
// async-signal-safe calls (no allocation, no locks): made for a SIGINT/SIGTERM handler, so an
// interrupted write leaves neither a partial output nor a hidden temporary file
// (docs/reliability.md). The writes themselves then fail; a finished output is never touched.
void RemovePendingTemporaryFiles() noexcept;

// True when both paths name the same existing file (hard links and symlinks included).
bool SameFile(const std::string& a, const std::string& b);

}  // namespace animconv
