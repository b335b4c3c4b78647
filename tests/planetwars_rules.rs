//! PlanetWars: one hand-made map per rule of docs/games/planetwars/RULES.md, the seed's worked
//! numbers, the bundled maps, and invariants over random games.

use arbiter::games::planetwars::generate::{HOME_POPULATION, random_map};
use arbiter::games::planetwars::map::{Edge, Map, PlanetInfo};
use arbiter::games::planetwars::turn::{Amount, parse_orders};
use arbiter::games::planetwars::visibility::{View, Whose};
use arbiter::games::planetwars::{
    Order, Player, Refusal, Rules, Shuttle, State, TURN_LIMIT, bots, ending, grow,
};
use proptest::prelude::*;

/// Planets 0 (Player 1's home) and 2 (Player 2's home), size 1000, habitability 20; planet 1
/// (size 500, habitability 10) and 3 (size 200, habitability 50) neutral. Edges 0-1 (2 turns),
/// 1-2 (1), 0-3 (1), 2-3 (3).
fn little() -> State {
    let p = |size, habitability| PlanetInfo { size, habitability };
    let e = |a, b, distance| Edge { a, b, distance };
    let map = Map::new(
        vec![p(1000, 20), p(500, 10), p(1000, 20), p(200, 50)],
        vec![e(0, 1, 2), e(1, 2, 1), e(0, 3, 1), e(2, 3, 3)],
    )
    .unwrap();
    State::start(map, [0, 2], 100)
}

fn send(from: i64, to: i64, n: i64) -> Order {
    Order { from, to, amount: Amount::Whole(n) }
}

#[test]
fn growth_happens_on_every_planet_each_unit_of_time() {
    let mut s = little();
    s.play(&[]);
    // "c*g" with g = 1 + 20/100: both homes, whoever moved.
    assert_eq!(s.population, vec![120, 0, 120, 0]);
    s.play(&[]);
    assert_eq!(s.population, vec![144, 0, 144, 0]);
    assert_eq!(s.to_move, Player::One);
    assert_eq!(s.ply, 2);
}

#[test]
fn the_seeds_shuttle_of_100_over_distance_2_takes_two_turn_cycles_without_growing() {
    let mut s = little();
    s.population[0] = 300;
    let r = s.play(&[send(0, 1, 100)]);
    assert!(r.refused.is_empty());
    // The source loses the people at once and grows on what is left: 200 * 1.2.
    assert_eq!(s.population[0], 240);
    assert_eq!(
        s.shuttles,
        vec![Shuttle { owner: Player::One, from: 0, to: 1, population: 100, remaining: 1 }]
    );
    assert_eq!(s.owner[1], None);
    s.play(&[]);
    // Landed on a neutral planet: taken without loss, and no growth happened in flight.
    assert!(s.shuttles.is_empty());
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::One), 100));
    s.play(&[]);
    assert_eq!(s.population[1], 110, "growth on the new planet: 100 * 1.1");
}

#[test]
fn a_shuttle_of_distance_1_lands_before_the_opponent_moves() {
    let mut s = little();
    s.play(&[send(0, 3, 40)]);
    assert_eq!((s.owner[3], s.population[3]), (Some(Player::One), 40));
    assert_eq!(s.to_move, Player::Two);
}

#[test]
fn friendly_shuttles_add_their_people() {
    let mut s = little();
    s.owner[3] = Some(Player::One);
    s.population[3] = 50;
    s.play(&[send(0, 3, 30)]);
    // 50 grows to 75 first, then 30 land.
    assert_eq!(s.population[3], 105);
}

/// The seed's overpopulation example on `s`: Player One's planet 3 (size 200) holds 190 and
/// its home 500, which sends 300 there; played.
fn overpopulate(mut s: State) -> State {
    s.owner[3] = Some(Player::One);
    s.population[3] = 190;
    s.population[0] = 500;
    s.play(&[send(0, 3, 300)]);
    s
}

