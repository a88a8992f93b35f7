//! Fixtures of the fetch tests: small onnx wheels built by the tests, and a throw-away workspace.

use crate::{run, Options, Paths, Result};
use prost::Message;
use schema::proto::{GraphProto, ModelProto, NodeProto, OperatorSetIdProto};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where node tests live in a wheel.
pub const NODE: &str = "onnx/backend/test/data/node/";
/// The release of the test wheel.
pub const REL: &str = "9.0.0";

/// A one-node model of `op_type` importing the default domain at `opset`.
pub fn model(op_type: &str, opset: i64) -> Vec<u8> {
    ModelProto {
        ir_version: 8,
        graph: Some(GraphProto {
            node: vec![NodeProto {
                op_type: op_type.into(),
                ..Default::default()
            }],
            ..Default::default()
        }),
        opset_import: vec![
            OperatorSetIdProto {
                domain: Some("ai.onnx.ml".into()),
                version: 3,
            },
            OperatorSetIdProto {
                domain: Some(String::new()),
                version: opset,
            },
        ],
        ..Default::default()
    }
    .encode_to_vec()
}

/// Writes a wheel (a zip) holding `entries`, deflated.
pub fn wheel(path: &Path, entries: &[(String, Vec<u8>)]) {
    let file = fs::File::create(path).expect("create wheel");
    let mut zip = zip::ZipWriter::new(file);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), opts).expect("start entry");
        zip.write_all(bytes).expect("write entry");
    }
    zip.finish().expect("finish wheel");
}

/// The entries of a small onnx wheel: two selected cases, one other operator, other files.
pub fn entries(input: &[u8]) -> Vec<(String, Vec<u8>)> {
    vec![
        ("onnx/__init__.py".into(), b"# onnx".to_vec()),
        (format!("{NODE}test_cast_a/"), Vec::new()),
        (format!("{NODE}test_cast_a/model.onnx"), model("Cast", 13)),
        (
            format!("{NODE}test_cast_a/test_data_set_0/input_0.pb"),
            input.to_vec(),
        ),
        (
            format!("{NODE}test_concat_b/model.onnx"),
            model("Concat", 11),
        ),
        (format!("{NODE}test_add_c/model.onnx"), model("Add", 14)),
    ]
}

/// A temporary workspace: data directory, cache with one wheel, lock path.
pub struct Setup {
    /// The temporary root (removed on drop).
    pub dir: tempfile::TempDir,
    /// The paths a run uses.
    pub paths: Paths,
}

impl Setup {
    /// A workspace with the standard wheel of [`REL`] in the cache and no lock yet.
    pub fn new() -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let paths = Paths {
            data: dir.path().join("data"),
            lock: dir.path().join("lock.json"),
            // Any attempt to run pip fails loudly.
            python: "/nonexistent/python3".into(),
        };
        fs::create_dir_all(paths.cache()).expect("cache dir");
        let s = Setup { dir, paths };
        wheel(&s.wheel_path(), &entries(b"input v1"));
        s
    }

    /// The cached wheel of [`REL`].
    pub fn wheel_path(&self) -> PathBuf {
        self.paths
            .cache()
            .join(format!("onnx-{REL}-py3-none-any.whl"))
    }

    /// The installed directory of [`REL`].
    pub fn release_dir(&self) -> PathBuf {
        self.paths.data.join(format!("onnx-{REL}"))
    }

    /// Runs the fetch for [`REL`] with `opts`.
    pub fn run(&self, opts: Options) -> Result<()> {
        run(
            &Options {
                releases: vec![REL.into()],
                ..opts
            },
            &self.paths,
        )
    }

    /// Fetches once, recording the lock.
    pub fn locked(self) -> Setup {
        self.run(Options {
            update_lock: true,
            offline: true,
            ..Options::default()
        })
        .expect("record");
        self
    }

    /// Every file under the data directory (except the cache) with its contents.
    pub fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(&self.paths.data)
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file() && !e.path().starts_with(self.paths.cache()))
            .map(|e| {
                let rel = e.path().strip_prefix(&self.paths.data).expect("under data");
                (rel.display().to_string(), fs::read(e.path()).expect("read"))
            })
            .collect()
    }

    /// Temporary and set-aside directories left in the data directory.
    pub fn leftovers(&self) -> Vec<String> {
        fs::read_dir(&self.paths.data)
            .expect("list")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with(".tmp-") || n.starts_with(".old-"))
            .collect()
    }
}
