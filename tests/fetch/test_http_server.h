#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace pfa::test {

/// A tiny HTTP/1.1 server for tests: listens on 127.0.0.1 at an ephemeral port, answers
/// GET requests one connection at a time on its own thread ("Connection: close" after each
/// response), and misbehaves on request. Files come from in-memory blobs or a directory.
/// It has no timeouts: what a test sees never depends on how fast the machine is.
/// The behaviour setters may be called at any time; they apply to the next requests.
class TestHttpServer {
public:
    /// One request as the server saw and answered it.
    struct Request {
        std::string path;                        ///< "/german.data"
        std::optional<std::uint64_t> rangeFrom;  ///< N of a "Range: bytes=N-" header
        int status = 0;                          ///< status of the answer
        std::uint64_t bodyBytes = 0;             ///< body bytes the answer carries (fewer than
                                                 ///< Content-Length when interrupted on purpose)
    };

    /// Starts listening; throws std::runtime_error when no socket can be opened.
    TestHttpServer();
    /// Stops the server thread and closes every socket (waits for the current response).
    ~TestHttpServer();
    TestHttpServer(const TestHttpServer&) = delete;
    TestHttpServer& operator=(const TestHttpServer&) = delete;

    /// Serves `bytes` at `path` ("/data/x.bin"); replaces an earlier blob at that path.
    void addBlob(const std::string& path, std::string bytes);
    /// Serves the files of `directory`: GET /NAME answers the file directory/NAME (blobs
    /// take precedence).
    void serveDirectory(const std::string& directory);
    /// Answers GET `from` with "302 Found" and `Location: to` (a path or an absolute URL).
    void addRedirect(const std::string& from, const std::string& to);

    /// "http://127.0.0.1:PORT" + path.
    std::string url(const std::string& path) const;
    /// The port chosen by the system.
    std::uint16_t port() const { return m_port; }

    /// true (default): "Range: bytes=N-" gets 206 with Content-Range; false: the range is
    /// ignored and the whole file is sent with 200, as some servers do.
    void setRangeSupport(bool supported);
    /// true: every file is served with one byte flipped (same size, wrong checksum).
    void setCorruption(bool corrupt);
    /// The next `requests` file responses announce the full length but close the connection
    /// after `afterBytes` body bytes (an interrupted transfer).
    void dropConnections(std::uint64_t afterBytes, int requests);
    /// The next `requests` file responses send `afterBytes` body bytes and then stall until
    /// the client goes away (or the server is destroyed): a slow link that the client cancels.
    void stallConnections(std::uint64_t afterBytes, int requests);
    /// The next `requests` requests (of any path) are answered with `status` and no file.
    void failRequests(int status, int requests);

    /// Requests received so far (including those answered with an error).
    int requestCount() const;
    /// Every request so far, in order.
    std::vector<Request> requests() const;

private:
    void run();
    void serve(int client);
    /// Waits until `client` is ready for `events` (or hung up); false when the server stops.
    bool waitFor(int client, short events);
    bool sendAll(int client, const char* data, std::size_t size);
    void waitForClientOrStop(int client);
    void record(const Request& request);

    int m_listener = -1;
    int m_wakeRead = -1;  ///< the destructor writes to the pipe to end the accept loop
    int m_wakeWrite = -1;
    std::uint16_t m_port = 0;

    mutable std::mutex m_mutex;  // guards everything below
    std::map<std::string, std::string> m_blobs;
    std::map<std::string, std::string> m_redirects;
    std::string m_directory;
    bool m_rangeSupport = true;
    bool m_corrupt = false;
    std::uint64_t m_interruptAfter = 0;
    int m_interruptsLeft = 0;
    bool m_interruptStalls = false;
    int m_failStatus = 0;
    int m_failuresLeft = 0;
    std::vector<Request> m_requests;

    std::thread m_thread;  // last: started once everything above is initialised
};

}  // namespace pfa::test
