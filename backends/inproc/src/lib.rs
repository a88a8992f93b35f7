//! Rust runtimes judged in-process: rten and candle-onnx behind the harness's backend seam,
//! each compiled only with its cargo feature (`rten`, `candle`). Their type tables, and the
//! conversions of a runtime's declared narrowing ([`narrow`]), are compiled and tested without
//! either runtime.

#[cfg(feature = "candle")]
pub mod candle;
pub mod narrow;
#[cfg(feature = "rten")]
pub mod rten;

use harness::backend::Linked;
use harness::vocab::DataType;
use narrow::Types;

/// The ONNX types rten 0.27 has tensors of: f32, i32, i8 and u8. Its ONNX import holds FLOAT16
/// and DOUBLE as f32, INT64 and BOOL as i32 (rten `src/model/onnx_loader.rs`, the value types
/// and initializers; `src/op_registry/onnx_registry.rs`, Cast's `to`), and refuses the rest.
pub const RTEN_TYPES: Types = Types {
    runtime: "rten",
    exact: &[
        DataType::Float,
        DataType::Int32,
        DataType::Int8,
        DataType::Uint8,
    ],
    narrowed: &[
        (DataType::Float16, DataType::Float),
        (DataType::Double, DataType::Float),
        (DataType::Int64, DataType::Int32),
        (DataType::Bool, DataType::Int32),
    ],
};

/// The ONNX types candle-onnx 0.11 reads: its `eval::dtype` maps UINT8, UINT32, INT64, FLOAT16,
/// FLOAT and DOUBLE to candle's own and BOOL to U8, and nothing else (its Cast also takes INT32
/// as `to`, and produces I64).
pub const CANDLE_TYPES: Types = Types {
    runtime: "candle-onnx",
    exact: &[
        DataType::Uint8,
        DataType::Uint32,
        DataType::Int64,
        DataType::Float16,
        DataType::Float,
        DataType::Double,
    ],
    narrowed: &[(DataType::Bool, DataType::Uint8)],
};

/// The runtimes this build links, for `harness::backend::link`: the shipped backends `rten`
/// and `candle` when their features are on.
pub const LINKED: &[Linked] = &[
    #[cfg(feature = "rten")]
    Linked {
        name: "rten",
        start: rten::backend,
    },
    #[cfg(feature = "candle")]
    Linked {
        name: "candle",
        start: candle::backend,
    },
];

/// The panic payload's text, for a runtime that panicked.
#[cfg(any(feature = "rten", feature = "candle"))]
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}
