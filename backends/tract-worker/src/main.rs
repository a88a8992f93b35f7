//! A worker speaking protocol version 1 (docs/worker-protocol.md) over the tract-onnx runtime.
//!
//! stdout carries protocol lines only; diagnostics go to stderr. tract logs through the `log`
//! crate, and no logger is installed, so it stays silent.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use prost::Message;
use serde_json::{json, Value};
use tract_onnx::pb::TensorProto;
use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::{bail, TractErrorContext};

/// The tract-onnx version Cargo resolved, read from Cargo.lock by build.rs.
const TRACT_VERSION: &str = env!("TRACT_ONNX_VERSION");

// Output tensors are written from native memory; the protocol wants little-endian raw data.
#[cfg(target_endian = "big")]
compile_error!("tract-worker encodes raw_data from native memory and needs a little-endian target");

/// The protocol stage a request fails at.
#[derive(Clone, Copy, Debug)]
enum Stage {
    Load,
    Input,
    Run,
    Output,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Load => "load",
            Stage::Input => "input",
            Stage::Run => "run",
            Stage::Output => "output",
        })
    }
}

/// Why a request failed: the stage and a one-line message.
struct Failure {
    stage: Stage,
    error: String,
}

/// Tags a tract error with the stage it happened at.
trait At<T> {
    fn at(self, stage: Stage) -> Result<T, Failure>;
}

impl<T> At<T> for TractResult<T> {
    fn at(self, stage: Stage) -> Result<T, Failure> {
        // `{:#}` prints anyhow's whole context chain on one line.
        self.map_err(|e| Failure {
            stage,
            error: format!("{e:#}"),
        })
    }
}

/// A model ready to run, with the ONNX names of its inputs and outputs in tract's order.
struct Loaded {
    plan: Arc<TypedRunnableModel>,
    inputs: Vec<String>,
    outputs: Vec<String>,
}

/// One data set: `(name, path)` pairs for the graph inputs to feed and outputs to write.
struct Request {
    model: String,
    inputs: Vec<(String, String)>,
    outputs: Vec<(String, String)>,
}

fn main() -> ExitCode {
    let mut out = io::stdout().lock();
    let hello = json!({"protocol": 1, "runtime": "tract", "version": TRACT_VERSION});
    if say(&mut out, &hello).is_err() {
        return ExitCode::FAILURE;
    }
    let mut cache: HashMap<String, Loaded> = HashMap::new();
    for line in io::stdin().lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("tract-worker: cannot read stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        // Without an id there is nothing to answer to: give up loudly rather than guess.
        let message: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("tract-worker: request is not JSON ({e}): {line:.200}");
                return ExitCode::FAILURE;
            }
        };
        let Some(id) = message.get("id").and_then(Value::as_u64) else {
            eprintln!("tract-worker: request has no integer id: {line:.200}");
            return ExitCode::FAILURE;
        };
        let answer = match answer(&message, &mut cache) {
            Ok(()) => json!({"id": id, "ok": true}),
            Err(f) => {
                json!({"id": id, "ok": false, "stage": f.stage.to_string(), "error": f.error})
            }
        };
        if say(&mut out, &answer).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Writes one protocol line and flushes it.
fn say(out: &mut impl Write, line: &Value) -> io::Result<()> {
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .inspect_err(|e| {
            eprintln!("tract-worker: cannot write stdout: {e}");
        })
}

/// Runs one request, turning a panic anywhere inside into a failure at stage `run`.
fn answer(message: &Value, cache: &mut HashMap<String, Loaded>) -> Result<(), Failure> {
    let request = parse_request(message).map_err(|error| Failure {
        stage: Stage::Input,
        error,
    })?;
    let reached = Cell::new(Stage::Load);
    match panic::catch_unwind(AssertUnwindSafe(|| serve(&request, cache, &reached))) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(no message)");
            let error = format!("tract panicked at stage {}: {what}", reached.get());
            Err(Failure {
                stage: Stage::Run,
                error,
            })
        }
    }
}

/// Reads the request's fields; a malformed one is reported at stage `input`.
fn parse_request(message: &Value) -> Result<Request, String> {
    let model = message["model"]
        .as_str()
        .ok_or("request has no string 'model'")?;
    let pairs = |key: &str| -> Result<Vec<(String, String)>, String> {
        let items = message[key]
            .as_array()
            .ok_or(format!("request has no array '{key}'"))?;
        items
            .iter()
            .map(
                |item| match (item["name"].as_str(), item["path"].as_str()) {
                    (Some(name), Some(path)) => Ok((name.to_owned(), path.to_owned())),
                    _ => Err(format!(
                        "an entry of '{key}' lacks a string name or path: {item}"
                    )),
                },
            )
            .collect()
    };
    Ok(Request {
        model: model.to_owned(),
        inputs: pairs("inputs")?,
        outputs: pairs("outputs")?,
    })
}

/// Loads (or reuses) the model, feeds the inputs, runs it and writes the outputs.
fn serve(
    request: &Request,
    cache: &mut HashMap<String, Loaded>,
    reached: &Cell<Stage>,
) -> Result<(), Failure> {
    if !cache.contains_key(&request.model) {
        let loaded = load(&request.model).at(Stage::Load)?;
        cache.insert(request.model.clone(), loaded);
    }
    let model = &cache[&request.model];

    reached.set(Stage::Input);
    let feeds = feeds(model, &request.inputs).at(Stage::Input)?;

    reached.set(Stage::Run);
    let results = model.plan.run(feeds).at(Stage::Run)?;

    reached.set(Stage::Output);
    for (name, path) in &request.outputs {
        write_output(model, &results, name, path).at(Stage::Output)?;
    }
    Ok(())
}

