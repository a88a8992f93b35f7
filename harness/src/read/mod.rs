//! Reading a case directory: model.onnx and test_data_set_N/*.pb into [`Case`].

#[cfg(feature = "fuzzing")]
pub mod bundle;
mod element;
mod model;
mod payload;
mod tensor_proto;
mod types;
mod wire;

pub(crate) use crate::codes::ToCode;
pub use model::{convert_model, is_default_domain};
pub use tensor_proto::{decode_tensor, element_type, MAX_ELEMENTS};
pub use types::check_declared_types;

use crate::case::{Case, DataSet, Graph, Model};
use crate::error::Error;
use crate::proto::{ModelProto, TensorProto};
use prost::Message;
use schema::layout;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vocab::{DataType, Storage, Tensor};

/// Reads the case in `dir`: its model (its declared types checked against its operator
/// versions) and every data set, tensors typed by the graph's declared types and bound to
/// graph inputs/outputs by position.
pub fn load_case(dir: &Path) -> Result<Case, Error> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::at(dir, "not a case directory"))?;
    let model_path = layout::model(dir);
    let model = read_model(&model_path)?;
    check_declared_types(&model).map_err(|e| e.in_file(&model_path))?;
    let data_sets = data_set_dirs(dir)?
        .into_iter()
        .map(|d| load_data_set(&d, &model))
        .collect::<Result<_, _>>()?;
    Ok(Case {
        dir: dir.to_path_buf(),
        name,
        model,
        data_sets,
    })
}

/// Reads and converts a `model.onnx`.
pub fn read_model(path: &Path) -> Result<Model, Error> {
    model_from_bytes(&read_file(path)?).map_err(|e| e.in_file(path))
}

/// Decodes and converts the bytes of a `model.onnx`; errors name no file.
pub fn model_from_bytes(bytes: &[u8]) -> Result<Model, Error> {
    let mp = ModelProto::decode(bytes)
        .map_err(|e| Error::msg(format!("not a valid ModelProto: {e}")))?;
    convert_model(mp)
}

/// Reads a serialized TensorProto (`input_K.pb`) as a tensor of the declared type.
pub fn read_tensor(path: &Path, declared: Option<DataType>) -> Result<Tensor, Error> {
    tensor_from_bytes(&read_file(path)?, declared).map_err(|e| e.in_file(path))
}

/// Reads TensorProto files one after another into the same memory: the file's bytes into
/// one buffer kept from call to call, `raw_data` decoded straight from it, and the elements
/// into storage the caller hands back. A run of tens of megabytes a chunk spent more in page
/// faults on fresh memory, and in prost's copies of the payload, than in reading it.
#[derive(Debug, Default)]
pub struct TensorReader {
    file: Vec<u8>,
}

impl TensorReader {
    /// [`read_tensor`], its elements in `spare`'s memory when that is storage of the tensor's
    /// type; same tensor, same errors.
    pub fn read(
        &mut self,
        path: &Path,
        declared: Option<DataType>,
        spare: Option<Storage>,
    ) -> Result<Tensor, Error> {
        use std::io::Read;
        self.file.clear();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut self.file))
            .map_err(|e| Error::at(path, format!("cannot read: {e}")))?;
        let tensor = tensor_from_bytes_reusing(&self.file, declared, spare);
        tensor.map_err(|e| e.in_file(path))
    }
}

/// Decodes the bytes of a serialized TensorProto as a tensor of the declared type; errors
/// name no file.
pub fn tensor_from_bytes(bytes: &[u8], declared: Option<DataType>) -> Result<Tensor, Error> {
    let tp = TensorProto::decode(bytes)
        .map_err(|e| Error::msg(format!("not a valid TensorProto: {e}")))?;
    decode_tensor(&tp, declared)
}

/// [`tensor_from_bytes`] with `raw_data` decoded where it lies in `bytes` and the elements
/// in `spare`'s memory when that is storage of the tensor's type; same tensor, same errors.
pub(crate) fn tensor_from_bytes_reusing(
    bytes: &[u8],
    declared: Option<DataType>,
    spare: Option<Storage>,
) -> Result<Tensor, Error> {
    let Some(cut) = wire::split_raw_data(bytes) else {
        return tensor_from_bytes(bytes, declared);
    };
    use prost::bytes::Buf;
    let tp = TensorProto::decode(Buf::chain(cut.head, cut.tail))
        .map_err(|e| Error::msg(format!("not a valid TensorProto: {e}")))?;
    tensor_proto::decode_tensor_in(&tp, Some(cut.raw), declared, spare)
}

/// A tensor of `dtype` and `shape` whose elements have the bit patterns `codes` (as
/// `raw_data` stores them, one element per code, sub-byte types unpacked), for writers of
/// cases; STRING has no codes.
pub fn tensor_from_codes(
    dtype: DataType,
    shape: Vec<usize>,
    codes: &[u128],
) -> Result<Tensor, Error> {
    let storage = element::storage_from_codes(dtype, codes)
        .ok_or_else(|| Error::msg(format!("{} elements have no code", dtype.name())))?;
    Tensor::new(shape, storage).map_err(|e| Error::msg(e.to_string()))
}

