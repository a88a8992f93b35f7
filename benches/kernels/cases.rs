//! The benchmark cases (one list shared by `cargo bench` and `--json`) and their inputs.

use half::{bf16, f16};
use onnx_conformance::{ops, Error};
use std::fmt;
use vocab::elements::{F6E2M3, F6E3M2, F8E4M3FN, F8E8M0, I4};
use vocab::{AttrValue, Attribute, DataType, OpVersion, Tensor};

/// 16M elements: large enough that every tensor is far outside the caches.
const N: usize = 16 << 20;
/// String casts are orders of magnitude slower; 100k elements keep a run short.
const N_TEXT: usize = 100_000;

/// How input values are drawn (the Python side draws them the same way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gen {
    /// ±m·2^e with m in [1, 2) and e in [-12, 12]: normal numbers of every narrow float,
    /// some beyond float8 range so the saturation paths run too.
    Wide,
    /// Uniform in [-10, 10]: the interesting range of int4, float4e2m1 and float6e2m3 (and
    /// within float6e3m2's, ±28).
    Small,
    /// Uniform over the whole integer type.
    Int,
    /// Uniform over all codes of the (8-, 6- or 4-bit) format.
    Bits,
    /// Decimal text of `Wide` values.
    Text,
}

/// What one case runs.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Cast `n` elements of `from` to `to` at operator-set `opset`.
    Cast {
        from: DataType,
        to: DataType,
        opset: i64,
        saturate: Option<i64>,
        n: usize,
        gen: Gen,
    },
    /// Concat of `count` f32 tensors of `shape` on `axis`.
    Concat {
        shape: &'static [usize],
        count: usize,
        axis: i64,
    },
}

