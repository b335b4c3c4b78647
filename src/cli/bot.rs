//! `arbiter bot`: a built-in bot with the assignment's command-line interface, to play against
//! anything: `arbiter bot --grade 7 white IN OUT`, or `arbiter bot --grade 7 name`.

use super::{CommandResult, Outcome};
use crate::harness::files;
use crate::side::Side;

#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false, id = "which")]
pub struct Which {
    /// Which graded bot: 4 (a random legal move), 5, 6 or 7 (uniform over that grade's expected
    /// set).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7))]
    grade: Option<u8>,

    /// Any built-in bot by name (`random`, ...; `match --help` lists the game's).
    #[arg(long, value_name = "NAME")]
    builtin: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    which: Which,

    /// Seed for the random choice among equally good moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// `white IN OUT`, `black IN OUT`, or `name`.
    #[arg(value_name = "ARGS", num_args = 0.., allow_hyphen_values = true)]
    rest: Vec<String>,
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    let name = match (&args.which.builtin, args.which.grade) {
        (Some(name), _) => name.clone(),
        (None, Some(4)) => "random".to_string(),
        (None, grade) => format!("grade{}", grade.unwrap_or(7)),
    };
    let bot = referee.require_builtin(&name).map_err(anyhow::Error::msg)?;
    let usage =
        "usage: arbiter bot --grade N white|black IN OUT, or arbiter bot --grade N name (or --builtin NAME)";
    match args.rest.as_slice() {
        // A game whose bots find their files by name (Pente): input.txt to output.txt.
        [] if referee.protocol() != crate::harness::referee::Protocol::SideInOut => {
            let bytes = files::read_capped("input.txt".as_ref(), files::BOARD)?;
            let answer = bot.play(&bytes, "input.txt", Side::White, args.seed).map_err(anyhow::Error::msg)?;
            std::fs::write("output.txt", answer)
                .map_err(|e| anyhow::anyhow!("cannot write output.txt: {e}"))?;
            Ok(Outcome::Success)
        }
        [word] if word == "name" => {
            println!("{}", bot.name());
            Ok(Outcome::Success)
        }
        [side, input, output] => {
            let side: Side = side.parse().map_err(|e| anyhow::anyhow!("{e}\n{usage}"))?;
            let bytes = files::read_capped(input.as_ref(), files::BOARD)?;
            let board = bot.play(&bytes, input, side, args.seed).map_err(anyhow::Error::msg)?;
            std::fs::write(output, board).map_err(|e| anyhow::anyhow!("cannot write {output}: {e}"))?;
            Ok(Outcome::Success)
        }
        [first, ..] if first == "name" => anyhow::bail!("`name` takes no other arguments\n{usage}"),
        [first, ..] if first != "white" && first != "black" => {
            anyhow::bail!("the first argument must be white, black or name, not `{first}`\n{usage}")
        }
        _ => anyhow::bail!(
            "expected 3 arguments (side, input file, output file), got {}\n{usage}",
            args.rest.len()
        ),
    }
}
