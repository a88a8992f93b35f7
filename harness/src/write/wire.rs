//! Rewriting encoded messages on the wire, for the one variant prost's static field options
//! cannot give: `TensorProto.dims` packed ([`super::Encoding::PackedDims`]). The bytes come
//! from our own encoder; a message that does not parse is returned unchanged.

use prost::encoding::{decode_key, decode_varint, encode_key, encode_varint, WireType};

/// One field of a message: its number, and its bytes (key included) or, when
/// length-delimited, its payload.
enum Field<'a> {
    Varint(u32, u64),
    Len(u32, &'a [u8]),
    Other(&'a [u8]),
}

/// The fields of `bytes` in order, or `None` when it does not parse.
fn fields(mut bytes: &[u8]) -> Option<Vec<Field<'_>>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let start = bytes;
        let (number, wire) = decode_key(&mut bytes).ok()?;
        let field = match wire {
            WireType::Varint => Field::Varint(number, decode_varint(&mut bytes).ok()?),
            WireType::LengthDelimited => {
                let len = usize::try_from(decode_varint(&mut bytes).ok()?).ok()?;
                let payload = bytes.get(..len)?;
                bytes = &bytes[len..];
                Field::Len(number, payload)
            }
            WireType::SixtyFourBit | WireType::ThirtyTwoBit => {
                let width = if wire == WireType::SixtyFourBit { 8 } else { 4 };
                bytes = bytes.get(width..)?;
                Field::Other(&start[..start.len() - bytes.len()])
            }
            WireType::StartGroup | WireType::EndGroup => return None,
        };
        out.push(field);
    }
    Some(out)
}

fn put_len(out: &mut Vec<u8>, number: u32, payload: &[u8]) {
    encode_key(number, WireType::LengthDelimited, out);
    encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

/// `bytes` with the payload of each length-delimited field passed through `map` (given the
/// field number), every other field copied.
fn map_len(bytes: &[u8], map: &dyn Fn(u32, &[u8]) -> Vec<u8>) -> Vec<u8> {
    let Some(fields) = fields(bytes) else {
        return bytes.to_vec();
    };
    let mut out = Vec::with_capacity(bytes.len() + 16);
    for f in fields {
        match f {
            Field::Varint(n, v) => {
                encode_key(n, WireType::Varint, &mut out);
                encode_varint(v, &mut out);
            }
            Field::Len(n, p) => put_len(&mut out, n, &map(n, p)),
            Field::Other(raw) => out.extend_from_slice(raw),
        }
    }
    out
}

/// A TensorProto's bytes with its `dims` (field 1) as one packed field where the first
/// dimension was; a tensor without dims is unchanged.
pub(super) fn pack_dims(tensor: &[u8]) -> Vec<u8> {
    let Some(fields) = fields(tensor) else {
        return tensor.to_vec();
    };
    let mut dims = Vec::new();
    for f in &fields {
        if let Field::Varint(1, v) = f {
            encode_varint(*v, &mut dims);
        }
    }
    let mut out = Vec::with_capacity(tensor.len());
    let mut packed = false;
    for f in fields {
        match f {
            Field::Varint(1, _) if packed => {}
            Field::Varint(1, _) => {
                put_len(&mut out, 1, &dims);
                packed = true;
            }
            Field::Varint(n, v) => {
                encode_key(n, WireType::Varint, &mut out);
                encode_varint(v, &mut out);
            }
            Field::Len(n, p) => put_len(&mut out, n, p),
            Field::Other(raw) => out.extend_from_slice(raw),
        }
    }
    out
}

/// A ModelProto's bytes with `dims` packed in every tensor it holds: the graph's
/// initializers (ModelProto.graph 7, GraphProto.initializer 5) and the nodes' tensor
/// attributes (GraphProto.node 1, NodeProto.attribute 5, AttributeProto.t 5).
pub(super) fn pack_dims_in_model(model: &[u8]) -> Vec<u8> {
    let attribute = |n: u32, p: &[u8]| if n == 5 { pack_dims(p) } else { p.to_vec() };
    let node = |n: u32, p: &[u8]| {
        if n == 5 {
            map_len(p, &attribute)
        } else {
            p.to_vec()
        }
    };
    let graph = |n: u32, p: &[u8]| match n {
        1 => map_len(p, &node),
        5 => pack_dims(p),
        _ => p.to_vec(),
    };
    map_len(model, &|n, p| {
        if n == 7 {
            map_len(p, &graph)
        } else {
            p.to_vec()
        }
    })
}
