#pragma once

namespace pfa {

/// Hands back to the system the memory pages of [begin, end) that lie wholly inside
/// [bufferBegin, end): their contents become unspecified (zeros on Linux), their memory is
/// free again, and the buffer itself stays allocated. For large data that will never be read
/// again while its container lives on (the raw columns of a data set being encoded block by
/// block). `begin` is rounded down to a page (the part of that page before `begin` must be
/// dead too), `end` up to none. A no-op on systems without madvise.
void releaseMemory(const void* bufferBegin, const void* begin, const void* end);

}  // namespace pfa
