//! An interactive bot in the sandbox without namespaces (`ARBITER_SANDBOX_NO_NAMESPACES=1`, the
//! Gradescope/Docker case): a file of its own, as the variable is read from this process's
//! environment and no other test may run beside it.

use std::time::{Duration, Instant};

use arbiter::harness::runner::{BotCommand, Interactive, Limits, Recv};
use arbiter::harness::sandbox::Mode;

#[test]
fn an_interactive_bot_runs_without_namespaces() {
    // SAFETY: the only test of this binary sets the variable before any thread reads the
    // environment.
    unsafe { std::env::set_var("ARBITER_SANDBOX_NO_NAMESPACES", "1") };
    let dir =
        tempfile::Builder::new().prefix("interactive-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let open = |p: &std::path::Path| {
        std::fs::set_permissions(p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap()
    };
    open(dir.path());
    let bot = dir.path().join("bot");
    std::fs::create_dir(&bot).unwrap();
    open(&bot);
    let script = bot.join("echo.sh");
    std::fs::write(&script, "#!/bin/sh\nwhile read l; do echo \"ok $l\"; done\n").unwrap();
    open(&script);
    let case = dir.path().join("case");
    std::fs::create_dir(&case).unwrap();
    open(&case);
    let command = BotCommand::parse_in(&script.display().to_string(), dir.path()).unwrap();
    let mut limits = Limits::default();
    limits.sandbox.mode = Mode::Auto;
    limits.sandbox.helper = Some(env!("CARGO_BIN_EXE_arbiter").into());
    let mut session = Interactive::spawn(&command, &[], &case, &limits).unwrap();
    for n in 0..10 {
        session.send(format!("{n}\n").as_bytes()).unwrap();
        assert_eq!(
            session.recv_line(Instant::now() + Duration::from_secs(5)),
            Recv::Line(format!("ok {n}").into_bytes())
        );
    }
    let report = session.finish();
    let missing: Vec<String> = report
        .events
        .iter()
        .filter_map(|e| match e {
            arbiter::harness::sandbox::Event::Missing { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    assert!(missing.contains(&"namespaces".to_string()), "{:?}", report.events);
    assert!(report.cpu_time.is_some());
}
