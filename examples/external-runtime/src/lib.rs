//! A toy runtime standing for yours: it widens FLOAT tensors to DOUBLE (`Cast` with
//! `to = DOUBLE`) and knows no other operator or type.

/// Widens each value: every f32 is exactly an f64.
pub fn widen(values: &[f32]) -> Vec<f64> {
    values.iter().map(|&v| f64::from(v)).collect()
}
