#include "core/fetch/fetch_file.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "core/fetch/verify_file.h"
#include "core/util/sha256.h"

#ifndef CURL_WRITEFUNC_ERROR  // added in libcurl 7.87; any count other than the one given works
#define CURL_WRITEFUNC_ERROR 0xFFFFFFFF
#endif

namespace pfa::fetch {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------
// Process-wide state: libcurl initialisation and one download per target file.

void initialiseCurl() {
    // curl_global_init must run once before any other libcurl call and is not safe to race
    // with itself. It is never undone: curl_global_cleanup at exit could pull the library
    // from under another user in the same process, and the OS reclaims everything anyway.
    static std::once_flag once;
    std::call_once(once, [] {
        const CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
        if (code != CURLE_OK)
            throw InputError(std::string("cannot initialise libcurl: ") + curl_easy_strerror(code));
    });
}

/// Holds the right to write one target file (and its .part) within this process: two
/// threads appending to the same .part would interleave their bytes.
class TargetLock {
public:
    TargetLock(std::string key, const DatasetFile& file, const FetchOptions& options)
        : m_key(std::move(key)) {
        std::unique_lock lock(mutex());
        while (busy().count(m_key) > 0) {
            released().wait_for(lock, std::chrono::milliseconds(100));
            if (options.progress) {
                // Waiting may take as long as the other download: stay cancellable.
                lock.unlock();
                const bool cancel = options.progress(0, file.bytes);
                lock.lock();
                if (cancel) throw FetchCancelled(file.name);
            }
        }
        busy().insert(m_key);
    }
    ~TargetLock() {
        {
            const std::lock_guard lock(mutex());
            busy().erase(m_key);
        }
        released().notify_all();
    }
    TargetLock(const TargetLock&) = delete;
    TargetLock& operator=(const TargetLock&) = delete;

private:
    static std::mutex& mutex() {
        static std::mutex instance;
        return instance;
    }
    static std::condition_variable& released() {
        static std::condition_variable instance;
        return instance;
    }
    static std::set<std::string>& busy() {
        static std::set<std::string> instance;
        return instance;
    }

