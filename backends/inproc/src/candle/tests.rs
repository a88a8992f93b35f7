//! The candle backend's pin and its declared types against candle-onnx's own map.

use candle_onnx::onnx::tensor_proto::DataType as Onnx;
use harness::vocab::DataType;

/// The version the backend reports is the one Cargo.toml pins.
#[test]
fn the_reported_version_is_the_pinned_one() {
    let manifest = include_str!("../../Cargo.toml");
    assert!(
        manifest.contains(&format!(
            "candle-onnx = {{ version = \"={}\"",
            super::VERSION
        )),
        "Cargo.toml does not pin candle-onnx ={}",
        super::VERSION
    );
}

/// The declared table is candle-onnx's own: every ONNX type it maps, and to what.
#[test]
fn the_declared_types_are_candle_onnx_s_own_map() {
    for code in 1..=26 {
        let Ok(onnx) = Onnx::try_from(code) else {
            continue;
        };
        let ours = DataType::from_code(code).and_then(|t| super::TYPES.held_as(t));
        let theirs = candle_onnx::eval::dtype(onnx);
        let as_candle = ours.map(|t| match t {
            DataType::Uint8 => candle_core::DType::U8,
            DataType::Uint32 => candle_core::DType::U32,
            DataType::Int64 => candle_core::DType::I64,
            DataType::Float16 => candle_core::DType::F16,
            DataType::Float => candle_core::DType::F32,
            DataType::Double => candle_core::DType::F64,
            other => panic!("{other:?} is no candle type"),
        });
        assert_eq!(as_candle, theirs, "ONNX type {code} ({onnx:?})");
    }
}
