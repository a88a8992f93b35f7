//! The loader's findings: what a runtime does with a model written in an encoding variant
//! (packed `dims`, a zero attribute value left out, values in the typed fields), judged
//! against onnx.proto rather than the operator's rules. A variant the runtime refuses, or
//! reads to other values, while it runs the same pair written as onnx writes it (the case's
//! plain twin), is the loader's defect: authority `page`, cited to the field it breaks.

use super::diagnosis::Behaviour;
use super::finding::FindingClass;
use super::group::Judged;
use crate::index::{Authority, CaseEntry, CaseShape, Citation, Section};
use harness::backend::FailureKind;
use harness::write::Encoding;

/// onnx.proto, the schema every field below is read against.
const ONNX_PROTO: &str = "https://github.com/onnx/onnx/blob/main/onnx/onnx.proto";

/// What the plain twin of an encoded case did on the same backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Twin {
    /// It passed: every element as expected.
    Passed,
    /// It ran, with elements that differ (or another type or shape).
    Differed,
    /// It did not run, or the tree has no twin.
    NotRun,
}

/// The rule of onnx.proto (and protobuf's encoding) that a model written in `encoding` keeps.
pub(super) fn citation(encoding: Encoding) -> Option<Citation> {
    let (section, rule, source) = match encoding {
        Encoding::Onnx => return None,
        Encoding::PackedDims => (
            Section::WireFormat,
            "TensorProto.dims (field 1) is a repeated int64, and a protobuf parser must read a \
             repeated scalar field written packed (one length-delimited record) as it reads one \
             key per entry",
            "https://protobuf.dev/programming-guides/encoding/#packed",
        ),
        Encoding::ZeroOmitted => (
            Section::WireFormat,
            "onnx.proto is proto2: an optional field left out reads as its default, so an INT \
             attribute (AttributeProto.type = INT, field 20) without its i (field 3) is 0, an \
             opset import without its domain (field 1) is the default domain, and a tensor of \
             no elements needs no data field",
            ONNX_PROTO,
        ),
        Encoding::TypedFields => (
            Section::TensorValues,
            "without raw_data a tensor's values are in the typed field of its data_type: \
             FLOAT16, BFLOAT16 and float8 elements are their bit patterns in int32_data (field \
             5), one per entry; FLOAT in float_data (4), INT64 in int64_data (7), DOUBLE in \
             double_data (10), UINT32 and UINT64 in uint64_data (11)",
            ONNX_PROTO,
        ),
    };
    Some(Citation {
        section,
        rule: rule.into(),
        source: source.into(),
    })
}

/// The variant of a case written in one, with whether its input is an initializer.
fn encoding_of(entry: &CaseEntry) -> Option<(Encoding, bool)> {
    match entry.shape {
        CaseShape::Encoded {
            encoding,
            initializer,
        } => Some((encoding, initializer)),
        _ => None,
    }
}

/// The loader's refusal of `encoding`.
fn refused(encoding: Encoding) -> Behaviour {
    match encoding {
        Encoding::PackedDims => Behaviour::PackedDimsRefused,
        Encoding::ZeroOmitted => Behaviour::OmittedZeroRefused,
        _ => Behaviour::TypedFieldsRefused,
    }
}

/// The loader's misreading of `encoding`.
fn misread(encoding: Encoding) -> Behaviour {
    match encoding {
        Encoding::PackedDims => Behaviour::PackedDimsMisread,
        Encoding::ZeroOmitted => Behaviour::OmittedZeroMisread,
        _ => Behaviour::TypedFieldsMisread,
    }
}

/// `judged`, the classes of encoded case `entry`, made the loader's where they are: a case
/// the runtime did not run (or gave another type or shape) while its twin ran; elements a
/// loader's reading reproduces; elements of a case whose twin passed. Classes of any other
/// case, and of a case whose twin did not run, are left as they are.
pub(super) fn attribute(entry: &CaseEntry, twin: Twin, judged: &mut [Judged]) {
    let Some((encoding, _)) = encoding_of(entry) else {
        return;
    };
    let Some(citation) = citation(encoding) else {
        return;
    };
    for j in judged.iter_mut() {
        let behaviour = match (&j.refusal, j.diagnosis) {
            (Some((kind, _)), _) if *kind != FailureKind::Mismatch => {
                (twin != Twin::NotRun).then_some(refused(encoding))
            }
            (_, Some(b)) if b.is_loader() => Some(b),
            _ => (twin == Twin::Passed).then_some(misread(encoding)),
        };
        if let Some(b) = behaviour {
            j.class = FindingClass::Shape(entry.shape);
            j.authority = Some((Authority::Page, citation.clone()));
            j.diagnosis = Some(b);
        }
    }
}

#[cfg(test)]
mod tests;
