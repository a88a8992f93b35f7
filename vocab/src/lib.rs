//! The vocabulary a conformance harness and an ONNX implementation share, owned by neither:
//! data types and their element formats, tensors, node attributes, and the table of Cast,
//! CastLike and Concat versions (allowed types and attributes per since-version).
//!
//! The harness judges a runtime with this crate alone, so what the spec allows is never asked
//! of the implementation under test. No conversion lives here: the codec is the
//! implementation's.
#![forbid(unsafe_code)]

pub mod dtype;
pub mod elements;
pub mod error;
pub mod op;
mod serde_forms;
pub mod tensor;
pub mod types;
pub mod version;

pub use dtype::{DataType, Element, Storage, TypeKind, TypedField};
pub use error::Error;
pub use op::{AttrValue, Attribute, OpKind, OpVersion, RoundMode};
pub use tensor::Tensor;
pub use types::TypeSet;
pub use version::{VersionSpec, NEWEST_KNOWN_OPSET, VERSIONS};

/// sha256 of this crate's sources, tests aside, taken when it was built (build.rs): a crate
/// whose files are written in this vocabulary (the deep tree) records it to tell a stale file.
pub const SOURCES_SHA256: &str = env!("SOURCES_SHA256");
