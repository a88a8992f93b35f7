//! The deep tree's index (`index.json`, written by [`crate::write`]): what each case holds, the
//! vocabulary it is written in (case shapes, attributes, input classes, authorities and the
//! sections of docs/semantics.md they cite), and where the tree and its parts are.

use harness::write::Encoding;
use harness::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use vocab::{DataType, OpKind};

/// The directory of the cases under the tree's root (the index sits beside it).
pub const CASES_DIR: &str = "cases";
/// The index file at the root of the tree.
pub const INDEX_FILE: &str = "index.json";
/// The format of [`Index`]; a reader refuses any other (2: every class range names its
/// authority; 3: the sha256 of every case file, [`Index::files`]).
pub const FORMAT: u32 = 3;
/// The command that writes the tree, named by every guard.
pub const REGENERATE: &str = "cargo xtask deep-cases";

/// The tree's default place under the cargo target directory.
pub fn default_dir(target: &Path) -> PathBuf {
    target.join("onnx-conformance").join("deep")
}

/// Why there is no tree at `root` to read (no index), naming the command that writes one;
/// `None` when there is one.
pub fn missing(root: &Path) -> Option<String> {
    let no_index = !root.join(INDEX_FILE).exists();
    no_index.then(|| {
        let root = root.display();
        format!("no deep tree at {root} (no {INDEX_FILE}): run `{REGENERATE}` first")
    })
}

/// `index.json`: what each case holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// [`FORMAT`].
    pub format: u32,
    /// [`crate::fingerprint`] of the sources that wrote the tree.
    pub fingerprint: String,
    /// sha256 over every case file, in case order (each relative path, then its bytes).
    pub content_sha256: String,
    /// Every case, sorted by name.
    pub cases: Vec<CaseEntry>,
    /// The sha256 of every case file, by its path under [`CASES_DIR`] (`<case>/model.onnx`):
    /// what a run checks the files against before it trusts them ([`crate::integrity`]).
    pub files: BTreeMap<String, String>,
}

/// One case of the tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseEntry {
    /// Directory name under the tree's root.
    pub case: String,
    /// The operator under test (the last node of a chain).
    pub op: OpKind,
    /// Its since-version.
    pub version: u32,
    /// The model opset.
    pub opset: i64,
    /// Source element type (Cast, CastLike) or the element type (Concat).
    pub from: DataType,
    /// Target element type (same as `from` for Concat).
    pub to: DataType,
    /// The attributes that were set, written `name=value`.
    pub attributes: Vec<CaseAttribute>,
    /// The case shape: `values` or one of the shapes of docs/deep.md.
    pub shape: CaseShape,
    /// Which input class sits at which element range of input 0 (of the chain's first node).
    pub classes: Vec<ClassRange>,
    /// For a case whose input repeats a pattern (`placed-<length>`), the pattern's length:
    /// element i is in the class range of element i mod period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<usize>,
}

/// An attribute a deep case sets beyond Cast's `to`, written in the index as `saturate=0`,
/// `round_mode=up` or `axis=-1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaseAttribute {
    /// `saturate`, 0 or 1.
    Saturate(bool),
    /// `round_mode` (Cast-25 into FLOAT8E8M0).
    RoundMode(RoundMode),
    /// Concat's `axis`.
    Axis(i64),
}

/// The values of `round_mode`, the vocabulary's.
pub use vocab::RoundMode;

impl CaseAttribute {
    /// The attribute as a node carries it.
    pub fn attribute(&self) -> vocab::Attribute {
        let (name, value) = match self {
            CaseAttribute::Saturate(s) => ("saturate", vocab::AttrValue::Int(i64::from(*s))),
            CaseAttribute::RoundMode(m) => (
                "round_mode",
                vocab::AttrValue::String(m.label().as_bytes().to_vec()),
            ),
            CaseAttribute::Axis(a) => ("axis", vocab::AttrValue::Int(*a)),
        };
        vocab::Attribute {
            name: name.into(),
            value,
        }
    }
}

