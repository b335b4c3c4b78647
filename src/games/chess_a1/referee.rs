//! The chess assignment as the harness sees it: a Python module hosted by arbiter's Python
//! host (`hosts/python/arbiter_host.py`) beside a support module (arbiter's
//! `hosts/python/chess_a1/a1_support.py`, or the grader's with `--support FILE`), its rule
//! options and its marking profiles. The cases are in [`super::cases`], fuzzing in
//! [`super::fuzzing`], pictures in [`super::drawing`].

use super::extras::CastleSafety;
use super::generate::{CATEGORIES, CATEGORIES_7030};
use super::texts::Texts;
use crate::harness::host::{HostSpec, PythonSpec};
use crate::harness::referee::{GameInfo, Protocol, Referee};

/// How arbiter hosts an `a1.py`: arbiter's own `a1_support.py` beside it unless the grader
/// gives theirs.
pub const HOST: HostSpec = HostSpec {
    java: None,
    python: Some(PythonSpec {
        module: "a1.py",
        support: &[("a1_support.py", include_str!("../../../hosts/python/chess_a1/a1_support.py"))],
        // Section 5.1: "Your program must run using the Python 3.9 interpreter ... you will get
        // zero for the functionality mark."
        python: Some((3, 9)),
    }),
};

/// CSSE1001's marking profile, `csse1001-a1`: the sections weighted as the specification's
/// Table 1 weights them.
pub const PROFILE_1001: &str = include_str!("../../../corpus/chess-a1/marking-profile.json");

/// CSSE7030's marking profile, `csse7030-a1` (with `--rule extras=on`), weighted by Table 1.
pub const PROFILE_7030: &str = include_str!("../../../corpus/chess-a1/marking-profile-7030.json");

/// `csse1001-a1-equal`: every test the same weight, the alternative reading of Section 5.1.
pub const PROFILE_1001_EQUAL: &str = include_str!("../../../corpus/chess-a1/marking-profile-equal.json");

/// `csse7030-a1-equal`: every test the same weight, with the special moves.
pub const PROFILE_7030_EQUAL: &str = include_str!("../../../corpus/chess-a1/marking-profile-7030-equal.json");

/// The harness's view of the chess assignment, with its fixed texts.
#[derive(Clone, Debug, Default)]
pub struct ChessA1Referee {
    /// The fixed texts compared (the default profile, or `--rule texts=FILE`).
    pub texts: Texts,
    /// The file the texts came from, when not the default.
    pub texts_file: Option<String>,
    /// CSSE7030's special moves (`--rule extras=on`): promotion, castling and en passant in
    /// `main()`, the `extras` category of cases and the `csse7030-a1` profile by default.
    pub extras: bool,
    /// Which squares castling needs safe (`--rule castle=inclusive|king-path`; CSSE7030's).
    pub castle: CastleSafety,
    analyst: super::analyst::ChessA1Analyst,
}

impl ChessA1Referee {
    /// Applies a rule option: `texts=FILE` replaces the fixed texts; `extras=on` grades
    /// CSSE7030's special moves; `castle=king-path` reads castling's "under attack" as the
    /// course's sample solution does (only the king's squares), `castle=inclusive` as the seed
    /// writes it.
    pub fn with_option(mut self, option: &str) -> Result<ChessA1Referee, String> {
        match option.split_once('=') {
            Some(("texts", path)) => {
                self.texts = Texts::load(path)?;
                self.texts_file = Some(path.to_string());
                Ok(self)
            }
            Some(("extras", "off")) => {
                self.extras = false;
                Ok(self)
            }
            Some(("extras", "on")) => {
                self.extras = true;
                Ok(self)
            }
            Some(("extras", other)) => Err(format!(
                "extras is `on` (CSSE7030's promotion, castling and en passant) or `off`, not `{other}`"
            )),
            Some(("castle", "inclusive")) => {
                self.castle = CastleSafety::Inclusive;
                Ok(self)
            }
            Some(("castle", "king-path")) => {
                self.castle = CastleSafety::KingPath;
                Ok(self)
            }
            Some(("castle", other)) => Err(format!(
                "castle is `inclusive` (every square from the king's to the rook's must be safe, as the seed \
                 writes) or `king-path` (only the king's square and the two it crosses), not `{other}`"
            )),
            _ => Err("the options are texts=FILE (the fixed texts, see corpus/chess-a1/texts.json), extras=on|off (CSSE7030's special moves) and castle=inclusive|king-path (the squares castling needs safe)".into()),
        }
    }
}

impl Referee for ChessA1Referee {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/chess-a1/game.toml"))
    }

    fn game_args(&self) -> Vec<String> {
        let mut args = vec!["--game".to_string(), "chess-a1".to_string()];
        if let Some(file) = &self.texts_file {
            args.extend(["--rule".to_string(), format!("texts={file}")]);
        }
        if self.extras {
            args.extend(["--rule".to_string(), "extras=on".to_string()]);
        }
        if self.castle != CastleSafety::Inclusive {
            args.extend(["--rule".to_string(), format!("castle={}", self.castle.word())]);
        }
        args
    }

    fn analyst(&self) -> &dyn crate::harness::analyst::Analyst {
        &self.analyst
    }

    fn protocol(&self) -> Protocol {
        Protocol::Hosted(HOST)
    }

    fn categories(&self) -> &'static [&'static str] {
        if self.extras { CATEGORIES_7030 } else { CATEGORIES }
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        let (own, other) =
            if self.extras { (PROFILE_7030, PROFILE_1001) } else { (PROFILE_1001, PROFILE_7030) };
        vec![own, other, PROFILE_1001_EQUAL, PROFILE_7030_EQUAL]
    }

    crate::concerns!(cases, fuzzing, drawing);
}
