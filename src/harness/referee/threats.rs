//! The `block` category of a game where a move can win at once (Pente's five or captures,
//! Network's network): the opponent's threats, the moves that stop every one, and the lost
//! position where none does. Each game knows what a win and a threat are; what the sets mean
//! and how the category's answers follow from them is the same everywhere, and written here.

/// The opponent's threats and the block set of a position, as a game's oracle keeps them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats<M> {
    /// The opponent's winning moves were it its turn now; empty when the player to move wins
    /// at once (or has no move).
    pub threats: Vec<M>,
    /// The block set: `Some` exactly when `threats` is not empty; then the moves that stop every
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
            return Threats { threats: Vec::new(), block: None };
        }
        let threats = threats();
        let block = (!threats.is_empty()).then(|| blocks(&threats));
        Threats { threats, block }
    }

    /// Whether the opponent threatens a win that no move stops: the block set is there and
    /// empty.
    pub fn lost(block: Option<&[M]>) -> bool {
        block.is_some_and(<[M]>::is_empty)
    }

    /// The right answers of the `block` category: the block set, or every legal move when the
    /// game is lost (any move is then as good as another); empty when the category does not
    /// apply.
    pub fn block_answers(block: Option<&[M]>, legal: &[M]) -> Vec<M> {
        match block {
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
        assert_eq!(t, Threats { threats: vec![], block: None });
    }

    #[test]
    fn blocks_are_asked_only_when_something_is_threatened() {
        let none: Threats<u8> = Threats::find(false, Vec::new, |_| panic!("not asked"));
        assert_eq!(none.block, None);
        let some = Threats::find(false, || vec![3, 4], |t| t[..1].to_vec());
        assert_eq!(some, Threats { threats: vec![3, 4], block: Some(vec![3]) });
    }

    #[test]
    fn a_lost_position_accepts_every_legal_move() {
        let legal = [1, 2, 3];
        assert!(Threats::<u8>::lost(Some(&[])) && !Threats::lost(Some(&[2])) && !Threats::<u8>::lost(None));
        assert_eq!(Threats::block_answers(Some(&[]), &legal), legal);
        assert_eq!(Threats::block_answers(Some(&[2]), &legal), [2]);
        assert_eq!(Threats::block_answers(None, &legal), Vec::<i32>::new());
    }
}
