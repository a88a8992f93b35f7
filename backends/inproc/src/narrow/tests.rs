//! The narrowing conversions, each checked against values written from the formats' rules:
//! FLOAT16 has 10 mantissa bits (2^-24 is its least subnormal, 65504 its largest finite), BOOL
//! has exactly the values 0 and 1, i32 ends at 2^31 - 1.

use super::*;
use crate::{CANDLE_TYPES, RTEN_TYPES};
use harness::case::{Graph, ValueInfo};

fn model(inputs: &[DataType], outputs: &[DataType]) -> Model {
    let infos = |types: &[DataType], prefix: &str| {
        types
            .iter()
            .enumerate()
            .map(|(k, &t)| ValueInfo {
                name: format!("{prefix}{k}"),
                dtype: Some(t),
                shape: None,
            })
            .collect()
    };
    Model {
        ir_version: 10,
        producer: String::new(),
        opset: 21,
        graph: Graph {
            name: "g".into(),
            nodes: Vec::new(),
            inputs: infos(inputs, "x"),
            outputs: infos(outputs, "y"),
            initializers: Vec::new(),
        },
    }
}

fn tensor<T: harness::vocab::Element>(values: Vec<T>) -> Tensor {
    Tensor::from_vec(vec![values.len()], values).expect("a tensor")
}

/// Every declared narrowing of every runtime converts both ways, and a value of the declared
/// type that the held type keeps comes back to itself.
#[test]
fn every_declared_narrowing_converts_both_ways() {
    for types in [RTEN_TYPES, CANDLE_TYPES] {
        for &(declared, held) in types.narrowed {
            let one = match declared {
                DataType::Float16 => tensor(vec![f16::from_f32(1.5)]),
                DataType::Double => tensor(vec![1.5f64]),
                DataType::Int64 => tensor(vec![-7i64]),
                DataType::Bool => tensor(vec![true]),
                other => panic!("{}: no test value for {other:?}", types.runtime),
            };
            let narrowed = types.to_runtime(&one).expect("narrowed");
            assert_eq!(narrowed.dtype(), held, "{} {declared:?}", types.runtime);
            let back = types
                .from_runtime(0, "y", Some(declared), narrowed)
                .expect("widened");
            assert_eq!(back, one, "{} {declared:?}", types.runtime);
        }
    }
}

#[test]
fn the_tables_say_what_they_hold() {
    assert_eq!(
        RTEN_TYPES.describe(),
        "FLOAT, INT32, INT8, UINT8; FLOAT16 and DOUBLE as FLOAT; INT64 and BOOL as INT32"
    );
    assert_eq!(
        CANDLE_TYPES.describe(),
        "UINT8, UINT32, INT64, FLOAT16, FLOAT, DOUBLE; BOOL as UINT8"
    );
}

/// Inputs go to the held type as rten loads such data: DOUBLE rounded to f32, INT64 saturated
/// to the i32 range, BOOL as 0 and 1, FLOAT16 exactly.
#[test]
fn inputs_narrow_as_the_runtime_loads_such_data() {
    let f = RTEN_TYPES
        .to_runtime(&tensor(vec![0.1f64, 1e300, -0.0]))
        .expect("narrowed");
    let bits: Vec<u32> = f
        .as_slice::<f32>()
        .expect("f32")
        .iter()
        .map(|x| x.to_bits())
        .collect();
    // 0.1 rounds to 0x3dcccccd; 1e300 is above f32's range; -0.0 keeps its sign.
    assert_eq!(bits, [0x3dcc_cccd, 0x7f80_0000, 0x8000_0000]);
    let i = RTEN_TYPES
        .to_runtime(&tensor(vec![3_000_000_000i64, -3_000_000_000, 5]))
        .expect("narrowed");
    assert_eq!(i.as_slice::<i32>(), Some(&[i32::MAX, i32::MIN, 5][..]));
    let b = CANDLE_TYPES
        .to_runtime(&tensor(vec![true, false]))
        .expect("narrowed");
    assert_eq!(b.as_slice::<u8>(), Some(&[1u8, 0][..]));
    let h = RTEN_TYPES
        .to_runtime(&tensor(vec![
            f16::from_bits(0x0001),
            f16::from_bits(0x7bff),
        ]))
        .expect("narrowed");
    assert_eq!(h.as_slice::<f32>(), Some(&[2f32.powi(-24), 65504.0][..]));
}

