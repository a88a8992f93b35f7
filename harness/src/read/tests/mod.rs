//! Tests of the reader: TensorProto decoding, whole cases, refused headers, spec vectors and
//! mangled files.

mod bad_tensor;
mod case;
mod mangle;
mod spec_vector;
mod tensor;
