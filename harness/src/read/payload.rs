//! The value payload of a TensorProto: which field holds the values, whether its length fits
//! the element count exactly, and how its entries become element codes.

use crate::packing::{packed_len, padding, straddles, unpack};
use crate::proto::TensorProto;
use vocab::{DataType, TypedField};

/// The field holding a tensor's values, borrowed from the proto, its length already checked.
#[derive(Debug)]
pub(crate) enum Payload<'a> {
    /// `raw_data`: little-endian bytes, sub-byte types packed from the low bits up.
    Raw(&'a [u8]),
    /// `float_data`: f32, two per COMPLEX64 element.
    Float(&'a [f32]),
    /// `int32_data`: one entry per element, or one packed byte per entry for the 4- and 2-bit
    /// types.
    Int32(&'a [i32]),
    /// `int64_data`.
    Int64(&'a [i64]),
    /// `double_data`: f64, two per COMPLEX128 element.
    Double(&'a [f64]),
    /// `uint64_data`: UINT32 and UINT64.
    Uint64(&'a [u64]),
    /// `string_data`: one entry per element, UTF-8 not yet checked.
    Strings(&'a [Vec<u8>]),
    /// No field at all: only valid for zero elements.
    Empty,
}

/// Selects the payload of `tp` for `count` elements of `dtype` and checks its length, so that
/// nothing is allocated for a count the data cannot back. `raw` (`tp`'s `raw_data`, or the
/// same bytes kept apart from the message) wins when present.
pub(crate) fn select<'a>(
    tp: &'a TensorProto,
    raw: Option<&'a [u8]>,
    dtype: DataType,
    count: usize,
) -> Result<Payload<'a>, String> {
    let bits = dtype.bit_width();
    if let Some(raw) = raw {
        if dtype == DataType::String {
            return Err("STRING tensor sets raw_data; strings must be in string_data".into());
        }
        let need = packed_len(count, bits).ok_or("byte size overflows")?;
        if raw.len() != need {
            return Err(format!(
                "raw_data holds {} bytes, but {count} {dtype} elements need exactly {need}",
                raw.len()
            ));
        }
        check_padding(raw, dtype, count)?;
        return Ok(Payload::Raw(raw));
    }
    let field = dtype.typed_field();
    let (payload, len) = typed(tp, field);
    if len == 0 {
        if let Some(other) = other_nonempty_field(tp, field) {
            return Err(format!(
                "{dtype} values must be in {} but the tensor has {other}",
                field_name(field)
            ));
        }
        if count == 0 {
            return Ok(Payload::Empty);
        }
        return Err(format!(
            "the dims need {count} elements but the tensor holds no data"
        ));
    }
    let need = typed_entries(dtype, count).ok_or("entry count overflows")?;
    if len != need && field == TypedField::StringData {
        return Err(format!(
            "the dims declare {count} elements but string_data holds {len} entries{}",
            utf8_note(&tp.string_data),
        ));
    }
    if len != need {
        return Err(format!(
            "{} holds {len} entries, but {count} {dtype} elements need exactly {need}{}",
            field_name(field),
            if bits < 8 && !straddles(bits) {
                " packed bytes"
            } else {
                ""
            },
        ));
    }
    if let Payload::Int32(entries) = payload {
        check_int32_codes(entries, dtype)?;
    }
    Ok(payload)
}

/// The float6 types' `raw_data` ends in zero padding bits (onnx.proto: "the final group is
/// zero-padded"), which onnx's checker enforces; a writer that leaves bits there has written
/// something else than it meant. The 4- and 2-bit types' padding is not checked (nor by onnx).
fn check_padding(raw: &[u8], dtype: DataType, count: usize) -> Result<(), String> {
    let bits = dtype.bit_width();
    let pad = padding(raw, bits, count);
    if !straddles(bits) || pad == 0 {
        return Ok(());
    }
    let used = count * bits as usize % 8;
    Err(format!(
        "raw_data's padding bits are not zero: bits {used}-7 of its last byte (0x{:02x}) after          the {count} packed {dtype} elements hold 0x{pad:x}; onnx.proto says the final group is          zero-padded (onnx's checker refuses it too)",
        raw[raw.len() - 1]
    ))
}

/// The float6 types' `int32_data` holds one code per entry, in bits 0-5 with bits 6-31 zero
/// (onnx.proto, TensorProto.int32_data; onnx's checker refuses any other entry). Unlike the
/// other types, whose writers sign-extend and whose entries are masked, nothing is masked.
fn check_int32_codes(entries: &[i32], dtype: DataType) -> Result<(), String> {
    let bits = dtype.bit_width();
    if !straddles(bits) {
        return Ok(());
    }
    match entries.iter().position(|&e| (e as u32) >> bits != 0) {
        None => Ok(()),
        Some(k) => Err(format!(
            "int32_data entry {k} is {} (0x{:x}), not a {dtype} code: onnx.proto keeps a code              in bits 0-{} of each entry with bits {bits}-31 zero (onnx's checker refuses it too)",
            entries[k],
            entries[k] as u32,
            bits - 1
        )),
    }
}

/// For a count error on strings, which entries are not UTF-8 either (the corrupt 1.4.1 data
/// has both problems, and the evidence should show both).
fn utf8_note(entries: &[Vec<u8>]) -> String {
    let bad: Vec<usize> = (0..entries.len())
        .filter(|&i| std::str::from_utf8(&entries[i]).is_err())
        .collect();
    match bad.first() {
        None => String::new(),
        Some(&first) => {
            let list: Vec<String> = bad.iter().map(usize::to_string).collect();
            let (noun, verb) = if bad.len() == 1 {
                ("entry", "is")
            } else {
                ("entries", "are")
            };
            format!(
                "; {noun} {} {verb} not UTF-8 (entry {first}: {})",
                list.join(", "),
                hex_prefix(&entries[first])
            )
        }
    }
}

/// How many typed-field entries `count` elements take: packed bytes for the 4- and 2-bit types,
/// two floats per complex element, one otherwise (the float6 types included).
fn typed_entries(dtype: DataType, count: usize) -> Option<usize> {
    let bits = dtype.bit_width();
    match dtype.typed_field() {
        TypedField::Int32Data if bits < 8 && !straddles(bits) => packed_len(count, bits),
        TypedField::FloatData => count.checked_mul((bits / 32) as usize),
        TypedField::DoubleData => count.checked_mul((bits / 64) as usize),
        _ => Some(count),
    }
}

fn typed(tp: &TensorProto, field: TypedField) -> (Payload<'_>, usize) {
    match field {
        TypedField::FloatData => (Payload::Float(&tp.float_data), tp.float_data.len()),
        TypedField::Int32Data => (Payload::Int32(&tp.int32_data), tp.int32_data.len()),
        TypedField::StringData => (Payload::Strings(&tp.string_data), tp.string_data.len()),
        TypedField::Int64Data => (Payload::Int64(&tp.int64_data), tp.int64_data.len()),
        TypedField::DoubleData => (Payload::Double(&tp.double_data), tp.double_data.len()),
        TypedField::Uint64Data => (Payload::Uint64(&tp.uint64_data), tp.uint64_data.len()),
    }
}

const TYPED_FIELDS: [TypedField; 6] = [
    TypedField::FloatData,
    TypedField::Int32Data,
    TypedField::StringData,
    TypedField::Int64Data,
    TypedField::DoubleData,
    TypedField::Uint64Data,
];

/// A typed field other than `expected` that holds values, described for an error message.
fn other_nonempty_field(tp: &TensorProto, expected: TypedField) -> Option<String> {
    TYPED_FIELDS
        .into_iter()
        .filter(|&f| f != expected)
        .map(|f| (f, typed(tp, f).1))
        .find(|&(_, len)| len > 0)
        .map(|(f, len)| format!("{len} entries in {}", field_name(f)))
}

/// The TensorProto field's name, as the schema spells it.
pub(crate) fn field_name(field: TypedField) -> &'static str {
    match field {
        TypedField::FloatData => "float_data",
        TypedField::Int32Data => "int32_data",
        TypedField::StringData => "string_data",
        TypedField::Int64Data => "int64_data",
        TypedField::DoubleData => "double_data",
        TypedField::Uint64Data => "uint64_data",
    }
}

/// The low `bits` bits of `value` (all of it for 128).
fn mask(value: u128, bits: u32) -> u128 {
    if bits >= 128 {
        value
    } else {
        value & ((1u128 << bits) - 1)
    }
}

/// Joins `parts` little-endian entries of `width` bits each into one code.
fn join(parts: impl Iterator<Item = u128>, width: u32) -> u128 {
    parts
        .enumerate()
        .fold(0, |acc, (i, p)| acc | (p << (width * i as u32)))
}

impl Payload<'_> {
    /// Calls `f` with the code of each of the `count` non-string elements, in row-major order.
    /// `int32_data` and `uint64_data` entries are masked to the element width, since writers
    /// store sign-extended values (INT8 -8, and packed INT4 bytes in onnx 1.16.2).
    pub(crate) fn for_each_code(
        &self,
        bits: u32,
        count: usize,
        mut f: impl FnMut(u128),
    ) -> Result<(), String> {
        match *self {
            Payload::Raw(bytes) if bits < 8 => unpack(bytes.iter().copied(), bits, count, f),
            Payload::Raw(bytes) => bytes
                .chunks_exact((bits / 8) as usize)
                .for_each(|c| f(join(c.iter().map(|&b| b.into()), 8))),
            Payload::Int32(v) if bits < 8 && !straddles(bits) => {
                unpack(v.iter().map(|&e| e as u8), bits, count, f)
            }
            Payload::Int32(v) => v.iter().for_each(|&e| f(mask(e as u32 as u128, bits))),
            Payload::Int64(v) => v.iter().for_each(|&e| f(mask(e as u64 as u128, bits))),
            Payload::Uint64(v) => v.iter().for_each(|&e| f(mask(e as u128, bits))),
            Payload::Float(v) => v
                .chunks_exact((bits / 32) as usize)
                .for_each(|c| f(join(c.iter().map(|x| x.to_bits().into()), 32))),
            Payload::Double(v) => v
                .chunks_exact((bits / 64) as usize)
                .for_each(|c| f(join(c.iter().map(|x| x.to_bits().into()), 64))),
            Payload::Empty => {}
            Payload::Strings(_) => return Err("string_data holds no numeric values".into()),
        }
        Ok(())
    }

    /// The string elements, each checked to be UTF-8.
    pub(crate) fn strings(&self) -> Result<Vec<String>, String> {
        let entries = match *self {
            Payload::Strings(entries) => entries,
            Payload::Empty => return Ok(Vec::new()),
            _ => return Err("STRING values must be in string_data".into()),
        };
        entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                String::from_utf8(e.clone())
                    .map_err(|_| format!("string_data entry {i} is not UTF-8 ({})", hex_prefix(e)))
            })
            .collect()
    }
}

/// The first bytes of `bytes` in hex, as evidence in an error message.
pub(crate) fn hex_prefix(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let more = if bytes.len() > 8 { " ..." } else { "" };
    format!("{} bytes: {}{more}", bytes.len(), shown.join(" "))
}
