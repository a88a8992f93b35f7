//! A scan of a serialized TensorProto's top-level fields for its one `raw_data`, so that a
//! large payload is used where the file's bytes already are instead of being copied into the
//! message (prost copies a bytes field out of a borrowed buffer, twice over).

/// A TensorProto's bytes cut around its one `raw_data` field: the fields before it, the
/// payload itself, and the fields after it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Split<'a> {
    /// Every field before `raw_data` (key included), as on the wire.
    pub head: &'a [u8],
    /// `raw_data`'s bytes.
    pub raw: &'a [u8],
    /// Every field after it.
    pub tail: &'a [u8],
}

/// `raw_data`'s field number in TensorProto.
const RAW_DATA: u64 = 9;
/// Protobuf's length-delimited wire type.
const LENGTH_DELIMITED: u64 = 2;

/// `bytes` cut around its `raw_data`, or `None` when the scan cannot vouch for the cut: no
/// `raw_data`, several (protobuf keeps the last; the ordinary decoder applies that), or
/// anything it does not understand (groups, a truncated field). `None` never hides an
/// error: the caller then decodes the whole message as ever, and prost says what is wrong.
pub(crate) fn split_raw_data(bytes: &[u8]) -> Option<Split<'_>> {
    let mut at = 0;
    let mut found = None;
    while at < bytes.len() {
        let start = at;
        let key = varint(bytes, &mut at)?;
        match key & 7 {
            0 => {
                varint(bytes, &mut at)?;
            }
            1 => at = at.checked_add(8)?,
            LENGTH_DELIMITED => {
                let len = usize::try_from(varint(bytes, &mut at)?).ok()?;
                let data = at;
                at = at.checked_add(len)?;
                if key >> 3 == RAW_DATA {
                    if found.is_some() {
                        return None;
                    }
                    found = Some((start, data, at));
                }
            }
            5 => at = at.checked_add(4)?,
            _ => return None,
        }
        if at > bytes.len() {
            return None;
        }
    }
    let (start, data, end) = found?;
    Some(Split {
        head: &bytes[..start],
        raw: &bytes[data..end],
        tail: &bytes[end..],
    })
}

/// The varint at `*at`, which moves past it; `None` if it runs past the end or past ten bytes.
fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests;
