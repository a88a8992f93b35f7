//! The sha256 of `onnx.proto`'s messages (`schema::PROTO_SHA256`), which the deep tree's
//! fingerprint records: every case file is encoded with them.

fn main() {
    source_hash::emit(&["src/proto.rs"], &[]);
}
