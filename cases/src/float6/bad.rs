//! Float6 inputs the reader must refuse (docs/semantics.md §5.3): each case is a well-formed
//! Cast model whose `input_0.pb` breaks one storage rule of onnx.proto that onnx's checker
//! enforces (or the exact length every type keeps), or a model that gives a float6 value to
//! Cast-25. Each names the parts its refusal must hold: the file, the tensor, the rule.

use super::{attr_int, cast28, codes, from_float6, Spec};
use harness::expected_error::ExpectedError;
use harness::write::{tensor, Encoding};
use prost::Message;
use vocab::DataType;

/// A Cast-28 case over `input` codes whose `input_0.pb` is `mangle`d, refused with `expect`.
fn mangled(
    name: &str,
    f6: DataType,
    input: &[u128],
    encoding: Encoding,
    mangle: impl Fn(&mut harness::proto::TensorProto),
    rule: &str,
    expect: &[&str],
) -> Spec {
    let mut spec = from_float6(f6, DataType::Float, input);
    spec.name = name.into();
    let mut tp = tensor::proto("input_0", &codes(f6, input), encoding);
    mangle(&mut tp);
    let mut parts = vec![
        format!("{name}/test_data_set_0/input_0.pb: "),
        "tensor 'input_0'".to_string(),
    ];
    parts.extend(expect.iter().map(|s| s.to_string()));
    spec.bad = Some((
        Some(tp.encode_to_vec()),
        ExpectedError {
            rule: rule.into(),
            expect: parts,
        },
    ));
    spec
}

/// A model of opset 25 (Cast-25, which allows no float6 type) whose graph input or output is
/// of a float6 type; its data files are well formed.
fn at_cast25(name: &str, from: DataType, to: DataType, expect: &str) -> Spec {
    // Zeros, code 0 in every type: the case is refused before any value matters.
    let mut spec = cast28(name.into(), to, codes(from, &[0; 3]), codes(to, &[0; 3]));
    spec.opset = 25;
    spec.attrs = vec![attr_int("to", to.code().into())];
    spec.bad = Some((
        None,
        ExpectedError {
            rule: "Cast-25 does not allow the float6 types (Cast-28 adds them)".into(),
            expect: vec![format!("{name}/model.onnx: "), expect.into()],
        },
    ));
    spec
}

/// Every case that must be refused.
pub(crate) fn bad_specs() -> Vec<Spec> {
    let (e2m3, e3m2) = (DataType::Float6E2M3, DataType::Float6E3M2);
    vec![
        mangled(
            "test_cast28_bad_FLOAT6E2M3_padding",
            e2m3,
            &[1, 2, 3],
            Encoding::Onnx,
            // Three codes fill bits 0-17; bits 18-23, the last byte's 2-7, are padding.
            |tp| {
                if let Some(raw) = tp.raw_data.as_mut() {
                    raw[2] |= 0x80;
                }
            },
            "raw_data's padding bits after the last float6 code are zero",
            &["padding bits are not zero", "hold 0x20"],
        ),
        mangled(
            "test_cast28_bad_FLOAT6E2M3_raw_data_too_long",
            e2m3,
            &[1, 2, 3],
            Encoding::Onnx,
            |tp| tp.raw_data.get_or_insert_with(Vec::new).push(0),
            "raw_data is exactly ceil(6n/8) bytes long",
            &["raw_data holds 4 bytes, but 3 FLOAT6E2M3 elements need exactly 3"],
        ),
        mangled(
            "test_cast28_bad_FLOAT6E3M2_raw_data_too_short",
            e3m2,
            &[1, 2, 3, 4, 5],
            Encoding::Onnx,
            |tp| {
                tp.raw_data.get_or_insert_with(Vec::new).pop();
            },
            "raw_data is exactly ceil(6n/8) bytes long",
            &["raw_data holds 3 bytes, but 5 FLOAT6E3M2 elements need exactly 4"],
        ),
        mangled(
            "test_cast28_bad_FLOAT6E3M2_int32_data_code_64",
            e3m2,
            &[1, 2, 3],
            Encoding::TypedFields,
            |tp| tp.int32_data[1] = 64,
            "an int32_data entry holds one code in bits 0-5, bits 6-31 zero",
            &[
                "int32_data entry 1 is 64 (0x40), not a FLOAT6E3M2 code",
                "bits 6-31 zero",
            ],
        ),
        mangled(
            "test_cast28_bad_FLOAT6E2M3_int32_data_negative",
            e2m3,
            &[1, 2, 3],
            Encoding::TypedFields,
            |tp| tp.int32_data[0] = -1,
            "an int32_data entry holds one code in bits 0-5, bits 6-31 zero",
            &["int32_data entry 0 is -1 (0xffffffff), not a FLOAT6E2M3 code"],
        ),
        at_cast25(
            "test_cast25_bad_FLOAT6E2M3_input",
            e2m3,
            DataType::Float,
            "reads graph input 'x0' of type FLOAT6E2M3, which Cast-25 (opset 25) does not allow \
             (Cast-28 and later allow it)",
        ),
        at_cast25(
            "test_cast25_bad_FLOAT_to_FLOAT6E3M2",
            DataType::Float,
            e3m2,
            "writes graph output 'y0' of type FLOAT6E3M2, which Cast-25 (opset 25) does not \
             allow (Cast-28 and later allow it)",
        ),
    ]
}
