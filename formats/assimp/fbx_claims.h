// What a binary FBX's arrays claim, checked before Assimp sees the file: Assimp 5.2 allocates
// an array's declared size before it inflates the data (fuzz_assimp: a 29 KB file whose 'KeyTime'
// array claims 268,435,516 int64 from 368 compressed bytes made it malloc 2 GiB). A zlib stream
// inflates at most 1032:1 (RFC 1951: a 258-byte match per 2 bits), and a raw array holds exactly
// its bytes, so a larger claim is impossible and refused, located at its byte offset.
#pragma once

#include <string>
#include <string_view>

namespace animconv {

// Walks the node records of a binary FBX (7.x; 64-bit headers from 7500) without recursion and
// throws Error(kBadInput, source, "byte N") at the first impossible array claim. A file that is
// not binary FBX, or whose structure breaks off, is left to Assimp (which reports it).
void CheckFbxArrayClaims(std::string_view bytes, const std::string& source);

}  // namespace animconv
