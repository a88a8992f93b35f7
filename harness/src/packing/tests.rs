//! The bit stream against onnx.proto's own formulas, written out per width: for six bits
//! `byte0 = x0 | (x1 & 0x3) << 6; byte1 = x1 >> 2 | (x2 & 0xF) << 4; byte2 = x2 >> 4 | x3 << 2`,
//! for four bits `x0 | x1 << 4`, for two bits `x0 | x1 << 2 | x2 << 4 | x3 << 6`.

use super::*;

/// onnx.proto's six-bit groups, padded with zero codes and cut to ceil(6n/8) bytes.
fn onnx_six(codes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for group in codes.chunks(4) {
        let x = |k: usize| group.get(k).copied().unwrap_or(0);
        out.push(x(0) | (x(1) & 0x3) << 6);
        out.push(x(1) >> 2 | (x(2) & 0xF) << 4);
        out.push(x(2) >> 4 | x(3) << 2);
    }
    out.truncate((codes.len() * 6).div_ceil(8));
    out
}

fn unpacked(bytes: &[u8], bits: u32, count: usize) -> Vec<u8> {
    let mut out = Vec::new();
    unpack(bytes.iter().copied(), bits, count, |c| out.push(c as u8));
    out
}

/// Every 6-bit code in every position of a group, for every length that ends a group
/// differently (1 to 8 elements), both ways.
#[test]
fn six_bits_pack_as_onnx_proto_spells_it() {
    for n in 1..=8usize {
        for code in 0..64u8 {
            for at in 0..n {
                let mut codes: Vec<u8> = (0..n as u8).map(|k| (k * 23 + 5) & 0x3F).collect();
                codes[at] = code;
                let want = onnx_six(&codes);
                let got = pack(codes.iter().map(|&c| u128::from(c)), 6, n);
                assert_eq!(got, want, "{codes:?}");
                assert_eq!(got.len(), packed_len(n, 6).expect("small"));
                assert_eq!(unpacked(&want, 6, n), codes);
                assert_eq!(padding(&want, 6, n), 0);
            }
        }
    }
}

#[test]
fn four_and_two_bits_keep_their_byte_layout() {
    let four = [0x1u8, 0xE, 0x3];
    assert_eq!(pack(four.iter().map(|&c| c.into()), 4, 3), [0xE1, 0x03]);
    assert_eq!(unpacked(&[0xE1, 0x03], 4, 3), four);
    let two = [1u8, 2, 3, 0, 3];
    let byte0 = 1 | 2 << 2 | 3 << 4;
    assert_eq!(pack(two.iter().map(|&c| c.into()), 2, 5), [byte0, 3]);
    assert_eq!(unpacked(&[byte0, 3], 2, 5), two);
}

#[test]
fn codes_wider_than_the_element_are_masked() {
    assert_eq!(pack([0xFFu128, 0x41].into_iter(), 6, 2), [0x7F, 0x00]);
}

#[test]
fn padding_is_the_bits_after_the_last_element() {
    // One six-bit element: bits 6-7 are padding; three: bits 18-23; four: none.
    assert_eq!(padding(&[0x41], 6, 1), 1);
    assert_eq!(padding(&[0x3F], 6, 1), 0);
    assert_eq!(padding(&[0, 0, 0xFC], 6, 3), 0x3F);
    assert_eq!(padding(&[0, 0, 0x03], 6, 3), 0);
    assert_eq!(padding(&[0xFF, 0xFF, 0xFF], 6, 4), 0);
    assert_eq!(padding(&[], 6, 0), 0);
    assert_eq!(padding(&[0xF1], 4, 1), 0xF);
}

#[test]
fn unpack_stops_at_count_and_at_the_end_of_the_bytes() {
    assert_eq!(unpacked(&[0xFF, 0xFF, 0xFF], 6, 2), [0x3F, 0x3F]);
    assert_eq!(unpacked(&[0xFF], 6, 4), [0x3F]);
    assert_eq!(unpacked(&[], 6, 4), Vec::<u8>::new());
}

#[test]
fn only_widths_that_do_not_divide_a_byte_straddle() {
    let straddling: Vec<u32> = (1..=64).filter(|&b| straddles(b)).collect();
    assert_eq!(straddling, [3, 5, 6, 7]);
}
