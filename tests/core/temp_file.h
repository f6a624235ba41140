#pragma once

// A temporary file for the core tests, removed at scope exit.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace pfa::test {

/// Writes `content` to a fresh file in the temporary directory (named with `suffix`, e.g.
/// ".csv") and removes it at scope exit.
class TempFile {
public:
    explicit TempFile(const std::string& content, const std::string& suffix = "") {
        static std::atomic<int> counter{0};
        static const unsigned run = std::random_device{}();  // distinct across processes
        m_path = (std::filesystem::temp_directory_path() /
                  ("pfa_test_" + std::to_string(run) + "_" + std::to_string(counter++) + suffix))
                     .string();
        std::ofstream out(m_path, std::ios::binary);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
    }
    ~TempFile() {
        std::error_code ignored;
        std::filesystem::remove(m_path, ignored);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

}  // namespace pfa::test
