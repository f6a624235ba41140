#include "test_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace pfa::test {

namespace {

std::runtime_error systemError(const std::string& what) {
    return std::runtime_error("test HTTP server: " + what + ": " + std::strerror(errno));
}

const char* reasonPhrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 206:
            return "Partial Content";
        case 302:
            return "Found";
        case 400:
            return "Bad Request";
        case 404:
            return "Not Found";
        case 416:
            return "Range Not Satisfiable";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            return "Status";
    }
}

std::string lowerCase(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

/// The N of "bytes=N-" or "bytes=N-M"; nothing for other forms.
std::optional<std::uint64_t> parseRangeStart(const std::string& value) {
    const std::string prefix = "bytes=";
    if (value.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    const char* first = value.data() + prefix.size();
    const char* last = value.data() + value.size();
    std::uint64_t start = 0;
    const auto [end, error] = std::from_chars(first, last, start);
    if (error != std::errc() || end == last || *end != '-') return std::nullopt;
    return start;
}

}  // namespace

TestHttpServer::TestHttpServer() {
    m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listener < 0) throw systemError("socket");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;  // ephemeral: parallel test runs never collide
    socklen_t length = sizeof address;
    if (::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(m_listener, 16) != 0 ||
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        const auto error = systemError("bind/listen");
        ::close(m_listener);
        throw error;
    }
    m_port = ntohs(address.sin_port);
    int wake[2];
    if (::pipe2(wake, O_CLOEXEC) != 0) {
        const auto error = systemError("pipe");
        ::close(m_listener);
        throw error;
    }
    m_wakeRead = wake[0];
    m_wakeWrite = wake[1];
    m_thread = std::thread([this] { run(); });
}

TestHttpServer::~TestHttpServer() {
    const char stop = 'x';
    while (::write(m_wakeWrite, &stop, 1) < 0 && errno == EINTR) {
    }
    m_thread.join();
    ::close(m_listener);
    ::close(m_wakeRead);
    ::close(m_wakeWrite);
}

void TestHttpServer::addBlob(const std::string& path, std::string bytes) {
    const std::lock_guard lock(m_mutex);
    m_blobs[path] = std::move(bytes);
}

void TestHttpServer::serveDirectory(const std::string& directory) {
    const std::lock_guard lock(m_mutex);
    m_directory = directory;
}

void TestHttpServer::addRedirect(const std::string& from, const std::string& to) {
    const std::lock_guard lock(m_mutex);
    m_redirects[from] = to;
}

std::string TestHttpServer::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(m_port) + path;
}

void TestHttpServer::setRangeSupport(bool supported) {
    const std::lock_guard lock(m_mutex);
    m_rangeSupport = supported;
}

void TestHttpServer::setCorruption(bool corrupt) {
    const std::lock_guard lock(m_mutex);
    m_corrupt = corrupt;
}

void TestHttpServer::dropConnections(std::uint64_t afterBytes, int requests) {
    const std::lock_guard lock(m_mutex);
    m_interruptAfter = afterBytes;
    m_interruptsLeft = requests;
    m_interruptStalls = false;
}

void TestHttpServer::stallConnections(std::uint64_t afterBytes, int requests) {
    const std::lock_guard lock(m_mutex);
    m_interruptAfter = afterBytes;
    m_interruptsLeft = requests;
    m_interruptStalls = true;
}

void TestHttpServer::failRequests(int status, int requests) {
    const std::lock_guard lock(m_mutex);
    m_failStatus = status;
    m_failuresLeft = requests;
}

int TestHttpServer::requestCount() const {
    const std::lock_guard lock(m_mutex);
    return static_cast<int>(m_requests.size());
}

std::vector<TestHttpServer::Request> TestHttpServer::requests() const {
    const std::lock_guard lock(m_mutex);
    return m_requests;
}

