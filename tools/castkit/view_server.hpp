// The web server of `castkit view`: cpp-httplib's, with every request's head bounded before
// cpp-httplib reads it (docs/security.md, "castkit view").
#pragma once

#include <httplib.h>

#include <atomic>
#include <cstddef>

namespace castkit::cli {

// cpp-httplib 0.11.4 reads a request line and any number of header lines into memory before
// castkit sees the request (20 MB of `a: b` lines took 370 MiB), and its read timeout counts
// per read, so a client sending a byte every few seconds keeps a worker. This server takes one
// request per connection, and hands it to cpp-httplib only once its whole head is in the
// socket's buffer (looked at, not read) within the bounds below, in time; a head that is not
// is refused and the connection closed. Half of the workers at most wait for heads at once: a
// connection that comes while they all wait gets its head looked at only briefly, so slow
// clients never keep every worker.
class ViewServer final : public httplib::Server {
  public:
    static constexpr std::size_t kMaxHeadBytes = 16 * 1024;  // as Node.js's http server
    static constexpr std::size_t kMaxHeaderLines = 100;      // as Apache's LimitRequestFields
    static constexpr std::size_t kMaxRequestLineBytes = 8 * 1024;
    static constexpr int kHeadMilliseconds = 2000;        // a browser sends its head at once
    static constexpr int kCrowdedHeadMilliseconds = 200;  // when half the workers wait for heads

    explicit ViewServer(std::size_t workers);

  private:
    bool process_and_close_socket(socket_t sock) override;
    bool serve_one_request(socket_t sock);

    std::size_t head_waiters_;
    std::atomic<std::size_t> waiting_{0};
};

}  // namespace castkit::cli
