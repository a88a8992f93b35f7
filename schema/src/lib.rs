//! The on-disk formats shared by the fetch and the harness: the data index
//! and the lock file (`index`), the lock's hash (`hash`), the part of `onnx.proto` both read
//! (`proto`), where the target directory is (`workspace`), and how state files are written and
//! directories locked (`files`). A crate of its own so that
//! fetching the data does not compile the kernels.

pub mod files;
pub mod hash;
pub mod index;
pub mod layout;
pub mod proto;
pub mod workspace;

/// sha256 of [`proto`], taken when this crate was built (build.rs): a crate whose files are
/// encoded with these messages (the deep tree) records it to tell a stale file.
pub const PROTO_SHA256: &str = env!("SOURCES_SHA256");

/// Whether `domain` names the default operator set (`""` or `"ai.onnx"`).
pub fn is_default_domain(domain: &str) -> bool {
    domain.is_empty() || domain == "ai.onnx"
}

/// Why a model has no single default-domain opset ([`default_opset`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpsetError {
    /// The model imports no opset for `""` or `"ai.onnx"`.
    NoDefault,
    /// The model imports the default domain at two different opsets.
    Twice {
        /// The first opset imported.
        first: i64,
        /// Another, different one.
        other: i64,
    },
}

impl std::fmt::Display for OpsetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpsetError::NoDefault => {
                f.write_str("model imports no opset for the default domain (\"\" or \"ai.onnx\")")
            }
            OpsetError::Twice { first, other } => write!(
                f,
                "model imports the default domain twice, at opsets {first} and {other}"
            ),
        }
    }
}

impl std::error::Error for OpsetError {}

/// The opset a model imports for the default domain: the one rule the index (written by the
/// fetch) and the trials (read by the harness) both follow.
pub fn default_opset(mp: &proto::ModelProto) -> Result<i64, OpsetError> {
    let mut versions = mp
        .opset_import
        .iter()
        .filter(|o| is_default_domain(o.domain()))
        .map(|o| o.version);
    let first = versions.next().ok_or(OpsetError::NoDefault)?;
    if let Some(other) = versions.find(|&v| v != first) {
        return Err(OpsetError::Twice { first, other });
    }
    Ok(first)
}
