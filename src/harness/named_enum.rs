//! [`named_enum!`](crate::named_enum): an enum whose values have names a user types (a game's
//! categories: `win`, `block`, `legal`), with the list of all of them, the name, `Display` and
//! `FromStr`, written once.

/// Declares an enum of unit variants, each with the name it reads and prints as, and gives it
/// `ALL` (every value, in order), `name()`, `Display` (the name) and `FromStr` (the name, or an
/// error listing every name: "expected one of `win`, `block`, `legal`, found `x`").
///
/// ```ignore
/// arbiter::named_enum! {
///     /// What a position's expected answer is about.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Category {
///         /// A move wins at once.
///         Win => "win",
///         /// Any legal move.
///         Legal => "legal",
///     }
/// }
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $name:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $enum {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $enum {
            /// Every value, in the order they are declared (for categories: tried).
            pub const ALL: [$enum; [$($name),+].len()] = [$($enum::$variant),+];

            /// The name the value reads and prints as.
            pub fn name(self) -> &'static str {
                match self {
                    $( $enum::$variant => $name, )+
                }
            }
        }

        impl ::std::fmt::Display for $enum {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $enum {
            type Err = String;

            fn from_str(s: &str) -> Result<$enum, String> {
                $enum::ALL.into_iter().find(|c| c.name() == s).ok_or_else(|| {
                    let names: &[&str] = &[$(concat!("`", $name, "`")),+];
                    format!("expected one of {}, found `{s}`", names.join(", "))
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::named_enum! {
        /// Two values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Pair {
            /// The first.
            One => "one",
            /// The second.
            Two => "two",
        }
    }

    #[test]
    fn names_read_and_print_and_a_wrong_one_lists_them_all() {
        assert_eq!(Pair::ALL, [Pair::One, Pair::Two]);
        assert_eq!(Pair::Two.to_string(), "two");
        assert_eq!("one".parse::<Pair>(), Ok(Pair::One));
        assert_eq!("three".parse::<Pair>(), Err("expected one of `one`, `two`, found `three`".to_string()));
    }
}
