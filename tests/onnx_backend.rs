//! The conformance suite: one libtest-mimic trial per official ONNX backend case instance.

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    libtest_mimic::run(&args, Vec::new()).exit();
}
