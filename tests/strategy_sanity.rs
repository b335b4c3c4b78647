//! The random positions used by property tests are what they claim to be.

mod common;

use arbiter::Side;
use proptest::prelude::*;

proptest! {
    #[test]
    fn random_positions_are_well_formed(pos in common::strategy::position()) {
        prop_assert_eq!(pos.board.generals(Side::White).len(), 1);
        prop_assert_eq!(pos.board.generals(Side::Black).len(), 1);
        prop_assert!(pos.validate().is_ok());
    }
}
