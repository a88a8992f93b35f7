//! Element types that Rust and `half` lack: float8 (x5), float6 (x2), float4, int4/uint4, int2/uint2, and
//! the two complex types. Each is a transparent newtype over its bits; sub-byte formats hold
//! one element per byte (packing is a storage concern of the reader). Only the bits live here:
//! converting values is the implementation's job.

macro_rules! bits_newtype {
    ($(#[$doc:meta] $name:ident($repr:ty, $mask:literal);)*) => {$(
        #[$doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        #[repr(transparent)]
        pub struct $name($repr);

        impl $name {
            /// The value whose code is `bits`; bits outside the format's width are dropped.
            pub const fn from_bits(bits: u8) -> Self {
                $name((bits & $mask) as $repr)
            }
            /// The format's code, in the low bits.
            pub const fn to_bits(self) -> u8 {
                (self.0 as u8) & $mask
            }
        }
    )*};
}

bits_newtype! {
    /// FLOAT8E4M3FN: 1 sign, 4 exponent, 3 mantissa bits; no infinities, NaN is S.1111.111.
    F8E4M3FN(u8, 0xFF);
    /// FLOAT8E4M3FNUZ: no infinities, no negative zero; 0x80 is the only NaN.
    F8E4M3FNUZ(u8, 0xFF);
    /// FLOAT8E5M2: IEEE-like with infinities and NaNs.
    F8E5M2(u8, 0xFF);
    /// FLOAT8E5M2FNUZ: no infinities, no negative zero; 0x80 is the only NaN.
    F8E5M2FNUZ(u8, 0xFF);
    /// FLOAT8E8M0: an unsigned power of two 2^(code-127); 0xFF is NaN.
    F8E8M0(u8, 0xFF);
    /// FLOAT4E2M1: 1 sign, 2 exponent, 1 mantissa bit; no infinities or NaN. Code in the low nibble.
    F4E2M1(u8, 0x0F);
    /// FLOAT6E2M3: 1 sign, 2 exponent, 3 mantissa bits; no Inf or NaN. Code in the low 6 bits.
    F6E2M3(u8, 0x3F);
    /// FLOAT6E3M2: 1 sign, 3 exponent, 2 mantissa bits; no Inf or NaN. Code in the low 6 bits.
    F6E3M2(u8, 0x3F);
    /// UINT4: 0..=15, in the low nibble.
    U4(u8, 0x0F);
    /// UINT2: 0..=3, in the low two bits.
    U2(u8, 0x03);
}

/// INT4: -8..=7, two's complement in 4 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct I4(i8);

/// INT2: -2..=1, two's complement in 2 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct I2(i8);

impl I4 {
    /// The value whose two's-complement code is the low nibble of `bits`.
    pub const fn from_bits(bits: u8) -> Self {
        I4(((bits << 4) as i8) >> 4)
    }
    /// The two's-complement code, in the low nibble.
    pub const fn to_bits(self) -> u8 {
        (self.0 as u8) & 0x0F
    }
    /// The value as an integer.
    pub const fn get(self) -> i8 {
        self.0
    }
}

impl I2 {
    /// The value whose two's-complement code is the low two bits of `bits`.
    pub const fn from_bits(bits: u8) -> Self {
        I2(((bits << 6) as i8) >> 6)
    }
    /// The two's-complement code, in the low two bits.
    pub const fn to_bits(self) -> u8 {
        (self.0 as u8) & 0x03
    }
    /// The value as an integer.
    pub const fn get(self) -> i8 {
        self.0
    }
}

/// COMPLEX64: a pair of f32.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Complex64 {
    /// Real part.
    pub re: f32,
    /// Imaginary part.
    pub im: f32,
}

/// COMPLEX128: a pair of f64.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Complex128 {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}
