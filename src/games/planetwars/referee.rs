//! PlanetWars as the harness sees it: no test cases (a simulation graded by win rates), the
//! built-in strategies, and games for the match runner. Submissions are hosted
//! ([`Protocol::Hosted`], `docs/PROTOCOL.md`): a Java class implementing the course's
//! `IStrategy`, or any program that speaks the protocol. A turn is a `turn` request carrying the
//! player's view ([`View::to_json`](super::visibility::View::to_json)), answered by a list of
//! orders `{"from", "to", "population"}`, within [`TURN_CPU`] of CPU time. Illegal orders are
//! refused and counted; an answer that is not a list of orders forfeits the game. Built-in
//! strategies play in memory, on the view file
//! ([`View::to_text`](super::visibility::View::to_text)).
//!
//! Without a start file each pair of games (1 and 2, 3 and 4, ...) is played on a random map
//! of the match's seed ([`super::generate::random_map`], or [`super::generate::course_map`]
//! with `maps=course`), each bot moving first in one of them. A start file is a state file or
//! one of the course's `.dot` maps ([`super::dot`]).
//!
//! Each concern has its own file: [`super::builtins`], [`super::games`], [`super::analyst`],
//! [`super::fuzzing`] and [`super::drawing`].

use super::rules::Rules;
use super::state::State;
use crate::harness::analyst::Analyst;
use crate::harness::host::{HostSpec, JavaEntry, JavaSpec};
use crate::harness::referee::{GameInfo, Protocol, Referee};

/// CPU time a strategy may take for one turn: the course's engine gives `takeTurn` one second
/// (`MOVE_TIMEOUT`).
pub const TURN_CPU: std::time::Duration = std::time::Duration::from_secs(1);

/// How arbiter hosts a strategy: the course's public API as arbiter writes it, the bridge
/// compiled with it (it builds the planets a strategy sees and reads its queue), and the
/// adapter that answers requests. The class is the one implementing `IStrategy`.
pub const HOST: HostSpec = HostSpec {
    java: Some(JavaSpec {
        entry: JavaEntry::Implements("planetwars.publicapi.IStrategy"),
        api: &[
            (
                "planetwars/publicapi/IEdge.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IEdge.java"),
            ),
            (
                "planetwars/publicapi/IEvent.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IEvent.java"),
            ),
            (
                "planetwars/publicapi/IPlanet.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IPlanet.java"),
            ),
            (
                "planetwars/publicapi/IPlanetOperations.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IPlanetOperations.java"),
            ),
            (
                "planetwars/publicapi/IShuttle.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IShuttle.java"),
            ),
            (
                "planetwars/publicapi/IStrategy.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IStrategy.java"),
            ),
            (
                "planetwars/publicapi/IVisiblePlanet.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IVisiblePlanet.java"),
            ),
            (
                "planetwars/publicapi/Owner.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/Owner.java"),
            ),
            (
                "planetwars/core/EngineNotShipped.java",
                include_str!("../../../hosts/java/planetwars/planetwars/core/EngineNotShipped.java"),
            ),
            (
                "arbiter/host/planetwars/Bridge.java",
                include_str!("../../../hosts/java/planetwars/arbiter/host/planetwars/Bridge.java"),
            ),
        ],
        adapter: &[(
            "arbiter/host/PlanetwarsAdapter.java",
            include_str!("../../../hosts/java/planetwars/arbiter/host/PlanetwarsAdapter.java"),
        )],
        adapter_class: "arbiter.host.PlanetwarsAdapter",
        // Each game loads the strategy in a fresh class loader, so its code is compiled again
        // every game; the optimising compiler (C2) would spend more CPU time on that than the
        // strategy itself, and charge it to the strategy's turns. The client compiler's
        // thresholds doubled: it compiles fewer of a game's short-lived methods, which cut its
        // CPU time by about a second over a course's 400 games without slowing the strategy's
        // turns (docs/SCALING.md).
        jvm_options: "-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=2",
        foreign: &["planetwars.core", "planetwars.publicapi"],
    }),
    python: None,
};

/// The harness's view of PlanetWars.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlanetwarsReferee {
    /// The rule options (`--rule`); the seed's rules by default.
    pub rules: Rules,
}

impl PlanetwarsReferee {
    /// `state` played by the referee's rules when `--rule` chose any, else by its file's.
    pub(super) fn ruled(&self, mut state: State) -> State {
        if self.rules != Rules::default() {
            state.rules = self.rules;
        }
        state
    }
}

impl Referee for PlanetwarsReferee {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/planetwars/game.toml"))
    }

    fn game_args(&self) -> Vec<String> {
        let mut args = vec!["--game".to_string(), self.game().to_string()];
        for option in self.rules.describe() {
            args.push("--rule".to_string());
            args.push(option.to_string());
        }
        args
    }

    fn analyst(&self) -> &dyn Analyst {
        self
    }

    fn protocol(&self) -> Protocol {
        Protocol::Hosted(HOST)
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![
            include_str!("../../../corpus/planetwars/marking-profile.json"),
            include_str!("../../../corpus/planetwars/course-profile.json"),
            include_str!("../../../corpus/planetwars/hard-profile.json"),
        ]
    }

    fn with_rules(&self, rules: &[String]) -> Result<Box<dyn Referee>, String> {
        let mut referee = *self;
        for rule in rules {
            referee.rules = referee.rules.with_option(rule).map_err(|e| format!("rule {rule}: {e}"))?;
        }
        Ok(Box::new(referee))
    }

    crate::concerns!(builtins, games, drawing, fuzzing);
}
