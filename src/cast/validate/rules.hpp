// The validation rules as an enum the checks report with, so that a rule without a row in the
// table (rules.cpp) cannot be reported: the enum order is the table order.
#pragma once

#include <castkit/cast/validate.hpp>
#include <cstddef>

namespace castkit::cast::validation {

enum class Rule : std::size_t {
    // Format-level findings of the reader.
    ReadError,
    NodeSize,
    Trailing,
    Flags,
    UnknownPropertyType,
    // Structure.
    TopLevel,
    Parent,
    SkeletonCount,
    UnknownNode,
    // Properties.
    Payload,
    Required,
    Type,
    Single,
    StringCount,
    Utf8,
    Enum,
    Duplicate,
    UnknownProperty,
    OwnProperty,
    NonFinite,
    // Mesh.
    VertexCount,
    LayerCount,
    Weights,
    WeightBone,
    WeightSum,
    FaceLength,
    FaceIndex,
    DegenerateFace,
    MeshMaterial,
    // BlendShape and Hair.
    BlendShapeBase,
    BlendShapeLength,
    BlendShapeIndex,
    HairParticles,
    HairMaterial,
    // Skeleton.
    BoneParent,
    BoneCycle,
    BoneDuplicateName,
    Quaternion,
    IKHandleBone,
    ConstraintBone,
    ConstraintOffset,
    // Material and Instance.
    MaterialSlot,
    InstanceFile,
    FileEmptyPath,
    // Animation.
    Framerate,
    CurveKeyCount,
    CurveKeyOrder,
    CurveValueType,
    CurveQuaternion,
    NodeName,
    UnboundCurve,
    NotificationOrder,
    // Hashes.
    HashDuplicate,
    HashDuplicateUnreferenced,
    Count
};

const ValidationRule& rule_info(Rule rule);

}  // namespace castkit::cast::validation
