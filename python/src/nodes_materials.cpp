// The material node classes: Color and Material.
#include "node_classes.hpp"

namespace castkit::python::nodes {

namespace {

CASTKIT_PYTHON_TYPE(ColorSpaceWords, "Literal['srgb', 'linear']");
CASTKIT_PYTHON_TYPE(Slots, "List[Tuple[str, int]]");

void register_color() {
    Def<ColorRef, cast::Color>("Color")
        .name()
        .ro(
            "color_space_name",
            [](const cast::Color& v, const NodeRef&) { return to_str(v.color_space_name()); },
            "The stored `cs` text; 'srgb' when missing")
        .choice_rw<cast::ColorSpace, ColorSpaceWords>(
            "color_space", &cast::Color::color_space, &cast::Color::set_color_space,
            {{{"srgb", cast::ColorSpace::Srgb}, {"linear", cast::ColorSpace::Linear}}},
            "'srgb' (the default) or 'linear'; castkit.Error when the file says anything else")
        .vec_rw<glm::vec4>("rgba", &cast::Color::rgba, &cast::Color::set_rgba);
}

// The Material's slots: what each names, and linking one.
void add_slots(Def<MaterialRef, cast::Material>& def) {
    def.ro(
           "slots",
           [](const cast::Material& v, const NodeRef&) -> Typed<Slots> {
               py::list out;
               for (const auto& slot : v.slots())
                   out.append(py::make_tuple(to_str(slot.name), slot.hash));
               return out;
           },
           "Every slot as (name, hash), in file order")
        .fn(
            "slot_hash",
            [](const NodeRef& r, const py::str& slot) {
                return opt(r.view<cast::Material>().slot_hash(encode(slot)));
            },
            py::arg("slot"))
        .fn(
            "slot_file",
            [](const NodeRef& r, const py::str& slot) {
                return wrap_view(r.doc, r.view<cast::Material>().slot_file(encode(slot)));
            },
            py::arg("slot"), "The File the slot links to, or None")
        .fn(
            "slot_color",
            [](const NodeRef& r, const py::str& slot) {
                return wrap_view(r.doc, r.view<cast::Material>().slot_color(encode(slot)));
            },
            py::arg("slot"), "The Color the slot links to, or None")
        .fn(
            "set_slot",
            [](const NodeRef& r, const py::str& slot, const NodeRef& target) {
                r.view<cast::Material>().set_hash_link(encode(slot),
                                                       linked(r, target, "set_slot").node->hash());
            },
            py::arg("slot"), py::arg("node"),
            "Links slot ('albedo', 'normal', ...) to a File or Color");
}

void register_material() {
    Def<MaterialRef, cast::Material> def("Material");
    def.name()
        .text_rw("type", &cast::Material::type, &cast::Material::set_type)
        .list_ro("files", &cast::Material::files)
        .list_ro("colors", &cast::Material::colors)
        .add_file("A File child naming path (the image a slot links to), which the spec requires")
        .add("add_color", &cast::Material::add_color);
    add_slots(def);
}

}  // namespace

void declare_materials(py::module_& m) {
    declare<ColorRef>(m, "Color", "A material colour.");
    declare<MaterialRef>(m, "Material", "A material: type, and slots linking Files and Colors.");
}

void register_materials() {
    register_color();
    register_material();
}

}  // namespace castkit::python::nodes