#[test]
fn overpopulation_decays_by_a_tenth_of_the_excess() {
    let mut s = overpopulate(little());
    // 190 < 200 grows to 285, then 300 land: 585, above the size 200.
    assert_eq!(s.population[3], 585);
    s.play(&[]);
    // "c - (c-m)*p": 585 - 38.5 = 546.5, rounded down.
    assert_eq!(s.population[3], 546);
    assert_eq!(grow(546, 200, 50), 546 - 35);
}

fn battle_at_1(defenders: i64, attack: i64) -> State {
    let mut s = little();
    s.owner[1] = Some(Player::Two);
    s.population[1] = defenders;
    // Habitability 0 so that the defenders do not grow before the landing.
    s.map.planets[1].habitability = 0;
    s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: attack, remaining: 1 });
    s.play(&[]);
    s
}

#[test]
fn the_defender_holds_when_1_1_times_its_people_exceeds_the_attack() {
    // newPlanetPop = min(old, 1.1*old - attack) = min(100, 110 - 50) = 60.
    let s = battle_at_1(100, 50);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::Two), 60));
    // "very small attacks will have no effect": min(100, 105) = 100.
    let s = battle_at_1(100, 5);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::Two), 100));
    // "attacking a planet with the same number of people as are currently on it will not
    // succeed".
    let s = battle_at_1(100, 100);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::Two), 10));
}

#[test]
fn the_attacker_takes_the_planet_when_its_force_exceeds_1_1_times_the_defenders() {
    // newPlanetPop = attackingPop - 1.1 * oldPlanetPop = 150 - 110.
    let s = battle_at_1(100, 150);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::One), 40));
}

#[test]
fn an_exact_tie_leaves_the_planet_neutral_and_empty() {
    let s = battle_at_1(100, 110);
    assert_eq!((s.owner[1], s.population[1]), (None, 0));
    // 1.1 * 30 = 33 exactly: compared without floating-point error.
    let s = battle_at_1(30, 33);
    assert_eq!((s.owner[1], s.population[1]), (None, 0));
}

#[test]
fn friendly_shuttles_land_first_and_hostile_ones_coalesce_into_one_attack() {
    let mut s = little();
    s.owner[1] = Some(Player::Two);
    s.population[1] = 100;
    s.map.planets[1].habitability = 0;
    // The seed's 10 and 15 arriving together are one attack of 25; here 60 + 60 = 120 against
    // 100 + 20 reinforcements: 1.1 * 120 = 132 > 120, held with min(120, 12) = 12.
    s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: 60, remaining: 1 });
    s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: 60, remaining: 1 });
    s.shuttles.push(Shuttle { owner: Player::Two, from: 2, to: 1, population: 20, remaining: 1 });
    let r = s.play(&[]);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::Two), 12));
    assert_eq!(r.landings.len(), 1);
    assert_eq!(r.landings[0].lost, 240 - 12);
}

#[test]
fn both_players_reaching_a_neutral_planet_together_fight_without_advantage() {
    let mut s = little();
    s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: 70, remaining: 1 });
    s.shuttles.push(Shuttle { owner: Player::Two, from: 2, to: 1, population: 50, remaining: 1 });
    s.play(&[]);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::One), 20));
}

#[test]
fn illegal_orders_are_refused_counted_and_the_others_carried_out() {
    let mut s = little();
    let orders = vec![
        send(2, 1, 10), // Player 2's planet
        send(0, 2, 10), // not joined
        send(0, 3, 0),  // nobody
        send(0, 3, -5), // negative
        Order { from: 0, to: 3, amount: Amount::Fraction("2.5".into()) },
        send(0, 9, 10), // no planet 9
        send(0, 3, 60), // legal
        send(0, 1, 50), // only 40 left now
        send(0, 1, 40), // legal
    ];
    let r = s.play(&orders);
    let why: Vec<Refusal> = r.refused.iter().map(|(_, w)| *w).collect();
    assert_eq!(
        why,
        vec![
            Refusal::NotOwned,
            Refusal::NotANeighbour,
            Refusal::NotPositive,
            Refusal::NotPositive,
            Refusal::NotWhole,
            Refusal::NoSuchPlanet,
            Refusal::TooMany
        ]
    );
    assert_eq!(r.accepted, vec![send(0, 3, 60), send(0, 1, 40)]);
    assert_eq!(s.refused_total(Player::One), 7);
    assert_eq!(s.refused_total(Player::Two), 0);
    assert_eq!(
        s.refused_summary(Player::One),
        "7 (1 no-such-planet, 1 not-owned, 1 not-a-neighbour, 2 not-positive, 1 not-whole, 1 too-many)"
    );
    assert_eq!(s.population[0], 0, "all 100 left; 0 grows to 0");
    let notation = r.notation(&orders);
    assert!(notation.starts_with("2>1:10!not-owned 0>2:10!not-a-neighbour"), "{notation}");
    // The notation replays to the same state.
    let mut again = little();
    again.play(&parse_orders(&notation).unwrap());
    assert_eq!(again, s);
}

