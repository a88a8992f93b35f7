//! Every f16 and every bf16 value encoded into every target, against the reference.

use super::reference::{self, f32_bits_exact, ieee_val, Val};
use super::{bf16, f16};
use super::{rules, targets, Bits, Checked, Failures, FloatFormat, RoundMode, F8E8M0};
use crate::dtype::DataType;
use crate::formats::sweeps::ENCODE_EVERY_VALUE;

/// Checks all 65536 codes of `source`, of kernel type `S` (decoded by the reference with
/// `ebits`/`mbits`/`bias`); returns the pairs checked.
fn sweep<S: Bits>(source: DataType, ebits: u32, mbits: u32, bias: i32) -> Checked {
    let name = source.name();
    let targets = targets();
    let mut checked = Checked::default();
    for t in &targets {
        checked.add(source, t.dtype);
    }
    checked.add(source, DataType::Float);
    checked.add(source, DataType::Float8E8M0);
    let mut f = Failures::default();
    for bits in 0..=u64::from(u16::MAX) {
        let v = ieee_val(bits, ebits, mbits, bias);
        let x = S::of(bits);
        for from24 in [false, true] {
            for saturate in [false, true] {
                let r = rules(saturate, from24);
                let exact = x.to_exact(&r);
                for t in &targets {
                    let got = (t.kernel)(&exact, &r) as u32;
                    let want = if t.dtype == DataType::Bfloat16 && !from24 {
                        // Cast <= 23: the top half of the f32 bits (exact here).
                        f32_bits_exact(v) >> 16
                    } else {
                        t.reference.encode(v, saturate, from24)
                    };
                    f.check(got == want, || {
                        format!("{name} {bits:#06x} -> {} sat={saturate} gen24={from24}: got {got:#x}, want {want:#x}", t.dtype)
                    });
                }
                let got32 = f32::from_exact(&exact, &r).to_bits();
                let want32 = f32_bits_exact(v);
                f.check(got32 == want32, || {
                    format!("{name} {bits:#06x} -> FLOAT: got {got32:#x}, want {want32:#x}")
                });
            }
        }
        check_e8m0(name, bits, x, v, &mut f);
    }
    f.assert_none(name);
    checked
}

/// E8M0 in every round mode, saturating or not.
pub(super) fn check_e8m0<S: Bits>(name: &str, bits: u64, x: S, v: Val, f: &mut Failures) {
    for (mode, up, down) in [
        (RoundMode::Up, true, false),
        (RoundMode::Down, false, true),
        (RoundMode::Nearest, false, false),
    ] {
        for saturate in [false, true] {
            let mut r = rules(saturate, true);
            r.round_mode = mode;
            let got = F8E8M0::from_exact(&x.to_exact(&r), &r).bits() as u32;
            let want = reference::e8m0_encode(v, up, down, saturate);
            f.check(got == want, || {
                format!("{name} {bits:#06x} -> FLOAT8E8M0 {mode:?} sat={saturate}: got {got:#x}, want {want:#x}")
            });
        }
    }
}

/// The value sweep of one listed source type.
fn sweep_source(source: DataType) -> Checked {
    match source {
        DataType::Float16 => sweep::<f16>(source, 5, 10, 15),
        DataType::Bfloat16 => sweep::<bf16>(source, 8, 7, 127),
        other => panic!("no value sweep for listed source {other}"),
    }
}

/// Every f16 and every bf16 value (the sources of the shared list).
#[test]
fn encode_every_value_of_every_listed_source() {
    let mut checked = Checked::default();
    for &source in ENCODE_EVERY_VALUE.sources {
        checked.extend(sweep_source(source));
    }
    checked.assert_is(&ENCODE_EVERY_VALUE);
}
