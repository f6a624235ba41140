#include "core/data/line_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/util/error.h"

namespace pfa::detail {

namespace {

// Read granularity; the buffer only grows beyond it for longer lines.
constexpr std::size_t kChunkBytes = std::size_t{256} * 1024;

/// Offset of the first invalid UTF-8 byte, or npos. A sequence cut off by the end of the
/// window is accepted when more data follows.
std::size_t invalidUtf8Offset(std::string_view s, bool moreFollows) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        std::uint32_t cp;
        if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n) return moreFollows ? std::string_view::npos : i;
        for (std::size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const bool overlong =
            (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return std::string_view::npos;
}

/// 1-based line of a byte offset; CR, LF and CRLF each end one line (as in LineReader).
long lineOfOffset(std::string_view s, std::size_t offset) {
    long line = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (s[i] == '\n') {
            ++line;
        } else if (s[i] == '\r') {
            ++line;
            if (i + 1 < offset && s[i + 1] == '\n') ++i;
        }
    }
    return line;
}

}  // namespace

FileSource::FileSource(const std::string& path)
    : m_path(path), m_file(std::fopen(path.c_str(), "rb")) {
    if (!m_file)
        throw DataFileError(
            path, 0, "",
            "cannot be opened for reading (" + std::string(std::strerror(errno)) + ")");
}

FileSource::~FileSource() {
    if (m_file) std::fclose(m_file);
}

std::size_t FileSource::read(char* dst, std::size_t n) {
    const std::size_t got = std::fread(dst, 1, n, m_file);
    if (got < n && std::ferror(m_file))
        throw DataFileError(m_path, 0, "",
                            "read error (" + std::string(std::strerror(errno)) + ")");
    return got;
}

std::size_t TextSource::read(char* dst, std::size_t n) {
    const std::size_t k = std::min(n, m_text.size() - m_pos);
    if (k) std::memcpy(dst, m_text.data() + m_pos, k);
    m_pos += k;
    return k;
}

LineReader::LineReader(ByteSource& source, std::string file)
    : m_source(source), m_file(std::move(file)) {
    // One spare byte, so that a small input is read whole and its end seen in two reads.
    const std::size_t hint = source.remainingHint();
    m_buf.resize(hint < kChunkBytes ? hint + 1 : kChunkBytes);
    while (m_end < kSniffBytes && !m_eof) fillOnce();
    if (m_end >= 3 && std::memcmp(m_buf.data(), "\xEF\xBB\xBF", 3) == 0) m_begin = 3;
    checkLooksLikeText();
}

bool LineReader::next(std::string_view& line) {
    std::size_t scan = m_begin;
    for (;;) {
        const char* b = m_buf.data();
        std::size_t p = scan;
        while (p < m_end && b[p] != '\n' && b[p] != '\r' && b[p] != '\0') ++p;
        if (p < m_end && b[p] == '\0')
            throw DataFileError(m_file, m_line + 1, "",
                                "contains a NUL byte; it does not look like a text file");
        if (p < m_end) {
            std::size_t term = 1;
            if (b[p] == '\r') {
                if (p + 1 == m_end && !m_eof) {  // CR at the chunk end: is it CRLF?
                    scan = p;
                    more(scan);
                    continue;
                }
                if (p + 1 < m_end && b[p + 1] == '\n') term = 2;
            }
            line = std::string_view(b + m_begin, p - m_begin);
            m_consumed += p + term - m_begin;
            m_begin = p + term;
            ++m_line;
            return true;
        }
        if (!m_eof) {
            scan = p;
            more(scan);
            continue;
        }
        if (m_begin < m_end) {  // last line without a terminator
            line = std::string_view(b + m_begin, m_end - m_begin);
            m_consumed += m_end - m_begin;
            m_begin = m_end;
            ++m_line;
            return true;
        }
        return false;
    }
}

void LineReader::fillOnce() {
    if (m_end == m_buf.size()) m_buf.resize(m_buf.size() * 2);
    const std::size_t got = m_source.read(m_buf.data() + m_end, m_buf.size() - m_end);
    if (got == 0) m_eof = true;
    m_end += got;
}

// Makes room (compacting or growing) and reads more; `scan` is kept relative to the data.
void LineReader::more(std::size_t& scan) {
    if (m_begin > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_begin, m_end - m_begin);
        scan -= m_begin;
        m_end -= m_begin;
        m_begin = 0;
    }
    fillOnce();
}

void LineReader::checkLooksLikeText() const {
    const std::string_view h = head();
    if (m_begin == 0 && h.size() >= 2 &&
        ((h[0] == '\xFF' && h[1] == '\xFE') || (h[0] == '\xFE' && h[1] == '\xFF')))
        throw DataFileError(m_file, 0, "",
                            "is UTF-16 encoded; it does not look like a UTF-8 text file "
                            "(save it as UTF-8)");
    const std::size_t nul = h.find('\0');
    if (nul != std::string_view::npos)
        throw DataFileError(m_file, lineOfOffset(h, nul), "",
                            "contains a NUL byte at byte " + std::to_string(nul + m_begin) +
                                "; it does not look like a text file");
    const std::size_t bad = invalidUtf8Offset(h, !m_eof);
    if (bad != std::string_view::npos)
        throw DataFileError(m_file, lineOfOffset(h, bad), "",
                            "invalid UTF-8 at byte " + std::to_string(bad + m_begin) +
                                "; it does not look like a text file (save it as UTF-8)");
}

}  // namespace pfa::detail