impl fmt::Display for CaseAttribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseAttribute::Saturate(s) => write!(f, "saturate={}", u8::from(*s)),
            CaseAttribute::RoundMode(m) => write!(f, "round_mode={}", m.label()),
            CaseAttribute::Axis(a) => write!(f, "axis={a}"),
        }
    }
}

impl CaseAttribute {
    /// The attribute `text` names, as the index writes it; `None` for any other text.
    pub fn parse(text: &str) -> Option<CaseAttribute> {
        let (name, value) = text.split_once('=')?;
        let attribute = match name {
            "saturate" => match value {
                "0" => CaseAttribute::Saturate(false),
                "1" => CaseAttribute::Saturate(true),
                _ => return None,
            },
            "round_mode" => {
                CaseAttribute::RoundMode(RoundMode::ALL.into_iter().find(|m| m.label() == value)?)
            }
            "axis" => CaseAttribute::Axis(value.parse().ok()?),
            _ => return None,
        };
        // Only the canonical spelling (`axis=+1` and `axis=01` are not), so it prints back.
        (attribute.to_string() == text).then_some(attribute)
    }
}

vocab::serde_as_text!(CaseAttribute,
    text: ToString::to_string,
    parse: CaseAttribute::parse,
    refusal: |text: &str| format!("no case attribute {text:?}"),
);

/// The shape of a deep case (docs/deep.md), written in the index as `values`, `scalar`,
/// `chain-through-FLOAT16`, `encoding-packed-dims-initializer`, `2-inputs` and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaseShape {
    /// A value set along one axis: the case whose elements have input classes.
    Values,
    /// A rank-0 input.
    Scalar,
    /// A shape with a zero dimension.
    ZeroDim,
    /// The input as an initializer.
    Initializer,
    /// The input from a Constant node.
    Constant,
    /// Two casts, through this type.
    ChainThrough(DataType),
    /// The model written in another encoding, its input a graph input or an initializer.
    Encoded {
        /// The encoding.
        encoding: Encoding,
        /// Whether the input is an initializer.
        initializer: bool,
    },
    /// Concat of this many inputs.
    Inputs(usize),
    /// Concat of three or more inputs, one of them empty along the axis.
    EmptyInput,
    /// Concat of this many inputs of unequal sizes holding −0 beside other values: a copy
    /// that goes through arithmetic (a sum with +0) or a zero-fill loses the sign.
    SignedZeros(usize),
    /// One element of each input class, repeated to this length: each class lands first, in
    /// a vector body, in a scalar tail and across a thread split.
    Placed(usize),
}

impl fmt::Display for CaseShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseShape::Values => f.write_str("values"),
            CaseShape::Scalar => f.write_str("scalar"),
            CaseShape::ZeroDim => f.write_str("zero-dim"),
            CaseShape::Initializer => f.write_str("initializer"),
            CaseShape::Constant => f.write_str("constant"),
            CaseShape::ChainThrough(t) => write!(f, "chain-through-{}", t.name()),
            CaseShape::Encoded {
                encoding,
                initializer,
            } => {
                let place = if *initializer { "-initializer" } else { "" };
                write!(f, "encoding-{}{place}", encoding.name())
            }
            CaseShape::Inputs(n) => write!(f, "{n}-inputs"),
            CaseShape::EmptyInput => f.write_str("empty-input"),
            CaseShape::SignedZeros(n) => write!(f, "signed-zeros-{n}-inputs"),
            CaseShape::Placed(n) => write!(f, "placed-{n}"),
        }
    }
}

