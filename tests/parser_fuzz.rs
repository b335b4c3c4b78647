//! Fuzzing the parsers with proptest: no input, however broken, may panic the board parser,
//! the bot-output judge, the notation parser or the game-record reader, and every error must
//! point inside the input.

use arbiter::Side;
use arbiter::advance::grades::{Aggregation, grade_report};
use arbiter::advance::judge::{Answers, judge};
use arbiter::advance::{Board, Engine, Fast, Move, Strictness};
use arbiter::harness::records::parse_record;
use proptest::prelude::*;

const GOOD: &str =
    "b#g.S.cmb\nM......sj\n..m.B..##\n.........\n........z\n.Jz.#....\n..Z#.z..#\nC..#z.JZB\n.G......s\n";

/// A board's bytes with a few random edits: bytes replaced, inserted or deleted.
fn mutated_board() -> impl Strategy<Value = Vec<u8>> {
    let edit = (0..3u8, 0..120usize, prop::sample::select(b"\r\n\0\xff ZzGg.#x\t".to_vec()));
    prop::collection::vec(edit, 0..6).prop_map(|edits| {
        let mut bytes = GOOD.as_bytes().to_vec();
        for (kind, at, byte) in edits {
            let at = at % (bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        bytes
    })
}

fn inputs() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![prop::collection::vec(any::<u8>(), 0..200), mutated_board()]
}

fn check_parse(bytes: &[u8], strictness: Strictness) -> Result<(), TestCaseError> {
    match Board::parse(bytes, "fuzz.txt", strictness) {
        Ok(board) => {
            prop_assert_eq!(Board::from_text(&board.to_text()).unwrap(), board);
        }
        Err(e) => {
            let lines = bytes.split(|&b| b == b'\n').count();
            prop_assert!(e.line >= 1 && e.line <= lines.max(1) + 1, "line {} of {}", e.line, lines);
            prop_assert!(e.column >= 1);
            let prefix = format!("fuzz.txt:{}:{}: ", e.line, e.column);
            prop_assert!(e.to_string().starts_with(&prefix), "{}", e);
            prop_assert!(!e.message.is_empty());
            let _ = e.render();
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_board_parser_never_panics(bytes in inputs()) {
        check_parse(&bytes, Strictness::Lenient)?;
        check_parse(&bytes, Strictness::Strict)?;
    }

    #[test]
    fn the_notation_parser_never_panics(text in "\\PC{0,12}|[ZBJMSCDGx][a-j][0-9][-x#~^*?][a-j][0-9]") {
        if let Ok(mv) = text.parse::<Move>() {
            prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
        }
    }

    #[test]
    fn the_record_reader_never_panics(text in "\\PC{0,300}") {
        let _ = parse_record(&text);
        let _ = parse_record(&format!("game: 1\nwhite: a\nblack: b\nresult: draw\nending: x\n\nstart board:\n{text}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Judging any bot output gives a finding with a reason, and never panics.
    #[test]
    fn judging_any_output_never_panics(output in inputs()) {
        let board = Board::from_text(GOOD).unwrap();
        let pos = Fast.load(&board, Side::White);
        let report = grade_report(&Fast, &pos);
        let answers = Answers::from_report(&Fast, &pos, &report, Aggregation::Min);
        let finding = judge(&board, &answers, &output, "out.txt", Strictness::Lenient);
        prop_assert!(!finding.reason(Side::White).is_empty());
        let strict = judge(&board, &answers, &output, "out.txt", Strictness::Strict);
        prop_assert!(!strict.rule().is_empty());
    }
}