/// An f32 that is a FLOAT16 value comes back bit for bit; one that is not (0.1, 65520, half
/// of the least subnormal) is a mismatch naming each, not rounded to the nearest FLOAT16.
#[test]
fn a_float16_output_must_hold_float16_values() {
    let good = vec![
        0.5f32,
        -0.0,
        65504.0,
        2f32.powi(-24),
        f32::INFINITY,
        f32::NAN,
    ];
    let back = RTEN_TYPES
        .from_runtime(0, "y", Some(DataType::Float16), tensor(good.clone()))
        .expect("every value is a FLOAT16");
    let want: Vec<u16> = [0x3800, 0x8000, 0x7bff, 0x0001, 0x7c00].to_vec();
    let bits: Vec<u16> = back
        .as_slice::<f16>()
        .expect("f16")
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(bits[..5], want[..]);
    assert!(f16::from_bits(bits[5]).is_nan());
    let bad = tensor(vec![1.0f32, 0.1, 65520.0, 2f32.powi(-25)]);
    let e = RTEN_TYPES
        .from_runtime(2, "y", Some(DataType::Float16), bad)
        .expect_err("0.1 is no FLOAT16");
    assert_eq!(e.kind, FailureKind::Mismatch);
    for part in [
        "rten: output 2 `y` is declared FLOAT16, which rten holds as FLOAT",
        "3 of its 4 values are no FLOAT16 value",
        "[1] 1e-1 (0x3dcccccd)",
        "[2] 6.552e4 (0x477ff000)",
        "[3] 2.9802322e-8 (0x33000000)",
    ] {
        assert!(e.message.contains(part), "{part:?} not in {}", e.message);
    }
}

/// A BOOL held as an integer must hold 0 or 1: 2 is no BOOL value (rten's Cast FLOAT->BOOL of
/// 2.0), whichever integer type holds it.
#[test]
fn a_bool_output_must_hold_zero_or_one() {
    let back = RTEN_TYPES
        .from_runtime(0, "y", Some(DataType::Bool), tensor(vec![0i32, 1]))
        .expect("0 and 1");
    assert_eq!(back.as_slice::<bool>(), Some(&[false, true][..]));
    let e = RTEN_TYPES
        .from_runtime(0, "y", Some(DataType::Bool), tensor(vec![0i32, 2, -1]))
        .expect_err("2 is no BOOL");
    assert_eq!(e.kind, FailureKind::Mismatch);
    assert!(
        e.message
            .contains("2 of its 3 values are no BOOL value ([1] 2, [2] -1)"),
        "{}",
        e.message
    );
    let e = CANDLE_TYPES
        .from_runtime(0, "y", Some(DataType::Bool), tensor(vec![255u8]))
        .expect_err("255 is no BOOL");
    assert!(e.message.contains("([0] 255)"), "{}", e.message);
}

/// A narrowed type is run and its result compared: the model is accepted, the output comes
/// back in the declared type, and a wrong value fails as a mismatch, never as `unsupported`.
/// A type the runtime has no tensors of is refused at load, saying what it holds.
#[test]
fn a_narrowed_type_is_compared_and_an_absent_one_refused() {
    let narrowed = model(
        &[
            DataType::Float16,
            DataType::Int64,
            DataType::Bool,
            DataType::Double,
        ],
        &[],
    );
    assert_eq!(RTEN_TYPES.check_inputs(&narrowed), Ok(()));
    let wide = RTEN_TYPES
        .from_runtime(0, "y", Some(DataType::Int64), tensor(vec![i32::MAX]))
        .expect("i32 widens");
    // A FLOAT->INT64->FLOAT chain through i32 shows as the value it computed: the comparison
    // with the expected 3000000000 is the harness's.
    assert_eq!(wide.as_slice::<i64>(), Some(&[2_147_483_647i64][..]));
    let e = RTEN_TYPES
        .check_inputs(&model(&[DataType::Float, DataType::Uint16], &[]))
        .expect_err("rten has no u16");
    assert_eq!(e.kind, FailureKind::Unsupported);
    assert_eq!(
        e.message,
        "rten: input `x1` is UINT16, a type it has no tensors of (it holds FLOAT, INT32, INT8, \
         UINT8; FLOAT16 and DOUBLE as FLOAT; INT64 and BOOL as INT32)"
    );
    let e = CANDLE_TYPES
        .check_inputs(&model(&[DataType::Int32], &[]))
        .expect_err("candle-onnx reads no INT32 input");
    assert!(
        e.message.starts_with("candle-onnx: input `x0` is INT32"),
        "{}",
        e.message
    );
}

/// An output in a type other than the one holding its declared type comes back as it is, so
/// the comparison names the type: candle-onnx's Cast to INT32 gives INT64.
#[test]
fn an_output_of_another_type_is_left_for_the_comparison() {
    let out = CANDLE_TYPES
        .from_runtime(0, "y", Some(DataType::Int32), tensor(vec![7i64]))
        .expect("left as it is");
    assert_eq!(out.dtype(), DataType::Int64);
    let out = RTEN_TYPES
        .from_runtime(0, "y", Some(DataType::Float16), tensor(vec![7i32]))
        .expect("left as it is");
    assert_eq!(out.dtype(), DataType::Int32);
}
