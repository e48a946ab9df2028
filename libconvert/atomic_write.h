// The core of WriteFileAtomic (libconvert/io.cpp), for the writes built on it
// (WriteFileAtomicStreamed, libconvert/streamed_write.cpp). Private to the project.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// Writes pieces to an output's temporary file, after those written before.
using PieceWriter = std::function<void(const std::vector<std::string_view>&)>;
// Writes a whole output through the PieceWriter it is given (as often as it likes, from one
// thread at a time).
using OutputFeed = std::function<void(const PieceWriter&)>;

// WriteFileAtomic with the bytes `feed` writes: it is called once the temporary file is created
// and locked; when it throws, the temporary is removed and its exception goes on; when it
// returns, the file is flushed and renamed over `path`.
void WriteFileAtomicFed(const std::string& path, const OutputFeed& feed);

}  // namespace animconv
