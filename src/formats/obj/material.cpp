// The MTL beside the OBJ: one `newmtl` per material drawn, its colours and texture maps.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <set>

#include "../../cast/node_path.hpp"
#include "../common/number_text.hpp"
#include "io/side_files.hpp"
#include "io/side_outputs.hpp"
#include "shared.hpp"

namespace castkit::obj {
namespace {

namespace fs = std::filesystem;

// Cast slots and the MTL statements they become: a Color as `<colour> r g b`, a File as
// `<map> path`. Later slots that name a statement taken already are dropped.
struct SlotStatement {
    std::string_view slot;
    std::string_view colour;  // empty: a Color in this slot has no MTL statement
    std::string_view map;
};
constexpr std::array<SlotStatement, 5> kSlots{{{"albedo", "Kd", "map_Kd"},
                                               {"diffuse", "Kd", "map_Kd"},
                                               {"specular", "Ks", "map_Ks"},
                                               {"emissive", "Ke", "map_Ke"},
                                               {"normal", "", "map_Bump"}}};

const SlotStatement* statement_of(std::string_view slot) {
    for (const SlotStatement& statement : kSlots)
        if (statement.slot == slot) return &statement;
    return nullptr;
}

std::string number_text(float v) {
    std::array<char, formats::kFloatRoom> room{};
    return std::string(room.data(), formats::write_float(room.data(), v));
}

struct Library {
    const fs::path& output_folder;
    const WriteContext& context;
    Diagnostics& diagnostics;
    SideOutputs& outputs;
    std::string text;

    // The path a File names, as the MTL beside the output must name it.
    std::string texture_path(std::string_view named, const Source& source,
                             const std::string& path) const {
        const fs::path portable = formats::portable_path(named);
        if (source.found_at.empty()) return portable.generic_string();  // the registry placed it
        // An instance file names its textures beside itself.
        Context beside = context;
        beside.base = source.found_at.parent_path();
        beside.folder = nullptr;
        std::error_code error;
        const fs::path from = fs::absolute(output_folder, error).lexically_normal();
        auto found = formats::resolve_side_file(beside, named);
        if (!found) {
            diagnostics.push_back(warning(
                source.name, path, "texture.not-found",
                fmt::format("texture '{}' was not found ({}); named beside the instance file",
                            named, found.error().message)));
            return relative(beside.base / portable, from);
        }
        if (!copies_textures()) return relative(*found, from);
        return copied(beside, named, *found, from, source, path);
    }

    // Whether textures are copied beside an output in another folder than the source's, as the
    // registry copies the top document's (FormatOptions::place_textures).
    bool copies_textures() const {
        if (!context.options.place_textures || context.options.textures == TextureMode::Reference)
            return false;
        std::error_code error;
        return !fs::equivalent(context.base.empty() ? "." : context.base, output_folder, error);
    }

    // `found` copied below the output's folder as it lies below the top document's (or by its
    // name alone), through the run's side outputs; its path from the output. Where the copy
    // fails, `found` where it is.
    std::string copied(const Context& beside, std::string_view named, const fs::path& found,
                       const fs::path& from, const Source& source, const std::string& path) const {
        std::error_code error;
        const fs::path top =
            fs::absolute(context.base.empty() ? "." : context.base, error).lexically_normal();
        const fs::path at = fs::absolute(found, error).lexically_normal();
        const fs::path below = at.lexically_relative(top);
        const fs::path wanted =
            from / (below.empty() || *below.begin() == ".." ? at.filename() : below);
        fs::create_directories(wanted.parent_path(), error);
        auto bytes = formats::read_side_file(beside, named);
        auto written = bytes ? outputs.write(wanted, (*bytes)->bytes())
                             : Expected<SideOutputs::Written>(make_error(bytes.error()));
        if (!written) {
            diagnostics.push_back(warning(
                source.name, path, "texture.copy-failed",
                fmt::format("texture '{}' was not copied beside the output ({}); named where it "
                            "is",
                            named, written.error().message)));
            return relative(found, from);
        }
        if (written->renamed)
            diagnostics.push_back(warning(
                source.name, path, formats::kRenamedRule,
                formats::renamed_message(fmt::format("texture '{}'", named), wanted, *written)));
        return relative(written->path, from);
    }

    static std::string relative(const fs::path& file, const fs::path& from) {
        std::error_code error;
        return fs::absolute(file, error)
            .lexically_normal()
            .lexically_relative(from)
            .generic_string();
    }

    void material(const cast::ConstMaterial& material, const std::string& name,
                  const Source& source, const std::string& path) {
        text += fmt::format("newmtl {}\n", name);
        std::set<std::string_view> written;
        std::vector<std::string> dropped;
        for (const cast::ConstMaterial::Slot& slot : material.slots()) {
            const SlotStatement* statement = statement_of(slot.name);
            const cast::ConstColor colour = material.slot_color(slot.name);
            const cast::ConstFile file = material.slot_file(slot.name);
            const std::string_view key = statement == nullptr ? std::string_view()
                                         : file               ? statement->map
                                                              : statement->colour;
            if (key.empty() || written.contains(key) || (!file && !(colour && colour.rgba()))) {
                dropped.emplace_back(slot.name);
                continue;
            }
            written.insert(key);
            if (file) {
                text += fmt::format("{} {}\n", key,
                                    texture_path(file.path().value_or(""), source, path));
            } else {
                const glm::vec4 rgba = *colour.rgba();
                text += fmt::format("{} {} {} {}\n", key, number_text(rgba.r), number_text(rgba.g),
                                    number_text(rgba.b));
            }
        }
        if (!dropped.empty())
            diagnostics.push_back(warning(
                source.name, path, "obj.material-slot-dropped",
                fmt::format("material '{}': slots {} have no MTL statement and were dropped", name,
                            fmt::join(dropped, ", "))));
    }
};

// A name for `material` no other material of the file has: its own, else "material", then
// "-2", "-3", … as needed.
std::string unique_name(const cast::ConstMaterial& material, std::set<std::string>& taken) {
    const std::string base = token(material.name().value_or(""), "material");
    std::string name = base;
    for (int n = 2; taken.contains(name); ++n) name = fmt::format("{}-{}", base, n);
    taken.insert(name);
    return name;
}

}  // namespace

std::string material_library(const std::vector<Placement>& placements, MaterialNames& names,
                             const fs::path& output_folder, SideOutputs& outputs,
                             const WriteContext& context, Diagnostics& diagnostics) {
    Library library{output_folder, context, diagnostics, outputs, {}};
    std::set<std::string> taken;
    for (const Placement& placement : placements)
        for (const cast::ConstMesh& mesh : placement.model.meshes()) {
            const cast::ConstMaterial material = mesh.material();
            if (!material || names.contains(&material.node())) continue;
            const std::string& name =
                names.emplace(&material.node(), unique_name(material, taken)).first->second;
            library.material(material, name, *placement.source, cast::path_of(material.node()));
        }
    return std::move(library.text);
}

}  // namespace castkit::obj
