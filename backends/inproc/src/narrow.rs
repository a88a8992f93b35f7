//! Declared narrowing: the ONNX types a runtime holds as another of its types (rten holds
//! FLOAT16 as f32), and the conversions at the seam. An input goes to the held type as the
//! runtime itself converts such data when it loads a model. An output comes back to its
//! declared type only where that is exact: a value the declared type does not have (an f32
//! that is no FLOAT16, an i32 2 where BOOL is declared) is a mismatch naming it, never rounded
//! away, so what the runtime computes under its narrowing is still judged.

use half::f16;
use harness::backend::{BackendFailure, FailureKind};
use harness::case::Model;
use harness::vocab::{DataType, Storage, Tensor};

/// The ONNX types a runtime has tensors of, as itself or narrowed to another.
#[derive(Clone, Copy, Debug)]
pub struct Types {
    /// The runtime's name, for messages.
    pub runtime: &'static str,
    /// The types it holds as themselves.
    pub exact: &'static [DataType],
    /// The types it holds as another: (declared type, the type holding it).
    pub narrowed: &'static [(DataType, DataType)],
}

/// Values shown in a message about values the declared type does not have.
const SHOWN: usize = 5;

impl Types {
    /// The type the runtime holds `declared` as, if it has one.
    pub fn held_as(&self, declared: DataType) -> Option<DataType> {
        if self.exact.contains(&declared) {
            return Some(declared);
        }
        self.narrowed
            .iter()
            .find(|(d, _)| *d == declared)
            .map(|(_, held)| *held)
    }

    /// What the runtime holds, in words: `FLOAT, INT32; FLOAT16 and DOUBLE as FLOAT`.
    pub fn describe(&self) -> String {
        let names = |types: &mut dyn Iterator<Item = DataType>| {
            types.map(DataType::name).collect::<Vec<_>>().join(" and ")
        };
        let mut text = self
            .exact
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(", ");
        let mut held: Vec<DataType> = self.narrowed.iter().map(|(_, h)| *h).collect();
        held.dedup();
        for h in held {
            let mut by = self
                .narrowed
                .iter()
                .filter(|(_, x)| *x == h)
                .map(|(d, _)| *d);
            text.push_str(&format!("; {} as {}", names(&mut by), h.name()));
        }
        text
    }

