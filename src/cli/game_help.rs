//! `--help` in the words of the game chosen with `--game`: how its bots are run, its built-in
//! bots and its case categories, all asked of the game's referee, so that `arbiter --game pente
//! match --help` never lists Advance's bots or Advance's `<side> <in> <out>`.

use clap::{Arg, Command};

use crate::harness::category::grade_number;
use crate::harness::referee::{Protocol, Referee, Words};

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

/// Whether the game's categories are numbered grades (`grade4`..), the ones the `--grade`
/// options of `expect`, `check`, `generate` and `fuzz` name.
fn categories_are_grades(referee: &dyn Referee) -> bool {
    let categories = referee.categories();
    !categories.is_empty() && categories.iter().all(|c| grade_number(c).is_some())
}

/// The options that only mean something for a game whose categories are grades; hidden from
/// the help of other games.
const GRADE_OPTIONS: &[(&str, &str)] = &[
    ("expect", "grade"),
    ("expect", "agg"),
    ("check", "grade"),
    ("check", "agg"),
    ("generate", "grades"),
    ("fuzz", "grade"),
    ("bot", "grade"),
];

/// `arg` with `text` as its help, short and long.
fn said(arg: Arg, text: String) -> Arg {
    arg.help(text.clone()).long_help(text)
}

/// Every help text of `command` and its subcommands (their about and every option) put into
/// the game's side names ([`Words::with_sides`]).
fn in_sides(mut command: Command, words: &Words) -> Command {
    let ids: Vec<String> = command.get_arguments().map(|a| a.get_id().to_string()).collect();
    for id in ids {
        command = command.mut_arg(id, |a| {
            let short = a.get_help().map(|h| words.with_sides(&h.to_string()));
            let long = a.get_long_help().map(|h| words.with_sides(&h.to_string()));
            let a = match short {
                Some(h) => a.help(h),
                None => a,
            };
            match long {
                Some(h) => a.long_help(h),
                None => a,
            }
        });
    }
    if let Some(about) = command.get_about().map(|h| words.with_sides(&h.to_string())) {
        command = command.about(about);
    }
    if let Some(about) = command.get_long_about().map(|h| words.with_sides(&h.to_string())) {
        command = command.long_about(about);
    }
    let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for name in names {
        command = command.mut_subcommand(name, |c| in_sides(c, words));
    }
    command
}

/// `command` and its subcommands with every positional argument's place written down.
/// `Command::mut_arg` moves the argument it changes to the end of the list, and clap numbers
/// unnumbered positionals in list order, so rewriting the help of `check`'s FILE would
/// otherwise swap it with OUT.
fn pin_positionals(mut command: Command) -> Command {
    let ids: Vec<String> = command
        .get_positionals()
        .filter(|a| a.get_index().is_none())
        .map(|a| a.get_id().to_string())
        .collect();
    let taken: Vec<usize> = command.get_positionals().filter_map(|a| a.get_index()).collect();
    let mut free = (1..).filter(|i| !taken.contains(i));
    for id in ids {
        let index = free.next().unwrap_or(1);
        command = command.mut_arg(id, |a| a.index(index));
    }
    let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for name in names {
        command = command.mut_subcommand(name, pin_positionals);
    }
    command
}

