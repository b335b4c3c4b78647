//! The expected answer of every required function of the assignment's Section 4 (4.3-4.5),
//! given its arguments: the value it returns and, for the functions that print
//! (`print_board`, `check_game_over`), the exact text.

use super::board::{Board, Move, Pos, parse_move, parse_square};
use super::extras;
use super::pyvalue::Py;
use super::rules::{self, Status};
use super::texts::Texts;

/// The functions the oracle answers, in the assignment's order, with their group (the case
/// category).
pub const FUNCTIONS: &[(&str, &str)] = &[
    ("initial_state", "interaction"),
    ("print_board", "interaction"),
    ("square_to_position", "interaction"),
    ("process_move", "interaction"),
    ("change_position", "interaction"),
    ("clear_position", "interaction"),
    ("update_board", "interaction"),
    ("is_current_players_piece", "validation"),
    ("is_move_valid", "validation"),
    ("can_move", "end"),
    ("is_stalemate", "end"),
    ("check_game_over", "end"),
];

/// CSSE7030's functions (Section 4.6), graded with `--rule extras=on`; their cases are the
/// `extras` category.
pub const EXTRA_FUNCTIONS: &[&str] = &[
    "attempt_promotion",
    "is_valid_castle_attempt",
    "perform_castling",
    "is_valid_en_passant",
    "perform_en_passant",
    "update_castling_info",
    "update_en_passant_position",
];

/// The group a function belongs to.
pub fn group_of(function: &str) -> Option<&'static str> {
    if EXTRA_FUNCTIONS.contains(&function) {
        return Some("extras");
    }
    FUNCTIONS.iter().find(|(f, _)| *f == function).map(|(_, g)| *g)
}

/// What a call must give.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// The return value.
    pub value: Py,
    /// The exact printed text, for a function that prints; `None` when what it prints is not
    /// judged.
    pub printed: Option<String>,
    /// Why, in words a student can check by hand.
    pub why: String,
}

fn arg<'a>(args: &'a [Py], i: usize, function: &str) -> Result<&'a Py, String> {
    args.get(i).ok_or_else(|| format!("{function} takes more arguments than given"))
}

fn board_arg(args: &[Py], i: usize, function: &str) -> Result<Board, String> {
    arg(args, i, function)?.as_board().ok_or_else(|| format!("{function}: argument {} is not a board", i + 1))
}

fn bool_arg(args: &[Py], i: usize, function: &str) -> Result<bool, String> {
    match arg(args, i, function)? {
        Py::Bool(b) => Ok(*b),
        _ => Err(format!("{function}: argument {} is not True or False", i + 1)),
    }
}

