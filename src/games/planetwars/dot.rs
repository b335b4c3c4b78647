//! The course's map files (`graphs/*.dot`, Graphviz's DOT language as the course writes it):
//!
//! ```text
//! graph g {
//!   0 [ habit = 1, size = 126, x = 7, y = 4 ]
//!   14 [ base = 1, habit = 8, size = 184, x = 4, y = 3 ]
//!   0 -- 14 [ label = 5, weight = 5 ]
//! }
//! ```
//!
//! A node is a planet (`habit`: its habitability, `size`; `base = 1` or `2`: a player's home;
//! `x`, `y` and any other attribute are ignored); an edge joins two planets, `weight` turns
//! apart (`label` is ignored). `//` and `/* */` comments and `;` between statements are
//! allowed. Planets are numbered from 0, or from 1 (the course's `rings`, `k4` and `graph`),
//! which arbiter reads as every id less one. Edges keep the direction they are written in (the
//! course's engine orders them by it). The game starts as the engine starts it: each home with
//! 1 person, grown by the engine's first unit of time ([`super::generate::course_start`]).

use super::generate::course_start;
use super::map::{Edge, Map, PlanetInfo};
use super::state::State;

/// Whether `text` looks like a DOT graph rather than a state file.
pub fn is_dot(text: &str) -> bool {
    let mut rest = text.trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r).trim_start();
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r).trim_start();
        } else {
            break;
        }
    }
    let word: String = rest.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    ["graph", "strict", "digraph"].iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// A token and where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
struct Token {
    text: String,
    line: usize,
    column: usize,
}

/// Where the tokenizer is in the text.
struct Cursor {
    chars: Vec<char>,
    i: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    /// Steps over one character, counting lines and columns.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
}

/// Splits DOT text into words (identifiers, numbers, quoted strings without their quotes) and
/// the symbols `{ } [ ] = , ; --`, dropping comments.
fn tokens(text: &str, origin: &str) -> Result<Vec<Token>, String> {
    let mut at = Cursor { chars: text.chars().collect(), i: 0, line: 1, column: 1 };
    let mut out = Vec::new();
    while let Some(c) = at.peek(0) {
        let (line, column) = (at.line, at.column);
        let here = |what: &str| format!("{origin}:{line}:{column}: {what}");
        if c.is_whitespace() {
            at.bump();
        } else if c == '/' && at.peek(1) == Some('/') || c == '#' && column == 1 {
            while at.peek(0).is_some_and(|c| c != '\n') {
                at.bump();
            }
        } else if c == '/' && at.peek(1) == Some('*') {
            at.bump();
            at.bump();
            loop {
                match at.peek(0) {
                    None => return Err(here("a comment that is never closed")),
                    Some('*') if at.peek(1) == Some('/') => {
                        at.bump();
                        at.bump();
                        break;
                    }
                    Some(_) => {
                        at.bump();
                    }
                }
            }
        } else if "{}[]=,;".contains(c) {
            at.bump();
            out.push(Token { text: c.to_string(), line, column });
        } else if c == '-' && matches!(at.peek(1), Some('-') | Some('>')) {
            at.bump();
            let second = at.bump().unwrap_or('-');
            out.push(Token { text: format!("-{second}"), line, column });
        } else if c == '"' {
            at.bump();
            let mut word = String::new();
            loop {
                match at.bump() {
                    None => return Err(here("a string that is never closed")),
                    Some('"') => break,
                    Some(ch) => word.push(ch),
                }
            }
            out.push(Token { text: word, line, column });
        } else if c.is_alphanumeric() || c == '_' || c == '.' || c == '-' {
            let mut word = String::new();
            while let Some(ch) = at.peek(0) {
                if !(ch.is_alphanumeric() || ch == '_' || ch == '.' || (ch == '-' && word.is_empty())) {
                    break;
                }
                word.push(ch);
                at.bump();
            }
            out.push(Token { text: word, line, column });
        } else {
            return Err(here(&format!("unexpected `{c}`")));
        }
    }
    Ok(out)
}

/// A planet as the file gives it.
struct Node {
    id: usize,
    habitability: i64,
    size: i64,
    base: Option<u8>,
}