    std::string m_key;
};

// ---------------------------------------------------------------------------------------
// Small helpers.

std::string systemReason() { return std::strerror(errno); }

std::string toLower(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower;
}

bool isSha256Hex(const std::string& text) {
    return text.size() == 64 && std::all_of(text.begin(), text.end(),
                                            [](unsigned char c) { return std::isxdigit(c) != 0; });
}

std::optional<std::uint64_t> parseNumber(std::string_view text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

/// Size of a regular file, or nothing when it does not exist.
std::optional<std::uint64_t> fileSize(const fs::path& path) {
    std::error_code error;
    const std::uintmax_t size = fs::file_size(path, error);
    if (error) return std::nullopt;
    return size;
}

void removeFile(const fs::path& path) {
    std::error_code error;
    fs::remove(path, error);
    if (error) throw InputError("cannot delete " + path.string() + " (" + error.message() + ")");
}

/// Standard reason phrases, for HTTP/2 responses (which carry none).
const char* reasonPhrase(long status) {
    switch (status) {
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 408:
            return "Request Timeout";
        case 410:
            return "Gone";
        case 416:
            return "Range Not Satisfiable";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        case 503:
            return "Service Unavailable";
        case 504:
            return "Gateway Timeout";
        default:
            return "";
    }
}

/// Verifies a complete .part against the catalog; returns the problem, or empty if right.
std::string checkDownload(const DatasetFile& file, const fs::path& partPath) {
    const std::optional<std::uint64_t> size = fileSize(partPath);
    if (!size) return "it vanished before it could be checked";
    if (*size != file.bytes)
        return "it has " + std::to_string(*size) + " bytes, expected " + std::to_string(file.bytes);
    const std::string actual = sha256File(partPath.string());
    if (actual != toLower(file.sha256))
        return "its SHA-256 is " + actual + ", expected " + toLower(file.sha256);
    return {};
}

// ---------------------------------------------------------------------------------------
// One HTTP request and what its callbacks learn.

struct CurlCleanup {
    void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
using CurlHandle = std::unique_ptr<CURL, CurlCleanup>;

/// Why a callback stopped the transfer.
enum class Abort {
    None,
    Cancelled,         ///< the progress callback asked to stop
    CallbackThrew,     ///< the progress callback threw (rethrown after curl returns)
    WriteFailed,       ///< the .part could not be written
    WrongSize,         ///< the response announces a size other than the catalog's
    TooLarge,          ///< more bytes arrived than the catalog's size
    WrongRange,        ///< a 206 that does not start where we asked
    UnexpectedStatus,  ///< a 2xx other than 200 and 206
};

struct Attempt {
    Attempt(CURL* handle, const DatasetFile& entry, const FetchOptions& fetchOptions, fs::path part,
            std::uint64_t from)
        : curl(handle),
          file(entry),
          options(fetchOptions),
          partPath(std::move(part)),
          requestedFrom(from),
          partSize(from) {}
    ~Attempt() {
        if (out) std::fclose(out);
    }
    Attempt(const Attempt&) = delete;
    Attempt& operator=(const Attempt&) = delete;

    CURL* curl;
    const DatasetFile& file;
    const FetchOptions& options;
    fs::path partPath;
    std::uint64_t requestedFrom;  ///< Range start asked for (0: the whole file)
    std::uint64_t partSize;       ///< bytes in the .part now
    std::uint64_t received = 0;   ///< body bytes received by this request
    std::FILE* out = nullptr;
    bool bodyStarted = false;
    bool resumed = false;  ///< the response continues the .part (206)

    // Headers of the latest response (a redirect chain has several).
    long status = 0;
    std::string reason;
    std::optional<std::uint64_t> contentLength;
    std::optional<std::uint64_t> rangeStart;
    std::optional<std::uint64_t> rangeTotal;

    Abort abort = Abort::None;
    std::string abortDetail;
    std::uint64_t announcedSize = 0;
    std::exception_ptr callbackError;

    /// Decides, at the first body byte, where the body goes. False (with `abort` set) when
    /// the response is unusable.
    bool startBody() {
        bodyStarted = true;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        std::optional<std::uint64_t> total;
        const char* mode = nullptr;
        if (status == 206) {
            if (rangeStart != requestedFrom) {
                abort = Abort::WrongRange;
                abortDetail = "answered a request for bytes from " + std::to_string(requestedFrom) +
                              " with a range starting at " +
                              (rangeStart ? std::to_string(*rangeStart) : "an unknown offset");
                return false;
            }
            total = rangeTotal;
            resumed = requestedFrom > 0;
            mode = "ab";
        } else if (status == 200) {
            // The whole file: either we asked for it, or the server ignores ranges. Either
            // way the .part starts over.
            total = contentLength;
            resumed = false;
            partSize = 0;
            mode = "wb";
        } else {
            abort = Abort::UnexpectedStatus;
            return false;
        }
        // Checked before opening, so that a wrong answer does not truncate a good .part.
        if (total && *total != file.bytes) {
            abort = Abort::WrongSize;
            announcedSize = *total;
            return false;
        }
        out = std::fopen(partPath.string().c_str(), mode);
        if (!out) {
            abort = Abort::WriteFailed;
            abortDetail =
                partPath.string() + ": cannot be opened for writing (" + systemReason() + ")";
            return false;
        }
        return true;
    }

    /// Closes the .part; false (with `abort` set) if buffered bytes could not be written.
    bool closeOut() {
        if (!out) return true;
        const int result = std::fclose(out);
        out = nullptr;
        if (result == 0) return true;
        if (abort == Abort::None) {
            abort = Abort::WriteFailed;
            abortDetail = partPath.string() + ": write error (" + systemReason() + ")";
        }
        return false;
    }

    static std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* self) {
        auto& attempt = *static_cast<Attempt*>(self);
        const std::string_view line = trim(std::string_view(data, size * count));
        if (line.substr(0, 5) == "HTTP/") {
            // A new response (after a redirect or "100 Continue"): forget the previous one.
            attempt.contentLength.reset();
            attempt.rangeStart.reset();
            attempt.rangeTotal.reset();
            const std::size_t codeAt = line.find(' ');
            const std::size_t reasonAt =
                codeAt == std::string_view::npos ? codeAt : line.find(' ', codeAt + 1);
            attempt.reason = reasonAt == std::string_view::npos
                                 ? std::string()
                                 : std::string(trim(line.substr(reasonAt + 1)));
            return size * count;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) return size * count;
        const std::string name = toLower(trim(line.substr(0, colon)));
        const std::string_view value = trim(line.substr(colon + 1));
        if (name == "content-length") {
            attempt.contentLength = parseNumber(value);
        } else if (name == "content-range" && value.substr(0, 6) == "bytes ") {
            // "bytes FIRST-LAST/TOTAL", TOTAL possibly "*".
            const std::string_view range = value.substr(6);
            const std::size_t dash = range.find('-');
            const std::size_t slash = range.find('/');
            if (dash != std::string_view::npos)
                attempt.rangeStart = parseNumber(range.substr(0, dash));
            if (slash != std::string_view::npos)
                attempt.rangeTotal = parseNumber(range.substr(slash + 1));
        }
        return size * count;
    }

    static std::size_t onBody(char* data, std::size_t size, std::size_t count, void* self) {
        auto& attempt = *static_cast<Attempt*>(self);
        const std::size_t bytes = size * count;
        if (!attempt.bodyStarted && !attempt.startBody()) return CURL_WRITEFUNC_ERROR;
        if (attempt.partSize + bytes > attempt.file.bytes) {
            // Stop early rather than download a file of unbounded size.
            attempt.abort = Abort::TooLarge;
            return CURL_WRITEFUNC_ERROR;
        }
        if (std::fwrite(data, 1, bytes, attempt.out) != bytes) {
            attempt.abort = Abort::WriteFailed;
            attempt.abortDetail =
                attempt.partPath.string() + ": write error (" + systemReason() + ")";
            return CURL_WRITEFUNC_ERROR;
        }
        attempt.partSize += bytes;
        attempt.received += bytes;
        return bytes;
    }

    static int onProgress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
        auto& attempt = *static_cast<Attempt*>(self);
        if (!attempt.options.progress) return 0;
        // Exceptions must not cross libcurl's C frames: keep it and rethrow after perform.
        try {
            if (!attempt.options.progress(attempt.partSize, attempt.file.bytes)) return 0;
            attempt.abort = Abort::Cancelled;
        } catch (...) {
            attempt.abort = Abort::CallbackThrew;
            attempt.callbackError = std::current_exception();
        }
        return 1;
    }
};

/// How one request ended.
enum class Verdict {
    Complete,  ///< the .part holds as many bytes as the catalog says: check it
    Retry,     ///< a transient failure: try this location again, resuming
    NextUrl,   ///< this location cannot deliver the file
};

struct AttemptResult {
    Verdict verdict;
    std::string problem;    ///< why, for Retry and NextUrl (without file name and URL)
    bool mismatch = false;  ///< the location serves other bytes than the catalog's
};

/// Why one location could not deliver the file.
struct Failure {
    std::string url;
    std::string problem;
    bool mismatch = false;
};

void setOption(CURL* curl, CURLoption option, long value) { curl_easy_setopt(curl, option, value); }

/// Options common to every request of one fetchFile() call.
void configure(CURL* curl, const FetchOptions& options, char* errorBuffer) {
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    // No signals: the default name resolver would use SIGALRM for its timeout, which is
    // not safe in a multi-threaded program.
    setOption(curl, CURLOPT_NOSIGNAL, 1L);
    // Data sets are often served through redirects (mirrors, "latest" links). The bytes are
    // checked by SHA-256, so a redirect cannot smuggle in a different file.
    setOption(curl, CURLOPT_FOLLOWLOCATION, 1L);
    setOption(curl, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500  // 7.85: the string form; the bit mask is deprecated
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    setOption(curl, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
    setOption(curl, CURLOPT_REDIR_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
    // HTTP errors end the request instead of saving an error page as data.
    setOption(curl, CURLOPT_FAILONERROR, 1L);
    setOption(curl, CURLOPT_CONNECTTIMEOUT, std::max(1L, options.connectTimeoutSeconds));
    if (options.lowSpeedTimeoutSeconds > 0) {
        setOption(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
        setOption(curl, CURLOPT_LOW_SPEED_TIME, options.lowSpeedTimeoutSeconds);
    }
    // No Accept-Encoding: ranges and sizes then refer to the file's own bytes.
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "pfa-explorer/" PFA_VERSION);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &Attempt::onHeader);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Attempt::onBody);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &Attempt::onProgress);
    setOption(curl, CURLOPT_NOPROGRESS, 0L);
}

/// Performs one request for `url` into the attempt's .part and classifies the outcome.
/// Throws for what no retry or other location can fix: cancellation, local write errors.
AttemptResult perform(Attempt& attempt, const std::string& url, char* errorBuffer) {
    CURL* curl = attempt.curl;
    errorBuffer[0] = '\0';
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &attempt);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &attempt);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &attempt);
    const std::string range = std::to_string(attempt.requestedFrom) + "-";
    curl_easy_setopt(curl, CURLOPT_RANGE, attempt.requestedFrom > 0 ? range.c_str() : nullptr);

    const CURLcode code = curl_easy_perform(curl);
    // An empty body never reaches the write callback; the response still decides the .part.
    if (code == CURLE_OK && !attempt.bodyStarted) attempt.startBody();
    attempt.closeOut();

    const DatasetFile& file = attempt.file;
    switch (attempt.abort) {
        case Abort::None:
            break;
        case Abort::Cancelled:
            throw FetchCancelled(file.name);
        case Abort::CallbackThrew:
            std::rethrow_exception(attempt.callbackError);
        case Abort::WriteFailed:
            throw InputError(attempt.abortDetail);
        case Abort::WrongSize:
            // The .part is untouched (checked before opening): a mirror may still fit it.
            return {Verdict::NextUrl,
                    "the server announces " + std::to_string(attempt.announcedSize) +
                        " bytes, expected " + std::to_string(file.bytes),
                    true};
        case Abort::TooLarge:
            removeFile(attempt.partPath);
            return {Verdict::NextUrl,
                    "more than " + std::to_string(file.bytes) + " bytes, expected " +
                        std::to_string(file.bytes) + " (the download was deleted)",
                    true};
        case Abort::WrongRange:
            removeFile(attempt.partPath);
            return {Verdict::Retry, "the server " + attempt.abortDetail};
        case Abort::UnexpectedStatus:
            return {Verdict::NextUrl, "unexpected HTTP status " + std::to_string(attempt.status)};
    }

    const std::string curlProblem =
        errorBuffer[0] != '\0' ? std::string(errorBuffer) : curl_easy_strerror(code);
    switch (code) {
        case CURLE_OK:
            if (attempt.partSize == file.bytes) return {Verdict::Complete, {}};
            // Unknown length and the connection closed early: resume.
            return {Verdict::Retry, "the connection closed after " +
                                        std::to_string(attempt.partSize) + " of " +
                                        std::to_string(file.bytes) + " bytes"};
        case CURLE_HTTP_RETURNED_ERROR: {
            long status = 0;
            curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
            std::string reason = attempt.reason.empty() ? reasonPhrase(status) : attempt.reason;
            const std::string problem =
                "HTTP " + std::to_string(status) + (reason.empty() ? "" : " ") + reason;
            if (status == 416) {
                // Our .part is not a prefix the server can continue: start over.
                removeFile(attempt.partPath);
                return {Verdict::Retry, problem};
            }
            const bool transient = status == 408 || status == 429 || status >= 500;
            return {transient ? Verdict::Retry : Verdict::NextUrl, problem};
        }
        // Interrupted or stalled transfers: worth another try.
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_GOT_NOTHING:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM:
            return {Verdict::Retry, curlProblem};
        // Unknown host, refused connection, TLS and protocol errors, too many redirects:
        // retrying the same location would fail the same way (after the same timeout).
        default:
            return {Verdict::NextUrl, curlProblem};
    }
}

