#pragma once

// Internal building block of the data-file readers: physical lines from a file or from
// in-memory text, streamed in chunks, with an early check that the input is UTF-8 text.
// Not a public API.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pfa::detail {

/// Leading bytes used for the binary check and for delimiter/format detection.
inline constexpr std::size_t kSniffBytes = std::size_t{64} * 1024;

/// A stream of bytes: a file or a string_view.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Reads up to n bytes into dst; returns 0 at the end.
    virtual std::size_t read(char* dst, std::size_t n) = 0;
    /// The number of bytes left when known (in-memory text), else SIZE_MAX: lets the line
    /// reader size its buffer to a small input instead of a whole chunk.
    virtual std::size_t remainingHint() const { return static_cast<std::size_t>(-1); }
};

/// A file opened for binary reading; DataFileError when it cannot be opened or read.
class FileSource : public ByteSource {
public:
    explicit FileSource(const std::string& path);
    ~FileSource() override;
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    std::size_t read(char* dst, std::size_t n) override;

private:
    std::string m_path;
    std::FILE* m_file;
};

/// In-memory text (not copied: it must outlive the source).
class TextSource : public ByteSource {
public:
    explicit TextSource(std::string_view text) : m_text(text) {}
    std::size_t read(char* dst, std::size_t n) override;
    std::size_t remainingHint() const override { return m_text.size() - m_pos; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Physical lines (LF, CRLF or CR) of a byte source, streamed in chunks. The constructor
/// reads the first kSniffBytes, drops a UTF-8 byte-order mark and rejects input that does not
/// look like UTF-8 text (UTF-16, NUL bytes, invalid UTF-8) with a DataFileError; a NUL byte
/// later in the input is reported when its line is reached.
class LineReader {
public:
    LineReader(ByteSource& source, std::string file);

    /// The first bytes of the input (BOM removed), before any line is read.
    std::string_view head() const { return {m_buf.data() + m_begin, m_end - m_begin}; }
    /// True when head() is the whole input.
    bool headIsAll() const { return m_eof; }

    /// Next physical line without its terminator; valid until the next call.
    bool next(std::string_view& line);

    /// 1-based number of the line last returned by next().
    long line() const { return m_line; }
    /// Bytes consumed so far (for progress).
    std::uint64_t consumed() const { return m_consumed; }
    /// The file (or source) name used in messages.
    const std::string& file() const { return m_file; }

private:
    void fillOnce();
    void more(std::size_t& scan);
    void checkLooksLikeText() const;

    ByteSource& m_source;
    std::string m_file;
    std::vector<char> m_buf;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
    long m_line = 0;
    std::uint64_t m_consumed = 0;
};

}  // namespace pfa::detail
