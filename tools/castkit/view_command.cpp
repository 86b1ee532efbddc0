// view: serves the viewer page on 127.0.0.1 for the files named on the command line (a model
// and its animations, merged as convert merges them), until Ctrl-C. The page and its script are
// compiled into the CLI (viewer/build.mjs); the scene comes from viewer/session, which the
// WebAssembly page runs too. Who may ask what, and within which limits: docs/security.md,
// "castkit view".
#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <castkit/platform.hpp>
#include <castkit/registry.hpp>
#include <charconv>
#include <chrono>
#include <csignal>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "commands.hpp"
#include "program/program.hpp"
#include "session/session.hpp"
#include "view_server.hpp"

namespace castkit::cli {
namespace viewer_assets {
extern const unsigned char index_html[];
extern const unsigned long long index_html_size;
extern const unsigned char viewer_js[];
extern const unsigned long long viewer_js_size;
}  // namespace viewer_assets

namespace {

namespace fs = std::filesystem;

// The server's bounds (docs/security.md): the largest upload, the connections served at once,
// and how long a connection may keep a worker without sending (or taking) a byte once its
// request's head has come (ViewServer bounds the head).
constexpr std::uint64_t kMaxUploadBytes = std::uint64_t{1} << 30;
constexpr std::size_t kWorkers = 64;
// Connections that may wait for their heads at once (ViewServer): as many as the open-file limit
// leaves beside the workers' sockets and kOtherFiles (the files the server reads, its standard
// streams), at most kMostWaiting.
constexpr std::size_t kMostWaiting = 1024;
constexpr std::size_t kOtherFiles = 128;
constexpr time_t kTimeoutSeconds = 5;

struct ViewOptions {
    std::vector<std::string> files;
    int port = 0;
    bool no_open = false;
    bool no_gpu_instancing = false;
};

// Set by SIGINT/SIGTERM; the main thread polls it (stopping the server is not signal-safe).
volatile std::sig_atomic_t stop_requested = 0;
extern "C" void request_stop(int) { stop_requested = 1; }

std::string asset(const unsigned char* bytes, unsigned long long size) {
    return {reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size)};
}

// `words` × 32 random bits from the operating system's source, as hex.
std::string random_hex(int words) {
    std::random_device device;
    std::string hex;
    for (int i = 0; i < words; ++i) hex += fmt::format("{:08x}", device());
    return hex;
}

// Whether `a` equals `b`, in a time that depends on their lengths only, so that answer times
// do not tell a client how much of a guessed token was right.
bool same_secret(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

// The value of cookie `name` in the request's Cookie header ("a=1; b=2"), or "".
std::string cookie(const httplib::Request& request, std::string_view name) {
    const std::string header = request.get_header_value("Cookie");
    std::string_view rest = header;
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find(';'), rest.size());
        std::string_view pair = rest.substr(0, end);
        rest.remove_prefix(std::min(end + 1, rest.size()));
        while (pair.starts_with(' ')) pair.remove_prefix(1);
        if (pair.size() > name.size() && pair.starts_with(name) && pair[name.size()] == '=')
            return std::string(pair.substr(name.size() + 1));
    }
    return {};
}

// Who may talk to the server: this machine's browser, addressing it as 127.0.0.1 or localhost
// at its port, with the token of the address it printed (in the query, or in the cookie the
// page got with it).
struct Access {
    int port = 0;
    std::string token = random_hex(8);  // 256 bits

    std::string cookie_name() const { return fmt::format("castkit-view-{}", port); }
    std::string url() const { return fmt::format("http://127.0.0.1:{}/?token={}", port, token); }
    bool local_host(const httplib::Request& request) const {
        const std::string host = request.get_header_value("Host");
        return host == fmt::format("127.0.0.1:{}", port) ||
               host == fmt::format("localhost:{}", port);
    }
    bool has_token(const httplib::Request& request) const {
        return same_secret(request.get_param_value("token"), token) ||
               same_secret(cookie(request, cookie_name()), token);
    }
};

std::optional<std::uint64_t> content_length(const httplib::Request& request) {
    if (!request.has_header("Content-Length")) return std::nullopt;
    const std::string text = request.get_header_value("Content-Length");
    std::uint64_t length = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), length);
    if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return length;
}

