//! The messages of worker protocol version 1 (docs/worker-protocol.md) and how their lines
//! are parsed. Nothing here touches a process, so every malformed line is unit-tested.

use crate::outcome::{Configuration, Limits};
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// The protocol version this harness speaks.
pub const PROTOCOL_VERSION: u64 = 1;

/// What a worker says about itself in its first line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hello {
    /// The runtime's name, as in `onnxruntime`.
    pub runtime: String,
    /// The runtime's version.
    pub version: String,
    /// The optional `max_ir_version` and `max_opset`: what the runtime supports.
    pub limits: Limits,
    /// The optional `configurations` it declares and the `configuration` it runs in.
    pub configuration: Option<Configuration>,
}

/// One input or output of a request: a graph value name and the .pb file that holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IoValue<'a> {
    /// The graph input or output name.
    pub name: &'a str,
    /// The absolute path of its TensorProto file.
    pub path: &'a Path,
}

/// One data set of one case, as sent to the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// The absolute path of the case's model.onnx.
    pub model: &'a Path,
    /// The graph inputs fed, each in a TensorProto file the harness wrote.
    pub inputs: Vec<IoValue<'a>>,
    /// The graph outputs wanted, each at a path for the worker to write.
    pub outputs: Vec<IoValue<'a>>,
}

/// Why a worker did not deliver a data set's outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The worker refused the model at load: an unknown type, operator or kernel.
    Unsupported(String),
    /// The worker failed at `input`, `run` or `output`, or its loader failed on a model it
    /// should load (stage `load` with `"kind": "load-error"`).
    Error {
        /// The stage the worker named.
        stage: String,
        /// The worker's error text.
        message: String,
    },
    /// The worker could not be started, exited, or closed its stdout.
    Crash(String),
    /// No hello or answer within the deadline.
    Timeout(String),
    /// A line that breaks the protocol: not JSON, a wrong id, a bad hello or version.
    Protocol(String),
}

impl Failure {
    /// This failure with `detail` (such as the stderr tail) appended to its text.
    pub fn with_detail(self, detail: &str) -> Failure {
        if detail.is_empty() {
            return self;
        }
        match self {
            Failure::Unsupported(m) => Failure::Unsupported(m + detail),
            Failure::Error { stage, message } => Failure::Error {
                stage,
                message: message + detail,
            },
            Failure::Crash(m) => Failure::Crash(m + detail),
            Failure::Timeout(m) => Failure::Timeout(m + detail),
            Failure::Protocol(m) => Failure::Protocol(m + detail),
        }
    }

    /// Whether the worker must be replaced before the next data set.
    pub fn kills_worker(&self) -> bool {
        matches!(
            self,
            Failure::Crash(_) | Failure::Timeout(_) | Failure::Protocol(_)
        )
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Unsupported(m) => write!(f, "unsupported (refused at load): {m}"),
            Failure::Error { stage, message } => write!(f, "error at stage {stage}: {message}"),
            Failure::Crash(m) => write!(f, "crash: {m}"),
            Failure::Timeout(m) => write!(f, "timeout: {m}"),
            Failure::Protocol(m) => write!(f, "protocol violation: {m}"),
        }
    }
}

/// The request line for data set `id`.
pub fn request_line(id: u64, request: &Request<'_>) -> String {
    serde_json::json!({
        "id": id,
        "model": request.model,
        "inputs": request.inputs,
        "outputs": request.outputs,
    })
    .to_string()
}

/// At most 200 characters of `line`, for quoting in a message.
fn quoted(line: &str) -> String {
    let mut q: String = line.chars().take(200).collect();
    if q.len() < line.len() {
        q.push_str("...");
    }
    format!("'{q}'")
}

fn object(line: &str, what: &str) -> Result<serde_json::Map<String, Value>, String> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(format!("{what} {} is not a JSON object", quoted(line))),
        Err(e) => Err(format!("{what} {} is not JSON ({e})", quoted(line))),
    }
}

fn text_field(
    map: &serde_json::Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<String, String> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{what} has \"{key}\": {other}, not a string")),
        None => Err(format!("{what} has no \"{key}\"")),
    }
}

/// Parses the first line a worker writes.
pub fn parse_hello(line: &str) -> Result<Hello, String> {
    let map = object(line, "the hello line")?;
    match map.get("protocol") {
        Some(Value::Number(n)) if n.as_u64() == Some(PROTOCOL_VERSION) => {}
        Some(other) => {
            return Err(format!(
                "the worker speaks protocol {other}; this harness speaks {PROTOCOL_VERSION}"
            ))
        }
        None => {
            return Err(format!(
                "the hello line {} has no \"protocol\" (expected {{\"protocol\": 1, \"runtime\": ..., \"version\": ...}})",
                quoted(line)
            ))
        }
    }
    Ok(Hello {
        runtime: text_field(&map, "runtime", "the hello line")?,
        version: text_field(&map, "version", "the hello line")?,
        limits: limits(&map)?,
        configuration: configuration(&map)?,
    })
}

