//! Pente as the harness sees it: the referee, its rule options and protocol, the graders' bots
//! and the fuzzer's positions (test cases are in `cases.rs`, games for the match runner in
//! `games.rs`). Bots follow CSCI561's protocol: a program without arguments that reads
//! `input.txt` in its folder and writes one point to `output.txt`, keeping `playdata.txt`
//! between its turns of a game.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::bots;
use super::fuzzing;
use super::oracle::Oracle;
use super::position::Position;
use super::rules::Rules;
use super::text::Strictness;
use crate::harness::referee::{
    BuiltinBot, Builtins, Calibration, Fuzzing, GameInfo, Protocol, Referee, SoleAnswer,
};
use crate::side::Side;

/// The seconds a game starts with for each player, as the graders give (5 minutes).
pub const GAME_SECONDS: f64 = 300.0;

/// The harness's view of Pente under one set of rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct PenteReferee {
    /// The rules applied (the opening rule's variant).
    pub rules: Rules,
}

/// input.txt's bytes read leniently, an error rendered with the offending line.
pub(super) fn read(input: &[u8], origin: &str) -> Result<Position, String> {
    Position::parse(input, origin, Strictness::Lenient).map_err(|e| e.render())
}

impl Referee for PenteReferee {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/pente/game.toml"))
    }

    fn game_args(&self) -> Vec<String> {
        let mut args = vec!["--game".to_string(), "pente".to_string()];
        if self.rules.opening != super::rules::Opening::Seed {
            args.extend(["--rule".to_string(), "opening=tournament".to_string()]);
        }
        args
    }

    fn analyst(&self) -> &dyn crate::harness::analyst::Analyst {
        self
    }

    fn protocol(&self) -> Protocol {
        Protocol::FixedFiles { input: "input.txt", output: "output.txt", persist: &["playdata.txt"] }
    }

    fn calibration(&self) -> Option<Calibration> {
        // "Please aim for no more than 5 minutes to run your calibrate program."
        Some(Calibration { program: "calibrate", file: "calibration.txt", seconds: 300.0 })
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![
            include_str!("../../../corpus/pente/marking-profile.json"),
            include_str!("../../../corpus/pente/csci561.json"),
        ]
    }

    crate::concerns!(cases, builtins, fuzzing, games, drawing);
}

impl Builtins for PenteReferee {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        bots::BOTS
            .make(name)
            .map(|_| Box::new(PenteBuiltin { name: name.to_string(), rules: self.rules }) as _)
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        bots::BOTS.names()
    }
}

impl Fuzzing for PenteReferee {
    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let stones = 4 + (seed % 60) as usize;
        let position = super::random_position(&mut rng, &self.rules, stones);
        (position.to_input_text().into_bytes(), position.to_move.side())
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        let Ok(position) = read(input, "input") else { return Vec::new() };
        fuzzing::shrink_steps(&position).into_iter().map(|p| p.to_input_text().into_bytes()).collect()
    }

    fn size(&self, input: &[u8]) -> usize {
        read(input, "input").map_or(0, |p| p.board.stone_count())
    }

    fn size_unit(&self) -> &'static str {
        "stones"
    }

    fn edge_sources(&self) -> Vec<String> {
        fuzzing::SOURCES.iter().map(|s| s.to_string()).collect()
    }

    fn edge_position(&self, source: &str, seed: u64) -> Option<(Vec<u8>, Side)> {
        let position = fuzzing::edge_position(&self.rules, source, seed)?;
        Some((position.to_input_text().into_bytes(), position.to_move.side()))
    }

    fn auto_category(&self, input: &[u8], _side: Side) -> Option<String> {
        let position = read(input, "input").ok()?;
        Oracle::new(&position, &self.rules).category().map(|c| c.name().to_string())
    }

    fn sole_answer(&self, input: &[u8], _side: Side, category: &str) -> Option<SoleAnswer> {
        let position = read(input, "input").ok()?;
        fuzzing::sole_answer(&position, &self.rules, category.parse().ok()?)
    }
}

/// One of the graders' bots, run inside arbiter.
struct PenteBuiltin {
    name: String,
    rules: Rules,
}

impl BuiltinBot for PenteBuiltin {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn play(&self, input: &[u8], origin: &str, _side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let position = read(input, origin)?;
        let bot = bots::BOTS.make(&self.name).ok_or_else(|| format!("no Pente bot `{}`", self.name))?;
        let point = bot
            .choose(&position, &self.rules, seed)
            .ok_or_else(|| "no legal move: the game is over".to_string())?;
        Ok(format!("{point}\n").into_bytes())
    }
}