#[test]
fn sending_every_person_is_legal_and_the_planet_stays_owned() {
    let mut s = little();
    s.play(&[send(0, 1, 100)]);
    assert_eq!((s.owner[0], s.population[0]), (Some(Player::One), 0));
}

#[test]
fn a_player_sees_the_whole_graph_but_details_only_of_its_planets_and_their_neighbours() {
    let mut s = little();
    s.shuttles.push(Shuttle { owner: Player::Two, from: 2, to: 3, population: 5, remaining: 3 });
    s.shuttles.push(Shuttle { owner: Player::Two, from: 1, to: 2, population: 7, remaining: 1 });
    let v = View::of(&s, Player::One);
    assert_eq!(v.edges.len(), 4);
    assert!(v.planets[0].is_some() && v.planets[1].is_some() && v.planets[3].is_some());
    assert!(v.planets[2].is_none(), "Player 2's home is not next to Player 1's");
    assert_eq!(v.planets[0].unwrap().owner, Whose::Mine);
    // The shuttle bound for planet 3 (seen) shows; the one bound for planet 2 (hidden) does not.
    assert_eq!(v.shuttles.len(), 1);
    assert_eq!((v.shuttles[0].owner, v.shuttles[0].to), (Whose::Theirs, 3));
    let text = v.to_text();
    assert!(text.contains("planet 2 hidden\n"), "{text}");
    assert_eq!(View::parse(&text, "v").unwrap(), v);
}

#[test]
fn a_player_with_no_planet_and_no_shuttle_has_lost() {
    let mut s = little();
    assert!(ending(&s, TURN_LIMIT).is_none());
    s.owner[2] = None;
    s.population[2] = 0;
    s.shuttles.push(Shuttle { owner: Player::Two, from: 2, to: 1, population: 5, remaining: 1 });
    assert!(ending(&s, TURN_LIMIT).is_none(), "a shuttle in flight keeps a player in the game");
    s.shuttles.clear();
    let end = ending(&s, TURN_LIMIT).unwrap();
    assert_eq!((end.winner, end.name), (Some(Player::One), "conquest"));
}

#[test]
fn at_the_turn_limit_more_people_wins_and_equal_totals_draw() {
    let mut s = little();
    s.ply = TURN_LIMIT;
    let end = ending(&s, TURN_LIMIT).unwrap();
    assert_eq!((end.winner, end.name), (None, "turn-limit"));
    s.shuttles.push(Shuttle { owner: Player::Two, from: 2, to: 1, population: 1, remaining: 1 });
    assert_eq!(ending(&s, TURN_LIMIT).unwrap().winner, Some(Player::Two));
}

/// The little map played by the rules `option` (`KEY=VALUE`) chooses.
fn little_by(option: &str) -> State {
    let mut s = little();
    s.rules = Rules::default().with_option(option).unwrap();
    s
}