void TestHttpServer::run() {
    for (;;) {
        pollfd fds[2] = {{m_listener, POLLIN, 0}, {m_wakeRead, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        if (fds[1].revents != 0) return;  // the destructor asks to stop
        if ((fds[0].revents & POLLIN) == 0) continue;
        const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        serve(client);
        ::close(client);
    }
}

bool TestHttpServer::waitFor(int client, short events) {
    // No timeout: however slowly a busy machine lets the client read or write, the server
    // waits for it (a time limit here would make a test's outcome depend on the machine's
    // load). The destructor's wake-up ends any wait; a stuck test meets CTest's timeout.
    for (;;) {
        pollfd fds[2] = {{client, events, 0}, {m_wakeRead, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (fds[1].revents != 0) return false;  // the destructor asks to stop
        if (fds[0].revents != 0) return true;   // ready, or hung up (the next call says which)
    }
}

bool TestHttpServer::sendAll(int client, const char* data, std::size_t size) {
    while (size > 0) {
        if (!waitFor(client, POLLOUT)) return false;
        // MSG_NOSIGNAL: a client that hung up must not kill the test process with SIGPIPE.
        const ssize_t sent = ::send(client, data, std::min<std::size_t>(size, 64 * 1024),
                                    MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        if (sent <= 0) return false;
        data += sent;
        size -= static_cast<std::size_t>(sent);
    }
    return true;
}

void TestHttpServer::waitForClientOrStop(int client) {
    // The stall ends when the client hangs up (a cancelled transfer) or the server stops:
    // never after some time, which a slow client on a busy machine might need.
    waitFor(client, POLLIN);
}

void TestHttpServer::serve(int client) {
    std::string head;
    char buffer[4096];
    while (head.find("\r\n\r\n") == std::string::npos) {
        if (head.size() > 64 * 1024) return;
        if (!waitFor(client, POLLIN)) return;
        const ssize_t got = ::recv(client, buffer, sizeof buffer, MSG_DONTWAIT);
        if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        if (got <= 0) return;
        head.append(buffer, static_cast<std::size_t>(got));
    }

    // "GET /path HTTP/1.1" and the headers we care about.
    std::istringstream lines(head.substr(0, head.find("\r\n\r\n")));
    std::string requestLine;
    std::getline(lines, requestLine);
    std::istringstream requestWords(requestLine);
    std::string method, target;
    requestWords >> method >> target;
    Request request;
    request.path = target;
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        if (lowerCase(line.substr(0, colon)) == "range") request.rangeFrom = parseRangeStart(value);
    }

    // Decide the whole response under the lock, then send without it.
    std::string headers;
    std::string body;
    std::uint64_t bodyLimit = 0;
    bool stall = false;
    bool interrupted = false;
    {
        const std::lock_guard lock(m_mutex);
        std::optional<std::string> content;
        if (const auto blob = m_blobs.find(target); blob != m_blobs.end()) {
            content = blob->second;
        } else if (!m_directory.empty() && target.size() > 1 && target[0] == '/' &&
                   target.find("..") == std::string::npos) {
            std::ifstream file(m_directory + target, std::ios::binary);
            if (file)
                content.emplace(std::istreambuf_iterator<char>(file),
                                std::istreambuf_iterator<char>());
        }

        if (method != "GET") {
            request.status = 400;
        } else if (m_failuresLeft > 0) {
            --m_failuresLeft;
            request.status = m_failStatus;
        } else if (const auto redirect = m_redirects.find(target); redirect != m_redirects.end()) {
            request.status = 302;
            headers = "Location: " + redirect->second + "\r\n";
        } else if (!content) {
            request.status = 404;
        } else {
            std::string bytes = std::move(*content);
            if (m_corrupt && !bytes.empty()) bytes[bytes.size() / 2] ^= 0x01;
            const std::uint64_t size = bytes.size();
            if (request.rangeFrom && m_rangeSupport) {
                const std::uint64_t from = *request.rangeFrom;
                if (from >= size) {
                    request.status = 416;
                    headers = "Content-Range: bytes */" + std::to_string(size) + "\r\n";
                } else {
                    request.status = 206;
                    headers = "Content-Range: bytes " + std::to_string(from) + "-" +
                              std::to_string(size - 1) + "/" + std::to_string(size) + "\r\n";
                    body = bytes.substr(from);
                }
            } else {
                request.status = 200;
                body = std::move(bytes);
            }
            if ((request.status == 200 || request.status == 206) && m_interruptsLeft > 0) {
                --m_interruptsLeft;
                interrupted = true;
                stall = m_interruptStalls;
                bodyLimit = std::min<std::uint64_t>(m_interruptAfter, body.size());
            }
        }
        if (request.status != 200 && request.status != 206)
            body = request.status == 302 ? "" : std::string(reasonPhrase(request.status)) + "\n";
        request.bodyBytes = interrupted ? bodyLimit : body.size();
        // Recorded before anything is sent: once the client has its answer, the count is right.
        m_requests.push_back(request);
    }

    const std::string status =
        "HTTP/1.1 " + std::to_string(request.status) + " " + reasonPhrase(request.status) + "\r\n";
    const std::string response =
        status + headers + "Content-Length: " + std::to_string(body.size()) +
        "\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
    if (!sendAll(client, response.data(), response.size())) return;
    const std::size_t bodyBytes = static_cast<std::size_t>(request.bodyBytes);
    if (!sendAll(client, body.data(), bodyBytes)) return;
    if (stall) waitForClientOrStop(client);
    // An orderly close (FIN): after an interrupted body the client sees a short transfer.
    ::shutdown(client, SHUT_WR);
}

}  // namespace pfa::test
