//! A worker checked step by step over eleven chosen official cases and seven built in memory
//! ([`CASES`]), each protocol step printed as it happens (start, hello, each request and
//! answer with its time, the outputs read back and compared), for someone writing a worker. A
//! step that breaks the protocol (docs/worker-protocol.md) makes the check fail; a wrong answer
//! or a refusal does not: those are the runtime's, and the suite judges them.

use crate::case::{Case, DataSet};
use crate::case::{Graph, Model, Node, ValueInfo};
use crate::compare::{compare_outputs, Rule};
use crate::diag::describe_with;
use crate::index::{Index, INDEX_FILE};
use crate::origin::Origins;
use crate::read::{load_case, read_model, read_tensor};
use crate::worker::{Failure, IoValue, Request, WorkerProcess, WorkerSpec};
use crate::write::model;
use crate::write::{write_tensor, Encoding};
use crate::Error;
use half::bf16;
use schema::layout;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use vocab::{DataType, Tensor};

/// The release of the cases of [`CASES`] built in memory rather than read from the data: a
/// Cast-28 into FLOAT6E2M3, which no onnx release ships a case of, and a CastLike whose input
/// `like` is declared [3, 4] and holds shape [1], as the onnx 1.12.0 to 1.14.1 BFLOAT16 cases
/// do. The suite's reader refuses those cases (a data set that contradicts its model is an
/// upstream data problem), so the check writes its own, and the worker still meets a data
/// shape that differs from the declared one.
pub const BUILT: &str = "built";

/// The cases run, as (release, case, what it exercises), in the order run.
pub const CASES: &[(&str, &str, &str)] = &[
    (
        "1.22.0",
        "test_cast_FLOAT_to_DOUBLE",
        "the plain case: one input, one output",
    ),
    (
        "1.2.3",
        "test_cast_FLOAT16_to_DOUBLE",
        "an opset-7 model, from the oldest release",
    ),
    (
        "1.22.0",
        "test_concat_3d_axis_negative_2",
        "Concat of two inputs, negative axis",
    ),
    (
        "1.22.0",
        "test_castlike_FLOAT_to_DOUBLE",
        "CastLike: input `like` is read for its type only (a runtime may prune it at load; \
         skip inputs the loaded model lacks)",
    ),
    (
        "1.22.0",
        "test_castlike_FLOAT_to_DOUBLE_expanded",
        "a graph of several nodes (the expanded CastLike)",
    ),
    (
        "1.9.0",
        "test_cast_STRING_to_FLOAT",
        "a STRING input (string_data, UTF-8)",
    ),
    ("1.9.0", "test_cast_FLOAT_to_STRING", "a STRING output"),
    (
        "1.22.0",
        "test_cast_FLOAT_to_INT4",
        "a sub-byte output: INT4, two per byte",
    ),
    (
        "1.22.0",
        "test_cast_UINT4_to_FLOAT",
        "a sub-byte input: UINT4, two per byte",
    ),
    (
        "1.22.0",
        "test_cast_FLOAT_to_INT2",
        "INT2, four per byte: many runtimes refuse it (answer stage \"load\")",
    ),
    (
        "1.22.0",
        "test_cast_no_saturate_FLOAT_to_FLOAT8E4M3FN",
        "float8 with the `saturate` attribute set to 0",
    ),
    (
        BUILT,
        "test_cast_FLOAT_to_FLOAT6E2M3",
        "a float6 output: FLOAT6E2M3, four codes in three bytes, at Cast-28 (IR 14); no release \
         ships a float6 case (built in memory)",
    ),
    (
        BUILT,
        "test_cast_FLOAT_to_DOUBLE_scalar",
        "a 0-d tensor: shape [], one element (dims absent from the files; built in memory)",
    ),
    (
        BUILT,
        "test_cast_FLOAT_to_INT4_even",
        "INT4 of an even length, 4: two whole bytes, no padding nibble (the official INT4 \
         cases hold 25 elements; built in memory)",
    ),
    (
        BUILT,
        "test_cast_UINT4_to_FLOAT_even",
        "a UINT4 input of an even length, 6 (built in memory)",
    ),
    (
        BUILT,
        "test_cast_UINT4_to_FLOAT_odd",
        "a UINT4 input of an odd length, 5: the last byte holds one code and a zero nibble \
         (built in memory)",
    ),
    (
        BUILT,
        "test_concat_COMPLEX64",
        "COMPLEX64, which few runtimes hold: refuse it at load (answer stage \"load\", kind \
         unsupported) rather than fail or crash (Concat-13; built in memory)",
    ),
    (
        BUILT,
        "test_castlike_FLOAT_to_BFLOAT16",
        "BFLOAT16; `like` is declared [3, 4] but the data holds shape [1] (as in onnx 1.12.0 \
         to 1.14.1, whose files the suite's reader refuses; built in memory)",
    ),
];

