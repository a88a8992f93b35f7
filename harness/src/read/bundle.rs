//! A case as one byte string (the model, input and expected-output files of one data set), so
//! that a fuzzer can mutate a whole case and the trial path can read it back from a directory.
//!
//! Layout: one header byte whose low 3 bits are the number of input files, then the files
//! separated by [`SEPARATOR`]: the model first, then the inputs, then the expected outputs.
//! Every byte string splits into some case, so a fuzzer's mutations never miss the reader.

use crate::error::Error;
use schema::layout;
use std::path::{Path, PathBuf};

/// Separates the files; short enough for a fuzzer's mutations to keep or create.
pub const SEPARATOR: &[u8] = b"#|#|";

/// The files of a one-data-set case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaseFiles {
    /// `model.onnx`.
    pub model: Vec<u8>,
    /// `test_data_set_0/input_K.pb`, K = 0, 1, ...
    pub inputs: Vec<Vec<u8>>,
    /// `test_data_set_0/output_K.pb`, K = 0, 1, ...
    pub outputs: Vec<Vec<u8>>,
}

/// The case a byte string describes. Inputs the header counts but the string lacks are
/// absent; an empty string is a case with an empty model.
pub fn split(bytes: &[u8]) -> CaseFiles {
    let Some((&header, rest)) = bytes.split_first() else {
        return CaseFiles::default();
    };
    let mut parts = split_on(rest, SEPARATOR).into_iter();
    let model = parts.next().unwrap_or_default().to_vec();
    let inputs = parts
        .by_ref()
        .take(usize::from(header & 7))
        .map(<[u8]>::to_vec)
        .collect();
    let outputs = parts.map(<[u8]>::to_vec).collect();
    CaseFiles {
        model,
        inputs,
        outputs,
    }
}

/// The byte string of `case`, or `None` if it cannot be one: more than 7 inputs, or files
/// whose bytes, once joined, would split differently (one holds the separator, or ends in a
/// part of it).
pub fn join(case: &CaseFiles) -> Option<Vec<u8>> {
    let count = u8::try_from(case.inputs.len()).ok().filter(|&n| n <= 7)?;
    let files = std::iter::once(&case.model)
        .chain(&case.inputs)
        .chain(&case.outputs);
    let mut out = vec![count];
    for (i, file) in files.enumerate() {
        if i > 0 {
            out.extend_from_slice(SEPARATOR);
        }
        out.extend_from_slice(file);
    }
    (split(&out) == *case).then_some(out)
}

/// Writes `case` into `dir` in the official layout (`model.onnx`, `test_data_set_0/*.pb`).
pub fn write_case(dir: &Path, case: &CaseFiles) -> Result<(), Error> {
    let set = layout::data_set(dir, 0);
    std::fs::create_dir_all(&set).map_err(|e| Error::at(&set, format!("cannot create: {e}")))?;
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| Error::at(path, format!("cannot write: {e}")))
    };
    write(&layout::model(dir), &case.model)?;
    for (k, bytes) in case.inputs.iter().enumerate() {
        write(&layout::input(&set, k), bytes)?;
    }
    for (k, bytes) in case.outputs.iter().enumerate() {
        write(&layout::output(&set, k), bytes)?;
    }
    Ok(())
}

/// Reads the case in `dir` (official layout, first data set only) as [`CaseFiles`].
pub fn read_case(dir: &Path) -> Result<CaseFiles, Error> {
    let read =
        |path: &Path| std::fs::read(path).map_err(|e| Error::at(path, format!("cannot read: {e}")));
    let set = layout::data_set(dir, 0);
    let numbered = |path: fn(&Path, usize) -> PathBuf| -> Result<Vec<Vec<u8>>, Error> {
        (0..)
            .map(|k| path(&set, k))
            .take_while(|p| p.is_file())
            .map(|p| read(&p))
            .collect()
    };
    Ok(CaseFiles {
        model: read(&layout::model(dir))?,
        inputs: numbered(layout::input)?,
        outputs: numbered(layout::output)?,
    })
}

/// `bytes` cut at every non-overlapping occurrence of `sep`.
fn split_on<'a>(bytes: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i + sep.len() <= bytes.len() {
        if &bytes[i..i + sep.len()] == sep {
            parts.push(&bytes[start..i]);
            i += sep.len();
            start = i;
        } else {
            i += 1;
        }
    }
    parts.push(&bytes[start..]);
    parts
}

#[cfg(test)]
mod tests;
