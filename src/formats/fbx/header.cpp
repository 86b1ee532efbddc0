// The records around Objects: FBXHeaderExtension, the file id and creation time, GlobalSettings
// (axes, units, frame rate), Documents, References and Definitions.
#include <castkit/scene/axis_change.hpp>
#include <castkit/version.hpp>

#include "scene.hpp"

namespace castkit::fbx::detail {
namespace {

// A fixed time and id, so that the same document writes the same bytes.
constexpr const char* kCreationTime = "1970-01-01 10:00:00:000";
const std::vector<std::uint8_t> kFileId = {0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2,
                                           0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1};

Record header_extension() {
    Record header{"FBXHeaderExtension", {}, {}};
    header.add("FBXHeaderVersion", {std::int32_t{1003}});
    header.add("FBXVersion", {static_cast<std::int32_t>(kVersion)});
    header.add("EncryptionType", {std::int32_t{0}});
    Record& stamp = header.add("CreationTimeStamp");
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, std::int32_t>>{{"Version", 1000},
                                                           {"Year", 1970},
                                                           {"Month", 1},
                                                           {"Day", 1},
                                                           {"Hour", 10},
                                                           {"Minute", 0},
                                                           {"Second", 0},
                                                           {"Millisecond", 0}})
        stamp.add(name, {value});
    header.add("Creator", {std::string("castkit " CASTKIT_VERSION_STRING)});
    return header;
}

// UpAxis, FrontAxis and CoordAxis (axis, sign) of a right-handed frame with `up` up, as FBX
// writers give them: +Y up faces +Z with +X right; +Z up faces −Y; +X up faces +Y with +Z right.
struct Frame {
    int up, front, front_sign, coord;
};
Frame frame_for(cast::Axis up) {
    switch (up) {
        case cast::Axis::X:
            return {0, 1, 1, 2};
        case cast::Axis::Z:
            return {2, 1, -1, 0};
        case cast::Axis::Y:
            break;
    }
    return {1, 2, 1, 0};
}

Record global_settings(const cast::Document& document, const Scene& scene) {
    const Frame frame = frame_for(scene::file_up_axis(document, {}));
    // FBX counts in centimetres: UnitScaleFactor is how many a unit of the file is. The units
    // asked for, else those the document's Metadata says (`convert --units` records them there).
    const scene::Units units = scene.options.units.value_or(
        scene::said_units(document).value_or(scene::Units::Centimetres));
    const double unit = scene::metres_per(units) * 100.0;
    const double fps = scene.framerate > 0.0f ? scene.framerate : 30.0;
    Properties p;
    p.integer("UpAxis", frame.up)
        .integer("UpAxisSign", 1)
        .integer("FrontAxis", frame.front)
        .integer("FrontAxisSign", frame.front_sign)
        .integer("CoordAxis", frame.coord)
        .integer("CoordAxisSign", 1)
        .integer("OriginalUpAxis", frame.up)
        .integer("OriginalUpAxisSign", 1);
    p.real("UnitScaleFactor", unit).real("OriginalUnitScaleFactor", unit);
    p.color("AmbientColor", glm::dvec3(0.0))
        .text("DefaultCamera", "Producer Perspective")
        .enumeration("TimeMode", 14)  // custom: CustomFrameRate
        .enumeration("TimeProtocol", 2)
        .enumeration("SnapOnFrameMode", 0)
        .time("TimeSpanStart", 0)
        .time("TimeSpanStop", kTicksPerSecond);
    p.real("CustomFrameRate", fps);
    Record settings{"GlobalSettings", {}, {}};
    settings.add("Version", {std::int32_t{1000}});
    settings.children.push_back(p.take());
    return settings;
}

Record documents(std::int64_t document_id) {
    Record out{"Documents", {}, {}};
    out.add("Count", {std::int32_t{1}});
    Record& scene = out.add("Document", {document_id, std::string("Scene"), std::string("Scene")});
    Properties p;
    p.text("ActiveAnimStackName", "");
    scene.children.push_back(p.take());
    scene.add("RootNode", {std::int64_t{0}});
    return out;
}

}  // namespace

std::vector<Record> header_records(const cast::Document& document, const Scene& scene,
                                   std::int64_t document_id) {
    std::vector<Record> out;
    out.push_back(header_extension());
    Raw id;
    for (std::uint8_t b : kFileId) id.bytes.push_back(static_cast<std::byte>(b));
    out.push_back({"FileId", {std::move(id)}, {}});
    out.push_back({"CreationTime", {std::string(kCreationTime)}, {}});
    out.push_back({"Creator", {std::string("castkit " CASTKIT_VERSION_STRING)}, {}});
    out.push_back(global_settings(document, scene));
    out.push_back(documents(document_id));
    out.push_back({"References", {}, {}});
    return out;
}

Record definitions(const Scene& scene) {
    Record out{"Definitions", {}, {}};
    out.add("Version", {std::int32_t{100}});
    std::int32_t total = 1;
    for (const auto& [type, count] : scene.counts) total += count;
    out.add("Count", {total});
    out.add("ObjectType", {std::string("GlobalSettings")}).add("Count", {std::int32_t{1}});
    for (const auto& [type, count] : scene.counts)
        out.add("ObjectType", {type}).add("Count", {static_cast<std::int32_t>(count)});
    return out;
}

}  // namespace castkit::fbx::detail
