//! The node-test layout's names, in one place for every crate that writes or reads it: a case
//! directory holds [`MODEL`] and `test_data_set_<K>/`, each holding `input_<K>.pb` and
//! `output_<K>.pb`; a failed trial's dump directory holds `output_<K>.expected.npy`,
//! `output_<K>.actual.npy` and `output_<K>.actual.pb`.

use std::path::{Path, PathBuf};

/// The model's file in a case directory.
pub const MODEL: &str = "model.onnx";
/// What a data set's directory name starts with, before its number.
pub const DATA_SET_PREFIX: &str = "test_data_set_";
/// What an input file's name starts with, before its position.
pub const INPUT_PREFIX: &str = "input_";
/// What an expected output file's name starts with, before its position.
pub const OUTPUT_PREFIX: &str = "output_";
/// What a tensor file's name ends with, after its position.
pub const TENSOR_SUFFIX: &str = ".pb";

/// The model of the case in `case`.
pub fn model(case: &Path) -> PathBuf {
    case.join(MODEL)
}

/// The name of data set `k`'s directory.
pub fn data_set_name(k: usize) -> String {
    format!("{DATA_SET_PREFIX}{k}")
}

/// Data set `k` of the case in `case`.
pub fn data_set(case: &Path, k: usize) -> PathBuf {
    case.join(data_set_name(k))
}

/// The name of input `k`'s file.
pub fn input_name(k: usize) -> String {
    format!("{INPUT_PREFIX}{k}{TENSOR_SUFFIX}")
}

/// The name of output `k`'s file.
pub fn output_name(k: usize) -> String {
    format!("{OUTPUT_PREFIX}{k}{TENSOR_SUFFIX}")
}

/// Input `k` of the data set in `set`.
pub fn input(set: &Path, k: usize) -> PathBuf {
    set.join(input_name(k))
}

/// Expected output `k` of the data set in `set`.
pub fn output(set: &Path, k: usize) -> PathBuf {
    set.join(output_name(k))
}

/// The `.npy` dump of output `k` in the dump directory `dir`; `side` is `expected`,
/// `actual`, or `{expected,actual}` when naming both at once.
pub fn dumped_npy(dir: &Path, k: usize, side: &str) -> PathBuf {
    dir.join(format!("{OUTPUT_PREFIX}{k}.{side}.npy"))
}

/// The lossless dump of actual output `k` (a TensorProto) in the dump directory `dir`.
pub fn dumped_actual(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("{OUTPUT_PREFIX}{k}.actual{TENSOR_SUFFIX}"))
}

#[cfg(test)]
mod tests;
