//! The `arbiter` command.

fn main() -> std::process::ExitCode {
    // arbiter re-executes itself to set up each bot's sandbox; that helper has no command line.
    if std::env::args_os().nth(1).is_some_and(|a| a == arbiter::harness::sandbox::HELPER_ARG) {
        arbiter::harness::sandbox::helper_main();
    }
    arbiter::cli::run()
}
