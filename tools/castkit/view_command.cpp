// view: serves the viewer page on 127.0.0.1 for the files named on the command line (a model
// and its animations, merged as convert merges them), until Ctrl-C. The page and its script are
// compiled into the CLI (viewer/build.mjs); the scene comes from viewer/session, which the
// WebAssembly page runs too.
#include <fmt/format.h>
#include <httplib.h>

#include <atomic>
#include <castkit/formats.hpp>
#include <chrono>
#include <csignal>
#include <mutex>
#include <thread>

#include "../../src/platform/platform.hpp"
#include "../../viewer/session/session.hpp"
#include "commands.hpp"

namespace castkit::cli {
namespace viewer_assets {
extern const unsigned char index_html[];
extern const unsigned long long index_html_size;
extern const unsigned char viewer_js[];
extern const unsigned long long viewer_js_size;
}  // namespace viewer_assets

namespace {

struct ViewOptions {
    std::vector<std::string> files;
    int port = 0;
    bool no_open = false;
};

// Set by SIGINT/SIGTERM; the main thread polls it (stopping the server is not signal-safe).
volatile std::sig_atomic_t stop_requested = 0;
extern "C" void request_stop(int) { stop_requested = 1; }

std::string asset(const unsigned char* bytes, unsigned long long size) {
    return {reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size)};
}

// The scene, shared by the server's worker threads.
struct SharedSession {
    std::mutex mutex;
    viewer::Session session;
    std::filesystem::path drop_base;  // where dropped files' textures are looked up
};

// Only this machine's pages may talk to the server: a Host other than 127.0.0.1:PORT or
// localhost:PORT (a DNS-rebinding page) is refused, and so is an upload that is not
// application/octet-stream, which a page of another site cannot send without a preflight that
// this server never answers.
void refuse_other_sites(httplib::Server& server, int port) {
    server.set_pre_routing_handler(
        [port](const httplib::Request& request, httplib::Response& response) {
            const std::string host = request.get_header_value("Host");
            const bool local = host == fmt::format("127.0.0.1:{}", port) ||
                               host == fmt::format("localhost:{}", port);
            const bool upload_ok =
                request.method != "POST" ||
                request.get_header_value("Content-Type") == "application/octet-stream";
            if (local && upload_ok) return httplib::Server::HandlerResponse::Unhandled;
            response.status = 403;
            response.set_content("castkit view serves this machine's browser only", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        });
}

void add_routes(httplib::Server& server, SharedSession& shared) {
    server.Get("/", [](const httplib::Request&, httplib::Response& response) {
        response.set_content(asset(viewer_assets::index_html, viewer_assets::index_html_size),
                             "text/html; charset=utf-8");
    });
    server.Get("/viewer.js", [](const httplib::Request&, httplib::Response& response) {
        response.set_content(asset(viewer_assets::viewer_js, viewer_assets::viewer_js_size),
                             "text/javascript; charset=utf-8");
    });
    server.Get("/api/scene", [&shared](const httplib::Request&, httplib::Response& response) {
        std::lock_guard lock(shared.mutex);
        response.set_content(shared.session.scene_json(), "application/json");
    });
    server.Get("/api/scene.glb", [&shared](const httplib::Request&, httplib::Response& response) {
        std::lock_guard lock(shared.mutex);
        auto glb = shared.session.glb();
        if (!glb) {
            response.status = 422;
            response.set_content(glb.error().to_string(), "text/plain; charset=utf-8");
            return;
        }
        response.set_content(reinterpret_cast<const char*>(glb->data()), glb->size(),
                             "model/gltf-binary");
    });
    // A file dropped on the page: its bytes, its name in the query.
    server.Post(
        "/api/files", [&shared](const httplib::Request& request, httplib::Response& response) {
            const std::string name = request.get_param_value("name");
            auto owned = std::make_shared<std::string>(request.body);
            const cast::SharedBytes bytes{std::as_bytes(std::span(owned->data(), owned->size())),
                                          owned};
            std::lock_guard lock(shared.mutex);
            auto added = shared.session.add(name, bytes, shared.drop_base);
            if (!added) {
                response.status = 422;
                response.set_content(added.error().to_string(), "text/plain; charset=utf-8");
            }
        });
}

// Adds each named file; one that cannot be read is reported here and in the page.
void add_files(SharedSession& shared, const std::vector<std::string>& files, int& exit_code) {
    for (const std::string& file : files) {
        const std::filesystem::path path = platform::path_from_utf8(file);
        auto bytes = formats::read_input(path);
        auto added = bytes ? shared.session.add(file, *bytes, path.parent_path())
                           : Expected<void>(make_error(bytes.error()));
        if (!added) {
            fmt::print(stderr, "{}\n", added.error().to_string());
            shared.session.record_error(added.error().to_string());
            fail(exit_code, kInvalidInput);
        }
    }
    if (!files.empty()) shared.drop_base = platform::path_from_utf8(files.front()).parent_path();
}

int serve(const ViewOptions& options, int& exit_code) {
    SharedSession shared;
    add_files(shared, options.files, exit_code);
    httplib::Server server;
    server.set_payload_max_length(std::size_t{1} << 31);
    add_routes(server, shared);
    const int port = options.port == 0
                         ? server.bind_to_any_port("127.0.0.1")
                         : (server.bind_to_port("127.0.0.1", options.port) ? options.port : -1);
    if (port < 0) {
        fmt::print(stderr, "castkit view: cannot listen on 127.0.0.1:{}\n", options.port);
        return kInvalidInput;
    }
    refuse_other_sites(server, port);
    const std::string url = fmt::format("http://127.0.0.1:{}/", port);
    fmt::print("castkit view: {} (Ctrl-C stops)\n", url);
    std::fflush(stdout);
    if (!options.no_open && !platform::open_in_browser(url))
        fmt::print(stderr, "castkit view: could not open a browser; open {} yourself\n", url);
    std::signal(SIGINT, request_stop);
    std::signal(SIGTERM, request_stop);
    std::thread listener([&server] { server.listen_after_bind(); });
    while (stop_requested == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server.stop();
    listener.join();
    return kSuccess;
}

}  // namespace

void register_view_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<ViewOptions>();
    CLI::App* view = app.add_subcommand(
        "view", "Show files in the browser: a model and its animations (serves 127.0.0.1 only)");
    view->add_option("files", options->files, "A model and its animation files")->required();
    view->add_option("--port", options->port, "Port to listen on (default: a free one)")
        ->check(CLI::Range(0, 65535));
    view->add_flag("--no-open", options->no_open, "Print the address without opening a browser");
    view->callback([options, &exit_code] {
        int files_status = kSuccess;
        const int served = serve(*options, files_status);
        fail(exit_code, static_cast<ExitCode>(served));
        fail(exit_code, static_cast<ExitCode>(files_status));
    });
}

}  // namespace castkit::cli
