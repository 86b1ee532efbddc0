// The MTL beside the OBJ: one `newmtl` per material drawn, its colours and texture maps.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <set>

#include "../../cast/node_path.hpp"
#include "../common/number_text.hpp"
#include "formats/common/instance_paths.hpp"
#include "io/side_files.hpp"
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
    const WriteContext& context;
    Diagnostics& diagnostics;
    formats::TexturePlacement* placement;  // null: no MTL is written, so nothing is placed
    std::string text;

    // The path a File names, as the MTL beside the output must name it: the top document's as
    // the registry placed it; an instance file's, which lies beside that file, named from the
    // map's folder and placed as the registry places the map's own.
    std::string texture_path(std::string_view named, const Source& source,
                             const std::string& path) const {
        const fs::path portable = formats::portable_path(named);
        if (source.found_at.empty() || placement == nullptr) return portable.generic_string();
        const fs::path folder =
            formats::relative_to_allowed(source.found_at.parent_path(), context);
        return placement->place((folder / portable).generic_string(), path);
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
                             formats::TexturePlacement* placement, const WriteContext& context,
                             Diagnostics& diagnostics) {
    Library library{context, diagnostics, placement, {}};
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
