//! Project tasks: `cargo xtask <task>`.

mod own_cases;
mod report;

use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let result = match args.first().map(String::as_str) {
        Some("own-cases") => own_cases::write(&root.join("tests/cases"))
            .map(|n| eprintln!("wrote {n} files under tests/cases")),
        Some("report") => report::main(&args[1..]),
        _ => Err("usage: cargo xtask own-cases | report [report.json]".into()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
