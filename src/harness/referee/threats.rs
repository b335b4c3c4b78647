//! The `block` category of a game where a move can win at once (Pente's five or captures,
//! Network's network): the opponent's threats, the moves that stop every one, and the lost
//! position where none does. Each game knows what a win and a threat are; what the sets mean
//! and how the category's answers follow from them is the same everywhere, and written here.

/// The opponent's threats and the block set of a position, as a game's oracle keeps them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats<M> {
    /// The opponent's winning moves were it its turn now; empty when the player to move wins
    /// at once (or has no move).
    pub moves: Vec<M>,
    /// The block set: `Some` exactly when `moves` is not empty; then the moves that stop every
    /// threat, empty when no move does (the game is lost).
    pub block: Option<Vec<M>>,
}

impl<M: Clone> Threats<M> {
    /// The sets of a position. `settled`: the player to move wins at once or has no move, so
    /// nothing needs blocking and neither set is worked out. Else `threats()` gives the
    /// opponent's winning moves were it its turn, and `blocks(threats)` (asked only when there
    /// are some) the moves after which the opponent has none.
    pub fn find(
        settled: bool,
        threats: impl FnOnce() -> Vec<M>,
        blocks: impl FnOnce(&[M]) -> Vec<M>,
    ) -> Threats<M> {
        if settled {
            return Threats { moves: Vec::new(), block: None };
        }
        let moves = threats();
        let block = (!moves.is_empty()).then(|| blocks(&moves));
        Threats { moves, block }
    }

    /// Whether the `block` category applies: the opponent threatens a win.
    pub fn applies(&self) -> bool {
        self.block.is_some()
    }

    /// Whether the opponent threatens a win that no move stops: the block set is there and
    /// empty.
    pub fn lost(&self) -> bool {
        self.block.as_deref().is_some_and(<[M]>::is_empty)
    }

    /// The moves that stop every threat; empty when nothing is threatened or nothing stops it.
    pub fn blocks(&self) -> &[M] {
        self.block.as_deref().unwrap_or_default()
    }

    /// The right answers of the `block` category: the block set, or every legal move when the
    /// game is lost (any move is then as good as another); empty when the category does not
    /// apply.
    pub fn answers(&self, legal: &[M]) -> Vec<M> {
        match self.block.as_deref() {
            Some([]) => legal.to_vec(),
            Some(block) => block.to_vec(),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_position_has_no_sets_and_asks_nothing() {
        let t: Threats<u8> = Threats::find(true, || panic!("not asked"), |_| panic!("not asked"));
        assert_eq!(t, Threats { moves: vec![], block: None });
        assert!(!t.applies() && !t.lost());
    }

    #[test]
    fn blocks_are_asked_only_when_something_is_threatened() {
        let none: Threats<u8> = Threats::find(false, Vec::new, |_| panic!("not asked"));
        assert_eq!(none.block, None);
        let some = Threats::find(false, || vec![3, 4], |t| t[..1].to_vec());
        assert_eq!(some, Threats { moves: vec![3, 4], block: Some(vec![3]) });
        assert!(some.applies() && !some.lost());
        assert_eq!(some.blocks(), [3]);
    }

    #[test]
    fn a_lost_position_accepts_every_legal_move() {
        let legal = [1, 2, 3];
        let sets = |block: Option<Vec<i32>>| Threats { moves: vec![9], block };
        let (lost, one, none) = (sets(Some(vec![])), sets(Some(vec![2])), Threats::default());
        assert!(lost.lost() && !one.lost() && !none.lost());
        assert!(lost.blocks().is_empty() && none.blocks().is_empty());
        assert_eq!(lost.answers(&legal), legal);
        assert_eq!(one.answers(&legal), [2]);
        assert_eq!(none.answers(&legal), Vec::<i32>::new());
    }
}
