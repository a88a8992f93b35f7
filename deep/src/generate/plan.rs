//! Which cases the tree holds, from the version table: every allowed (source, target) pair of
//! every Cast and CastLike version with every attribute combination that changes a result, the
//! case shapes the official data lacks, and Concat's shapes. Each plan is small; its tensors
//! are built only when the case is written.

use super::authority::{self, Step, Val};
use super::model::Graph;
use super::values::{self, Input, Size};
use crate::index::{
    Authority, CaseAttribute, CaseEntry, CaseShape, Citation, ClassRange, InputClass,
};
use harness::case::Node;
use harness::read::tensor_from_codes;
use harness::write::Encoding;
use vocab::version::{versions_of, AttrKind, VersionSpec};
use vocab::{AttrValue, Attribute, DataType, OpKind, RoundMode, Tensor, TypeKind};

/// How a cast case is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The value set as a vector fed as graph input 0.
    Values(Size),
    /// A 0-d tensor.
    Scalar,
    /// A tensor with a zero dimension.
    ZeroDim,
    /// The input as an initializer.
    Initializer,
    /// The input as a Constant node.
    Constant,
    /// Two casts, through the middle type.
    Chain(DataType),
    /// One element of each class (of each authority run of a class) repeated to this many
    /// elements, fed: where a runtime's vector bodies, scalar tails and thread splits see it.
    Placed(usize),
    /// A few values in a 1xN tensor, fed (or an initializer) and written in an encoding
    /// variant other than onnx's (the loader's finding, apart from the conversion's).
    Encoded {
        /// The variant.
        encoding: Encoding,
        /// Whether the input is an initializer rather than fed.
        initializer: bool,
    },
}

/// One case to write.
#[derive(Clone, Debug)]
pub(crate) enum Plan {
    /// A Cast or CastLike case.
    Cast {
        /// The operator version.
        spec: &'static VersionSpec,
        /// Source type.
        from: DataType,
        /// Target type.
        to: DataType,
        /// Attributes other than `to`.
        attrs: Vec<CaseAttribute>,
        /// The layout.
        shape: Shape,
    },
    /// A Concat case.
    Concat {
        /// The operator version.
        spec: &'static VersionSpec,
        /// The element type.
        dtype: DataType,
        /// Input rank.
        rank: usize,
        /// The axis attribute (none: Concat-1's default).
        axis: Option<i64>,
        /// Number of inputs.
        count: usize,
        /// How the inputs are laid out and the model written.
        layout: ConcatLayout,
    },
}

/// How a Concat case's inputs are laid out, and its model written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConcatLayout {
    /// Extents 1, 2, 3 in turn along the axis (with three or more inputs, the second empty).
    Spread,
    /// The spread, written in an encoding variant.
    Encoded(Encoding),
    /// Extents 1 to 7 in turn, every other element −0 (the type's sign bit alone).
    SignedZeros,
}

/// Pairs spread over the kinds of conversion, for the case shapes (each used where the
/// version allows both types).
const SHAPE_PAIRS: &[(DataType, DataType)] = &[
    (DataType::Float, DataType::Float16),
    (DataType::Double, DataType::Float),
    (DataType::Float, DataType::Int32),
    (DataType::Int64, DataType::Float),
    (DataType::Uint8, DataType::Bool),
    (DataType::Float, DataType::Bfloat16),
    (DataType::String, DataType::Float),
    (DataType::Float16, DataType::Float8E4M3FN),
    (DataType::Float, DataType::Int4),
    (DataType::Float, DataType::Float4E2M1),
    (DataType::Float, DataType::Float8E8M0),
    (DataType::Int8, DataType::Uint2),
];

/// The lengths every class is placed in: one element; the tails of 8- and 16-lane bodies (7,
/// 15, 31 and one past them: 17, 33, 65); whole bodies (8, 16); a length no lane count divides
/// (1027); and [`SPLIT_LENGTH`] for the pairs a runtime splits over threads.
const PLACED_LENGTHS: [usize; 10] = [1, 7, 8, 15, 16, 17, 31, 33, 65, 1027];

/// A length above the parallel threshold: onnxruntime splits FLOAT16 → FLOAT over its intra-op
/// threads (`MlasConvertHalfToFloatBufferInParallel` in its Cast kernel); 2^18 + 3 elements
/// leave every piece of a split with a tail.
const SPLIT_LENGTH: usize = (1 << 18) + 3;