/// The bit pattern of every element of `tensor` (the inverse of [`tensor_from_codes`]);
/// `None` for STRING.
pub fn tensor_codes(tensor: &Tensor) -> Option<Vec<u128>> {
    vocab::with_storage!(tensor.storage(), v => v.iter().map(ToCode::to_code).collect())
}

/// The bit patterns of the elements of `tensor` at `at` (indices into its flat elements);
/// `None` for STRING.
pub fn codes_at(tensor: &Tensor, at: &[usize]) -> Option<Vec<u128>> {
    vocab::with_storage!(tensor.storage(), v => at.iter().map(|&i| v[i].to_code()).collect())
}

/// The indices where `a` and `b` hold different bits (strings: different text), in order;
/// `None` when their types or element counts differ. A whole chunk of a large run is
/// compared here, so equal chunks cost one pass and no allocation beyond the result.
pub fn differing_codes(a: &Tensor, b: &Tensor) -> Option<Vec<usize>> {
    differing_codes_kept(a, b, |_| true).map(|(kept, _)| kept)
}

/// [`differing_codes`] split by `keep`, asked of differing indices only: those it keeps, in
/// order, and how many others differ. A large run whose every other element differs where the
/// spec leaves the result undefined counts those without a list of millions of indices.
pub fn differing_codes_kept(
    a: &Tensor,
    b: &Tensor,
    keep: impl Fn(usize) -> bool,
) -> Option<(Vec<usize>, u64)> {
    if a.dtype() != b.dtype() || a.len() != b.len() {
        return None;
    }
    if let (vocab::Storage::String(x), vocab::Storage::String(y)) = (a.storage(), b.storage()) {
        let (mut kept, mut other) = (Vec::new(), 0);
        for i in (0..x.len()).filter(|&i| x[i] != y[i]) {
            match keep(i) {
                true => kept.push(i),
                false => other += 1,
            }
        }
        return Some((kept, other));
    }
    vocab::with_storage!(a.storage(), x => {
        let y = vocab::Element::slice(b.storage())?;
        Some(differing(x, y, keep))
    })
}

fn differing<T: ToCode>(x: &[T], y: &[T], keep: impl Fn(usize) -> bool) -> (Vec<usize>, u64) {
    /// Elements judged equal in one pass without a branch per element (which the compiler
    /// turns into vector compares): nearly every block of a large run is equal throughout.
    const BLOCK: usize = 4096;
    let (mut kept, mut other) = (Vec::new(), 0);
    for (b, (xs, ys)) in x.chunks(BLOCK).zip(y.chunks(BLOCK)).enumerate() {
        let differ = |(p, q): (&T, &T)| p.to_code() != q.to_code();
        if !xs.iter().zip(ys).fold(false, |d, pq| d | differ(pq)) {
            continue;
        }
        for (i, pq) in xs.iter().zip(ys).enumerate() {
            if differ(pq) {
                match keep(b * BLOCK + i) {
                    true => kept.push(b * BLOCK + i),
                    false => other += 1,
                }
            }
        }
    }
    (kept, other)
}

fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error::at(path, format!("cannot read: {e}")))
}

/// `N` if `name` is `<prefix>N<suffix>` with N in canonical decimal (no sign, no leading zero).
fn numbered(name: &str, prefix: &str, suffix: &str) -> Option<usize> {
    let digits = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let n: usize = digits.parse().ok()?;
    (n.to_string() == digits).then_some(n)
}

/// The entries of `dir`, by file name.
fn entries(dir: &Path) -> Result<Vec<(String, PathBuf)>, Error> {
    let list = std::fs::read_dir(dir).map_err(|e| Error::at(dir, format!("cannot list: {e}")))?;
    list.map(|entry| {
        let entry = entry.map_err(|e| Error::at(dir, format!("cannot list: {e}")))?;
        Ok((
            entry.file_name().to_string_lossy().into_owned(),
            entry.path(),
        ))
    })
    .collect()
}

/// The `test_data_set_N` directories of a case, in numeric order; at least one.
fn data_set_dirs(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let sets: BTreeMap<usize, PathBuf> = entries(dir)?
        .into_iter()
        .filter_map(|(name, path)| Some((numbered(&name, layout::DATA_SET_PREFIX, "")?, path)))
        .collect();
    if sets.is_empty() {
        return Err(Error::at(dir, "case has no test_data_set_N directory"));
    }
    Ok(sets.into_values().collect())
}

