#include "texture_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <map>

#include "../platform/platform.hpp"
#include "side_files.hpp"
#include "side_outputs.hpp"

namespace castkit::formats {
namespace {

namespace fs = std::filesystem;

fs::path folder_or_here(const fs::path& folder) { return folder.empty() ? fs::path(".") : folder; }

bool same_folder(const fs::path& a, const fs::path& b) {
    std::error_code error;
    if (fs::equivalent(folder_or_here(a), folder_or_here(b), error)) return true;
    const fs::path first = fs::weakly_canonical(fs::absolute(folder_or_here(a), error), error);
    return first == fs::weakly_canonical(fs::absolute(folder_or_here(b), error), error);
}

// `named` as a path below the output's folder when it is one already (no root, no `..`), else
// its file name.
fs::path name_below(std::string_view named) {
    const fs::path path = platform::path_from_utf8(std::string(named)).lexically_normal();
    if (path.has_root_path() || path.empty()) return path.filename();
    for (const fs::path& part : path)
        if (part == "..") return path.filename();
    return path;
}

// Where the files a document names are read from for `context`: the source's folder and the
// user's folders, under the user's policy.
Context side_context(const WriteContext& context) {
    Context side;
    side.name = context.name;
    side.base = context.base;
    side.folder = context.folder;
    side.options.side_files = context.options.side_files;
    return side;
}

// Whether `named` leads, under the read policy, to a file holding exactly `bytes`.
bool on_disk(const Context& side, std::string_view named, std::span<const std::byte> bytes) {
    const Expected<fs::path> found = resolve_side_file(side, named);
    return found && holds(*found, bytes);
}

std::string generic_text(const fs::path& path) {
    const std::u8string text = path.generic_u8string();
    return std::string(text.begin(), text.end());
}

}  // namespace

// Places the images of one document being written (see place_texture_files): the images it
// carries in memory always, the files it names on disk when `move` (written to another folder).
class TexturePlacement::Placer {
  public:
    Placer(const cast::EmbeddedFiles& carried, const fs::path& output, const WriteContext& context,
           Diagnostics& diagnostics)
        : embedded_(carried),
          context_(context),
          diagnostics_(diagnostics),
          out_dir_(folder_or_here(output.parent_path())),
          same_folder_(same_folder(context.base, output.parent_path())),
          move_(context.options.place_textures && !same_folder_),
          outputs_(side_outputs_for(context.options)) {
        side_ = side_context(context);
        reference_ = context.options.textures == TextureMode::Reference;
        outputs_->reserve(output);
    }

    // The path the written file names for image `named`; `where` names its File node.
    std::string place(std::string_view named, const std::string& where) {
        if (const cast::EmbeddedFile* carried = embedded_.find(named))
            return place_carried(*carried, named, where);
        if (!move_ || named.empty() || platform::path_from_utf8(std::string(named)).has_root_path())
            return std::string(named);
        if (reference_) return refer_lexically(named);
        const Expected<fs::path> found = resolve_side_file(side_, named);
        if (!found && beside_output(named)) return std::string(named);
        if (!found) {
            warn(where, "texture.not-found",
                 fmt::format("texture {}; the output names it as the source did",
                             found.error().message));
            return std::string(named);
        }
        std::error_code error;
        const fs::path source = fs::weakly_canonical(fs::absolute(*found, error), error);
        if (auto done = placed_.find(source); done != placed_.end()) return done->second;
        const std::string placed = copy(named, *found, where);
        placed_[source] = placed;
        return placed;
    }

  private:
    const cast::EmbeddedFiles& embedded_;
    const WriteContext& context_;
    Diagnostics& diagnostics_;
    Context side_;
    fs::path out_dir_;
    bool same_folder_ = false;  // the output is in the source's folder
    bool move_ = false;         // the files the document names are placed beside the output
    bool reference_ = false;
    std::shared_ptr<SideOutputs> outputs_;
    std::map<fs::path, std::string> placed_;      // image file → the path written for it
    std::map<std::string, std::string> carried_;  // embedded file → the path written for it

    void warn(const std::string& where, const char* rule, std::string message) const {
        diagnostics_.push_back({.severity = Severity::Warning,
                                .file = context_.name,
                                .path = where,
                                .rule = rule,
                                .message = std::move(message)});
    }

    // Whether `named` already names a file below the output's folder (an image a reader wrote
    // there, such as one the glTF or DMF import unpacked): only looked at, never read.
    bool beside_output(std::string_view named) const {
        const fs::path below = name_below(named);
        std::error_code error;
        return below == platform::path_from_utf8(std::string(named)).lexically_normal() &&
               fs::is_regular_file(fs::symlink_status(out_dir_ / below, error));
    }

    // Where the source names the image, relative to the output's folder: the same file, found
    // or not (nothing is read).
    std::string refer_lexically(std::string_view named) const {
        std::error_code error;
        const fs::path image = fs::weakly_canonical(
            fs::absolute(folder_or_here(side_.base) / platform::path_from_utf8(std::string(named)),
                         error),
            error);
        const fs::path folder = fs::weakly_canonical(fs::absolute(out_dir_, error), error);
        const fs::path relative = image.lexically_relative(folder);
        return generic_text(relative.empty() ? image : relative);
    }