/// Reads a course map: its planets, edges and homes, and the game's start on it.
pub fn parse(text: &str, origin: &str) -> Result<(State, [usize; 2]), String> {
    let tokens = tokens(text, origin)?;
    let end_at = || {
        let line = text.lines().count().max(1);
        format!("{origin}:{line}")
    };
    let mut pos = 0;
    let at = |t: &Token| format!("{origin}:{}:{}", t.line, t.column);
    let next = |pos: &mut usize| -> Option<Token> {
        let t = tokens.get(*pos).cloned();
        *pos += 1;
        t
    };
    // The header: [strict] graph [NAME] {
    let mut head = next(&mut pos).ok_or_else(|| format!("{}: empty; expected `graph {{`", end_at()))?;
    if head.text.eq_ignore_ascii_case("strict") {
        head = next(&mut pos).ok_or_else(|| format!("{}: expected `graph` after `strict`", end_at()))?;
    }
    if head.text.eq_ignore_ascii_case("digraph") {
        return Err(format!("{}: a `digraph` has one-way edges; a map is a `graph`", at(&head)));
    }
    if !head.text.eq_ignore_ascii_case("graph") {
        return Err(format!("{}: expected `graph`, found `{}`", at(&head), head.text));
    }
    let mut open = next(&mut pos).ok_or_else(|| format!("{}: expected `{{`", end_at()))?;
    if open.text != "{" {
        open = next(&mut pos).ok_or_else(|| format!("{}: expected `{{`", end_at()))?;
    }
    if open.text != "{" {
        return Err(format!("{}: expected `{{`, found `{}`", at(&open), open.text));
    }
    let mut nodes: Vec<Node> = Vec::new();
    let mut edges: Vec<(usize, usize, u32, Token)> = Vec::new();
    let id_of = |t: &Token| -> Result<usize, String> {
        t.text
            .parse::<usize>()
            .map_err(|_| format!("{}: `{}` is not a planet id (a whole number)", at(t), t.text))
    };
    loop {
        let Some(first) = next(&mut pos) else {
            return Err(format!("{}: the graph is never closed with `}}`", end_at()));
        };
        match first.text.as_str() {
            "}" => break,
            ";" => continue,
            "graph" | "node" | "edge" => {
                // Default attributes (`node [shape = circle]`): nothing a map needs.
                if tokens.get(pos).is_some_and(|t| t.text == "[") {
                    attributes(&tokens, &mut pos, origin)?;
                }
                continue;
            }
            _ => {}
        }
        let id = id_of(&first)?;
        match tokens.get(pos).map(|t| t.text.as_str()) {
            Some("--") => {
                pos += 1;
                let other =
                    next(&mut pos).ok_or_else(|| format!("{}: expected a planet after `--`", end_at()))?;
                let b = id_of(&other)?;
                if tokens.get(pos).is_some_and(|t| t.text == "--") {
                    return Err(format!(
                        "{}: one edge a statement, please (`a -- b -- c` is not read)",
                        at(&other)
                    ));
                }
                let attrs = if tokens.get(pos).is_some_and(|t| t.text == "[") {
                    attributes(&tokens, &mut pos, origin)?
                } else {
                    Vec::new()
                };
                let weight = attrs.iter().find(|(k, _)| k.text == "weight").ok_or_else(|| {
                    format!("{}: the edge {id} -- {b} has no `weight` (its length in turns)", at(&first))
                })?;
                let distance = weight.1.text.parse::<u32>().ok().filter(|d| *d >= 1).ok_or_else(|| {
                    format!(
                        "{}: `weight = {}` is not a length of 1 turn or more",
                        at(&weight.1),
                        weight.1.text
                    )
                })?;
                edges.push((id, b, distance, first));
            }
            Some("->") => {
                return Err(format!("{}: `->` is a one-way edge; a map's edges are `--`", at(&tokens[pos])));
            }
            _ => {
                let attrs = if tokens.get(pos).is_some_and(|t| t.text == "[") {
                    attributes(&tokens, &mut pos, origin)?
                } else {
                    Vec::new()
                };
                let number = |key: &str| -> Result<i64, String> {
                    let (_, value) = attrs
                        .iter()
                        .find(|(k, _)| k.text == key)
                        .ok_or_else(|| format!("{}: planet {id} has no `{key}`", at(&first)))?;
                    value
                        .text
                        .parse::<i64>()
                        .map_err(|_| format!("{}: `{key} = {}` is not a whole number", at(value), value.text))
                };
                let base = match attrs.iter().find(|(k, _)| k.text == "base") {
                    None => None,
                    Some((_, v)) => match v.text.as_str() {
                        "1" => Some(1),
                        "2" => Some(2),
                        _ => {
                            return Err(format!(
                                "{}: `base = {}`: a home is `base = 1` or `base = 2`",
                                at(v),
                                v.text
                            ));
                        }
                    },
                };
                if nodes.iter().any(|n| n.id == id) {
                    return Err(format!("{}: planet {id} is described twice", at(&first)));
                }
                nodes.push(Node { id, habitability: number("habit")?, size: number("size")?, base });
            }
        }
    }
    if let Some(extra) = tokens.get(pos) {
        return Err(format!("{}: `{}` after the end of the graph", at(extra), extra.text));
    }
    // Ids from 0 or from 1, without gaps.
    nodes.sort_by_key(|n| n.id);
    let from = nodes.first().map_or(0, |n| n.id);
    if from > 1 || nodes.iter().enumerate().any(|(i, n)| n.id != from + i) {
        return Err(format!(
            "{origin}: planets must be numbered 0, 1, 2, ... (or 1, 2, 3, ...) without gaps"
        ));
    }
    let mut homes = [None, None];
    for n in &nodes {
        if let Some(b) = n.base {
            let slot = &mut homes[usize::from(b - 1)];
            if slot.is_some() {
                return Err(format!("{origin}: two planets are `base = {b}`; each player has one home"));
            }
            *slot = Some(n.id - from);
        }
    }
    let [Some(home1), Some(home2)] = homes else {
        return Err(format!("{origin}: a map needs one planet with `base = 1` and one with `base = 2`"));
    };
    let mut map_edges = Vec::with_capacity(edges.len());
    for (a, b, distance, token) in edges {
        for end in [a, b] {
            if end < from || end - from >= nodes.len() {
                return Err(format!(
                    "{}: the edge {a} -- {b} names planet {end}, which is not described",
                    at(&token)
                ));
            }
        }
        map_edges.push(Edge { a: a - from, b: b - from, distance });
    }
    let planets = nodes.iter().map(|n| PlanetInfo { size: n.size, habitability: n.habitability }).collect();
    let map = Map::new(planets, map_edges).map_err(|e| format!("{origin}: {e}"))?;
    let homes = [home1, home2];
    Ok((course_start(map, homes), homes))
}

