//! The `arbiter` command.

fn main() -> std::process::ExitCode {
    // arbiter re-executes itself once as the sandbox's zygote, which starts every bot's run;
    // it has no command line.
    if std::env::args_os().nth(1).is_some_and(|a| a == arbiter::harness::sandbox::HELPER_ARG) {
        arbiter::harness::sandbox::helper_main();
    }
    let code = arbiter::cli::run();
    arbiter::harness::sandbox::release();
    arbiter::harness::host::java::release();
    code
}
