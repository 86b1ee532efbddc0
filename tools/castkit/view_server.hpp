// The web server of `castkit view`: cpp-httplib's, with every request's head bounded before
// cpp-httplib reads it, and connections that send nothing kept off its workers
// (docs/security.md, "castkit view").
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace castkit::cli {

// What a connection's first bytes are, as far as they have come.
enum class RequestHead { Complete, Incomplete, TooLarge, RequestLineTooLong, Late, Silent, Closed };

// cpp-httplib 0.11.4 reads a request line and any number of header lines into memory before
// castkit sees the request (20 MB of `a: b` lines took 370 MiB), and its read timeout counts
// per read, so a client sending a byte every few seconds keeps a worker. This server takes one
// request per connection, and hands it to cpp-httplib only once its whole head is in the
// socket's buffer (looked at, not read) within the bounds below, in time; a head that is not
// is refused and the connection closed.
// A connection waits for its head in one poll() set, not on a worker: the workers serve only
// connections whose head has come. At most `most_waiting` connections wait at once; to take
// one more, the server closes the oldest waiting one that has sent nothing for
// kSilentGraceMilliseconds, and until one has, stops accepting (the system queues the next
// connections). So a client opening connections that stay silent, however many and however
// fast, never keeps out a request whose head comes within that grace (a browser's).
class ViewServer final : public httplib::Server {
  public:
    static constexpr std::size_t kMaxHeadBytes = 16 * 1024;  // as Node.js's http server
    static constexpr std::size_t kMaxHeaderLines = 100;      // as Apache's LimitRequestFields
    static constexpr std::size_t kMaxRequestLineBytes = 8 * 1024;
    static constexpr int kHeadMilliseconds = 2000;  // a browser sends its head at once
    static constexpr int kSilentGraceMilliseconds = 50;

    ViewServer(std::size_t workers, std::size_t most_waiting);

  private:
    using Clock = std::chrono::steady_clock;
    // A connection waiting for its head.
    struct Waiting {
        socket_t sock;
        Clock::time_point accepted;
        Clock::time_point deadline;   // kHeadMilliseconds after it was accepted
        Clock::time_point next_look;  // peeked bytes stay readable: not looked at again before
        std::size_t seen = 0;         // bytes of its head that have come
        bool closing = false;         // shut as the oldest silent one, for the watcher to close
    };
    class AcceptingQueue;

    bool process_and_close_socket(socket_t sock) override;
    void start_waiting();
    void stop_waiting();
    bool close_oldest_silent(Clock::time_point now);
    void watch_heads();
    bool settle(Waiting& waiting, bool readable, Clock::time_point now);
    RequestHead look_at_head(Waiting& waiting);
    void hand_to_worker(socket_t sock, RequestHead head);
    bool serve_one_request(socket_t sock);

    std::size_t workers_;
    std::size_t most_waiting_;
    std::unique_ptr<httplib::ThreadPool> pool_;
    std::thread watcher_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;              // guards waiting_ and live_
    std::condition_variable room_;  // live_ went down
    std::vector<Waiting> waiting_;  // in the order they were accepted
    std::size_t live_ = 0;          // of waiting_, those not closed as the oldest silent one
    std::vector<char> peeked_;      // the watcher's look at a head
};

}  // namespace castkit::cli