/// `cli` with the help of every game-dependent option rewritten for `referee`: how its bots
/// run, its position files, sides, moves, categories and rule options, and the options it has
/// no use for hidden.
pub fn for_game(cli: Command, referee: &dyn Referee) -> Command {
    let game = referee.game();
    let words = referee.words();
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
    let mut cli = pin_positionals(cli).about(about).long_about(long_about);
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
    // The global options.
    let rules = if words.rule_options.is_empty() {
        format!(
            "A rule option of the game, as KEY=VALUE: {game} has none; its rules page decides every case."
        )
    } else {
        format!("A rule option of the game, as KEY=VALUE (repeatable): {}.", words.rule_options)
    };
    cli = cli.mut_arg("rules", |a| said(a, rules)).mut_arg("engine", |a| a.hide(!words.engines));
    // The position commands: the file, the side to move, what is not well-formed, the move.
    let board = format!("The position file (`-` reads standard input): {}.", words.board_file);
    let side = format!("{}.", words.side_to_move);
    let invalid = if words.invalid_position.is_empty() {
        "Look at the position even if it is not well-formed.".to_string()
    } else {
        format!("Look at the position even if it is not well-formed ({}).", words.invalid_position)
    };
    let [first, second] = words.sides;
    let side_names = format!("{first}|{second}");
    // `--side` takes white|black, or 1|2 where the game's sides are not colours.
    let side_values = if words.sides == ["white", "black"] { side_names.clone() } else { "1|2".to_string() };
    let move_help = if words.move_examples.is_empty() {
        "The move in the game's notation.".to_string()
    } else {
        format!("The move in the game's notation: {}.", words.move_examples)
    };
    for name in ["moves", "apply", "perft", "show", "expect", "check"] {
        let (board, side, invalid, side_values) =
            (board.clone(), side.clone(), invalid.clone(), side_values.clone());
        let move_help = move_help.clone();
        cli = cli.mut_subcommand(name, |c| {
            let c = c
                .mut_arg("board", |a| said(a, board))
                .mut_arg("side", |a| said(a, side).value_name(side_values))
                .mut_arg("allow_invalid", |a| said(a, invalid));
            if c.get_arguments().any(|a| a.get_id() == "mv") {
                c.mut_arg("mv", |a| said(a, move_help))
            } else {
                c
            }
        });
    }
    if !categories_are_grades(referee) {
        // `coverage` counts piece and move kinds by grade.
        cli = cli.mut_subcommand("coverage", |c| c.hide(true));
        for (name, id) in GRADE_OPTIONS {
            cli = cli.mut_subcommand(name, |c| {
                if c.get_arguments().any(|a| a.get_id() == *id) {
                    c.mut_arg(*id, |a| a.hide(true))
                } else {
                    c
                }
            });
        }
    }
    for name in ["verify", "match", "grade"] {
        cli = cli.mut_subcommand(name, |c| match referee.calibration() {
            None => c.mut_arg("calibrate", |a| a.hide(true)),
            Some(calibration) => c.mut_arg("calibrate", |a| {
                let text = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                let text =
                    text.replace("the file it leaves", &format!("the file it leaves ({})", calibration.file));
                said(a, text)
            }),
        });
    }
    if referee.cases().is_none() {
        // Golden answers and generated cases are a case game's.
        cli = cli.mut_subcommand("generate", |c| c.hide(true)).mut_subcommand("golden", |c| c.hide(true));
    }
    if !words.engines {
        cli = cli.mut_subcommand("fuzz", |c| c.mut_arg("engines", |a| a.hide(true)));
    }
    // The marking profiles the game ships, by name.
    let profiles: Vec<String> = referee
        .marking_profiles()
        .iter()
        .filter_map(|json| {
            serde_json::from_str::<serde_json::Value>(json).ok()?.get("name")?.as_str().map(str::to_string)
        })
        .map(|name| format!("`{name}`"))
        .collect();
    let profile = format!(
        "The marking profile: a JSON file, or the name of one {game} ships: {} (the first is the default). See docs/PROFILES.md.",
        profiles.join(", ")
    );
    for name in ["verify", "grade"] {
        let profile = profile.clone();
        cli = cli.mut_subcommand(name, |c| c.mut_arg("profile", |a| said(a, profile)));
    }
    let hidden = format!(
        "Hide the cases of this category (one of {categories}) from students: their tests in results.json get \
         Gradescope's `\"visibility\": \"hidden\"` and hold the verdict only (no board, move, expected answer or \
         reproduce line), as do their JUnit tests. Their score still counts. Repeatable."
    );
    for name in ["verify", "grade"] {
        let hidden = hidden.clone();
        cli = cli.mut_subcommand(name, |c| c.mut_arg("hidden", |a| said(a, hidden)));
    }
    let bot_args = match referee.protocol() {
        Protocol::SideInOut => "`white IN OUT`, `black IN OUT`, or `name`".to_string(),
        Protocol::FixedFiles { input, output, .. } => {
            format!("None: the bot reads {input} and writes {output} in the folder it is run in")
        }
        Protocol::Hosted(_) => {
            "None: the bot speaks the host protocol on its standard input and output (docs/PROTOCOL.md)"
                .to_string()
        }
    };
    cli = cli.mut_subcommand("bot", |c| {
        let c = c.mut_arg("rest", |a| said(a, bot_args));
        match builtins(referee) {
            Some(names) => c.mut_arg("builtin", |a| said(a, format!("The built-in bot: {names}."))),
            None => c,
        }
    });
    let corpus = if categories.is_empty() {
        format!("The corpus folder: {game} has no test cases (grade it by games, with `match` or `grade`).")
    } else {
        format!("The corpus folder: CATEGORY/{side_names}/NAME.txt, the categories being {categories}.")
    };
    let cli = cli
        .mut_subcommand("verify", |c| {
            let c = c.mut_arg("bot", |a| said(a, bot.clone()));
            // A game graded by numbered grades keeps the hand-written text, which also names the
            // course's own `4..7/white|black/tests/N.txt` layout.
            if categories_are_grades(referee) { c } else { c.mut_arg("corpus", |a| said(a, corpus)) }
        })
        .mut_subcommand("fuzz", |c| {
            c.mut_arg("bot", |a| said(a, format!("The bot to fuzz: {run}{builtin}.")))
        })
        .mut_subcommand("match", |c| {
            c.mut_arg("bots", |a| {
                said(
                    a,
                    format!(
                        "The two bots, A then B, each {run}{builtin}. {} moves first; see --colours.",
                        capital(first)
                    ),
                )
            })
        })
        .mut_subcommand("tournament", |c| {
            c.mut_arg("bots", |a| said(a, format!("The players, at least two, each {run}{builtin}.")))
        })
        .mut_subcommand("grade", |c| {
            c.mut_arg("submissions", |a| {
                said(
                    a,
                    format!("The submissions: folders (each one student's; its bot is {run}), or commands."),
                )
            })
        })
        .mut_subcommand("check", |c| {
            c.mut_arg("category", |a| {
                said(
                    a,
                    format!(
                        "The case's category, one of {categories}; the move must be in its expected set."
                    ),
                )
            })
        });
    in_sides(cli, &words)
}

/// `word` with a capital first letter.
fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