/// Parses, types, optimizes and plans the model; any refusal by tract surfaces here.
fn load(path: &str) -> TractResult<Loaded> {
    let model = tract_onnx::onnx().model_for_path(path)?;
    // Sources are named after their graph inputs and outputs are labelled with their graph
    // names; both keep their order through optimization.
    let inputs = model
        .input_outlets()?
        .iter()
        .map(|o| model.node(o.node).name.clone())
        .collect();
    let outputs = model
        .output_outlets()?
        .iter()
        .map(|&o| model.outlet_label(o).unwrap_or_default().to_owned())
        .collect();
    let plan = model.into_optimized()?.into_runnable()?;
    Ok(Loaded {
        plan,
        inputs,
        outputs,
    })
}

/// The input tensors in the model's input order, decoded by tract's own TensorProto reader.
fn feeds(model: &Loaded, given: &[(String, String)]) -> TractResult<TVec<TValue>> {
    if let Some((name, _)) = given.iter().find(|(name, _)| !model.inputs.contains(name)) {
        bail!(
            "the model has no input '{name}' to feed (its inputs: {:?})",
            model.inputs
        );
    }
    let typed = model.plan.model();
    model
        .inputs
        .iter()
        .enumerate()
        .map(|(ix, name)| {
            let (_, path) = given
                .iter()
                .find(|(n, _)| n == name)
                .with_context(|| format!("no tensor given for model input '{name}'"))?;
            let tensor =
                read_tensor(path).with_context(|| format!("input '{name}' from {path}"))?;
            // tract trusts its inputs; a mismatch would surface later as an obscure run error.
            let fact = typed.input_fact(ix)?;
            if !fact.matches(&tensor, None)? {
                bail!("input '{name}' from {path} is {tensor:?}, the model expects {fact:?}");
            }
            Ok(tensor.into_tvalue())
        })
        .collect()
}

fn read_tensor(path: &str) -> TractResult<Tensor> {
    let bytes = std::fs::read(path).context("cannot read the file")?;
    let proto = TensorProto::decode(bytes.as_slice()).context("not a TensorProto")?;
    let resolver = tract_onnx::data_resolver::default();
    tract_onnx::tensor::load_tensor(&*resolver, &proto, None)
}

/// Writes the result named `name` as a serialized TensorProto at `path`.
fn write_output(model: &Loaded, results: &[TValue], name: &str, path: &str) -> TractResult<()> {
    let index = model
        .outputs
        .iter()
        .position(|n| n == name)
        .with_context(|| {
            format!(
                "the model has no output '{name}' (its outputs: {:?})",
                model.outputs
            )
        })?;
    let tensor = results
        .get(index)
        .with_context(|| format!("tract returned no output '{name}'"))?;
    let proto = to_proto(name, tensor).with_context(|| format!("output '{name}'"))?;
    std::fs::write(path, proto.encode_to_vec()).with_context(|| format!("cannot write {path}"))
}

/// Encodes a tract tensor as a TensorProto: the ONNX data type code of its datum type, its
/// dims, and its values in little-endian `raw_data` (strings in `string_data`).
fn to_proto(name: &str, tensor: &Tensor) -> TractResult<TensorProto> {
    // tract's ONNX Cast turns `to = INT64` into its symbolic dimension type TDim (for shape
    // arithmetic), so an INT64 graph output can arrive as TDim. Concrete values are plain
    // integers; a symbol left in one is an error from the cast.
    let tensor = match tensor.datum_type() {
        DatumType::TDim => tensor.cast_to::<i64>()?,
        _ => std::borrow::Cow::Borrowed(tensor),
    };
    let view = tensor.try_as_plain_ram()?;
    macro_rules! raw {
        ($t:ty) => {
            view.as_slice::<$t>()?
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect()
        };
    }
    let mut proto = TensorProto {
        name: name.to_owned(),
        dims: tensor.shape().iter().map(|&d| d as i64).collect(),
        ..TensorProto::default()
    };
    // One row per datum type with an ONNX code: (code, payload).
    (proto.data_type, proto.raw_data) = match tensor.datum_type() {
        DatumType::F32 => (1, raw!(f32)),
        DatumType::U8 => (2, raw!(u8)),
        DatumType::I8 => (3, raw!(i8)),
        DatumType::U16 => (4, raw!(u16)),
        DatumType::I16 => (5, raw!(i16)),
        DatumType::I32 => (6, raw!(i32)),
        DatumType::I64 => (7, raw!(i64)),
        DatumType::String => {
            let strings = view.as_slice::<String>()?;
            proto.string_data = strings.iter().map(|s| s.as_bytes().to_vec()).collect();
            (8, Vec::new())
        }
        DatumType::Bool => (
            9,
            view.as_slice::<bool>()?
                .iter()
                .map(|&b| u8::from(b))
                .collect(),
        ),
        DatumType::F16 => (10, raw!(f16)),
        DatumType::F64 => (11, raw!(f64)),
        DatumType::U32 => (12, raw!(u32)),
        DatumType::U64 => (13, raw!(u64)),
        other => bail!("tract datum type {other:?} has no ONNX data type"),
    };
    Ok(proto)
}
