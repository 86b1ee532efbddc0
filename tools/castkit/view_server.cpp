#include "view_server.hpp"

#ifndef _WIN32
#include <poll.h>
#include <sys/socket.h>
#endif

#include <algorithm>
#include <cerrno>
#include <string>
#include <string_view>

namespace castkit::cli {
namespace {

using std::chrono::milliseconds;
using Head = RequestHead;

// Peeked bytes stay readable until cpp-httplib reads them: a head still coming is looked at
// again this much later, not at every wake of the watcher.
constexpr milliseconds kLookAgain{20};
// The watcher's longest sleep: a connection accepted meanwhile joins its set at most this late.
constexpr milliseconds kLongestSleep{20};

#ifdef _WIN32
using PollEntry = WSAPOLLFD;
constexpr short kReadable = POLLRDNORM;
constexpr int kPeek = MSG_PEEK;
int poll_entries(PollEntry* entries, std::size_t count, int timeout_ms) {
    return WSAPoll(entries, static_cast<ULONG>(count), timeout_ms);
}
#else
using PollEntry = pollfd;
constexpr short kReadable = POLLIN;
constexpr int kPeek = MSG_PEEK | MSG_DONTWAIT;
int poll_entries(PollEntry* entries, std::size_t count, int timeout_ms) {
    int ready;
    do ready = ::poll(entries, static_cast<nfds_t>(count), timeout_ms);
    while (ready < 0 && errno == EINTR);
    return ready;
}
#endif

// 1 when `sock` has bytes to read (or its client closed it), 0 after `timeout_ms`, -1 on error.
int wait_readable(socket_t sock, int timeout_ms) {
    PollEntry entry{sock, kReadable, 0};
    return poll_entries(&entry, 1, timeout_ms);
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

void shutdown_socket(socket_t sock, bool both) {
#ifdef _WIN32
    ::shutdown(sock, both ? SD_BOTH : SD_SEND);
#else
    ::shutdown(sock, both ? SHUT_RDWR : SHUT_WR);
#endif
}

void close_connection(socket_t sock) {
    shutdown_socket(sock, true);
    httplib::detail::close_socket(sock);
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

int milliseconds_until(std::chrono::steady_clock::time_point when) {
    const auto left = std::chrono::ceil<milliseconds>(when - std::chrono::steady_clock::now());
    return static_cast<int>(std::max<long long>(left.count(), 0));
}

}  // namespace

// cpp-httplib's queue for the connections it accepts, run in its accepting thread: each joins
// the connections waiting for their heads at once (process_and_close_socket), and the workers
// take only those whose head has come.
class ViewServer::AcceptingQueue final : public httplib::TaskQueue {
  public:
    explicit AcceptingQueue(ViewServer& server) : server_(server) { server_.start_waiting(); }
    AcceptingQueue(const AcceptingQueue&) = delete;
    AcceptingQueue& operator=(const AcceptingQueue&) = delete;
    ~AcceptingQueue() override { server_.stop_waiting(); }
    void enqueue(std::function<void()> fn) override { fn(); }
    void shutdown() override { server_.stop_waiting(); }

  private:
    ViewServer& server_;
};

ViewServer::ViewServer(std::size_t workers, std::size_t most_waiting)
    : workers_(workers),
      most_waiting_(std::max<std::size_t>(most_waiting, 1)),
      peeked_(kMaxHeadBytes + 1) {
    new_task_queue = [this] { return new AcceptingQueue(*this); };
}

void ViewServer::start_waiting() {
    // cpp-httplib 0.11.4 listens with a backlog of 5: past that, the system drops connections
    // before they are accepted (a browser's among them, tried again only a second later), so
    // a flood kept the page from even reaching the server. The system's own bound instead.
    ::listen(svr_sock_, SOMAXCONN);
    stopping_ = false;
    pool_ = std::make_unique<httplib::ThreadPool>(workers_);
    watcher_ = std::thread([this] { watch_heads(); });
}

// Closes every connection still waiting for its head, and lets the workers finish theirs.
void ViewServer::stop_waiting() {
    if (!watcher_.joinable()) return;
    stopping_ = true;
    watcher_.join();
    {
        const std::lock_guard lock(mutex_);
        for (const Waiting& waiting : waiting_) close_connection(waiting.sock);
        waiting_.clear();
        live_ = 0;
    }
    pool_->shutdown();
    pool_.reset();
}

// In the accepting thread: the connection waits for its head with the others. When all the
// places are taken, it waits for one (accepting no other meanwhile) until a silent one has had
// its grace, at most kSilentGraceMilliseconds.
bool ViewServer::process_and_close_socket(socket_t sock) {
    std::unique_lock lock(mutex_);
    while (live_ >= most_waiting_ && !close_oldest_silent(Clock::now()))
        room_.wait_for(lock, milliseconds(kSilentGraceMilliseconds / 5));
    const auto now = Clock::now();
    waiting_.push_back({sock, now, now + milliseconds(kHeadMilliseconds), now});
    ++live_;
    return true;
}

// Makes room for one more waiting connection: shuts the oldest one that has sent nothing in its
// grace (the watcher, woken by it, closes it), or the oldest past its grace when every one has
// sent something; false when every one is still in its grace. A request whose head has come is
// never the one shut while a silent connection past its grace waits.
bool ViewServer::close_oldest_silent(Clock::time_point now) {
    Waiting* chosen = nullptr;
    for (Waiting& waiting : waiting_) {  // oldest first
        if (waiting.closing) continue;
        if (now - waiting.accepted < milliseconds(kSilentGraceMilliseconds)) break;
        if (waiting.seen == 0 && wait_readable(waiting.sock, 0) == 0) {
            chosen = &waiting;
            break;
        }
        if (chosen == nullptr) chosen = &waiting;
    }
    if (chosen == nullptr) return false;
    shutdown_socket(chosen->sock, true);
    chosen->closing = true;
    --live_;
    return true;
}

// The watcher's thread: polls every waiting connection at once, hands those whose head has come
// to the workers and closes those past their time, until the server stops.
void ViewServer::watch_heads() {
    std::vector<PollEntry> entries;
    while (!stopping_) {
        auto now = Clock::now();
        auto wake = now + kLongestSleep;
        entries.clear();
        {
            const std::lock_guard lock(mutex_);
            for (const Waiting& waiting : waiting_) {
                // A head not to be looked at yet asks for nothing (a closed one still wakes).
                const bool look = waiting.closing || waiting.next_look <= now;
                entries.push_back({waiting.sock, look ? kReadable : short{0}, 0});
                wake = std::min({wake, waiting.deadline, look ? wake : waiting.next_look});
            }
        }
        if (entries.empty())
            std::this_thread::sleep_until(wake);
        else
            poll_entries(entries.data(), entries.size(), milliseconds_until(wake));
        now = Clock::now();
        const std::lock_guard lock(mutex_);
        // Those accepted since the poll, past the entries, wait for the next one.
        const std::size_t live = live_;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < waiting_.size(); ++i) {
            if (i < entries.size() && settle(waiting_[i], entries[i].revents != 0, now)) continue;
            waiting_[kept++] = waiting_[i];
        }
        waiting_.resize(kept);
        if (live_ < live) room_.notify_one();
    }
}

// Whether `waiting` stops waiting: its head has come, or was refused, or its time is over, or
// it was closed. Called by the watcher with the lock held.
bool ViewServer::settle(Waiting& waiting, bool readable, Clock::time_point now) {
    if (waiting.closing) {  // shut to make room: already uncounted
        httplib::detail::close_socket(waiting.sock);
        return true;
    }
    Head head = readable ? look_at_head(waiting) : Head::Incomplete;
    if (head == Head::Incomplete && now >= waiting.deadline)
        head = waiting.seen > 0 ? Head::Late : Head::Silent;
    if (head == Head::Incomplete) return false;
    --live_;
    if (head == Head::Closed || head == Head::Silent)
        close_connection(waiting.sock);
    else
        hand_to_worker(waiting.sock, head);
    return true;
}

// What has come of the head of `waiting`, looked at without reading it (MSG_PEEK), so that
// cpp-httplib then reads it all.
Head ViewServer::look_at_head(Waiting& waiting) {
    const ssize_t size =
        httplib::detail::read_socket(waiting.sock, peeked_.data(), peeked_.size(), kPeek);
    waiting.next_look = Clock::now() + kLookAgain;
    if (size == 0) return Head::Closed;
    if (size < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? Head::Incomplete : Head::Closed;
    if (static_cast<std::size_t>(size) == waiting.seen) return Head::Incomplete;
    waiting.seen = static_cast<std::size_t>(size);
    return judge({peeked_.data(), waiting.seen});
}

void ViewServer::hand_to_worker(socket_t sock, Head head) {
    pool_->enqueue([this, sock, head] {
        if (head == Head::Complete)
            serve_one_request(sock);
        else
            refuse(sock, head);
        close_connection(sock);
    });
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