    // An image the document carries: kept where its path already leads when the output is in
    // the source's folder and a file there holds its bytes (an image unpacked into
    // --textures DIR); else written beside the output, as a copy is, since no other file holds
    // it. O(image size).
    std::string place_carried(const cast::EmbeddedFile& carried, std::string_view named,
                              const std::string& where) {
        if (auto done = carried_.find(carried.name); done != carried_.end()) return done->second;
        std::string placed = same_folder_ && on_disk(side_, named, carried.bytes)
                                 ? std::string(named)
                                 : write_beside(named, carried.bytes, where);
        return carried_[carried.name] = std::move(placed);
    }

    // The image copied beside the output through the run's side-output writer: under its name,
    // else the first free `wood-2.png`, `wood-3.png`, … (or one holding the same bytes already,
    // such as an image a reader wrote there in this run).
    std::string copy(std::string_view named, const fs::path& found, const std::string& where) {
        auto mapped = map_side_file(side_, found);
        if (!mapped) {
            warn(where, "texture.copy-failed",
                 fmt::format("texture '{}' could not be read ({}); the output names it as the "
                             "source did",
                             named, mapped.error().message));
            return std::string(named);
        }
        return write_beside(named, (*mapped)->bytes(), where);
    }

    // `bytes` written beside the output as `named` (its relative path when that stays below the
    // output's folder, else its file name), or as the name the side-output writer gives them;
    // the path the output names. O(size).
    std::string write_beside(std::string_view named, std::span<const std::byte> bytes,
                             const std::string& where) {
        const fs::path wanted = name_below(named);
        std::error_code error;
        fs::create_directories((out_dir_ / wanted).parent_path(), error);
        auto written = outputs_->write(out_dir_ / wanted, bytes);
        if (!written) {
            warn(where, "texture.copy-failed",
                 fmt::format("texture '{}' could not be copied beside the output ({}); the "
                             "output names it as the source did",
                             named, written.error().message));
            return std::string(named);
        }
        if (written->renamed)
            warn(where, kRenamedRule,
                 renamed_message(fmt::format("texture '{}'", named), wanted, *written));
        return generic_text(fs::path(wanted).replace_filename(written->path.filename()));
    }
};

TexturePlacement::TexturePlacement(const cast::EmbeddedFiles& carried,
                                   const std::filesystem::path& output, const WriteContext& context,
                                   Diagnostics& diagnostics)
    : placer_(std::make_unique<Placer>(carried, output, context, diagnostics)) {}

TexturePlacement::~TexturePlacement() = default;

std::string TexturePlacement::place(std::string_view named, const std::string& where) {
    return placer_->place(named, where);
}

Expected<cast::SharedBytes> image_bytes(const cast::EmbeddedFiles& carried, std::string_view named,
                                        const WriteContext& context) {
    if (const cast::EmbeddedFile* found = carried.find(named)) return found->bytes;
    auto read = read_side_file(side_context(context), named);
    if (!read) return make_error(read.error());
    return cast::SharedBytes{(*read)->bytes(), *read};
}

namespace {

bool has_material_file(const cast::Document& document) {
    for (const cast::ConstModel& model : document.models())
        for (const cast::ConstMaterial& material : model.materials())
            if (!material.files().empty()) return true;
    return false;
}

// Calls `visit(file, path, where)` for every material File with a path; `where` names its node.
// Const or mutable views, as `document` is.
template <class Document, class Visit>
void for_each_file(Document& document, Visit&& visit) {
    const auto models = document.models();
    for (std::size_t m = 0; m < models.size(); ++m) {
        const auto materials = models[m].materials();
        for (std::size_t k = 0; k < materials.size(); ++k)
            for (auto file : materials[k].files()) {
                const std::optional<std::string_view> path = file.path();
                if (!path) continue;
                visit(file, *path, fmt::format("model[{}]/material[{}]/file", m, k));
            }
    }
}

bool names_embedded_file(const cast::Document& document) {
    bool named = false;
    for_each_file(document, [&](const auto&, std::string_view path, const std::string&) {
        named = named || document.embedded.find(path) != nullptr;
    });
    return named;
}

}  // namespace

void warn_embedded_not_kept(const cast::Document& document, const WriteContext& context,
                            Diagnostics& diagnostics) {
    if (document.embedded.empty()) return;
    const Context side = side_context(context);
    for_each_file(document, [&](const auto&, std::string_view path, const std::string& where) {
        const cast::EmbeddedFile* carried = document.embedded.find(path);
        if (carried == nullptr || on_disk(side, path, carried->bytes)) return;
        diagnostics.push_back(
            {.severity = Severity::Warning,
             .file = context.name,
             .path = where,
             .rule = kNotKeptRule,
             .message = fmt::format("embedded image '{}' ({} bytes) not kept: the output cannot "
                                    "hold it and has no folder to write it beside; the output "
                                    "names it",
                                    path, carried->bytes.size())});
    });
}

std::optional<cast::Document> place_texture_files(const cast::Document& document,
                                                  const std::filesystem::path& output,
                                                  const WriteContext& context,
                                                  Diagnostics& diagnostics) {
    if (output == "-") {
        warn_embedded_not_kept(document, context, diagnostics);
        return std::nullopt;
    }
    // An empty base is the working folder, as for reading (a file named without a folder).
    const bool move =
        context.options.place_textures && !same_folder(context.base, output.parent_path());
    if (!has_material_file(document) || (!move && !names_embedded_file(document)))
        return std::nullopt;
    cast::Document placed = document.clone();
    TexturePlacement placement(document.embedded, output, context, diagnostics);
    for_each_file(placed, [&](cast::File& file, std::string_view path, const std::string& where) {
        file.set_path(placement.place(path, where));
    });
    return placed;
}

}  // namespace castkit::formats