/// What a check saw, case by case.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cases whose outputs matched the expected ones (the suite's default rule).
    pub matched: usize,
    /// Cases answered with outputs that differ (a wrong dtype, shape or value).
    pub differ: usize,
    /// Cases refused at load.
    pub refused: usize,
    /// Cases failed at `input`, `run` or `output`, or whose loader failed (`load-error`).
    pub errors: usize,
    /// Protocol steps broken: a worker that did not start or say a valid hello, a crash, a
    /// timeout, a bad answer line, a missing or unreadable output file, no exit at the end.
    pub broken: usize,
    /// Chosen cases the data directory lacks.
    pub skipped: usize,
}

impl Summary {
    /// Whether every step kept to the protocol.
    pub fn ok(&self) -> bool {
        self.broken == 0
    }
}

/// Runs worker `command` (split as a POSIX shell would) over [`CASES`] from the official
/// data in `data_root`, writing each step to `out`; the input and output files go under
/// `io_dir`, which is removed afterwards. `Err` when the check cannot be made at all (no
/// data, a command line that does not parse, `out` failing); a worker that breaks the
/// protocol is counted in the summary.
pub fn run(
    data_root: &Path,
    command: &str,
    timeout: Duration,
    io_dir: &Path,
    out: &mut dyn Write,
) -> Result<Summary, Error> {
    let index = read_index(data_root)?;
    let spec = WorkerSpec::from_command_line(command, timeout)?;
    let io_dir = std::path::absolute(io_dir)
        .map_err(|e| Error::Worker(format!("{}: cannot resolve: {e}", io_dir.display())))?;
    let result = Check {
        spec,
        io_dir: io_dir.clone(),
        out,
        summary: Summary::default(),
    }
    .all(data_root, &index);
    let _ = std::fs::remove_dir_all(&io_dir);
    result
}

/// [`run`] for a command line's `--timeout SECS`, writing under `work/worker-io/check-<pid>`:
/// `Err` also when the worker broke the protocol (each break marked PROTOCOL in `out`). The
/// xtask's `backends check-worker` and the command's `worker check` both end here.
pub fn check(
    data_root: &Path,
    command: &str,
    timeout_secs: f64,
    work: &Path,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let timeout = crate::settings::worker_timeout(timeout_secs).ok_or_else(|| {
        Error::Settings(format!(
            "--timeout {timeout_secs}: give seconds above 0, at most 86400"
        ))
    })?;
    let io_dir = work
        .join("worker-io")
        .join(format!("check-{}", std::process::id()));
    let summary = run(data_root, command, timeout, &io_dir, out)?;
    match summary.ok() {
        true => Ok(()),
        false => Err(Error::Worker(format!(
            "the worker broke the protocol ({} problem(s), each marked PROTOCOL above; see \
             docs/worker-protocol.md)",
            summary.broken
        ))),
    }
}

fn read_index(data_root: &Path) -> Result<Index, Error> {
    if !data_root.is_dir() {
        return Err(Error::Worker(format!(
            "data directory {} does not exist: run `cargo xtask fetch-tests`, or pass --data DIR",
            data_root.display()
        )));
    }
    let path = data_root.join(INDEX_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Error::Worker(format!(
            "{}: cannot read ({e}); the check runs official cases: run `cargo xtask fetch-tests`",
            path.display()
        ))
    })?;
    serde_json::from_str(&text)
        .map_err(|e| Error::Worker(format!("{}: invalid index: {e}", path.display())))
}

struct Check<'o> {
    spec: WorkerSpec,
    io_dir: PathBuf,
    out: &'o mut dyn Write,
    summary: Summary,
}

/// `t` in milliseconds, for a step's line.
fn ms(t: Instant) -> String {
    format!("{:.1} ms", t.elapsed().as_secs_f64() * 1e3)
}

