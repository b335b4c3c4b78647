//! The game as the position commands see it (`moves`, `apply`, `perft`, `show`, `expect`).
//! The command line reads the board file and the options; the game reads the position, computes,
//! and writes what the user sees. A game plugs into these commands by implementing [`Analyst`].

use crate::side::Side;

/// A position named on the command line: the board file's bytes and what the user said about it.
#[derive(Clone, Copy, Debug)]
pub struct PositionInput<'a> {
    /// The file's bytes.
    pub bytes: &'a [u8],
    /// The file's name (or `<stdin>`), for errors.
    pub origin: &'a str,
    /// The side to move, when given. Games whose files name the side to move (Pente) check that
    /// it agrees; games whose files do not (Advance) require it.
    pub side: Option<Side>,
    /// Look at the position even if it is not well-formed.
    pub allow_invalid: bool,
}

/// One legal move and the board file after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move in the game's notation.
    pub notation: String,
    /// The board file after the move, as the bot would write it.
    pub board: String,
}

impl MoveLine {
    /// A line for each of `moves`: its notation and the board file `after` it.
    pub fn each<M: ToString>(
        moves: impl IntoIterator<Item = M>,
        after: impl Fn(&M) -> String,
    ) -> Vec<MoveLine> {
        moves.into_iter().map(|m| MoveLine { notation: m.to_string(), board: after(&m) }).collect()
    }
}

/// What `expect` asks of a position.
#[derive(Clone, Debug, Default)]
pub struct ExpectRequest {
    /// Only this category's expected set (`grade6`, `block`).
    pub category: Option<String>,
    /// Explain this move in full.
    pub why: Option<String>,
    /// A game's named way of resolving an interpretation (Advance's grade-7 aggregation:
    /// `min`, `max`, `mean`).
    pub aggregation: Option<String>,
    /// One JSON object instead of text.
    pub json: bool,
}

/// A game's answers about one position, for the position commands. Errors (`anyhow`) name the
/// file and what is wrong; they end the command with exit status 2.
pub trait Analyst {
    /// The side to move: as given, or as the file says (checked against what was given). By
    /// default the side [`Analyst::moves`] gives.
    fn side_to_move(&self, position: &PositionInput) -> anyhow::Result<Side> {
        Ok(self.moves(position)?.0)
    }

    /// The side to move and every legal move with the board after it.
    fn moves(&self, position: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)>;

    /// The board file after `mv`, or (inner `Err`) why `mv` is not a legal move.
    fn apply(&self, position: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>>;

    /// Who has won once the legal move `mv` is played, in the game's words (`white wins`), if
    /// the game is then over; `None` where the game does not say or play goes on.
    fn winner_after(&self, _position: &PositionInput, _mv: &str) -> anyhow::Result<Option<String>> {
        Ok(None)
    }

    /// The deepest perft the game allows on the command line (the count grows as the number of
    /// moves to that power).
    fn max_perft_depth(&self) -> u32;

    /// The number of move sequences of `depth` plies: by default the sum of
    /// [`Analyst::perft_divide`]'s counts (1 for depth 0), for a game with no faster count.
    fn perft(&self, position: &PositionInput, depth: u32) -> anyhow::Result<u64> {
        if depth == 0 {
            return Ok(1);
        }
        Ok(self.perft_divide(position, depth)?.iter().map(|(_, n)| n).sum())
    }

    /// The number of move sequences of `depth` plies (at least 1) under each first move.
    fn perft_divide(&self, position: &PositionInput, depth: u32) -> anyhow::Result<Vec<(String, u64)>>;

    /// The board drawn with labels and what a player wants to know about it.
    fn show(&self, position: &PositionInput) -> anyhow::Result<String>;

    /// The expected answer of every category (or of one), explained; text or JSON as asked.
    fn expect(&self, position: &PositionInput, request: &ExpectRequest) -> anyhow::Result<String>;
}

/// Refuses a `--side` that disagrees with the side to move the file names.
pub fn check_side(input: &PositionInput, file_side: Side) -> anyhow::Result<()> {
    match input.side {
        Some(side) if side != file_side => {
            anyhow::bail!("{}: the file gives {file_side} to move, but --side says {side}", input.origin)
        }
        _ => Ok(()),
    }
}

/// Refuses a position no game can reach (`problems`, each a sentence fragment), unless the
/// user asked to look at it anyway.
pub fn check_reachable(input: &PositionInput, problems: &[String]) -> anyhow::Result<()> {
    if input.allow_invalid || problems.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "{}: not a position a game can reach: {}\n(use --allow-invalid to look at it anyway)",
        input.origin,
        problems.join("; ")
    )
}

/// The category `expect` was asked to show alone, read by the game's category type. `game`
/// names the game in the refusal of an aggregation it has no use for.
pub fn only_category<C>(request: &ExpectRequest, game: &str) -> anyhow::Result<Option<C>>
where
    C: std::str::FromStr<Err = String>,
{
    if request.aggregation.is_some() {
        anyhow::bail!("--agg is Advance's grade-7 option; {game} has no such choice");
    }
    request.category.as_deref().map(str::parse).transpose().map_err(anyhow::Error::msg)
}

/// `expect --json`'s `sets`: each category's name and its expected moves in notation.
pub fn category_sets<C: Copy>(
    categories: impl IntoIterator<Item = C>,
    name: impl Fn(C) -> &'static str,
    expected: impl Fn(C) -> Vec<String>,
) -> serde_json::Map<String, serde_json::Value> {
    categories.into_iter().map(|c| (name(c).to_string(), serde_json::json!(expected(c)))).collect()
}

/// The moves in their notation, for JSON.
pub fn notations<M: std::fmt::Display>(moves: &[M]) -> Vec<String> {
    moves.iter().map(M::to_string).collect()
}

/// `n` and `word`, with an `s` unless `n` is 1: "1 chip", "3 legal moves".
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// How `expect` shows a category's expected set after its name: "does not apply" where it is
/// empty, the count ("12 moves") where any move of a large set is right (`any_move`: the legal
/// moves, an opening rule's points), else the moves as `list` writes them.
pub fn shown_set<M>(set: &[M], any_move: bool, list: impl Fn(&[M]) -> String) -> String {
    if set.is_empty() {
        "does not apply".to_string()
    } else if any_move {
        plural(set.len(), "move")
    } else {
        list(set)
    }
}

/// `expect`'s note under the block category of a lost position (see
/// [`Threats`](crate::harness::referee::threats::Threats)).
pub const LOST_NOTE: &str = "no move stops every threat: the game is lost, so any legal move is right";

/// `expect`'s lines under the block category when the opponent `who` threatens a win: "  who
/// threatens to win `how` MOVES", then [`LOST_NOTE`] when no move stops it. Nothing when
/// nothing is threatened.
pub fn write_threats<M: Clone>(
    out: &mut String,
    who: impl std::fmt::Display,
    how: &str,
    threats: &crate::harness::referee::threats::Threats<M>,
    list: impl Fn(&[M]) -> String,
) {
    use std::fmt::Write as _;
    if threats.moves.is_empty() {
        return;
    }
    let _ = writeln!(out, "  {who} threatens to win {how} {}", list(&threats.moves));
    if threats.lost() {
        let _ = writeln!(out, "  {LOST_NOTE}");
    }
}