impl CaseShape {
    /// The shape `text` names, as the index writes it; `None` for any other text.
    pub fn parse(text: &str) -> Option<CaseShape> {
        let fixed = [
            CaseShape::Values,
            CaseShape::Scalar,
            CaseShape::ZeroDim,
            CaseShape::Initializer,
            CaseShape::Constant,
            CaseShape::EmptyInput,
        ];
        if let Some(s) = fixed.into_iter().find(|s| s.to_string() == text) {
            return Some(s);
        }
        if let Some(t) = text.strip_prefix("chain-through-") {
            return DataType::from_name(t).map(CaseShape::ChainThrough);
        }
        if let Some(rest) = text.strip_prefix("encoding-") {
            let (name, initializer) = match rest.strip_suffix("-initializer") {
                Some(name) => (name, true),
                None => (rest, false),
            };
            let encoding = Encoding::VARIANTS.into_iter().find(|e| e.name() == name)?;
            return Some(CaseShape::Encoded {
                encoding,
                initializer,
            });
        }
        if let Some(n) = text.strip_prefix("placed-") {
            let canonical = !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit());
            return canonical.then(|| n.parse().ok().map(CaseShape::Placed))?;
        }
        let n = text.strip_suffix("-inputs")?;
        let (n, shape): (&str, fn(usize) -> CaseShape) = match n.strip_prefix("signed-zeros-") {
            Some(n) => (n, CaseShape::SignedZeros),
            None => (n, CaseShape::Inputs),
        };
        // Digits only, so that the text prints back as it was read.
        let canonical = !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit());
        canonical.then(|| n.parse().ok().map(shape))?
    }
}

vocab::serde_as_text!(CaseShape,
    text: ToString::to_string,
    parse: CaseShape::parse,
    refusal: |text: &str| format!("no case shape {text:?}"),
);

/// Declares [`InputClass`] from one table of variant and spelling, so that the two cannot drift.
macro_rules! input_classes {
    ($($variant:ident => $label:literal,)*) => {
        /// An input class of the deep suite's value sets (docs/deep.md, "Input classes"), spelled
        /// in the index as `tie`, `nan-payload` and so on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum InputClass {
            $(
                #[doc = concat!("`", $label, "`.")]
                $variant,
            )*
        }

        impl InputClass {
            /// Every class, in the order of their spellings.
            pub const ALL: &'static [InputClass] = &[$(InputClass::$variant),*];

            /// The spelling in the index and the findings.
            pub const fn label(self) -> &'static str {
                match self {
                    $(InputClass::$variant => $label,)*
                }
            }
        }
    };
}

input_classes! {
    AboveMax => "above-max",
    BelowMin => "below-min",
    BeyondInt32 => "beyond-int32",
    Code => "code",
    Decimal => "decimal",
    DoubleRounding => "double-rounding",
    Exact => "exact",
    ExactSubnormal => "exact-subnormal",
    ExtremeText => "extreme-text",
    Fraction => "fraction",
    Inf => "inf",
    IntegerLiteral => "integer-literal",
    Max => "max",
    Nan => "nan",
    NanPayload => "nan-payload",
    NearExact => "near-exact",
    NearExactSubnormal => "near-exact-subnormal",
    NearSubnormalTie => "near-subnormal-tie",
    NearTie => "near-tie",
    Nonzero => "nonzero",
    Normal => "normal",
    OffTie => "off-tie",
    Overflow => "overflow",
    PowerOfTwo => "power-of-two",
    PrecisionEdge => "precision-edge",
    RangeEdge => "range-edge",
    Small => "small",
    SpecialSpelling => "special-spelling",
    Spelling => "spelling",
    Subnormal => "subnormal",
    SubnormalTie => "subnormal-tie",
    Text => "text",
    Tie => "tie",
    Underflow => "underflow",
    WrapEdge => "wrap-edge",
    Zero => "zero",
}

impl InputClass {
    /// The class spelled `label`, if there is one.
    pub fn from_label(label: &str) -> Option<InputClass> {
        InputClass::ALL.iter().copied().find(|c| c.label() == label)
    }

    /// Whether its elements are NaN (docs/semantics.md §3.4 fixes their codes).
    pub fn is_nan(self) -> bool {
        matches!(self, InputClass::Nan | InputClass::NanPayload)
    }
}

impl fmt::Display for InputClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