/// A failure's text, indented under its step.
fn indented(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Check<'_> {
    fn say(&mut self, line: &str) -> Result<(), Error> {
        writeln!(self.out, "{line}")
            .map_err(|e| Error::Worker(format!("cannot write the check's output: {e}")))
    }

    fn broken(&mut self, what: &str, failure: &dyn std::fmt::Display) -> Result<(), Error> {
        self.summary.broken += 1;
        self.say(&format!(
            "  PROTOCOL: {what}:\n{}",
            indented(&failure.to_string())
        ))
    }

    fn all(mut self, data_root: &Path, index: &Index) -> Result<Summary, Error> {
        self.say(&format!(
            "check-worker: {}\ndata: {}\ntimeout: {} s per answer\n",
            self.spec.argv.join(" "),
            data_root.display(),
            self.spec.timeout.as_secs_f64()
        ))?;
        let Some(mut worker) = self.start("start")? else {
            return self.end();
        };
        for (n, (release, case, why)) in CASES.iter().enumerate() {
            let read = if *release == BUILT {
                let dir = self.io_dir.join(BUILT).join(case);
                let built = built_case(&dir, case)?;
                self.say(&format!(
                    "case {}/{}: built/opset{}/{case} (in memory, written to {})\n  why: {why}",
                    n + 1,
                    CASES.len(),
                    built.model.opset,
                    dir.display()
                ))?;
                Ok(built)
            } else {
                let found = index
                    .instances
                    .iter()
                    .find(|i| i.release == *release && i.case == *case);
                let Some(instance) = found else {
                    self.summary.skipped += 1;
                    self.say(&format!(
                        "case {}/{}: skipped: onnx {release} {case} is not in {} ({why})\n",
                        n + 1,
                        CASES.len(),
                        data_root.display()
                    ))?;
                    continue;
                };
                self.say(&format!(
                    "case {}/{}: onnx-{release}/opset{}/{case}\n  why: {why}",
                    n + 1,
                    CASES.len(),
                    instance.opset
                ))?;
                load_case(&data_root.join(&instance.dir))
            };
            let kept = match read {
                Ok(case) => self.case(&mut worker, &case, n)?,
                Err(e) => {
                    self.say(&format!("  cannot read the case: {e}"))?;
                    self.summary.skipped += 1;
                    true
                }
            };
            self.say("")?;
            if !kept {
                match self.start("  restart")? {
                    Some(fresh) => worker = fresh,
                    None => return self.end(),
                }
            }
        }
        let t = Instant::now();
        match worker.finish() {
            Ok(status) => self.say(&format!(
                "end: stdin closed; the worker exited ({status}) after {}",
                ms(t)
            ))?,
            Err(e) => self.broken("end: stdin closed", &e)?,
        }
        self.end()
    }

    fn end(mut self) -> Result<Summary, Error> {
        let s = self.summary;
        self.say(&format!(
            "\nsummary: {} matched, {} differ, {} refused at load, {} failed (load-error, input, \
             run or output), {} skipped (not in the data); {} protocol problem{}",
            s.matched,
            s.differ,
            s.refused,
            s.errors,
            s.skipped,
            s.broken,
            if s.broken == 1 { "" } else { "s" }
        ))?;
        Ok(s)
    }

    /// Starts a worker and waits for its hello; `None` (counted as broken) when it fails.
    fn start(&mut self, step: &str) -> Result<Option<WorkerProcess>, Error> {
        let t = Instant::now();
        match WorkerProcess::start(&self.spec) {
            Ok(w) => {
                let hello = w.hello().clone();
                let limits = &hello.limits;
                let mut declares = String::new();
                if let Some(ir) = limits.max_ir_version {
                    declares.push_str(&format!(", IR version <= {ir}"));
                }
                for (domain, opset) in &limits.max_opset {
                    declares.push_str(&format!(", opset {domain:?} <= {opset}"));
                }
                self.say(&format!(
                    "{step}: hello after {}\n  < {}\n  protocol 1, runtime {:?}, version {:?}{declares}\n",
                    ms(t),
                    w.last_line(),
                    hello.runtime,
                    hello.version
                ))?;
                Ok(Some(w))
            }
            Err(f) => {
                self.broken(&format!("{step}: no valid hello after {}", ms(t)), &f)?;
                Ok(None)
            }
        }
    }

    /// Runs one case's first data set; `false` when the worker must be replaced.
    fn case(&mut self, worker: &mut WorkerProcess, case: &Case, n: usize) -> Result<bool, Error> {
        let dir = case.dir.as_path();
        let Some(ds) = case.data_sets.first() else {
            self.say("  the case has no data set")?;
            self.summary.skipped += 1;
            return Ok(true);
        };
        let io = self.io_dir.join(n.to_string());
        std::fs::create_dir_all(&io)
            .map_err(|e| Error::Worker(format!("cannot create {}: {e}", io.display())))?;
        let graph = &case.model.graph;
        let mut inputs = Vec::new();
        for (k, (value, tensor)) in graph.inputs.iter().zip(&ds.inputs).enumerate() {
            let path = layout::input(&io, k);
            write_tensor(&path, &value.name, tensor).map_err(|e| Error::Worker(e.to_string()))?;
            inputs.push(path);
        }
        let outputs: Vec<PathBuf> = (0..graph.outputs.len())
            .map(|k| layout::output(&io, k))
            .collect();
        let model =
            std::path::absolute(layout::model(dir)).map_err(|e| Error::Worker(e.to_string()))?;
        let request = Request {
            model: &model,
            inputs: graph
                .inputs
                .iter()
                .zip(&inputs)
                .map(|(v, p)| IoValue {
                    name: &v.name,
                    path: p,
                })
                .collect(),
            outputs: graph
                .outputs
                .iter()
                .zip(&outputs)
                .map(|(v, p)| IoValue {
                    name: &v.name,
                    path: p,
                })
                .collect(),
        };
        let t = Instant::now();
        let answer = worker.run(&request);
        let took = ms(t);
        self.say(&format!("  > {}", worker.last_request()))?;
        match answer {
            Ok(_) => self.say(&format!("  < {}  ({took})", worker.last_line()))?,
            Err(f @ (Failure::Unsupported(_) | Failure::Error { .. })) => {
                self.say(&format!("  < {}  ({took})", worker.last_line()))?;
                if matches!(f, Failure::Unsupported(_)) {
                    self.summary.refused += 1;
                } else {
                    self.summary.errors += 1;
                }
                // The message's later lines (the stderr tail of an error) under the step.
                let text = f.to_string();
                let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
                self.say(&format!("  answered: {first}"))?;
                if !rest.is_empty() {
                    self.say(&indented(rest))?;
                }
                return Ok(true);
            }
            Err(f) => {
                self.broken(&format!("after {took}"), &f)?;
                return Ok(false);
            }
        }
        let mut actual = Vec::new();
        for (value, path) in graph.outputs.iter().zip(&outputs) {
            if !path.is_file() {
                let what = format!("answered ok but wrote no file for output '{}'", value.name);
                self.broken(&what, &path.display())?;
                return Ok(true);
            }
            match read_tensor(path, None) {
                Ok(t) => actual.push(t),
                Err(e) => {
                    let what = format!("output '{}' is not a valid TensorProto", value.name);
                    self.broken(&what, &e)?;
                    return Ok(true);
                }
            }
        }
        let mismatches = compare_outputs(&ds.outputs, &actual, Rule::ONNX_DEFAULT);
        let names: Vec<String> = graph.outputs.iter().map(|o| o.name.clone()).collect();
        if mismatches.is_empty() {
            self.summary.matched += 1;
            self.say(&format!(
                "  outputs: {} read back, equal to the expected ones",
                actual.len()
            ))?;
        } else {
            self.summary.differ += 1;
            let text = describe_with(&mismatches, &names, "onnx-default", &Origins::Unknown);
            self.say(&format!(
                "  outputs differ from the expected ones:\n{}",
                indented(&text)
            ))?;
        }
        Ok(true)
    }
}

