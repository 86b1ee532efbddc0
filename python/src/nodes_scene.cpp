// The scene's node classes: Root, Metadata, File and Instance.
#include "node_classes.hpp"

namespace castkit::python::nodes {

namespace {

void register_root() {
    Def<RootRef, cast::Root>("Root")
        .list_ro("models", &cast::Root::models)
        .list_ro("animations", &cast::Root::animations)
        .list_ro("instances", &cast::Root::instances)
        .list_ro("metadata", &cast::Root::metadata)
        .add("add_model", &cast::Root::add_model)
        .add("add_animation", &cast::Root::add_animation)
        .add("add_instance", &cast::Root::add_instance)
        .add("add_metadata", &cast::Root::add_metadata);
}

void register_metadata() {
    Def<MetadataRef, cast::Metadata>("Metadata")
        .text_rw("author", &cast::Metadata::author, &cast::Metadata::set_author)
        .text_rw("software", &cast::Metadata::software, &cast::Metadata::set_software)
        .ro(
            "up_axis_name",
            [](const cast::Metadata& v, const NodeRef&) { return to_str(v.up_axis_name()); },
            "The stored `up` text, whatever it says")
        .rw<Typed<types::AxisWords>>(
            "up_axis",
            [](const cast::Metadata& v, const NodeRef&) -> OptionalOf<Word<types::AxisWords>> {
                auto axis = v.up_axis();
                if (!axis) return py::none();
                return py::str(std::string(cast::axis_name(unwrap(std::move(*axis)))));
            },
            [](cast::Metadata& v, const py::object& value, const NodeRef&) {
                std::string name = text(value, "up_axis");
                auto axis = cast::axis_from_name(name);
                if (!axis) throw py::value_error("up_axis: '" + name + "' is not x, y or z");
                v.set_up_axis(*axis);
            },
            "'x', 'y', 'z' or None; castkit.Error when the file says anything else")
        .text_rw("scene_root", &cast::Metadata::scene_root, &cast::Metadata::set_scene_root)
        .rw<Typed<types::UnitWords>>(
            "units",
            [](const cast::Metadata& v, const NodeRef&) -> OptionalOf<Word<types::UnitWords>> {
                auto units = v.units();
                if (!units) return py::none();
                return py::str(std::string(cast::units_name(unwrap(std::move(*units)))));
            },
            [](cast::Metadata& v, const py::object& value, const NodeRef&) {
                std::string name = text(value, "units");
                auto units = cast::units_from_name(name);
                if (!units)
                    throw py::value_error("units: '" + name + "' is not mm, cm, m, in or ft");
                v.set_units(*units);
            },
            "castkit's unit of the Root's lengths (docs/decisions.md rule 36): 'mm', 'cm', 'm', "
            "'in', 'ft' or None; castkit.Error when the file says anything else");
}

void register_instance() {
    Def<InstanceRef, cast::Instance>("Instance")
        .name()
        .link<FileRef>("reference_file", "rf", &cast::Instance::reference_file_hash,
                       &cast::Instance::reference_file)
        .transform()
        .list_ro("files", &cast::Instance::files)
        .add_file(
            "A File child naming path (the file the Instance places), which the spec requires");
}

}  // namespace

void declare_scene(py::module_& m) {
    declare<RootRef>(m, "Root", "A Root: the scene's models, animations, instances, metadata.");
    declare<MetadataRef>(m, "Metadata",
                         "Scene metadata: author, software, up axis, scene root, units.");
    declare<FileRef>(m, "File", "A file a material or instance names.");
    declare<InstanceRef>(m, "Instance", "An instance of another scene file.");
}

void register_scene() {
    register_root();
    register_metadata();
    Def<FileRef, cast::File>("File").text_rw("path", &cast::File::path, &cast::File::set_path);
    register_instance();
}

}  // namespace castkit::python::nodes