vocab::serde_as_text!(InputClass,
    text: |c: &InputClass| c.label(),
    parse: InputClass::from_label,
    refusal: |label: &str| format!("no input class {label:?}"),
);

/// Elements `start..end` of the data input belong to `class`, and their expected values rest
/// on `authority`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassRange {
    /// The input class, as in `tie` or `nan`.
    pub class: InputClass,
    /// First element.
    pub start: usize,
    /// One past the last element.
    pub end: usize,
    /// What fixes the expected values of these elements.
    pub authority: Authority,
    /// Where that is written.
    pub citation: Citation,
}

/// What fixes an expected value, strongest first (docs/deep.md, "Authority"). Only `page` and
/// `ieee` values can make a runtime's difference a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Authority {
    /// onnx's specification text fixes the value: the operator page, or the technical note on
    /// the type that the page's type list refers to (float8, float4, int4, int2).
    Page,
    /// The page says "round" or nothing, and IEEE 754's correctly rounded conversion (or C's
    /// integer conversion) fixes the value.
    Ieee,
    /// Only the official node data fixes the value, against or beyond the page.
    Data,
    /// Neither the page nor the data decides: the value is this project's reading.
    Reading,
}

impl Authority {
    /// Every authority, strongest first.
    pub const ALL: [Authority; 4] = [
        Authority::Page,
        Authority::Ieee,
        Authority::Data,
        Authority::Reading,
    ];

    /// The lowercase name, as in JSON.
    pub fn label(self) -> &'static str {
        match self {
            Authority::Page => "page",
            Authority::Ieee => "ieee",
            Authority::Data => "data",
            Authority::Reading => "reading",
        }
    }

    /// Whether a runtime that differs from a value of this authority has a bug.
    pub fn makes_a_bug(self) -> bool {
        matches!(self, Authority::Page | Authority::Ieee)
    }
}

/// Where an authority is written: the section of docs/semantics.md that states the rule, the
/// rule in a sentence, and a public link (the operator page's anchor, a technical note, IEEE
/// 754, or the official cases and releases).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Citation {
    /// The section of docs/semantics.md, as `§3.7`.
    pub section: Section,
    /// The rule in a sentence.
    pub rule: String,
    /// The public source: a link, or for `data` the official case names and releases.
    pub source: String,
}

/// A part of docs/semantics.md that the deep suite cites: a numbered heading, or a numbered
/// item of one (`§8.1`). Written as `§3.7` in every file; `semantics_sections_exist` holds each
/// to its heading, so a renumbered page fails a test rather than a reader's link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// §3: conversions as a whole.
    Conversions,
    /// §3.2: the version-24 switch.
    VersionSwitch,
    /// §3.3: rounding into a narrower float format.
    NarrowerFloat,
    /// §3.4: NaN codes.
    NanCodes,
    /// §3.6: BFLOAT16, FLOAT16, FLOAT and DOUBLE among themselves.
    WideFloats,
    /// §3.7: FLOAT8E8M0.
    Float8E8M0,
    /// §3.8: the 4-bit and 2-bit types.
    SubByte,
    /// §3.9: strings.
    Strings,
    /// §3.10: the other numeric conversions.
    OtherNumeric,
    /// §3.11: values the spec leaves undefined.
    Undefined,
    /// §3.12: the float6 types.
    Float6,
    /// §5.1: the protobuf wire format, and what onnx.proto's proto2 fields mean when absent.
    WireFormat,
    /// §5.3: where a tensor's element values are.
    TensorValues,
    /// §6: Concat.
    Concat,
    /// §8.1: the FNUZ ±Inf disagreement, the first item of §8.
    FnuzInfinity,
}

impl Section {
    /// Every section, in the page's order.
    pub const ALL: [Section; 15] = [
        Section::Conversions,
        Section::VersionSwitch,
        Section::NarrowerFloat,
        Section::NanCodes,
        Section::WideFloats,
        Section::Float8E8M0,
        Section::SubByte,
        Section::Strings,
        Section::OtherNumeric,
        Section::Undefined,
        Section::Float6,
        Section::WireFormat,
        Section::TensorValues,
        Section::Concat,
        Section::FnuzInfinity,
    ];

