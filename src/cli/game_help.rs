//! `--help` in the words of the game chosen with `--game`: how its bots are run, its built-in
//! bots and its case categories, all asked of the game's referee, so that `arbiter --game pente
//! match --help` never lists Advance's bots or Advance's `<side> <in> <out>`.

use clap::Command;

use crate::harness::referee::{Protocol, Referee};

/// The game named on the command line (`--game X` or `--game=X`), if any.
pub fn game_named(args: &[std::ffi::OsString]) -> Option<String> {
    let mut words = args.iter().filter_map(|a| a.to_str());
    while let Some(word) = words.next() {
        if word == "--" {
            return None;
        }
        if word == "--game" {
            return words.next().map(str::to_string);
        }
        if let Some(value) = word.strip_prefix("--game=") {
            return Some(value.to_string());
        }
    }
    None
}

/// How the game's bots are run, as a phrase: "a command run as ...".
pub fn how_bots_run(referee: &dyn Referee) -> String {
    match referee.protocol() {
        Protocol::SideInOut => "a command, run as `COMMAND ARGS... white|black IN OUT`".to_string(),
        Protocol::FixedFiles { input, output, persist } => {
            let kept = if persist.is_empty() {
                String::new()
            } else {
                format!(", keeping {} between its turns of a game", persist.join(", "))
            };
            format!(
                "a command, run without arguments in a folder of its own where it reads {input} and writes {output}{kept}"
            )
        }
        Protocol::Hosted(_) => {
            "a folder with the source of the class or module to host (arbiter compiles and \
             drives it by calls), or a command that speaks the host protocol (docs/PROTOCOL.md)"
                .to_string()
        }
    }
}

/// The game's built-in bots as `builtin:a|b|c`, or None.
pub fn builtins(referee: &dyn Referee) -> Option<String> {
    let names = referee.builtins()?.builtin_names();
    (!names.is_empty()).then(|| format!("builtin:{}", names.join("|")))
}

/// `cli` with the help of every game-dependent option rewritten for `referee`.
pub fn for_game(cli: Command, referee: &dyn Referee) -> Command {
    let game = referee.game();
    let run = how_bots_run(referee);
    let builtin = builtins(referee).map(|b| format!(", or {b}")).unwrap_or_default();
    let categories = referee.categories().join(", ");
    let bot = format!("The bot: {run}{builtin}.");
    let about = format!(
        "Says with certainty which answers are right for a {game} bot, and checks real bots against them."
    );
    let long_about = format!(
        "{about}\n\nExit status: 0 on success, 1 when the answer is \"no\" (an illegal move, a failing bot), \
         2 when the input is invalid (a malformed position file, a bad argument)."
    );
    let mut cli = cli.about(about).long_about(long_about);
    // `--timeout`'s default is the game's own move time (clap shows it in every command's help).
    let seconds = referee.move_seconds();
    if seconds != 10.0 {
        let with_timeout: Vec<String> = cli
            .get_subcommands()
            .filter(|c| c.get_arguments().any(|a| a.get_id() == "timeout"))
            .map(|c| c.get_name().to_string())
            .collect();
        for name in with_timeout {
            let default = seconds.to_string();
            cli = cli.mut_subcommand(name, |c| c.mut_arg("timeout", |a| a.default_value(default)));
        }
    }
    cli.mut_subcommand("verify", |c| {
        c.mut_arg("bot", |a| a.help(bot.clone())).mut_arg("corpus", |a| {
            a.help(format!(
                "The corpus folder: CATEGORY/white|black/NAME.txt, the categories being {categories}."
            ))
        })
    })
    .mut_subcommand("fuzz", |c| c.mut_arg("bot", |a| a.help(format!("The bot to fuzz: {run}{builtin}."))))
    .mut_subcommand("match", |c| {
        c.mut_arg("bots", |a| {
            a.help(format!("The two bots, A then B, each {run}{builtin}. White moves first; see --colours."))
        })
    })
    .mut_subcommand("tournament", |c| {
        c.mut_arg("bots", |a| a.help(format!("The players, at least two, each {run}{builtin}.")))
    })
    .mut_subcommand("grade", |c| {
        c.mut_arg("submissions", |a| {
            a.help(format!("The submissions: folders (each one student's; its bot is {run}), or commands."))
        })
    })
    .mut_subcommand("check", |c| {
        c.mut_arg("category", |a| {
            a.help(format!("The case's category, one of {categories}; the move must be in its expected set."))
        })
    })
}
