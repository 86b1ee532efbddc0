// The animation files of a run (--anims), each opened once, checked on its descriptor and read
// into memory for every model (castkit/batch.hpp).
#include <castkit/batch.hpp>
#include <castkit/platform.hpp>
#include <limits>

#include "../platform/opened_file.hpp"

namespace castkit::batch {
namespace fs = std::filesystem;

namespace {

// Every size: an animation is bounded by the readers' own budgets, not here.
constexpr std::uint64_t kAnySize = std::numeric_limits<std::uint64_t>::max();

Diagnostic refused(const fs::path& path, const std::string& why) {
    Diagnostic d;
    d.file = platform::utf8_of(path);
    d.rule = "io.animation-file";
    d.message = why + "; an animation is read only from a regular file, once for the whole run";
    return d;
}

// The bytes of `opened`, named `path`, as an input; a refusal to open is io.animation-file.
Expected<formats::Input> input_of(const fs::path& path,
                                  Expected<std::unique_ptr<platform::OpenedFile>> opened) {
    if (!opened) return make_error(refused(path, opened.error().message));
    if (!*opened) return make_error(refused(path, "is no longer there"));
    auto held = (*opened)->load();
    if (!held) return make_error(held.error());
    const cast::Bytes bytes = (*held)->bytes();
    return formats::Input{bytes, std::move(*held)};
}

}  // namespace

Expected<formats::Input> AnimationFiles::get(const fs::path& path) {
    const std::lock_guard lock(mutex_);
    auto found = files_.find(path);
    if (found == files_.end()) found = files_.emplace(path, read_animation_file(path)).first;
    return found->second;
}

void AnimationFiles::put(const fs::path& path, Expected<formats::Input> input) {
    const std::lock_guard lock(mutex_);
    files_.insert_or_assign(path, std::move(input));
}

Expected<formats::Input> read_animation_file(const fs::path& path) {
    return input_of(path, platform::open_regular_file(path, kAnySize));
}

Expected<std::vector<fs::path>> read_animation_folder(const fs::path& dir, bool recursive,
                                                      bool allow_any_path, AnimationFiles& files,
                                                      Diagnostics& warnings) {
    // Opened before the listing: what is read is found beneath this descriptor.
    auto folder = platform::open_folder(dir);
    if (!folder) return make_error(folder.error());
    auto listed = readable_files(dir, recursive, allow_any_path, warnings);
    if (!listed) return listed;
    for (const fs::path& path : *listed) {
        // With the opt-in a link out of the folder is read where it leads, as the listing took it.
        files.put(path, allow_any_path
                            ? read_animation_file(path)
                            : input_of(path, (*folder)->open_file(path.lexically_relative(dir),
                                                                  kAnySize)));
    }
    return listed;
}

}  // namespace castkit::batch