    /// As files and pages write it: `§3.7`.
    pub fn label(self) -> &'static str {
        match self {
            Section::Conversions => "§3",
            Section::VersionSwitch => "§3.2",
            Section::NarrowerFloat => "§3.3",
            Section::NanCodes => "§3.4",
            Section::WideFloats => "§3.6",
            Section::Float8E8M0 => "§3.7",
            Section::SubByte => "§3.8",
            Section::Strings => "§3.9",
            Section::OtherNumeric => "§3.10",
            Section::Undefined => "§3.11",
            Section::Float6 => "§3.12",
            Section::WireFormat => "§5.1",
            Section::TensorValues => "§5.3",
            Section::Concat => "§6",
            Section::FnuzInfinity => "§8.1",
        }
    }

    /// The start of its heading's title after the number (of the item's text, for an item),
    /// as docs/semantics.md writes it.
    pub fn title(self) -> &'static str {
        match self {
            Section::Conversions => "Conversions",
            Section::VersionSwitch => "The version-24 switch",
            Section::NarrowerFloat => "Rounding into a narrower float format",
            Section::NanCodes => "NaN codes",
            Section::WideFloats => "BFLOAT16, FLOAT16, FLOAT and DOUBLE among themselves",
            Section::Float8E8M0 => "FLOAT8E8M0",
            Section::SubByte => "4-bit and 2-bit types",
            Section::Strings => "Strings",
            Section::OtherNumeric => "Other numeric conversions",
            Section::Undefined => "Values the spec leaves undefined",
            Section::Float6 => "FLOAT6E2M3 and FLOAT6E3M2",
            Section::WireFormat => "Wire format",
            Section::TensorValues => "Where the element values are",
            Section::Concat => "Concat",
            Section::FnuzInfinity => "FNUZ ±Inf with saturate=1",
        }
    }

    /// The heading it is (`None`), or the heading it is an item of with the item's number:
    /// §8 has no sub-headings, its disagreements are a numbered list.
    pub fn item_of(self) -> Option<(&'static str, u32)> {
        match self {
            Section::FnuzInfinity => Some(("8", 1)),
            _ => None,
        }
    }

    /// The section `label` names, if it is one of [`Section::ALL`].
    pub fn from_label(label: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.label() == label)
    }
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

// By label, as the citations sorted when their sections were strings.
impl Ord for Section {
    fn cmp(&self, other: &Section) -> std::cmp::Ordering {
        self.label().cmp(other.label())
    }
}

impl PartialOrd for Section {
    fn partial_cmp(&self, other: &Section) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

vocab::serde_as_text!(Section,
    text: |s: &Section| s.label(),
    parse: Section::from_label,
    refusal: |label: &str| format!("no cited section {label:?} of docs/semantics.md"),
);

impl CaseEntry {
    /// The class of element `i` of the data input, if a range holds it.
    pub fn class_of(&self, i: usize) -> Option<InputClass> {
        self.range_of(i).map(|r| r.class)
    }

    /// The range that holds element `i` of the data input.
    pub fn range_of(&self, i: usize) -> Option<&ClassRange> {
        let i = self.period.map_or(i, |p| i % p.max(1));
        self.classes.iter().find(|r| (r.start..r.end).contains(&i))
    }
}

/// The index of the tree at its default place under `target`, if it can be read.
pub fn read_index(target: &Path) -> Result<Index, Error> {
    read_index_at(&default_dir(target))
}

/// The index of the tree at `root`, if it can be read.
pub fn read_index_at(root: &Path) -> Result<Index, Error> {
    let path = root.join(INDEX_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::at(&path, format!("cannot read: {e}")))?;
    serde_json::from_str(&text).map_err(|e| Error::at(&path, format!("invalid index: {e}")))
}

#[cfg(test)]
mod tests;
