//! Python values as the assignment's functions take and return them (ints, strings, bools,
//! `None`, tuples, lists): read from and written as Python literals (how case files and
//! failure reports show calls), and carried over the host protocol as JSON with tuples tagged
//! (`{"tuple": [...]}`, docs/PROTOCOL.md).

use std::fmt;

use serde_json::{Value, json};

use super::board::{Board, Move, Pos};

/// A Python value.
#[derive(Clone, Debug, PartialEq)]
pub enum Py {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Tuple(Vec<Py>),
    List(Vec<Py>),
    /// Anything else the host could only show by its `repr`.
    Other(String),
}

impl Py {
    /// A position as `(row, col)`.
    pub fn pos(p: Pos) -> Py {
        Py::Tuple(vec![Py::Int(p.row), Py::Int(p.col)])
    }

    /// A move as `((row, col), (row, col))`.
    pub fn mv((from, to): Move) -> Py {
        Py::Tuple(vec![Py::pos(from), Py::pos(to)])
    }

    /// A board as a tuple of eight strings.
    pub fn board(b: &Board) -> Py {
        Py::Tuple(b.rows().into_iter().map(Py::Str).collect())
    }

    /// This value as a position, if it is a pair of ints.
    pub fn as_pos(&self) -> Option<Pos> {
        match self {
            Py::Tuple(v) | Py::List(v) if v.len() == 2 => match (&v[0], &v[1]) {
                (Py::Int(r), Py::Int(c)) => Some(Pos::new(*r, *c)),
                _ => None,
            },
            _ => None,
        }
    }

    /// This value as a move.
    pub fn as_move(&self) -> Option<Move> {
        match self {
            Py::Tuple(v) | Py::List(v) if v.len() == 2 => Some((v[0].as_pos()?, v[1].as_pos()?)),
            _ => None,
        }
    }

    /// This value as a board.
    pub fn as_board(&self) -> Option<Board> {
        match self {
            Py::Tuple(v) | Py::List(v) => {
                let rows: Option<Vec<&str>> =
                    v.iter().map(|r| if let Py::Str(s) = r { Some(s.as_str()) } else { None }).collect();
                Board::from_rows(&rows?).ok()
            }
            _ => None,
        }
    }

    /// The value as the host protocol carries it.
    pub fn to_json(&self) -> Value {
        match self {
            Py::None => Value::Null,
            Py::Bool(b) => json!(b),
            Py::Int(i) => json!(i),
            Py::Float(f) => json!(f),
            Py::Str(s) => json!(s),
            Py::Tuple(v) => json!({ "tuple": v.iter().map(Py::to_json).collect::<Vec<_>>() }),
            Py::List(v) => Value::Array(v.iter().map(Py::to_json).collect()),
            Py::Other(r) => json!({ "repr": r }),
        }
    }

    /// A value the host sent back.
    pub fn from_json(value: &Value) -> Py {
        match value {
            Value::Null => Py::None,
            Value::Bool(b) => Py::Bool(*b),
            Value::Number(n) => n.as_i64().map_or_else(|| Py::Float(n.as_f64().unwrap_or(f64::NAN)), Py::Int),
            Value::String(s) => Py::Str(s.clone()),
            Value::Array(v) => Py::List(v.iter().map(Py::from_json).collect()),
            Value::Object(o) => match (o.get("tuple"), o.get("repr")) {
                (Some(Value::Array(v)), _) if o.len() == 1 => {
                    Py::Tuple(v.iter().map(Py::from_json).collect())
                }
                (_, Some(Value::String(r))) if o.len() == 1 => Py::Other(r.clone()),
                _ => Py::Other(value.to_string()),
            },
        }
    }

    /// Python's `==`: `True == 1`, a tuple never equals a list.
    pub fn py_eq(&self, other: &Py) -> bool {
        match (self, other) {
            (Py::Bool(a), Py::Int(b)) | (Py::Int(b), Py::Bool(a)) => i64::from(*a) == *b,
            (Py::Int(a), Py::Float(b)) | (Py::Float(b), Py::Int(a)) => (*a as f64) == *b,
            (Py::Tuple(a), Py::Tuple(b)) | (Py::List(a), Py::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y))
            }
            _ => self == other,
        }
    }
}

impl fmt::Display for Py {
    /// The value's Python `repr`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Py::None => write!(f, "None"),
            Py::Bool(true) => write!(f, "True"),
            Py::Bool(false) => write!(f, "False"),
            Py::Int(i) => write!(f, "{i}"),
            Py::Float(x) => write!(f, "{x:?}"),
            Py::Str(s) => {
                let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
                write!(f, "{quote}")?;
                for c in s.chars() {
                    match c {
                        '\\' => write!(f, "\\\\")?,
                        '\n' => write!(f, "\\n")?,
                        '\t' => write!(f, "\\t")?,
                        c if c == quote => write!(f, "\\{c}")?,
                        c if (c as u32) < 0x20 => write!(f, "\\x{:02x}", c as u32)?,
                        c => write!(f, "{c}")?,
                    }
                }
                write!(f, "{quote}")
            }
            Py::Tuple(v) => {
                write!(f, "(")?;
                write_items(f, v)?;
                if v.len() == 1 {
                    write!(f, ",")?;
                }
                write!(f, ")")
            }
            Py::List(v) => {
                write!(f, "[")?;
                write_items(f, v)?;
                write!(f, "]")
            }
            Py::Other(r) => write!(f, "{r}"),
        }
    }
}