/// Sleeps before a retry, still answering cancellation.
void pauseBeforeRetry(const DatasetFile& file, const FetchOptions& options, std::uint64_t done) {
    using Clock = std::chrono::steady_clock;
    const auto until = Clock::now() + std::chrono::milliseconds(options.retryPauseMilliseconds);
    for (auto now = Clock::now(); now < until; now = Clock::now()) {
        std::this_thread::sleep_for(
            std::min<Clock::duration>(until - now, std::chrono::milliseconds(50)));
        if (options.progress && options.progress(done, file.bytes)) throw FetchCancelled(file.name);
    }
}

void checkCatalogEntry(const DatasetFile& file) {
    if (file.name.empty() || file.name == "." || file.name == ".." ||
        file.name.find_first_of("/\\") != std::string::npos)
        throw InputError("invalid data file name '" + file.name + "'");
    if (file.urls.empty()) throw InputError("no download location for " + file.name);
    if (!isSha256Hex(file.sha256))
        throw InputError("no valid SHA-256 for " + file.name +
                         " in the catalog: refusing to download a file that cannot be verified");
}

}  // namespace

const char* toString(FetchOutcome outcome) {
    switch (outcome) {
        case FetchOutcome::AlreadyPresent:
            return "already present";
        case FetchOutcome::Downloaded:
            return "downloaded";
        case FetchOutcome::Resumed:
            return "resumed";
    }
    return "?";
}