#[test]
fn growth_course_rounds_up_in_doubles_caps_at_the_size_and_decays_after_landing() {
    // The course's engine: min(size, ceil(c * (1 + h/100.))); 1 person grows at any habitability.
    let mut s = little_by("growth=course");
    s.population[0] = 1;
    s.population[2] = 1;
    s.play(&[]);
    assert_eq!((s.population[0], s.population[2]), (2, 2), "ceil(1.2) = 2; the seed's rule keeps 1");
    // Planet 1 (habitability 10): 100 * 1.1 is 110.00000000000001 in doubles, rounded up to 111.
    let mut s = little_by("growth=course");
    s.owner[1] = Some(Player::One);
    s.population[1] = 100;
    s.play(&[]);
    assert_eq!(s.population[1], 111);
    // The seed's overpopulation example: 190 grows to the size 200 (not 285), 300 land, and
    // the decay comes after the landing: 500 - ceil(300 * 0.1) = 470 (the seed's rule: 585).
    let mut s = overpopulate(little_by("growth=course"));
    assert_eq!(s.population[3], 470);
    s.play(&[]);
    // No growth above the size; decay 27.
    assert_eq!(s.population[3], 443);
}

#[test]
fn battle_course_truncates_1_1_times_the_defenders() {
    // (long) (1.1 * 5) = 5 against 5 attackers: a tie, the planet neutral; exactly, 5.5 holds.
    let mut s = little_by("battle=course");
    s.owner[1] = Some(Player::Two);
    s.population[1] = 5;
    s.map.planets[1].habitability = 0;
    s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: 5, remaining: 1 });
    let exact = {
        let mut e = s.clone();
        e.rules = Rules::default();
        e.play(&[]);
        e
    };
    s.play(&[]);
    assert_eq!((s.owner[1], s.population[1]), (None, 0));
    assert_eq!((exact.owner[1], exact.population[1]), (Some(Player::Two), 0));
}

#[test]
fn emptied_neutral_gives_up_a_planet_sent_empty() {
    let mut s = little_by("emptied=neutral");
    let r = s.play(&[send(0, 1, 100), send(0, 3, 1)]);
    assert_eq!((s.owner[0], s.population[0]), (None, 0));
    assert_eq!(r.refused.len(), 1, "the planet is no longer the player's");
    assert_eq!(r.refused[0].1, Refusal::NotOwned);
    // The shuttle keeps Player 1 in the game; it takes the neutral planet 1 on landing.
    assert!(ending(&s, s.turn_limit()).is_none());
    s.play(&[]);
    assert_eq!((s.owner[1], s.population[1]), (Some(Player::One), 100));
}

#[test]
fn end_course_gives_a_double_wipe_out_to_player_1_and_no_winner_at_10000_plies() {
    let mut s = little_by("end=course");
    for p in [0, 2] {
        s.owner[p] = None;
        s.population[p] = 0;
    }
    let end = ending(&s, s.turn_limit()).unwrap();
    assert_eq!((end.winner, end.name), (Some(Player::One), "conquest"));
    let mut s = little_by("end=course");
    assert_eq!(s.turn_limit(), 10_000);
    s.ply = TURN_LIMIT;
    assert!(ending(&s, s.turn_limit()).is_none(), "1000 plies do not end a game");
    s.ply = 10_000;
    s.population[0] = 500;
    let end = ending(&s, s.turn_limit()).unwrap();
    assert_eq!((end.winner, end.name), (None, "turn-limit"), "more people does not win");
}

#[test]
fn view_course_hides_a_players_own_shuttles_bound_for_planets_it_does_not_see() {
    let mut s = little();
    s.shuttles.push(Shuttle { owner: Player::One, from: 1, to: 2, population: 7, remaining: 1 });
    assert_eq!(View::of(&s, Player::One).shuttles.len(), 1);
    s.rules = Rules::default().with_option("view=course").unwrap();
    assert!(View::of(&s, Player::One).shuttles.is_empty());
}