/// The items of a tuple or list as Python's `repr` separates them: `1, 'a', (2, 3)`.
fn write_items(f: &mut std::fmt::Formatter<'_>, items: &[Py]) -> std::fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

/// Reads a call such as `is_move_valid(((6, 4), (4, 4)), (...), True)`: the function's name
/// and its arguments.
pub fn parse_call(text: &str) -> Result<(String, Vec<Py>), String> {
    let text = text.trim();
    let open = text.find('(').ok_or("expected a call such as `square_to_position('e2')`")?;
    let name = text[..open].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a function name"));
    }
    let mut p = Parser { s: text.as_bytes(), i: open };
    let args = match p.value()? {
        Py::Tuple(v) => v,
        // `f(x)` reads as the parenthesised `x`, one argument.
        one => vec![one],
    };
    // `f((1, 2))` is a single tuple argument, but the parser reads `((1, 2))` as `(1, 2)`:
    // look at the text again for that case.
    let inner = text[open + 1..text.len().saturating_sub(1)].trim();
    let args = if is_single_paren_arg(inner) { vec![Py::Tuple(args)] } else { args };
    p.skip_space();
    if p.i != p.s.len() {
        return Err(format!("unexpected text after the call at column {}", p.i + 1));
    }
    Ok((name.to_string(), args))
}

/// Whether the argument list `inner` is one parenthesised tuple (`(1, 2)`), not two values.
fn is_single_paren_arg(inner: &str) -> bool {
    if !inner.starts_with('(') {
        return false;
    }
    let mut depth = 0i32;
    let mut in_str: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in inner.char_indices() {
        if let Some(q) = in_str {
            if c == q && prev != '\\' {
                in_str = None;
            }
        } else {
            match c {
                '\'' | '"' => in_str = Some(c),
                '(' | '[' => depth += 1,
                ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return inner[i + 1..].trim().trim_end_matches(',').trim().is_empty();
                    }
                }
                _ => {}
            }
        }
        prev = c;
    }
    false
}

/// Renders a call as Python.
pub fn render_call(function: &str, args: &[Py]) -> String {
    let list: Vec<String> = args.iter().map(Py::to_string).collect();
    format!("{function}({})", list.join(", "))
}

/// Reads one Python literal.
pub fn parse_value(text: &str) -> Result<Py, String> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let v = p.value()?;
    p.skip_space();
    if p.i != p.s.len() {
        return Err(format!("unexpected text at column {}", p.i + 1));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn error(&self, what: &str) -> String {
        format!("expected {what} at column {}", self.i + 1)
    }

    fn value(&mut self) -> Result<Py, String> {
        self.skip_space();
        let Some(&c) = self.s.get(self.i) else { return Err(self.error("a value")) };
        match c {
            b'(' | b'[' => {
                let close = if c == b'(' { b')' } else { b']' };
                self.i += 1;
                let mut items = Vec::new();
                let mut trailing_comma = false;
                loop {
                    self.skip_space();
                    if self.s.get(self.i) == Some(&close) {
                        self.i += 1;
                        break;
                    }
                    items.push(self.value()?);
                    self.skip_space();
                    match self.s.get(self.i) {
                        Some(b',') => {
                            self.i += 1;
                            trailing_comma = true;
                        }
                        Some(&x) if x == close => {
                            self.i += 1;
                            trailing_comma = false;
                            break;
                        }
                        _ => return Err(self.error("`,` or a closing bracket")),
                    }
                }
                if c == b'[' {
                    Ok(Py::List(items))
                } else if items.len() == 1 && !trailing_comma {
                    Ok(items.pop().expect("one item"))
                } else {
                    Ok(Py::Tuple(items))
                }
            }
            b'\'' | b'"' => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let Some(&b) = self.s.get(self.i) else { return Err(self.error("the string's end")) };
                    self.i += 1;
                    match b {
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or_else(|| self.error("an escape"))?;
                            self.i += 1;
                            out.push(match e {
                                b'n' => '\n',
                                b't' => '\t',
                                other => other as char,
                            });
                        }
                        x if x == c => break,
                        _ => {
                            // Keep multi-byte characters whole.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            out.push_str(&String::from_utf8_lossy(&self.s[start..end]));
                            self.i = end;
                        }
                    }
                }
                Ok(Py::Str(out))
            }
            b'-' | b'0'..=b'9' => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
                text.parse().map(Py::Int).map_err(|_| self.error("a number"))
            }
            _ => {
                for (word, v) in [("True", Py::Bool(true)), ("False", Py::Bool(false)), ("None", Py::None)] {
                    if self.s[self.i..].starts_with(word.as_bytes()) {
                        self.i += word.len();
                        return Ok(v);
                    }
                }
                Err(self.error("a value"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_round_trip() {
        for text in [
            "square_to_position('e2')",
            "is_move_valid(((6, 4), (4, 4)), ('rnbqkbnr', 'pppppppp'), True)",
            "initial_state()",
            "is_current_players_piece('.', False)",
            "f((1, 2))",
            "f((1,))",
        ] {
            let (name, args) = parse_call(text).unwrap();
            assert_eq!(render_call(&name, &args), text, "{text}");
        }
        assert_eq!(parse_call("f((1, 2))").unwrap().1.len(), 1);
        assert_eq!(parse_call("f((1, 2), 3)").unwrap().1.len(), 2);
        assert_eq!(parse_call("f(-3)").unwrap().1, vec![Py::Int(-3)]);
    }

    #[test]
    fn json_tags_tuples_and_python_equality_is_pythons() {
        let v = parse_value("((6, 4), [1, 'a'], None, True)").unwrap();
        assert_eq!(Py::from_json(&v.to_json()), v);
        assert!(Py::Bool(true).py_eq(&Py::Int(1)));
        assert!(!Py::Tuple(vec![Py::Int(1)]).py_eq(&Py::List(vec![Py::Int(1)])));
    }
}
