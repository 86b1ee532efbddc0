#include "view_server.hpp"

#ifndef _WIN32
#include <poll.h>
#include <sys/socket.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>

namespace castkit::cli {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// What a connection's first bytes are, as far as they have come.
enum class Head { Complete, Incomplete, TooLarge, RequestLineTooLong, Late, Silent, Closed };

// 1 when `sock` has bytes to read (or its client closed it), 0 after `timeout_ms`, -1 on error.
int wait_readable(socket_t sock, int timeout_ms) {
#ifdef _WIN32
    WSAPOLLFD entry{sock, POLLRDNORM, 0};
    return WSAPoll(&entry, 1, timeout_ms);
#else
    pollfd entry{sock, POLLIN, 0};
    int ready;
    do ready = ::poll(&entry, 1, timeout_ms);
    while (ready < 0 && errno == EINTR);
    return ready;
#endif
}

// The head is complete at the first empty line, which is where cpp-httplib stops reading it:
// the first "\n\r\n" (it ends each line at '\n', the headers at a line of "\r\n").
Head judge(std::string_view bytes) {
    const std::size_t end = bytes.find("\n\r\n");
    const std::string_view head = end == std::string_view::npos ? bytes : bytes.substr(0, end + 3);
    if (std::min(head.find('\n'), head.size()) > ViewServer::kMaxRequestLineBytes)
        return Head::RequestLineTooLong;
    // The request line, the header lines and the empty line each end with '\n'.
    const auto lines = static_cast<std::size_t>(std::count(head.begin(), head.end(), '\n'));
    if (head.size() > ViewServer::kMaxHeadBytes || lines > ViewServer::kMaxHeaderLines + 2)
        return Head::TooLarge;
    return end == std::string_view::npos ? Head::Incomplete : Head::Complete;
}

// Waits until the request head is in the socket's buffer, peeking (MSG_PEEK) so that
// cpp-httplib then reads it all; gives up at `deadline`, or when the server stops.
Head await_head(socket_t sock, Clock::time_point deadline, const std::atomic<socket_t>& server) {
    std::string peeked(ViewServer::kMaxHeadBytes + 1, '\0');
    ssize_t seen = 0;
    while (server != INVALID_SOCKET) {
        const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return seen > 0 ? Head::Late : Head::Silent;
        const int ready =
            wait_readable(sock, static_cast<int>(std::min<long long>(left.count(), 100)));
        if (ready < 0) return Head::Closed;
        if (ready == 0) continue;
        const ssize_t size =
            httplib::detail::read_socket(sock, peeked.data(), peeked.size(), MSG_PEEK);
        if (size <= 0) return Head::Closed;
        if (size == seen) {
            // Peeked bytes stay unread, so the socket stays readable: wait for more, not spin.
            std::this_thread::sleep_for(milliseconds(10));
            continue;
        }
        seen = size;
        const Head head = judge({peeked.data(), static_cast<std::size_t>(size)});
        if (head != Head::Incomplete) return head;
    }
    return Head::Closed;
}

void shutdown_socket(socket_t sock, bool both) {
#ifdef _WIN32
    ::shutdown(sock, both ? SD_BOTH : SD_SEND);
#else
    ::shutdown(sock, both ? SHUT_RDWR : SHUT_WR);
#endif
}

// Answers a refused head, then drops what the client had sent (up to 1 MiB): closing a socket
// with unread bytes resets the connection, which can destroy the answer before it is read.
void refuse(socket_t sock, Head head) {
    const char* answer = head == Head::TooLarge             ? "431 Request Header Fields Too Large"
                         : head == Head::RequestLineTooLong ? "414 URI Too Long"
                         : head == Head::Late               ? "408 Request Timeout"
                                                            : nullptr;
    if (answer == nullptr) return;  // nothing came (or the client left): nothing to answer
    const std::string text =
        std::string("HTTP/1.1 ") + answer + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    httplib::detail::send_socket(sock, text.data(), text.size(), 0);
    shutdown_socket(sock, false);
    char dropped[4096];
    for (std::size_t total = 0; total < (std::size_t{1} << 20) && wait_readable(sock, 0) > 0;) {
        const ssize_t size = httplib::detail::read_socket(sock, dropped, sizeof dropped, 0);
        if (size <= 0) break;
        total += static_cast<std::size_t>(size);
    }
}

// Counts the connections waiting for their head while it lives.
class Waiting {
  public:
    Waiting(std::atomic<std::size_t>& count, std::size_t most)
        : count_(count), crowded_(count.fetch_add(1) >= most) {}
    Waiting(const Waiting&) = delete;
    Waiting& operator=(const Waiting&) = delete;
    ~Waiting() { count_.fetch_sub(1); }
    Clock::time_point deadline() const {
        const int patience =
            crowded_ ? ViewServer::kCrowdedHeadMilliseconds : ViewServer::kHeadMilliseconds;
        return Clock::now() + milliseconds(patience);
    }

  private:
    std::atomic<std::size_t>& count_;
    bool crowded_;
};

}  // namespace

ViewServer::ViewServer(std::size_t workers) : head_waiters_(std::max<std::size_t>(workers / 2, 1)) {
    new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
}

bool ViewServer::process_and_close_socket(socket_t sock) {
    Head head;
    {
        const Waiting waiting(waiting_, head_waiters_);
        head = await_head(sock, waiting.deadline(), svr_sock_);
    }
    const bool served = head == Head::Complete && serve_one_request(sock);
    if (head != Head::Complete) refuse(sock, head);
    shutdown_socket(sock, true);
    httplib::detail::close_socket(sock);
    return served;
}

// One request, as cpp-httplib serves each of a connection's, and the connection closed after
// it (close_connection): cpp-httplib would read a next request's head without the bounds above.
// process_client_socket is the one helper the library's header declares that wraps a socket
// in its SocketStream (buffered reads, the read and write timeouts); "client" is only its name.
bool ViewServer::serve_one_request(socket_t sock) {
    return httplib::detail::process_client_socket(
        sock, read_timeout_sec_, read_timeout_usec_, write_timeout_sec_, write_timeout_usec_,
        [this](httplib::Stream& stream) {
            bool closed_by_client = false;
            return process_request(stream, true, closed_by_client, nullptr);
        });
}

}  // namespace castkit::cli