/// The [`BUILT`] case `case`, written to `dir` as a case directory (model.onnx and
/// test_data_set_0) and returned as the reader would return it.
fn built_case(dir: &Path, case: &str) -> Result<Case, Error> {
    let codes = |dtype: DataType, shape: Vec<usize>, codes: &[u128]| {
        crate::read::tensor_from_codes(dtype, shape, codes)
            .map_err(|e| Error::Worker(format!("the built {case}: {e}")))
    };
    let exact = |t: Result<Tensor, vocab::Error>| {
        t.map_err(|e| Error::Worker(format!("the built {case}: {e}")))
    };
    match case {
        "test_cast_FLOAT_to_FLOAT6E2M3" => built_float6(dir),
        "test_cast_FLOAT_to_DOUBLE_scalar" => {
            let input = exact(Tensor::from_vec(vec![], vec![-1.5f32]))?;
            let output = exact(Tensor::from_vec(vec![], vec![-1.5f64]))?;
            built_cast(dir, case, 21, input, output)
        }
        // INT4 is two's complement in four bits: -8 is 0x8, -1 is 0xF (docs/semantics.md).
        "test_cast_FLOAT_to_INT4_even" => {
            let input = exact(Tensor::from_vec(vec![4], vec![-8.0f32, -1.0, 0.0, 7.0]))?;
            let output = codes(DataType::Int4, vec![4], &[0x8, 0xF, 0x0, 0x7])?;
            built_cast(dir, case, 21, input, output)
        }
        "test_cast_UINT4_to_FLOAT_even" | "test_cast_UINT4_to_FLOAT_odd" => {
            let values: &[u128] = match case.ends_with("even") {
                true => &[0, 1, 7, 8, 14, 15],
                false => &[15, 0, 9, 1, 6],
            };
            let input = codes(DataType::Uint4, vec![values.len()], values)?;
            let floats = values.iter().map(|&v| v as f32).collect();
            let output = exact(Tensor::from_vec(vec![values.len()], floats))?;
            built_cast(dir, case, 21, input, output)
        }
        "test_concat_COMPLEX64" => built_complex_concat(dir),
        _ => built_shape_mismatch(dir),
    }
}