/// One benchmark.
#[derive(Debug)]
pub struct Case {
    /// Short stable name, also the row label of the comparison table.
    pub name: &'static str,
    /// What it runs.
    pub kind: Kind,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

const fn cast(name: &'static str, from: DataType, to: DataType, gen: Gen) -> Case {
    cast_at(name, from, to, 25, None, gen)
}

const fn cast_at(
    name: &'static str,
    from: DataType,
    to: DataType,
    opset: i64,
    saturate: Option<i64>,
    gen: Gen,
) -> Case {
    let n = if matches!(gen, Gen::Text) || matches!(to, DataType::String) {
        N_TEXT
    } else {
        N
    };
    Case {
        name,
        kind: Kind::Cast {
            from,
            to,
            opset,
            saturate,
            n,
            gen,
        },
    }
}

use test_rng::XorShift64Star as Rng;
use DataType as D;

/// Every case of issue 5, in table order.
pub const CASES: &[Case] = &[
    cast("cast f32->f16", D::Float, D::Float16, Gen::Wide),
    cast("cast f16->f32", D::Float16, D::Float, Gen::Wide),
    cast_at(
        "cast f32->bf16 trunc (Cast-23)",
        D::Float,
        D::Bfloat16,
        23,
        None,
        Gen::Wide,
    ),
    cast_at(
        "cast f32->bf16 rne (Cast-25)",
        D::Float,
        D::Bfloat16,
        25,
        None,
        Gen::Wide,
    ),
    cast("cast bf16->f32", D::Bfloat16, D::Float, Gen::Wide),
    cast("cast f64->f32", D::Double, D::Float, Gen::Wide),
    cast("cast f32->f64", D::Float, D::Double, Gen::Wide),
    cast("cast i64->i32", D::Int64, D::Int32, Gen::Int),
    cast("cast i32->f32", D::Int32, D::Float, Gen::Int),
    cast_at(
        "cast f32->e4m3fn sat",
        D::Float,
        D::Float8E4M3FN,
        25,
        Some(1),
        Gen::Wide,
    ),
    cast_at(
        "cast f32->e4m3fn nosat",
        D::Float,
        D::Float8E4M3FN,
        25,
        Some(0),
        Gen::Wide,
    ),
    cast("cast e4m3fn->f32", D::Float8E4M3FN, D::Float, Gen::Bits),
    cast("cast f16->e5m2", D::Float16, D::Float8E5M2, Gen::Wide),
    cast("cast bf16->e4m3fn", D::Bfloat16, D::Float8E4M3FN, Gen::Wide),
    cast("cast f32->int4", D::Float, D::Int4, Gen::Small),
    cast("cast int4->f32", D::Int4, D::Float, Gen::Bits),
    cast("cast f32->f4e2m1", D::Float, D::Float4E2M1, Gen::Small),
    // Cast-28: no peer has a float6 kernel, so these rows compare with memcpy only.
    cast_at(
        "cast f32->e2m3",
        D::Float,
        D::Float6E2M3,
        28,
        None,
        Gen::Small,
    ),
    cast_at(
        "cast f32->e3m2",
        D::Float,
        D::Float6E3M2,
        28,
        None,
        Gen::Small,
    ),
    cast_at(
        "cast f16->e2m3",
        D::Float16,
        D::Float6E2M3,
        28,
        None,
        Gen::Small,
    ),
    cast_at(
        "cast bf16->e3m2",
        D::Bfloat16,
        D::Float6E3M2,
        28,
        None,
        Gen::Small,
    ),
    cast_at(
        "cast e2m3->f32",
        D::Float6E2M3,
        D::Float,
        28,
        None,
        Gen::Bits,
    ),
    cast_at(
        "cast e3m2->f32",
        D::Float6E3M2,
        D::Float,
        28,
        None,
        Gen::Bits,
    ),
    cast("cast f32->e8m0", D::Float, D::Float8E8M0, Gen::Wide),
    cast("cast e8m0->f32", D::Float8E8M0, D::Float, Gen::Bits),
    cast("cast f32->string", D::Float, D::String, Gen::Wide),
    cast("cast string->f32", D::String, D::Float, Gen::Text),
    Case {
        name: "concat 2x[4096,4096] axis 0",
        kind: Kind::Concat {
            shape: &[4096, 4096],
            count: 2,
            axis: 0,
        },
    },
    Case {
        name: "concat 2x[4096,4096] axis 1",
        kind: Kind::Concat {
            shape: &[4096, 4096],
            count: 2,
            axis: 1,
        },
    },
    Case {
        name: "concat 8x[64,64,1024] axis -1",
        kind: Kind::Concat {
            shape: &[64, 64, 1024],
            count: 8,
            axis: -1,
        },
    },
];

/// A case ready to run: operator version, attributes and inputs, built once.
pub struct Prepared {
    /// The operator version.
    pub version: OpVersion,
    /// Node attributes.
    pub attrs: Vec<Attribute>,
    /// Node inputs.
    pub inputs: Vec<Tensor>,
}

impl Prepared {
    /// Runs the node once.
    pub fn run(&self) -> Result<Vec<Tensor>, Error> {
        let refs: Vec<&Tensor> = self.inputs.iter().collect();
        ops::run(self.version, &self.attrs, &refs)
    }
}

fn int_attr(name: &str, v: i64) -> Attribute {
    Attribute {
        name: name.to_owned(),
        value: AttrValue::Int(v),
    }
}

impl Case {
    /// Elements processed (output elements).
    pub fn elements(&self) -> usize {
        match self.kind {
            Kind::Cast { n, .. } => n,
            Kind::Concat { shape, count, .. } => shape.iter().product::<usize>() * count,
        }
    }

    /// Bytes read plus bytes written, sub-byte types counted packed (int4: half a byte);
    /// `None` for string casts, whose size depends on the text.
    pub fn traffic_bytes(&self) -> Option<usize> {
        match self.kind {
            Kind::Cast { from, to, n, .. } => {
                let bits = from.bit_width() as usize + to.bit_width() as usize;
                (from != D::String && to != D::String).then_some(n * bits / 8)
            }
            Kind::Concat { .. } => Some(self.elements() * 4 * 2),
        }
    }

    /// The same Cast with `len` elements (any other case unchanged).
    pub fn with_len(&self, len: usize) -> Case {
        let mut kind = self.kind;
        if let Kind::Cast { ref mut n, .. } = kind {
            *n = len;
        }
        Case {
            name: self.name,
            kind,
        }
    }

