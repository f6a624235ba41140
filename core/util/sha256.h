#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace pfa {

/// Streaming SHA-256 (FIPS 180-4). Feed the bytes in any number of update() calls of any
/// size; the digest depends only on the concatenated bytes. Our own implementation, so the
/// core needs no cryptography library just to recognise a data file.
class Sha256 {
public:
    Sha256();

    /// Appends `size` bytes at `data` to the message.
    void update(const void* data, std::size_t size);

    /// The digest of all bytes given so far, as 64 lower-case hex digits. Does not end the
    /// stream: further update() calls continue the same message.
    std::string hexDigest();

    /// Starts a new, empty message.
    void reset();

private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> m_state;
    std::array<std::uint8_t, 64> m_block;  ///< the incomplete trailing block
    std::size_t m_blockSize = 0;           ///< bytes used in m_block
    std::uint64_t m_length = 0;            ///< message length in bytes
};

/// SHA-256 of `bytes` as 64 lower-case hex digits.
std::string sha256Hex(std::string_view bytes);

/// SHA-256 of the file at `path` as 64 lower-case hex digits, read in large chunks.
/// `progress(done, total)` (optional) is called after each chunk with the bytes hashed so far
/// and the file size; returning true cancels and throws InputError("cancelled").
/// Throws InputError naming the path and the system's reason when the file cannot be opened
/// or read.
std::string sha256File(
    const std::string& path,
    const std::function<bool(std::uint64_t done, std::uint64_t total)>& progress = {});

}  // namespace pfa
