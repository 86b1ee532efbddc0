// Texture files into the exported glTF: each image the materials reference (a URI holding the
// path the Cast document names) is taken from the document's embedded files (an image read from
// inside a glb or DMF), else read where the side-file policy allows (beside the source document
// or in the texture folders), then embedded in the binary buffer, written beside the
// output, or left as a reference. Images that cannot be found (or may not be read) stay
// references to the path the document names; images that cannot be decoded are removed with the
// texture slots that used them, so the file stays valid. KTX2 and WebP images (shown through
// KHR_texture_basisu and EXT_texture_webp) travel as they are.
#include "export_textures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "../../platform/platform.hpp"
#include "io/images.hpp"
#include "io/side_files.hpp"
#include "io/side_outputs.hpp"
#include "io/texture_files.hpp"

namespace castkit::gltf::detail {
namespace {

namespace fs = std::filesystem;

// The path a URI written by export_material names: %XX decoded.
std::string uri_to_path(std::string_view uri) {
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out += static_cast<char>(std::stoi(std::string(uri.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

// A relative URI for a file name beside the output.
std::string name_to_uri(std::string_view name) {
    std::string out;
    for (char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~')
            out += c;
        else
            out += fmt::format("%{:02X}", byte);
    }
    return out;
}

class TexturePlacer {
  public:
    TexturePlacer(Exporter& exporter, const Context& source, const fs::path& output,
                  const cast::EmbeddedFiles& embedded)
        : exporter_(exporter),
          side_{.base = source.base,
                .options = {.side_files = exporter.options.side_files},
                .folder = source.folder},
          output_(output),
          mode_(exporter.options.textures),
          embedded_(embedded),
          outputs_(exporter.options.side_outputs ? exporter.options.side_outputs
                                                 : std::make_shared<SideOutputs>()) {
        if (mode_ == TextureMode::Automatic) mode_ = automatic_mode();
        // The output and its buffer are this export's own names, never a copied texture's.
        if (!output_.empty()) {
            outputs_->reserve(output_);
            if (!exporter.options.binary)
                outputs_->reserve(fs::path(output_).replace_extension(".bin"));
        }
    }

    void run() {
        std::vector<bool> keep(exporter_.model.images.size(), true);
        for (std::size_t i = 0; i < keep.size(); ++i) keep[i] = place(i);
        remove_images(keep);
    }

  private:
    Exporter& exporter_;
    const Context side_;  // where texture files are read (the source folder and the policy)
    fs::path output_;
    TextureMode mode_;
    const cast::EmbeddedFiles& embedded_;  // the images the document carries in memory
    std::shared_ptr<SideOutputs> outputs_;

    TextureMode automatic_mode() const {
        return exporter_.options.binary ? TextureMode::Embed : TextureMode::Copy;
    }

    // An image's bytes, where they come from (a file found on disk, or the document's memory:
    // `path` is then the File's name) and how this image is placed.
    struct Source {
        fs::path path;
        cast::SharedBytes bytes;
        bool on_disk = true;
        TextureMode mode = TextureMode::Embed;
    };

    // Embeds or copies image `index`; false when it must be removed. An image the document
    // carries is taken from memory before the disk is looked at, and, as there is no file to
    // refer to, kept in Reference mode too (embedded in a .glb, written beside a .gltf) and
    // embedded when the output has no folder (standard output, memory).
    bool place(std::size_t index) {
        tinygltf::Image& image = exporter_.model.images[index];
        if (image.uri.empty()) return true;
        const std::string named = uri_to_path(image.uri);
        const std::string where = fmt::format("/images/{}", index);
        if (const cast::EmbeddedFile* carried = embedded_.find(named)) {
            TextureMode mode = mode_ == TextureMode::Reference ? automatic_mode() : mode_;
            if (output_.empty()) mode = TextureMode::Embed;
            return place_bytes(
                image, {platform::path_from_utf8(carried->name), carried->bytes, false, mode},
                named, where);
        }
        if (mode_ == TextureMode::Reference) return true;
        Expected<fs::path> found = formats::resolve_side_file(side_, named);
        // Not beside the instance file that names it: where the name alone leads.
        const auto as_given = exporter_.image_names_as_given.find(index);
        if (!found && as_given != exporter_.image_names_as_given.end())
            if (auto fallback = formats::resolve_side_file(side_, as_given->second))
                found = std::move(fallback);
        if (!found) {
            exporter_.warn(where, fmt::format("texture {}; it stays a reference to that path",
                                              found.error().message));
            return true;
        }
        auto mapped = formats::map_side_file(side_, *found);
        if (!mapped) {
            exporter_.warn(where, fmt::format("texture '{}' could not be read ({}); its texture "
                                              "slots were dropped",
                                              named, mapped.error().message));
            return false;
        }
        return place_bytes(image, {*found, {(*mapped)->bytes(), *mapped}, true, mode_}, named,
                           where);
    }

    // Embeds or copies the image `source` holds; false when it must be removed.
    bool place_bytes(tinygltf::Image& image, const Source& source, const std::string& named,
                     const std::string& where) {
        if (const std::string mime = extension_image(named).mime_type; !mime.empty())
            return place_as_is(image, source, mime, named, where);
        // PNG and JPEG travel as they are, byte for byte, embedded without a copy.
        if (const std::string_view mime = images::signature_mime_type(source.bytes);
            !mime.empty() && source.mode == TextureMode::Embed) {
            embed(image, source.bytes, std::string(mime));
            return true;
        }
        images::GltfImage prepared =
            images::prepare_for_gltf(source.bytes, platform::utf8_of(source.path.filename()));
        if (prepared.outcome == images::Outcome::Failed) {
            exporter_.warn(where, fmt::format("texture '{}' could not be decoded ({}); its texture "
                                              "slots were dropped",
                                              named, prepared.message));
            return false;
        }
        if (prepared.outcome == images::Outcome::External)
            return keep_external(image, source, named, prepared.message, where);
        if (source.mode == TextureMode::Embed) {
            image.mimeType = prepared.mime_type;
            image.bufferView = exporter_.add_view(own(std::move(prepared.bytes)), 0);
            image.uri.clear();
            return true;
        }
        const std::optional<std::string> name =
            write_beside(prepared.converted ? platform::utf8_of(source.path.stem()) + ".png"
                                            : platform::utf8_of(source.path.filename()),
                         prepared.bytes, named, where);
        if (!name) return false;
        image.uri = name_to_uri(*name);
        return true;
    }

    // The image's bytes in the binary buffer, viewed where they lie (the document's memory or
    // the file read), kept alive by their owner.
    void embed(tinygltf::Image& image, const cast::SharedBytes& bytes, std::string mime) {
        image.mimeType = std::move(mime);
        image.bufferView = exporter_.add_view({bytes.bytes, bytes.owner}, 0);
        image.uri.clear();
    }

    // A KTX2 or WebP image (shown through its extension) as it is: embedded with its mime type,
    // or copied beside the output.
    bool place_as_is(tinygltf::Image& image, const Source& source, const std::string& mime,
                     const std::string& named, const std::string& where) {
        if (source.mode == TextureMode::Embed) {
            embed(image, source.bytes, mime);
            return true;
        }
        const std::optional<std::string> name =
            write_beside(platform::utf8_of(source.path.filename()), source.bytes, named, where);
        if (!name) return false;
        image.uri = name_to_uri(*name);
        return true;
    }

    // BC6H/BC7: the file itself, copied beside a .gltf, or referenced where it is from a .glb.
    // One the document carries has no file to refer to: it is written beside either, and
    // removed (false) when there is no folder to write it to or the write fails.
    bool keep_external(tinygltf::Image& image, const Source& source, const std::string& named,
                       const std::string& why, const std::string& where) {
        if (!source.on_disk && output_.empty()) {
            exporter_.warn(where,
                           fmt::format("texture '{}' uses {}, which glTF cannot embed, and "
                                       "the output has no folder to write it beside; its "
                                       "texture slots were dropped",
                                       named, why),
                           formats::kNotKeptRule);
            return false;
        }
        if (source.mode == TextureMode::Copy || !source.on_disk) {
            if (const std::optional<std::string> name = write_beside(
                    platform::utf8_of(source.path.filename()), source.bytes, named, where)) {
                image.uri = name_to_uri(*name);
                exporter_.warn(where, fmt::format("texture '{}' uses {}: copied beside the output "
                                                  "as it is, glTF viewers may not show it",
                                                  named, why));
                return true;
            }
            if (!source.on_disk) return false;
        }
        std::error_code error;
        const fs::path relative = fs::relative(fs::absolute(source.path, error),
                                               fs::absolute(output_, error).parent_path(), error);
        const std::u8string generic = relative.generic_u8string();
        const std::string shown(generic.begin(), generic.end());
        image.uri = uri_path(shown);
        exporter_.warn(where, fmt::format("texture '{}' uses {}: it stays an external file, "
                                          "referenced as '{}', glTF viewers may not show it",
                                          named, why, shown));
        return true;
    }

    static std::string uri_path(const std::string& path) {
        std::string out;
        std::size_t start = 0;
        for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos;
             start = slash + 1)
            out += name_to_uri(path.substr(start, slash - start)) + "/";
        return out + name_to_uri(path.substr(start));
    }

    // Writes the image beside the output as `wanted` through the run's side-output writer
    // (another name when that one is taken, with a warning); the name written, or nullopt with
    // a warning when it could not be.
    std::optional<std::string> write_beside(const std::string& wanted,
                                            std::span<const std::byte> bytes,
                                            const std::string& named, const std::string& where) {
        const fs::path target = output_.parent_path() / platform::path_from_utf8(wanted);
        auto written = outputs_->write(target, bytes);
        if (!written) {
            exporter_.warn(where, fmt::format("texture '{}' could not be written beside the output "
                                              "({}); its texture slots were dropped",
                                              named, written.error().message));
            return std::nullopt;
        }
        if (written->renamed)
            exporter_.warn(
                where,
                formats::renamed_message(fmt::format("texture '{}'", named), target, *written),
                formats::kRenamedRule);
        return platform::utf8_of(written->path.filename());
    }

    // Drops the images marked false, the textures that show them and the material slots that
    // use those textures, renumbering what stays. O(images + textures + materials).
    void remove_images(const std::vector<bool>& keep) {
        tinygltf::Model& model = exporter_.model;
        if (std::find(keep.begin(), keep.end(), false) == keep.end()) return;
        std::vector<int> image_index(keep.size(), -1);
        std::vector<tinygltf::Image> images;
        for (std::size_t i = 0; i < keep.size(); ++i)
            if (keep[i]) {
                image_index[i] = static_cast<int>(images.size());
                images.push_back(std::move(model.images[i]));
            }
        model.images = std::move(images);
        std::vector<int> texture_index(model.textures.size(), -1);
        std::vector<tinygltf::Texture> textures;
        for (std::size_t t = 0; t < model.textures.size(); ++t) {
            tinygltf::Texture& texture = model.textures[t];
            const int old = texture_source(texture);
            const int source = old >= 0 && static_cast<std::size_t>(old) < keep.size()
                                   ? image_index[static_cast<std::size_t>(old)]
                                   : -1;
            if (source < 0) continue;
            set_texture_source(texture, source);
            texture_index[t] = static_cast<int>(textures.size());
            textures.push_back(std::move(texture));
        }
        model.textures = std::move(textures);
        auto remap = [&](int& index) {
            if (index >= 0) index = texture_index[static_cast<std::size_t>(index)];
        };
        for (tinygltf::Material& material : model.materials) {
            remap(material.pbrMetallicRoughness.baseColorTexture.index);
            remap(material.pbrMetallicRoughness.metallicRoughnessTexture.index);
            remap(material.normalTexture.index);
            remap(material.occlusionTexture.index);
            const bool had_emissive = material.emissiveTexture.index >= 0;
            remap(material.emissiveTexture.index);
            // The factor was 1 only to let the texture through; without it the surface would glow.
            if (had_emissive && material.emissiveTexture.index < 0)
                material.emissiveFactor = {0.0, 0.0, 0.0};
            for (auto& [name, extension] : material.extensions)
                remap_extension(extension, texture_index);
        }
    }

    // The textureInfos of a material extension renumbered by `texture_index`; those whose
    // texture was removed are removed too.
    static void remap_extension(tinygltf::Value& extension, const std::vector<int>& texture_index) {
        if (!extension.IsObject()) return;
        auto& members = extension.Get<tinygltf::Value::Object>();
        for (auto it = members.begin(); it != members.end();) {
            tinygltf::Value& info = it->second;
            if (!info.IsObject() || !info.Has("index") || !info.Get("index").IsInt()) {
                ++it;
                continue;
            }
            const int old = info.Get("index").Get<int>();
            const int index = old >= 0 && static_cast<std::size_t>(old) < texture_index.size()
                                  ? texture_index[static_cast<std::size_t>(old)]
                                  : -1;
            if (index < 0) {
                it = members.erase(it);
                continue;
            }
            info.Get<tinygltf::Value::Object>()["index"] = tinygltf::Value(index);
            ++it;
        }
    }
};

}  // namespace

void place_textures(Exporter& exporter, const Context& source, const fs::path& output,
                    const cast::EmbeddedFiles& embedded) {
    TexturePlacer(exporter, source, output, embedded).run();
}

}  // namespace castkit::gltf::detail
