//! [`concerns!`](crate::concerns): the [`super::Referee`] accessors of a game that implements a
//! concern trait on its referee itself, written once.

/// Inside `impl Referee for G`, answers `Some(self)` for each concern named: `cases`,
/// `builtins`, `fuzzing`, `games`, `symmetry`, `drawing`. The others keep their default, `None`.
///
/// ```ignore
/// impl Referee for TicTacToe {
///     arbiter::concerns!(cases, builtins, fuzzing, games, drawing);
///     // ...
/// }
/// ```
#[macro_export]
macro_rules! concerns {
    ($($concern:ident),* $(,)?) => { $( $crate::concerns!(@one $concern); )* };
    (@one cases) => { $crate::concerns!(@with cases, Cases); };
    (@one builtins) => { $crate::concerns!(@with builtins, Builtins); };
    (@one fuzzing) => { $crate::concerns!(@with fuzzing, Fuzzing); };
    (@one games) => { $crate::concerns!(@with games, Games); };
    (@one symmetry) => { $crate::concerns!(@with symmetry, Symmetry); };
    (@one drawing) => { $crate::concerns!(@with drawing, Drawing); };
    (@with $name:ident, $trait:ident) => {
        fn $name(&self) -> Option<&dyn $crate::harness::referee::$trait> {
            Some(self)
        }
    };
}
