// Temporaries that must not hand out what dies with them (issue 58): an Expected that is a
// temporary gives its value by value, never a pointer or reference into itself, and a temporary
// Document gives no nodes or views (they die with it at the end of the statement, while a
// range-for still walks them). Each case was a heap use-after-free under ASan.
// Built as tree_misuse.cpp is (compile_fail_test.cmake): once with no CASE, once per CASE.
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <filesystem>

using namespace castkit;
using namespace castkit::cast;

const Expected<Document> open_const(const std::filesystem::path& path, Diagnostics& diagnostics);

float misuse(const std::filesystem::path& path, Diagnostics& diagnostics) {
    // What a user writes instead: the Expected, or the value moved out of it, kept in a variable.
    Expected<Document> result = open(path, diagnostics);
    float x = 0.0f;
    for (const Model& model : result->models()) x += model.meshes()[0].positions()[0].x;
    Document document = *open(path, diagnostics);
    Document moved = open(path, diagnostics).value();
    const Document& extended = *open(path, diagnostics);  // a value: its lifetime is extended
    x += static_cast<float>(document.models().size() + moved.roots().size());
    x += static_cast<float>(extended.models().size() + (*open(path, diagnostics)).version);
    x += static_cast<float>(open(path, diagnostics).has_value());
#if CASE == 1  // a range-for over the views of the Expected's document, which dies first
    for (const Model& model : open(path, diagnostics)->models()) x += model.meshes().size();
#elif CASE == 2   // a pointer into the temporary Expected, through to the payload it owns
    x += open(path, diagnostics)->models()[0].meshes()[0].positions()[0].x;
#elif CASE == 3   // the Expected's value, a temporary Document, gives no views either
    for (const Model& model : (*open(path, diagnostics)).models()) x += model.meshes().size();
#elif CASE == 4   // ... through value()
    for (const Model& model : open(path, diagnostics).value().models()) x += model.meshes().size();
#elif CASE == 5   // ... nor its nodes
    for (const Node& root : (*open(path, diagnostics)).roots()) x += root.children().size();
#elif CASE == 6   // ... nor its roots' views
    x += open(path, diagnostics).value().root_nodes()[0].models().size();
#elif CASE == 7   // ... nor its animations
    for (const Animation& animation : std::move(result)->animations())
        x += animation.curves().size();
#elif CASE == 8   // a const temporary Expected gives no pointer into itself
    x += open_const(path, diagnostics)->models().size();
#elif CASE == 9   // ... nor a reference to its value
    for (const ConstModel& model : (*open_const(path, diagnostics)).models())
        x += model.meshes().size();
#elif CASE == 10  // a root added to a temporary document is gone with it
    Root root = Document().add_root();
#elif CASE == 11  // a temporary Expected of a plain value: a pointer to a vector that dies
    for (const dmf::Vertex& vertex : dmf::open(path, diagnostics)->vertices) x += vertex.position.x;
#elif CASE == 12  // ... and the buffer write_to_buffer gives
    const std::byte& first = write_to_buffer(document)->front();
#endif
    return x;
}