struct Refusal {
    int status;
    const char* text;  // the answer's body, if any
};

// Why a request is refused before its body is read, if it is. A foreign Host is a
// DNS-rebinding page; an upload that is not application/octet-stream is one a page of another
// site could send without a preflight (which this server never answers). An upload must say
// its length, within kMaxUploadBytes, and come uncompressed: cpp-httplib would inflate a gzip
// body past any limit on its compressed length.
std::optional<Refusal> refusal(const httplib::Request& request, const Access& access) {
    if (!access.local_host(request))
        return Refusal{403, "castkit view serves this machine's browser only"};
    if (!access.has_token(request))
        return Refusal{403, "castkit view needs the token of the address it printed"};
    // No text: cpp-httplib would cut it into the ranges asked for.
    if (request.ranges.size() > 1) return Refusal{416, nullptr};
    if (request.method != "POST") return std::nullopt;
    if (request.get_header_value("Content-Type") != "application/octet-stream")
        return Refusal{403, "castkit view takes uploads as application/octet-stream only"};
    const std::string encoding = request.get_header_value("Content-Encoding");
    if (!encoding.empty() && encoding != "identity")
        return Refusal{415, "castkit view takes uploads uncompressed"};
    const std::optional<std::uint64_t> length = content_length(request);
    if (!length || request.has_header("Transfer-Encoding"))
        return Refusal{411, "castkit view takes uploads with a Content-Length"};
    if (*length > kMaxUploadBytes) return Refusal{413, "castkit view takes uploads of up to 1 GiB"};
    return std::nullopt;
}