/// Reads `[ key = value, ... ]` from `pos` (at the `[`), returning the pairs.
fn attributes(tokens: &[Token], pos: &mut usize, origin: &str) -> Result<Vec<(Token, Token)>, String> {
    let at = |t: &Token| format!("{origin}:{}:{}", t.line, t.column);
    let open = &tokens[*pos];
    *pos += 1;
    let mut out = Vec::new();
    loop {
        let Some(key) = tokens.get(*pos) else {
            return Err(format!("{}: `[` is never closed with `]`", at(open)));
        };
        *pos += 1;
        match key.text.as_str() {
            "]" => return Ok(out),
            "," | ";" => continue,
            _ => {}
        }
        match tokens.get(*pos) {
            Some(eq) if eq.text == "=" => *pos += 1,
            Some(other) => return Err(format!("{}: expected `=` after `{}`", at(other), key.text)),
            None => return Err(format!("{}: `[` is never closed with `]`", at(open))),
        }
        let Some(value) = tokens.get(*pos) else {
            return Err(format!("{}: `{} =` has no value", at(key), key.text));
        };
        *pos += 1;
        out.push((key.clone(), value.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "graph g {\n  // a comment\n  1 [ habit = 3, size = 100, x = 1, y = 1, base = 1 ]\n  \
                         2 [ habit = 1, size = 50 , x = 5, y = 1]\n  3 [ habit = 3, size = 100, x = 5, y = 5, base = 2 ];\n\n  \
                         3 -- 2 [ weight = 2, label = 2 ]\n  1 -- 2 [ weight = 4 ]\n}";

    #[test]
    fn a_course_map_is_read_from_1_as_from_0_with_its_edges_as_written() {
        assert!(is_dot(SMALL));
        assert!(!is_dot("planetwars state\n"));
        let (state, homes) = parse(SMALL, "k.dot").unwrap();
        assert_eq!(homes, [0, 2]);
        assert_eq!(state.map.planets[1], PlanetInfo { size: 50, habitability: 1 });
        assert_eq!(state.map.edges, vec![Edge { a: 2, b: 1, distance: 2 }, Edge { a: 0, b: 1, distance: 4 }]);
        // 1 person at each home, grown by the engine's first unit of time.
        assert_eq!(state.population, vec![2, 0, 2]);
        assert_eq!(state.ply, 0);
    }

    #[test]
    fn bad_maps_are_refused_with_line_and_column() {
        let cases = [
            ("graph g {\n 0 [ size = 5, base = 1 ]\n}", "k.dot:2:2: planet 0 has no `habit`"),
            ("graph g {\n 0 [ habit = 1, size = x ]\n}", "k.dot:2:24: `size = x` is not a whole number"),
            ("graph g {\n 0 -- 1 [ label = 2 ]\n}", "k.dot:2:2: the edge 0 -- 1 has no `weight`"),
            ("graph g {\n 0 -- 1 [ weight = 0 ]\n}", "k.dot:2:20: `weight = 0` is not a length"),
            ("digraph g { }", "k.dot:1:1: a `digraph`"),
            ("graph g {\n 0 [ habit = 1, size = 5 ", "k.dot:2:4: `[` is never closed"),
            ("graph g {\n 0 [ habit = 1, size = 5, base = 3 ]\n}", "k.dot:2:34: `base = 3`"),
            ("graph g { 0 [habit=1, size=5, base=1] 2 [habit=1, size=5, base=2] }", "numbered 0, 1, 2"),
            (
                "graph g { 0 [habit=1, size=5, base=1] 1 [habit=1, size=5] }",
                "one planet with `base = 1` and one",
            ),
            (
                "graph g { 0 [habit=1, size=5, base=1] 1 [habit=1, size=5, base=2] 0 -- 7 [weight=1] }",
                "planet 7",
            ),
            ("graph g { /* never closed", "k.dot:1:11: a comment that is never closed"),
            ("graph g { 0 @ }", "k.dot:1:13: unexpected `@`"),
        ];
        for (text, want) in cases {
            let err = parse(text, "k.dot").unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
