//! Small shell-script bots for the runner's tests.

use std::fs;
use std::path::Path;

use arbiter::harness::runner::BotCommand;

/// Writes a `/bin/sh` script called `name` into `dir` and returns a command running it.
///
/// The script is run as `sh SCRIPT` rather than executed directly: exec'ing a file this
/// process has just written fails now and then with ETXTBSY when another test thread forks
/// while the write descriptor is open.
pub fn script(dir: &Path, name: &str, body: &str) -> BotCommand {
    fs::write(dir.join(name), body).expect("write test script");
    BotCommand::parse_in(&format!("/bin/sh {name}"), dir).expect("parse test command")
}

/// A bot that burns `cpu_ms` of CPU time in a shell loop (roughly: the loop is calibrated by
/// the CPU clock itself, reading /proc/self/stat), then exits.
pub fn burner(dir: &Path, cpu_ms: u64) -> BotCommand {
    // Busy work until this shell's own utime+stime (clock ticks) reaches the target.
    let ticks = cpu_ms / 10;
    script(
        dir,
        "burn.sh",
        &format!(
            "while :; do\n  set -- $(cut -d')' -f2 /proc/$$/stat)\n  t=$(( ${{12}} + ${{13}} + ${{14}} + ${{15}} ))\n  \
             [ $t -ge {ticks} ] && exit 0\n  i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done\ndone\n"
        ),
    )
}