/// The hello's optional `configurations` (the names of those the worker can run in, its
/// default first) and `configuration` (the one it runs in: `ONNX_CONFORMANCE_CONFIGURATION`
/// when the harness set it, else the default): both or neither.
fn configuration(map: &serde_json::Map<String, Value>) -> Result<Option<Configuration>, String> {
    let (declared, active) = match (map.get("configurations"), map.get("configuration")) {
        (None, None) => return Ok(None),
        (Some(Value::Array(d)), Some(Value::String(a))) => (d, a),
        (d, a) => {
            return Err(format!(
                "the hello line has \"configurations\": {} and \"configuration\": {}; give both \
                 (a list of names and the one it runs in) or neither",
                d.map_or("none".into(), Value::to_string),
                a.map_or("none".into(), Value::to_string)
            ))
        }
    };
    let mut names = Vec::new();
    for d in declared {
        match d.as_str() {
            Some(n) if Configuration::valid_name(n) && !names.iter().any(|m| m == n) => {
                names.push(n.to_string())
            }
            _ => {
                return Err(format!(
                    "the hello line declares the configuration {d}: each must be a distinct name \
                     of 1 to 40 of a-z, 0-9 and '-'"
                ))
            }
        }
    }
    if !names.contains(active) {
        return Err(format!(
            "the hello line runs in configuration {active:?}, which its \"configurations\" {names:?} \
             do not hold"
        ));
    }
    Ok(Some(Configuration {
        active: active.clone(),
        declared: names,
    }))
}

/// The hello's optional `max_ir_version` (a positive integer), `max_opset` (an object of
/// domain to positive integer) and `max_elements` (a positive integer); absent, they are
/// unknown.
fn limits(map: &serde_json::Map<String, Value>) -> Result<Limits, String> {
    let positive = |v: &Value| v.as_i64().filter(|&n| n > 0);
    let mut limits = Limits::default();
    if let Some(v) = map.get("max_ir_version") {
        limits.max_ir_version = Some(positive(v).ok_or_else(|| {
            format!("the hello line has \"max_ir_version\": {v}, not a positive integer")
        })?);
    }
    if let Some(v) = map.get("max_elements") {
        limits.max_elements = Some(v.as_u64().filter(|&n| n > 0).ok_or_else(|| {
            format!("the hello line has \"max_elements\": {v}, not a positive integer")
        })?);
    }
    match map.get("max_opset") {
        None => {}
        Some(Value::Object(domains)) => {
            for (domain, v) in domains {
                let max = positive(v).ok_or_else(|| {
                    format!(
                        "the hello line has \"max_opset\": {{\"{domain}\": {v}}}, not a \
                         positive integer"
                    )
                })?;
                limits.max_opset.insert(domain.clone(), max);
            }
        }
        Some(other) => {
            return Err(format!(
                "the hello line has \"max_opset\": {other}, not an object of domain to opset \
                 (as in {{\"\": 25}})"
            ))
        }
    }
    Ok(limits)
}

/// What a worker's successful answer may say beyond `ok`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Answered {
    /// `run_seconds`: the seconds its runtime spent running the model for this data set (not
    /// loading it, reading the inputs or writing the outputs), when the worker measured it.
    pub run_seconds: Option<f64>,
}

/// Parses the answer to data set `id`: the outer `Err` is a protocol violation, the inner
/// result what the worker reported.
pub fn parse_reply(line: &str, id: u64) -> Result<Result<Answered, Failure>, Failure> {
    let map = object(line, "the answer").map_err(Failure::Protocol)?;
    match map.get("id") {
        Some(Value::Number(n)) if n.as_u64() == Some(id) => {}
        Some(other) => {
            return Err(Failure::Protocol(format!(
                "the answer {} has id {other}, but request {id} was sent",
                quoted(line)
            )))
        }
        None => {
            return Err(Failure::Protocol(format!(
                "the answer {} has no \"id\"",
                quoted(line)
            )))
        }
    }
    match map.get("ok") {
        Some(Value::Bool(true)) => Ok(Ok(Answered {
            run_seconds: run_seconds(&map)?,
        })),
        Some(Value::Bool(false)) => {
            let what = "a failure answer";
            let stage = text_field(&map, "stage", what).map_err(Failure::Protocol)?;
            let message = text_field(&map, "error", what).map_err(Failure::Protocol)?;
            match stage.as_str() {
                "load" => match load_kind(&map)? {
                    LoadKind::Unsupported => Ok(Err(Failure::Unsupported(message))),
                    LoadKind::LoadError => Ok(Err(Failure::Error { stage, message })),
                },
                "input" | "run" | "output" => Ok(Err(Failure::Error { stage, message })),
                _ => Err(Failure::Protocol(format!(
                    "the answer names stage \"{stage}\"; the stages are load, input, run and output"
                ))),
            }
        }
        _ => Err(Failure::Protocol(format!(
            "the answer {} has no boolean \"ok\"",
            quoted(line)
        ))),
    }
}

/// The optional `run_seconds` of a successful answer: a finite number, zero or more.
fn run_seconds(map: &serde_json::Map<String, Value>) -> Result<Option<f64>, Failure> {
    match map.get("run_seconds") {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(s) if s.is_finite() && s >= 0.0 => Ok(Some(s)),
            _ => Err(Failure::Protocol(format!(
                "the answer has \"run_seconds\": {v}, not a number of seconds (zero or more)"
            ))),
        },
    }
}

/// What a failure at stage `load` says: a refusal, or the loader failing on a model it
/// should load.
enum LoadKind {
    /// `"kind": "unsupported"`, or no `kind` (every worker before `kind` existed).
    Unsupported,
    /// `"kind": "load-error"`: the loader failed on a valid model, an `error`.
    LoadError,
}

/// The `kind` of a failure answer at stage `load`.
fn load_kind(map: &serde_json::Map<String, Value>) -> Result<LoadKind, Failure> {
    match map.get("kind") {
        None => Ok(LoadKind::Unsupported),
        Some(Value::String(k)) if k == "unsupported" => Ok(LoadKind::Unsupported),
        Some(Value::String(k)) if k == "load-error" => Ok(LoadKind::LoadError),
        Some(other) => Err(Failure::Protocol(format!(
            "the answer at stage load has \"kind\": {other}; the kinds are \"unsupported\" \
             and \"load-error\""
        ))),
    }
}
