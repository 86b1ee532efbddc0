// Which Models of a document a format writes: what the check before every write looks at
// (FormatInfo::written_models).
#pragma once

#include <cstdint>

namespace castkit {

// The Models a writer writes, which the check before every write looks at.
enum class WrittenModels : std::uint8_t {
    None,   // no mesh (SEAnim holds none): only the floats are checked
    First,  // the first Model of the document (SEModel, DMF, K3D)
    All,    // every Model (glTF, whose export checks the instances it inlines as it reads them)
};

}  // namespace castkit
