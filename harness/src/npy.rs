//! Writing a tensor as a `.npy` file (npyz), for looking at a failure with numpy.
//!
//! Types numpy lacks are written as their bit patterns (bfloat16 as uint16, float8 and float4
//! as uint8) or widened (int4/int2 as int8, uint4/uint2 as uint8); the returned note says so.

use half::{bf16, f16};
use npyz::WriterBuilder;
use std::io;
use std::path::Path;
use vocab::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
use vocab::{with_storage, Tensor};

/// Writes `tensor` to `path`; returns a note when the npy type is not the ONNX type.
pub fn write(path: &Path, tensor: &Tensor) -> io::Result<Option<&'static str>> {
    let shape: Vec<u64> = tensor.shape().iter().map(|&d| d as u64).collect();
    with_storage!(tensor.storage(), v => NpyDump::dump(v.as_slice(), &shape, path))
}

/// An element type that can be dumped to npy.
trait NpyDump: Sized {
    /// Writes `values` with `shape` to `path`, returning a note on any type change.
    fn dump(values: &[Self], shape: &[u64], path: &Path) -> io::Result<Option<&'static str>>;
}

fn write_plain<T: npyz::AutoSerialize>(
    path: &Path,
    shape: &[u64],
    values: impl IntoIterator<Item = T>,
) -> io::Result<()> {
    let mut out = Vec::new();
    let mut writer = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(&mut out)
        .begin_nd()?;
    writer.extend(values)?;
    writer.finish()?;
    write_aside(path, &out)
}

/// Writes a finished dump aside and renames it into place, as every file the project writes.
fn write_aside(path: &Path, bytes: &[u8]) -> io::Result<()> {
    schema::files::write_atomic(path, bytes).map_err(|e| io::Error::other(e.to_string()))
}

macro_rules! dump_as {
    ($($ty:ty => $conv:expr, $note:expr;)*) => {$(
        impl NpyDump for $ty {
            fn dump(values: &[Self], shape: &[u64], path: &Path) -> io::Result<Option<&'static str>> {
                write_plain(path, shape, values.iter().map($conv))?;
                Ok($note)
            }
        }
    )*};
}

dump_as! {
    f32 => |v: &f32| *v, None;
    f64 => |v: &f64| *v, None;
    f16 => |v: &f16| *v, None;
    u8 => |v: &u8| *v, None;
    i8 => |v: &i8| *v, None;
    u16 => |v: &u16| *v, None;
    i16 => |v: &i16| *v, None;
    u32 => |v: &u32| *v, None;
    i32 => |v: &i32| *v, None;
    u64 => |v: &u64| *v, None;
    i64 => |v: &i64| *v, None;
    bool => |v: &bool| *v, None;
    bf16 => |v: &bf16| v.to_bits(), Some("BFLOAT16 written as its uint16 bit patterns");
    F8E4M3FN => |v: &F8E4M3FN| v.to_bits(), Some("FLOAT8E4M3FN written as its uint8 bit patterns");
    F8E4M3FNUZ => |v: &F8E4M3FNUZ| v.to_bits(), Some("FLOAT8E4M3FNUZ written as its uint8 bit patterns");
    F8E5M2 => |v: &F8E5M2| v.to_bits(), Some("FLOAT8E5M2 written as its uint8 bit patterns");
    F8E5M2FNUZ => |v: &F8E5M2FNUZ| v.to_bits(), Some("FLOAT8E5M2FNUZ written as its uint8 bit patterns");
    F8E8M0 => |v: &F8E8M0| v.to_bits(), Some("FLOAT8E8M0 written as its uint8 bit patterns");
    F4E2M1 => |v: &F4E2M1| v.to_bits(), Some("FLOAT4E2M1 written as its 4-bit codes in uint8");
    F6E2M3 => |v: &F6E2M3| v.to_bits(), Some("FLOAT6E2M3 written as its 6-bit codes in uint8");
    F6E3M2 => |v: &F6E3M2| v.to_bits(), Some("FLOAT6E3M2 written as its 6-bit codes in uint8");
    U4 => |v: &U4| v.to_bits(), Some("UINT4 values written as uint8");
    U2 => |v: &U2| v.to_bits(), Some("UINT2 values written as uint8");
    I4 => |v: &I4| v.get(), Some("INT4 values written as int8");
    I2 => |v: &I2| v.get(), Some("INT2 values written as int8");
}

impl NpyDump for Complex64 {
    fn dump(values: &[Self], shape: &[u64], path: &Path) -> io::Result<Option<&'static str>> {
        let shape = [shape, &[2]].concat();
        write_plain(path, &shape, values.iter().flat_map(|c| [c.re, c.im]))?;
        Ok(Some(
            "COMPLEX64 written as float32 with a last axis of (re, im)",
        ))
    }
}

impl NpyDump for Complex128 {
    fn dump(values: &[Self], shape: &[u64], path: &Path) -> io::Result<Option<&'static str>> {
        let shape = [shape, &[2]].concat();
        write_plain(path, &shape, values.iter().flat_map(|c| [c.re, c.im]))?;
        Ok(Some(
            "COMPLEX128 written as float64 with a last axis of (re, im)",
        ))
    }
}

impl NpyDump for String {
    fn dump(values: &[Self], shape: &[u64], path: &Path) -> io::Result<Option<&'static str>> {
        // Fixed-width byte strings (numpy `S`), as wide as the longest (at least 1).
        let width = values.iter().map(String::len).max().unwrap_or(0).max(1);
        let type_str: npyz::TypeStr = format!("|S{width}")
            .parse()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{e}")))?;
        let mut out = Vec::new();
        let mut writer = npyz::WriteOptions::<[u8]>::new()
            .dtype(npyz::DType::Plain(type_str))
            .shape(shape)
            .writer(&mut out)
            .begin_nd()?;
        for v in values {
            writer.push(v.as_bytes())?;
        }
        writer.finish()?;
        write_aside(path, &out)?;
        Ok(Some("STRING written as numpy byte strings (dtype S)"))
    }
}

#[cfg(test)]
mod tests;
