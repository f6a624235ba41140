#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/data/dataset_file.h"
#include "core/util/error.h"

namespace pfa::fetch {

/// How fetchFile() behaves on the network. The defaults suit real downloads.
struct FetchOptions {
    /// Called often during a transfer (from the calling thread) with the bytes of the file
    /// present so far — including what an earlier, interrupted download left — and the
    /// catalog size. Return true to cancel: fetchFile() then throws FetchCancelled and keeps
    /// the partial download so that a later call resumes it. May be empty.
    std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
    /// Requests per download location before giving up on it. A dropped connection or a
    /// short read is retried (resuming where it stopped), as are HTTP 408, 429 and 5xx.
    /// Errors that a retry cannot fix (HTTP 404, unknown host, refused connection) move on
    /// to the next location at once.
    int attempts = 3;
    /// Limit on establishing a connection (name lookup, TCP and TLS handshakes).
    long connectTimeoutSeconds = 20;
    /// A transfer that receives nothing for this long is treated as dropped (and retried).
    /// There is no limit on the total duration: large files on slow links must finish.
    long lowSpeedTimeoutSeconds = 60;
    /// Pause before retrying an attempt that received no data (a server error, a
    /// stall), so as not to hammer a struggling server. An attempt that did make progress
    /// is resumed at once. The pause stays responsive to cancellation.
    long retryPauseMilliseconds = 1000;
};

/// How fetchFile() obtained the file.
enum class FetchOutcome {
    AlreadyPresent,  ///< the verified file was already there; nothing was transferred
    Downloaded,      ///< the whole file was transferred from its first byte
    Resumed,         ///< the transfer continued a partial download (`name.part`), from an
                     ///< earlier call or an earlier attempt of this one
};

/// What fetchFile() did.
struct FetchReport {
    FetchOutcome outcome = FetchOutcome::AlreadyPresent;
    std::string path;                    ///< directory/name: the verified file
    std::uint64_t bytesTransferred = 0;  ///< body bytes received by this call, all attempts
    int attemptsUsed = 0;                ///< HTTP requests made by this call (0 if present)
    std::string url;                     ///< the location that completed the file (empty if
                                         ///< nothing had to be transferred)
    std::uint64_t resumedFrom = 0;       ///< offset where the completing transfer started
};

/// Thrown when FetchOptions::progress asks to stop. It is an InputError with the message
/// "download of NAME cancelled"; catch it first to tell a cancellation from a failure.
class FetchCancelled : public InputError {
public:
    explicit FetchCancelled(const std::string& name)
        : InputError("download of " + name + " cancelled") {}
};

/// Makes `directory/file.name` hold exactly the catalog's bytes, downloading them if needed.
///
/// - Creates `directory` (and its parents) when missing.
/// - If the file is already there with the right size and SHA-256, returns AlreadyPresent
///   without touching the network. A file with the wrong size or checksum is deleted (it is
///   not the catalog's file) and downloaded again.
/// - Downloads into `directory/name.part`. An existing, shorter `.part` is resumed with an
///   HTTP `Range: bytes=N-` request; a server that ignores the range (answers 200 instead of
///   206) gets the whole file from the start instead. A dropped connection or short read
///   is retried up to FetchOptions::attempts times per location, resuming where it stopped.
///   Redirects are followed (at most 10, HTTP and HTTPS only).
/// - Tries `file.urls` in order until one delivers the right bytes.
/// - Checks size and SHA-256 of the complete download and only then renames `.part` to the
///   final name (an atomic replace): a file under the final name is always verified.
///
/// Throws InputError with a message naming the file and the URL when no location delivers
/// the file: HTTP errors ("HTTP 404 Not Found"), unreachable hosts, and downloads that do
/// not match the catalog (the message gives expected and actual SHA-256 or size; the bad
/// download is deleted). Throws FetchCancelled on cancellation (the `.part` is kept), and
/// InputError when the directory or file cannot be written.
///
/// Thread-safe: may run on any thread, several at once. Concurrent calls for the same
/// target file within one process are serialised (the second one then usually finds the
/// file present). Initialises libcurl once per process on first use.
FetchReport fetchFile(const DatasetFile& file, const std::string& directory,
                      const FetchOptions& options = {});

/// "already present", "downloaded" or "resumed".
const char* toString(FetchOutcome outcome);

}  // namespace pfa::fetch
