// castkit.js, the browser viewer's module: castkit::viewer::Session (viewer/session/) for
// JavaScript, through embind.
//   const m = await createCastkit();
//   const s = new m.Session();
//   const err = s.add("hero.cast", uint8array);  // "" on success, else the error text
//   const text = s.sceneJson();                   // Session::scene_json()
//   const glb = s.glb();                          // a Uint8Array; empty on failure,
//   const why = s.lastError();                    //   then this says why
//   s.clear();
//   s.delete();
// Every added file is also written into Emscripten's in-memory file system as /files/<name>,
// and its folder there is the base folder the session resolves the file's texture names
// against: a texture added beside a model (its add() says it is no model or animation format)
// is found there when glb() embeds it. /files is shared by the sessions of one module.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <castkit/diagnostic.hpp>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "session/session.hpp"

namespace {

namespace fs = std::filesystem;
using emscripten::val;

const fs::path kFolder = "/files";

std::string error_text(const std::string& name, std::string rule, std::string message) {
    return castkit::Diagnostic{
        castkit::Severity::Error, name, castkit::Diagnostic::kNoOffset, "/", std::move(rule),
        std::move(message)}
        .to_string();
}

// Whether `name` can be a file under /files: a relative path with a file name and no "..".
bool valid_name(const fs::path& name) {
    if (name.empty() || !name.is_relative() || !name.has_filename()) return false;
    for (const fs::path& part : name)
        if (part == "..") return false;
    return true;
}

// A copy of a JavaScript Uint8Array in the module's memory. O(size).
std::shared_ptr<std::vector<std::byte>> copy_from_js(const val& array) {
    auto bytes = std::make_shared<std::vector<std::byte>>(array["length"].as<std::size_t>());
    // The view is made after the allocation: growing the memory would detach it.
    val view(emscripten::typed_memory_view(bytes->size(),
                                           reinterpret_cast<unsigned char*>(bytes->data())));
    view.call<void>("set", array);
    return bytes;
}

// A new JavaScript Uint8Array holding a copy of `bytes`. O(size).
val copy_to_js(const std::vector<std::byte>& bytes) {
    return val::global("Uint8Array")
        .new_(emscripten::typed_memory_view(bytes.size(),
                                            reinterpret_cast<const unsigned char*>(bytes.data())));
}

// Writes `bytes` to `path`, creating its folders. O(size).
bool write_file(const fs::path& path, const std::vector<std::byte>& bytes) {
    std::error_code error;
    fs::create_directories(path.parent_path(), error);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

// The Session the page uses: its files also in /files, and the text of its last failure.
class WasmSession {
  public:
    WasmSession() = default;
    WasmSession(const WasmSession&) = delete;
    WasmSession& operator=(const WasmSession&) = delete;
    ~WasmSession() { remove_files(); }

    // Adds a file (Session::add) after writing it to /files/<name>; "" on success, else the
    // error text. Holds the bytes twice (the session's copy, the file). O(size).
    std::string add(const std::string& name, const val& array) {
        last_error_ = add_file(name, array);
        return last_error_;
    }

    // Session::scene_json(). O(files + nodes + keys).
    std::string scene_json() const { return session_.scene_json(); }

    // Session::glb() as a new Uint8Array; an empty one on failure, with lastError() saying why.
    // O(scene size).
    val glb() {
        last_error_.clear();
        try {
            auto glb = session_.glb();
            if (glb) return copy_to_js(*glb);
            last_error_ = glb.error().to_string();
        } catch (const std::exception& exception) {  // out of memory
            last_error_ = error_text("scene.glb", "viewer.glb", exception.what());
        }
        return val::global("Uint8Array").new_(0);
    }

    // Session::set_base(): `frame` NaN for the same time as each frame; "" on success, else the
    // error text. O(1).
    std::string set_base(const std::string& file, double frame) {
        auto set = session_.set_base(
            file, std::isnan(frame) ? std::nullopt : std::optional<float>(float(frame)));
        last_error_ = set ? "" : set.error().to_string();
        return last_error_;
    }

    // The error text of the last add(), setBase() or glb(), "" when it succeeded. O(1).
    std::string last_error() const { return last_error_; }

    // Forgets every file, and removes them from /files. O(files).
    void clear() {
        session_.clear();
        remove_files();
        last_error_.clear();
    }

  private:
    std::string add_file(const std::string& name, const val& array) {
        if (!valid_name(name))
            return error_text(name, "viewer.name",
                              "a file name must be a relative path without \"..\"");
        try {
            const std::shared_ptr<std::vector<std::byte>> bytes = copy_from_js(array);
            const fs::path path = kFolder / name;
            if (!write_file(path, *bytes))
                return error_text(name, "viewer.write", "the file could not be kept in memory");
            names_.insert(path);
            const castkit::cast::SharedBytes shared{
                castkit::cast::Bytes(bytes->data(), bytes->size()), bytes};
            auto added = session_.add(name, shared, path.parent_path());
            return added ? "" : added.error().to_string();
        } catch (const std::exception& exception) {  // out of memory
            return error_text(name, "viewer.add", exception.what());
        }
    }

    void remove_files() {
        std::error_code error;
        for (const fs::path& path : names_) fs::remove(path, error);
        names_.clear();
    }

    castkit::viewer::Session session_;
    std::set<fs::path> names_;  // the files this session wrote into /files
    std::string last_error_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(castkit) {
    emscripten::class_<WasmSession>("Session")
        .constructor<>()
        .function("add", &WasmSession::add)
        .function("sceneJson", &WasmSession::scene_json)
        .function("glb", &WasmSession::glb)
        .function("setBase", &WasmSession::set_base)
        .function("lastError", &WasmSession::last_error)
        .function("clear", &WasmSession::clear);
}
