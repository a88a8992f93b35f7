//! Reading a case directory: model.onnx and test_data_set_N/*.pb into [`Case`].

use crate::case::Case;
use crate::error::Error;
use std::path::Path;

/// Reads the case in `dir`: its model and every data set, tensors typed by the graph's
/// declared types and bound to graph inputs/outputs by position.
pub fn load_case(dir: &Path) -> Result<Case, Error> {
    Err(Error::at(dir, "reader not implemented yet"))
}
