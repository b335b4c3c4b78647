//! What a game declares once instead of in accessors: its name, its case categories and its
//! words ([`Words`]). They are prose and lists, so they live as data beside the game's docs
//! (`docs/games/<game>/game.toml`), read with `include_str!` by the game's referee and parsed at
//! first use:
//!
//! ```toml
//! name = "tictactoe"
//! categories = ["legal", "best"]
//!
//! [words]
//! sides = ["X", "O"]
//! board_file = "3 lines of 3 cells from `XO.`"
//! own = ["tic-tac-toe"]
//! ```
//!
//! A `[words]` key left out keeps [`Words::PLAIN`]'s value.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;

use super::Words;

/// A game's constant description (see the module comment).
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The game's name, as `--game` takes it.
    pub name: &'static str,
    /// The case categories, in the order a marking profile's stages take them (none for a game
    /// without test cases).
    pub categories: &'static [&'static str],
    /// The game's own words for help texts and reports.
    pub words: Words,
}

/// `game.toml` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InfoFile {
    name: String,
    #[serde(default)]
    categories: Vec<String>,
    #[serde(default)]
    words: WordsFile,
}

/// `game.toml`'s `[words]` table, as written: [`Words`]' fields, each optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct WordsFile {
    sides: Option<[String; 2]>,
    board_file: Option<String>,
    side_to_move: Option<String>,
    invalid_position: Option<String>,
    rule_options: Option<String>,
    move_examples: Option<String>,
    engines: Option<bool>,
    own: Option<Vec<String>>,
}

/// A string that lives as long as the program: a game's description is read once and kept.
fn keep(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn keep_all(list: Vec<String>) -> &'static [&'static str] {
    Box::leak(list.into_iter().map(keep).collect::<Vec<_>>().into_boxed_slice())
}

impl GameInfo {
    /// Reads a `game.toml`'s text; the error names the line and column where it goes wrong.
    pub fn parse(text: &str) -> Result<GameInfo, String> {
        let file: InfoFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let plain = Words::PLAIN;
        let w = file.words;
        Ok(GameInfo {
            name: keep(file.name),
            categories: keep_all(file.categories),
            words: Words {
                sides: w.sides.map_or(plain.sides, |[a, b]| [keep(a), keep(b)]),
                board_file: w.board_file.map_or(plain.board_file, keep),
                side_to_move: w.side_to_move.map_or(plain.side_to_move, keep),
                invalid_position: w.invalid_position.map_or(plain.invalid_position, keep),
                rule_options: w.rule_options.map_or(plain.rule_options, keep),
                move_examples: w.move_examples.map_or(plain.move_examples, keep),
                engines: w.engines.unwrap_or(plain.engines),
                own: w.own.map_or(plain.own, keep_all),
            },
        })
    }

    /// The description in `text` (a game's `include_str!("…/game.toml")`), parsed the first time
    /// it is asked for and kept. A file that does not parse is a fault in the game's sources,
    /// found by its tests: it panics with the parser's message.
    pub fn of(text: &'static str) -> &'static GameInfo {
        static READ: OnceLock<Mutex<HashMap<(usize, usize), &'static GameInfo>>> = OnceLock::new();
        let mut read = READ.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        read.entry((text.as_ptr() as usize, text.len())).or_insert_with(|| {
            let info = GameInfo::parse(text).unwrap_or_else(|e| panic!("a game's game.toml: {e}"));
            Box::leak(Box::new(info))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::GameInfo;

    #[test]
    fn words_left_out_keep_the_plain_ones() {
        let info =
            GameInfo::parse("name = \"g\"\ncategories = [\"a\", \"b\"]\n[words]\nsides = [\"X\", \"O\"]\n")
                .unwrap();
        assert_eq!((info.name, info.categories), ("g", &["a", "b"][..]));
        assert_eq!(info.words.sides, ["X", "O"]);
        assert_eq!(info.words.board_file, super::Words::PLAIN.board_file);
        assert!(info.words.own.is_empty());
    }

    #[test]
    fn a_bad_file_is_refused_with_its_line() {
        let e = GameInfo::parse("name = \"g\"\n[words]\nsidez = []\n").unwrap_err();
        assert!(e.contains("line 3") && e.contains("sidez"), "{e}");
        assert!(GameInfo::parse("categories = []\n").is_err());
    }

    #[test]
    fn the_same_text_is_read_once() {
        const TEXT: &str = "name = \"g\"\n";
        assert!(std::ptr::eq(GameInfo::of(TEXT), GameInfo::of(TEXT)));
    }
}
