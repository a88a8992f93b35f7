//! Project tasks: `cargo xtask <task>`.

mod report;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("report") {
        report::main(&args[1..]);
    }
    eprintln!("usage: cargo xtask <task>");
    std::process::exit(2);
}
