#include "core/fetch/verify_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "core/util/error.h"
#include "core/util/sha256.h"

namespace pfa::fetch {

namespace fs = std::filesystem;

namespace {

/// Hex digests compare case-insensitively: a catalog typed in upper case is still right.
bool sameDigest(const std::string& a, const std::string& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}

}  // namespace

VerifyReport verifyFile(const DatasetFile& file, const std::string& directory) {
    VerifyReport report;
    report.name = file.name;
    report.path = (fs::path(directory) / file.name).string();

    std::error_code error;
    const std::uintmax_t partSize = fs::file_size(report.path + ".part", error);
    if (!error) report.partialBytes = partSize;

    const fs::file_status status = fs::status(report.path, error);
    if (status.type() == fs::file_type::not_found) {
        report.message = file.name + ": missing";
        if (report.partialBytes > 0)
            report.message += " (a partial download of " + std::to_string(report.partialBytes) +
                              " of " + std::to_string(file.bytes) + " bytes can be resumed)";
        return report;
    }
    if (error) {
        report.message = file.name + ": cannot check " + report.path + " (" + error.message() + ")";
        return report;
    }
    if (!fs::is_regular_file(status)) {
        report.message = file.name + ": " + report.path + " is not a regular file";
        return report;
    }
    report.exists = true;

    report.actualBytes = fs::file_size(report.path, error);
    if (error) {
        report.message = file.name + ": cannot check " + report.path + " (" + error.message() + ")";
        return report;
    }
    if (report.actualBytes != file.bytes) {
        report.message = file.name + ": wrong size: " + std::to_string(report.actualBytes) +
                         " bytes, expected " + std::to_string(file.bytes);
        return report;
    }
    report.sizeOk = true;

    try {
        report.actualSha256 = sha256File(report.path);
    } catch (const InputError& unreadable) {
        report.message = file.name + ": " + unreadable.what();
        return report;
    }
    report.sha256Ok = sameDigest(report.actualSha256, file.sha256);
    report.message = report.sha256Ok ? file.name + ": OK"
                                     : file.name + ": wrong SHA-256 " + report.actualSha256 +
                                           ", expected " + file.sha256;
    return report;
}

std::vector<VerifyReport> verifyFiles(const std::vector<DatasetFile>& files,
                                      const std::string& directory) {
    std::vector<VerifyReport> reports;
    reports.reserve(files.size());
    for (const DatasetFile& file : files) reports.push_back(verifyFile(file, directory));
    return reports;
}

}  // namespace pfa::fetch