/// The pairs placed at [`SPLIT_LENGTH`] as well: those a runtime converts in parallel, or
/// through a vector library whose pieces a split cuts.
const SPLIT_PAIRS: &[(DataType, DataType)] = &[
    (DataType::Float16, DataType::Float),
    (DataType::Float, DataType::Float16),
    (DataType::Float, DataType::Bfloat16),
];

/// The chains whose middle type must survive: (source and target, middle). Each step's input
/// is defined (`values::chain_input`).
const CHAINS: &[(DataType, DataType)] = &[
    (DataType::Double, DataType::Float),
    (DataType::Float, DataType::Float16),
    (DataType::Float, DataType::Bfloat16),
    (DataType::Int64, DataType::Int32),
    (DataType::Float, DataType::Float8E4M3FN),
    (DataType::Float, DataType::Bool),
    (DataType::Float, DataType::Int64),
    (DataType::Int64, DataType::Float16),
];

/// The encoding-variant cases: the same few values written as onnx does not write them
/// (`harness::write::Encoding`), each fed and as an initializer. (variant, operator, version,
/// source, target); `ZeroOmitted` takes `saturate=0` where the version has it.
const ENCODED: &[(Encoding, OpKind, u32, DataType, DataType)] = &[
    (
        Encoding::PackedDims,
        OpKind::Cast,
        13,
        DataType::Float,
        DataType::Float16,
    ),
    (
        Encoding::PackedDims,
        OpKind::Cast,
        19,
        DataType::Float,
        DataType::Float16,
    ),
    (
        Encoding::PackedDims,
        OpKind::Cast,
        25,
        DataType::Int64,
        DataType::Float,
    ),
    (
        Encoding::PackedDims,
        OpKind::CastLike,
        19,
        DataType::Double,
        DataType::Float,
    ),
    (
        Encoding::ZeroOmitted,
        OpKind::Cast,
        13,
        DataType::Float,
        DataType::Int32,
    ),
    (
        Encoding::ZeroOmitted,
        OpKind::Cast,
        19,
        DataType::Float,
        DataType::Float8E4M3FN,
    ),
    (
        Encoding::ZeroOmitted,
        OpKind::Cast,
        25,
        DataType::Float16,
        DataType::Float8E5M2,
    ),
    (
        Encoding::ZeroOmitted,
        OpKind::CastLike,
        19,
        DataType::Float,
        DataType::Float8E4M3FN,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Float,
        DataType::Float16,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Double,
        DataType::Float,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Int64,
        DataType::Float,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Uint32,
        DataType::Float,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Int8,
        DataType::Float,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Uint8,
        DataType::Bool,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Float16,
        DataType::Float8E4M3FN,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        19,
        DataType::Bfloat16,
        DataType::Float,
    ),
    (
        Encoding::TypedFields,
        OpKind::Cast,
        21,
        DataType::Int4,
        DataType::Float,
    ),
    (
        Encoding::TypedFields,
        OpKind::CastLike,
        21,
        DataType::Float,
        DataType::Float16,
    ),
];

/// The plans of [`ENCODED`], and FLOAT16 in `int32_data` into every floating target of the
/// newest Cast (a loader that reads those entries as numbers shows in every one).
fn encoded_plans() -> Vec<(String, Plan)> {
    let newest = versions_of(OpKind::Cast).last().expect("Cast has versions");
    let float16: Vec<(Encoding, OpKind, u32, DataType, DataType)> = newest
        .types
        .iter()
        .filter(|t| matches!(t.kind(), TypeKind::Float | TypeKind::PowerOfTwo))
        .map(|to| {
            let e = Encoding::TypedFields;
            (e, OpKind::Cast, newest.since(), DataType::Float16, to)
        })
        .collect();
    let mut out = Vec::new();
    for &(encoding, op, version, from, to) in ENCODED.iter().chain(&float16) {
        let spec = versions_of(op)
            .find(|s| s.since() == version)
            .expect("an encoded case names a version of the table");
        assert!(
            spec.types.contains(from) && spec.types.contains(to),
            "{op:?}-{version} casts {from} to {to}"
        );
        let combos = attr_combos(spec, to);
        let zero =
            |c: &&Vec<CaseAttribute>| c.iter().any(|a| a.attribute().value == AttrValue::Int(0));
        let attrs = match encoding {
            Encoding::ZeroOmitted => combos.iter().find(zero).unwrap_or(&combos[0]).clone(),
            _ => combos[0].clone(),
        };
        for initializer in [false, true] {
            let plan = Plan::Cast {
                spec,
                from,
                to,
                attrs: attrs.clone(),
                shape: Shape::Encoded {
                    encoding,
                    initializer,
                },
            };
            out.push((name(&plan), plan));
        }
    }
    out
}

