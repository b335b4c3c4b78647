//! Bot against bot, as in the assignment's final stage.
//!
//! Colours follow the match's [`Colours`] rule: by default they alternate game by game (bot A is
//! white in odd games). White moves first in every game arbiter has. A game ends
//! when the side to move has no legal move (it loses), or after 100 moves by each side, when
//! the side with more material wins and equal material is a draw. A bot that writes an illegal,
//! malformed or unchanged board, writes nothing, crashes or runs out of time loses at once; the
//! record says which and keeps the position and what the bot wrote.
//!
//! Each game's random choices follow a seed derived from the match seed and the game number,
//! so results do not depend on how many games run at once.

mod clock;
mod game;
mod record;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::bot::Bot;
pub use super::forfeits::{ForfeitCause, Forfeits};
pub use super::profile::Colours;
use super::referee::Referee;
use super::runner::Limits;
pub use super::wilson::wilson_interval;

pub use clock::{
    IDLE_BUDGET_TIMES, IDLE_GRACE, MoveLimits, SYSTEM_ALLOWANCE, game_idle_budget, move_limits, varied_clock,
};
use game::play_game;
pub use record::{
    GameRecord, GameResult, MoveTime, forfeits, games_stage_score, played, result_by_material, tally,
};

/// Moves each side makes before the game is decided on material.
pub const MOVES_EACH: usize = 100;

/// How to play a match.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    pub games: usize,
    pub seed: u64,
    pub jobs: usize,
    pub limits: Limits,
    pub same_file: bool,
    /// Starting positions (a label and a board file with white to move), used in turn: games
    /// 2k-1 and 2k share one, so each bot plays it once with each colour. Empty: the initial
    /// position.
    pub starts: Vec<(String, Vec<u8>)>,
    /// Which games bot A plays white.
    pub colours: Colours,
    /// Both sides' starting clock in seconds, for a game with a clock (`--clock`). `None`: a
    /// start file's time line, else the game's own (Pente: 300 s).
    pub clock: Option<f64>,
    /// Without `clock`: each game's starting clock drawn from `[low, high]` seconds by the seed
    /// and the game's number ([`varied_clock`]), and noted in its record.
    pub clock_range: Option<[f64; 2]>,
    /// Charge a game clock user + system CPU time (`--clock-counts-system`); by default it is
    /// charged user time only, as the Unix `time` command the Pente graders use counts it.
    pub clock_counts_system: bool,
}

impl MatchOptions {
    /// `games` games from the initial position, drawn from `seed`, `jobs` at a time, under the
    /// default limits, colours alternating by default and no clock: the plain match a game's own
    /// tests and examples play (the command line and grading fill in every field themselves).
    pub fn new(games: usize, seed: u64, jobs: usize) -> MatchOptions {
        MatchOptions {
            games,
            seed,
            jobs,
            limits: Limits::default(),
            same_file: false,
            starts: Vec::new(),
            colours: Colours::default(),
            clock: None,
            clock_range: None,
            clock_counts_system: false,
        }
    }
}

/// The `--rule` words among a referee's [`Referee::game_args`].
pub fn rule_words(game_args: &[String]) -> Vec<String> {
    game_args.windows(2).filter(|w| w[0] == "--rule").map(|w| w[1].clone()).collect()
}