    /// Builds the operator version, attributes and inputs.
    pub fn prepare(&self) -> Result<Prepared, Error> {
        match self.kind {
            Kind::Cast {
                from,
                to,
                opset,
                saturate,
                n,
                gen,
            } => {
                let mut attrs = vec![int_attr("to", i64::from(to.code()))];
                if let Some(s) = saturate {
                    attrs.push(int_attr("saturate", s));
                }
                Ok(Prepared {
                    version: OpVersion::resolve("Cast", opset)?,
                    attrs,
                    inputs: vec![input(from, n, gen, 1)?],
                })
            }
            Kind::Concat { shape, count, axis } => {
                let len = shape.iter().product::<usize>();
                let inputs = (0..count)
                    .map(|i| {
                        let v = Rng(0x9e37_79b9 + i as u64).take(len, |r| r.wide() as f32);
                        Tensor::from_vec(shape.to_vec(), v)
                    })
                    .collect::<Result<_, _>>()?;
                Ok(Prepared {
                    version: OpVersion::resolve("Concat", 25)?,
                    attrs: vec![int_attr("axis", axis)],
                    inputs,
                })
            }
        }
    }
}

/// A one-dimensional input of `n` elements of `dtype`, values drawn by `gen`.
fn input(dtype: DataType, n: usize, gen: Gen, seed: u64) -> Result<Tensor, Error> {
    let mut r = Rng(seed);
    let shape = vec![n];
    let value = |r: &mut Rng| match gen {
        Gen::Small => r.unit() * 20.0 - 10.0,
        _ => r.wide(),
    };
    let tensor = match dtype {
        D::Float => Tensor::from_vec(shape, r.take(n, |r| value(r) as f32)),
        // Extra low bits so that narrowing to f32 really rounds.
        D::Double => Tensor::from_vec(shape, r.take(n, |r| value(r) * (1.0 + r.unit() * 1e-9))),
        D::Float16 => Tensor::from_vec(shape, r.take(n, |r| f16::from_f32(value(r) as f32))),
        D::Bfloat16 => Tensor::from_vec(shape, r.take(n, |r| bf16::from_f32(value(r) as f32))),
        D::Int64 => Tensor::from_vec(shape, r.take(n, |r| r.next_u64() as i64)),
        D::Int32 => Tensor::from_vec(shape, r.take(n, |r| r.next_u64() as i32)),
        D::Float8E4M3FN => Tensor::from_vec(shape, r.take(n, |r| F8E4M3FN::from_bits(r.byte()))),
        D::Float8E8M0 => Tensor::from_vec(shape, r.take(n, |r| F8E8M0::from_bits(r.byte()))),
        D::Int4 => Tensor::from_vec(shape, r.take(n, |r| I4::from_bits(r.byte()))),
        D::Float6E2M3 => Tensor::from_vec(shape, r.take(n, |r| F6E2M3::from_bits(r.byte()))),
        D::Float6E3M2 => Tensor::from_vec(shape, r.take(n, |r| F6E3M2::from_bits(r.byte()))),
        D::String => Tensor::from_vec(shape, r.take(n, |r| format!("{}", r.wide() as f32))),
        _ => panic!("no benchmark input generator for {dtype}"),
    };
    Ok(tensor?)
}

/// Benchmark inputs drawn from the shared deterministic generator.
trait Draw {
    /// ±m·2^e, m in [1, 2), e in [-12, 12].
    fn wide(&mut self) -> f64;
    /// `n` values drawn by `f`.
    fn take<T>(&mut self, n: usize, f: impl FnMut(&mut Self) -> T) -> Vec<T>;
}

impl Draw for Rng {
    fn wide(&mut self) -> f64 {
        let bits = self.next_u64();
        let sign = if bits & 1 == 0 { 1.0 } else { -1.0 };
        let e = ((bits >> 1) % 25) as i32 - 12;
        sign * (1.0 + self.unit()) * 2f64.powi(e)
    }
    fn take<T>(&mut self, n: usize, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        (0..n).map(|_| f(self)).collect()
    }
}