/// Whether `to` is a float8 type (saturate applies) or E8M0 (saturate and round_mode).
fn saturates(to: DataType) -> bool {
    (to.kind() == TypeKind::Float && to.bit_width() == 8) || to == DataType::Float8E8M0
}

/// The attribute combinations (besides `to`) that change a result of casting into `to`: the
/// version's attributes, each with every value where it matters and absent where it does not.
pub(crate) fn attr_combos(spec: &VersionSpec, to: DataType) -> Vec<Vec<CaseAttribute>> {
    let mut combos = vec![Vec::new()];
    for a in spec.attrs {
        let values: Vec<CaseAttribute> = match a.kind {
            AttrKind::Flag if saturates(to) => {
                vec![
                    CaseAttribute::Saturate(true),
                    CaseAttribute::Saturate(false),
                ]
            }
            AttrKind::RoundMode if to == DataType::Float8E8M0 => RoundMode::ALL
                .into_iter()
                .map(CaseAttribute::RoundMode)
                .collect(),
            _ => continue,
        };
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(*v);
                    c
                })
            })
            .collect();
    }
    combos
}

/// Whether `spec` is the newest version of its rule era (docs/semantics.md §3.2: up to 23,
/// from 24), where the 16-bit types get their full sets.
pub(crate) fn era_newest(spec: &VersionSpec) -> bool {
    let newest = versions_of(spec.op()).last().map(VersionSpec::since);
    spec.since() == 23 || Some(spec.since()) == newest
}

