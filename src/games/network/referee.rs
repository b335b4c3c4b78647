//! Network as the harness sees it: the referee, its host and rule options, and the built-in
//! players (cases are in `cases.rs`, games between classes for the match runner in `games.rs`).

use serde_json::Value;

use super::Position;
use super::bots;
use super::case_file::CaseFile;
use super::rules::Rules;
use crate::harness::host::{HostSpec, JavaEntry, JavaSpec};
use crate::harness::referee::{BuiltinBot, Builtins, GameInfo, Protocol, Referee};
use crate::side::Side;

/// Plies after which a game is stopped as a draw: steps can go round for ever, and the
/// assignment sets no limit.
pub const MOVE_LIMIT: usize = 200;

/// How arbiter hosts a `MachinePlayer`: the course's `Player` and `Move` as arbiter ships them,
/// compiled with the submission, and the adapter that turns requests into calls.
pub const HOST: HostSpec = HostSpec {
    java: Some(JavaSpec {
        entry: JavaEntry::Class("player.MachinePlayer"),
        api: &[
            ("player/Player.java", include_str!("../../../hosts/java/network/player/Player.java")),
            ("player/Move.java", include_str!("../../../hosts/java/network/player/Move.java")),
        ],
        adapter: &[(
            "arbiter/host/NetworkAdapter.java",
            include_str!("../../../hosts/java/network/arbiter/host/NetworkAdapter.java"),
        )],
        adapter_class: "arbiter.host.NetworkAdapter",
        jvm_options: "",
        foreign: &[],
    }),
    python: None,
};

/// The harness's view of Network under one set of rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct NetworkReferee {
    /// The rules applied (the course referee's readings as options).
    pub rules: Rules,
    analyst: super::NetworkAnalyst,
}

impl NetworkReferee {
    /// The referee (and its analyst) under `rules`.
    pub fn new(rules: Rules) -> NetworkReferee {
        NetworkReferee { rules, analyst: super::NetworkAnalyst { rules } }
    }
}

impl Referee for NetworkReferee {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/network/game.toml"))
    }

    fn game_args(&self) -> Vec<String> {
        let mut args = vec!["--game".to_string(), "network".to_string()];
        for option in self.rules.describe() {
            args.extend(["--rule".to_string(), option.to_string()]);
        }
        args
    }

    fn analyst(&self) -> &dyn crate::harness::analyst::Analyst {
        &self.analyst
    }

    fn protocol(&self) -> Protocol {
        Protocol::Hosted(HOST)
    }

    fn move_seconds(&self) -> f64 {
        // The seed: "we will strictly enforce a time limit of five seconds ... on the time to
        // perform one chooseMove()".
        5.0
    }

    /// `cs61b` (the default: the cases, then games against the random player only, the games
    /// the assignment names) and `cs61b-alphabeta` (half of those games against arbiter's
    /// alpha-beta player instead).
    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![
            include_str!("../../../corpus/network/marking-profile.json"),
            include_str!("../../../corpus/network/cs61b-alphabeta.json"),
        ]
    }

    crate::concerns!(cases, builtins, games, fuzzing, drawing);

    fn benchmark(&self, min_time: std::time::Duration) -> Option<Value> {
        Some(super::bench::measure(min_time))
    }
}

impl Builtins for NetworkReferee {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        let bot = bots::BOTS.make(name)?;
        Some(Box::new(NetworkBuiltin { bot, rules: self.rules }))
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        bots::BOTS.names()
    }
}

/// A built-in player: reads a position file (or a case file) and writes its move.
struct NetworkBuiltin {
    bot: bots::AnyBot,
    rules: Rules,
}

impl BuiltinBot for NetworkBuiltin {
    fn name(&self) -> String {
        self.bot.name().to_string()
    }

    fn play(&self, input: &[u8], origin: &str, _side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let pos = match Position::parse(input, origin) {
            Ok(pos) => pos,
            Err(_) => CaseFile::parse(input, origin, &self.rules)?.position,
        };
        let mv = self.bot.choose(&pos, &self.rules, seed).ok_or("no legal move")?;
        Ok(format!("{mv}\n").into_bytes())
    }
}
