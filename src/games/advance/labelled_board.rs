//! The board as text with file letters and rank numbers around it: what `show` prints and what
//! a case's failure report draws. On its own so that the analyst and the referee both use it
//! without importing each other.

use super::board::Board;

/// The board with file letters above and below and rank numbers on both sides.
pub fn draw(board: &Board) -> String {
    let files = "    a b c d e f g h i\n";
    let mut out = String::from(files);
    for (i, line) in board.lines().iter().enumerate() {
        let rank = 9 - i;
        let cells: Vec<String> = line.chars().map(|c| c.to_string()).collect();
        out.push_str(&format!(" {rank}  {}  {rank}\n", cells.join(" ")));
    }
    out.push_str(files);
    out
}