/// A Cast of `input` into the type of `output` at `opset` (IR 10), one data set.
fn built_cast(
    dir: &Path,
    case: &str,
    opset: i64,
    input: Tensor,
    output: Tensor,
) -> Result<Case, Error> {
    let to = vocab::Attribute {
        name: "to".into(),
        value: vocab::AttrValue::Int(output.dtype().code().into()),
    };
    let written = one_node(
        case,
        (10, opset),
        Node::new("Cast", &["input"], &["output"], vec![to]),
        vec![ValueInfo::tensor("input", input.dtype(), input.shape())],
        vec![ValueInfo::tensor("output", output.dtype(), output.shape())],
    );
    write_built(dir, &written, vec![input], vec![output])
}

/// Concat-13 of two COMPLEX64 tensors along axis 0: the output is the inputs' elements in
/// order, (1+2i), (-0.5+0i) then (0-3i).
fn built_complex_concat(dir: &Path) -> Result<Case, Error> {
    let c = |re: f32, im: f32| u128::from(re.to_bits()) | u128::from(im.to_bits()) << 32;
    let tensor = |shape: Vec<usize>, codes: &[u128]| {
        crate::read::tensor_from_codes(DataType::Complex64, shape, codes)
            .map_err(|e| Error::Worker(format!("the built COMPLEX64 case: {e}")))
    };
    let a = tensor(vec![2], &[c(1.0, 2.0), c(-0.5, 0.0)])?;
    let b = tensor(vec![1], &[c(0.0, -3.0)])?;
    let out = tensor(vec![3], &[c(1.0, 2.0), c(-0.5, 0.0), c(0.0, -3.0)])?;
    let axis = vocab::Attribute {
        name: "axis".into(),
        value: vocab::AttrValue::Int(0),
    };
    let written = one_node(
        "test_concat_COMPLEX64",
        (8, 13),
        Node::new("Concat", &["a", "b"], &["output"], vec![axis]),
        vec![
            ValueInfo::tensor("a", DataType::Complex64, &[2]),
            ValueInfo::tensor("b", DataType::Complex64, &[1]),
        ],
        vec![ValueInfo::tensor("output", DataType::Complex64, &[3])],
    );
    write_built(dir, &written, vec![a, b], vec![out])
}

/// Cast-28 FLOAT -> FLOAT6E2M3 over five values that FLOAT6E2M3 holds exactly, so the
/// expected codes are those of the OCP MX table (3.0 is 0x14, 0.5 is 0x04, 1.5 is 0x0C, 7.5
/// is 0x1F, the sign is 0x20); five codes end `raw_data` in two padding bits.
fn built_float6(dir: &Path) -> Result<Case, Error> {
    let input = Tensor::from_vec(vec![5], vec![-3.0f32, -0.5, 0.0, 1.5, 7.5]);
    let input = input.map_err(|e| Error::Worker(format!("the built float6 input: {e}")))?;
    let output = crate::read::tensor_from_codes(
        DataType::Float6E2M3,
        vec![5],
        &[0x34, 0x24, 0x00, 0x0C, 0x1F],
    )
    .map_err(|e| Error::Worker(format!("the built float6 output: {e}")))?;
    let to = vocab::Attribute {
        name: "to".into(),
        value: vocab::AttrValue::Int(DataType::Float6E2M3.code().into()),
    };
    let written = one_node(
        "test_cast_FLOAT_to_FLOAT6E2M3",
        (14, 28),
        Node::new("Cast", &["input"], &["output"], vec![to]),
        vec![ValueInfo::tensor("input", DataType::Float, &[5])],
        vec![ValueInfo::tensor("output", DataType::Float6E2M3, &[5])],
    );
    write_built(dir, &written, vec![input], vec![output])
}

