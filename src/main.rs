//! The `arbiter` command.

fn main() -> std::process::ExitCode {
    arbiter::cli::run()
}
