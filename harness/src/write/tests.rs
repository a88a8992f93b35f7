//! Tests of the writer: bytes against the protobuf wire rules, and the encoding variants read back.