/// Plays every game, `jobs` at a time, calling `progress` as each ends. Records come back in
/// game order.
pub fn play_match(
    referee: &dyn Referee,
    a: &Bot,
    b: &Bot,
    options: &MatchOptions,
    progress: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, String> {
    // Check every start position before any bot runs.
    for (label, board) in &options.starts {
        referee
            .require_games()?
            .new_game(Some((label, board)))
            .map_err(|e| format!("bad start position: {e}"))?;
    }
    // Plain threads taking games in order, each game holding one of the command's `--jobs`
    // slots (its two bots move in turn: one bot at a time).
    let next = AtomicUsize::new(1);
    let records: Mutex<Vec<Option<Result<GameRecord, String>>>> = Mutex::new(vec![None; options.games]);
    let lock = Mutex::new(());
    let workers = options.jobs.clamp(1, options.games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number > options.games {
                        break;
                    }
                    let slot = super::runner::slots::take();
                    let record = play_game(referee, a, b, options, number);
                    drop(slot);
                    if let Ok(record) = &record {
                        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                        progress(record);
                    }
                    records.lock().unwrap_or_else(|e| e.into_inner())[number - 1] = Some(record);
                }
            });
        }
    });
    records
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a game was not played".to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_varied_clock_is_whole_seconds_in_its_range_and_the_seeds() {
        let clocks: Vec<f64> = (1..=20).map(|n| varied_clock([100.0, 300.0], 7, n)).collect();
        assert!(clocks.iter().all(|&c| (100.0..=300.0).contains(&c) && c.fract() == 0.0), "{clocks:?}");
        assert!(clocks.iter().any(|&c| c != clocks[0]), "{clocks:?}");
        assert_eq!(clocks, (1..=20).map(|n| varied_clock([100.0, 300.0], 7, n)).collect::<Vec<_>>());
        assert_ne!(clocks, (1..=20).map(|n| varied_clock([100.0, 300.0], 8, n)).collect::<Vec<_>>());
        assert_eq!(varied_clock([2.5, 2.7], 7, 1), 2.5, "a range without a whole second gives its low end");
    }

    #[test]
    fn a_move_is_killed_at_the_clock_and_its_idle_cap_only_stops_sleepers() {
        let secs = |d: std::time::Duration| d.as_secs_f64();
        let caps = move_limits(100.0, 900.0, true);
        assert_eq!((secs(caps.cpu), secs(caps.idle), caps.by_budget), (100.0, 100.0 + IDLE_GRACE, false));
        // Counting user time only, the kill (on user + system) allows for the system part.
        let caps = move_limits(100.0, 900.0, false);
        assert_eq!(secs(caps.cpu), 100.0 + SYSTEM_ALLOWANCE);
        // The idle cap stays within what is left of the side's idle budget for the game.
        let caps = move_limits(100.0, 40.0, true);
        assert_eq!((secs(caps.idle), caps.by_budget), (40.0, true));
        let caps = move_limits(1.0, -3.0, true);
        assert_eq!(secs(caps.idle), 0.05);
        assert_eq!(game_idle_budget(300.0), 300.0 + IDLE_GRACE);
    }

    fn lost_game(number: usize, ending: &str, detail: &str) -> GameRecord {
        GameRecord {
            number,
            white: "a".into(),
            black: "b".into(),
            detail: detail.into(),
            ..GameRecord::ended(GameResult::Black, ending)
        }
    }

    #[test]
    fn forfeits_are_counted_by_cause_with_the_first_reason() {
        let throw = "white (a) forfeits: takeTurn threw NullPointerException: x\n  at S.takeTurn(S.java:12)\n  at H.run(H.java:1)";
        let records = vec![
            lost_game(1, "no-legal-move", "white has no legal move after 9 moves"),
            lost_game(2, "crash", throw),
            lost_game(3, "timeout", "white (a) forfeits: the bot timed out: idle ..."),
            lost_game(4, "crash", throw),
            lost_game(5, "out-of-time", "white (a) used up its clock"),
            lost_game(6, "crash", "white (a) forfeits: the bot exited with status 1 during takeTurn"),
        ];
        let f = forfeits(&records);
        assert_eq!((f.lost, f.timeouts(), f.crashes()), (5, 2, 3));
        assert_eq!(f.causes[0].cause, "exception");
        assert_eq!(
            f.sentence().unwrap().split("; ").next().unwrap(),
            "2 lost by exception: takeTurn threw NullPointerException: x at S.takeTurn(S.java:12) (first in game 2)"
        );
        assert_eq!(forfeits(&records[..1]).sentence(), None);
    }

    #[test]
    fn rule_words_are_the_rule_options_of_game_args() {
        let args: Vec<String> =
            ["--game", "pente", "--rule", "opening=tournament"].iter().map(|s| s.to_string()).collect();
        assert_eq!(rule_words(&args), ["opening=tournament"]);
        assert!(rule_words(&args[..2]).is_empty());
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson_interval(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson_interval(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }
}