void refuse_others(httplib::Server& server, const Access& access) {
    server.set_pre_routing_handler(
        [&access](const httplib::Request& request, httplib::Response& response) {
            const std::optional<Refusal> refused = refusal(request, access);
            if (!refused) return httplib::Server::HandlerResponse::Unhandled;
            response.status = refused->status;
            if (refused->text != nullptr) response.set_content(refused->text, "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        });
}

// A worker is released when its client sends or takes nothing for kTimeoutSeconds (an upload's
// body, the answer); ViewServer keeps one request per connection, so nothing is kept alive.
void bound_connections(httplib::Server& server) {
    server.set_read_timeout(kTimeoutSeconds, 0);
    server.set_write_timeout(kTimeoutSeconds, 0);
    server.set_payload_max_length(kMaxUploadBytes);
}

// A new folder under the temporary folder that only this user can open (0700 on POSIX), for
// the files dropped on the page. Its name is random, and it is checked empty once its
// permissions are set, so nothing another user put in it before then is ever read.
std::optional<fs::path> make_private_folder() {
    std::error_code error;
    const fs::path temporary = fs::temp_directory_path(error);
    for (int attempt = 0; !error && attempt < 8; ++attempt) {
        const fs::path folder = temporary / fmt::format("castkit-view-{}", random_hex(4));
        if (!fs::create_directory(folder, error)) continue;  // the name is taken
        fs::permissions(folder, fs::perms::owner_all, fs::perm_options::replace, error);
        if (!error && fs::is_empty(folder, error) && !error) return folder;
        fs::remove_all(folder, error);
    }
    return std::nullopt;
}

// A private folder (dropped files, the page the browser is opened on), removed with everything
// in it when the server stops.
struct UploadFolder {
    fs::path path;
    explicit UploadFolder(fs::path folder) : path(std::move(folder)) {}
    UploadFolder(const UploadFolder&) = delete;
    UploadFolder& operator=(const UploadFolder&) = delete;
    ~UploadFolder() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

// The scene, shared by the server's worker threads.
struct SharedSession {
    std::mutex mutex;
    viewer::Session session;
};

// The file name a dropped file is kept under (its folders dropped), or empty when it has none.
fs::path upload_name(const std::string& name) {
    const fs::path file = platform::path_from_utf8(name).filename();
    return file == "." || file == ".." ? fs::path{} : file;
}

void reply_error(httplib::Response& response, const std::string& name, const char* rule,
                 const char* message) {
    response.status = 422;
    response.set_content(
        Diagnostic{Severity::Error, name, Diagnostic::kNoOffset, "/", rule, message}.to_string(),
        "text/plain; charset=utf-8");
}

// A file dropped on the page: its bytes, its name in the query. It is kept in the upload
// folder, the base of every dropped file, so a dropped .gltf finds the .bin and images dropped
// with it, and no other file on the disk.
void add_upload(SharedSession& shared, const fs::path& folder, const httplib::Request& request,
                httplib::Response& response, const httplib::ContentReader& read_body) {
    const std::string query_name = request.get_param_value("name");
    const fs::path file = upload_name(query_name);
    if (file.empty())
        return reply_error(response, query_name, "viewer.name", "a dropped file needs a name");
    const std::string name = platform::utf8_of(file);
    auto body = std::make_shared<std::string>();
    body->reserve(content_length(request).value_or(0));  // refusal() bounds it
    if (!read_body([&body](const char* data, std::size_t size) {
            body->append(data, size);
            return true;
        }))
        return;
    std::lock_guard lock(shared.mutex);
    std::ofstream out(folder / file, std::ios::binary | std::ios::trunc);
    out.write(body->data(), static_cast<std::streamsize>(body->size()));
    if (!out.flush())
        return reply_error(response, name, "viewer.write", "the dropped file could not be kept");
    const cast::SharedBytes bytes{std::as_bytes(std::span(body->data(), body->size())), body};
    auto added = shared.session.add(name, bytes, folder);
    if (!added) {
        response.status = 422;
        response.set_content(added.error().to_string(), "text/plain; charset=utf-8");
    }
}

// The base the additive animations are layered on: `file` (an animation file of the page, or
// empty for the rest pose) and `frame` (empty for the same time as each frame).
void set_base(SharedSession& shared, const httplib::Request& request, httplib::Response& response) {
    const std::string file = request.get_param_value("file");
    const std::string frame_text = request.get_param_value("frame");
    const std::optional<float> frame = parse_frame(frame_text);
    if (!frame_text.empty() && !frame)
        return reply_error(response, file, "viewer.base", "the base frame must be a number");
    std::lock_guard lock(shared.mutex);
    auto set = shared.session.set_base(file, frame);
    if (!set) {
        response.status = 422;
        response.set_content(set.error().to_string(), "text/plain; charset=utf-8");
    }
}

void add_routes(httplib::Server& server, SharedSession& shared, const Access& access,
                const fs::path& upload_folder) {
    server.Get("/", [&access](const httplib::Request&, httplib::Response& response) {
        response.set_header("Set-Cookie", fmt::format("{}={}; HttpOnly; SameSite=Strict; Path=/",
                                                      access.cookie_name(), access.token));
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
    server.Post("/api/base",
                [&shared](const httplib::Request& request, httplib::Response& response) {
                    set_base(shared, request, response);
                });
    server.Post("/api/files", [&shared, &upload_folder](const httplib::Request& request,
                                                        httplib::Response& response,
                                                        const httplib::ContentReader& read_body) {
        add_upload(shared, upload_folder, request, response, read_body);
    });
}

// Each named file read into memory, so the server keeps showing it when the file is then
// rewritten or cut short on disk; nullopt, having said why, when one cannot be read (missing, a
// folder): a page without a file the command line names would show something else than asked.
std::optional<std::vector<cast::SharedBytes>> read_named_files(
    const std::vector<std::string>& files, int& exit_code) {
    std::vector<cast::SharedBytes> contents;
    for (const std::string& file : files) {
        auto bytes = formats::read_input(platform::path_from_utf8(file), formats::InputMode::Copy);
        if (bytes) {
            contents.push_back(std::move(*bytes));
            continue;
        }
        const SourceError why = unreadable(file, bytes.error());
        print_source_error(file, why);
        fail(exit_code, why.code);
    }
    if (exit_code != kSuccess) return std::nullopt;
    return contents;
}

// Adds each named file; one castkit refuses (a corrupt file) is reported here and in the page.
void add_files(SharedSession& shared, const std::vector<std::string>& files,
               const std::vector<cast::SharedBytes>& contents, int& exit_code) {
    for (std::size_t i = 0; i < files.size(); ++i) {
        const fs::path path = platform::path_from_utf8(files[i]);
        auto added = shared.session.add(files[i], contents[i], formats::context_for(path).base);
        if (!added) {
            fmt::print(stderr, "{}\n", added.error().to_string());
            shared.session.record_error(added.error().to_string());
            fail(exit_code, kInvalidInput);
        }
    }
}

// Opens the browser on a page in the private `folder` that sends it on to `url`, as Jupyter
// does: the token is then on no command line (a browser's arguments are readable by every
// local account in /proc/PID/cmdline while it runs), only in a file its owner alone can read.
bool open_browser_privately(const std::string& url, const fs::path& folder) {
    const fs::path page = folder / "open.html";
    {
        std::ofstream out(page, std::ios::binary | std::ios::trunc);
        out << fmt::format(
            "<!doctype html><meta charset=\"utf-8\"><title>castkit view</title>"
            "<meta http-equiv=\"refresh\" content=\"0;url={0}\"><a href=\"{0}\">castkit view</a>\n",
            url);
        if (!out) return false;
    }
    return program::open_in_browser(platform::utf8_of(page));
}

int serve(const ViewOptions& options, int& exit_code) {
    const auto contents = read_named_files(options.files, exit_code);
    if (!contents) return kSuccess;  // exit_code says why
    // Dropped files in a private folder that is removed on exit (the images a glb or DMF
    // embeds travel in the documents: cast::Document::embedded).
    const std::optional<fs::path> private_folder = make_private_folder();
    if (!private_folder) {
        fmt::print(stderr, "castkit view: cannot create a private folder for dropped files\n");
        return kInvalidInput;
    }
    const UploadFolder uploads{*private_folder};
    SharedSession shared;
    shared.session.set_gpu_instancing(!options.no_gpu_instancing);
    add_files(shared, options.files, *contents, exit_code);
    const std::size_t open_files = program::allow_open_files(kMostWaiting + kWorkers + kOtherFiles);
    const std::size_t spare =
        open_files > kWorkers + kOtherFiles ? open_files - kWorkers - kOtherFiles : 0;
    ViewServer server(kWorkers, std::clamp<std::size_t>(spare, 16, kMostWaiting));
    bound_connections(server);
    Access access;
    add_routes(server, shared, access, uploads.path);
    access.port = options.port == 0
                      ? server.bind_to_any_port("127.0.0.1")
                      : (server.bind_to_port("127.0.0.1", options.port) ? options.port : -1);
    if (access.port < 0) {
        fmt::print(stderr, "castkit view: cannot listen on 127.0.0.1:{}\n", options.port);
        return kInvalidInput;
    }
    refuse_others(server, access);
    const std::string url = access.url();
    fmt::print("castkit view: {} (Ctrl-C stops)\n", url);
    std::fflush(stdout);
    const std::optional<fs::path> launch_folder =
        options.no_open ? std::nullopt : make_private_folder();
    const std::optional<UploadFolder> launch =
        launch_folder ? std::optional<UploadFolder>(std::in_place, *launch_folder) : std::nullopt;
    if (!options.no_open && !(launch && open_browser_privately(url, launch->path)))
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
    add_examples(view,
                 {"castkit view examples/data/hero/hero.cast examples/data/hero/hero_walk.seanim",
                  "castkit view examples/map/map.cast"});
    view->add_option("files", options->files, "A model and its animation files")->required();
    view->add_option("--port", options->port, "Port to listen on (default: a free one)")
        ->check(CLI::Range(0, 65535));
    view->add_flag("--no-open", options->no_open, "Print the address without opening a browser");
    view->add_flag("--no-gpu-instancing", options->no_gpu_instancing,
                   "Draw a map one mesh per instance instead of with EXT_mesh_gpu_instancing");
    view->callback([options, &exit_code] {
        int files_status = kSuccess;
        const int served = serve(*options, files_status);
        fail(exit_code, static_cast<ExitCode>(served));
        fail(exit_code, static_cast<ExitCode>(files_status));
    });
}

}  // namespace castkit::cli