/// Every case, in name order.
pub(crate) fn plans() -> Vec<(String, Plan)> {
    let mut out = Vec::new();
    for op in [OpKind::Cast, OpKind::CastLike] {
        for spec in versions_of(op) {
            let size = if era_newest(spec) {
                Size::Full
            } else {
                Size::Boundary
            };
            for from in spec.types.iter() {
                for to in spec.types.iter() {
                    for attrs in attr_combos(spec, to) {
                        let plan = Plan::Cast {
                            spec,
                            from,
                            to,
                            attrs,
                            shape: Shape::Values(size),
                        };
                        out.push((name(&plan), plan));
                    }
                }
            }
            let allowed = |t: DataType| spec.types.contains(t);
            for &(from, to) in SHAPE_PAIRS
                .iter()
                .filter(|(f, t)| allowed(*f) && allowed(*t))
            {
                let attrs = attr_combos(spec, to).remove(0);
                for shape in [
                    Shape::Scalar,
                    Shape::ZeroDim,
                    Shape::Initializer,
                    Shape::Constant,
                ] {
                    let plan = Plan::Cast {
                        spec,
                        from,
                        to,
                        attrs: attrs.clone(),
                        shape,
                    };
                    out.push((name(&plan), plan));
                }
            }
            // Placement, at the newest version of each rule era (the kernels a runtime keeps).
            let placed_pairs = SHAPE_PAIRS.iter().chain(&SPLIT_PAIRS[..1]);
            for &(from, to) in placed_pairs.filter(|(f, t)| allowed(*f) && allowed(*t)) {
                if spec.op() != OpKind::Cast || !era_newest(spec) {
                    continue;
                }
                let split = SPLIT_PAIRS.contains(&(from, to)).then_some(SPLIT_LENGTH);
                for len in PLACED_LENGTHS.into_iter().chain(split) {
                    let plan = Plan::Cast {
                        spec,
                        from,
                        to,
                        attrs: attr_combos(spec, to).remove(0),
                        shape: Shape::Placed(len),
                    };
                    out.push((name(&plan), plan));
                }
            }
            for &(from, mid) in CHAINS.iter().filter(|(f, m)| allowed(*f) && allowed(*m)) {
                let plan = Plan::Cast {
                    spec,
                    from,
                    to: from,
                    attrs: Vec::new(),
                    shape: Shape::Chain(mid),
                };
                out.push((name(&plan), plan));
            }
        }
    }
    for spec in versions_of(OpKind::Concat) {
        let axis = |a: i64| {
            if spec.since() == 1 && a == 1 {
                None
            } else {
                Some(a)
            }
        };
        let negative = matches!(spec.attrs[0].kind, AttrKind::Axis { negative: true });
        // Every allowed type, rank 2, three inputs with an empty one between.
        for dtype in spec.types.iter() {
            let plan = Plan::Concat {
                spec,
                dtype,
                rank: 2,
                axis: axis(1),
                count: 3,
                layout: ConcatLayout::Spread,
            };
            out.push((name(&plan), plan));
        }
        // Every axis of ranks 1 to 6 (negative ones from Concat-11).
        for rank in 1..=6usize {
            let lowest = if negative { -(rank as i64) } else { 0 };
            for a in lowest..rank as i64 {
                let plan = Plan::Concat {
                    spec,
                    dtype: DataType::Float,
                    rank,
                    axis: axis(a),
                    count: 3,
                    layout: ConcatLayout::Spread,
                };
                out.push((name(&plan), plan));
            }
        }
        // One to 32 inputs.
        for count in (1..=32).filter(|n| spec.since() == 13 || [1, 2, 32].contains(n)) {
            let plan = Plan::Concat {
                spec,
                dtype: DataType::Float,
                rank: 2,
                axis: Some(0),
                count,
                layout: ConcatLayout::Spread,
            };
            out.push((name(&plan), plan));
        }
        // `axis=0` written with its type and without its `i`, which proto2 reads as 0.
        let plan = Plan::Concat {
            spec,
            dtype: DataType::Float,
            rank: 2,
            axis: Some(0),
            count: 2,
            layout: ConcatLayout::Encoded(Encoding::ZeroOmitted),
        };
        out.push((name(&plan), plan));
        // −0 in 2, 3, 4, 6 and 32 inputs of unequal sizes, for every type that has a −0 (the
        // FNUZ formats' sign bit alone is their NaN; E8M0 has no zero). Three is where a
        // concatenation written as a sum of zero-padded inputs first loses the sign.
        let signed_zero = |t: DataType| {
            t.kind() == TypeKind::Float
                && !matches!(t, DataType::Float8E4M3FNUZ | DataType::Float8E5M2FNUZ)
        };
        for dtype in spec.types.iter().filter(|&t| signed_zero(t)) {
            for count in [2, 3, 4, 6, 32] {
                let plan = Plan::Concat {
                    spec,
                    dtype,
                    rank: 1,
                    axis: Some(0),
                    count,
                    layout: ConcatLayout::SignedZeros,
                };
                out.push((name(&plan), plan));
            }
        }
    }
    out.extend(encoded_plans());
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The case name: operator and version, shape, types, attributes.
pub(crate) fn name(plan: &Plan) -> String {
    match plan {
        Plan::Cast {
            spec,
            from,
            to,
            attrs,
            shape,
        } => {
            let op = spec.op().to_string().to_lowercase();
            let via = match shape {
                Shape::Chain(mid) => format!("_to_{}", mid.name()),
                _ => String::new(),
            };
            let shape = match shape {
                Shape::Values(_) => String::new(),
                Shape::Scalar => "scalar_".into(),
                Shape::ZeroDim => "zerodim_".into(),
                Shape::Initializer => "initializer_".into(),
                Shape::Constant => "constant_".into(),
                Shape::Chain(_) => "chain_".into(),
                Shape::Placed(n) => format!("placed-{n}_"),
                Shape::Encoded {
                    encoding,
                    initializer,
                } => format!("{}_", encoded_shape(*encoding, *initializer)),
            };
            let mut n = format!(
                "{op}{}_{shape}{}{via}_to_{}",
                spec.since(),
                from.name(),
                to.name()
            );
            for a in attrs {
                n.push('_');
                n.push_str(&a.to_string().replace('=', ""));
            }
            n
        }
        Plan::Concat {
            spec,
            dtype,
            rank,
            axis,
            count,
            layout,
        } => {
            let axis = axis.map_or("default".into(), |a| a.to_string());
            let layout = match layout {
                ConcatLayout::Spread => String::new(),
                ConcatLayout::Encoded(e) => format!("{}_", encoded_shape(*e, false)),
                ConcatLayout::SignedZeros => "signed-zeros_".into(),
            };
            format!(
                "concat{}_{layout}{}_rank{rank}_axis{axis}_n{count}",
                spec.since(),
                dtype.name()
            )
        }
    }
}

/// The shape of an encoded case in its name and the index: `encoding-<variant>`, with
/// `-initializer` when the input is one.
fn encoded_shape(encoding: Encoding, initializer: bool) -> String {
    CaseShape::Encoded {
        encoding,
        initializer,
    }
    .to_string()
}

/// The index's name for a planned shape.
fn case_shape(shape: Shape) -> CaseShape {
    match shape {
        Shape::Values(_) => CaseShape::Values,
        Shape::Scalar => CaseShape::Scalar,
        Shape::ZeroDim => CaseShape::ZeroDim,
        Shape::Initializer => CaseShape::Initializer,
        Shape::Constant => CaseShape::Constant,
        Shape::Chain(m) => CaseShape::ChainThrough(m),
        Shape::Placed(n) => CaseShape::Placed(n),
        Shape::Encoded {
            encoding,
            initializer,
        } => CaseShape::Encoded {
            encoding,
            initializer,
        },
    }
}

/// The `to` attribute of a Cast version: a type name at Cast-1, a code after.
pub(crate) fn to_attr(spec: &VersionSpec, to: DataType) -> Attribute {
    let kind = spec.attrs.iter().find(|a| a.name == "to").map(|a| a.kind);
    let value = match kind {
        Some(AttrKind::TypeName) => AttrValue::String(to.name().as_bytes().to_vec()),
        _ => AttrValue::Int(to.code().into()),
    };
    Attribute {
        name: "to".into(),
        value,
    }
}

/// The tensor of `input`'s elements in `shape`.
fn tensor(dtype: DataType, shape: Vec<usize>, input: &Input) -> Tensor {
    match input {
        Input::Codes(c) => {
            let codes: Vec<u128> = c.iter().flat_map(|(_, v)| v.iter().copied()).collect();
            tensor_from_codes(dtype, shape, &codes).expect("codes of the type")
        }
        Input::Strings(c) => {
            let s: Vec<String> = c.iter().flat_map(|(_, v)| v.iter().cloned()).collect();
            Tensor::from_vec(shape, s).expect("strings")
        }
    }
}

/// The class ranges of `input`, each class's elements in the order `input` holds them, with
/// the authority of each range (one per element of `authorities`, parallel to the classes).
fn ranges(input: &Input, authorities: &[(Authority, Citation)]) -> Vec<ClassRange> {
    let sizes: Vec<(InputClass, usize)> = match input {
        Input::Codes(c) => c.iter().map(|(k, v)| (*k, v.len())).collect(),
        Input::Strings(c) => c.iter().map(|(k, v)| (*k, v.len())).collect(),
    };
    let mut start = 0;
    sizes
        .into_iter()
        .zip(authorities)
        .filter(|((_, n), _)| *n > 0)
        .map(|((class, n), (authority, citation))| {
            start += n;
            ClassRange {
                class,
                start: start - n,
                end: start,
                authority: *authority,
                citation: citation.clone(),
            }
        })
        .collect()
}

/// The steps of a cast case: `from` → `to`, or `from` → `mid` → `to` for a chain, with the
/// attributes each node gets.
pub(crate) fn steps(
    spec: &VersionSpec,
    from: DataType,
    to: DataType,
    attrs: &[CaseAttribute],
    mid: Option<DataType>,
) -> Vec<Step> {
    let step = |from: DataType, to: DataType, attrs: &[CaseAttribute]| {
        let mut s = Step {
            op: spec.op(),
            version: spec.since(),
            from,
            to,
            saturate: true,
            round_mode: RoundMode::Up,
        };
        for a in attrs {
            match *a {
                CaseAttribute::Saturate(on) => s.saturate = on,
                CaseAttribute::RoundMode(m) => s.round_mode = m,
                CaseAttribute::Axis(_) => {}
            }
        }
        s
    };
    match mid {
        Some(m) => vec![
            step(from, m, &attr_combos(spec, m).remove(0)),
            step(m, to, &attr_combos(spec, to).remove(0)),
        ],
        None => vec![step(from, to, attrs)],
    }
}

/// `input` with each class split into runs of one authority (strongest first, the class's
/// order kept within a run), and the authority of each run. The first step decides from the
/// element's class and value; a chain's later steps cannot be weaker than they are for any
/// value (docs/deep.md, "Authority").
fn by_authority(
    steps: &[Step],
    from: DataType,
    input: Input,
) -> (Input, Vec<(Authority, Citation)>) {
    let later = steps[1..]
        .iter()
        .map(authority::decide_any)
        .reduce(authority::weaker);
    let decide = |class: InputClass, v: Val| {
        let first = authority::decide(&steps[0], class, v);
        match &later {
            Some(l) => authority::weaker(first, l.clone()),
            None => first,
        }
    };
    type Classes<T> = Vec<(InputClass, Vec<T>)>;
    fn split<T: Clone>(
        classes: Classes<T>,
        vals: impl Fn(&[T]) -> Vec<Val>,
        decide: impl Fn(InputClass, Val) -> (Authority, Citation),
    ) -> (Classes<T>, Vec<(Authority, Citation)>) {
        let (mut out, mut auth) = (Vec::new(), Vec::new());
        for (class, items) in classes {
            let mut runs: Vec<((Authority, Citation), Vec<T>)> = Vec::new();
            for (item, v) in items.iter().zip(vals(&items)) {
                let a = decide(class, v);
                match runs.iter_mut().find(|(k, _)| *k == a) {
                    Some((_, run)) => run.push(item.clone()),
                    None => runs.push((a, vec![item.clone()])),
                }
            }
            runs.sort_by_key(|((a, _), _)| *a);
            if runs.is_empty() {
                out.push((class, items));
                auth.push(decide(class, Val::Text));
            }
            for (a, run) in runs {
                out.push((class, run));
                auth.push(a);
            }
        }
        (out, auth)
    }
    match input {
        Input::Codes(c) => {
            let vals = |codes: &[u128]| source_values(from, codes);
            let (c, a) = split(c, vals, decide);
            (Input::Codes(c), a)
        }
        Input::Strings(c) => {
            let vals = |s: &[String]| {
                s.iter()
                    .map(|s| s.parse::<f64>().map_or(Val::Text, Val::Float))
                    .collect()
            };
            let (c, a) = split(c, vals, decide);
            (Input::Strings(c), a)
        }
    }
}

/// The exact values of `codes` of `from`.
pub(crate) fn source_values(from: DataType, codes: &[u128]) -> Vec<Val> {
    match from.kind() {
        TypeKind::Float | TypeKind::PowerOfTwo => super::run::decode(from, codes)
            .into_iter()
            .map(Val::Float)
            .collect(),
        TypeKind::Signed => {
            let w = from.bit_width();
            codes
                .iter()
                .map(|&c| Val::Int(((c << (128 - w)) as i128) >> (128 - w)))
                .collect()
        }
        _ => codes.iter().map(|&c| Val::Int(c as i128)).collect(),
    }
}

/// One element of the first class with any, for the shapes that need one value.
fn first_value(input: &Input) -> Input {
    let mut one = input.sample(1);
    let keep = |n: usize| n > 0;
    match &mut one {
        Input::Codes(c) => {
            c.retain(|(_, v)| keep(v.len()));
            c.truncate(1);
        }
        Input::Strings(c) => {
            c.retain(|(_, v)| keep(v.len()));
            c.truncate(1);
        }
    }
    one
}

/// The `like` input of CastLike: one element of the target type.
pub(crate) fn like(to: DataType) -> Tensor {
    match to {
        DataType::String => Tensor::from_vec(vec![1], vec![String::new()]).expect("a string"),
        _ => tensor_from_codes(to, vec![1], &[0]).expect("a code"),
    }
}

/// An empty `like` input (dims [0], no data field in [`Encoding::ZeroOmitted`], as the
/// official CastLike cases from 1.19.1 write it).
fn empty_like(to: DataType) -> Tensor {
    match to {
        DataType::String => Tensor::from_vec(vec![0], Vec::<String>::new()).expect("no strings"),
        _ => tensor_from_codes(to, vec![0], &[]).expect("no codes"),
    }
}

/// The cast node(s) from `input` to `output`.
pub(crate) fn cast_node(
    spec: &VersionSpec,
    to: DataType,
    attrs: &[CaseAttribute],
    input: &str,
    output: &str,
) -> Node {
    let op = spec.op().to_string();
    let own = attrs.iter().map(CaseAttribute::attribute);
    match spec.op() {
        OpKind::CastLike => {
            let like = format!("like_{output}");
            Node::new(&op, &[input, &like], &[output], own.collect())
        }
        _ => {
            let a = std::iter::once(to_attr(spec, to)).chain(own).collect();
            Node::new(&op, &[input], &[output], a)
        }
    }
}

/// The index entry and graph of `plan`.
pub(crate) fn build(name: &str, plan: &Plan) -> (CaseEntry, Graph) {
    match plan {
        Plan::Cast {
            spec,
            from,
            to,
            attrs,
            shape,
        } => build_cast(name, spec, *from, *to, attrs, *shape),
        Plan::Concat {
            spec,
            dtype,
            rank,
            axis,
            count,
            layout,
        } => build_concat(name, spec, *dtype, (*rank, *axis, *count), *layout),
    }
}

fn build_cast(
    name: &str,
    spec: &VersionSpec,
    from: DataType,
    to: DataType,
    attrs: &[CaseAttribute],
    shape: Shape,
) -> (CaseEntry, Graph) {
    let opset = i64::from(spec.since());
    let (mid, size) = match shape {
        Shape::Chain(mid) => (Some(mid), Size::Boundary),
        Shape::Values(size) => (None, size),
        _ => (None, Size::Boundary),
    };
    let first_to = mid.unwrap_or(to);
    let full = values::input(from, first_to, size);
    let input = match shape {
        Shape::Values(_) => full,
        Shape::Scalar => first_value(&full),
        Shape::ZeroDim => full.sample(0),
        Shape::Initializer | Shape::Constant | Shape::Encoded { .. } => full.sample(4),
        Shape::Chain(m) => values::chain_input(from, m, to),
        Shape::Placed(_) => full,
    };
    let dims = match shape {
        Shape::Scalar => vec![],
        Shape::ZeroDim => vec![2, 0, 3],
        Shape::Encoded { .. } => vec![1, input.len()],
        _ => vec![input.len()],
    };
    let (input, authorities) = by_authority(&steps(spec, from, to, attrs, mid), from, input);
    // A placed case repeats one element of each run: the pattern's ranges hold for every
    // period of it.
    let (input, period) = match shape {
        Shape::Placed(len) => {
            let pattern = input.sample(1);
            (pattern.clone(), Some((pattern.len(), len)))
        }
        _ => (input, None),
    };
    let dims = match period {
        Some((_, len)) => vec![len],
        None => dims,
    };
    let x = match period {
        Some((_, len)) => tensor(from, dims.clone(), &input.cycled(len)),
        None => tensor(from, dims.clone(), &input),
    };
    let mut nodes = Vec::new();
    let mut inputs = Vec::new();
    let mut initializers = Vec::new();
    match shape {
        Shape::Initializer
        | Shape::Encoded {
            initializer: true, ..
        } => initializers.push(("input".to_string(), x)),
        Shape::Constant => {
            let value = Attribute {
                name: "value".into(),
                value: AttrValue::Tensor(x),
            };
            nodes.push(Node::new("Constant", &[], &["input"], vec![value]));
        }
        _ => inputs.push(("input".to_string(), x)),
    }
    let encoding = match shape {
        Shape::Encoded { encoding, .. } => encoding,
        _ => Encoding::Onnx,
    };
    let steps: Vec<(DataType, &str, &str)> = match mid {
        Some(m) => vec![(m, "input", "middle"), (to, "middle", "output")],
        None => vec![(to, "input", "output")],
    };
    for &(t, i, o) in &steps {
        let step_attrs = if mid.is_some() {
            attr_combos(spec, t).remove(0)
        } else {
            attrs.to_vec()
        };
        nodes.push(cast_node(spec, t, &step_attrs, i, o));
        if spec.op() == OpKind::CastLike {
            let like = match encoding {
                Encoding::ZeroOmitted => empty_like(t),
                _ => like(t),
            };
            inputs.push((format!("like_{o}"), like));
        }
    }
    let graph = Graph {
        opset,
        nodes,
        inputs,
        initializers,
        outputs: vec![("output".into(), to, dims)],
        encoding,
    };
    let entry = CaseEntry {
        case: name.into(),
        op: spec.op(),
        version: spec.since(),
        opset,
        from,
        to,
        attributes: attrs.to_vec(),
        shape: case_shape(shape),
        classes: ranges(&input, &authorities),
        period: period.map(|(p, _)| p),
    };
    (entry, graph)
}

fn build_concat(
    name: &str,
    spec: &VersionSpec,
    dtype: DataType,
    (rank, axis, count): (usize, Option<i64>, usize),
    layout: ConcatLayout,
) -> (CaseEntry, Graph) {
    let opset = i64::from(spec.since());
    let a = axis.unwrap_or(1);
    let a = if a < 0 { a + rank as i64 } else { a } as usize;
    // Complex types are never cast, so they have no value set: distinct codes do.
    let values = match dtype.kind() {
        TypeKind::Complex => Input::Codes(vec![(
            InputClass::Code,
            (1..=64u128).map(|i| i * 0x0101_0101_0101_0101).collect(),
        )]),
        _ => values::input(dtype, dtype, Size::Boundary),
    };
    let pool: Vec<u128> = match &values {
        Input::Codes(c) => c.iter().flat_map(|(_, v)| v.iter().copied()).collect(),
        Input::Strings(_) => Vec::new(),
    };
    let strings: Vec<String> = match &values {
        Input::Strings(c) => c.iter().flat_map(|(_, v)| v.iter().cloned()).collect(),
        Input::Codes(_) => Vec::new(),
    };
    let mut inputs = Vec::new();
    let mut offset = 0usize;
    let mut out_dims = vec![2usize; rank];
    out_dims[a] = 0;
    for k in 0..count {
        let mut dims = vec![2usize; rank];
        // With three or more inputs the second is empty along the axis; the others differ in
        // extent, so a copy of the wrong block shows.
        dims[a] = match layout {
            ConcatLayout::SignedZeros => 1 + k % 7,
            _ if count >= 3 && k == 1 => 0,
            _ => 1 + k % 3,
        };
        out_dims[a] += dims[a];
        let n: usize = dims.iter().product();
        let code = |i: usize| match layout {
            ConcatLayout::SignedZeros if (offset + i).is_multiple_of(2) => {
                1u128 << (dtype.bit_width() - 1)
            }
            ConcatLayout::SignedZeros => pool[(offset + i) / 2 % pool.len().max(1)],
            _ => pool[(offset + i) % pool.len().max(1)],
        };
        let t = if dtype == DataType::String {
            let v: Vec<String> = (0..n)
                .map(|i| strings[(offset + i) % strings.len().max(1)].clone())
                .collect();
            Tensor::from_vec(dims, v).expect("strings")
        } else {
            let v: Vec<u128> = (0..n).map(code).collect();
            tensor_from_codes(dtype, dims, &v).expect("codes")
        };
        offset += n;
        inputs.push((format!("value{k}"), t));
    }
    let attrs: Vec<CaseAttribute> = axis
        .map(|v| vec![CaseAttribute::Axis(v)])
        .unwrap_or_default();
    let names: Vec<&str> = inputs.iter().map(|(n, _)| n.as_str()).collect();
    let node = Node::new(
        "Concat",
        &names,
        &["output"],
        attrs.iter().map(CaseAttribute::attribute).collect(),
    );
    let graph = Graph {
        opset,
        nodes: vec![node],
        inputs,
        initializers: Vec::new(),
        outputs: vec![("output".into(), dtype, out_dims)],
        encoding: match layout {
            ConcatLayout::Encoded(e) => e,
            _ => Encoding::Onnx,
        },
    };
    let entry = CaseEntry {
        case: name.into(),
        op: OpKind::Concat,
        version: spec.since(),
        opset,
        from: dtype,
        to: dtype,
        attributes: attrs.to_vec(),
        shape: match layout {
            ConcatLayout::Encoded(encoding) => CaseShape::Encoded {
                encoding,
                initializer: false,
            },
            ConcatLayout::SignedZeros => CaseShape::SignedZeros(count),
            ConcatLayout::Spread if count >= 3 => CaseShape::EmptyInput,
            ConcatLayout::Spread => CaseShape::Inputs(count),
        },
        classes: Vec::new(),
        period: None,
    };
    (entry, graph)
}
