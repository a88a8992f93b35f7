//! Writing `onnx-backend-data/index.json`: one instance per case directory on disk, with the
//! op type and opset read from its `model.onnx`, so the test runner never opens a model to list.

use super::error::{Error, Result};
use prost::Message;
use schema::index::{release_cmp, Index, Instance, INDEX_FILE};
use schema::proto::ModelProto;
use std::fs;
use std::path::Path;

/// Scans every `onnx-<release>/node/<case>` under `data` (fetched or generated) and returns
/// the index, sorted by release (version order) then case.
pub fn build(data: &Path) -> Result<Index> {
    let mut instances = Vec::new();
    for release in release_dirs(data)? {
        let node = data.join(format!("onnx-{release}")).join("node");
        let Ok(entries) = fs::read_dir(&node) else {
            continue;
        };
        for entry in entries {
            let entry = entry.map_err(|e| Error::io("list", &node, e))?;
            if !entry.path().is_dir() {
                continue;
            }
            let case = entry.file_name().to_string_lossy().into_owned();
            let (op_type, opset) = describe(&schema::layout::model(&entry.path()))?;
            instances.push(Instance {
                dir: format!("onnx-{release}/node/{case}"),
                release: release.clone(),
                case,
                op_type,
                opset,
            });
        }
    }
    instances.sort_by(|a, b| release_cmp(&a.release, &b.release).then(a.case.cmp(&b.case)));
    name_expanded_by_their_twin(&mut instances);
    Ok(Index {
        format: 1,
        instances,
    })
}

/// An `_expanded` case is an operator's function body inlined (CastLike becomes a Cast node),
/// so the operator under test is that of its non-expanded twin in the same release.
fn name_expanded_by_their_twin(instances: &mut [Instance]) {
    let ops: std::collections::HashMap<(String, String), String> = instances
        .iter()
        .map(|i| ((i.release.clone(), i.case.clone()), i.op_type.clone()))
        .collect();
    for inst in instances.iter_mut() {
        if let Some(twin) = inst.case.strip_suffix("_expanded") {
            if let Some(op) = ops.get(&(inst.release.clone(), twin.to_string())) {
                inst.op_type.clone_from(op);
            }
        }
    }
}

/// Release names of the `onnx-*` directories of `data` (temporary ones start with a dot).
fn release_dirs(data: &Path) -> Result<Vec<String>> {
    let entries = match fs::read_dir(data) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("list", data, e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io("list", data, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(release) = name.strip_prefix("onnx-") {
            if entry.path().is_dir() {
                out.push(release.to_string());
            }
        }
    }
    Ok(out)
}

/// The op_type of the model's first node and its default-domain opset, by the same rule the
/// test runner's reader follows (`schema::default_opset`), so the index and the trials agree.
pub fn describe(model: &Path) -> Result<(String, i64)> {
    let bad = |what: String| {
        Error::new(format!("{}: {what}", model.display()))
            .hint("delete this release directory and re-run `cargo xtask fetch-tests`")
    };
    let bytes = fs::read(model).map_err(|e| Error::io("read", model, e))?;
    let m = ModelProto::decode(bytes.as_slice())
        .map_err(|e| bad(format!("not a valid ModelProto: {e}")))?;
    let opset = schema::default_opset(&m).map_err(|e| bad(e.to_string()))?;
    let op_type = m
        .graph
        .and_then(|g| g.node.into_iter().next())
        .map(|n| n.op_type)
        .ok_or_else(|| bad("the graph has no node".into()))?;
    Ok((op_type, opset))
}

/// Writes the index to `data/index.json`, leaving the file untouched when nothing changed.
pub fn write(data: &Path, index: &Index) -> Result<()> {
    let path = data.join(INDEX_FILE);
    let mut text = serde_json::to_string_pretty(index)
        .map_err(|e| Error::new(format!("cannot serialize the index: {e}")))?;
    text.push('\n');
    if fs::read_to_string(&path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::create_dir_all(data).map_err(|e| Error::io("create directory", data, e))?;
    schema::files::write_atomic(&path, text.as_bytes()).map_err(Error::from)
}