#[test]
fn the_attacker_concentrates_on_the_weakest_enemy_neighbour() {
    // Player 2 holds planet 1 (60 people, weak) and its home 2 (1000). Planet 1 will have 72
    // when a shuttle from 0 (2 turns) lands: 80 people take it. Neither of Player 1's planets
    // next to it can spare 80 alone (half of 100), both together can: both send at once.
    let mut s = little();
    s.owner[2] = Some(Player::One);
    s.owner[1] = Some(Player::Two);
    s.population[1] = 60;
    s.owner[3] = Some(Player::Two);
    s.population[3] = 1000;
    let orders = bots::orders("attacker", &View::of(&s, Player::One), 1).unwrap();
    assert_eq!(orders, vec![send(0, 1, 50), send(2, 1, 50)]);
    // With 70 people on each side of it, 35 + 35 is not enough: they gather.
    s.population[0] = 70;
    s.population[2] = 70;
    assert_eq!(bots::orders("attacker", &View::of(&s, Player::One), 1).unwrap(), vec![]);
    // A game of attacker against defensive is the same game every time.
    let a = play_out(random_map(4).start(), ["attacker", "defensive"], 7);
    let b = play_out(random_map(4).start(), ["attacker", "defensive"], 7);
    assert_eq!(a.to_text(), b.to_text());
}

/// A whole game between two built-in strategies on `state`, deterministic in `seed`.
fn play_out(mut s: State, names: [&str; 2], seed: u64) -> State {
    while ending(&s, TURN_LIMIT).is_none() {
        let view = View::of(&s, s.to_move);
        let orders = bots::orders(names[s.to_move.index()], &view, seed ^ u64::from(s.ply)).unwrap();
        s.play(&orders);
    }
    s
}

#[test]
fn the_same_map_and_seed_give_the_same_game() {
    let a = play_out(random_map(3).start(), ["random", "greedy"], 11);
    let b = play_out(random_map(3).start(), ["random", "greedy"], 11);
    assert_eq!(a.to_text(), b.to_text());
    let start = random_map(3).start();
    assert_eq!(start.population.iter().sum::<i64>(), 2 * HOME_POPULATION);
}

#[test]
fn the_bundled_maps_are_the_generators_and_read_back() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/planetwars/maps");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let seed: u64 = name.trim_start_matches("map-").parse().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let state = State::parse(&text, &name).unwrap();
        assert_eq!(state, random_map(seed).start(), "{name}");
        assert!(state.map.is_connected());
        seen += 1;
    }
    assert!(seen >= 4);
}

/// Writes the bundled maps: `cargo test --test planetwars_rules -- --ignored write_maps`.
#[test]
#[ignore]
fn write_maps() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/planetwars/maps");
    std::fs::create_dir_all(&dir).unwrap();
    for seed in [1u64, 2, 3, 4, 5, 6] {
        std::fs::write(dir.join(format!("map-{seed}.txt")), random_map(seed).start().to_text()).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Over random games with random (often illegal) orders: no population is ever negative,
    /// and the people in the game change only by growth and battle losses.
    #[test]
    fn people_change_only_by_growth_and_battle(map_seed in 0u64..10_000, raw in proptest::collection::vec((0i64..22, 0i64..22, -5i64..300), 0..400)) {
        let mut s = random_map(map_seed).start();
        for chunk in raw.chunks(3) {
            if ending(&s, TURN_LIMIT).is_some() {
                break;
            }
            let orders: Vec<Order> = chunk.iter().map(|&(a, b, n)| send(a, b, n)).collect();
            let before = s.everyone();
            // Growth computed independently: on the planets as the accepted orders leave them.
            let mut after_orders = s.clone();
            for o in &orders {
                if let Ok((from, _, n)) = after_orders.check(s.to_move, o) {
                    after_orders.population[from] -= n;
                }
            }
            let growth: i64 = (0..s.map.len())
                .map(|i| {
                    let p = s.map.planets[i];
                    grow(after_orders.population[i], p.size, p.habitability) - after_orders.population[i]
                })
                .sum();
            let r = s.play(&orders);
            let lost: i64 = r.landings.iter().map(|l| l.lost).sum();
            prop_assert_eq!(r.growth, growth);
            prop_assert!(r.landings.iter().all(|l| l.lost >= 0));
            prop_assert_eq!(s.everyone(), before + growth - lost);
            prop_assert!(s.population.iter().all(|&p| p >= 0));
            prop_assert!(s.shuttles.iter().all(|sh| sh.population > 0 && sh.remaining > 0));
            for i in 0..s.map.len() {
                prop_assert!(s.owner[i].is_some() || s.population[i] == 0, "a neutral planet is empty");
            }
        }
    }
}
