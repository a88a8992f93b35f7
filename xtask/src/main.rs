//! Project tasks: `cargo xtask <task>`.

mod bench_compare;
mod own_cases;

use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let result = match args.first().map(String::as_str) {
        Some("own-cases") => own_cases::write(&root.join("tests/cases"))
            .map(|n| eprintln!("wrote {n} files under tests/cases")),
        Some("bench-compare") => bench_compare::run(&root, &args[1..]),
        _ => Err("usage: cargo xtask own-cases".into()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