FetchReport fetchFile(const DatasetFile& file, const std::string& directory,
                      const FetchOptions& options) {
    checkCatalogEntry(file);
    std::error_code error;
    fs::create_directories(directory, error);
    if (error)
        throw InputError("cannot create the directory " + directory + " (" + error.message() + ")");

    const fs::path finalPath = fs::path(directory) / file.name;
    const fs::path partPath = fs::path(directory) / (file.name + ".part");
    const fs::path key = fs::absolute(finalPath, error);
    const TargetLock lock((error ? finalPath : key).lexically_normal().string(), file, options);

    FetchReport report;
    report.path = finalPath.string();

    const VerifyReport present = verifyFile(file, directory);
    if (present.ok()) return report;  // AlreadyPresent
    const bool knownWrong = present.exists && (!present.sizeOk || !present.actualSha256.empty());
    if (knownWrong) {
        removeFile(finalPath);  // not the catalog's file; the download below replaces it
    } else if (present.exists || fs::is_directory(finalPath, error)) {
        throw InputError(present.message);  // unreadable, or a directory in the way
    }

    const auto finish = [&](FetchOutcome outcome) {
        fs::rename(partPath, finalPath, error);  // atomic replace on POSIX file systems
        if (error)
            throw InputError("cannot rename " + partPath.string() + " to " + finalPath.string() +
                             " (" + error.message() + ")");
        report.outcome = outcome;
        return report;
    };

    // A complete .part: an earlier call stopped between download and check.
    if (const auto partSize = fileSize(partPath); partSize && *partSize >= file.bytes) {
        if (*partSize == file.bytes && checkDownload(file, partPath).empty()) {
            report.resumedFrom = file.bytes;
            return finish(FetchOutcome::Resumed);
        }
        removeFile(partPath);
    }

    initialiseCurl();
    const CurlHandle curl(curl_easy_init());
    if (!curl) throw InputError("cannot start a download of " + file.name + " (libcurl)");
    char errorBuffer[CURL_ERROR_SIZE] = {};
    configure(curl.get(), options, errorBuffer);

    const int attempts = std::max(1, options.attempts);
    std::vector<Failure> failures;
    for (const std::string& url : file.urls) {
        Failure failure{url, {}, false};
        for (int attemptNumber = 1; attemptNumber <= attempts; ++attemptNumber) {
            Attempt attempt(curl.get(), file, options, partPath, fileSize(partPath).value_or(0));
            if (options.progress && options.progress(attempt.requestedFrom, file.bytes))
                throw FetchCancelled(file.name);
            ++report.attemptsUsed;
            const AttemptResult result = perform(attempt, url, errorBuffer);
            report.bytesTransferred += attempt.received;

            if (result.verdict == Verdict::Complete) {
                const std::string mismatch = checkDownload(file, partPath);
                if (mismatch.empty()) {
                    report.url = url;
                    report.resumedFrom = attempt.resumed ? attempt.requestedFrom : 0;
                    return finish(attempt.resumed ? FetchOutcome::Resumed
                                                  : FetchOutcome::Downloaded);
                }
                removeFile(partPath);
                failure.problem = mismatch + " (the download was deleted)";
                failure.mismatch = true;
                break;
            }
            failure.problem = result.problem;
            failure.mismatch = result.mismatch;
            if (result.verdict == Verdict::NextUrl) break;
            if (attemptNumber == attempts) {
                if (attempts > 1)
                    failure.problem += " (gave up after " + std::to_string(attempts) + " attempts)";
                break;
            }
            if (attempt.received == 0)
                pauseBeforeRetry(file, options, fileSize(partPath).value_or(0));
        }
        failures.push_back(failure);
    }

    std::string message;
    if (failures.size() == 1) {
        const Failure& only = failures.front();
        message = only.mismatch ? file.name + " downloaded from " + only.url +
                                      " is not the expected file: " + only.problem
                                : "download of " + file.name + " from " + only.url +
                                      " failed: " + only.problem;
    } else {
        message = "download of " + file.name + " failed from every location: ";
        for (std::size_t i = 0; i < failures.size(); ++i)
            message += (i > 0 ? "; " : "") + failures[i].url + ": " +
                       (failures[i].mismatch ? "not the expected file: " : "") +
                       failures[i].problem;
    }
    if (const auto kept = fileSize(partPath); kept && *kept > 0)
        message += "; " + std::to_string(*kept) + " of " + std::to_string(file.bytes) +
                   " bytes are kept in " + partPath.string() + " for the next try";
    throw InputError(message);
}

}  // namespace pfa::fetch