    /// Refuses, as `unsupported`, a model with a graph input of a type the runtime has no
    /// tensors of: it cannot be fed.
    pub fn check_inputs(&self, model: &Model) -> Result<(), BackendFailure> {
        for input in &model.graph.inputs {
            let Some(dtype) = input.dtype else { continue };
            if self.held_as(dtype).is_none() {
                return Err(BackendFailure::new(
                    FailureKind::Unsupported,
                    format!(
                        "{}: input `{}` is {}, a type it has no tensors of (it holds {})",
                        self.runtime,
                        input.name,
                        dtype.name(),
                        self.describe()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `tensor` in the type the runtime holds its type as.
    pub fn to_runtime(&self, tensor: &Tensor) -> Result<Tensor, BackendFailure> {
        let declared = tensor.dtype();
        let unsupported = || {
            BackendFailure::new(
                FailureKind::Unsupported,
                format!(
                    "{}: no tensors of {} (it holds {})",
                    self.runtime,
                    declared.name(),
                    self.describe()
                ),
            )
        };
        let held = self.held_as(declared).ok_or_else(unsupported)?;
        if held == declared {
            return Ok(tensor.clone());
        }
        let storage = narrow(tensor.storage(), held).ok_or_else(unsupported)?;
        Tensor::new(tensor.shape().to_vec(), storage)
            .map_err(|e| BackendFailure::new(FailureKind::Error, format!("{}: {e}", self.runtime)))
    }

    /// Output `index` (`name`), as the runtime gave it, in its declared type when the runtime
    /// holds that type narrowed and every value is one of the declared type's. A tensor of any
    /// other type comes back as it is: the comparison then names the type it differs in.
    pub fn from_runtime(
        &self,
        index: usize,
        name: &str,
        declared: Option<DataType>,
        tensor: Tensor,
    ) -> Result<Tensor, BackendFailure> {
        let Some(declared) = declared else {
            return Ok(tensor);
        };
        let held = self.held_as(declared);
        if held == Some(declared) || held != Some(tensor.dtype()) {
            return Ok(tensor);
        }
        let (shape, storage) = tensor.into_parts();
        let len = storage.len();
        let storage = widen(storage, declared).map_err(|bad| {
            let shown: Vec<String> = bad
                .iter()
                .take(SHOWN)
                .map(|(i, v)| format!("[{i}] {v}"))
                .collect();
            BackendFailure::new(
                FailureKind::Mismatch,
                format!(
                    "{rt}: output {index} `{name}` is declared {d}, which {rt} holds as {h}, but \
                     {n} of its {len} values are no {d} value ({shown}{more}): the runtime did \
                     not compute a {d} result",
                    rt = self.runtime,
                    d = declared.name(),
                    h = tensor_name(held),
                    n = bad.len(),
                    shown = shown.join(", "),
                    more = if bad.len() > SHOWN { ", ..." } else { "" },
                ),
            )
        })?;
        Tensor::new(shape, storage)
            .map_err(|e| BackendFailure::new(FailureKind::Error, format!("{}: {e}", self.runtime)))
    }
}

fn tensor_name(t: Option<DataType>) -> &'static str {
    t.map_or("?", DataType::name)
}

/// `storage` converted to `held`, as the runtimes convert such data when they load a model
/// (rten's `onnx_loader.rs`: DOUBLE `as f32`, INT64 saturated to i32, BOOL as 0 or 1); `None`
/// for a pair no runtime narrows.
pub fn narrow(storage: &Storage, held: DataType) -> Option<Storage> {
    Some(match (storage, held) {
        (Storage::Float16(v), DataType::Float) => {
            Storage::Float(v.iter().map(|x| x.to_f32()).collect())
        }
        (Storage::Double(v), DataType::Float) => {
            Storage::Float(v.iter().map(|&x| x as f32).collect())
        }
        (Storage::Int64(v), DataType::Int32) => Storage::Int32(
            v.iter()
                .map(|&x| x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
                .collect(),
        ),
        (Storage::Bool(v), DataType::Int32) => {
            Storage::Int32(v.iter().map(|&b| i32::from(b)).collect())
        }
        (Storage::Bool(v), DataType::Uint8) => {
            Storage::Uint8(v.iter().map(|&b| u8::from(b)).collect())
        }
        _ => return None,
    })
}

/// `storage` (a held type) back in `declared`, exactly; the values `declared` does not have,
/// each with its index, when some are not. A pair no runtime narrows is kept as it is.
pub fn widen(storage: Storage, declared: DataType) -> Result<Storage, Vec<(usize, String)>> {
    let mut bad = Vec::new();
    let out = match (storage, declared) {
        (Storage::Float(v), DataType::Float16) => Storage::Float16(
            v.iter()
                .enumerate()
                .map(|(i, &x)| {
                    let h = f16::from_f32(x);
                    // Any NaN is a NaN of FLOAT16; every other value must come back unchanged.
                    if !x.is_nan() && h.to_f32() != x {
                        bad.push((i, format!("{x:e} (0x{:08x})", x.to_bits())));
                    }
                    h
                })
                .collect(),
        ),
        (Storage::Float(v), DataType::Double) => {
            Storage::Double(v.into_iter().map(f64::from).collect())
        }
        (Storage::Int32(v), DataType::Int64) => {
            Storage::Int64(v.into_iter().map(i64::from).collect())
        }
        (Storage::Int32(v), DataType::Bool) => Storage::Bool(to_bool(&v, &mut bad)),
        (Storage::Uint8(v), DataType::Bool) => Storage::Bool(to_bool(&v, &mut bad)),
        (other, _) => other,
    };
    match bad.is_empty() {
        true => Ok(out),
        false => Err(bad),
    }
}

/// 0 and 1 as BOOL; any other value is recorded in `bad` (and read as true).
fn to_bool<T: Copy + Into<i64> + std::fmt::Display>(
    v: &[T],
    bad: &mut Vec<(usize, String)>,
) -> Vec<bool> {
    v.iter()
        .enumerate()
        .map(|(i, &x)| match x.into() {
            0 => false,
            1 => true,
            _ => {
                bad.push((i, x.to_string()));
                true
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