/// A model of one node, `(IR version, opset)`, as the built cases declare it.
fn one_node(
    name: &str,
    (ir_version, opset): (i64, i64),
    node: Node,
    inputs: Vec<ValueInfo>,
    outputs: Vec<ValueInfo>,
) -> Model {
    Model {
        ir_version,
        producer: "onnx-conformance check-worker".into(),
        opset,
        graph: Graph {
            name: name.into(),
            nodes: vec![node],
            inputs,
            outputs,
            initializers: Vec::new(),
        },
    }
}

/// Writes `written` with one data set to `dir` and returns the case: the model as read back,
/// the data set as built (the reader's checks are not applied to it).
fn write_built(
    dir: &Path,
    written: &Model,
    inputs: Vec<Tensor>,
    outputs: Vec<Tensor>,
) -> Result<Case, Error> {
    let ds = layout::data_set(dir, 0);
    std::fs::create_dir_all(&ds)
        .map_err(|e| Error::Worker(format!("cannot create {}: {e}", ds.display())))?;
    let path = layout::model(dir);
    std::fs::write(&path, model::encode(written, Encoding::Onnx))
        .map_err(|e| Error::Worker(format!("{}: {e}", path.display())))?;
    let files = [
        (
            layout::input as fn(&Path, usize) -> PathBuf,
            &inputs,
            &written.graph.inputs,
        ),
        (layout::output, &outputs, &written.graph.outputs),
    ];
    for (file_of, tensors, declared) in files {
        for (k, (t, declared)) in tensors.iter().zip(declared).enumerate() {
            let file = file_of(&ds, k);
            write_tensor(&file, &declared.name, t).map_err(|e| Error::Worker(e.to_string()))?;
        }
    }
    Ok(Case {
        dir: dir.to_path_buf(),
        name: written.graph.name.clone(),
        model: read_model(&path).map_err(|e| Error::Worker(e.to_string()))?,
        data_sets: vec![DataSet {
            dir: ds,
            inputs,
            outputs,
        }],
    })
}

/// The shape-mismatch case, returned as the reader would return it, were its shape check off.
/// The FLOAT values are multiples of 0.5 below 8 in magnitude, so each is a BFLOAT16 exactly
/// and the expected output is the input's values.
fn built_shape_mismatch(dir: &Path) -> Result<Case, Error> {
    let values: Vec<f32> = (0..12u8).map(|k| f32::from(k) * 0.5 - 3.0).collect();
    let tensor = |shape: Vec<usize>, t: Result<Tensor, vocab::Error>| {
        t.map_err(|e| Error::Worker(format!("the built case's tensor of shape {shape:?}: {e}")))
    };
    let input = tensor(vec![3, 4], Tensor::from_vec(vec![3, 4], values.clone()))?;
    let like = tensor(
        vec![1],
        Tensor::from_vec(vec![1], vec![bf16::from_f32(0.0)]),
    )?;
    let expected: Vec<bf16> = values.iter().map(|&v| bf16::from_f32(v)).collect();
    let output = tensor(vec![3, 4], Tensor::from_vec(vec![3, 4], expected))?;
    let written = one_node(
        "test_castlike_FLOAT_to_BFLOAT16",
        (8, 15),
        Node::new("CastLike", &["input", "like"], &["output"], Vec::new()),
        vec![
            ValueInfo::tensor("input", DataType::Float, &[3, 4]),
            ValueInfo::tensor("like", DataType::Bfloat16, &[3, 4]),
        ],
        vec![ValueInfo::tensor("output", DataType::Bfloat16, &[3, 4])],
    );
    write_built(dir, &written, vec![input, like], vec![output])
}

#[cfg(test)]
mod tests;