fn player(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

/// The expected answer of `function(*args)` under CSSE1001's rules; `Err` when the call is not
/// one the assignment defines (an unknown function, arguments of the wrong kind, or arguments
/// outside what the function may assume, such as `process_move` of a malformed move).
pub fn expect(function: &str, args: &[Py], texts: &Texts) -> Result<Expected, String> {
    expect_with(function, args, &[], texts, None)
}

/// The expected answer of `function(*args)` with `inputs` typed on its standard input (only
/// `attempt_promotion` reads any); with `extras` (the squares castling needs safe), CSSE7030's
/// functions too.
pub fn expect_with(
    function: &str,
    args: &[Py],
    inputs: &[String],
    texts: &Texts,
    extras: Option<extras::CastleSafety>,
) -> Result<Expected, String> {
    if EXTRA_FUNCTIONS.contains(&function) {
        let Some(safety) = extras else {
            return Err(format!(
                "{function} is CSSE7030's (Section 4.6): grade its cases with --rule extras=on"
            ));
        };
        return expect_extra(function, args, inputs, texts, safety);
    }
    if !inputs.is_empty() {
        return Err(format!("{function} reads no input"));
    }
    let arity = match function {
        "initial_state" => 0,
        "print_board" | "square_to_position" | "process_move" => 1,
        "clear_position"
        | "update_board"
        | "is_current_players_piece"
        | "can_move"
        | "is_stalemate"
        | "check_game_over" => 2,
        "change_position" | "is_move_valid" => 3,
        other => return Err(format!("`{other}` is not a function the assignment asks for")),
    };
    if args.len() != arity {
        return Err(format!("{function} takes {arity} argument(s), the case gives {}", args.len()));
    }
    let plain = |value: Py, why: String| Ok(Expected { value, printed: None, why });
    match function {
        "initial_state" => plain(Py::board(&Board::initial()), "the board of a new game".to_string()),
        "print_board" => {
            let board = board_arg(args, 0, function)?;
            Ok(Expected {
                value: Py::None,
                printed: Some(texts.board(&board)),
                why: "each row, two spaces and its number, then an empty line and the letters".to_string(),
            })
        }
        "square_to_position" => {
            let Py::Str(square) = &args[0] else { return Err("square_to_position takes a string".into()) };
            let pos = parse_square(square).ok_or_else(|| format!("`{square}` is not a square"))?;
            plain(
                Py::pos(pos),
                format!("{square} is row {} (8 minus its number) and column {}", pos.row, pos.col),
            )
        }
        "process_move" => {
            let Py::Str(text) = &args[0] else { return Err("process_move takes a string".into()) };
            let mv = parse_move(text).ok_or_else(|| format!("`{text}` is not a move in valid form"))?;
            plain(Py::mv(mv), format!("`{text}` is the move from {} to {}", mv.0, mv.1))
        }
        "change_position" | "clear_position" => {
            let board = board_arg(args, 0, function)?;
            let pos = args[1].as_pos().filter(|p| p.on_board()).ok_or("the position is not on the board")?;
            let ch = if function == "clear_position" {
                b'.'
            } else {
                match &args[2] {
                    Py::Str(s) if s.len() == 1 => s.as_bytes()[0],
                    _ => return Err("change_position takes one character".into()),
                }
            };
            plain(
                Py::board(&board.with(pos, ch)),
                format!("a copy of the board with `{}` at {pos}", ch as char),
            )
        }
        "update_board" => {
            let board = board_arg(args, 0, function)?;
            let mv = args[1]
                .as_move()
                .filter(|m| m.0.on_board() && m.1.on_board())
                .ok_or("not a move on the board")?;
            plain(
                Py::board(&board.moved(mv)),
                format!("the piece at {} moved to {}, its square left empty", mv.0, mv.1),
            )
        }
        "is_current_players_piece" => {
            let Py::Str(piece) = &args[0] else {
                return Err("is_current_players_piece takes a string".into());
            };
            let white = bool_arg(args, 1, function)?;
            let yes = piece.len() == 1 && super::board::belongs_to(piece.as_bytes()[0], white);
            plain(
                Py::Bool(yes),
                format!("`{piece}` is {}one of {}'s pieces", if yes { "" } else { "not " }, player(white)),
            )
        }
        "is_move_valid" => {
            let mv = args[0].as_move().ok_or("is_move_valid's first argument is not a move")?;
            let board = board_arg(args, 1, function)?;
            let white = bool_arg(args, 2, function)?;
            let verdict = rules::check_move(&board, mv, white);
            let name = |p: super::board::Pos| p.square().unwrap_or_else(|| p.to_string());
            let why = match verdict {
                Ok(()) => format!("{} to {} is valid for {}", name(mv.0), name(mv.1), player(white)),
                Err(rule) => format!("{} to {} is not valid: {}", name(mv.0), name(mv.1), rule.sentence()),
            };
            plain(Py::Bool(verdict.is_ok()), why)
        }
        "can_move" | "is_stalemate" | "check_game_over" => {
            let board = board_arg(args, 0, function)?;
            let white = bool_arg(args, 1, function)?;
            let status = rules::status(&board, white);
            let first = rules::legal_moves(&board, white).first().map(|&(f, t)| {
                format!("{} {}", f.square().unwrap_or_default(), t.square().unwrap_or_default())
            });
            let state = match status {
                Status::Normal => {
                    format!("{} is not in check and can move ({})", player(white), first.unwrap_or_default())
                }
                Status::Check => {
                    format!("{} is in check and can move ({})", player(white), first.unwrap_or_default())
                }
                Status::Checkmate => format!("{} is checkmated", player(white)),
                Status::Stalemate => {
                    format!("{} is not in check and has no valid move: stalemate", player(white))
                }
            };
            match function {
                "can_move" => plain(Py::Bool(matches!(status, Status::Normal | Status::Check)), state),
                "is_stalemate" => plain(Py::Bool(status == Status::Stalemate), state),
                _ => {
                    let (over, printed) = match status {
                        Status::Normal => (false, String::new()),
                        Status::Check => (false, texts.check(white)),
                        Status::Checkmate => (true, texts.checkmate.clone()),
                        Status::Stalemate => (true, texts.stalemate.clone()),
                    };
                    Ok(Expected { value: Py::Bool(over), printed: Some(printed), why: state })
                }
            }
        }
        _ => unreachable!("the arity match lists every function"),
    }
}

fn castling_arg(args: &[Py], i: usize, function: &str) -> Result<extras::CastlingInfo, String> {
    match arg(args, i, function)? {
        Py::Tuple(v) => match v.as_slice() {
            [Py::Bool(a), Py::Bool(b), Py::Bool(c)] => Ok((*a, *b, *c)),
            _ => Err(format!("{function}: castling_info is not a tuple of three booleans")),
        },
        _ => Err(format!("{function}: castling_info is not a tuple of three booleans")),
    }
}

fn move_arg(args: &[Py], i: usize, function: &str) -> Result<Move, String> {
    arg(args, i, function)?
        .as_move()
        .filter(|m| m.0.on_board() && m.1.on_board())
        .ok_or_else(|| format!("{function}: argument {} is not a move on the board", i + 1))
}

fn info(t: extras::CastlingInfo) -> Py {
    Py::Tuple(vec![Py::Bool(t.0), Py::Bool(t.1), Py::Bool(t.2)])
}

fn sq(p: Pos) -> String {
    p.square().unwrap_or_else(|| p.to_string())
}

/// CSSE7030's functions (Section 4.6).
fn expect_extra(
    function: &str,
    args: &[Py],
    inputs: &[String],
    texts: &Texts,
    safety: extras::CastleSafety,
) -> Result<Expected, String> {
    let arity = match function {
        "attempt_promotion" | "perform_castling" => 2,
        "perform_en_passant" | "update_castling_info" | "update_en_passant_position" => 3,
        _ => 4,
    };
    if args.len() != arity {
        return Err(format!("{function} takes {arity} argument(s), the case gives {}", args.len()));
    }
    if function != "attempt_promotion" && !inputs.is_empty() {
        return Err(format!("{function} reads no input"));
    }
    let plain = |value: Py, why: String| Ok(Expected { value, printed: None, why });
    match function {
        "attempt_promotion" => {
            let board = board_arg(args, 0, function)?;
            let white = bool_arg(args, 1, function)?;
            if extras::promotion_square(&board, !white).is_some() {
                return Err("the other player has a pawn to promote, which no game leaves".into());
            }
            let Some(at) = extras::promotion_square(&board, white) else {
                if !inputs.is_empty() {
                    return Err("no pawn is promoted, so no input is read".into());
                }
                return Ok(Expected {
                    value: Py::board(&board),
                    printed: Some(String::new()),
                    why: format!(
                        "{} has no pawn on its last row: the board is returned unchanged",
                        player(white)
                    ),
                });
            };
            let mut printed = texts.promotion_prompt.clone();
            for (i, typed) in inputs.iter().enumerate() {
                if let Some(piece) = extras::promotion_piece(typed, white) {
                    if i + 1 != inputs.len() {
                        return Err(format!("the piece is chosen at input {}, but the case goes on", i + 1));
                    }
                    return Ok(Expected {
                        value: Py::board(&board.with(at, piece)),
                        printed: Some(printed),
                        why: format!(
                            "the pawn on {} becomes `{}`{}",
                            sq(at),
                            piece as char,
                            if i > 0 {
                                format!(" after {i} choice(s) that are not q, n, r or b")
                            } else {
                                String::new()
                            }
                        ),
                    });
                }
                printed.push_str(&texts.invalid_piece);
                printed.push_str(&texts.promotion_prompt);
            }
            Err("the inputs end before a piece (q, n, r or b) is chosen".into())
        }
        "is_valid_castle_attempt" => {
            let mv = move_arg(args, 0, function)?;
            let board = board_arg(args, 1, function)?;
            let white = bool_arg(args, 2, function)?;
            let castling = castling_arg(args, 3, function)?;
            let verdict = extras::castle_check_with(&board, mv, white, castling, safety);
            let why = match verdict {
                Ok(()) => format!("{} to {} is a valid castling for {}", sq(mv.0), sq(mv.1), player(white)),
                Err(e) => format!("{} to {} is not a valid castling: {}", sq(mv.0), sq(mv.1), e.sentence()),
            };
            plain(Py::Bool(verdict.is_ok()), why)
        }
        "perform_castling" => {
            let mv = move_arg(args, 0, function)?;
            let board = board_arg(args, 1, function)?;
            let white = board.at(mv.0) == b'K';
            if board.at(mv.0) != b'K' && board.at(mv.0) != b'k' {
                return Err("perform_castling is given a valid castling move; this one moves no king".into());
            }
            extras::castle_check_with(&board, mv, white, (false, false, false), safety).map_err(|e| {
                format!("perform_castling is given a valid castling move; this one is not: {}", e.sentence())
            })?;
            let rook = if mv.1.col > mv.0.col { 7 } else { 0 };
            plain(
                Py::board(&extras::perform_castling(&board, mv)),
                format!(
                    "the king from {} to {}, the rook from {} to the square the king skipped",
                    sq(mv.0),
                    sq(mv.1),
                    sq(Pos::new(mv.0.row, rook))
                ),
            )
        }
        "is_valid_en_passant" => {
            let mv = move_arg(args, 0, function)?;
            let board = board_arg(args, 1, function)?;
            let white = bool_arg(args, 2, function)?;
            let ep = match &args[3] {
                Py::None => None,
                other => Some(
                    other
                        .as_pos()
                        .filter(|p| p.on_board())
                        .ok_or("en_passant_position is not a position or None")?,
                ),
            };
            let verdict = extras::en_passant_check(&board, mv, white, ep);
            let why = match verdict {
                Ok(()) => format!(
                    "{} to {} takes the pawn that skipped {} en passant",
                    sq(mv.0),
                    sq(mv.1),
                    sq(mv.1)
                ),
                Err(e) => format!("{} to {} is not en passant: {}", sq(mv.0), sq(mv.1), e.sentence()),
            };
            plain(Py::Bool(verdict.is_ok()), why)
        }
        "perform_en_passant" => {
            let mv = move_arg(args, 0, function)?;
            let board = board_arg(args, 1, function)?;
            let white = bool_arg(args, 2, function)?;
            extras::en_passant_check(&board, mv, white, Some(mv.1)).map_err(|e| {
                format!(
                    "perform_en_passant is given a valid en passant move; this one is not: {}",
                    e.sentence()
                )
            })?;
            let taken = Pos::new(mv.0.row, mv.1.col);
            plain(
                Py::board(&extras::perform_en_passant(&board, mv, white)),
                format!("the pawn from {} to {}, the pawn on {} taken", sq(mv.0), sq(mv.1), sq(taken)),
            )
        }
        "update_castling_info" => {
            let mv = move_arg(args, 0, function)?;
            let white = bool_arg(args, 1, function)?;
            let castling = castling_arg(args, 2, function)?;
            let after = extras::update_castling_info(mv, white, castling);
            let why = if after == castling {
                format!(
                    "{} does not start from a square of {}'s first rook or king squares still unmoved",
                    sq(mv.0),
                    player(white)
                )
            } else {
                format!(
                    "the move starts from {}, a first square of {}'s rooks and king",
                    sq(mv.0),
                    player(white)
                )
            };
            plain(info(after), why)
        }
        "update_en_passant_position" => {
            let mv = move_arg(args, 0, function)?;
            let board = board_arg(args, 1, function)?;
            let white = bool_arg(args, 2, function)?;
            let ep = extras::update_en_passant_position(mv, &board, white);
            let why = match ep {
                Some(p) => {
                    format!("{}'s pawn moved two squares to {}, skipping {}", player(white), sq(mv.1), sq(p))
                }
                None => format!(
                    "the move to {} is not one of {}'s pawns moving two squares forward",
                    sq(mv.1),
                    player(white)
                ),
            };
            plain(ep.map_or(Py::None, Py::pos), why)
        }
        _ => Err(format!("`{function}` is not a function the assignment asks for")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_a1::pyvalue::parse_call;

    fn run(call: &str) -> Expected {
        let (f, args) = parse_call(call).unwrap();
        expect(&f, &args, &Texts::default()).unwrap()
    }

    const START: &str =
        "('rnbqkbnr', 'pppppppp', '........', '........', '........', '........', 'PPPPPPPP', 'RNBQKBNR')";

    #[test]
    fn the_seeds_examples_of_user_interaction() {
        assert_eq!(run("initial_state()").value.to_string(), START);
        assert_eq!(run("square_to_position('a8')").value.to_string(), "(0, 0)");
        assert_eq!(run("square_to_position('a1')").value.to_string(), "(7, 0)");
        assert_eq!(run("process_move('e2 e4')").value.to_string(), "((6, 4), (4, 4))");
        let changed = run(&format!("change_position({START}, (0, 0), 'Q')")).value;
        assert_eq!(changed.as_board().unwrap().rows()[0], "Qnbqkbnr");
        let cleared = run(&format!("clear_position({START}, (3, 3))")).value;
        assert_eq!(cleared.as_board(), Some(Board::initial()), "clearing an empty square changes nothing");
        let moved = run(&format!("update_board({START}, ((6, 4), (4, 4)))")).value.as_board().unwrap();
        assert_eq!(moved.rows()[4], "....P...");
        let printed = run(&format!("print_board({START})"));
        assert_eq!(printed.value, Py::None);
        assert!(printed.printed.unwrap().starts_with("rnbqkbnr  8\n"));
    }

    #[test]
    fn the_seeds_examples_of_validation_and_game_over() {
        assert_eq!(run("is_current_players_piece('P', True)").value, Py::Bool(true));
        assert_eq!(run("is_current_players_piece('p', True)").value, Py::Bool(false));
        assert_eq!(run("is_current_players_piece('.', False)").value, Py::Bool(false));
        assert_eq!(run(&format!("is_move_valid(((6, 4), (4, 4)), {START}, True)")).value, Py::Bool(true));
        assert_eq!(run(&format!("is_move_valid(((6, 4), (3, 4)), {START}, True)")).value, Py::Bool(false));
        assert_eq!(run(&format!("is_move_valid(((1, 4), (3, 4)), {START}, True)")).value, Py::Bool(false));
        let start = run(&format!("check_game_over({START}, True)"));
        assert_eq!((start.value, start.printed.as_deref()), (Py::Bool(false), Some("")));
        let fools = "('rnb.kbnr', 'pppp.ppp', '........', '....p...', '......Pq', '.....P..', 'PPPPP..P', 'RNBQKBNR')";
        let over = run(&format!("check_game_over({fools}, True)"));
        assert_eq!((over.value, over.printed.as_deref()), (Py::Bool(true), Some("\nCheckmate\n")));
        assert_eq!(run(&format!("can_move({fools}, True)")).value, Py::Bool(false));
        assert_eq!(run(&format!("is_stalemate({fools}, True)")).value, Py::Bool(false));
        let check = "('rnb.kbnr', 'pppp.ppp', '........', '....p...', '.......q', '.....P..', 'PPPPP.PP', 'RNBQKBNR')";
        let c = run(&format!("check_game_over({check}, True)"));
        assert_eq!((c.value, c.printed.as_deref()), (Py::Bool(false), Some("\nWhite is in check\n")));
        let stale = "('.......k', '.....Q..', '......K.', '........', '........', '........', '........', '........')";
        assert_eq!(run(&format!("is_stalemate({stale}, False)")).value, Py::Bool(true));
        let s = run(&format!("check_game_over({stale}, False)"));
        assert_eq!((s.value, s.printed.as_deref()), (Py::Bool(true), Some("\nStalemate\n")));
    }
}
