#include "single_model.hpp"

#include <fmt/format.h>

namespace castkit::formats {

const cast::ConstModel* single_model(const std::vector<cast::ConstModel>& models,
                                     const Reporter& report, std::string_view format) {
    if (models.size() > 1)
        report.warn("", fmt::format("{} models; {} holds one, only the first is written",
                                    models.size(), format));
    if (models.empty()) return nullptr;
    const cast::ConstModel& model = models.front();
    if (model.position() || model.rotation() || model.scale())
        report.warn("model[0]",
                    fmt::format("the model's own position/rotation/scale has no {} field (dropped)",
                                format));
    if (!model.hairs().empty() || !model.blend_shapes().empty())
        report.warn("model[0]",
                    fmt::format("hairs and blend shapes have no {} equivalent (dropped)", format));
    return &model;
}

}  // namespace castkit::formats