/// The `<prefix>K.pb` files of a data set, which must be numbered 0, 1, ... without a gap.
fn numbered_files(
    files: &[(String, PathBuf)],
    dir: &Path,
    prefix: &str,
) -> Result<Vec<PathBuf>, Error> {
    let found: BTreeMap<usize, &PathBuf> = files
        .iter()
        .filter_map(|(name, path)| Some((numbered(name, prefix, layout::TENSOR_SUFFIX)?, path)))
        .collect();
    if let Some((missing, (_, later))) = found.iter().enumerate().find(|(i, (k, _))| i != *k) {
        return Err(Error::at(
            dir.join(format!("{prefix}{missing}{}", layout::TENSOR_SUFFIX)),
            format!("file missing, although {} exists", later.display()),
        ));
    }
    Ok(found.into_values().cloned().collect())
}

/// Reads one data set, binding `input_K.pb` to graph input K and `output_K.pb` to graph output
/// K by position (names inside the files are not trusted: old releases say `x`/`y`).
fn load_data_set(dir: &Path, model: &Model) -> Result<DataSet, Error> {
    let files = entries(dir)?;
    if let Some((_, stray)) = files.iter().find(|(name, _)| {
        name.ends_with(layout::TENSOR_SUFFIX)
            && numbered(name, layout::INPUT_PREFIX, layout::TENSOR_SUFFIX).is_none()
            && numbered(name, layout::OUTPUT_PREFIX, layout::TENSOR_SUFFIX).is_none()
    }) {
        return Err(Error::at(
            stray,
            "unexpected .pb file in a data set (expected input_K.pb or output_K.pb)",
        ));
    }
    let graph = &model.graph;
    let input_files = numbered_files(&files, dir, layout::INPUT_PREFIX)?;
    let output_files = numbered_files(&files, dir, layout::OUTPUT_PREFIX)?;
    check_input_count(&input_files, dir, graph)?;
    check_output_count(&output_files, dir, graph)?;
    let inputs = read_bound(&input_files, |k| graph.inputs.get(k).and_then(|v| v.dtype))?;
    check_input_shapes(&inputs, &input_files, graph)?;
    let outputs = read_bound(&output_files, |k| {
        graph.outputs.get(k).and_then(|v| v.dtype)
    })?;
    Ok(DataSet {
        dir: dir.to_path_buf(),
        inputs,
        outputs,
    })
}

fn read_bound(
    files: &[PathBuf],
    declared: impl Fn(usize) -> Option<DataType>,
) -> Result<Vec<Tensor>, Error> {
    files
        .iter()
        .enumerate()
        .map(|(k, path)| read_tensor(path, declared(k)))
        .collect()
}

/// Each input's data must have the shape its graph input declares (where the dims are
/// given): a runtime may check it, and a case whose data contradicts its own model is an
/// upstream data problem, the same for every backend.
fn check_input_shapes(inputs: &[Tensor], files: &[PathBuf], graph: &Graph) -> Result<(), Error> {
    for (k, (tensor, vi)) in inputs.iter().zip(&graph.inputs).enumerate() {
        let Some(declared) = &vi.shape else { continue };
        let actual = tensor.shape();
        let fits = declared.len() == actual.len()
            && declared
                .iter()
                .zip(actual)
                .all(|(d, &a)| d.is_none_or(|d| d == a));
        if !fits {
            let dims: Vec<String> = declared
                .iter()
                .map(|d| d.map_or_else(|| "?".to_string(), |d| d.to_string()))
                .collect();
            return Err(Error::at(
                &files[k],
                format!(
                    "graph input {k} '{}' declares shape [{}], the data holds {actual:?}",
                    vi.name,
                    dims.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// Input files may stop early only where the remaining graph inputs have initializers.
fn check_input_count(files: &[PathBuf], dir: &Path, graph: &Graph) -> Result<(), Error> {
    let declared = graph.inputs.len();
    if files.len() > declared {
        return Err(Error::at(
            &files[declared],
            format!("no graph input at position {declared}: the graph declares {declared} inputs"),
        ));
    }
    let unfed = graph.inputs[files.len()..]
        .iter()
        .enumerate()
        .find(|(_, vi)| !graph.initializers.iter().any(|(n, _)| *n == vi.name));
    match unfed {
        Some((i, vi)) => {
            let k = files.len() + i;
            Err(Error::at(
                layout::input(dir, k),
                format!(
                    "file missing for graph input {k} '{}', which has no initializer",
                    vi.name
                ),
            ))
        }
        None => Ok(()),
    }
}

/// Every declared graph output needs its expected value, and no file may be left over.
fn check_output_count(files: &[PathBuf], dir: &Path, graph: &Graph) -> Result<(), Error> {
    let declared = graph.outputs.len();
    if files.len() > declared {
        return Err(Error::at(
            &files[declared],
            format!(
                "no graph output at position {declared}: the graph declares {declared} outputs"
            ),
        ));
    }
    if files.len() < declared {
        let k = files.len();
        return Err(Error::at(
            layout::output(dir, k),
            format!(
                "file missing for graph output {k} '{}' (the graph declares {declared} outputs)",
                graph.outputs[k].name
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
