//! Elements narrower than a byte in `raw_data`: one bit stream, least significant bit first,
//! zero-padded to a whole byte (onnx.proto, TensorProto.raw_data). INT4, UINT4 and FLOAT4E2M1
//! pack two per byte, INT2 and UINT2 four per byte, FLOAT6E2M3 and FLOAT6E3M2 four per three
//! bytes; one rule covers all of them, so only the bit width decides.
//!
//! The reader ([`crate::read`]) and the writer ([`crate::write`]) both go through here.

/// Bytes that `count` packed elements of `bits` bits occupy, ceil(bits * count / 8); `None`
/// on overflow.
pub(crate) fn packed_len(count: usize, bits: u32) -> Option<usize> {
    count.checked_mul(bits as usize).map(|b| b.div_ceil(8))
}

/// Whether a sub-byte type's element can straddle a byte boundary (6 bits: its width does not
/// divide 8). For those types onnx.proto stores `int32_data` one code per entry, and the
/// checker refuses non-zero padding bits in `raw_data`; the 4- and 2-bit types store one
/// packed byte per `int32_data` entry, and their padding is not checked.
pub(crate) fn straddles(bits: u32) -> bool {
    bits < 8 && 8 % bits != 0
}

/// The low `bits` bits of `value`.
fn low(value: u32, bits: u32) -> u32 {
    value & ((1u32 << bits) - 1)
}

/// Calls `f` with the codes of the first `count` elements of `bits` bits (1 to 8) packed in
/// `bytes`: element `i` is bits `bits*i ..` of the little-endian stream. Bits after the last
/// element are not looked at here ([`padding`] does).
pub(crate) fn unpack(
    bytes: impl Iterator<Item = u8>,
    bits: u32,
    count: usize,
    mut f: impl FnMut(u128),
) {
    // A queue of not yet used bits: bytes enter at the top, elements leave at the bottom.
    let (mut queue, mut queued, mut done) = (0u32, 0u32, 0usize);
    for byte in bytes {
        queue |= u32::from(byte) << queued;
        queued += 8;
        while queued >= bits && done < count {
            f(u128::from(low(queue, bits)));
            queue >>= bits;
            queued -= bits;
            done += 1;
        }
        if done == count {
            return;
        }
    }
}

/// `codes` (each masked to `bits` bits, 1 to 8) packed into the bit stream [`unpack`] reads,
/// [`packed_len`] bytes long, the padding bits zero.
pub(crate) fn pack(codes: impl Iterator<Item = u128>, bits: u32, count: usize) -> Vec<u8> {
    let mut out = vec![0u8; packed_len(count, bits).unwrap_or(0)];
    for (i, code) in codes.enumerate().take(count) {
        let at = i * bits as usize;
        let (byte, shift) = (at / 8, (at % 8) as u32);
        // Up to 16 bits: the element's part in its first byte and the rest in the next one.
        let placed = low(code as u32, bits) << shift;
        out[byte] |= placed as u8;
        if shift + bits > 8 {
            out[byte + 1] |= (placed >> 8) as u8;
        }
    }
    out
}

/// The padding bits after `count` elements of `bits` bits in `bytes` (whose length is
/// [`packed_len`]), shifted down: non-zero when a writer left something in them.
pub(crate) fn padding(bytes: &[u8], bits: u32, count: usize) -> u8 {
    let used = (count * bits as usize % 8) as u32;
    match (used, bytes.last()) {
        (0, _) | (_, None) => 0,
        (used, Some(&last)) => last >> used,
    }
}

#[cfg(test)]
mod tests;
